/**
 * Sea distances for the chain rules, kept per thread. Under the default closures a table from
 * every main container port to every main port and every river gateway's sea point (the
 * columns), made once per thread (fill: one search per port, each point snapped once), answers
 * the 5 x 5 port pairs and the gateways' distances of every request without searching. Under
 * other closures a one-to-many search from a point to every main port serves every request that
 * needs that row (a cold Sea chain query: one search per origin port, not 25). The sea graph is
 * undirected and a closure closes both ways, so a row from B answers A -> B when B's row is the
 * one kept. Planned sea routes (without geometry) are kept too: the same port pairs come back
 * across requests.
 */
import { haversineM } from "../../common/geo.ts";
import { DEFAULT_MAX_SETTLED, type SeaRoute, type SeaRouter } from "../sea/router.ts";
import { noRoute } from "./inland.ts";
import { Memo } from "./memo.ts";
import type { Place, Settings } from "./options.ts";

/** Rows kept: every main port and gateway under a few closure masks (~800 bytes a row). */
const ROWS = 4000;
/** Sea routes kept (without geometry). */
const ROUTES = 4000;
/** A point this close to a main port is that port. */
const SAME_POINT_M = 1;

const keyOf = (p: Place) => `${p.lat},${p.lng}`;
const finite = (m: number) => (Number.isFinite(m) ? m : Number.POSITIVE_INFINITY);

export class SeaDistances {
  private readonly rows = new Memo<string, Float64Array>(ROWS);
  private readonly routes = new Memo<string, SeaRoute | null>(ROUTES);
  /** Main port by point (and the column points within SAME_POINT_M of one). */
  private readonly index = new Map<string, number>();
  /** The table's columns: the main ports, then the other points (gateways' sea points). */
  private readonly columns: readonly Place[];
  /** Column of a point that is not a main port. */
  private readonly columnIndex = new Map<string, number>();
  /** Metres from each main port (row) to each column under `mask`; see fill. */
  private table: { mask: number; metres: Float64Array } | null = null;
  /** Sea searches made (cache misses), for the bench and tests. */
  searches = 0;

  constructor(
    private readonly sea: SeaRouter,
    private readonly ports: readonly Place[],
    others: readonly Place[] = [],
  ) {
    for (const [i, p] of ports.entries()) this.index.set(keyOf(p), i);
    this.columns = [...ports, ...others];
    for (const [i, p] of others.entries()) {
      if (this.index.has(keyOf(p)) || this.columnIndex.has(keyOf(p))) continue;
      this.columnIndex.set(keyOf(p), ports.length + i);
      // Whether a column is a main port (within SAME_POINT_M) is asked per request: answered here once.
      const port = this.nearPort(p);
      if (port >= 0) this.index.set(keyOf(p), port);
    }
  }

  private nearPort(p: Place): number {
    return this.ports.findIndex((q) => haversineM(p.lat, p.lng, q.lat, q.lng) < SAME_POINT_M);
  }

  /**
   * Fills the table under `mask` (the default closures): one search per main port to every
   * column, the thread's cost rather than its first requests'.
   */
  fill(mask: number): this {
    const many = this.sea.wasm.manyToMany(this.sea.handle, this.ports, this.columns, mask, {
      maxSettled: DEFAULT_MAX_SETTLED,
    });
    this.searches += this.ports.length;
    this.table = { mask, metres: many.metres.map(finite) };
    return this;
  }

  /** The main port at `p`, or -1. */
  private portIndex(p: Place): number {
    const key = keyOf(p);
    const i = this.index.get(key);
    if (i !== undefined) return i;
    return this.columnIndex.has(key) ? -1 : this.nearPort(p);
  }

  /** Metres from `source` to every main port under `mask`; Infinity where no sea route joins them. */
  private row(source: Place, mask: number): Float64Array {
    return this.rows.get(`${mask}\n${keyOf(source)}`, () => this.search(source, this.ports, mask));
  }

  private search(source: Place, targets: readonly Place[], mask: number): Float64Array {
    this.searches++;
    return this.sea.oneToMany(source, targets, mask).metres.map(finite);
  }

  /** Sea metres between two points (ports, gateways' sea points); Infinity when none. */
  metres(a: Place, b: Place, mask: number): number {
    const ia = this.portIndex(a);
    const ib = this.portIndex(b);
    if (ia >= 0 && this.table?.mask === mask) {
      // A main port's row of the table: to a main port or a gateway's sea point.
      const jb = ib >= 0 ? ib : this.columnIndex.get(keyOf(b));
      if (jb !== undefined) return this.table.metres[ia * this.columns.length + jb]!;
    }
    if (ib >= 0) return this.row(a, mask)[ib]!;
    if (ia >= 0) return this.row(b, mask)[ia]!;
    // Neither is a main port (a pol and a gateway, say): one search of its own.
    return this.search(a, [b], mask)[0]!;
  }

  /** Where a sea route from or to `p` starts or ends: the lane node it snaps to. */
  lanePoint(p: Place): { lat: number; lng: number } | undefined {
    const s = this.sea.snap(p.lat, p.lng);
    return s ? { lat: s.lat, lng: s.lng } : undefined;
  }

  /** The sea route between two points under the request's settings; null when none joins them. */
  route(from: Place, to: Place, s: Settings): SeaRoute | null {
    const plan = () => {
      try {
        return this.sea.plan({
          from,
          to,
          speedKnots: s.speedKnots,
          routingMode: s.routingMode,
          avoid: s.avoided,
          path: s.path,
          alternatives: false,
        }).route;
      } catch (err) {
        return noRoute(err);
      }
    };
    // Routes with geometry are large and asked for rarely: not kept.
    if (s.path) return plan();
    return this.routes.get(`${s.closedMask}\n${keyOf(from)}\n${keyOf(to)}`, plan);
  }
}
