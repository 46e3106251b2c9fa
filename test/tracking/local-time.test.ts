/**
 * Wall-clock rendering of milestones: localTime reuses a zone's offset over a UTC day, so it is
 * checked at the edges where offsets move (DST days, half- and quarter-hour zones) against hand-read
 * values and, minute by minute over transition weeks, against Intl's own formatting of each instant.
 */
import { describe, expect, test } from "bun:test";
import { localFields, localTime } from "../../ingest/tracking/local-time.ts";

const ROWS: Array<[zone: string, instant: string, local: string | null, offsetMinutes: number | null]> = [
  ["Europe/Amsterdam", "2026-03-29T00:59:59.999Z", "2026-03-29T01:59:59", 60],
  ["Europe/Amsterdam", "2026-03-29T01:00:00.000Z", "2026-03-29T03:00:00", 120],
  ["Europe/Amsterdam", "2026-10-25T00:59:59.000Z", "2026-10-25T02:59:59", 120],
  ["Europe/Amsterdam", "2026-10-25T01:00:00.000Z", "2026-10-25T02:00:00", 60],
  ["Australia/Lord_Howe", "2026-04-04T14:59:59.000Z", "2026-04-05T01:59:59", 660],
  ["Australia/Lord_Howe", "2026-04-04T15:00:00.000Z", "2026-04-05T01:30:00", 630],
  ["America/St_Johns", "2026-07-01T12:00:00.000Z", "2026-07-01T09:30:00", -150],
  ["Pacific/Chatham", "2026-01-15T00:00:00.000Z", "2026-01-15T13:45:00", 825],
  ["Asia/Kolkata", "1999-12-31T18:29:59.000Z", "1999-12-31T23:59:59", 330],
  ["Nowhere/Else", "2026-01-01T00:00:00.000Z", null, null],
];

describe("localTime at offset changes", () => {
  test.each(ROWS)("%s at %s", (zone, instant, local, offsetMinutes) => {
    const got = localTime(Date.parse(instant), zone);
    expect(got).toEqual(local === null ? null : { local, offsetMinutes: offsetMinutes! });
  });
});

/** Intl's wall time of the instant, formatted on its own (no reuse across instants). */
function intlLocal(instantMs: number, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instantMs));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}:${get("second")}`;
}

const WEEKS: Array<[zone: string, from: string]> = [
  ["Europe/Amsterdam", "2026-03-27T00:00:00Z"],
  ["America/New_York", "2026-10-30T00:00:00Z"],
  ["Australia/Lord_Howe", "2026-04-02T00:00:00Z"],
  ["America/Santiago", "2026-04-02T00:00:00Z"],
  ["Africa/Casablanca", "2026-02-13T00:00:00Z"],
];

describe("localTime agrees with Intl minute by minute over a transition week", () => {
  test.each(WEEKS)("%s from %s", (zone, from) => {
    const start = Date.parse(from);
    const differing: string[] = [];
    // Every 61.333 s, so the seconds and milliseconds vary too.
    for (let t = start; t < start + 7 * 86_400_000; t += 61_333) {
      const got = localFields(t, zone);
      const wall = intlLocal(t, zone);
      const offset = Math.round((Date.parse(`${wall}Z`) - Math.floor(t / 1000) * 1000) / 60_000);
      if (got.event_local_datetime !== wall || got.utc_offset_minutes !== offset) {
        differing.push(`${new Date(t).toISOString()}: ${got.event_local_datetime} ${got.utc_offset_minutes}`);
      }
    }
    expect(differing).toEqual([]);
  });
});
