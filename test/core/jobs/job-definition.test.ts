import test from "ava";
import * as t from "io-ts";
import { defineJob, UnrunnableJob } from "../../../core/jobs/job-definition.js";
import type { Job } from "../../../core/ports/job-queue.js";

const Advance = defineJob({ type: "things.advance", company: "required", payload: t.type({ thingId: t.string }), maxAttempts: 4 });
const Sweep = defineJob({ type: "things.sweep", company: "none", payload: t.type({}) });

const stored = (overrides: Partial<Job>): Pick<Job, "id" | "type" | "payload" | "companyId"> => ({
  id: "job_1",
  type: "things.advance",
  payload: { thingId: "thg_1" },
  companyId: "cmp_1",
  ...overrides,
});

test("a request carries the type, the encoded payload, the company and the definition's attempts", (t) => {
  t.deepEqual(Advance.request({ thingId: "thg_1" }, { companyId: "cmp_1", singletonKey: "thing:thg_1" }), {
    type: "things.advance",
    payload: { thingId: "thg_1" },
    companyId: "cmp_1",
    maxAttempts: 4,
    singletonKey: "thing:thg_1",
  });
  t.deepEqual(Advance.request({ thingId: "thg_1" }, { companyId: "cmp_1", maxAttempts: 2 }).maxAttempts, 2, "the caller may ask for other attempts");
  t.deepEqual(Sweep.request({}), { type: "things.sweep", payload: {} });
});

test("a company job cannot be requested without its company, nor a job of none with one (checked by the compiler)", (t) => {
  const unchecked = () => [
    // @ts-expect-error the company is required
    Advance.request({ thingId: "thg_1" }),
    // @ts-expect-error a job of no company takes none
    Sweep.request({}, { companyId: "cmp_1" }),
    // @ts-expect-error the payload is typed
    Advance.request({ thing: "thg_1" }, { companyId: "cmp_1" }),
  ];
  t.is(typeof unchecked, "function");
});

test("a stored job decodes to its payload and company", (t) => {
  t.deepEqual(Advance.decode(stored({})), { _tag: "Right", right: { payload: { thingId: "thg_1" }, companyId: "cmp_1" } });
  t.deepEqual(Sweep.decode(stored({ type: "things.sweep", payload: {}, companyId: null })), { _tag: "Right", right: { payload: {}, companyId: null } });
});

const refusals: Array<[string, Partial<Job>, RegExp]> = [
  ["a payload field missing", { payload: {} }, /^things\.advance job job_1 has a malformed payload: thingId is required$/],
  ["a payload field of the wrong type", { payload: { thingId: 42 } }, /^things\.advance job job_1 has a malformed payload: thingId must be string$/],
  ["no company for a company job", { companyId: null }, /^things\.advance job job_1 names no company$/],
  ["an empty company for a company job", { companyId: "" }, /names no company/],
  ["a job of another type", { type: "things.other" }, /^job job_1 is a things\.other job, not things\.advance$/],
];

for (const [title, job, message] of refusals) {
  test(`refused, as an UnrunnableJob: ${title}`, (t) => {
    const decoded = Advance.decode(stored(job));
    if (decoded._tag === "Right") return t.fail("decoded");
    t.true(decoded.left instanceof UnrunnableJob);
    t.regex(decoded.left.message, message);
  });
}
