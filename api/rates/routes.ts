/**
 * The rates read routes: search offers, list the organisation's sheets, read one sheet. Handlers
 * check the query, call RateSearch or the repository, and render; another organisation's sheet
 * answers 404 like one that never existed. docs/rates.md.
 */
import { Elysia, t } from "elysia";
import { isCalendarDate } from "../../common/calendar-date.ts";
import { CONTAINER_TYPES, RATE_MODES, type RateMode } from "../../engine/rates/sheet.ts";
import { sheetFields } from "../../ingest/rates/events.ts";
import { lineOf, surchargeOf } from "../../ingest/rates/import.ts";
import type { RateSheetRow } from "../../storage/rates.ts";
import { ApiError } from "../shared/errors.ts";
import { flag } from "../shared/flag.ts";
import {
  booleanQuery,
  dateQuery,
  enumQuery,
  integerQuery,
  numberQuery,
  type Range,
  requiredEnumQuery,
  uuidPath,
} from "../shared/openapi/parameters.ts";
import { listPage, routeAnswers } from "../shared/openapi/responses.ts";
import { limitQuery, pageAfter, pageLimit, pageOf } from "../shared/paging.ts";
import type { FullPlatform } from "../shared/platform.ts";
import { caller } from "../shared/plugins/access.ts";
import { product } from "../shared/products.ts";
import { RateSearchAnswer, RateSheet, RateSheetDetail } from "./schemas.ts";
import { RateSearch, type SearchQuery } from "./search.ts";

const RATES = product("rates");

/** Larger than any one shipment: beyond them a typo, not a search. The query schema takes these too. */
const WEIGHT_KG = { exclusiveMinimum: 0, maximum: 1_000_000 } satisfies Range;
const VOLUME_M3 = { exclusiveMinimum: 0, maximum: 100_000 } satisfies Range;
const QUANTITY = { minimum: 1, maximum: 1000, default: 1 } satisfies Range;

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const IATA = /^[A-Z]{3}$/;

function placeParam(name: string, raw: string, mode: RateMode): string {
  const code = raw.replace(/\s/g, "").toUpperCase();
  if (LOCODE.test(code) || (mode === "AIR" && IATA.test(code))) return code;
  const forms =
    mode === "AIR" ? "an IATA airport code (FRA) or a UN/LOCODE (DEFRA)" : "a UN/LOCODE such as NLRTM";
  throw new ApiError("validation", `${name} must be ${forms}; got "${raw}".`);
}

function numberParam(name: string, raw: string | undefined, range: typeof WEIGHT_KG): number | null {
  if (raw === undefined) return null;
  const n = Number(raw);
  const { exclusiveMinimum: above, maximum } = range;
  if (raw.trim() === "" || !Number.isFinite(n) || n <= above || n > maximum) {
    throw new ApiError(
      "validation",
      `${name} must be a number above ${above} and at most ${maximum}; got "${raw}".`,
    );
  }
  return n;
}

function dateParam(raw: string | undefined, now: number): string {
  if (raw === undefined) return new Date(now).toISOString().slice(0, 10);
  if (!isCalendarDate(raw))
    throw new ApiError("validation", `date must be a UTC date YYYY-MM-DD; got "${raw}".`);
  return raw;
}

function modeParam(raw: string): RateMode {
  const mode = raw.trim().toUpperCase();
  if (!(RATE_MODES as readonly string[]).includes(mode)) {
    throw new ApiError("validation", `mode must be one of ${RATE_MODES.join(", ")}; got "${raw}".`);
  }
  return mode as RateMode;
}

function equipmentParam(raw: string | undefined, mode: RateMode): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  const v = raw.trim();
  if (mode === "OCEAN_FCL") {
    if (!(CONTAINER_TYPES as readonly string[]).includes(v.toUpperCase())) {
      throw new ApiError(
        "validation",
        `equipment must be one of ${CONTAINER_TYPES.join(", ")}; got "${raw}".`,
      );
    }
    return v.toUpperCase();
  }
  if (mode === "ROAD" || mode === "RAIL") {
    if (v.length > 20) throw new ApiError("validation", "equipment is at most 20 characters.");
    return v;
  }
  throw new ApiError("validation", `equipment does not apply to ${mode}.`);
}

function searchQuery(q: Record<string, string | undefined>, now: number): SearchQuery {
  const mode = modeParam(q.mode ?? "");
  const origin = placeParam("origin", q.origin ?? "", mode);
  const destination = placeParam("destination", q.destination ?? "", mode);
  if (origin === destination) throw new ApiError("validation", "origin and destination must differ.");
  const weightKg = numberParam("weight_kg", q.weight_kg, WEIGHT_KG) ?? 0;
  const volumeM3 = numberParam("volume_m3", q.volume_m3, VOLUME_M3) ?? 0;
  if (mode === "AIR" && weightKg === 0) throw new ApiError("validation", "weight_kg is required for AIR.");
  if (mode === "OCEAN_LCL" && weightKg === 0 && volumeM3 === 0) {
    throw new ApiError("validation", "OCEAN_LCL needs weight_kg or volume_m3 (or both).");
  }
  const quantity = q.quantity === undefined ? QUANTITY.default : Number(q.quantity);
  if (!Number.isInteger(quantity) || quantity < QUANTITY.minimum || quantity > QUANTITY.maximum) {
    throw new ApiError(
      "validation",
      `quantity must be an integer from ${QUANTITY.minimum} to ${QUANTITY.maximum}; got "${q.quantity}".`,
    );
  }
  const currency = q.currency === undefined ? null : q.currency.trim().toUpperCase();
  if (currency !== null && !/^[A-Z]{3}$/.test(currency)) {
    throw new ApiError("validation", `currency must be an ISO 4217 code such as USD; got "${q.currency}".`);
  }
  const carrier = q.carrier === undefined ? null : q.carrier.trim().toUpperCase();
  if (carrier !== null && (carrier === "" || carrier.length > 64)) {
    throw new ApiError("validation", "carrier must be 1 to 64 characters.");
  }
  return {
    mode,
    origin: { code: origin, also: [], country: null },
    destination: { code: destination, also: [], country: null },
    date: dateParam(q.date, now),
    equipment: equipmentParam(q.equipment, mode),
    quantity,
    weightKg,
    volumeM3,
    currency,
    carrier,
    indicative: flag("indicative", q.indicative, true),
    limit: pageLimit(q.limit),
  };
}

export function sheetSummary(s: RateSheetRow) {
  return {
    id: s.id,
    ...sheetFields(s),
    source_file: s.sourceFile,
    imported_at: s.importedAt,
    created_at: s.createdAt,
    version: s.version,
    digest: s.digest,
    lines: s.lineCount,
    surcharges: s.surchargeCount,
  };
}

const lineView = (l: ReturnType<typeof lineOf>) => ({
  origin: l.origin,
  destination: l.destination,
  equipment: l.equipment,
  basis: l.basis,
  rate: l.rate,
  min: l.minimum,
  breaks: l.breaks,
  transit_days: l.transitDays,
  distance_km: l.distanceKm,
});

const surchargeView = (c: ReturnType<typeof surchargeOf>) => ({
  code: c.code,
  basis: c.basis,
  amount: c.amount,
  equipment: c.equipment,
  origin: c.origin,
  destination: c.destination,
  valid_from: c.validFrom,
  valid_to: c.validTo,
});

const text = (description: string) => t.Optional(t.String({ description }));

/** GET /v1/rates/search: read and checked by searchQuery. */
const SearchParams = t.Object({
  origin: t.String({ description: "UN/LOCODE (NLRTM); for AIR also an IATA airport code (FRA)" }),
  destination: t.String({ description: "UN/LOCODE or, for AIR, IATA code" }),
  mode: requiredEnumQuery(RATE_MODES, `${RATE_MODES.join(", ")} (any case)`),
  equipment: text(
    `OCEAN_FCL: ${CONTAINER_TYPES.join(", ")} (default: every type priced); ROAD/RAIL: the sheet's equipment text`,
  ),
  date: dateQuery("UTC date YYYY-MM-DD the rate must be valid on (default today)"),
  weight_kg: numberQuery(WEIGHT_KG, "gross kilograms (required for AIR; LCL needs weight_kg or volume_m3)"),
  volume_m3: numberQuery(VOLUME_M3, "cubic metres (LCL w/m; AIR volumetric weight at 6000 cm3 per kg)"),
  quantity: integerQuery(
    QUANTITY,
    `containers (FCL), trucks or wagons (ROAD/RAIL), 1 to ${QUANTITY.maximum}; default 1`,
  ),
  currency: text("only offers in this currency (no conversion)"),
  carrier: text("only this carrier's sheets (leaves the indicative offer out)"),
  indicative: booleanQuery("false leaves the built-in indicative offer out", true),
  limit: limitQuery("offers returned"),
});

export function rateRoutes(platform: FullPlatform) {
  const search = new RateSearch(platform);
  const sheets = platform.storage.rateSheets;
  return new Elysia({ name: "rates" })
    .use(caller)
    .guard({ keyed: true })
    .get(
      "/v1/rates/search",
      async ({ principal: { org }, query }) => {
        const q = searchQuery(query, platform.now());
        const found = await search.search(org.id, q);
        return {
          query: {
            mode: q.mode,
            origin: q.origin.code,
            destination: q.destination.code,
            date: q.date,
            equipment: q.equipment,
            quantity: q.quantity,
            weight_kg: q.weightKg || null,
            volume_m3: q.volumeM3 || null,
            currency: q.currency,
            carrier: q.carrier,
            indicative: q.indicative,
          },
          ...found,
        };
      },
      {
        query: SearchParams,
        detail: {
          ...routeAnswers(RATES, { 200: { description: "The offers", data: RateSearchAnswer } }),
          summary:
            "Rate offers for a lane, sorted by total, each with its breakdown, validity and transit time",
          description:
            "Offers from the organisation's imported sheets valid on the date, plus the built-in INDICATIVE offer (a cost model, not a tariff). Sorted by currency, then total ascending (no currency conversion). docs/rates.md.",
        },
      },
    )
    .get(
      "/v1/rates/sheets",
      async ({ principal: { org }, query }) => {
        const limit = pageLimit(query.limit);
        const after = pageAfter(query.cursor);
        const mode = query.mode === undefined ? undefined : modeParam(query.mode);
        const rows = await sheets.page({
          orgId: org.id,
          limit,
          after: after && { importedAt: after.updatedAt, id: after.id },
          mode,
          carrier: query.carrier,
        });
        const { page, ...more } = pageOf(
          rows.map((r) => ({ ...r, updatedAt: r.importedAt })),
          limit,
        );
        return { items: page.map(sheetSummary), ...more };
      },
      {
        query: t.Object({
          limit: limitQuery(),
          cursor: text("next_cursor of the previous page"),
          mode: enumQuery(RATE_MODES, "only sheets of this mode"),
          carrier: text("exact carrier as imported"),
        }),
        detail: {
          ...routeAnswers(RATES, { 200: { description: "A page of sheets", data: listPage(RateSheet) } }),
          summary: "The organisation's rate sheets, most recently imported first",
        },
      },
    )
    .get(
      "/v1/rates/sheets/:id",
      async ({ principal: { org }, params }) => {
        const sheet = await sheets.get(org.id, params.id);
        if (!sheet) throw new ApiError("notFound", `No rate sheet ${params.id} on this account.`);
        const [lines, surcharges] = await Promise.all([
          sheets.lines(sheet.id),
          sheets.surcharges([sheet.id]),
        ]);
        return {
          ...sheetSummary(sheet),
          rate_lines: lines.map((r) => lineView(lineOf(r))),
          rate_surcharges: surcharges.map((r) => surchargeView(surchargeOf(r))),
        };
      },
      {
        params: t.Object({ id: uuidPath("The sheet's id") }),
        detail: {
          ...routeAnswers(RATES, { 200: { description: "The sheet", data: RateSheetDetail } }),
          summary: "One rate sheet with its lines and surcharges",
        },
      },
    );
}
