/**
 * POST {air_url}/rates/quote (and /v1/rates/quote, the versioned spelling): the indicative
 * air-freight quote. Keyed (the air-cargo key or the ocean family key); it writes nothing, so like
 * every read it needs no entitlement (spec, Authentication 5). The handler only parses and calls
 * engine/air-quote. docs/air-cargo.md, Quote.
 */
import { Elysia, t } from "elysia";
import { AirQuoter } from "../../engine/air-quote/quoter.ts";
import { loadRateCard } from "../../engine/air-quote/rate-card.ts";
import { CountryRegions } from "../../engine/air-quote/regions.ts";
import { once } from "../../engine/artifacts.ts";
import { airPlanner, distanceServices } from "../../engine/services.ts";
import { AwbPrefixes } from "../../ingest/airlines/awb.ts";
import type { Config } from "../config.ts";
import { routeAnswers } from "../shared/openapi/responses.ts";
import type { Platform } from "../shared/platform.ts";
import { caller } from "../shared/plugins/access.ts";
import { product } from "../shared/products.ts";
import { AirQuote } from "./schemas.ts";

/** Heavier than any freighter load (a 747-8F lifts about 140 t): beyond it a typo, not a quote. */
export const MAX_WEIGHT_KG = 1_000_000;
/** 10,000 m3: several freighters' main decks. */
export const MAX_VOLUME_CM3 = 10_000_000_000;

const quoters = new Map<string, Promise<AirQuoter>>();

/**
 * The process's quoter: rate card, country regions, the AWB prefix table's airlines, the location
 * index and the large cargo airports. main.ts awaits it at start, so a malformed card stops the
 * server with the card's message; a failed load is tried again on the next call.
 */
export function airQuoter(
  config: Pick<Config, "airRateCard" | "sourcesDir" | "buildDir">,
): Promise<AirQuoter> {
  const key = [config.airRateCard, config.sourcesDir, config.buildDir].join("\n");
  return once(quoters, key, async () => {
    const [card, regions, prefixes, { locations }, air] = await Promise.all([
      loadRateCard(config.airRateCard),
      CountryRegions.load(config.sourcesDir),
      AwbPrefixes.load(config.sourcesDir),
      distanceServices(config.buildDir),
      airPlanner(config.buildDir),
    ]);
    return new AirQuoter({
      card,
      regions,
      locations,
      cargoAirports: air.airports,
      airlines: prefixes.airlines(),
    });
  });
}

const code = (what: string) =>
  t.String({
    minLength: 1,
    maxLength: 64,
    description: `${what}: airport IATA code (FRA) or the UN/LOCODE of the airport's city (DEFRA)`,
  });

/**
 * All four fields required (a quote without the volume could be a fraction of the real price), typed
 * strictly: numbers as JSON numbers, codes as strings. Other fields are dropped, as on every route;
 * a misspelt one still fails, since the field it was meant to be is then missing.
 */
const QuoteBody = t.Object({
  origin: code("Origin"),
  destination: code("Destination"),
  weight_kg: t.Number({
    exclusiveMinimum: 0,
    maximum: MAX_WEIGHT_KG,
    description: "Gross weight in kilograms",
  }),
  volume_cm3: t.Number({
    exclusiveMinimum: 0,
    maximum: MAX_VOLUME_CM3,
    description: "Volume in cubic centimetres (6000 cm3 = 1 kg of volumetric weight)",
  }),
});

export function airQuoteRoutes(platform: Platform) {
  const handler = async ({ body }: { body: typeof QuoteBody.static }) =>
    (await airQuoter(platform.config)).quote(body);
  const detail = {
    ...routeAnswers(product("air"), { 200: { description: "The quote", data: AirQuote } }, [404]),
    summary: "Indicative air-freight quote for a lane, weight and volume (rate card model, not a tariff)",
  };
  return new Elysia({ name: "air-quote" })
    .use(caller)
    .guard({ keyed: true })
    .post("/rates/quote", handler, { body: QuoteBody, detail })
    .post("/v1/rates/quote", handler, {
      body: QuoteBody,
      detail: { ...detail, summary: `${detail.summary}; same as /rates/quote` },
    });
}
