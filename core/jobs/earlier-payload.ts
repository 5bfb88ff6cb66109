import * as t from "io-ts";

/**
 * A payload codec that also reads the shape its jobs were queued with before it changed, so a
 * job already in the queue when a new version starts still runs. Only the current shape is
 * written.
 */
export function withEarlierShape<A, O, E>(current: t.Type<A, O, unknown>, earlier: t.Decoder<unknown, E>, upgrade: (old: E) => A): t.Type<A, O, unknown> {
  return new t.Type<A, O, unknown>(
    current.name,
    current.is,
    (input, context) => {
      const decoded = current.validate(input, context);
      if (decoded._tag === "Right") return decoded;
      const old = earlier.validate(input, context);
      return old._tag === "Right" ? t.success(upgrade(old.right)) : decoded;
    },
    current.encode,
  );
}
