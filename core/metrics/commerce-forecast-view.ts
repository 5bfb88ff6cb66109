import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import type { CommerceForecast, Estimate } from "./commerce-forecast.js";

const EstimateView = view({ value: t.number, low: t.number, high: t.number }, "ForecastEstimate");
const nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** `commerceForecast` of account metrics, as the latest snapshot stored it. */
export const CommerceForecastView = view(
  {
    status: oneOf(["ready", "insufficient_data"], "CommerceForecastStatus"),
    evaluatedAt: Timestamp,
    currency: NullableString,
    history: view({
      orders: t.number,
      customers: t.number,
      repeatCustomers: t.number,
      days: t.number,
      firstOrderAt: NullableTimestamp,
      lastOrderAt: NullableTimestamp,
    }),
    predictedOrderValue: nullable(EstimateView),
    predictedCustomerValue12Months: nullable(EstimateView),
    expected90Days: nullable(view({ orders: EstimateView, revenue: EstimateView })),
    eligibility: view({ eligible: t.boolean, reasons: t.readonlyArray(view({ code: t.string, message: t.string })) }),
  },
  "CommerceForecast",
);
export type CommerceForecastView = t.TypeOf<typeof CommerceForecastView>;

const estimate = (value: Estimate | null) => (value ? { value: value.value, low: value.low, high: value.high } : null);

export const toCommerceForecastView = (forecast: CommerceForecast): CommerceForecastView => ({
  status: forecast.status,
  evaluatedAt: forecast.evaluatedAt.toISOString(),
  currency: forecast.currency,
  history: {
    ...forecast.history,
    firstOrderAt: forecast.history.firstOrderAt?.toISOString() ?? null,
    lastOrderAt: forecast.history.lastOrderAt?.toISOString() ?? null,
  },
  predictedOrderValue: estimate(forecast.predictedOrderValue),
  predictedCustomerValue12Months: estimate(forecast.predictedCustomerValue12Months),
  expected90Days: forecast.expected90Days ? { orders: estimate(forecast.expected90Days.orders)!, revenue: estimate(forecast.expected90Days.revenue)! } : null,
  eligibility: { eligible: forecast.eligibility.eligible, reasons: forecast.eligibility.reasons.map((reason) => ({ ...reason })) },
});
