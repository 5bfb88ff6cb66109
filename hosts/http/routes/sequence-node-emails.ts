import * as t from "io-ts";
import { RenderPreviewCommand } from "../../../core/emails/commands.js";
import { renderPreviewView } from "../../../core/emails/render-preview-view.js";
import { MAX_NODE_TEST_RECIPIENTS, NodeTestCommand, SequenceNodePath } from "../../../core/sequences/node-commands.js";
import { PreviewSequenceNode } from "../../../core/sequences/preview-sequence-node.js";
import { SendSequenceTestEmails } from "../../../core/sequences/send-sequence-test-emails.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const NODE_ERRORS = "404 'Sequence not found' or 'Sequence node not found'; 400 when the node is not an action_email step";

/** The email of one sequence step: previewed, or sent as a test (compat-reference §10). */
export const sequenceNodeEmailsRoutes = routeModule({ previewNode: PreviewSequenceNode, sendTests: SendSequenceTestEmails }, (uses) => [
  defineRoute({
    method: "post",
    path: "/sequences/:sequenceId/nodes/:nodeId/render",
    tag: "Sequences",
    scopes: ["sequences:read"],
    summary: `Render an email step as a contact would receive it (no tracking): subscriberId or an inline subscriber fill the merge tags, variables override them (variables.event fills {{event.x}}); unresolved merge tags are listed. ${NODE_ERRORS}`,
    params: SequenceNodePath,
    body: RenderPreviewCommand,
    response: renderPreviewView("sequence_node"),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => uses.previewNode.execute(actor, input.params.sequenceId, input.params.nodeId, input.body),
  }),
  defineRoute({
    method: "post",
    path: "/sequences/:sequenceId/nodes/:nodeId/test",
    tag: "Sequences",
    scopes: ["sequences:write"],
    summary: `Send an email step as a test to recipients (1-${MAX_NODE_TEST_RECIPIENTS} addresses): from the step's sender, merge tags filled by the recipient's contact when there is one; marked as test sends, never counted in metrics; links not tracked. ${NODE_ERRORS}`,
    params: SequenceNodePath,
    body: NodeTestCommand,
    response: view({
      sequenceId: Id,
      nodeId: t.string,
      results: t.readonlyArray(view({ recipientEmail: t.string, emailSendId: Id, jobId: t.string })),
    }),
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => uses.sendTests.execute(actor, input.params.sequenceId, input.params.nodeId, input.body),
  }),
]);
