import test from "ava";
import { revenueCentsOf } from "../../core/metrics/conversion-revenue.js";

test("a conversion is revenue when its goal records an amount property and the value is a number, in minor units", (t) => {
  t.is(revenueCentsOf("amount", "4900"), 4900);
  t.is(revenueCentsOf("order.totalCents", "1250"), 1250);
  t.is(revenueCentsOf("planValue", " 99.6 "), 100);
  t.is(revenueCentsOf("revenue_cents", "0"), 0);
  t.is(revenueCentsOf("plan", "99"), 0, "a plan is not an amount");
  t.is(revenueCentsOf("amount.currency", "99"), 0, "only the last segment names the amount");
  t.is(revenueCentsOf("amount", "pro"), 0);
  t.is(revenueCentsOf("amount", ""), 0);
  t.is(revenueCentsOf("amount", null), 0);
  t.is(revenueCentsOf(null, "99"), 0);
  t.is(revenueCentsOf("amount", "Infinity"), 0);
});
