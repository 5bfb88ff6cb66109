import { token } from "../shared/token.js";
import type { PlacedOrder } from "./commerce-forecast.js";
import type { CommerceForecastView } from "./commerce-forecast-view.js";

/** The stores' `ecommerce.order_placed` history the forecast reads. */
export interface OrderHistory {
  /** Companies that have ever recorded an order (an event definition of that name). */
  companiesWithOrders(): Promise<string[]>;
  /** The company's orders placed since `since`, oldest first. */
  placedOrders(companyId: string, since: Date): Promise<PlacedOrder[]>;
}
export const OrderHistory = token<OrderHistory>("lifecycle.OrderHistory");

/** The latest forecast snapshot per company (one row each, replaced by every evaluation). */
export interface CommerceForecasts {
  latest(companyId: string): Promise<CommerceForecastView | null>;
  save(companyId: string, forecast: CommerceForecastView): Promise<void>;
}
export const CommerceForecasts = token<CommerceForecasts>("lifecycle.CommerceForecasts");
