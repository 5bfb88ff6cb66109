import * as t from "io-ts";
import { boundedText } from "./codecs.js";
import { withSchema } from "./json-schema.js";

/** CR and LF end a header line and NUL ends a C string: in a header value either lets a sender write headers of its own. */
const HEADER_BREAKING = /[\r\n\0]/;

/**
 * Text that becomes (part of) a mail header: display names, attachment file names and content
 * types. Refused, not cleaned, when it holds CR, LF or NUL anywhere (even at the ends, which
 * trimming would otherwise hide), so a caller learns which field was wrong.
 */
export const headerText = (max: number) => {
  const text = boundedText(max);
  return withSchema(
    new t.Type<string, string, unknown>(
      `HeaderText(1..${max})`,
      (u): u is string => text.is(u) && !HEADER_BREAKING.test(u),
      (u, c) => (typeof u === "string" && HEADER_BREAKING.test(u) ? t.failure(u, c, "must not contain line breaks or NUL characters") : text.validate(u, c)),
      t.identity,
    ),
    { type: "string", minLength: 1, maxLength: max, pattern: "^[^\\r\\n\\u0000]*$" },
  );
};
