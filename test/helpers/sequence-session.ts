import type { ExecutionContext } from "ava";
import type { MemoryMailTransport } from "../../adapters/memory/memory-mail-transport.js";
import { SetUpOperatorSender } from "../../core/company/set-up-operator-sender.js";
import { MailTransport } from "../../core/delivery/mail-transport.js";
import { OPERATOR } from "../../core/shared/actor.js";
import { createCompanyFixture, type CompanyFixture } from "../../fixtures/companies.js";
import { createWorker } from "../../hosts/worker/create-worker.js";
import { apiFixture, type ApiFixture } from "./api-fixture.js";
import type { Dialect } from "./databases.js";
import type { RequestOptions } from "./http-client.js";
import type { TestRuntimeOptions } from "./runtime.js";

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/** Two companies with verified senders, the real app, the worker run by hand and the memory mail transport. */
export interface SequenceSession {
  readonly api: ApiFixture;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  readonly transport: MemoryMailTransport;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): ReturnType<ApiFixture["call"]>;
  /** Runs every job due at the manual clock's time, as the worker would (engine steps, then deliveries). */
  runJobs(): Promise<number>;
  /** Subject lines received by each address, in order. */
  received(): Record<string, string[]>;
}

export async function sequenceSession(t: ExecutionContext, dialect: Dialect, options: TestRuntimeOptions = {}): Promise<SequenceSession> {
  const api = await apiFixture(t, dialect, options);
  const container = api.runtime.container;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  for (const [company, sender] of [
    [a, "hello@acme.example"],
    [b, "hello@beta.example"],
  ] as const) {
    const made = await container.get(SetUpOperatorSender).execute(OPERATOR, company.companyId, sender);
    if (made._tag === "Left") throw new Error(made.left.message);
  }
  const transport = container.get<MemoryMailTransport>(MailTransport);
  const worker = createWorker(container, { concurrency: 1 }, { push: false });
  return {
    api,
    a,
    b,
    transport,
    // A test drives a key faster than its 20 requests a second on a quiet machine: like a client,
    // the session waits out the second a 429 names (at most a few times) and goes on.
    async call(method, path, options = {}, company = a) {
      let response = await api.call(method, path, { key: company.ownerKey, ...options });
      for (let tries = 0; response.status === 429 && tries < 5; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 1_000 * Number(response.headers.get("retry-after") ?? 1)));
        response = await api.call(method, path, { key: company.ownerKey, ...options });
      }
      return response;
    },
    runJobs: () => worker.runDue(),
    received() {
      const byAddress: Record<string, string[]> = {};
      for (const { message } of transport.messages) (byAddress[message.to] ??= []).push(message.subject);
      return byAddress;
    },
  };
}

/** Creates and enables a sequence; throws when either is refused. */
export async function createAndEnable(s: SequenceSession, body: Record<string, unknown>, company?: CompanyFixture): Promise<string> {
  const created = await s.call("POST", "/api/v1/sequences", { body }, company);
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  const enabled = await s.call("POST", `/api/v1/sequences/${created.body.sequence.id}/enable`, {}, company);
  if (enabled.status !== 200) throw new Error(JSON.stringify(enabled.body));
  return created.body.sequence.id;
}
