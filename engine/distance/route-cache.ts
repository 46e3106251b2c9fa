/**
 * Rendered route answers, on the serving thread: a repeated query is answered from here
 * without the worker hop or the planner. A route depends only on the loaded graphs and the
 * normalised query (the mode, the resolved ends and every option the planner reads), never on the
 * clock or the caller, so an entry stays right for as long as the process serves that build; the
 * build id is part of the key all the same. That holds for the sea router and the road model, and
 * so for the rail, air and river chains whose access legs the road model plans; an external road
 * engine (OSRM, Valhalla: its data moves, and it answers estimated legs while it is down) keeps
 * the modes that use it out (engine.ts). meta.took_ms is computed per request: only
 * the data part is kept, as the JSON text the response carries. Bounded by entries
 * (PORTOLAN_ROUTE_CACHE_ENTRIES; 0 turns it off) and by the text held (a route with its path runs
 * to hundreds of kilobytes), the least recently used dropped first. Its lookups, hits and
 * evictions are tallied for the metrics (common/metrics.ts, cache "routes").
 */
import { Lru } from "../../common/lru.ts";
import type { ResolvedPoint } from "../locations/index.ts";

/** Characters of JSON text the cache holds at most (about 2 bytes each on the heap). */
export const ROUTE_CACHE_MAX_CHARS = 32 * 1024 * 1024;

/** An option's value as the engine passes it: a list (sea passages to avoid), a resolved point (a port of loading) or a scalar. */
export type RouteOption = string | number | boolean | null | undefined | readonly string[] | ResolvedPoint;

/** Everything a route's answer depends on, as the engine hands it to the planner. */
export interface RouteKeyParts {
  /** Build id of the loaded artifacts (every graph is checked against the one build). */
  build: string;
  /** The mode as the engine names it ("SEA", "ROAD", ...): it fixes the options' meaning and order. */
  mode: string;
  /** The ends as resolved (their rendering and the ends the planner is given both derive from them). */
  from: ResolvedPoint;
  to: ResolvedPoint;
  /** Every other input of the planner and the rendering, in the engine's fixed order for the mode. */
  options: readonly RouteOption[];
}

/**
 * Every field of a resolved end, in the key's order: the Record type fails to compile when
 * ResolvedPoint gains a field this list does not name.
 */
const POINT_FIELDS = Object.keys({
  kind: true,
  name: true,
  locode: true,
  iata: true,
  country: true,
  country_code: true,
  lat: true,
  lng: true,
  source: true,
  timezone: true,
} satisfies Record<keyof ResolvedPoint, true>) as Array<keyof ResolvedPoint>;

/**
 * One value of the key, unambiguous: strings quoted (JSON), null and undefined as bare words,
 * numbers in full, -0 apart from 0 (a sign the router may carry through).
 */
function part(v: string | number | boolean | null | undefined): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  return String(v);
}

/** Keys of the frozen (never changing) ends the cache resolved: those come back again and again. */
const pointKeys = new WeakMap<ResolvedPoint, string>();

function pointKey(p: ResolvedPoint): string {
  let out = pointKeys.get(p);
  if (out !== undefined) return out;
  out = "";
  for (const f of POINT_FIELDS) out += `${part(p[f])},`;
  if (Object.isFrozen(p)) pointKeys.set(p, out);
  return out;
}

/**
 * The cache key: every field of the query, in a fixed order; equal keys only for equal queries.
 * Each option is self-delimiting (a JSON string or list, a point's fields, or a bare word or
 * number), and the mode fixes how many there are and where.
 */
export function routeKey(q: RouteKeyParts): string {
  const options = q.options.map((o) =>
    typeof o !== "object" || o === null ? part(o) : "kind" in o ? pointKey(o) : JSON.stringify(o),
  );
  return `${part(q.build)}|${part(q.mode)}|${pointKey(q.from)}|${pointKey(q.to)}|${options.join("|")}`;
}

export class RouteCache {
  private readonly entries: Lru<string, string>;
  private chars = 0;
  /** Ends by the text that named them (see resolved). */
  private readonly ends = new Map<string, ResolvedPoint>();
  /** Lookups answered, lookups not, and entries dropped to make room (common/metrics.ts). */
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxChars = ROUTE_CACHE_MAX_CHARS,
  ) {
    this.entries = new Lru(capacity);
  }

  get size(): number {
    return this.entries.size;
  }

  get enabled(): boolean {
    return this.capacity > 0;
  }

  /** The data part's JSON text stored under `key`, or undefined. */
  get(key: string): string | undefined {
    const json = this.entries.get(key);
    if (json === undefined) this.misses++;
    else this.hits++;
    return json;
  }

  set(key: string, json: string): void {
    this.drop(key);
    if (this.capacity <= 0 || json.length > this.maxChars) return;
    // Room made here, not by the Lru's own bound, so that `chars` counts every entry dropped.
    while (this.entries.size >= this.capacity || this.chars + json.length > this.maxChars) {
      this.drop(this.entries.leastRecent()!);
      this.evictions++;
    }
    this.entries.set(key, json);
    this.chars += json.length;
  }

  /**
   * The end `text` names, resolved once: for callers whose resolution is a pure function of the
   * text and the loaded build (the offline index and geocoder; an external geocoder is not).
   * Failures are not kept. Frozen, as every request shares it.
   */
  async resolved(text: string, resolve: (text: string) => Promise<ResolvedPoint>): Promise<ResolvedPoint> {
    const known = this.ends.get(text);
    if (known) return known;
    const point = Object.freeze({ ...(await resolve(text)) });
    if (this.capacity <= 0) return point;
    // Texts are few next to routes (two ends each): at the bound, start again.
    if (this.ends.size >= this.capacity) this.ends.clear();
    this.ends.set(text, point);
    return point;
  }

  private drop(key: string): void {
    const old = this.entries.peek(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.chars -= old.length;
  }
}
