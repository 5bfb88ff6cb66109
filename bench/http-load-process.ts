import autocannon from "autocannon";
import type { LoadOrder, LoadReport } from "./http-load.js";

/**
 * The load generator's own process (forked by http-load.ts): it runs each order it is sent
 * through autocannon and reports the counts back, so the server under test never shares its
 * CPU time with the client. Request n carries the n-th key (rotating) and the n-th body
 * (rotating, `{n}` replaced by n), the same way for every side; answers are checked when the
 * plan says what they must be.
 */

/** The i-th of the client addresses a proxy forwards for: 10.0.0.0, 10.0.0.1, ... */
const clientAddress = (i: number): string => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function run(order: LoadOrder): Promise<LoadReport> {
  const { plan, extent } = order;
  let next = 0;
  let wrong = 0;
  const result = await autocannon({
    url: plan.url,
    method: plan.method,
    headers: { ...(plan.bodies ? { "content-type": "application/json" } : {}), ...plan.headers },
    connections: plan.connections,
    ...extent,
    requests: [
      {
        // One request at a time per connection: the answer read next is to the request set up last.
        setupRequest: (request, context: { expected?: string }) => {
          const n = next++;
          const headers = { ...request.headers };
          if (plan.keys.length > 0) headers.authorization = `Bearer ${plan.keys[n % plan.keys.length]}`;
          if (plan.clientAddresses) headers["x-forwarded-for"] = clientAddress(n % plan.clientAddresses);
          context.expected = plan.answers?.[n % plan.answers.length];
          const template = plan.bodies?.[n % plan.bodies.length];
          const body = template === undefined ? undefined : template.replaceAll("{n}", String(n));
          const path = plan.paths?.[n % plan.paths.length];
          return { ...request, ...(path === undefined ? {} : { path }), ...(body === undefined ? {} : { body }), headers };
        },
        onResponse: (_status, body, context: { expected?: string }) => {
          if (context.expected !== undefined && body !== context.expected) wrong += 1;
        },
      },
    ],
  });
  return {
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    wrong,
    statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0])),
    seconds: result.duration,
  };
}

process.on("message", (order: LoadOrder) => {
  run(order).then(
    (report) => process.send!({ report }),
    (error: unknown) => process.send!({ error: error instanceof Error ? error.message : String(error) }),
  );
});
process.on("disconnect", () => process.exit(0));
