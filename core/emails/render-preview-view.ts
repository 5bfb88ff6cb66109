import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, view } from "../shared/view-fields.js";

/** The answer of a render preview (compat render body), for the kind of entity rendered. */
export const renderPreviewView = <E extends string>(entity: E) =>
  view({
    html: t.string,
    text: t.string,
    subject: t.string,
    previewText: NullableString,
    locale: t.string,
    personalized: t.boolean,
    trackingApplied: t.boolean,
    unresolvedMergeTags: t.readonlyArray(view({ tag: t.string, reason: oneOf(["unknown", "no_value"], "UnresolvedReason") })),
    unevaluatedConditions: t.readonlyArray(t.unknown),
    entity: view({ type: t.literal(entity), id: Id, variantId: t.null }),
  });
