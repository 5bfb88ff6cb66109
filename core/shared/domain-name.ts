import * as t from "io-ts";
import { withSchema } from "./json-schema.js";

const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain name such as `mail.example.com`: lower-cased, internationalised names in their ASCII form. */
export const DomainName = withSchema(
  new t.Type<string, string, unknown>(
    "DomainName",
    (u): u is string => typeof u === "string" && HOSTNAME.test(u),
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const name = u.trim().toLowerCase().replace(/\.$/, "");
      // Only the name itself: no scheme, path, port or credentials to be parsed away.
      if (/[\s/\\:@?#%]/.test(name)) return t.failure(u, c, "must be a domain name such as example.com");
      let ascii: string;
      try {
        ascii = new URL(`http://${name}`).hostname;
      } catch {
        return t.failure(u, c, "must be a domain name such as example.com");
      }
      return HOSTNAME.test(ascii) ? t.success(ascii) : t.failure(u, c, "must be a domain name such as example.com");
    },
    t.identity,
  ),
  { type: "string", format: "hostname", maxLength: 253 },
);
