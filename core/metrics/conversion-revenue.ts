/**
 * Revenue of a conversion, in minor units as every amount of the API is (compat-reference: money
 * in minor units, as the payment integrations record `amount`). A decision, as compat does not say
 * which goals carry revenue: a goal whose `eventPropertyName` names an amount (`amount`, `revenue`,
 * `total`, `value` or `price` ends its last path segment, optionally with a `Cents` / `_cents`
 * suffix: `amount`, `order.totalCents`, `planValue`) and a conversion that recorded a number for
 * it. Anything else (a plan name, a count) is no revenue.
 */
const AMOUNT_PROPERTY = /(amount|revenue|total|value|price)(_?cents)?$/i;

/** Whether a goal's conversions can carry revenue: its eventPropertyName names an amount. */
export const carriesRevenue = (propertyName: string | null): propertyName is string =>
  propertyName !== null && AMOUNT_PROPERTY.test(propertyName.split(".").pop()!);

export function revenueCentsOf(propertyName: string | null, value: string | null): number {
  if (!carriesRevenue(propertyName) || value === null) return 0;
  const amount = Number(value.trim());
  return value.trim() !== "" && Number.isFinite(amount) ? Math.round(amount) : 0;
}
