import * as t from "io-ts";
import { CreateImportCommand, ImportPath } from "../../../core/subscriber-imports/commands.js";
import { CreateImport } from "../../../core/subscriber-imports/create-import.js";
import { GetImport } from "../../../core/subscriber-imports/get-import.js";
import { ImportView } from "../../../core/subscriber-imports/view.js";
import { view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const TAG = "Subscribers";

/** Subscriber imports. */
export const subscriberImportsRoutes = routeModule({ createImport: CreateImport, getImport: GetImport }, (uses) => [
  defineRoute({
    method: "post",
    path: "/subscribers/imports",
    tag: TAG,
    scopes: ["subscribers:import"],
    summary:
      "Import 1 to 5,000 contacts in the background (202); poll the import for progress. Rows that are not valid contacts fail on their own with a reason; the same idempotencyKey returns the first import (deduplicated: true). " +
      "Double opt-in (optInMode double_opt_in, or default with the company's doubleOptInEnabled; confirmed never asks): every active contact the import creates is stored unconfirmed with its chunk, together with the job that emails it to confirm, and gets no marketing until it does",
    body: CreateImportCommand,
    bodyLimit: "16mb",
    response: view({ import: ImportView, deduplicated: t.boolean }),
    errors: [400, 403, 404, 422],
    successStatus: 202,
    handle: async ({ input, actor }) => uses.createImport.execute(actor, input.body),
  }),
  defineRoute({
    method: "get",
    path: "/subscribers/imports/:importId",
    tag: TAG,
    scopes: ["subscribers:read"],
    summary: "One import: its status, chunk progress, counts and the reasons rows were skipped or failed",
    params: ImportPath,
    response: view({ import: ImportView }),
    errors: [403, 404],
    handle: async ({ input, actor }) => under("import")(await uses.getImport.execute(actor, input.params.importId)),
  }),
]);
