/**
 * Which alternative sea routes to offer, and what to call them. A carrier weighing a voyage
 * weighs corridors: via Suez, via Panama, round the Cape of Good Hope or Cape Horn. So beside the
 * routes found by closing each passage of the main route in turn (router.ts), the search goes one
 * corridor further (Suez closed gives Panama; Suez and Panama closed, the Cape), every distinct
 * corridor is offered before a variant of one already shown (the same corridor avoiding Dover),
 * and an alternative is labelled by the corridor it takes ("Via Cape of Good Hope") or else by
 * what it avoids ("Avoiding Strait of Dover"). Pure: gate codes in, choices out.
 */
import { GATE_IDS, type GateId, maskOf } from "./policy.ts";

/** Passages that decide the way between oceans; routes through different ones are different corridors. */
const CORRIDOR: ReadonlySet<GateId> = new Set([
  "suez",
  "panama",
  "good_hope",
  "cape_horn",
  "magellan",
  "northwest",
  "northeast",
]);

/** A route found for an alternative: its passages (gate codes, in route order) and length. */
export interface Found {
  gates: readonly number[];
  metres: number;
  /** The closed mask it was searched with. */
  closed: number;
  /** The passage closed to find it (gate code), or 0 when it was a corridor search. */
  avoided: number;
}

const idOf = (gate: number): GateId => GATE_IDS[gate - 1]!;

/** The corridor passages of a route, as a sorted key ("" when it takes none). */
export function corridorOf(gates: readonly number[]): string {
  return [...new Set(gates.map(idOf).filter((id) => CORRIDOR.has(id)))].sort().join(",");
}

/**
 * The closed mask that shows the next corridor: of the alternatives that left the main route's
 * corridor, the shortest, with its own corridor closed too; null when none did.
 */
export function nextCorridorClosure(main: readonly number[], found: readonly Found[]): number | null {
  const mainCorridor = corridorOf(main);
  const turned = found
    .filter((f) => corridorOf(f.gates) !== mainCorridor && corridorOf(f.gates) !== "")
    .sort((a, b) => a.metres - b.metres)[0];
  if (!turned) return null;
  const ids = turned.gates.map(idOf).filter((id) => CORRIDOR.has(id));
  return (turned.closed | maskOf(ids)) >>> 0;
}

/** At most `max`: the shortest of each corridor the main route does not take, then the shortest others; by length. */
export function pickAlternatives<F extends Found>(
  main: readonly number[],
  found: readonly F[],
  max: number,
): F[] {
  const byLength = [...found].sort((a, b) => a.metres - b.metres);
  const corridors = new Set([corridorOf(main)]);
  const first: F[] = [];
  for (const f of byLength) {
    const c = corridorOf(f.gates);
    if (!corridors.has(c)) {
      corridors.add(c);
      first.push(f);
    }
  }
  const rest = byLength.filter((f) => !first.includes(f));
  return [...first, ...rest].slice(0, max).sort((a, b) => a.metres - b.metres);
}

/** "Via <corridor>" for a route through another corridor, else "Avoiding <the passage it closed>". */
export function alternativeLabel(main: readonly number[], f: Found, name: (gate: number) => string): string {
  const corridor = corridorOf(f.gates);
  if (corridor !== corridorOf(main) && corridor !== "") {
    const gates = [...new Set(f.gates)].filter((g) => CORRIDOR.has(idOf(g)));
    return `Via ${gates.map(name).join(" and ")}`;
  }
  return f.avoided ? `Avoiding ${name(f.avoided)}` : `Avoiding ${corridorNames(main, name)}`;
}

/** The main route's corridor passages by name ("Suez Canal"), for an alternative that leaves them all. */
function corridorNames(main: readonly number[], name: (gate: number) => string): string {
  const gates = [...new Set(main)].filter((g) => CORRIDOR.has(idOf(g)));
  return gates.map(name).join(" and ");
}
