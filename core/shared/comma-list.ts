import * as t from "io-ts";
import { withSchema } from "./json-schema.js";

const items = (text: string): string[] => [
  ...new Set(
    text
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  ),
];

/**
 * A query string's comma-separated list (`eventTypes=open,click`), each item trimmed, blanks
 * and repeats dropped: at least one and at most `max` items, each accepted by `isItem`
 * (`rule` says what they must be, in the 422).
 */
export const commaList = <K extends string>(name: string, max: number, isItem: (item: string) => item is K, rule: string) =>
  withSchema(
    new t.Type<K[], string, unknown>(
      name,
      (u): u is K[] => Array.isArray(u) && u.length > 0 && u.length <= max && u.every((item) => typeof item === "string" && isItem(item)),
      (u, c) => {
        if (typeof u !== "string") return t.failure(u, c, "must be a comma-separated list");
        const list = items(u);
        if (list.length === 0) return t.failure(u, c, "must name at least one item");
        if (list.length > max) return t.failure(u, c, `must name at most ${max} items`);
        const wrong = list.find((item) => !isItem(item));
        return wrong === undefined ? t.success(list as K[]) : t.failure(u, c, `${JSON.stringify(wrong.slice(0, 100))} is not allowed: ${rule}`);
      },
      (list) => list.join(","),
    ),
    { type: "string", description: `comma-separated: ${rule}` },
  );

/** A comma list of words among `values`. */
export const commaListOf = <K extends string>(values: readonly K[], name: string) =>
  commaList(name, values.length, (item): item is K => (values as readonly string[]).includes(item), `one or more of ${values.join(", ")}`);

/** A comma list of IDs (opaque, at most 100 characters each). */
export const commaIds = (name: string, max: number) =>
  commaList(name, max, (item): item is string => item.length <= 100, `IDs of at most 100 characters, at most ${max} of them`);
