import test from "ava";
import { commaIds, commaListOf } from "../../../core/shared/comma-list.js";
import { pagePagination, readPage } from "../../../core/shared/page-pagination.js";

const EventTypes = commaListOf(["open", "click", "delivery"] as const, "EventTypes");

test("a comma list is read trimmed, without blanks or repeats, in the order given", (t) => {
  const decoded = EventTypes.decode(" click, open,,click ");
  t.deepEqual(decoded._tag === "Right" ? decoded.right : null, ["click", "open"]);
  t.is(EventTypes.encode(["open", "click"]), "open,click");
});

test("a comma list refuses what is not a string, names nothing, or names an item it does not know", (t) => {
  for (const bad of [["open"], 3, "", " , ", "open,teleport"]) t.is(EventTypes.decode(bad)._tag, "Left", JSON.stringify(bad));
  const unknown = EventTypes.decode("open,teleport");
  t.regex(unknown._tag === "Left" ? String(unknown.left[0]?.message) : "", /"teleport" is not allowed: one or more of open, click, delivery/);
});

test("a comma list of IDs holds at most its number of IDs, each of at most 100 characters", (t) => {
  const Ids = commaIds("Ids", 2);
  t.is(Ids.decode("a,b")._tag, "Right");
  t.is(Ids.decode("a,b,c")._tag, "Left");
  t.is(Ids.decode("x".repeat(101))._tag, "Left");
});

test("page pagination: the rows to skip and the number of pages", (t) => {
  t.deepEqual(readPage({}, 50), { page: 1, limit: 50, offset: 0 });
  t.deepEqual(readPage({ page: 3, limit: 20 }, 50), { page: 3, limit: 20, offset: 40 });
  t.deepEqual(pagePagination(2, 20, 41), { page: 2, limit: 20, total: 41, totalPages: 3 });
  t.deepEqual(pagePagination(1, 20, 0), { page: 1, limit: 20, total: 0, totalPages: 0 });
});
