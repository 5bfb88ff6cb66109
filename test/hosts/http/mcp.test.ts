import test, { type ExecutionContext } from "ava";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { RateLimiter } from "../../../core/ports/rate-limiter.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { RATE_LIMITED } from "../../../hosts/http/mcp/mcp-endpoint.js";
import { OFFICIAL_TOOL_NAMES } from "../../../hosts/http/mcp/tool-names.js";
import { apiRouteModules } from "../../../hosts/http/routes/index.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";

interface Session {
  readonly api: ApiFixture;
  readonly acme: CompanyFixture;
  readonly other: CompanyFixture;
  /** An MCP client of the official SDK, connected over HTTP with this key. */
  connect(key: string, prefix?: "/api/v1" | "/v1"): Promise<Client>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  const acme = await createCompanyFixture(api.runtime.container, { name: "Acme" });
  const other = await createCompanyFixture(api.runtime.container, { name: "Other" });
  return {
    api,
    acme,
    other,
    async connect(key, prefix = "/api/v1") {
      const client = new Client({ name: "lifecycle-test", version: "1.0.0" });
      const transport = new StreamableHTTPClientTransport(new URL(`${api.server.url}${prefix}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      });
      await client.connect(transport);
      t.teardown(() => client.close());
      return client;
    },
  };
}

/** The API's answer a tool call carries (its envelope; `status` too when it failed). */
const answerOf = (result: unknown): any => JSON.parse(((result as CallToolResult).content[0] as { text: string }).text);

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: MCP ${title}`;

  test(name("lists one tool per API operation, named as the official client names them, with input schemas from the route codecs"), async (t) => {
    const s = await session(t, dialect);
    const client = await s.connect(s.acme.ownerKey);
    t.like(client.getServerVersion(), { name: "lifecycle-email" });
    const { tools } = await client.listTools();
    const routes = apiRouteModules.flatMap((module) => module.mount(s.api.runtime.container)).filter((route) => !route.aliasOf);
    t.is(tools.length, routes.length, "one tool per operation (aliases are the same operation)");
    t.is(new Set(tools.map((tool) => tool.name)).size, tools.length);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const official of [
      "add_subscriber",
      "get_subscriber",
      "search_subscribers",
      "send_email",
      "get_stats",
      "list_team_members",
      "invite_team_member",
      "cancel_team_invitation",
    ])
      t.true(byName.has(official), official);
    for (const [operation, official] of Object.entries(OFFICIAL_TOOL_NAMES))
      t.true((byName.get(official)?.description ?? "").includes(`(${operation.replace(" ", " /api/v1")})`), `${official} is ${operation}`);
    t.true(byName.has("get_data_exports_by_id"), "operations the official client lacks get a derived name");
    t.false(byName.has("get_stats_by_id_or_slug"));

    const add = byName.get("add_subscriber")!;
    t.regex(add.description!, /POST \/api\/v1\/subscribers\)/);
    t.regex(add.description!, /Requires scope subscribers:write/);
    t.like(add.inputSchema, { type: "object", properties: { email: { type: "string", format: "email" } } });
    t.like(byName.get("add_subscriber_note")!.inputSchema, { properties: { body: { type: "string" } }, required: ["email"] });
    t.truthy(byName.get("send_email")!.inputSchema.properties!.to, "a body of several shapes gives the fields of all of them");
    const get = byName.get("get_subscriber")!;
    t.deepEqual(get.inputSchema.required, ["email"]);
    t.truthy(get.inputSchema.properties!.activityLimit, "query parameters are arguments too");
    t.truthy(byName.get("cancel_team_invitation")!.inputSchema.properties!.invitationId);
  });

  test(name("tool calls run the API's routes: a subscriber made through MCP is the one the HTTP API shows, and the tenant's only"), async (t) => {
    const s = await session(t, dialect);
    const client = await s.connect(s.acme.ownerKey);

    const added = await client.callTool({ name: "add_subscriber", arguments: { email: " Ann@Example.com ", firstName: "Ann" } });
    t.falsy(added.isError, JSON.stringify(added));
    const subscriber = answerOf(added).subscriber;
    t.is(subscriber.email, "ann@example.com");
    t.like(added.structuredContent, { success: true, subscriber: { id: subscriber.id } });

    const fetched = await client.callTool({ name: "get_subscriber", arguments: { email: "ann@example.com", activityLimit: 5 } });
    t.falsy(fetched.isError, JSON.stringify(fetched));
    t.like(answerOf(fetched).subscriber, { id: subscriber.id, firstName: "Ann" });
    const http = await s.api.call("GET", "/api/v1/subscribers/ann%40example.com", { key: s.acme.ownerKey });
    t.is(http.body.subscriber.id, subscriber.id);

    const found = await client.callTool({ name: "search_subscribers", arguments: { query: "ann", page: 1, limit: 10 } });
    t.deepEqual(
      answerOf(found).subscribers.map((row: { id: string }) => row.id),
      [subscriber.id],
    );

    // The route's codecs refuse bad input as HTTP does, and nothing is made.
    const invalid = await client.callTool({ name: "add_subscriber", arguments: { email: "not-an-email" } });
    t.true(invalid.isError);
    t.like(answerOf(invalid), { status: 422, success: false });
    t.is((await s.api.call("GET", "/api/v1/subscribers", { key: s.acme.ownerKey })).body.subscribers.length, 1);

    // Another company's key sees none of it, through /v1 as well.
    const stranger = await s.connect(s.other.ownerKey, "/v1");
    const foreign = await stranger.callTool({ name: "get_subscriber", arguments: { email: "ann@example.com" } });
    t.true(foreign.isError);
    t.like(answerOf(foreign), { status: 404, success: false });

    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).catch((error: unknown) => error);
    t.true(unknown instanceof McpError);
    t.is((unknown as McpError).code, ErrorCode.InvalidParams);
  });

  test(name("enforces the key's scopes and the team roles as the HTTP API does; a missing or bad key cannot connect"), async (t) => {
    const s = await session(t, dialect);
    const reader = await createMemberKeyFixture(s.api.runtime.container, s.acme.companyId, { role: "owner", scopes: ["subscribers:read"] });
    const client = await s.connect(reader.key);
    const refused = await client.callTool({ name: "add_subscriber", arguments: { email: "bob@example.com" } });
    t.true(refused.isError);
    t.deepEqual(answerOf(refused), { status: 403, success: false, error: "API key is missing required scope: subscribers:write" });
    t.is((await s.api.call("GET", "/api/v1/subscribers", { key: s.acme.ownerKey })).body.subscribers.length, 0);
    t.false((await client.callTool({ name: "search_subscribers", arguments: {} })).isError ?? false);

    const marketer = await createMemberKeyFixture(s.api.runtime.container, s.acme.companyId, { role: "marketer" });
    const inviting = await (await s.connect(marketer.key)).callTool({ name: "invite_team_member", arguments: { email: "x@example.com", role: "admin" } });
    t.deepEqual(answerOf(inviting), { status: 403, success: false, error: "This action requires owner or admin access" });
    const owner = await s.connect(s.acme.ownerKey);
    const invited = await owner.callTool({ name: "invite_team_member", arguments: { email: "x@example.com", role: "admin" } });
    t.like(answerOf(invited), { success: true, invitation: { email: "x@example.com", status: "pending" } });

    for (const key of ["", "lcsk_wrong"]) {
      const error = await s.connect(key).catch((failure: unknown) => failure);
      t.true(error instanceof StreamableHTTPError, String(error));
      t.is((error as StreamableHTTPError).code, 401);
    }
  });

  test(name("has its own budget per key, refused with JSON-RPC errors; tool calls spend the standard budget"), async (t) => {
    const s = await session(t, dialect);
    const limiter = s.api.runtime.container.get<RateLimiter>(RateLimiter);
    const url = `${s.api.server.url}/api/v1/mcp`;
    const ping = (key: string) =>
      fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }),
      });

    // The claims are about one second: on a busy machine each scenario is run again with a fresh key.
    const withinASecond = async (scenario: () => Promise<boolean>) => {
      for (let attempt = 1; attempt <= 5; attempt++) if (await scenario()) return;
      t.fail("the machine is too slow to run the scenario within a second");
    };
    const freshKey = () => createMemberKeyFixture(s.api.runtime.container, s.acme.companyId, { role: "owner" });

    // Tool calls spend the standard budget as their HTTP requests would.
    await withinASecond(async () => {
      const key = await freshKey();
      const client = await s.connect(key.key);
      const started = Date.now();
      const calls = await Promise.all([0, 1, 2].map(() => client.callTool({ name: "get_account", arguments: {} })));
      const http = await s.api.call("GET", "/api/v1/subscribers/me", { key: key.key });
      if (Date.now() - started > 900) return false;
      t.deepEqual(
        calls.map((call) => call.isError ?? false),
        [false, false, false],
      );
      t.is(http.status, 200);
      t.is(http.headers.get("ratelimit-remaining"), "16", "three tool calls and this request");
      return true;
    });

    // The MCP budget (20 a second) is spent by the connection's requests; used up, the endpoint answers JSON-RPC errors.
    await withinASecond(async () => {
      const key = await freshKey();
      const client = await s.connect(key.key);
      const mcp = await limiter.peek("mcp", key.keyId);
      const started = Date.now();
      const left = await limiter.consume("mcp", key.keyId, mcp.remaining);
      const refused = await ping(key.key);
      const listed = await client.listTools().catch((error: unknown) => error);
      const http = await s.api.call("GET", "/api/v1/subscribers/me", { key: key.key });
      if (Date.now() - started > 900) return false;
      t.true(mcp.remaining < 20, "MCP requests spend the MCP budget");
      t.true(left.allowed);
      t.is(refused.status, 429);
      t.is(refused.headers.get("retry-after"), "1");
      t.is(refused.headers.get("ratelimit-limit"), "20");
      t.is(refused.headers.get("ratelimit-policy"), "20;w=1, 300;w=60");
      t.deepEqual(await refused.json(), {
        jsonrpc: "2.0",
        error: { code: RATE_LIMITED, message: "Rate limit exceeded: 20 requests per second per API key. Retry after 1 second." },
        id: 7,
      });
      t.true(listed instanceof StreamableHTTPError);
      t.is((listed as StreamableHTTPError).code, 429);
      t.regex((listed as Error).message, /"jsonrpc":"2.0"/);
      t.is(http.status, 200, "the HTTP API keeps its own budget");
      return true;
    });

    // A tool call refused by the standard budget is a tool error carrying the API's 429.
    await withinASecond(async () => {
      const key = await freshKey();
      const client = await s.connect(key.key);
      const started = Date.now();
      await limiter.consume("standard", key.keyId, 20);
      const limited = await client.callTool({ name: "get_account", arguments: {} });
      if (Date.now() - started > 900) return false;
      t.true(limited.isError);
      t.like(answerOf(limited), { status: 429, success: false, error: "Rate limit exceeded: 20 requests per second per API key. Retry after 1 second." });
      return true;
    });
  });
}
