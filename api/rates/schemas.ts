/**
 * The rates resources' shapes as the OpenAPI document names them: the rate offer and the search
 * answer (search.ts), the rate sheet summary and the sheet with its lines (routes.ts).
 */
import { t } from "elysia";
import { RATE_MODES } from "../../engine/rates/sheet.ts";
import { DateTime, Day, Int, nullable, strict, Uuid } from "../shared/openapi/responses.ts";

const Mode = t.Union(RATE_MODES.map((m) => t.Literal(m)));
const Text = nullable(t.String());
const Amount = t.Number();

const Charge = strict({
  code: t.String(),
  basis: t.String(),
  rate: t.Number(),
  quantity: t.Number({ minimum: 0 }),
  amount: Amount,
  weight_break: t.Optional(t.String()),
});

export const RateOffer = strict(
  {
    id: t.String(),
    indicative: t.Boolean(),
    sheet_id: nullable(Uuid),
    sheet_name: Text,
    carrier: Text,
    mode: Mode,
    origin: t.String(),
    destination: t.String(),
    equipment: Text,
    currency: t.String({ pattern: "^[A-Z]{3}$" }),
    valid_from: Day,
    valid_to: Day,
    charges: t.Array(Charge),
    base: Amount,
    surcharges: Amount,
    total: Amount,
    chargeable: strict({
      wm: t.Optional(t.Number()),
      weight_kg: t.Optional(t.Number()),
      distance_km: t.Optional(t.Number()),
    }),
    transit_days: nullable(t.Number({ minimum: 0 })),
    transit_source: nullable(t.Union([t.Literal("sheet"), t.Literal("distance_engine")])),
    cost_model: t.Optional(
      t.String({ description: "Indicative offers: where the cost model is documented" }),
    ),
  },
  { $id: "RateOffer" },
);

export const RateSearchAnswer = strict({
  query: strict({
    mode: Mode,
    origin: t.String(),
    destination: t.String(),
    date: Day,
    equipment: Text,
    quantity: Int({ minimum: 1 }),
    weight_kg: nullable(t.Number()),
    volume_m3: nullable(t.Number()),
    currency: Text,
    carrier: Text,
    indicative: t.Boolean(),
  }),
  total: Int({ minimum: 0 }),
  offers: t.Array(RateOffer),
  unpriced: t.Array(
    strict({
      source: t.Union([t.Literal("sheet"), t.Literal("indicative")]),
      sheet_id: Text,
      equipment: Text,
      reason: t.String(),
    }),
  ),
});

const SHEET_FIELDS = {
  id: Uuid,
  name: t.String(),
  carrier: t.String(),
  mode: Mode,
  currency: t.String(),
  valid_from: Day,
  valid_to: Day,
  source_file: t.String(),
  imported_at: DateTime,
  created_at: DateTime,
  version: Int({ minimum: 1 }),
  digest: t.String(),
  lines: Int({ minimum: 0 }),
  surcharges: Int({ minimum: 0 }),
};

export const RateSheet = strict(SHEET_FIELDS, { $id: "RateSheet", description: "An imported rate sheet" });

export const RateSheetDetail = strict(
  {
    ...SHEET_FIELDS,
    rate_lines: t.Array(
      strict({
        origin: t.String(),
        destination: t.String(),
        equipment: Text,
        basis: t.String(),
        rate: nullable(t.Number({ description: "null for air (breaks)" })),
        min: nullable(t.Number()),
        breaks: nullable(t.Record(t.String(), t.Number(), { description: "Air: rate per kg by break" })),
        transit_days: nullable(t.Number()),
        distance_km: nullable(t.Number()),
      }),
    ),
    rate_surcharges: t.Array(
      strict({
        code: t.String(),
        basis: t.String(),
        amount: t.Number(),
        equipment: Text,
        origin: Text,
        destination: Text,
        valid_from: nullable(Day),
        valid_to: nullable(Day),
      }),
    ),
  },
  { description: "A rate sheet with its lines and surcharges" },
);
