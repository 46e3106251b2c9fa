/**
 * GET /v1/rates/search: the organisation's sheets valid on the date that price the lane, plus the
 * built-in indicative offer, each priced with its breakdown and sorted by total. The distance
 * engine (sea, road, rail, air planners) gives the indicative set its distances and every offer
 * without a sheet transit time its transit. Engine failures leave an offer out with the reason,
 * never fail the search. docs/rates.md, "Search".
 */
import { DistanceEngine } from "../../engine/distance/engine.ts";
import { EngineError } from "../../engine/errors.ts";
import type { ResolvedPoint } from "../../engine/locations/index.ts";
import {
  airQuoteCharges,
  type EngineLeg,
  INDICATIVE_CURRENCY,
  INDICATIVE_MODEL,
  indicativeSheet,
} from "../../engine/rates/indicative.ts";
import {
  bestLines,
  type PlaceRef,
  type PricedLine,
  priceLine,
  type Shipment,
} from "../../engine/rates/price.ts";
import type { RateLine } from "../../engine/rates/sheet.ts";
import { lineOf, surchargeOf } from "../../ingest/rates/import.ts";
import type { RateLineRow, RateSheetRow } from "../../storage/rates.ts";
import { airQuoter } from "../air/quote.ts";
import type { FullPlatform } from "../shared/platform.ts";

export interface SearchQuery extends Shipment {
  currency: string | null;
  carrier: string | null;
  indicative: boolean;
  limit: number;
}

export interface Offer {
  id: string;
  indicative: boolean;
  sheet_id: string | null;
  sheet_name: string | null;
  carrier: string | null;
  mode: string;
  origin: string;
  destination: string;
  equipment: string | null;
  currency: string;
  valid_from: string;
  valid_to: string;
  charges: PricedLine["charges"];
  base: number;
  surcharges: number;
  total: number;
  chargeable: PricedLine["chargeable"];
  transit_days: number | null;
  transit_source: "sheet" | "distance_engine" | null;
  /** Indicative offers: where the cost model is documented. */
  cost_model?: string;
}

export interface Unpriced {
  source: "sheet" | "indicative";
  sheet_id: string | null;
  equipment: string | null;
  reason: string;
}

export const COST_MODEL_DOC = "docs/rates.md#indicative-cost-model";

/** Which planner measures a mode's lanes. */
const ENGINE_MODE = { OCEAN_FCL: "sea", OCEAN_LCL: "sea", ROAD: "road", RAIL: "rail", AIR: "air" } as const;

const message = (err: unknown) => (err instanceof EngineError ? err.message : "the distance engine failed");

export class RateSearch {
  /** The distance engine the distance API calls: its index, sea router and mode planners. */
  private readonly engine: DistanceEngine;

  constructor(private readonly platform: FullPlatform) {
    this.engine = new DistanceEngine(platform.config);
  }

  /** A query place as lines match it: its code, the index's other code for it, its country. */
  async place(code: string): Promise<{ ref: PlaceRef; point: ResolvedPoint | null }> {
    const { locations } = await this.engine.services();
    let point: ResolvedPoint | null = null;
    try {
      point = code.length === 3 ? locations.resolve(code) : locations.port(code);
    } catch {
      point = null;
    }
    // A three-letter code that is no airport's would resolve as free text: not this place.
    if (code.length === 3 && point?.iata !== code) point = null;
    const also = [point?.iata, point?.locode].filter((c): c is string => !!c && c !== code);
    const country = code.length === 5 ? code.slice(0, 2) : (point?.country_code ?? null);
    return { ref: { code, also, country }, point };
  }

  /** The engine's distance and transit for the lane, once per search; an Error when it has none. */
  private async leg(mode: Shipment["mode"], from: ResolvedPoint, to: ResolvedPoint): Promise<EngineLeg> {
    switch (ENGINE_MODE[mode]) {
      case "sea": {
        const sea = await this.engine.sea();
        const { route } = await sea.plan({ from, to, speedKnots: INDICATIVE_MODEL.ocean.speedKnots });
        return { km: route.distance.km, nm: route.distance.nm, days: route.transit.days };
      }
      case "road": {
        const { road } = await this.engine.modes();
        const { route } = await road.plan({ from, to });
        return { km: route.distance_m / 1000, nm: route.distance_m / 1852, days: route.hours / 24 };
      }
      case "rail":
      case "air": {
        const planners = await this.engine.modes();
        const plan = ENGINE_MODE[mode] === "rail" ? planners.rail({ from, to }) : planners.air({ from, to });
        const { summary } = (await plan).route;
        return { km: summary.distance.km, nm: summary.distance.nm, days: summary.duration.days };
      }
    }
  }

  async search(orgId: string, q: SearchQuery) {
    const [o, d] = await Promise.all([this.place(q.origin.code), this.place(q.destination.code)]);
    const s: Shipment = { ...q, origin: o.ref, destination: d.ref };
    let legMemo: Promise<EngineLeg | Error> | null = null;
    const leg = () =>
      (legMemo ??=
        o.point && d.point
          ? this.leg(q.mode, o.point, d.point).catch((err: unknown) => new Error(message(err)))
          : Promise.resolve(
              new Error(`the distance engine does not know ${o.point ? q.destination.code : q.origin.code}`),
            ));
    const transit = async (line: RateLine) => {
      if (line.transitDays !== null)
        return { transit_days: line.transitDays, transit_source: "sheet" as const };
      const l = await leg();
      return l instanceof Error
        ? { transit_days: null, transit_source: null }
        : { transit_days: Math.max(1, Math.ceil(l.days)), transit_source: "distance_engine" as const };
    };

    const offers: Offer[] = [];
    const unpriced: Unpriced[] = [];
    const rows = await this.platform.storage.rateSheets.lanes({
      orgId,
      mode: q.mode,
      date: q.date,
      origins: [s.origin.code, ...s.origin.also, ...(s.origin.country ? [s.origin.country] : [])],
      destinations: [
        s.destination.code,
        ...s.destination.also,
        ...(s.destination.country ? [s.destination.country] : []),
      ],
    });
    const bySheet = new Map<string, { sheet: RateSheetRow; lines: RateLineRow[] }>();
    for (const { sheet, line } of rows) {
      if (q.carrier !== null && sheet.carrier.toUpperCase() !== q.carrier) continue;
      if (q.currency !== null && sheet.currency !== q.currency) continue;
      const entry = bySheet.get(sheet.id) ?? { sheet, lines: [] };
      entry.lines.push(line);
      bySheet.set(sheet.id, entry);
    }
    const surcharges = await this.platform.storage.rateSheets.surcharges([...bySheet.keys()]);
    for (const { sheet, lines } of bySheet.values()) {
      const own = surcharges.filter((c) => c.sheetId === sheet.id).map(surchargeOf);
      const rowOf = new Map(lines.map((r) => [lineOf(r), r]));
      for (const line of bestLines([...rowOf.keys()], s)) {
        const row = rowOf.get(line)!;
        const needsKm = line.basis === "per_km" && line.distanceKm === null;
        const km = needsKm ? await leg() : null;
        const priced = priceLine(line, own, s, km instanceof Error || km === null ? null : km.km);
        if ("unpriced" in priced) {
          const why = km instanceof Error ? `${priced.unpriced}: ${km.message}` : priced.unpriced;
          unpriced.push({ source: "sheet", sheet_id: sheet.id, equipment: line.equipment, reason: why });
          continue;
        }
        offers.push({
          id: `${sheet.id}:${row.seq}`,
          indicative: false,
          sheet_id: sheet.id,
          sheet_name: sheet.name,
          carrier: sheet.carrier,
          mode: sheet.mode,
          origin: line.origin,
          destination: line.destination,
          equipment: line.equipment,
          currency: sheet.currency,
          valid_from: sheet.validFrom,
          valid_to: sheet.validTo,
          ...priced,
          ...(await transit(line)),
        });
      }
    }
    if (q.indicative && (q.currency === null || q.currency === INDICATIVE_CURRENCY) && q.carrier === null) {
      offers.push(...(await this.indicative(s, leg, unpriced)));
    }
    offers.sort(
      (a, b) =>
        a.currency.localeCompare(b.currency) ||
        a.total - b.total ||
        Number(a.indicative) - Number(b.indicative) ||
        a.id.localeCompare(b.id),
    );
    return { total: offers.length, offers: offers.slice(0, q.limit), unpriced };
  }

  /** The indicative offers for the lane (one per container type for FCL without equipment). */
  private async indicative(
    s: Shipment,
    leg: () => Promise<EngineLeg | Error>,
    unpriced: Unpriced[],
  ): Promise<Offer[]> {
    const base = {
      indicative: true,
      sheet_id: null,
      sheet_name: null,
      carrier: null,
      mode: s.mode,
      origin: s.origin.code,
      destination: s.destination.code,
      currency: INDICATIVE_CURRENCY,
      valid_from: s.date,
      valid_to: s.date,
      cost_model: COST_MODEL_DOC,
    };
    const l = await leg();
    if (s.mode === "AIR") {
      let priced: PricedLine;
      try {
        const quoter = await airQuoter(this.platform.config);
        const quote = quoter.quote({
          origin: s.origin.code,
          destination: s.destination.code,
          weight_kg: s.weightKg,
          volume_cm3: Math.max(s.volumeM3 * 1e6, 1),
        });
        priced = airQuoteCharges(quote, quoter.card.other.screeningPerKg);
      } catch (err) {
        unpriced.push({ source: "indicative", sheet_id: null, equipment: null, reason: message(err) });
        return [];
      }
      return [
        {
          id: "indicative:AIR",
          ...base,
          equipment: null,
          ...priced,
          transit_days: l instanceof Error ? null : Math.max(1, Math.ceil(l.days)),
          transit_source: l instanceof Error ? null : "distance_engine",
        },
      ];
    }
    if (l instanceof Error) {
      unpriced.push({ source: "indicative", sheet_id: null, equipment: s.equipment, reason: l.message });
      return [];
    }
    const model = indicativeSheet(s.mode, s.origin.code, s.destination.code, l);
    const out: Offer[] = [];
    for (const line of bestLines(model.lines, s)) {
      const priced = priceLine(line, model.surcharges, s, l.km);
      if ("unpriced" in priced) continue;
      out.push({
        id: `indicative:${s.mode}${line.equipment ? `:${line.equipment}` : ""}`,
        ...base,
        equipment: line.equipment ?? s.equipment,
        ...priced,
        transit_days: Math.max(1, Math.ceil(l.days)),
        transit_source: "distance_engine",
      });
    }
    return out;
  }
}
