import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/** Countries of the North American Numbering Plan: a national number is 10 digits after +1. */
const NANP = new Set(["US", "CA", "PR", "GU", "VI", "AS", "MP"]);

export const invalidPhone = () => badRequest("phone must be in E.164 format (e.g. +14155550123), or a 10-digit national number when phoneCountry is US or CA");

/**
 * A phone number in E.164 (`+` and 8 to 15 digits). Separators are ignored, `00` stands for `+`,
 * and a national number is read in `country` (default US) when it is a North American one.
 * "" and null clear the number.
 */
export function normalizePhone(raw: string | null, country: string | null | undefined): Result<string | null> {
  if (raw === null || raw.trim() === "") return ok(null);
  const compact = raw
    .trim()
    .replace(/[\s().\-/]/g, "")
    .replace(/^00/, "+");
  if (/^\+[1-9]\d{7,14}$/.test(compact)) return ok(compact);
  if (!/^\d+$/.test(compact)) return fail(invalidPhone());
  const region = (country ?? "US").toUpperCase();
  if (NANP.has(region)) {
    if (/^[2-9]\d{9}$/.test(compact)) return ok(`+1${compact}`);
    if (/^1[2-9]\d{9}$/.test(compact)) return ok(`+${compact}`);
  }
  return fail(invalidPhone());
}
