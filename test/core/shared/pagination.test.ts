import test from "ava";
import * as t from "io-ts";
import { decodeBase64Url, encodeBase64Url } from "../../../core/shared/base64url.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { decodeCursor, encodeCursor, paginationOf, readCursorPage } from "../../../core/shared/pagination.js";

const texts = ["", "a", "ab", "abc", '{"before":"wsy_01JD8Z"}', "émoji 🎉 and ünïcode", "\u0000\u00ff>>??"];

test("base64url reads and writes what Buffer does (cursors given out before stay valid)", (t) => {
  for (const text of texts) {
    const encoded = Buffer.from(text, "utf8").toString("base64url");
    t.is(encodeBase64Url(text), encoded, text);
    t.is(decodeBase64Url(encoded), text, text);
  }
  t.is(decodeBase64Url("YWI="), "ab", "padding is accepted");
});

test("base64url refuses what is not base64url of UTF-8", (t) => {
  for (const bad of ["a+b", "a/b", "a b", "!!", "_w"]) t.is(decodeBase64Url(bad), null, bad);
});

const Position = t.type({ before: TrimmedNonEmpty });

test("a cursor holds a position, and only a position of the list's own shape", (t) => {
  t.deepEqual(decodeCursor(encodeCursor({ before: "wsy_2" }), Position), { before: "wsy_2" });
  t.is(decodeCursor(encodeCursor({ after: "wsy_2" }), Position), null, "another list's cursor");
  t.is(decodeCursor(encodeBase64Url("not json"), Position), null);
  t.is(decodeCursor("%%%", Position), null);
});

const pages: Array<[string, { limit?: number; cursor?: string }, { limit: number; after: unknown } | string]> = [
  ["the first page, 50 by default", {}, { limit: 50, after: null }],
  ["a blank cursor is no cursor", { limit: 10, cursor: "  " }, { limit: 10, after: null }],
  ["a cursor given back", { limit: 100, cursor: encodeCursor({ before: "wsy_2" }) }, { limit: 100, after: { before: "wsy_2" } }],
  ["a cursor that is not ours", { cursor: "garbage" }, "cursor is not valid: start again without it"],
];

for (const [title, query, expected] of pages) {
  test(`reading the page asked for: ${title}`, (t) => {
    const page = readCursorPage(query, Position);
    if (typeof expected === "string") t.like(page, { _tag: "Left", left: { _tag: "BadRequest", message: expected } });
    else t.deepEqual(page, { _tag: "Right", right: expected });
  });
}

test("the pagination points past the last item only when there is more", (t) => {
  const position = (id: string) => ({ before: id });
  t.deepEqual(paginationOf(2, true, "wsy_1", position), { limit: 2, nextCursor: encodeCursor({ before: "wsy_1" }), hasMore: true });
  t.deepEqual(paginationOf(2, false, "wsy_1", position), { limit: 2, nextCursor: null, hasMore: false });
  t.deepEqual(paginationOf(2, true, undefined, position), { limit: 2, nextCursor: null, hasMore: true });
});
