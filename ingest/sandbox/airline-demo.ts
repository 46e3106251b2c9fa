/**
 * Demo air waybills (README, docs/air-cargo.md): one per path the sandbox airline can take. Each
 * shows its scenario from 00:00 UTC on the epoch day to AIR_DEMO_HOURS.to hours later, for any epoch
 * at 00:00 UTC (itineraries are drawn relative to SANDBOX_EPOCH, which the default start sets to
 * today). test/airlines/demo.test.ts checks every one against AIR_DEMO_CHECKS; replacements must pass.
 */
import type { AirEvent, SimulatedAwb } from "./airline-simulate.ts";

export type AirDemoScenario =
  | "booked"
  | "in_transit"
  | "delayed"
  | "offloaded"
  | "split"
  | "rebooked"
  | "arrived"
  | "delivered";

export interface DemoAwb {
  /** 11 digits. */
  awb: string;
  iata: string;
  scenario: AirDemoScenario;
  /** Route (origin → hub → ... → destination) and what to look at. */
  note: string;
}

/** Hours after the epoch (00:00 UTC of the start day) between which every scenario below holds. */
export const AIR_DEMO_HOURS = { from: 0, to: 36 } as const;

const H = 3600_000;
const at = (e: AirEvent[], code: string, timeType: AirEvent["timeType"] = "ACTUAL") =>
  e.filter((x) => x.code === code && x.timeType === timeType);
/** Every piece delivered (DLV) by `now`. */
const deliveredBy = (s: SimulatedAwb, now: number) =>
  at(s.events, "DLV")
    .filter((e) => e.created <= now)
    .reduce((n, e) => n + e.pieces, 0) === s.pieces;
const departedBy = (s: SimulatedAwb, now: number) => at(s.events, "DEP").some((e) => e.created <= now);
/** One part from origin to destination: no split booking, no offload (each demo shows one path). */
const whole = (s: SimulatedAwb) => !s.split && s.offload === null;
/** And every connection made as booked. */
const asBooked = (s: SimulatedAwb) => whole(s) && !s.parts.some((p) => p.rebooked);

/** What each scenario means, as a check on the simulation over the demo window. */
export const AIR_DEMO_CHECKS: Record<AirDemoScenario, (s: SimulatedAwb, epoch: number) => boolean> = {
  // Booked before the start day, first departure after the window.
  booked: (s, t0) => asBooked(s) && s.bookedAt <= t0 && !departedBy(s, t0 + AIR_DEMO_HOURS.to * H),
  // Three legs or more: left the origin before the window, not yet at the destination after it.
  in_transit: (s, t0) =>
    asBooked(s) &&
    s.stops.length >= 4 &&
    departedBy(s, t0) &&
    !at(s.events, "RCF").some((e) => e.airport === s.destination && e.created <= t0 + AIR_DEMO_HOURS.to * H),
  // A departure two hours or more late, announced by an ESTIMATED DEP before the window.
  delayed: (s, t0) =>
    asBooked(s) &&
    s.parts.some((p) => p.flights.some((f) => f.departure - f.plannedDeparture >= 2 * H)) &&
    at(s.events, "DEP", "ESTIMATED").some((e) => e.created <= t0) &&
    !deliveredBy(s, t0 + AIR_DEMO_HOURS.to * H),
  // Part of the shipment offloaded before the window, the rest flown on; not all delivered after it.
  offloaded: (s, t0) =>
    s.offload !== null &&
    s.offload.pieces < s.pieces &&
    at(s.events, "DIS_OFLD").some((e) => e.created <= t0) &&
    !deliveredBy(s, t0 + AIR_DEMO_HOURS.to * H),
  // Booked as two parts; the first left before the window, not all delivered after it.
  split: (s, t0) =>
    s.split && s.offload === null && departedBy(s, t0) && !deliveredBy(s, t0 + AIR_DEMO_HOURS.to * H),
  // Missed a connection and rebooked (a second BKD for the same leg) before the window.
  rebooked: (s, t0) =>
    whole(s) &&
    s.parts.some((p) => p.rebooked) &&
    at(s.events, "BKD").some((e) => e.created > s.bookedAt + H && e.created <= t0) &&
    !deliveredBy(s, t0 + AIR_DEMO_HOURS.to * H),
  // Every piece received at the destination and the consignee notified, none delivered in the window.
  arrived: (s, t0) =>
    asBooked(s) &&
    at(s.events, "NFD")
      .filter((e) => e.created <= t0)
      .reduce((n, e) => n + e.pieces, 0) === s.pieces &&
    !at(s.events, "DLV").some((e) => e.created <= t0 + AIR_DEMO_HOURS.to * H),
  delivered: (s, t0) => deliveredBy(s, t0),
};

export const DEMO_AWBS: readonly DemoAwb[] = [
  {
    awb: "02016968722",
    iata: "LH",
    scenario: "booked",
    note: "JFK → FRA → DUB, 35 pieces, first flight LH3040 on start day + 2",
  },
  {
    awb: "16018156574",
    iata: "CX",
    scenario: "in_transit",
    note: "NRT → HKG → SDF → ATL, 3 pieces on CX1780, CX1005, CX1421",
  },
  {
    awb: "17614117880",
    iata: "EK",
    scenario: "delayed",
    note: "IST → DXB → CVG → YYZ, EK2495 left 8 h late, announced by ESTIMATED DEP/ARR",
  },
  {
    awb: "15711267045",
    iata: "QR",
    scenario: "offloaded",
    note: "HAN → DOH → CDG, 4 of 6 pieces offloaded from QR4907 at HAN (DIS_OFLD), flown a day later",
  },
  {
    awb: "23517760621",
    iata: "TK",
    scenario: "split",
    note: "DUB → IST → SIN, booked as 4 + 2 pieces a day apart (partial events)",
  },
  {
    awb: "02013959503",
    iata: "LH",
    scenario: "rebooked",
    note: "FRA → ICN → HND, missed its connection at ICN and rebooked",
  },
  {
    awb: "16013721934",
    iata: "CX",
    scenario: "arrived",
    note: "CTU → HKG → AUH, 2 pieces received and the consignee notified (NFD), not delivered yet",
  },
  {
    awb: "17610237570",
    iata: "EK",
    scenario: "delivered",
    note: "JNB → DXB → HND, 14 pieces delivered (DLV)",
  },
];

const DEMO_SET = new Set(DEMO_AWBS.map((d) => d.awb));

/** An AWB of the demo list (11 digits, or with a dash). */
export const isDemoAwb = (awb: string): boolean => DEMO_SET.has(awb.replace(/\D/g, ""));
