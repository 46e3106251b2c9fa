/**
 * External street-address geocoders: Nominatim (/search?format=jsonv2) and Photon (/api, GeoJSON).
 * Each is wrapped by externalGeocoder, so anything that goes wrong (down, timeout, 5xx, malformed
 * answer) becomes 503 geocoder_unavailable while codes and coordinates keep resolving offline.
 * Web-standard APIs only (fetch, AbortController): runs under Bun and Deno.
 */
import { EngineError } from "../errors.ts";
import type { GeocoderConfig } from "./config.ts";
import { externalGeocoder, type Geocoder, type LocationIndex, type ResolvedPoint } from "./index.ts";

export interface HttpGeocoderOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Results asked of the service per lookup. */
  limit?: number;
  fetch?: typeof fetch;
  /** Nominatim's usage policy asks for an identifying User-Agent. */
  userAgent?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

async function getJson(url: string, opts: HttpGeocoderOptions): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    const res = await (opts.fetch ?? fetch)(url, {
      signal: controller.signal,
      headers: { accept: "application/json", "user-agent": opts.userAgent ?? "portolan-distance" },
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new Error("answer is not JSON");
    }
  } catch (err) {
    if (controller.signal.aborted) throw new Error(`no answer within ${opts.timeoutMs} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function point(
  name: string,
  lat: number,
  lng: number,
  countryCode: string | null,
  country: string | null,
  source: string,
): ResolvedPoint {
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    throw new Error("answer has no usable position");
  return {
    kind: "address",
    name,
    locode: null,
    iata: null,
    country,
    country_code: countryCode ? countryCode.toUpperCase() : null,
    lat,
    lng,
    source,
    timezone: null,
  };
}

/** Nominatim jsonv2: an array of {lat: "..", lon: "..", display_name, name?, address{country, country_code}}. */
export function parseNominatim(body: unknown): ResolvedPoint[] {
  if (!Array.isArray(body)) throw new Error("Nominatim answer is not an array");
  return body.map((hit) => {
    if (!isObj(hit)) throw new Error("Nominatim hit is not an object");
    const address = isObj(hit.address) ? hit.address : {};
    const name = str(hit.display_name) ?? str(hit.name);
    if (!name) throw new Error("Nominatim hit without display_name");
    // Nominatim sends coordinates as strings.
    return point(
      name,
      Number(hit.lat),
      Number(hit.lon),
      str(address.country_code),
      str(address.country),
      "nominatim",
    );
  });
}

/** Photon: a GeoJSON FeatureCollection; Point coordinates are [lng, lat]. */
export function parsePhoton(body: unknown): ResolvedPoint[] {
  if (!isObj(body) || !Array.isArray(body.features))
    throw new Error("Photon answer is not a FeatureCollection");
  return body.features.map((f) => {
    const coords = isObj(f) && isObj(f.geometry) ? f.geometry.coordinates : undefined;
    if (!Array.isArray(coords) || coords.length < 2)
      throw new Error("Photon feature without Point coordinates");
    const p = isObj(f) && isObj(f.properties) ? f.properties : {};
    const street = [str(p.street), str(p.housenumber)].filter(Boolean).join(" ") || null;
    const head = str(p.name) ?? street;
    // "name, city, country" as a label: Photon gives the parts, not a display name.
    const label = [head, str(p.city) ?? str(p.county) ?? str(p.state), str(p.country)]
      .filter((x, i, all): x is string => x !== null && all.indexOf(x) === i)
      .join(", ");
    if (!label) throw new Error("Photon feature without a name");
    return point(label, Number(coords[1]), Number(coords[0]), str(p.countrycode), str(p.country), "photon");
  });
}

/** Geocoder plus address search over a Nominatim server. */
export function nominatimGeocoder(opts: HttpGeocoderOptions): Geocoder {
  const base = opts.baseUrl.replace(/\/+$/, "");
  return httpGeocoder("nominatim", async (text, limit) =>
    parseNominatim(
      await getJson(
        `${base}/search?format=jsonv2&addressdetails=1&limit=${limit}&q=${encodeURIComponent(text)}`,
        opts,
      ),
    ),
  );
}

/** Geocoder plus address search over a Photon server. */
export function photonGeocoder(opts: HttpGeocoderOptions): Geocoder {
  const base = opts.baseUrl.replace(/\/+$/, "");
  return httpGeocoder("photon", async (text, limit) =>
    parsePhoton(await getJson(`${base}/api?limit=${limit}&q=${encodeURIComponent(text)}`, opts)),
  );
}

function httpGeocoder(
  name: string,
  lookup: (text: string, limit: number) => Promise<ResolvedPoint[]>,
): Geocoder {
  return {
    geocode: externalGeocoder(name, async (text) => (await lookup(text, 1))[0] ?? null).geocode,
    async search(text, limit) {
      try {
        return await lookup(text, limit);
      } catch (err) {
        throw new EngineError(
          "geocoder_unavailable",
          `geocoder ${name} is unavailable: ${(err as Error).message ?? err}`,
        );
      }
    },
  };
}

/** The configured geocoder: the index's offline one by default. */
export function createGeocoder(
  index: LocationIndex,
  config: GeocoderConfig,
  fetchImpl?: typeof fetch,
): Geocoder {
  if (config.kind === "offline" || !config.baseUrl) return index.offline;
  const opts: HttpGeocoderOptions = {
    baseUrl: config.baseUrl,
    timeoutMs: config.timeoutMs,
    fetch: fetchImpl,
  };
  return config.kind === "nominatim" ? nominatimGeocoder(opts) : photonGeocoder(opts);
}
