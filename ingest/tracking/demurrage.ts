/**
 * Demurrage from an organisation's free-time terms: the free time runs from the discharge day at
 * the destination (day one, port-local calendar), the clock stops at gate-out. Computed against
 * "now" on every read so free days left and the amount accrued are never stale; the poller raises
 * demurrage_warning and demurrage_started when a box crosses into those phases.
 */

export interface FreeTimeTerms {
  id: string;
  carrierCode: string | null;
  portUnlocode: string | null;
  /** A container_size ("40HC") or its length prefix ("40"); null matches any box. */
  equipment: string | null;
  freeDays: number;
  dailyRateUsd: number | null;
  createdAt: string;
}

/** An organisation's terms when it has none on file: one shared frozen list. */
export const NO_TERMS: readonly FreeTimeTerms[] = Object.freeze([]);

export interface DemurrageSubject {
  carrierCode: string | null;
  destinationUnlocode: string | null;
  containerSize: string | null;
  dischargedAt: string | null;
  deliveredAt: string | null;
}

export type DemurragePhase = "none" | "free" | "warning" | "accruing";

export interface Demurrage {
  terms: FreeTimeTerms | null;
  lastFreeDay: string | null;
  freeDaysLeft: number | null;
  accruedUsd: number | null;
  atRisk: boolean;
  phase: DemurragePhase;
  /** The clock stopped at gate-out. */
  stopped: boolean;
}

/** Free days left at or below this is a warning (demurrage_at_risk, demurrage_warning). */
export const WARNING_DAYS = 2;

/** The most specific terms for a box: each matching field counts; ties go to the newest. */
export function matchTerms(terms: readonly FreeTimeTerms[], box: DemurrageSubject): FreeTimeTerms | null {
  let best: FreeTimeTerms | null = null;
  let bestScore = -1;
  for (const t of terms) {
    if (t.carrierCode !== null && t.carrierCode !== box.carrierCode) continue;
    if (t.portUnlocode !== null && t.portUnlocode !== box.destinationUnlocode) continue;
    if (t.equipment !== null && !(box.containerSize ?? "").startsWith(t.equipment)) continue;
    const score =
      Number(t.carrierCode !== null) + Number(t.portUnlocode !== null) + Number(t.equipment !== null);
    if (score > bestScore || (score === bestScore && best !== null && t.createdAt > best.createdAt)) {
      best = t;
      bestScore = score;
    }
  }
  return best;
}

/** The calendar date (YYYY-MM-DD) of an instant in a zone; UTC when the zone is unknown. */
export function localDate(instantMs: number, zone: string | null): string {
  if (!zone) return new Date(instantMs).toISOString().slice(0, 10);
  try {
    return new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date(instantMs));
  } catch {
    return new Date(instantMs).toISOString().slice(0, 10);
  }
}

const DAY = 86_400_000;
const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY);
const dateOf = (n: number) => new Date(n * DAY).toISOString().slice(0, 10);

export function computeDemurrage(
  box: DemurrageSubject,
  terms: FreeTimeTerms | null,
  now: number,
  zone: string | null,
): Demurrage {
  const none: Demurrage = {
    terms,
    lastFreeDay: null,
    freeDaysLeft: null,
    accruedUsd: null,
    atRisk: false,
    phase: "none",
    stopped: false,
  };
  if (!terms || !box.dischargedAt) return none;
  const first = dayNumber(localDate(Date.parse(box.dischargedAt), zone));
  const last = first + terms.freeDays - 1;
  const stopped = box.deliveredAt !== null;
  const until = dayNumber(localDate(stopped ? Date.parse(box.deliveredAt!) : now, zone));
  const left = Math.max(0, last - until);
  const overdue = Math.max(0, until - last);
  const phase: DemurragePhase = stopped
    ? "none"
    : overdue > 0
      ? "accruing"
      : left <= WARNING_DAYS
        ? "warning"
        : "free";
  return {
    terms,
    lastFreeDay: dateOf(last),
    freeDaysLeft: stopped ? null : left,
    accruedUsd: terms.dailyRateUsd === null ? null : Math.round(overdue * terms.dailyRateUsd * 100) / 100,
    atRisk: phase === "warning" || phase === "accruing",
    phase,
    stopped,
  };
}
