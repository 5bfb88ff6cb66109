import test from "ava";
import type { AutomationOccurrence } from "../../../core/ports/automations.js";
import { entryKeyFor, matchingValue } from "../../../core/sequences/entry-key.js";
import type { Sequence } from "../../../core/sequences/model.js";
import { DEFAULT_SETTINGS } from "../../../core/sequences/settings.js";
import { matches } from "../../../core/sequences/trigger-matching.js";
import type { Subscriber } from "../../../core/subscribers/model.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");

const sequence = (settings: Partial<Sequence>): Sequence => ({
  ...DEFAULT_SETTINGS,
  id: "seq_1",
  companyId: "co_1",
  name: "S",
  status: "active",
  graph: { nodes: [], edges: [] },
  graphRevision: 1,
  createdAt: NOW,
  updatedAt: NOW,
  ...settings,
});

const contact = (id: string, customAttributes: Subscriber["customAttributes"] = {}): Subscriber => ({
  id,
  companyId: "co_1",
  email: `${id}@example.com`,
  externalId: null,
  firstName: null,
  lastName: null,
  phone: null,
  smsStatus: "not_subscribed",
  status: "active",
  emailProvider: null,
  timezone: null,
  customAttributes,
  unsubscribedAt: null,
  createdAt: NOW,
  updatedAt: NOW,
});

const added = (created: boolean, listIds: string[] = []): AutomationOccurrence => ({ trigger: "contact_added", created, listIds });
const event = (eventName: string, properties: Record<string, unknown> = {}): AutomationOccurrence => ({
  trigger: "event_received",
  eventName,
  properties,
  occurredAt: NOW,
});

test("each trigger config takes the occurrences it names, and no other", (t) => {
  const cases: Array<[string, Partial<Sequence>, AutomationOccurrence, boolean]> = [
    ["any contact: a new contact", { trigger: "contact_added", triggerConfig: { listScope: "any_contact" } }, added(true), true],
    ["any contact: a known contact joining a list", { trigger: "contact_added", triggerConfig: { listScope: "any_contact" } }, added(false, ["l1"]), false],
    ["any list: joining a list", { trigger: "contact_added", triggerConfig: { listScope: "any_list" } }, added(false, ["l1"]), true],
    ["any list: new, on no list", { trigger: "contact_added", triggerConfig: { listScope: "any_list" } }, added(true), false],
    ["one list: that list", { trigger: "contact_added", triggerConfig: { listId: "l1" } }, added(true, ["l2", "l1"]), true],
    ["one list: another list", { trigger: "contact_added", triggerConfig: { listId: "l1" } }, added(true, ["l2"]), false],
    [
      "tag: normalised names match",
      { trigger: "tag_added", triggerConfig: { tagName: "Pro Customer" } },
      { trigger: "tag_added", tagNames: ["pro-customer"] },
      true,
    ],
    ["tag: another tag", { trigger: "tag_added", triggerConfig: { tagName: "vip" } }, { trigger: "tag_added", tagNames: ["beta"] }, false],
    ["tag trigger: not an event", { trigger: "tag_added", triggerConfig: { tagName: "vip" } }, event("vip"), false],
    [
      "event: name and filters",
      { trigger: "event_received", triggerConfig: { eventName: "paid", propertyFilters: [{ path: "plan", operator: "equals", value: "pro" }] } },
      event("paid", { plan: "pro" }),
      true,
    ],
    [
      "event: filters fail",
      { trigger: "event_received", triggerConfig: { eventName: "paid", propertyFilters: [{ path: "plan", operator: "equals", value: "pro" }] } },
      event("paid", { plan: "free" }),
      false,
    ],
    ["frequency: the event counts", { trigger: "frequency", triggerConfig: { eventName: "viewed", minCount: 3, timeWindowDays: 7 } }, event("viewed"), true],
    ["frequency: another event", { trigger: "frequency", triggerConfig: { eventName: "viewed", minCount: 3, timeWindowDays: 7 } }, event("paid"), false],
  ];
  for (const [title, settings, occurrence, expected] of cases) t.is(matches(sequence(settings), occurrence), expected, title);
});

test("matching_field keys: one per contact and value, read from the event or the contact; none without a value", (t) => {
  const orders = sequence({ enrollmentMode: "matching_field", enrollmentFieldPath: "event.orderId" });
  const first = entryKeyFor(orders, contact("sub_1"), { event: { name: "o", properties: { orderId: 7 } } });
  const again = entryKeyFor(orders, contact("sub_1"), { event: { name: "o", properties: { orderId: 7 } } });
  const other = entryKeyFor(orders, contact("sub_1"), { event: { name: "o", properties: { orderId: 8 } } });
  const someoneElse = entryKeyFor(orders, contact("sub_2"), { event: { name: "o", properties: { orderId: 7 } } });
  t.is(first?.enrollmentKey, "7");
  t.is(first?.entryKey, again?.entryKey);
  t.not(first?.entryKey, other?.entryKey);
  t.not(first?.entryKey, someoneElse?.entryKey);
  t.true(first!.entryKey.length <= 40, "fits the entry_key column");
  t.is(entryKeyFor(orders, contact("sub_1"), {}), null);
  t.deepEqual(entryKeyFor(sequence({ enrollmentMode: "one_time" }), contact("sub_1"), {}), { entryKey: "sub_1", enrollmentKey: null });

  const plan = contact("sub_1", { plan: { tier: "pro" } });
  t.is(matchingValue("customAttributes.plan.tier", plan, {}), "pro");
  t.is(matchingValue("plan.tier", plan, { event: { name: "e", properties: { plan: { tier: "team" } } } }), "team", "a bare path reads the event first");
  t.is(matchingValue("plan.tier", plan, {}), "pro", "then the contact");
  t.is(matchingValue("event.plan", plan, {}), null);
});
