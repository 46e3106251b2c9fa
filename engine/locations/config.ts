/**
 * Geocoder settings from the environment (docs/locations.md, "External geocoder"). The API's
 * loadConfig calls geocoderConfig once; the offline GeoNames geocoder is the default.
 */

export interface GeocoderConfig {
  kind: "offline" | "nominatim" | "photon";
  /** Base URL of the Nominatim or Photon server; null for offline. */
  baseUrl: string | null;
  /** Per-lookup time limit; past it the lookup answers 503 geocoder_unavailable. */
  timeoutMs: number;
}

export const GEOCODER_TIMEOUT_MS = 3_000;

/** PORTOLAN_GEOCODER=offline|nominatim|photon, PORTOLAN_GEOCODER_URL, PORTOLAN_GEOCODER_TIMEOUT_MS. */
export function geocoderConfig(env: Record<string, string | undefined>): GeocoderConfig {
  const kind = (env.PORTOLAN_GEOCODER ?? "").trim().toLowerCase() || "offline";
  if (kind !== "offline" && kind !== "nominatim" && kind !== "photon")
    throw new Error(`PORTOLAN_GEOCODER must be offline, nominatim or photon, got "${env.PORTOLAN_GEOCODER}"`);
  const url = (env.PORTOLAN_GEOCODER_URL ?? "").trim();
  if (kind !== "offline" && !/^https?:\/\/[^/]/.test(url))
    throw new Error(`PORTOLAN_GEOCODER=${kind} needs PORTOLAN_GEOCODER_URL (http or https base URL)`);
  const rawTimeout = env.PORTOLAN_GEOCODER_TIMEOUT_MS;
  let timeoutMs = GEOCODER_TIMEOUT_MS;
  if (rawTimeout !== undefined && rawTimeout.trim() !== "") {
    timeoutMs = Number(rawTimeout);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
      throw new Error(`PORTOLAN_GEOCODER_TIMEOUT_MS must be a positive integer, got "${rawTimeout}"`);
  }
  return { kind, baseUrl: kind === "offline" ? null : url.replace(/\/+$/, ""), timeoutMs };
}
