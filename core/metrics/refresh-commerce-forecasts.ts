import type { Clock } from "../ports/clock.js";
import { evaluateCommerceForecast, FORECAST_RULES } from "./commerce-forecast.js";
import { toCommerceForecastView } from "./commerce-forecast-view.js";
import type { CommerceForecasts, OrderHistory } from "./forecast-ports.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The job type of the background evaluation, scheduled by the metrics capability. */
export const REFRESH_COMMERCE_FORECASTS_JOB = "metrics.refresh-commerce-forecasts";

/**
 * The background snapshot behind `commerceForecast`: every company that has recorded an order is
 * evaluated from its last two years of orders and its snapshot replaced. Running it again only
 * replaces each snapshot with a fresh one.
 */
export class RefreshCommerceForecasts {
  constructor(
    private readonly history: OrderHistory,
    private readonly forecasts: CommerceForecasts,
    private readonly clock: Clock,
  ) {}

  /** Resolves to the number of companies evaluated. */
  execute = async (): Promise<number> => {
    const companies = await this.history.companiesWithOrders();
    for (const companyId of companies) {
      const now = this.clock.now();
      const orders = await this.history.placedOrders(companyId, new Date(now.getTime() - FORECAST_RULES.historyDays * DAY_MS));
      await this.forecasts.save(companyId, toCommerceForecastView(evaluateCommerceForecast(orders, now)));
    }
    return companies.length;
  };
}
