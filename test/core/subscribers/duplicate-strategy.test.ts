import test from "ava";
import type { ContactFields } from "../../../core/subscribers/contact-fields.js";
import { resolveDuplicate } from "../../../core/subscribers/duplicate-strategy.js";
import { mergeContact } from "../../../core/subscribers/merge-contact.js";
import type { DuplicateStrategy, Subscriber } from "../../../core/subscribers/model.js";
import { overwriteContact } from "../../../core/subscribers/overwrite-contact.js";

const CREATED = new Date("2026-01-01T00:00:00.000Z");
const NOW = new Date("2026-11-22T10:00:00.000Z");

const existing: Subscriber = {
  id: "sub_1",
  companyId: "co_1",
  email: "ann@example.com",
  externalId: "ext-1",
  firstName: "Ann",
  lastName: "Lee",
  phone: "+33612345678",
  smsStatus: "not_subscribed",
  status: "unsubscribed",
  emailProvider: "other",
  timezone: "Europe/Paris",
  customAttributes: { plan: "pro", seats: 3 },
  unsubscribedAt: CREATED,
  createdAt: CREATED,
  updatedAt: CREATED,
};

const given: ContactFields = { firstName: "Annie", customAttributes: { plan: "team" } };

/** Strategy x tags given (none, an empty list, some) -> what the existing contact becomes. */
const TABLE: ReadonlyArray<{ strategy: DuplicateStrategy; tags: readonly string[] | undefined; expected: ReturnType<typeof resolveDuplicate> }> = [
  { strategy: "skip", tags: undefined, expected: null },
  { strategy: "skip", tags: [], expected: null },
  { strategy: "skip", tags: ["vip"], expected: null },
  { strategy: "merge", tags: undefined, expected: { subscriber: mergeContact(existing, given, NOW), tags: [], replaceTags: false } },
  { strategy: "merge", tags: [], expected: { subscriber: mergeContact(existing, given, NOW), tags: [], replaceTags: false } },
  { strategy: "merge", tags: ["vip"], expected: { subscriber: mergeContact(existing, given, NOW), tags: ["vip"], replaceTags: false } },
  { strategy: "overwrite", tags: undefined, expected: { subscriber: overwriteContact(existing, given, NOW), tags: [], replaceTags: false } },
  { strategy: "overwrite", tags: [], expected: { subscriber: overwriteContact(existing, given, NOW), tags: [], replaceTags: true } },
  { strategy: "overwrite", tags: ["vip"], expected: { subscriber: overwriteContact(existing, given, NOW), tags: ["vip"], replaceTags: true } },
];

for (const { strategy, tags, expected } of TABLE) {
  test(`${strategy} with tags ${tags === undefined ? "not given" : JSON.stringify(tags)}`, (t) => {
    t.deepEqual(resolveDuplicate(strategy, existing, given, tags, NOW), expected);
  });
}

test("neither merge nor overwrite changes the status (an unsubscribed contact stays unsubscribed)", (t) => {
  for (const strategy of ["merge", "overwrite"] as const) {
    const resolved = resolveDuplicate(strategy, existing, { ...given, status: "active" }, undefined, NOW);
    t.is(resolved?.subscriber.status, "unsubscribed", strategy);
    t.deepEqual(resolved?.subscriber.unsubscribedAt, CREATED, strategy);
  }
});
