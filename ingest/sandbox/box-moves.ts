/**
 * One box's moves in a simulated shipment (docs/sandbox-carrier.md): empty pick-up, gate-in and
 * load at the origin, discharge and load at the hub, a customs hold at the destination now and
 * then, delivery and empty return, each an equipment event published a little after it happens.
 */
import { type Emitter, iso, location, transportCall } from "./dcsa-events.ts";
import { Rng } from "./random.ts";
import type { ShipmentKey } from "./references.ts";
import { D, H, hour } from "./sim-time.ts";
import type { Booking, SimulatedContainer, VoyageLeg } from "./simulate.ts";
import type { Port } from "./world.ts";

const ISO_TYPES: Array<[string, number]> = [
  ["45G1", 0.5],
  ["42G1", 0.2],
  ["22G1", 0.25],
  ["45R1", 0.05],
];
const HOLD_REASONS = [
  "Customs hold: documentary check of the commercial invoice",
  "Customs hold: X-ray examination ordered",
  "Customs hold: physical inspection ordered",
];

/** A box at a port's container terminal. */
const terminal = (p: Port) => ({ port: p, location: location(p, "container terminal") });

/** What every box of one shipment shares while its moves are drawn. */
export interface ShipmentRun {
  key: ShipmentKey;
  rng: Rng;
  emit: Emitter;
  route: Booking;
  legs: VoyageLeg[];
  seqOf: (leg: VoyageLeg, code: "DEPA" | "ARRI") => number;
  rolled: Set<string>;
  onwardDep: number | null;
  confirmedAt: number;
  dep1: number;
  arr1: number;
  /** When the gate closes before: the earlier of the planned and the true first departure. */
  sails: number;
  lag: (r: Rng) => number;
  /** When the roll becomes known at the hub (the earliest over the rolled boxes). */
  rollKnownAt: number;
}

/** A box's moves at the hub (discharge, load onward); the onward leg it sails, or null without a hub. */
function hubMoves(run: ShipmentRun, box: SimulatedContainer, r: Rng): VoyageLeg | null {
  const { emit, legs, route, seqOf, onwardDep, dep1, arr1, lag } = run;
  const number = box.number;
  if (!route.hub || onwardDep === null) return null;
  const hub = route.hub;
  const discHub = hour(arr1 + r.range(3, 8) * H);
  const leg = box.rolled ? legs[2]! : legs[1]!;
  const dep = Date.parse(leg.departure);
  const loadHub = hour(Math.max(discHub + 4 * H, dep - r.range(3, 10) * H));
  emit.equipment(
    `${number}|DISC|hub`,
    discHub,
    box,
    "DISC",
    false,
    { ...terminal(hub), call: transportCall(legs[0]!, "to", seqOf(legs[0]!, "ARRI")) },
    lag(r),
  );
  emit.equipment(
    `${number}|LOAD|hub`,
    loadHub,
    box,
    "LOAD",
    false,
    { ...terminal(hub), call: transportCall(leg, "from", seqOf(leg, "DEPA")) },
    lag(r),
  );
  // Known at the hub: once the box is ashore, or when the onward hull is about to sail.
  if (box.rolled)
    run.rollKnownAt = Math.min(
      run.rollKnownAt,
      Math.max(hour(dep1 + 12 * H), hour(Math.min(onwardDep - 6 * H, discHub + 12 * H))),
    );
  return leg;
}

/** A customs hold at the destination: HOLD, inspection, release; returns when the box is free. */
function customsHold(run: ShipmentRun, box: SimulatedContainer, disc: number, r: Rng): number {
  const { emit, route, rng, lag } = run;
  const destination = route.destination;
  const reason = rng.pick(HOLD_REASONS);
  const hold = hour(disc + r.range(2, 14) * H);
  const insp = hour(hold + r.range(20, 72) * H);
  const release = hour(insp + r.range(4, 30) * H);
  const eq = [{ referenceType: "EQ" as const, referenceValue: box.number }];
  emit.shipment(`${box.number}|HOLD`, hold, "HOLD", "CUS", { reason, references: eq });
  emit.equipment(`${box.number}|INSP`, insp, box, "INSP", false, terminal(destination), lag(r));
  emit.shipment(`${box.number}|RELS`, release, "RELS", "CUS", { reason: "Customs released", references: eq });
  box.customsHold = { reason, from: iso(hold), to: iso(release) };
  return release;
}

/** One box's moves from empty pick-up to empty return, and when its last vessel arrives. */
export function boxMoves(
  run: ShipmentRun,
  number: string,
  holdBox: string | null,
): { box: SimulatedContainer; arrival: number } {
  const { emit, legs, route, seqOf, dep1, sails, confirmedAt, rolled, key, lag } = run;
  const r = new Rng(`box|${key.scac}|${key.index}|${number}`);
  const box: SimulatedContainer = {
    number,
    isoEquipmentCode: r.weighted(ISO_TYPES, (t) => t[1])[0],
    rolled: rolled.has(number),
    customsHold: null,
    milestones: {} as SimulatedContainer["milestones"],
  };
  const origin = route.origin;
  const destination = route.destination;
  const pick = hour(Math.max(confirmedAt + 6 * H, sails - r.range(4, 9) * D));
  const gateIn = hour(Math.max(pick + 10 * H, sails - r.range(1.2, 3) * D));
  const load = hour(dep1 - r.range(4, 16) * H);
  const depot = { port: origin, location: location(origin, "empty depot") };
  const firstCall = transportCall(legs[0]!, "from", seqOf(legs[0]!, "DEPA"));
  emit.equipment(`${number}|PICK`, pick, box, "PICK", true, depot, lag(r));
  emit.equipment(`${number}|GTIN`, gateIn, box, "GTIN", false, terminal(origin), lag(r));
  emit.equipment(
    `${number}|LOAD|1`,
    load,
    box,
    "LOAD",
    false,
    { ...terminal(origin), call: firstCall },
    lag(r),
  );

  const last = hubMoves(run, box, r) ?? legs[0]!;
  const arrival = Date.parse(last.arrival);
  const disc = hour(arrival + r.range(5, 30) * H);
  emit.equipment(
    `${number}|DISC|dest`,
    disc,
    box,
    "DISC",
    false,
    { ...terminal(destination), call: transportCall(last, "to", seqOf(last, "ARRI")) },
    lag(r),
  );
  const free = number === holdBox ? customsHold(run, box, disc, r) : disc;
  const gateOut = hour(free + r.range(1, 5) * D);
  const stripped = hour(gateOut + r.range(0.5, 3) * D);
  const emptyReturn = hour(stripped + r.range(1, 4) * D);
  emit.equipment(`${number}|GTOT`, gateOut, box, "GTOT", false, terminal(destination), lag(r));
  emit.equipment(
    `${number}|STRP`,
    stripped,
    box,
    "STRP",
    false,
    { port: destination, location: location(destination, "consignee warehouse") },
    lag(r),
  );
  emit.equipment(
    `${number}|GTIN|empty`,
    emptyReturn,
    box,
    "GTIN",
    true,
    { port: destination, location: location(destination, "empty depot") },
    lag(r),
  );
  box.milestones = {
    emptyPickup: iso(pick),
    gateIn: iso(gateIn),
    loaded: iso(load),
    discharged: iso(disc),
    gateOut: iso(gateOut),
    stripped: iso(stripped),
    emptyReturn: iso(emptyReturn),
  };
  return { box, arrival };
}
