import test from "ava";
import { onLastAttempt } from "../../../core/jobs/last-attempt.js";

const boom = new Error("boom");
const failing = async () => {
  throw boom;
};

const cases: Array<{ title: string; attempts: number; step: () => Promise<unknown>; gaveUp: boolean; throws: boolean }> = [
  { title: "a step that succeeds: nothing given up, the job completes", attempts: 3, step: async () => "done", gaveUp: false, throws: false },
  { title: "a failure while attempts remain: the queue retries, the run is left as it is", attempts: 1, step: failing, gaveUp: false, throws: true },
  { title: "a failure on the last attempt: the run is given up with the error, and the job ends dead", attempts: 3, step: failing, gaveUp: true, throws: true },
  { title: "an attempt past the last (a lease taken over): treated as the last", attempts: 4, step: failing, gaveUp: true, throws: true },
];

for (const { title, attempts, step, gaveUp, throws } of cases) {
  test(title, async (t) => {
    const reasons: unknown[] = [];
    const run = onLastAttempt({ attempts, maxAttempts: 3 }, step, async (error) => {
      reasons.push(error);
    });
    if (throws) t.is(await t.throwsAsync(run), boom);
    else await t.notThrowsAsync(run);
    t.deepEqual(reasons, gaveUp ? [boom] : []);
  });
}

test("a give-up that fails itself ends the job with its own error", async (t) => {
  const settling = new Error("database gone");
  const run = onLastAttempt({ attempts: 1, maxAttempts: 1 }, failing, async () => {
    throw settling;
  });
  t.is(await t.throwsAsync(run), settling);
});
