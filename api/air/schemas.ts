/**
 * The air-cargo resources' shapes as the OpenAPI document names them: the tracked air waybill
 * (awb-routes.ts renders it) with its milestone timeline, the AWB prefix answer (awb-prefixes.ts)
 * and the indicative quote (engine/air-quote).
 */
import { t } from "elysia";
import { AWB_EXCEPTIONS, AWB_STATUSES } from "../../ingest/air-tracking/status.ts";
import { DateTime, Int, LOCAL_MOMENT, nullable, strict, Text, Uuid } from "../shared/openapi/responses.ts";

const oneOf = (values: readonly string[]) => t.Union(values.map((v) => t.Literal(v)));
const Money = t.Number({ minimum: 0 });

export const AirWaybill = strict(
  {
    id: Uuid,
    awb: t.String({ pattern: "^\\d{3}-\\d{8}$" }),
    airline_iata: Text,
    airline_name: Text,
    connector_status: Text,
    status: oneOf(AWB_STATUSES),
    exceptions: t.Array(oneOf(AWB_EXCEPTIONS)),
    origin: Text,
    origin_name: Text,
    destination: Text,
    destination_name: Text,
    pieces: nullable(Int({ minimum: 0 })),
    weight_kg: nullable(t.Number({ minimum: 0 })),
    eta: nullable(DateTime),
    eta_is_estimated: nullable(t.Boolean()),
    planned_arrival_at: nullable(DateTime),
    departed_at: nullable(DateTime),
    arrived_at: nullable(DateTime),
    delivered_at: nullable(DateTime),
    last_error: Text,
    last_polled_at: nullable(DateTime),
    next_poll_at: nullable(DateTime),
    added_at: DateTime,
    updated_at: DateTime,
    archived_at: nullable(DateTime),
    archived_reason: Text,
  },
  { $id: "AirWaybill", description: "A tracked air waybill (list item)" },
);

export const AwbMilestone = strict(
  {
    type: t.String({ description: "ONE Record status code (BKD, RCS, DEP, ARR, ...)" }),
    time_type: oneOf(["ACTUAL", "PLANNED", "ESTIMATED"]),
    ...LOCAL_MOMENT,
    flight: Text,
    to_location: Text,
    pieces: nullable(Int({ minimum: 0 })),
    partial: t.Boolean(),
    event_id: t.String(),
  },
  { $id: "AwbMilestone" },
);

export const AirWaybillDetail = t.Composite([AirWaybill, strict({ timeline: t.Array(AwbMilestone) })], {
  additionalProperties: false,
  description: "A tracked air waybill with its milestone timeline",
});

export const AwbPrefix = strict(
  {
    prefix: t.String({ pattern: "^\\d{3}$" }),
    airline: strict({ iata: Text, icao: Text, name: t.String() }),
    awb: Text,
    valid: nullable(t.Boolean()),
    check_digit: nullable(Int({ minimum: 0, maximum: 6 })),
    hint: Text,
    suggestions: t.Array(t.String()),
  },
  { $id: "AwbPrefix", description: "The airline behind a prefix; a whole AWB's check digit judged" },
);

const QuoteAirport = strict({ iata: t.String(), name: t.String(), country_code: t.String() });

export const AirQuote = strict(
  {
    origin: t.String(),
    destination: t.String(),
    chargeable_weight_kg: t.Number({ minimum: 0 }),
    net_per_kg: Money,
    surcharge_per_kg: Money,
    total_charge: Money,
    currency: t.String(),
    airline_iata: t.String(),
    indicative: t.Literal(true),
    rate_card: strict({ id: t.String(), note: t.String() }),
    origin_airport: QuoteAirport,
    destination_airport: QuoteAirport,
    airline_rule: t.String(),
    lane: strict({
      rate_key: t.String(),
      origin_region: t.String(),
      destination_region: t.String(),
      n_rate_per_kg: Money,
      great_circle_km: t.Number({ minimum: 0 }),
    }),
    breakdown: strict({
      weight_break: t.String(),
      rate_per_kg: nullable(Money),
      rated_weight_kg: nullable(t.Number({ minimum: 0 })),
      minimum_charge: Money,
      weight_charge: Money,
      fuel_per_kg: Money,
      fuel_surcharge: Money,
      security_per_kg: Money,
      security_surcharge: Money,
    }),
    other_charges: strict({
      awb_fee: Money,
      screening: Money,
      total: Money,
      in_total_charge: t.Literal(false),
    }),
  },
  { $id: "AirQuote", description: "Indicative air-freight quote (rate card model, not a tariff)" },
);
