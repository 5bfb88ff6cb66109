import * as t from "io-ts";
import type { Knex } from "knex";
import { ORDER_PLACED_EVENT, readPlacedOrder, type PlacedOrder } from "../../../core/metrics/commerce-forecast.js";
import { CommerceForecastView } from "../../../core/metrics/commerce-forecast-view.js";
import type { CommerceForecasts, OrderHistory } from "../../../core/metrics/forecast-ports.js";
import { DbDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const TABLE = "commerce_forecasts";

const ForecastRow = t.type({ snapshot: dbJson(CommerceForecastView) });
const OrderRow = t.type({ subscriber_id: t.string, occurred_at: DbDate, properties: dbJson(t.record(t.string, t.unknown)) });

/** Snapshots in `commerce_forecasts`; orders read from `custom_events` through its (company, name, occurred_at) index. */
export class KnexCommerceForecasts implements CommerceForecasts, OrderHistory {
  constructor(private readonly knex: Knex) {}

  async latest(companyId: string): Promise<CommerceForecastView | null> {
    const row = await this.knex(TABLE).where({ company_id: companyId }).first("snapshot");
    return row ? decodeRow(ForecastRow, row, TABLE).snapshot : null;
  }

  async save(companyId: string, forecast: CommerceForecastView): Promise<void> {
    const row = {
      company_id: companyId,
      snapshot: JSON.stringify(CommerceForecastView.encode(forecast)),
      evaluated_at: toDbDate(new Date(forecast.evaluatedAt)),
    };
    await this.knex(TABLE).insert(row).onConflict("company_id").merge(["snapshot", "evaluated_at"]);
  }

  async companiesWithOrders(): Promise<string[]> {
    return this.knex("event_definitions").where({ name: ORDER_PLACED_EVENT }).orderBy("company_id").pluck("company_id");
  }

  async placedOrders(companyId: string, since: Date): Promise<PlacedOrder[]> {
    const rows = await this.knex("custom_events")
      .where({ company_id: companyId, name: ORDER_PLACED_EVENT })
      .where("occurred_at", ">=", toDbDate(since))
      .orderBy("occurred_at")
      .select("subscriber_id", "occurred_at", "properties");
    return rows.map((row) => {
      const r = decodeRow(OrderRow, row, "custom_events");
      return readPlacedOrder(r.subscriber_id, r.occurred_at, r.properties);
    });
  }
}
