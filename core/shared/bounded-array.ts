import * as t from "io-ts";
import { toJsonSchema, withSchema } from "./json-schema.js";

/** An array of `min`..`max` items, with a readable message when the count is off. */
export const boundedArray = <C extends t.Mixed>(item: C, min: number, max: number) => {
  const array = t.array(item);
  return withSchema(
    new t.Type<Array<t.TypeOf<C>>, unknown, unknown>(
      `Array(${min}..${max})`,
      (u): u is Array<t.TypeOf<C>> => array.is(u) && u.length >= min && u.length <= max,
      (u, c) => {
        if (Array.isArray(u) && u.length < min) return t.failure(u, c, `must contain at least ${min} item${min === 1 ? "" : "s"}`);
        if (Array.isArray(u) && u.length > max) return t.failure(u, c, `must contain at most ${max} items`);
        return array.validate(u, c);
      },
      t.identity,
    ),
    { type: "array", items: toJsonSchema(item), minItems: min, maxItems: max },
  );
};
