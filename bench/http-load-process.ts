import autocannon from "autocannon";
import type { LoadOrder, LoadReport } from "./http-load.js";

/**
 * The load generator's own process (forked by http-load.ts): it runs each order it is sent
 * through autocannon and reports the counts back, so the server under test never shares its
 * CPU time with the client. Request n carries the n-th key (rotating) and the n-th body
 * (rotating, `{n}` replaced by n), the same way for every side; answers are checked when the
 * plan says what they must be.
 */

async function run(order: LoadOrder): Promise<LoadReport> {
  const { plan, extent } = order;
  let next = 0;
  let wrong = 0;
  const result = await autocannon({
    url: plan.url,
    method: plan.method,
    headers: plan.bodies ? { "content-type": "application/json" } : {},
    connections: plan.connections,
    ...extent,
    requests: [
      {
        // One request at a time per connection: the answer read next is to the request set up last.
        setupRequest: (request, context: { expected?: string }) => {
          const n = next++;
          const authorization = `Bearer ${plan.keys[n % plan.keys.length]}`;
          context.expected = plan.answers?.[n % plan.answers.length];
          const template = plan.bodies?.[n % plan.bodies.length];
          const body = template === undefined ? undefined : template.replaceAll("{n}", String(n));
          return { ...request, ...(body === undefined ? {} : { body }), headers: { ...request.headers, authorization } };
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
