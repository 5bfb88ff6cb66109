import test, { type ExecutionContext } from "ava";
import { simpleParser, type ParsedMail } from "mailparser";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { ALREADY_ACCEPTED, ALREADY_CANCELLED, CANCELLED_LINK, EXPIRED } from "../../../core/team/model.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime, type Runtime } from "../../../hosts/runtime.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { call, type JsonResponse, type RequestOptions } from "../../helpers/http-client.js";
import { BASE_URL, listen, TEST_CAPACITY } from "../../helpers/runtime.js";
import { smtpSink, type Received } from "../../helpers/smtp-sink.js";

const SENDER = "team@brand.example";
const ADMIN_ACCESS = "This action requires owner or admin access";
const INVITE_LINK = new RegExp(`^${BASE_URL}/invitations/(lcinv_[A-Za-z0-9_-]{43})$`);
const DAY_MS = 24 * 60 * 60 * 1000;

interface Setup {
  readonly runtime: Runtime;
  readonly received: Received[];
  readonly brand: CompanyFixture;
  readonly other: CompanyFixture;
  readonly url: string;
  api(method: string, path: string, options?: RequestOptions, key?: string): Promise<JsonResponse>;
  /** The public acceptance, without a key. */
  accept(body: unknown): Promise<JsonResponse>;
  page(method: "GET" | "POST", path: string, form?: Record<string, string>): Promise<{ status: number; text: string; headers: Headers }>;
  messages(count: number): Promise<ParsedMail[]>;
}

/** The real app, the real worker and a real SMTP server on loopback; a company that can send, and another company. */
async function setUp(t: ExecutionContext, dialect: Dialect): Promise<Setup> {
  const sink = await smtpSink(t);
  const database = await dialect.create();
  const runtime = await startRuntime({
    databaseUrl: database.url,
    logger: createLogger("silent"),
    baseUrl: BASE_URL,
    mailUrl: `smtp://127.0.0.1:${sink.port}`,
    capacity: TEST_CAPACITY,
  });
  const server = await listen(runtime);
  const worker = createWorker(runtime.container, { concurrency: 2, pollMs: 20 });
  await worker.start();
  t.teardown(async () => {
    await worker.stop();
    await server.close();
    await runtime.close();
    await database.drop();
  });
  const brand = await createCompanyFixture(runtime.container, { name: "Brand & Co", ownerEmail: "olivia@brand.example" });
  const other = await createCompanyFixture(runtime.container, { name: "Other" });
  const made = await runtime.container.get(SetUpOperatorSender).execute(OPERATOR, brand.companyId, SENDER);
  if (made._tag === "Left") throw new Error(made.left.message);
  return {
    runtime,
    received: sink.received,
    brand,
    other,
    url: server.url,
    api: (method, path, options = {}, key = brand.ownerKey) => call(server.url, method, path, { ...options, key }),
    accept: (body) => call(server.url, "POST", "/api/v1/team/invitations/accept", { body }),
    async page(method, path, form) {
      const response = await fetch(`${server.url}${path}`, {
        method,
        ...(form ? { body: new URLSearchParams(form).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } } : {}),
      });
      return { status: response.status, text: await response.text(), headers: response.headers };
    },
    async messages(count) {
      const deadline = Date.now() + 15_000;
      while (sink.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      return Promise.all(sink.received.map((message) => simpleParser(message.raw)));
    },
  };
}

const tokenOf = (inviteUrl: string): string => INVITE_LINK.exec(inviteUrl)![1]!;
const pathOf = (inviteUrl: string): string => inviteUrl.slice(BASE_URL.length);

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: team ${title}`;

  test(
    name("an owner invites a marketer by email; the invitee accepts, becomes a member and gets a key shown once, within the marketer's rights"),
    async (t) => {
      const s = await setUp(t, dialect);
      const invited = await s.api("POST", "/api/v1/team/invitations", { body: { email: " Ann@Example.com ", role: "marketer" } });
      t.is(invited.status, 200, JSON.stringify(invited.body));
      t.deepEqual(Object.keys(invited.body).sort(), ["emailQueued", "invitation", "inviteUrl", "success"]);
      const { invitation, inviteUrl } = invited.body;
      t.like(invitation, {
        email: "ann@example.com",
        role: "marketer",
        status: "pending",
        invitedBy: s.brand.ownerMemberId,
        acceptedAt: null,
        cancelledAt: null,
      });
      t.regex(invitation.id, /^inv_/);
      t.is(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt), 7 * DAY_MS);
      t.regex(inviteUrl, INVITE_LINK);
      t.true(invited.body.emailQueued);
      const token = tokenOf(inviteUrl);

      // The email goes out through the worker and SMTP, from the company's sender, with the link untracked.
      const [message] = await s.messages(1);
      t.deepEqual(s.received[0]!.to, ["ann@example.com"]);
      t.is(message!.subject, "olivia@brand.example invited you to join Brand & Co");
      t.is(message!.from!.value[0]!.address, SENDER);
      t.is(message!.replyTo!.value[0]!.address, "olivia@brand.example", "replies reach the person who invited");
      const html = message!.html as string;
      t.true(html.includes(`href="${inviteUrl}"`), "the button links to the invitation itself");
      t.regex(html, /invited you to join the Brand &amp; Co team as marketer/);
      t.notRegex(html, new RegExp(`${BASE_URL}/t/[oc]/`), "neither pixel-tracked nor link-rewritten");
      t.regex(message!.text!, /expires on/);

      // The team lists the invitation but never its token.
      const team = await s.api("GET", "/api/v1/team");
      t.is(team.status, 200);
      t.deepEqual(
        team.body.members.map((member: { email: string; role: string }) => [member.email, member.role]),
        [["olivia@brand.example", "owner"]],
      );
      t.deepEqual(team.body.invitations, [invitation]);
      t.false(JSON.stringify(team.body).includes(token));
      const stored = await s.runtime.knex("team_invitations").where({ id: invitation.id }).first();
      t.is(stored.token_hash.length, 64);
      t.false(JSON.stringify(stored).includes(token), "only the token's hash is stored");

      // The link shows the invitation and changes nothing (mail scanners fetch links).
      const shown = await s.page("GET", pathOf(inviteUrl));
      t.is(shown.status, 200);
      t.regex(shown.text, /Join Brand &amp; Co/);
      t.regex(shown.text, /<form method="post">/);
      t.is(shown.headers.get("cache-control"), "no-store");
      t.is((await s.api("GET", "/api/v1/team")).body.members.length, 1);

      // Accepting (no key needed) makes the member and hands over a key, once.
      const accepted = await s.accept({ token, name: "Ann Smith" });
      t.is(accepted.status, 200, JSON.stringify(accepted.body));
      t.like(accepted.body, { success: true, member: { email: "ann@example.com", name: "Ann Smith", role: "marketer" }, company: { id: s.brand.companyId } });
      const { apiKey } = accepted.body;
      t.regex(apiKey.key, /^lcsk_/);
      t.is(apiKey.prefix, apiKey.key.slice(0, 12));
      t.true(apiKey.scopes.includes("subscribers:write"));
      t.false(apiKey.scopes.includes("data_exports:read"), "marketers are barred from data exports");
      t.false(apiKey.scopes.includes("team:manage"));
      const keyRow = await s.runtime.knex("api_keys").where({ id: apiKey.id }).first();
      t.not(keyRow.key_hash, apiKey.key);
      t.false(JSON.stringify(keyRow).includes(apiKey.key), "the key is stored hashed");

      // The key acts as the new marketer, within the marketer's rights.
      const account = await s.api("GET", "/api/v1/account", {}, apiKey.key);
      t.is(account.status, 200);
      t.like(account.body, {
        user: { email: "ann@example.com" },
        currentCompanyId: s.brand.companyId,
        companies: [{ id: s.brand.companyId, role: "marketer" }],
      });
      t.is((await s.api("POST", "/api/v1/subscribers", { body: { email: "lead@example.com" } }, apiKey.key)).status, 200);
      const exports = await s.api("GET", "/api/v1/data-exports", {}, apiKey.key);
      t.is(exports.status, 403);
      t.is(exports.body.error, "API key is missing required scope: data_exports:read");
      const inviting = await s.api("POST", "/api/v1/team/invitations", { body: { email: "x@example.com", role: "marketer" } }, apiKey.key);
      t.is(inviting.status, 403);
      t.deepEqual(inviting.body, { success: false, error: ADMIN_ACCESS });
      t.deepEqual((await s.api("DELETE", `/api/v1/team/invitations/${invitation.id}`, {}, apiKey.key)).body, { success: false, error: ADMIN_ACCESS });
      t.is((await s.api("GET", "/api/v1/team", {}, apiKey.key)).status, 200, "marketers may see the team");

      // The same link works once; the invitation is now accepted and can no longer be cancelled.
      const again = await s.accept({ token });
      t.is(again.status, 400);
      t.deepEqual(again.body, { success: false, error: ALREADY_ACCEPTED });
      const after = await s.api("GET", "/api/v1/team");
      t.deepEqual(
        after.body.members.map((member: { email: string; role: string }) => [member.email, member.role]),
        [
          ["olivia@brand.example", "owner"],
          ["ann@example.com", "marketer"],
        ],
      );
      t.like(after.body.invitations[0], { id: invitation.id, status: "accepted" });
      t.truthy(after.body.invitations[0].acceptedAt);
      const cancel = await s.api("DELETE", `/api/v1/team/invitations/${invitation.id}`);
      t.is(cancel.status, 400);
      t.is(cancel.body.error, ALREADY_ACCEPTED);
      // Inviting a member again is a conflict.
      const member = await s.api("POST", "/api/v1/team/invitations", { body: { email: "ann@example.com", role: "admin" } });
      t.is(member.status, 409);
      t.is(member.body.error, "ann@example.com is already a member of this team");
    },
  );

  test(name("a cancelled invitation's link stops working at once; another company's invitation is 404 and untouched"), async (t) => {
    const s = await setUp(t, dialect);
    const admin = await createMemberKeyFixture(s.runtime.container, s.brand.companyId, { role: "admin" });
    const invited = await s.api("POST", "/api/v1/team/invitations", { body: { email: "bob@example.com", role: "admin" } }, admin.key);
    t.is(invited.status, 200, "admins invite too");
    const { invitation, inviteUrl } = invited.body;
    await s.messages(1);

    // Another company neither sees nor cancels it.
    const foreign = await s.api("DELETE", `/api/v1/team/invitations/${invitation.id}`, {}, s.other.ownerKey);
    t.is(foreign.status, 404);
    t.deepEqual(foreign.body, { success: false, error: "Invitation not found" });
    t.deepEqual((await s.api("GET", "/api/v1/team", {}, s.other.ownerKey)).body.invitations, []);
    t.is((await s.api("GET", "/api/v1/team")).body.invitations[0].status, "pending");

    const cancelled = await s.api("DELETE", `/api/v1/team/invitations/${invitation.id}`, {}, admin.key);
    t.is(cancelled.status, 200);
    t.deepEqual(cancelled.body, { success: true, invitationId: invitation.id });
    const refused = await s.accept({ token: tokenOf(inviteUrl) });
    t.is(refused.status, 400);
    t.deepEqual(refused.body, { success: false, error: CANCELLED_LINK });
    t.regex((await s.page("GET", pathOf(inviteUrl))).text, /This invitation is cancelled/);
    const pressed = await s.page("POST", pathOf(inviteUrl), { name: "Bob" });
    t.is(pressed.status, 400);
    t.regex(pressed.text, /was cancelled/);
    t.is((await s.runtime.knex("users").where({ email: "bob@example.com" })).length, 0, "no member was made");

    const twice = await s.api("DELETE", `/api/v1/team/invitations/${invitation.id}`);
    t.is(twice.status, 400);
    t.deepEqual(twice.body, { success: false, error: ALREADY_CANCELLED });
    t.deepEqual((await s.api("DELETE", "/api/v1/team/invitations/inv_missing")).body, { success: false, error: "Invitation not found" });
    t.is((await s.accept({ token: "lcinv_" + "x".repeat(43) })).status, 404);
    t.is((await s.page("GET", "/invitations/not-a-token")).status, 404);

    // Inviting the address again supersedes the pending invitation: only the newest link works, and it works from the page.
    const first = (await s.api("POST", "/api/v1/team/invitations", { body: { email: "carl@example.com", role: "marketer" } })).body;
    const second = (await s.api("POST", "/api/v1/team/invitations", { body: { email: "carl@example.com", role: "admin" } })).body;
    t.is((await s.accept({ token: tokenOf(first.inviteUrl) })).body.error, CANCELLED_LINK);
    const joined = await s.page("POST", pathOf(second.inviteUrl), { name: "Carl" });
    t.is(joined.status, 200);
    t.regex(joined.text, /Welcome to Brand &amp; Co/);
    const shownKey = /(lcsk_[0-9A-Za-z]{38})/.exec(joined.text)![1]!;
    t.like((await s.api("GET", "/api/v1/account", {}, shownKey)).body, { companies: [{ id: s.brand.companyId, role: "admin" }] });
    const invitations = (await s.api("GET", "/api/v1/team")).body.invitations;
    t.deepEqual(
      invitations.map((i: { email: string; status: string }) => [i.email, i.status]),
      [
        ["carl@example.com", "accepted"],
        ["carl@example.com", "cancelled"],
        ["bob@example.com", "cancelled"],
      ],
    );
  });

  test(name("refuses bad input with 422 and changes nothing; managing invitations needs owner or admin access and the team:manage scope"), async (t) => {
    const s = await setUp(t, dialect);
    for (const body of [{ email: "not-an-email", role: "admin" }, { email: "a@example.com", role: "owner" }, { role: "admin" }, {}]) {
      const response = await s.api("POST", "/api/v1/team/invitations", { body });
      t.is(response.status, 422, JSON.stringify(body));
      t.false(response.body.success);
      t.true(Array.isArray(response.body.errors));
    }
    t.is((await s.accept({})).status, 422);
    t.is((await s.api("POST", "/api/v1/team/invitations", { rawBody: "{" })).status, 400);
    const readOnly = await createMemberKeyFixture(s.runtime.container, s.brand.companyId, { role: "owner", scopes: ["team:read"] });
    const scoped = await s.api("POST", "/api/v1/team/invitations", { body: { email: "a@example.com", role: "admin" } }, readOnly.key);
    t.is(scoped.status, 403);
    t.is(scoped.body.error, "API key is missing required scope: team:manage");
    t.is((await s.api("GET", "/api/v1/team", {}, readOnly.key)).status, 200);
    t.is((await s.api("GET", "/api/v1/team", {}, "lcsk_nope")).status, 401);
    t.deepEqual((await s.api("GET", "/api/v1/team")).body.invitations, []);
    t.is(s.received.length, 0);
  });
}

test("team: an invitation expires after 7 days: it reads expired, cannot be accepted, and can still be cancelled; without a sender it is made but not emailed", async (t) => {
  const api = await apiFixture(t, dialects()[0]!);
  const company = await createCompanyFixture(api.runtime.container, { name: "Quiet" });
  const invited = await api.call("POST", "/api/v1/team/invitations", { key: company.ownerKey, body: { email: "dan@example.com", role: "marketer" } });
  t.is(invited.status, 200);
  t.false(invited.body.emailQueued);
  t.deepEqual(invited.body.warnings, [
    "No invitation email was queued: No verified sender: add and verify a sending domain (POST /api/v1/sending-domains), then set a From address on it",
  ]);
  const token = tokenOf(invited.body.inviteUrl);

  api.clock.advance(7 * DAY_MS - 1);
  t.is((await api.call("GET", "/api/v1/team", { key: company.ownerKey })).body.invitations[0].status, "pending");
  api.clock.advance(1);
  t.is((await api.call("GET", "/api/v1/team", { key: company.ownerKey })).body.invitations[0].status, "expired");
  const late = await api.call("POST", "/v1/team/invitations/accept", { body: { token } });
  t.is(late.status, 400);
  t.deepEqual(late.body, { success: false, error: EXPIRED });
  t.is((await api.runtime.knex("users").where({ email: "dan@example.com" })).length, 0);

  const cancelled = await api.call("DELETE", `/v1/team/invitations/${invited.body.invitation.id}`, { key: company.ownerKey });
  t.is(cancelled.status, 200);
  t.is((await api.call("GET", "/api/v1/team", { key: company.ownerKey })).body.invitations[0].status, "cancelled");
});
