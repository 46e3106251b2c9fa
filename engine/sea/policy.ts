/**
 * Sea passage policy: which gates a query closes. Bit i of a closed mask = passage i in
 * PASSAGE_IDS (the order of data-build/sea/graph.ts PASSAGES; the graph's names section is checked
 * against it at load). Rationale: docs/sea-routing.md.
 */
import { EngineError } from "../errors.ts";

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
] as const;
export type PassageId = (typeof PASSAGE_IDS)[number];

export type RoutingMode = "short" | "safe";
export const ROUTING_MODES: readonly RoutingMode[] = ["short", "safe"];

/**
 * Closed in every query: the Arctic passages (ice-bound most of the year, escort and permits
 * needed) and the Corinth Canal (17.6 m beam limit: no container ship fits). Kiel stays open:
 * container feeders use it daily; `avoid=kiel` closes it.
 */
export const DEFAULT_CLOSED: readonly PassageId[] = ["northwest", "northeast", "corinth"];

/**
 * `safe` also closes Bab-el-Mandeb: the Joint War Committee listed area covering the southern
 * Red Sea and Gulf of Aden approaches. The Red Sea's only other outlet is Suez, so Suez transits
 * between Europe and Asia disappear with it and those routes go round the Cape of Good Hope.
 */
export const SAFE_CLOSED: readonly PassageId[] = ["babelmandeb"];

export const SPEED_KNOTS = { min: 3, max: 40, default: 14 } as const;

export function passageBit(id: PassageId): number {
  return 1 << PASSAGE_IDS.indexOf(id);
}

export function maskOf(ids: Iterable<PassageId>): number {
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
