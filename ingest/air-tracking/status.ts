/**
 * An air waybill's state from its airline events: which events are current (forecasts superseded),
 * the normalised status, exception flags, route ends, ETA and milestone times. Pure: the engine
 * stores every event by id and derives again at each change, so the same events always give the
 * same answer. The rules are in docs/air-cargo.md ("Tracking air waybills").
 */
import type { AwbEvent } from "../airlines/connector.ts";

/** Lifecycle stages in order; exceptions are flags beside the status, never a status of their own. */
export const AWB_STATUSES = [
  "unknown",
  "booked",
  "received",
  "in_transit",
  "arrived",
  "available",
  "delivered",
] as const;
export type AwbStatus = (typeof AWB_STATUSES)[number];

export const AWB_EXCEPTIONS = [
  /** Offloaded (DIS_OFLD) and the departures from that airport since do not carry every piece. */
  "offloaded",
  /** Missing cargo (DIS_MSCA) not found again (DIS_FDCA). */
  "missing_cargo",
  /** Missing air waybill (DIS_MSAW) not found again (DIS_FDAW). */
  "missing_documents",
  /** Carried past its airport (DIS_OVCD), not yet arrived at the destination. */
  "overcarried",
  /** Part of the consignment left behind (DIS_SSPD), not yet all arrived at the destination. */
  "shortshipped",
  /** Some pieces reached a later milestone than the rest (partial events). */
  "split",
  /** The arrival (expected or actual) is an hour or more after the first published plan. */
  "delayed",
] as const;
export type AwbException = (typeof AWB_EXCEPTIONS)[number];

/** An arrival this much later than first planned flags the waybill as delayed. */
export const DELAY_MS = 3_600_000;

/** A waybill's events with the order they were published in (the order first seen). */
export interface SeenEvent {
  event: AwbEvent;
  seq: number;
}

/** What the waybill itself says, beside its events. */
export interface WaybillFacts {
  origin: string | null;
  destination: string | null;
  /** Total pieces: partial events covering them all complete a milestone. */
  pieces: number | null;
}

export interface AwbDerived {
  status: AwbStatus;
  exceptions: AwbException[];
  origin: string | null;
  destination: string | null;
  eta: string | null;
  etaIsEstimated: boolean | null;
  plannedArrivalAt: string | null;
  /** First actual departure. */
  departedAt: string | null;
  /** When the last piece arrived at the destination. */
  arrivedAt: string | null;
  deliveredAt: string | null;
  /** The event that brought each reached status (absent when implied by a later one). */
  reachedBy: Partial<Record<AwbStatus, AwbEvent>>;
}

const ms = (t: string) => Date.parse(t);
const iso = (t: string) => new Date(ms(t)).toISOString();
const isActual = (e: AwbEvent) => e.timeType === "ACTUAL";
const byTime = (a: AwbEvent, b: AwbEvent) => ms(a.at) - ms(b.at) || a.id.localeCompare(b.id);

/** Events of one move (code, airport, flight) this far apart are different departures (days). */
export const SAME_DEPARTURE_MS = 12 * 3_600_000;

/**
 * What a timeline shows: every actual event, and the forecasts (plans, estimates) still standing.
 * A flight designator flies daily, so a move's events (code, airport, flight) are grouped into
 * departures by time (SAME_DEPARTURE_MS). A departure with an actual event shows only that; one
 * without shows its latest published forecast, unless the cargo has already done that move at that
 * airport later than forecast (an actual of the same code there, any flight): it went on a later
 * flight (rebooked after a missed connection or an offload). Oldest first.
 */
export function currentEvents(seen: readonly SeenEvent[]): AwbEvent[] {
  const keyOf = (e: AwbEvent) => `${e.code}|${e.airport ?? ""}|${e.flight ?? ""}`;
  const moves = new Map<string, SeenEvent[]>();
  for (const s of seen) moves.set(keyOf(s.event), [...(moves.get(keyOf(s.event)) ?? []), s]);
  const lastActual = new Map<string, number>();
  for (const { event: e } of seen) {
    if (!isActual(e)) continue;
    const where = `${e.code}|${e.airport ?? ""}`;
    lastActual.set(where, Math.max(lastActual.get(where) ?? -Infinity, ms(e.at)));
  }
  const out: AwbEvent[] = seen.filter((s) => isActual(s.event)).map((s) => s.event);
  for (const events of moves.values()) {
    const sorted = [...events].sort((a, b) => ms(a.event.at) - ms(b.event.at));
    const departures: SeenEvent[][] = [];
    for (const s of sorted) {
      const last = departures.at(-1);
      if (last && ms(s.event.at) - ms(last.at(-1)!.event.at) <= SAME_DEPARTURE_MS) last.push(s);
      else departures.push([s]);
    }
    for (const departure of departures) {
      if (departure.some((s) => isActual(s.event))) continue;
      const latest = departure.reduce((a, b) => (b.seq > a.seq ? b : a)).event;
      const doneLater = lastActual.get(`${latest.code}|${latest.airport ?? ""}`) ?? -Infinity;
      if (doneLater <= ms(latest.at)) out.push(latest);
    }
  }
  return out.sort(byTime);
}

/** The first event, in time, after which `events` cover every piece; undefined if they never do. */
function completedBy(events: readonly AwbEvent[], pieces: number | null): AwbEvent | undefined {
  let covered = 0;
  for (const e of [...events].sort(byTime)) {
    if (!e.partial) return e;
    covered += e.pieces ?? 0;
    if (pieces !== null && covered >= pieces) return e;
  }
  return undefined;
}

/**
 * Derives the waybill's state from all its events in the order published: the current ones (see
 * currentEvents) decide status, ETA and flags; the first published plan of the arrival stays the
 * baseline "delayed" compares against, whatever superseded it since.
 */
export function deriveAwb(seen: readonly SeenEvent[], facts: WaybillFacts): AwbDerived {
  const current = currentEvents(seen);
  const actual = current.filter(isActual);
  const flightEvents = current.filter((e) => e.flight !== null);
  const origin = facts.origin ?? flightEvents.find((e) => e.airport)?.airport ?? null;
  const destination = facts.destination ?? flightEvents.filter((e) => e.toAirport).at(-1)?.toAirport ?? null;
  const at = (codes: readonly string[], airport?: string | null) =>
    actual.filter((e) => codes.includes(e.code) && (airport === undefined || e.airport === airport));
  const atDestination = (codes: readonly string[]) => (destination ? at(codes, destination) : []);

  // A milestone is reached by its first event (booking, acceptance, departure) or once its
  // events cover every piece (arrival, notification, delivery): a consignment has arrived when
  // all of it has.
  const reachedBy: Partial<Record<AwbStatus, AwbEvent>> = {};
  // Any booking ever published: an offload that voids the flights booked keeps the waybill booked.
  const booking = seen.find((s) => s.event.code === "BKD")?.event;
  if (booking) reachedBy.booked = booking;
  const received = at(["RCS"])[0];
  if (received) reachedBy.received = received;
  const departed = at(["DEP"])[0];
  if (departed) reachedBy.in_transit = departed;
  // Arrived once the arrivals (ARR), or the receipts from the flights (RCF), cover every piece:
  // each counted apart, since both tell of the same pieces.
  const arrivals = atDestination(["ARR", "RCF"]);
  const arrived = [
    completedBy(atDestination(["ARR"]), facts.pieces),
    completedBy(atDestination(["RCF"]), facts.pieces),
  ]
    .filter((e) => e !== undefined)
    .sort(byTime)[0];
  if (arrived) reachedBy.arrived = arrived;
  // Notified of arrival (NFD): documents handed over (AWD) travel with the first part, not the last.
  const notices = atDestination(["NFD"]);
  const available = completedBy(notices, facts.pieces);
  if (available) reachedBy.available = available;
  const deliveries = at(["DLV"]);
  const delivered = completedBy(deliveries, facts.pieces);
  if (delivered) reachedBy.delivered = delivered;

  const status = [...AWB_STATUSES].reverse().find((s) => reachedBy[s] !== undefined) ?? "unknown";
  const before = (s: AwbStatus) => AWB_STATUSES.indexOf(status) < AWB_STATUSES.indexOf(s);

  // ETA: the actual arrival once all pieces are in; before that, the latest of the flights bringing
  // pieces to the destination (each flight's actual arrival, else its current forecast).
  const inbound = destination ? current.filter((e) => e.code === "ARR" && e.airport === destination) : [];
  const eta = before("arrived") ? inbound.at(-1) : (arrived ?? arrivals.at(-1));
  const plannedArrival = seen
    .filter(
      (s) => s.event.code === "ARR" && s.event.airport === destination && s.event.timeType === "PLANNED",
    )
    .sort((a, b) => a.seq - b.seq)[0]?.event;

  const exceptions: AwbException[] = [];
  const lastOf = (code: string) => at([code]).at(-1);
  /** `e` happened and nothing of `codes` followed it. */
  const standing = (e: AwbEvent | undefined, codes: readonly string[]) =>
    e !== undefined && !at(codes).some((x) => ms(x.at) >= ms(e.at));
  // Offloaded until the departures from that airport since carry every piece (all, when the
  // count is unknown: any departure).
  const offload = lastOf("DIS_OFLD");
  if (before("arrived") && offload) {
    const since = at(["DEP"], offload.airport).filter((e) => ms(e.at) >= ms(offload.at));
    const flown = facts.pieces === null && since.length > 0 ? since[0] : completedBy(since, facts.pieces);
    if (!flown) exceptions.push("offloaded");
  }
  if (before("delivered") && standing(lastOf("DIS_MSCA"), ["DIS_FDCA"])) exceptions.push("missing_cargo");
  if (before("delivered") && standing(lastOf("DIS_MSAW"), ["DIS_FDAW"])) exceptions.push("missing_documents");
  if (before("arrived") && lastOf("DIS_OVCD")) exceptions.push("overcarried");
  if (before("arrived") && lastOf("DIS_SSPD")) exceptions.push("shortshipped");
  const ahead =
    (before("arrived") && arrivals.length > 0) ||
    (before("available") && notices.length > 0) ||
    (before("delivered") && deliveries.length > 0);
  if (ahead) exceptions.push("split");
  if (eta && plannedArrival && ms(eta.at) - ms(plannedArrival.at) >= DELAY_MS) exceptions.push("delayed");

  return {
    status,
    exceptions,
    origin,
    destination,
    eta: eta ? iso(eta.at) : null,
    etaIsEstimated: eta ? !isActual(eta) : null,
    plannedArrivalAt: plannedArrival ? iso(plannedArrival.at) : null,
    departedAt: departed ? iso(departed.at) : null,
    arrivedAt: arrived ? iso(arrived.at) : null,
    deliveredAt: delivered ? iso(delivered.at) : null,
    reachedBy,
  };
}
