/**
 * Sea passage policy: which gates a query closes. Bit i of a closed mask = gate i in GATE_IDS
 * (the order of data-build/sea/graph.ts PASSAGES; the graph's names section is checked against it
 * at load). Rationale: docs/sea-routing.md.
 */
import { EngineError } from "../errors.ts";

/** Passages a caller may close with `avoid`. */
export const PASSAGE_IDS = [
  "suez",
  "panama",
  "malacca",
  "gibraltar",
  "dover",
  "bering",
  "magellan",
  "babelmandeb",
  "kiel",
  "corinth",
  "northwest",
  "northeast",
  "good_hope",
  "cape_horn",
] as const;
export type PassageId = (typeof PASSAGE_IDS)[number];

/**
 * Every gate of the sea graph, in bit order: the passages, then "inland", the lanes MARNET runs on
 * rivers and canals sea-going ships do not sail (data-build/sea/inland.ts). It is always closed
 * and not a passage: `avoid=inland` is an unknown passage, and no query opens it.
 */
export const GATE_IDS = [...PASSAGE_IDS, "inland"] as const;
export type GateId = (typeof GATE_IDS)[number];

export type RoutingMode = "short" | "safe";
export const ROUTING_MODES: readonly RoutingMode[] = ["short", "safe"];

/**
 * Closed in every query: the Arctic passages (ice-bound most of the year, escort and permits
 * needed), the Corinth Canal (17.6 m beam limit: no container ship fits) and the inland lanes
 * (barges, not ships: mode RIVER routes them). Kiel stays open: container feeders use it daily;
 * `avoid=kiel` closes it. The sea graph's landmarks are computed with these closed
 * (data-build/sea/graph.ts LANDMARK_CLOSED).
 */
export const DEFAULT_CLOSED: readonly GateId[] = ["northwest", "northeast", "corinth", "inland"];

/**
 * `safe` also closes Bab-el-Mandeb: the Joint War Committee listed area covering the southern
 * Red Sea and Gulf of Aden approaches. The Red Sea's only other outlet is Suez, so Suez transits
 * between Europe and Asia disappear with it and those routes go round the Cape of Good Hope.
 */
export const SAFE_CLOSED: readonly PassageId[] = ["babelmandeb"];

export const SPEED_KNOTS = { min: 3, max: 40, default: 14 } as const;

export function passageBit(id: GateId): number {
  return 1 << GATE_IDS.indexOf(id);
}

export function maskOf(ids: Iterable<GateId>): number {
  let mask = 0;
  for (const id of ids) mask |= passageBit(id);
  return mask >>> 0;
}

export const DEFAULT_MASK = maskOf(DEFAULT_CLOSED);

/** Parses the avoid list (ids, case-insensitive); unknown ids are a validation error. */
export function parseAvoid(avoid: readonly string[]): PassageId[] {
  const out: PassageId[] = [];
  for (const raw of avoid) {
    const id = raw.trim().toLowerCase();
    if (id === "") continue;
    if (!(PASSAGE_IDS as readonly string[]).includes(id)) {
      throw new EngineError(
        "invalid_request",
        `unknown passage "${raw}" in avoid; known passages: ${PASSAGE_IDS.join(", ")}`,
      );
    }
    if (!out.includes(id as PassageId)) out.push(id as PassageId);
  }
  return out;
}

export function checkSpeed(speedKnots: number): number {
  if (
    typeof speedKnots !== "number" ||
    !Number.isFinite(speedKnots) ||
    speedKnots < SPEED_KNOTS.min ||
    speedKnots > SPEED_KNOTS.max
  ) {
    throw new EngineError(
      "invalid_request",
      `speed_knots must be a number from ${SPEED_KNOTS.min} to ${SPEED_KNOTS.max}`,
    );
  }
  return speedKnots;
}

export function checkMode(mode: string): RoutingMode {
  const m = mode.trim().toLowerCase();
  if (!(ROUTING_MODES as readonly string[]).includes(m)) {
    throw new EngineError("invalid_request", `routing_mode must be one of ${ROUTING_MODES.join(", ")}`);
  }
  return m as RoutingMode;
}

/**
 * Seas whose only ways out are two passages (with the default closures): the Mediterranean
 * (Gibraltar, Suez: the Bosporus leads only to the Black Sea; the Rhone, Danube and Don lanes are
 * inland) and the Red Sea (Suez, Bab-el-Mandeb). A route through both ways out of such a sea has
 * its ends outside it; once either is closed, a shortest route never enters it (in and out by one
 * passage is a loop), so closing either gives the same route. Seas chain through a shared passage
 * (Gibraltar, Suez, Bab-el-Mandeb on Europe-Asia routes).
 */
export const ENCLOSED_SEAS: ReadonlyArray<{ id: string; exits: readonly [PassageId, PassageId] }> = [
  { id: "mediterranean", exits: ["gibraltar", "suez"] },
  { id: "red_sea", exits: ["suez", "babelmandeb"] },
];

/**
 * Of a route's passages (gate codes as the router reports them: 1 + index in GATE_IDS, in route
 * order), the ones worth closing for an alternative: the first of each run of passages joined by
 * ENCLOSED_SEAS, every other passage as it is. Closing a later one of a run searches again for the
 * route closing the first already found, which the alternatives would drop as a repeat.
 */
export function alternativeClosures(gates: readonly number[]): number[] {
  const ids = gates.map((g) => GATE_IDS[g - 1]);
  const joined = (a: GateId | undefined, b: GateId | undefined) =>
    ENCLOSED_SEAS.some(({ exits: [x, y] }) => (a === x && b === y) || (a === y && b === x));
  return gates.filter((_, i) => !ids.slice(0, i).some((earlier) => joined(earlier, ids[i])));
}
