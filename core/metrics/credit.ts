import { revenueCentsOf } from "./conversion-revenue.js";
import type { SequenceConversion } from "./sequence-metrics-ports.js";

/** Conversions credited to an email (a campaign, a sequence or one of its steps) and the revenue they recorded. */
export interface Credit {
  readonly conversions: number;
  readonly revenueCents: number;
}

export const NO_CREDIT: Credit = { conversions: 0, revenueCents: 0 };

export const addCredit = (a: Credit, b: Credit): Credit => ({ conversions: a.conversions + b.conversions, revenueCents: a.revenueCents + b.revenueCents });

/**
 * The sequence is credited with every conversion; a step, with those whose contact it was the
 * last email of the sequence sent before converting.
 */
export function creditsByStep(conversions: readonly SequenceConversion[]): { readonly total: Credit; readonly byStep: ReadonlyMap<string, Credit> } {
  let total = NO_CREDIT;
  const byStep = new Map<string, Credit>();
  for (const conversion of conversions) {
    const one = { conversions: 1, revenueCents: revenueCentsOf(conversion.propertyName, conversion.value) };
    total = addCredit(total, one);
    if (conversion.nodeId !== null) byStep.set(conversion.nodeId, addCredit(byStep.get(conversion.nodeId) ?? NO_CREDIT, one));
  }
  return { total, byStep };
}
