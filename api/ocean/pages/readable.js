/**
 * Times and names as a person reads them on the shipment page: instants in the place's own time
 * zone ("Tue 8 Dec 2026, 21:00 GMT+4"), a port's wall-clock time as the carrier gives it, and the
 * API's enum values as words ("Customs hold", "Missed connection").
 */

/** An instant in `zone` (an IANA name; UTC without one), e.g. "Tue 8 Dec 2026, 21:00 GMT+4". */
export function instant(iso, zone) {
  if (!iso) return "–";
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  const options = {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  };
  try {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: zone ?? "UTC" }).format(ms);
  } catch {
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" }).format(ms); // a zone this browser lacks
  }
}

/** A wall-clock time "YYYY-MM-DD HH:MM:SS" (already the port's) as "Tue 8 Dec 2026, 21:00". */
export function wallClock(text) {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(text ?? "");
  if (!m) return text ?? "–";
  const [, y, mo, d, hh, mm] = m.map(Number);
  const day = new Intl.DateTimeFormat("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(Date.UTC(y, mo - 1, d));
  return `${day}, ${String(hh).padStart(2, "0")}:${String(mm).padStart(2, "0")}`;
}

/** Words for the enum values the page shows; any other value is its words, first one capitalised. */
const NAMES = {
  container_id: "container",
  bill_of_lading: "bill of lading",
  booking: "booking",
  ais_vessel_position: "AIS vessel position",
  carrier_poll: "carrier poll",
  missed_connection: "Missed connection: the box left a transshipment port on another vessel than planned",
  destination_change: "Destination changed",
};

/** An enum value as words: "customs_hold" -> "Customs hold". */
export function words(value) {
  if (value === null || value === undefined) return "–";
  if (Object.hasOwn(NAMES, value)) return NAMES[value];
  const text = String(value).replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
