import test from "ava";
import { resolveComputedLists, type ComputedList, type ComputedListCondition } from "../../../core/campaigns/computed-lists.js";

const ARTICLES = [
  { title: "Tents", minutes: 4, topic: "Camping gear", level: "1" },
  { title: "Knots", minutes: 12, topic: "Climbing" },
  { title: "Stoves", minutes: "8", topic: "camping food", level: 2 },
  { title: "Maps", topic: "Navigation" },
  "not an object",
];

/** The titles one list shows to a recipient. */
const titles = (where: ComputedListCondition[], recipient: Record<string, unknown> = {}, more: Partial<ComputedList> = {}) =>
  resolveComputedLists([{ key: "reads", source: "articles", where, sortBy: null, slots: 20, ...more }], { articles: ARTICLES }, recipient)[0]!.exposures.map(
    (item) => item.title,
  );

test("numbers compare as numbers, text numbers too; items without a number never match", (t) => {
  t.deepEqual(titles([{ field: "minutes", operator: "greater_than", value: 5 }]), ["Knots", "Stoves"]);
  t.deepEqual(titles([{ field: "minutes", operator: "less_than", attribute: "patience" }], { patience: "10" }), ["Tents", "Stoves"]);
  t.deepEqual(titles([{ field: "minutes", operator: "less_than", attribute: "patience" }], {}), [], "a value the recipient lacks matches nothing");
});

test('in, not_in and equals compare text, so 2 matches "2"; contains finds text in any case', (t) => {
  t.deepEqual(titles([{ field: "level", operator: "in", value: [2, "9"] }]), ["Stoves"]);
  t.deepEqual(titles([{ field: "level", operator: "equals", value: 1 }]), ["Tents"]);
  t.deepEqual(titles([{ field: "level", operator: "not_in", value: ["1"] }]), ["Knots", "Stoves", "Maps"]);
  t.deepEqual(titles([{ field: "topic", operator: "contains", value: "CAMPING" }]), ["Tents", "Stoves"]);
  t.deepEqual(titles([{ field: "level", operator: "exists" }]), ["Tents", "Stoves"]);
  t.deepEqual(
    titles([{ field: "topic", operator: "not_equals", attribute: "skip" }], {}),
    ["Tents", "Knots", "Stoves", "Maps"],
    "nothing to differ from: all hold",
  );
});

test("sorted either way with items lacking the field last; slots cut the shown items, numbered from 1", (t) => {
  t.deepEqual(titles([], {}, { sortBy: { field: "minutes", direction: "asc" } }), ["Tents", "Stoves", "Knots", "Maps"]);
  t.deepEqual(titles([], {}, { sortBy: { field: "minutes", direction: "desc" } }), ["Knots", "Stoves", "Tents", "Maps"]);
  const [list] = resolveComputedLists(
    [{ key: "reads", source: "articles", where: [], sortBy: { field: "title", direction: "asc" }, slots: 2 }],
    { articles: ARTICLES },
    {},
  );
  t.is(list!.items.length, 4, "every object item qualifies; the string is not an item");
  t.deepEqual(
    list!.exposures.map((item) => [item.slot, item.title]),
    [
      [1, "Knots"],
      [2, "Maps"],
    ],
  );
});
