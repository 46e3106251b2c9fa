/** Wall-clock rendering of a UTC instant in an IANA zone (Intl only, so it runs anywhere). */
import type { KnownLocalTime } from "../../common/events/fields.ts";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The formatter's wall time at `instantMs`: "YYYY-MM-DDTHH:MM:SS"; throws for an unknown zone. */
function formatted(instantMs: number, zone: string): string {
  const parts = formatter(zone).formatToParts(new Date(instantMs));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}`;
}

const DAY_MS = 86_400_000;
/** Years the formatter writes with four digits, as toISOString does. */
const FOUR_DIGIT_YEARS = [Date.UTC(1000, 0, 1), Date.UTC(10_000, 0, 1)] as const;
const DAY_OFFSETS_MAX = 100_000;

/**
 * A zone's offset (ms) over one UTC day, or null when it is not the same at the day's first and
 * last second (a transition that day, or an unknown zone). Formatting is the costly part of a
 * timeline: events share days, so two formatter calls per zone and day replace one per event.
 * No zone changes its offset twice within one day, so equal ends mean one offset all day.
 */
const dayOffsets = new Map<string, number | null>();

function dayOffset(day: number, zone: string): number | null {
  const key = `${day}|${zone}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const at = (ms: number) => {
      try {
        return Date.parse(`${formatted(ms, zone)}Z`) - ms;
      } catch {
        return Number.NaN;
      }
    };
    const first = at(day * DAY_MS);
    offset = first === at((day + 1) * DAY_MS - 1000) && Number.isFinite(first) ? first : null;
    if (dayOffsets.size >= DAY_OFFSETS_MAX) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return offset;
}

/** Local wall time "YYYY-MM-DDTHH:MM:SS" and the zone's offset in minutes at that instant; null for an unknown zone. */
export function localTime(instantMs: number, zone: string): { local: string; offsetMinutes: number } | null {
  const seconds = Math.floor(instantMs / 1000) * 1000;
  const offset = Number.isFinite(seconds) ? dayOffset(Math.floor(instantMs / DAY_MS), zone) : null;
  if (offset !== null) {
    const wall = seconds + offset;
    if (wall >= FOUR_DIGIT_YEARS[0] && wall < FOUR_DIGIT_YEARS[1]) {
      return { local: new Date(wall).toISOString().slice(0, 19), offsetMinutes: Math.round(offset / 60_000) };
    }
  }
  let local: string;
  try {
    local = formatted(instantMs, zone);
  } catch {
    return null;
  }
  const wallMs = Date.parse(`${local}Z`);
  return { local, offsetMinutes: Math.round((wallMs - seconds) / 60_000) };
}

/** A milestone's wall-clock fields (ocean and air): all null when the place or its zone is unknown. */
export interface LocalFields {
  event_local_datetime: string | null;
  utc_offset_minutes: number | null;
  event_timezone: string | null;
}

export function localFields(instantMs: number, zone: string | null): LocalFields {
  const local = zone ? localTime(instantMs, zone) : null;
  return {
    event_local_datetime: local?.local ?? null,
    utc_offset_minutes: local?.offsetMinutes ?? null,
    event_timezone: local ? zone : null,
  };
}

/** The wall-clock fields a webhook payload carries: absent, not null, without a zone (spec, Events). */
export function knownLocalFields(m: LocalFields): KnownLocalTime {
  const { event_local_datetime: local, utc_offset_minutes: offset, event_timezone: zone } = m;
  // localFields sets the three together, so a zone comes with the other two.
  return zone && local !== null && offset !== null
    ? { event_local_datetime: local, utc_offset_minutes: offset, event_timezone: zone }
    : {};
}
