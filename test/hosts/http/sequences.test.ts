import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

/** Requests spread over several keys, each kept under the per-key limit of 20 a second. */
async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  const ring = [company.ownerKey];
  for (let i = 1; i < 4; i++)
    ring.push((await createMemberKeyFixture(fixture.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  const lastUse = new Map<string, number>();
  let next = 0;
  return {
    api: fixture,
    company,
    async call(method, path, options = {}) {
      const key = ring[next++ % ring.length]!;
      const wait = (lastUse.get(key) ?? 0) + 60 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastUse.set(key, Date.now());
      return fixture.call(method, path, { ...options, key });
    },
  };
}

const NOW = "2026-11-22T10:00:00.000Z";

interface NodeView {
  id: string;
  nodeType: string;
  config: Record<string, unknown>;
  updatedAt: string;
  structuralStepNumber: number | null;
}
interface EdgeView {
  sourceNodeId: string;
  targetNodeId: string;
  condition?: string;
}

/** The graph as a chain of node types from the trigger (for linear graphs). */
function chainOf(sequence: { nodes: NodeView[]; edges: EdgeView[] }): string[] {
  const byId = new Map(sequence.nodes.map((node) => [node.id, node]));
  let current = sequence.nodes.find((node) => node.nodeType === "trigger");
  const chain: string[] = [];
  while (current) {
    chain.push(current.nodeType === "action_email" ? `email:${String(current.config.subject)}` : current.nodeType);
    const next = sequence.edges.find((edge) => edge.sourceNodeId === current!.id);
    current = next ? byId.get(next.targetNodeId) : undefined;
    if (chain.length > 50) break;
  }
  return chain;
}

const stored = (s: Session) => s.api.runtime.knex("sequences").where({ company_id: s.company.companyId });

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("the official client's create, get and list: a disabled draft with a linear graph, its emails and event tracking"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", "/api/v1/sequences", {
      body: {
        name: " Onboarding ",
        description: "Welcome series",
        trigger: "event_received",
        eventName: "signed_up",
        enrollmentMode: "one_time",
        steps: [
          { subject: "Welcome", html: "<p>Hi {{firstName}}</p>" },
          { subject: "Tips", blocks: [{ type: "text", content: "Here are tips" }], delayDays: 2 },
          { type: "update_subscriber", customAttributeUpdates: [{ name: "onboarded", value: true, valueType: "boolean" }] },
        ],
      },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const { sequence } = created.body;
    t.regex(sequence.id, /^seq_/);
    t.like(sequence, {
      name: "Onboarding",
      description: "Welcome series",
      status: "draft",
      effectiveStatus: "draft",
      acceptsNewEnrollments: false,
      processesExistingEnrollments: false,
      enrollmentPaused: false,
      trigger: "event_received",
      triggerConfig: { eventName: "signed_up", propertyFilters: [] },
      enrollmentMode: "one_time",
      emailCount: 2,
      nodeCount: 6,
      subscriberUpdateCount: 1,
      graphRevision: 1,
      enrichmentStatus: "complete",
      createdAt: NOW,
      updatedAt: NOW,
    });
    t.deepEqual(chainOf(sequence), ["trigger", "email:Welcome", "logic_delay", "email:Tips", "action_update_attributes", "completion"]);
    t.deepEqual(sequence.nodes.find((node: NodeView) => node.nodeType === "logic_delay").config, { delayDays: 2 });
    t.true(sequence.nodes.every((node: NodeView) => /^node_/.test(node.id) && node.updatedAt === NOW));
    t.deepEqual(
      sequence.emails.map((email: { subject: string; stepNumber: number; structuralStepNumber: number; nodeId: string; emailId: string }) => [
        email.subject,
        email.stepNumber,
        email.structuralStepNumber,
        email.emailId === email.nodeId,
      ]),
      [
        ["Welcome", 1, 1, true],
        ["Tips", 2, 3, true],
      ],
    );
    t.is(typeof created.body.message, "string");
    t.deepEqual(created.body.requiredEvents, ["signed_up"]);
    t.is(typeof created.body.eventTrackingCode, "string");
    t.like(created.body.eventTracking, { eventName: "signed_up", method: "POST" });
    t.regex(created.body.eventTracking.endpoint, /\/api\/v1\/subscribers\/events$/);

    const fetched = await s.call("GET", `/api/v1/sequences/${sequence.id}`);
    t.is(fetched.status, 200);
    t.deepEqual(fetched.body, { success: true, sequence });

    const blank = await s.call("POST", "/api/v1/sequences", { body: { name: "Blank", labels: ["b2b", "trial"] } });
    t.is(blank.status, 200);
    t.deepEqual(chainOf(blank.body.sequence), ["trigger", "completion"]);
    t.like(blank.body.sequence, { trigger: "contact_added", triggerConfig: { listScope: "any_contact" }, emailCount: 0, labels: ["b2b", "trial"] });
    t.false("eventTracking" in blank.body, "only event triggers say how to send their event");

    s.api.clock.advance(1000);
    await s.call("POST", "/api/v1/sequences", { body: { name: "Winback", labels: ["b2b"] } });
    const listed = await s.call("GET", "/api/v1/sequences");
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.sequences.map((item: { name: string }) => item.name),
      ["Winback", "Blank", "Onboarding"],
    );
    t.deepEqual(listed.body.pagination, { limit: null, offset: 0, count: 3, total: 3, hasMore: false });
    t.false("nodes" in listed.body.sequences[0], "the list carries summaries");
    const page = await s.call("GET", "/api/v1/sequences?limit=1&offset=1");
    t.deepEqual(
      [page.body.sequences.map((item: { name: string }) => item.name), page.body.pagination],
      [["Blank"], { limit: 1, offset: 1, count: 1, total: 3, hasMore: true }],
    );
    const labelled = await s.call("GET", "/api/v1/sequences?labels=trial,nothing");
    t.deepEqual(
      labelled.body.sequences.map((item: { name: string }) => item.name),
      ["Blank"],
    );
    const searched = await s.call("GET", "/api/v1/sequences?search=BOARD");
    t.deepEqual(
      searched.body.sequences.map((item: { name: string }) => item.name),
      ["Onboarding"],
    );
    const literal = await s.call("GET", "/api/v1/sequences?search=%25");
    t.deepEqual(literal.body.sequences, [], "% is a character to look for, not a wildcard");
    const drafts = await s.call("GET", "/api/v1/sequences?status=archived");
    t.deepEqual(drafts.body.sequences, []);
    const badLimit = await s.call("GET", "/api/v1/sequences?limit=500");
    t.deepEqual([badLimit.status, badLimit.body.errors], [422, [{ path: "limit", message: "must be between 1 and 100" }]]);
  });

  test(name("bad bodies are refused in the spec's envelope and store nothing; unsupported node types are named"), async (t) => {
    const s = await session(t, dialect);
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ description: "x" }, 422, "Invalid request: name is required"],
      [{ name: "x", steps: [{ html: "<p>x</p>" }] }, 422, "Invalid request: steps.0.subject is required"],
      [
        { name: "x", steps: [{ subject: "Hi", html: "<p>x</p>", blocks: [{ type: "text", content: "x" }] }] },
        400,
        "steps.0: give exactly one of html or blocks",
      ],
      [{ name: "x", steps: [{ type: "sms", text: "hi" }] }, 400, /^steps\.0: node type 'action_sms' is not supported by this server/],
      [{ name: "x", steps: [{ nodeType: "action_ai", config: { prompt: "x" } }] }, 400, /^steps\.0: node type 'action_ai' is not supported by this server/],
      [{ name: "x", steps: [{ nodeType: "action_create_discount" }] }, 400, /'action_create_discount' is not supported/],
      [{ name: "x", steps: [{ nodeType: "action_ab_test" }] }, 400, /'action_ab_test' is not supported/],
      [{ name: "x", steps: [{ nodeType: "action_teleport" }] }, 400, /^steps\.0: unknown node type 'action_teleport'/],
      [
        { name: "x", steps: [{ nodeType: "action_webhook", config: { url: "http://example.com/hook" } }] },
        422,
        "Invalid request: steps.0.config.url must be an absolute https:// URL",
      ],
      [
        { name: "x", steps: [{ nodeType: "action_webhook", config: { url: "https://example.com/hook", resultKey: "x".repeat(65) } }] },
        422,
        /steps\.0\.config\.resultKey must be 1 to 64/,
      ],
      [{ name: "x", steps: [{ nodeType: "action_add_tag", config: {} }] }, 400, "steps.0.config: give tagId or tagName"],
      [
        { name: "x", steps: [{ nodeType: "action_add_to_list", config: { listId: "list_nope" } }] },
        400,
        "The sequence refers to a list that does not exist: list_nope",
      ],
      [{ name: "x", steps: [{ nodeType: "logic_delay", config: {} }] }, 400, /^steps\.0\.config: give exactly one way of waiting/],
      [
        { name: "x", steps: [{ nodeType: "logic_branch", config: { splitMode: "random", paths: [{ id: "a" }, { id: "b" }], randomPercentages: [50, 40] } }] },
        400,
        "steps.0.config.randomPercentages: the percentages must sum to 100 (they sum to 90)",
      ],
      [{ name: "x", trigger: "tag_added" }, 400, "trigger tag_added: tagName is required"],
      [{ name: "x", trigger: "teleported" }, 422, /^Invalid request: trigger must be one of/],
      [{ name: "x", goal: "Onboard trial users" }, 400, /^AI generation .* is not available on this server/],
      [{ name: "x", enrollmentMode: "matching_field" }, 400, /needs enrollmentFieldPath/],
    ];
    for (const [body, status, message] of cases) {
      const response = await s.call("POST", "/api/v1/sequences", { body });
      t.is(response.status, status, JSON.stringify(body));
      t.false(response.body.success);
      if (typeof message === "string") t.is(response.body.error, message);
      else t.regex(response.body.error, message);
    }
    t.is((await stored(s)).length, 0, "nothing refused was stored");
  });

  test(
    name("graph edits: insert, update, move, duplicate, delete and replace edges, each raising graphRevision; stale tokens are 409 and change nothing"),
    async (t) => {
      const s = await session(t, dialect);
      const created = (
        await s.call("POST", "/api/v1/sequences", {
          body: {
            name: "Edits",
            steps: [
              { subject: "A", html: "<p>a</p>" },
              { subject: "B", html: "<p>b</p>" },
            ],
          },
        })
      ).body.sequence;
      const id = created.id;
      const put = (body: unknown) => s.call("PUT", `/api/v1/sequences/${id}`, { body });
      const emailA = created.nodes.find((node: NodeView) => node.config.subject === "A");
      const emailB = created.nodes.find((node: NodeView) => node.config.subject === "B");

      s.api.clock.advance(1000);
      const inserted = await put({
        insertSteps: {
          afterNodeId: emailA.id,
          steps: [
            { nodeType: "logic_wait_for_event", config: { eventName: "clicked" } },
            { subject: "C", html: "<p>c</p>" },
          ],
        },
      });
      t.is(inserted.status, 200, JSON.stringify(inserted.body));
      t.deepEqual(chainOf(inserted.body.sequence), ["trigger", "email:A", "logic_wait_for_event", "email:C", "email:B", "completion"]);
      t.is(inserted.body.sequence.graphRevision, 2);
      t.is(inserted.body.sequence.insertedEmailCount, 1);
      t.is(inserted.body.sequence.insertedNodeIds.length, 2);
      t.deepEqual(inserted.body.sequence.nodes.find((node: NodeView) => node.nodeType === "logic_wait_for_event").config, { eventName: "clicked" });

      // A stale revision changes nothing.
      const stale = await put({ graphEdit: { action: "delete_node", nodeId: emailB.id, expectedRevision: 1 } });
      t.is(stale.status, 409);
      t.is(stale.body.success, false);
      t.regex(stale.body.error, /revision 2, not 1/);
      const unchanged = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence;
      const { insertedNodeIds: _ids, insertedEmailIds: _emails, insertedEmailCount: _count, ...afterInsert } = inserted.body.sequence;
      t.deepEqual(unchanged, afterInsert);

      // nodeUpdates: the token is the node's updatedAt.
      s.api.clock.advance(1000);
      const staleNode = await put({
        nodeUpdates: [{ nodeId: emailB.id, changes: { config: { subject: "B2" } }, expectedUpdatedAt: "2026-11-22T09:00:00.000Z" }],
      });
      t.is(staleNode.status, 409);
      t.regex(staleNode.body.error, new RegExp(`node '${emailB.id}' was changed at ${NOW.replace(/\./g, "\\.")}`));
      const updated = await put({
        nodeUpdates: [
          {
            nodeId: emailB.id,
            changes: { config: { subject: "B2", html: null, blocks: [{ type: "text", content: "b" }] }, position: { x: 10, y: 20 } },
            expectedUpdatedAt: emailB.updatedAt,
          },
        ],
      });
      t.is(updated.status, 200, JSON.stringify(updated.body));
      const b2 = updated.body.sequence.nodes.find((node: NodeView) => node.id === emailB.id);
      t.deepEqual(
        [b2.config, b2.position, b2.updatedAt, updated.body.sequence.graphRevision],
        [{ subject: "B2", blocks: [{ type: "text", content: "b" }] }, { x: 10, y: 20 }, "2026-11-22T10:00:02.000Z", 3],
      );
      const reused = await put({ nodeUpdates: [{ nodeId: emailB.id, changes: { config: { subject: "B3" } }, expectedUpdatedAt: emailB.updatedAt }] });
      t.is(reused.status, 409, "the old token is stale once the node changed");
      const badConfig = await put({ nodeUpdates: [{ nodeId: emailB.id, changes: { config: { blocks: null } }, expectedUpdatedAt: b2.updatedAt }] });
      t.deepEqual([badConfig.status, badConfig.body.error], [400, "nodeUpdates.0.changes.config: give exactly one of html or blocks"]);

      // move_node: B2 before A.
      const moved = await put({ graphEdit: { action: "move_node", nodeId: emailB.id, beforeNodeId: emailA.id, expectedRevision: 3 } });
      t.is(moved.status, 200, JSON.stringify(moved.body));
      t.deepEqual(chainOf(moved.body.sequence), ["trigger", "email:B2", "email:A", "logic_wait_for_event", "email:C", "completion"]);
      t.deepEqual([moved.body.sequence.graphEditAction, moved.body.sequence.movedNodeId, moved.body.sequence.graphRevision], ["move_node", emailB.id, 4]);

      const duplicated = await put({ graphEdit: { action: "duplicate_node", nodeId: emailA.id, expectedRevision: 4 } });
      t.is(duplicated.status, 200, JSON.stringify(duplicated.body));
      t.deepEqual(chainOf(duplicated.body.sequence), ["trigger", "email:B2", "email:A", "email:A", "logic_wait_for_event", "email:C", "completion"]);
      t.not(duplicated.body.sequence.duplicatedNodeId, emailA.id);

      const deleted = await put({ graphEdit: { action: "delete_node", nodeId: emailA.id, expectedRevision: 5 } });
      t.is(deleted.status, 200);
      t.deepEqual(chainOf(deleted.body.sequence), ["trigger", "email:B2", "email:A", "logic_wait_for_event", "email:C", "completion"]);
      t.is(deleted.body.sequence.deletedNodeId, emailA.id);
      const trigger = deleted.body.sequence.nodes.find((node: NodeView) => node.nodeType === "trigger");
      const cannot = await put({ graphEdit: { action: "delete_node", nodeId: trigger.id, expectedRevision: 6 } });
      t.deepEqual([cannot.status, cannot.body.error], [400, "graphEdit.nodeId: the trigger node cannot be deleted"]);

      // replace_edges that strand a node, or loop without a delay, are refused whole.
      const graph = deleted.body.sequence;
      const completion = graph.nodes.find((node: NodeView) => node.nodeType === "completion");
      const stranding = await put({
        graphEdit: { action: "replace_edges", expectedRevision: 6, edges: [{ sourceNodeId: trigger.id, targetNodeId: completion.id }] },
      });
      t.is(stranding.status, 400);
      t.regex(stranding.body.error, /^Invalid sequence graph: node '.+' \(.+\) must have exactly one edge without a condition leaving it \(it has 0\)$/);
      const loopEdges = graph.edges.map((edge: EdgeView) => (edge.targetNodeId === completion.id ? { ...edge, targetNodeId: trigger.id } : edge));
      const loop = await put({ graphEdit: { action: "replace_edges", expectedRevision: 6, edges: loopEdges } });
      t.deepEqual([loop.status, loop.body.error], [400, "Invalid sequence graph: no edge may lead into the trigger node"]);
      const wait = graph.nodes.find((node: NodeView) => node.nodeType === "logic_wait_for_event");
      const emailC = graph.nodes.find((node: NodeView) => node.config.subject === "C");
      const cycle = graph.edges.filter((edge: EdgeView) => edge.sourceNodeId !== emailC.id).concat([{ sourceNodeId: emailC.id, targetNodeId: wait.id }]);
      const noExit = await put({ graphEdit: { action: "replace_edges", expectedRevision: 6, edges: cycle } });
      t.deepEqual([noExit.status, noExit.body.error], [400, `Invalid sequence graph: node '${completion.id}' (completion) cannot be reached from the trigger`]);
      t.is((await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence.graphRevision, 6, "refused edits changed nothing");

      // Two edits made from the same revision at once: one lands, the other is told it is stale.
      const racing = await Promise.all([emailB.id, emailC.id].map((nodeId) => put({ graphEdit: { action: "duplicate_node", nodeId, expectedRevision: 6 } })));
      t.deepEqual(racing.map((response) => response.status).sort(), [200, 409]);
      const raced = (await s.call("GET", `/api/v1/sequences/${id}`)).body.sequence;
      t.deepEqual([raced.graphRevision, raced.nodes.length], [7, graph.nodes.length + 1], "only one copy was made");

      const twoForms = await put({
        insertSteps: { steps: [{ subject: "X", html: "x" }] },
        graphEdit: { action: "replace_edges", expectedRevision: 6, edges: [] },
      });
      t.deepEqual(
        [twoForms.status, twoForms.body.error],
        [400, "Give one of nodeUpdates, insertSteps, graphEdit, emails, steps, subscriberUpdateSteps, branch per request (got insertSteps, graphEdit)"],
      );
      const later = await put({ smsSteps: [{ nodeId: trigger.id, text: "hi" }] });
      t.deepEqual([later.status, later.body.error], [400, "PUT with smsSteps is not supported by this server: it cannot send SMS"]);
      const sms = await put({ insertSteps: { steps: [{ type: "sms", text: "hi" }] } });
      t.is(sms.status, 400);
      t.regex(sms.body.error, /'action_sms' is not supported by this server/);
    },
  );

  test(name("a loop through a delay and a random split whose percentages sum to 100 are accepted"), async (t) => {
    const s = await session(t, dialect);
    const created = (
      await s.call("POST", "/api/v1/sequences", {
        body: {
          name: "Loops",
          steps: [
            { nodeType: "logic_delay", config: { delayHours: 12 } },
            { nodeType: "logic_branch", config: { splitMode: "random", paths: [{ id: "a", label: "A" }, { id: "b" }], randomPercentages: [30, 70] } },
            { nodeType: "logic_condition", config: { conditionType: "has_tag", tagName: "vip" } },
          ],
        },
      })
    ).body;
    t.truthy(created.sequence, JSON.stringify(created));
    const { nodes, edges, id } = created.sequence;
    const of = (type: string) => nodes.find((node: NodeView) => node.nodeType === type);
    t.deepEqual(
      edges.filter((edge: EdgeView) => edge.sourceNodeId === of("logic_branch").id).map((edge: EdgeView) => [edge.condition, edge.targetNodeId]),
      [
        ["a", of("logic_condition").id],
        ["b", of("logic_condition").id],
      ],
    );
    // The condition's "no" way goes back to the delay: a loop that waits.
    const looped = edges.map((edge: EdgeView) =>
      edge.sourceNodeId === of("logic_condition").id && edge.condition === "no" ? { ...edge, targetNodeId: of("logic_delay").id } : edge,
    );
    const put = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { graphEdit: { action: "replace_edges", expectedRevision: 1, edges: looped } } });
    t.is(put.status, 200, JSON.stringify(put.body));
    // Without the delay on it, the same loop is refused.
    const tight = edges.map((edge: EdgeView) =>
      edge.sourceNodeId === of("logic_condition").id && edge.condition === "no" ? { ...edge, targetNodeId: of("logic_branch").id } : edge,
    );
    const refused = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { graphEdit: { action: "replace_edges", expectedRevision: 2, edges: tight } } });
    t.deepEqual(
      [refused.status, refused.body.error],
      [400, `Invalid sequence graph: node '${of("logic_branch").id}' is on a loop without a logic_delay: every loop must wait somewhere`],
    );
  });

  test(name("content forms: emails and steps edited by nodeId or order, update steps replaced, a branch added with its paths"), async (t) => {
    const s = await session(t, dialect);
    const created = (
      await s.call("POST", "/api/v1/sequences", {
        body: {
          name: "Content",
          steps: [
            { subject: "One", html: "<p>1</p>" },
            { type: "update_subscriber", config: { firstName: "Ann" } },
            { subject: "Two", html: "<p>2</p>" },
          ],
        },
      })
    ).body.sequence;
    const id = created.id;
    const put = (body: unknown) => s.call("PUT", `/api/v1/sequences/${id}`, { body });
    const [one, two] = created.emails.map((email: { nodeId: string }) => email.nodeId);
    const update = created.nodes.find((node: NodeView) => node.nodeType === "action_update_attributes");

    const edited = await put({
      emails: [
        { order: 2, subject: "Second" },
        { nodeId: one, previewText: "Hello", html: null, blocks: [{ type: "text", content: "b" }] },
      ],
    });
    t.is(edited.status, 200, JSON.stringify(edited.body));
    t.deepEqual(
      edited.body.sequence.emails.map((email: { subject: string; previewText: string | null; html: string | null }) => [
        email.subject,
        email.previewText,
        email.html,
      ]),
      [
        ["One", "Hello", null],
        ["Second", null, "<p>2</p>"],
      ],
    );
    t.deepEqual([...edited.body.sequence.updatedNodeIds].sort(), [one, two].sort());
    t.is(edited.body.sequence.graphRevision, 2);
    const viaSteps = await put({ steps: [{ emailId: two, subject: "Zwei" }] });
    t.is(viaSteps.body.sequence.emails[1].subject, "Zwei");
    const missing = await put({ emails: [{ order: 3, subject: "x" }] });
    t.deepEqual([missing.status, missing.body.error], [400, "emails.0: this sequence has no email step number 3"]);
    const broken = await put({ emails: [{ nodeId: one, blocks: null }] });
    t.deepEqual([broken.status, broken.body.error], [400, "emails.0: give exactly one of html or blocks"]);

    const replaced = await put({ subscriberUpdateSteps: [{ nodeId: update.id, config: { lastName: "Lee", status: "unsubscribed" } }] });
    t.is(replaced.status, 200, JSON.stringify(replaced.body));
    t.deepEqual(replaced.body.sequence.nodes.find((node: NodeView) => node.id === update.id).config, { lastName: "Lee", status: "unsubscribed" });
    const notUpdate = await put({ subscriberUpdateSteps: [{ nodeId: one, config: { lastName: "x" } }] });
    t.deepEqual([notUpdate.status, notUpdate.body.error], [400, `subscriberUpdateSteps.0.nodeId: this sequence has no update-subscriber step '${one}'`]);

    const empty = await put({ branch: { afterNodeId: one, branches: [{ id: "vip", conditionType: "has_tag", tagName: "vip" }] } });
    t.deepEqual(
      [empty.status, empty.body.error],
      [400, "branch.branches.0: give steps or targetNodeId (or allowEmptyPaths: true to let the path go straight on)"],
    );
    const badSplit = await put({
      branch: {
        afterNodeId: one,
        splitMode: "random",
        randomPercentages: [60, 60],
        branches: [{ steps: [{ subject: "A", html: "a" }] }, { targetNodeId: two }],
      },
    });
    t.deepEqual([badSplit.status, badSplit.body.error], [400, "branch.randomPercentages: the percentages must sum to 100 (they sum to 120)"]);
    const branched = await put({
      branch: {
        afterNodeId: one,
        label: "VIPs",
        branches: [{ id: "vip", conditionType: "has_tag", tagName: "vip", steps: [{ subject: "VIP offer", html: "<p>vip</p>" }], targetNodeId: two }],
        elseSteps: [{ nodeType: "action_add_tag", config: { tagName: "regular" } }],
      },
    });
    t.is(branched.status, 200, JSON.stringify(branched.body));
    const sequence = branched.body.sequence;
    const branch = sequence.nodes.find((node: NodeView) => node.id === sequence.addedBranchNodeId);
    t.like(branch, {
      nodeType: "logic_branch",
      config: { label: "VIPs", splitMode: "condition", paths: [{ id: "vip", conditionType: "has_tag", tagName: "vip" }] },
    });
    const byId = new Map(sequence.nodes.map((node: NodeView) => [node.id, node]));
    const leaving = (nodeId: string) => sequence.edges.filter((edge: EdgeView) => edge.sourceNodeId === nodeId);
    t.deepEqual(
      leaving(one).map((edge: EdgeView) => edge.targetNodeId),
      [branch.id],
    );
    const [vipWay, elseWay] = ["vip", "else"].map(
      (condition) => byId.get(leaving(branch.id).find((edge: EdgeView) => edge.condition === condition)!.targetNodeId) as NodeView,
    );
    t.is(vipWay!.config.subject, "VIP offer");
    t.deepEqual(
      leaving(vipWay!.id).map((edge: EdgeView) => edge.targetNodeId),
      [two],
    );
    t.is(elseWay!.nodeType, "action_add_tag");
    t.deepEqual(
      leaving(elseWay!.id).map((edge: EdgeView) => edge.targetNodeId),
      [update.id],
      "the else path goes on where the first email led",
    );
    t.deepEqual([...sequence.addedBranchPathNodeIds].sort(), [vipWay!.id, elseWay!.id].sort());
    t.is(sequence.emailCount, 3);
  });

  test(name("settings, archive, unarchive, duplicate and delete"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Trials" } })).body.list;
    const created = (await s.call("POST", "/api/v1/sequences", { body: { name: "Settings", steps: [{ subject: "A", html: "a" }] } })).body.sequence;
    const id = created.id;

    s.api.clock.advance(1000);
    const settings = await s.call("PUT", `/api/v1/sequences/${id}`, {
      body: {
        name: "Renamed",
        trigger: "contact_added",
        listId: list.id,
        bccEmails: ["Audit@Example.com"],
        sendingWindow: { enabled: true, timezone: "Europe/Paris", startTime: "09:00", endTime: "17:00", days: ["monday"] },
      },
    });
    t.is(settings.status, 200, JSON.stringify(settings.body));
    t.like(settings.body.sequence, {
      name: "Renamed",
      triggerConfig: { listId: list.id },
      bccEmails: ["audit@example.com"],
      graphRevision: 1,
      updatedAt: "2026-11-22T10:00:01.000Z",
    });
    const cleared = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { sendingWindow: null, bccEmails: null } });
    t.like(cleared.body.sequence, { sendingWindow: null, bccEmails: [] });
    const nothing = await s.call("PUT", `/api/v1/sequences/${id}`, { body: {} });
    t.deepEqual(
      [nothing.status, nothing.body.error],
      [
        400,
        "No supported fields provided: give settings or one graph form (nodeUpdates, insertSteps, graphEdit, emails, steps, subscriberUpdateSteps, branch)",
      ],
    );

    const archived = await s.call("POST", `/api/v1/sequences/${id}/archive`);
    t.like(archived.body.sequence, { status: "archived", effectiveStatus: "archived" });
    const edit = await s.call("PUT", `/api/v1/sequences/${id}`, { body: { name: "x" } });
    t.deepEqual([edit.status, edit.body.error], [400, "The sequence is archived: unarchive it before editing it"]);
    t.deepEqual(
      (await s.call("GET", "/api/v1/sequences?status=archived")).body.sequences.map((item: { id: string }) => item.id),
      [id],
    );
    const unarchived = await s.call("POST", `/api/v1/sequences/${id}/unarchive`);
    t.like(unarchived.body.sequence, { status: "draft", effectiveStatus: "draft", enrollmentPaused: false });
    const again = await s.call("POST", `/api/v1/sequences/${id}/unarchive`);
    t.deepEqual([again.status, again.body.error], [400, "The sequence is not archived"]);

    const copy = await s.call("POST", `/api/v1/sequences/${id}/duplicate`);
    t.is(copy.status, 200);
    t.like(copy.body.sequence, { name: "Renamed (copy)", status: "draft", graphRevision: 1, triggerConfig: { listId: list.id } });
    t.deepEqual(chainOf(copy.body.sequence), chainOf(cleared.body.sequence));
    t.deepEqual(copy.body.nodes, copy.body.sequence.nodes);
    const originalIds = new Set(cleared.body.sequence.nodes.map((node: NodeView) => node.id));
    t.true(
      copy.body.nodes.every((node: NodeView) => !originalIds.has(node.id)),
      "the copy's nodes have IDs of their own",
    );

    const deleted = await s.call("DELETE", `/api/v1/sequences/${id}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, sequenceId: id }]);
    t.is((await s.call("GET", `/api/v1/sequences/${id}`)).status, 404);
    const gone = await s.call("DELETE", `/api/v1/sequences/${id}`);
    t.deepEqual([gone.status, gone.body], [404, { success: false, error: "Sequence not found" }]);
  });

  test(name("one company never sees, edits or references another's sequences"), async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await session(t, dialect, api);
    const globex = await session(t, dialect, api);
    const secret = (await acme.call("POST", "/api/v1/sequences", { body: { name: "Acme secret", labels: ["x"] } })).body.sequence;
    const acmeList = (await acme.call("POST", "/api/v1/lists", { body: { name: "Acme list" } })).body.list;

    for (const [method, path, body] of [
      ["GET", `/api/v1/sequences/${secret.id}`, undefined],
      ["PUT", `/api/v1/sequences/${secret.id}`, { name: "stolen" }],
      ["DELETE", `/api/v1/sequences/${secret.id}`, undefined],
      ["POST", `/api/v1/sequences/${secret.id}/archive`, undefined],
      ["POST", `/api/v1/sequences/${secret.id}/duplicate`, {}],
    ] as const) {
      const response = await globex.call(method, path, body === undefined ? {} : { body });
      t.deepEqual([response.status, response.body], [404, { success: false, error: "Sequence not found" }], `${method} ${path}`);
    }
    const listed = await globex.call("GET", "/api/v1/sequences?labels=x");
    t.deepEqual(listed.body.sequences, []);
    const borrowing = await globex.call("POST", "/api/v1/sequences", { body: { name: "Borrow", trigger: "contact_added", listId: acmeList.id } });
    t.deepEqual([borrowing.status, borrowing.body.error], [400, `The sequence refers to a list that does not exist: ${acmeList.id}`]);
    t.like((await acme.call("GET", `/api/v1/sequences/${secret.id}`)).body.sequence, { name: "Acme secret", status: "draft" });
    await api.runtime
      .knex("sender_profiles")
      .insert({ id: "sp_acme", company_id: acme.company.companyId, name: "Acme", email: "hi@acme.test", created_at: NOW, updated_at: NOW });
    const foreignSender = await globex.call("POST", "/api/v1/sequences", { body: { name: "Sender", senderProfileId: "sp_acme" } });
    t.deepEqual([foreignSender.status, foreignSender.body.error], [400, "The sequence refers to a sender profile that does not exist: sp_acme"]);
    const ownSender = await acme.call("PUT", `/api/v1/sequences/${secret.id}`, { body: { senderProfileId: "sp_acme" } });
    t.deepEqual([ownSender.status, ownSender.body.sequence?.senderProfileId], [200, "sp_acme"]);
    t.is((await globex.call("GET", "/api/v1/sequences")).body.sequences.length, 0, "refused creates stored nothing");

    const reader = await createMemberKeyFixture(api.runtime.container, acme.company.companyId, {
      role: "marketer",
      email: "reader@example.com",
      scopes: ["sequences:read"],
    });
    const refused = await api.call("POST", "/api/v1/sequences", { key: reader.key, body: { name: "x" } });
    t.is(refused.status, 403);
    t.is((await api.call("GET", "/api/v1/sequences", { key: reader.key })).status, 200);
  });
}
