/**
 * Sea distances for the chain rules, kept per thread: one one-to-many search from a point (an
 * origin port, a gateway's sea point) to every main container port serves every request that
 * needs that row under the same closures. A cold Sea chain query makes one search per origin port
 * (5 for the 5 x 5 pairs, not 25); a warm one none. The sea graph is undirected and a closure
 * closes both ways, so a row from B answers A -> B when B's row is the one kept. Planned sea
 * routes (without geometry) are kept too: the same port pairs come back across requests.
 */
import { haversineM } from "../../common/geo.ts";
import type { SeaRoute, SeaRouter } from "../sea/router.ts";
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

export class SeaDistances {
  private readonly rows = new Memo<string, Float64Array>(ROWS);
  private readonly routes = new Memo<string, SeaRoute | null>(ROUTES);
  private readonly index = new Map<string, number>();
  /** Sea searches made (cache misses), for the bench and tests. */
  searches = 0;

  constructor(
    private readonly sea: SeaRouter,
    private readonly ports: readonly Place[],
  ) {
    for (const [i, p] of ports.entries()) this.index.set(keyOf(p), i);
  }

  /** The main port at `p`, or -1. */
  private portIndex(p: Place): number {
    const i = this.index.get(keyOf(p));
    if (i !== undefined) return i;
    return this.ports.findIndex((q) => haversineM(p.lat, p.lng, q.lat, q.lng) < SAME_POINT_M);
  }

  /** Metres from `source` to every main port under `mask`; Infinity where no sea route joins them. */
  private row(source: Place, mask: number): Float64Array {
    return this.rows.get(`${mask}\n${keyOf(source)}`, () => this.search(source, this.ports, mask));
  }

  private search(source: Place, targets: readonly Place[], mask: number): Float64Array {
    this.searches++;
    return this.sea
      .oneToMany(source, targets, mask)
      .metres.map((m) => (Number.isFinite(m) ? m : Number.POSITIVE_INFINITY));
  }

  /** Sea metres between two points (ports, gateways' sea points); Infinity when none. */
  metres(a: Place, b: Place, mask: number): number {
    const ib = this.portIndex(b);
    if (ib >= 0) return this.row(a, mask)[ib]!;
    const ia = this.portIndex(a);
    if (ia >= 0) return this.row(b, mask)[ia]!;
    // Neither is a main port (a pol and a gateway, say): one search of its own.
    return this.search(a, [b], mask)[0]!;
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
