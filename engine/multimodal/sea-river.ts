/**
 * Spec, chain rule 2, the Sea + River chain: sea to a river-mouth gateway, then barge to a river
 * port near the door (or barge to a gateway, then sea). Gateways come from river-ports.bin: those
 * within reach of the door joined to its river ports by water on the date (one barge search per
 * river port to every gateway in reach), best first; their sea points join the sea searches of the
 * Sea chain. A barge a road leg serves better is no candidate (barge-rule.ts). The best candidates
 * by the ranking estimate are routed in full; the drop rules (drop-rules.ts) are applied by the
 * planner, which knows the other chains.
 */
import { haversineM } from "../../common/geo.ts";
import type { SeaGateway } from "../../formats/river-ports.ts";
import type { Chain, SectionInput } from "../chain.ts";
import { RIVER } from "../modes/river.ts";
import { SEA } from "../modes/sea.ts";
import type { RiverPlanner } from "../river/planner.ts";
import type { SeasonalNote, SeasonalState } from "../river/seasonal.ts";
import { BARGE_RULES, type BargeReason, doorAtSeaPort, roadServesBetter } from "./barge-rule.ts";
import { chainOf, joinParts, type Part, sectionPart } from "./compose.ts";
import { addFigures, type Figures, INLAND_CIRCUITY, legFigures, score } from "./estimate.ts";
import { greatCircleKm, type InlandLegs, type InlandMode, NO_ACCESS_LEG_KM } from "./inland.ts";
import { Memo } from "./memo.ts";
import type { Place, Settings } from "./options.ts";
import type { SeaDistances } from "./sea-distances.ts";
import { type PortOption, seaFigures, seaSection } from "./sea-legs.ts";

/** Gateways considered per side (distinct ways into the river system). */
export const GATEWAYS_PER_SIDE = 4;
/** A gateway farther than this from the door is not considered (the Danube's mouths from Budapest are ~900 km). */
export const GATEWAY_REACH_KM = 2500;
/** Sea + River candidates routed in full per direction. */
export const SEA_RIVER_ROUTED = 2;

export const SEA_RIVER_LABEL = "Sea + River";

/** A gateway a door's river ports reach by water, with the best of them. */
export interface GatewayOption {
  gateway: SeaGateway;
  /** The gateway as chains show it: where the SEA section ends and the barge starts (or the reverse). */
  stop: Place;
  /** The sea-graph point it joins: the sea searches' target. */
  seaPoint: Place;
  /** Km beyond the lanes (gap + river km sailed by the ship), in metres. */
  beyondM: number;
  port: Place;
  portMode: InlandMode;
  /** Barge plus the road between the river port and the door. */
  est: Figures;
}

const gatewayStop = (g: SeaGateway): Place => ({
  kind: "port",
  name: g.name,
  locode: g.locode || null,
  iata: null,
  country_code: g.locode ? g.locode.slice(0, 2) : null,
  lat: g.lat,
  lng: g.lng,
});

/** Where a gateway joins the sea graph: the sea searches' point for it. */
export const gatewaySeaPoint = (g: SeaGateway): Place => ({
  kind: "port",
  name: g.name,
  lat: g.seaLat,
  lng: g.seaLng,
});

/** Barge rows kept: a river port's row to every gateway, per set of date rules (~10 kB a row). */
const BARGE_ROWS = 1000;
/** Barge sections kept (without geometry). */
const BARGE_LEGS = 4000;

/**
 * Barge searches kept across requests (this thread's), keyed by their points and the date's rule
 * factors: a river port's metres and seconds to every gateway, and routed barge sections.
 */
export class Barges {
  private readonly rows = new Memo<string, { metres: Float64Array; seconds: Float64Array }>(BARGE_ROWS);
  private readonly legs = new Memo<string, SectionInput<Place> | null>(BARGE_LEGS);

  row(river: RiverPlanner, port: Place, state: SeasonalState) {
    return this.rows.get(`${port.lat},${port.lng}\n${state.factors.join(",")}`, () =>
      river.bargeMany(port, river.gateways, state.factors),
    );
  }

  section(river: RiverPlanner, a: Place, b: Place, state: SeasonalState, path: boolean) {
    const leg = () => river.bargeSection(a, b, state, path);
    if (path) return leg();
    return this.legs.get(`${a.lat},${a.lng}\n${b.lat},${b.lng}\n${state.factors.join(",")}`, leg);
  }
}

/** A side's gateway options, and the barge rules that refused candidates there (rule order). */
export interface GatewaySide {
  options: GatewayOption[];
  refused: BargeReason[];
}

/**
 * The gateways a door's river ports reach by water, best first by barge plus road. `fixed` (the
 * pol or pod the caller set) keeps only the gateway with that UN/LOCODE. One barge search per
 * river port to every gateway (kept in `barges` for the date's rules), read for those in reach.
 * A barge a road leg serves better (barge-rule.ts) is no candidate, so another gateway of the same
 * mouth can stand for it.
 */
export function gatewayOptions(args: {
  river: RiverPlanner;
  door: Place;
  state: SeasonalState;
  legs: InlandLegs;
  settings: Settings;
  fixed: Place | null | undefined;
  barges: Barges;
  /** The main container ports (the door's nearest is where the Sea chain sails). */
  seaPorts: readonly Place[];
}): GatewaySide {
  const { river, door, fixed } = args;
  const roadKm = (p: Place) => greatCircleKm(door, p) * INLAND_CIRCUITY;
  const seaPortRoadKm = fixed ? null : Math.min(...args.seaPorts.map(roadKm));
  if (doorAtSeaPort(seaPortRoadKm)) return { options: [], refused: [BARGE_RULES.seaPort] };
  const ports = river.candidates(door);
  const inReach = river.gateways
    .map((g, i) => ({ g, i, stop: gatewayStop(g) }))
    .filter(
      ({ g }) =>
        haversineM(door.lat, door.lng, g.lat, g.lng) / 1000 <= GATEWAY_REACH_KM &&
        (!fixed || (g.locode !== "" && g.locode === fixed.locode)),
    );
  if (ports.length === 0 || inReach.length === 0) return { options: [], refused: [] };
  const refused = new Set<BargeReason>();
  const best = new Map<number, GatewayOption & { score: number }>();
  for (const c of ports) {
    // Barge metres are the same either way; the ranking's hours from the port side are close enough.
    const barge = args.barges.row(river, c.terminal, args.state);
    const portMode: InlandMode = greatCircleKm(door, c.terminal) < NO_ACCESS_LEG_KM ? null : "ROAD";
    const road = args.legs.estimate(door, c.terminal, portMode);
    for (const { g, i, stop } of inReach) {
      const m = barge.metres[i]!;
      if (!Number.isFinite(m)) continue;
      const why = roadServesBetter({ seaPortRoadKm, gatewayRoadKm: roadKm(stop), portRoadKm: road.km });
      if (why) {
        refused.add(why);
        continue;
      }
      const est = addFigures(legFigures("RIVER", m / 1000, barge.seconds[i]! / 3600), road);
      const s = score(est, args.settings.optimize);
      // One option per way out to sea: gateways sharing a river node are one mouth.
      const seen = best.get(g.joinNode);
      if (seen && seen.score <= s) continue;
      best.set(g.joinNode, {
        gateway: g,
        stop,
        seaPoint: gatewaySeaPoint(g),
        beyondM: (g.seaKm + g.joinRiverKm) * 1000,
        port: c.terminal,
        portMode,
        est,
        score: s,
      });
    }
  }
  const options = [...best.values()]
    .sort((a, b) => a.score - b.score)
    .slice(0, GATEWAYS_PER_SIDE)
    .map(({ score: _, ...g }) => g);
  return { options, refused: Object.values(BARGE_RULES).filter((r) => refused.has(r)) };
}

/** A routed Sea + River chain and the seasonal notes of its barge leg. */
export interface SeaRiverChain {
  chain: Chain<Place>;
  notes: SeasonalNote[];
}

interface Context {
  from: Place;
  to: Place;
  sea: SeaDistances;
  river: RiverPlanner;
  state: SeasonalState;
  barges: Barges;
  legs: InlandLegs;
  settings: Settings;
}

/**
 * Sea + River chains, best first by the ranking estimate, routed in full: `toSide` gateways near
 * the destination (sea from an origin port, then barge), `fromSide` gateways near the origin
 * (barge, then sea to a destination port).
 */
export async function seaRiverChains(
  ctx: Context & {
    origins: readonly PortOption[];
    destinations: readonly PortOption[];
    toSide: readonly GatewayOption[];
    fromSide: readonly GatewayOption[];
  },
): Promise<SeaRiverChain[]> {
  const s = ctx.settings;
  const sea = (port: Place, g: GatewayOption) => {
    const m = ctx.sea.metres(port, g.seaPoint, s.closedMask);
    return Number.isFinite(m) ? seaFigures(m + g.beyondM, s) : null;
  };
  const forward: Array<{ a: PortOption; g: GatewayOption; score: number }> = [];
  for (const a of ctx.origins) {
    for (const g of ctx.toSide) {
      const leg = sea(a.stop, g);
      if (leg) forward.push({ a, g, score: score(addFigures(a.est, leg, g.est), s.optimize) });
    }
  }
  const reverse: Array<{ g: GatewayOption; b: PortOption; score: number }> = [];
  for (const g of ctx.fromSide) {
    for (const b of ctx.destinations) {
      const leg = sea(b.stop, g);
      if (leg) reverse.push({ g, b, score: score(addFigures(g.est, leg, b.est), s.optimize) });
    }
  }
  return [
    ...(await routeBest(forward, (c) => seaThenBarge(ctx, c.a, c.g))),
    ...(await routeBest(reverse, (c) => bargeThenSea(ctx, c.g, c.b))),
  ];
}

/** The best candidates routed in full, SEA_RIVER_ROUTED at most; one that fails gives its place. */
async function routeBest<T extends { score: number }>(
  candidates: T[],
  route: (c: T) => Promise<SeaRiverChain | null>,
): Promise<SeaRiverChain[]> {
  const out: SeaRiverChain[] = [];
  for (const c of candidates.sort((x, y) => x.score - y.score)) {
    if (out.length === SEA_RIVER_ROUTED) break;
    const chain = await route(c);
    if (chain) out.push(chain);
  }
  return out;
}

/** The SEA section between a port and a gateway, either way, with the km beyond the lanes. */
function gatewaySea(ctx: Context, port: Place, g: GatewayOption, toGateway: boolean) {
  const [a, b] = toGateway ? [port, g.seaPoint] : [g.seaPoint, port];
  const route = ctx.sea.route(a, b, ctx.settings);
  if (!route) return null;
  const beyond = {
    metres: g.beyondM,
    at: toGateway ? "end" : "start",
    drawn: g.gateway.joinRiverKm === 0,
  } as const;
  return toGateway
    ? seaSection(route, port, g.stop, ctx.settings, beyond)
    : seaSection(route, g.stop, port, ctx.settings, beyond);
}

function barge(ctx: Context, a: Place, b: Place) {
  const section = ctx.barges.section(ctx.river, a, b, ctx.state, ctx.settings.path);
  if (!section) return null;
  return { part: sectionPart(section), notes: (section.extra?.seasonal as SeasonalNote[] | undefined) ?? [] };
}

async function seaThenBarge(ctx: Context, a: PortOption, g: GatewayOption): Promise<SeaRiverChain | null> {
  // The barge and the inland legs first: where the navigable-water rule refuses the barge or
  // nothing reaches a port, no sea route is planned.
  const river = barge(ctx, g.stop, g.port);
  if (!river) return null;
  const [pre, post] = await Promise.all([
    ctx.legs.leg(ctx.from, a.stop, "from", a.mode),
    ctx.legs.leg(ctx.to, g.port, "to", g.portMode),
  ]);
  if (!pre || !post) return null;
  const sea = gatewaySea(ctx, a.stop, g, true);
  if (!sea) return null;
  return assemble(
    ctx,
    [pre, sectionPart(sea), river.part, post],
    [a.stop, g.stop, g.port],
    river.notes,
    "tail",
  );
}

async function bargeThenSea(ctx: Context, g: GatewayOption, b: PortOption): Promise<SeaRiverChain | null> {
  const river = barge(ctx, g.port, g.stop);
  if (!river) return null;
  const [pre, post] = await Promise.all([
    ctx.legs.leg(ctx.from, g.port, "from", g.portMode),
    ctx.legs.leg(ctx.to, b.stop, "to", b.mode),
  ]);
  if (!pre || !post) return null;
  const sea = gatewaySea(ctx, b.stop, g, false);
  if (!sea) return null;
  return assemble(
    ctx,
    [pre, river.part, sectionPart(sea), post],
    [g.port, g.stop, b.stop],
    river.notes,
    "head",
  );
}

function assemble(
  ctx: Context,
  parts: Part<Place>[],
  [first, gateway, last]: [Place, Place, Place],
  notes: SeasonalNote[],
  riverAt: "head" | "tail",
): SeaRiverChain {
  const h = ctx.settings.handling;
  const port = h ? SEA.handlingHours : 0;
  const riverPort = h ? RIVER.handlingHours : 0;
  // The gateway is where ship and barge meet: a seaport's handling.
  const joints =
    riverAt === "tail"
      ? [
          { at: first, hours: port },
          { at: gateway, hours: port },
          { at: last, hours: riverPort },
        ]
      : [
          { at: first, hours: riverPort },
          { at: gateway, hours: port },
          { at: last, hours: port },
        ];
  return { chain: chainOf(SEA_RIVER_LABEL, joinParts(parts, joints)), notes };
}
