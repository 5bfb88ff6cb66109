import test from "ava";
import type { ContactFields } from "../../../core/subscribers/contact-fields.js";
import { mergeContact } from "../../../core/subscribers/merge-contact.js";
import type { Subscriber } from "../../../core/subscribers/model.js";
import { overwriteContact } from "../../../core/subscribers/overwrite-contact.js";

const CREATED = new Date("2026-06-01T00:00:00.000Z");
const EARLIER = new Date("2025-01-01T00:00:00.000Z");
const LATER = new Date("2026-09-01T00:00:00.000Z");
const NOW = new Date("2026-11-22T10:00:00.000Z");

const contact: Subscriber = {
  id: "sub_1",
  companyId: "co_1",
  email: "ann@example.com",
  externalId: "ext-1",
  firstName: "Ann",
  lastName: "Lee",
  phone: "+33612345678",
  smsStatus: "not_subscribed",
  status: "active",
  emailProvider: "other",
  timezone: "Europe/Paris",
  customAttributes: { plan: "pro", address: { city: "Paris", zip: "75001" } },
  unsubscribedAt: null,
  createdAt: CREATED,
  updatedAt: CREATED,
};

/** What is given -> the fields that change on merge and on overwrite (anything else keeps its value, updatedAt becomes NOW). */
const TABLE: ReadonlyArray<{ name: string; given: ContactFields; merge: Partial<Subscriber>; overwrite: Partial<Subscriber> }> = [
  {
    name: "nothing given",
    given: {},
    merge: {},
    overwrite: { firstName: null, lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
  {
    name: "a first name",
    given: { firstName: "Annie" },
    merge: { firstName: "Annie" },
    overwrite: { firstName: "Annie", lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
  {
    name: "a blank last name and a null phone",
    given: { lastName: "", phone: null },
    merge: { lastName: null, phone: null },
    overwrite: { lastName: null, phone: null, firstName: null, timezone: null, customAttributes: {} },
  },
  {
    name: "attributes: given keys replace theirs whole, other keys stay on merge",
    given: { customAttributes: { plan: "team", address: { city: "Lyon" } } },
    merge: { customAttributes: { plan: "team", address: { city: "Lyon" } } },
    overwrite: { firstName: null, lastName: null, phone: null, timezone: null, customAttributes: { plan: "team", address: { city: "Lyon" } } },
  },
  {
    name: "a new attribute",
    given: { customAttributes: { seats: 3 } },
    merge: { customAttributes: { plan: "pro", address: { city: "Paris", zip: "75001" }, seats: 3 } },
    overwrite: { firstName: null, lastName: null, phone: null, timezone: null, customAttributes: { seats: 3 } },
  },
  {
    name: "a null external ID keeps the current one",
    given: { externalId: null, timezone: null },
    merge: { timezone: null },
    overwrite: { firstName: null, lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
  {
    name: "a new external ID",
    given: { externalId: "ext-2" },
    merge: { externalId: "ext-2" },
    overwrite: { externalId: "ext-2", firstName: null, lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
  {
    name: "an earlier signup backdates",
    given: { createdAt: EARLIER },
    merge: { createdAt: EARLIER },
    overwrite: { createdAt: EARLIER, firstName: null, lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
  {
    name: "a later signup is ignored",
    given: { createdAt: LATER },
    merge: {},
    overwrite: { firstName: null, lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
  {
    name: "a status is ignored",
    given: { status: "unsubscribed" },
    merge: {},
    overwrite: { firstName: null, lastName: null, phone: null, timezone: null, customAttributes: {} },
  },
];

for (const { name, given, merge, overwrite } of TABLE) {
  test(`merge: ${name}`, (t) => {
    t.deepEqual(mergeContact(contact, given, NOW), { ...contact, ...merge, updatedAt: NOW });
  });
  test(`overwrite: ${name}`, (t) => {
    t.deepEqual(overwriteContact(contact, given, NOW), { ...contact, ...overwrite, updatedAt: NOW });
  });
}
