/** One reading of YYYY-MM-DD dates: the rule as a table, and every place that takes a date agreeing with it. */
import { beforeAll, describe, expect, test } from "bun:test";
import { dateWindow } from "../../api/schedules/params.ts";
import { checkAnnouncement } from "../../api/webhooks/announce.ts";
import { calendarDayMs, isCalendarDate } from "../../common/calendar-date.ts";
import { parseRiverDate } from "../../engine/river/seasonal.ts";
import { parseDateTime } from "../../ingest/airlines/one-record.ts";
import { csResponse } from "../../ingest/sandbox/network/cs-api.ts";
import { type Network, serviceNetwork } from "../../ingest/sandbox/network/network.ts";
import { DEFAULT_EPOCH } from "../../ingest/sandbox/simulate.ts";
import { loadWorld } from "../../ingest/sandbox/world.ts";
import { dateIssue } from "../../ingest/schedules/cs-validate.ts";

const REAL: Array<[string, string]> = [
  ["2026-11-21", "2026-11-21T00:00:00.000Z"],
  ["2028-02-29", "2028-02-29T00:00:00.000Z"],
  ["2000-02-29", "2000-02-29T00:00:00.000Z"],
  ["2026-12-31", "2026-12-31T00:00:00.000Z"],
  ["1970-01-01", "1970-01-01T00:00:00.000Z"],
  // Date.UTC would read year 50 as 1950.
  ["0050-03-01", "0050-03-01T00:00:00.000Z"],
];

const NOT_REAL = [
  "2026-02-30", // Date.UTC and Date.parse roll it over into March
  "2026-02-29",
  "1900-02-29",
  "2026-04-31",
  "2026-13-01",
  "2026-00-10",
  "2026-01-00",
  "2026-1-01",
  "26-01-01",
  " 2026-01-01",
  "2026-01-01 ",
  "2026-01-01T00:00:00Z",
  "2026/01/01",
  "",
];

describe("calendarDayMs", () => {
  test.each(REAL)("%s is real: %s", (text, iso) => {
    expect(new Date(calendarDayMs(text)!).toISOString()).toBe(iso);
    expect(isCalendarDate(text)).toBe(true);
  });

  test.each(NOT_REAL)("%p is refused", (text) => {
    expect(calendarDayMs(text)).toBeNull();
    expect(isCalendarDate(text)).toBe(false);
  });
});

let network: Network;
beforeAll(async () => {
  network = serviceNetwork(await loadWorld());
});
const portSchedule = (date: string) =>
  csResponse(
    new Request(`http://sandbox/?UNLocationCode=SGSIN&date=${date}`),
    network,
    DEFAULT_EPOCH,
    DEFAULT_EPOCH,
    "MAEU",
    "port-schedules",
  );

/** Whether each place that takes a date accepts `text`. */
const takers: Array<[string, (text: string) => boolean]> = [
  ["schedules from/to", (d) => accepts(() => dateWindow({ from: d, to: d }, 0, 1, 1))],
  ["river departure date", (d) => accepts(() => parseRiverDate(d))],
  [
    "announcement effective date",
    (d) => accepts(() => checkAnnouncement({ title: "t", message: "m", effectiveDate: d })),
  ],
  ["carrier schedule field (OpenAPI date)", (d) => dateIssue(d) === null],
  ["airline dateTime's day", (d) => parseDateTime(`${d}T00:00:00Z`) !== null],
  // Date.parse alone took 2026-02-30 here, rolled over into March.
  ["sandbox carriers' schedule queries", (d) => portSchedule(d).status !== 400],
];

function accepts(read: () => unknown): boolean {
  try {
    read();
    return true;
  } catch {
    return false;
  }
}

describe.each(takers)("%s", (_, takes) => {
  test.each([...REAL.map(([d]) => d), ...NOT_REAL.filter((d) => d.trim() === d && d.length === 10)])(
    "agrees with the rule on %s",
    (text) => {
      expect(takes(text)).toBe(isCalendarDate(text));
    },
  );
});
