import { asText, valueAt } from "./property-filters.js";

const REFERENCE = /\{\{\s*([\w.]+)\s*\}\}/g;
const WHOLE_REFERENCE = /^\{\{\s*([\w.]+)\s*\}\}$/;

/**
 * `{{path}}` references in a step's value filled from `values` (`event.x`, a webhook's
 * `resultKey.x`, ...). A value that is only a reference keeps the referenced value's type (null
 * when it is missing); inside text a missing value is empty.
 */
export function fillReferences(value: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof value !== "string") return value;
  const whole = WHOLE_REFERENCE.exec(value);
  if (whole) return valueAt(values, whole[1]!) ?? null;
  return fillText(value, values);
}

/** Every `{{path}}` reference in `text` replaced by its value as text (empty when missing), passed through `encode`. */
export function fillText(text: string, values: Readonly<Record<string, unknown>>, encode: (value: string) => string = (value) => value): string {
  return text.replace(REFERENCE, (_, path: string) => {
    const found = valueAt(values, path);
    return found === undefined || found === null ? "" : encode(asText(found));
  });
}

/** Every string inside a JSON value filled by fillReferences (objects and arrays kept as they are). */
export function fillReferencesDeep(value: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof value === "string") return fillReferences(value, values);
  if (Array.isArray(value)) return value.map((item) => fillReferencesDeep(item, values));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillReferencesDeep(item, values)]));
  return value;
}
