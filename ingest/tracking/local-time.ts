/** Wall-clock rendering of a UTC instant in an IANA zone (Intl only, so it runs anywhere). */

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

/** Local wall time "YYYY-MM-DDTHH:MM:SS" and the zone's offset in minutes at that instant; null for an unknown zone. */
export function localTime(instantMs: number, zone: string): { local: string; offsetMinutes: number } | null {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = formatter(zone).formatToParts(new Date(instantMs));
  } catch {
    return null;
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  const local = `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}`;
  const wallMs = Date.parse(`${local}Z`);
  const seconds = Math.floor(instantMs / 1000) * 1000;
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
export function knownLocalFields(m: LocalFields): Partial<LocalFields> {
  return m.event_timezone
    ? {
        event_local_datetime: m.event_local_datetime,
        utc_offset_minutes: m.utc_offset_minutes,
        event_timezone: m.event_timezone,
      }
    : {};
}
