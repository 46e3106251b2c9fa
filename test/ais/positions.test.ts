import { describe, expect, test } from "bun:test";
import { AisDecoder } from "../../ingest/ais/decoder.ts";
import type { VesselReport } from "../../ingest/ais/encode.ts";
import type { AisMessage } from "../../ingest/ais/messages.ts";
import { FRESHNESS_HOURS, fixTime, MemoryPositionStore } from "../../ingest/ais/positions.ts";
import { heard } from "./fixture.ts";

const T0 = Date.parse("2026-03-01T12:00:30Z");
const MIN = 60_000;
const HOUR = 3_600_000;
const SHIP: VesselReport = { mmsi: 219000001, imo: 9300001, name: "NORDIC STAR", lat: 55.5, lng: 12.5 };

function feed(store: MemoryPositionStore, messages: AisMessage[], at: number): string[] {
  return messages.map((m) => store.update(m, at));
}

describe("MemoryPositionStore", () => {
  test("links MMSI to IMO and name through type 5 and keeps fix time apart from store time", () => {
    const store = new MemoryPositionStore();
    feed(store, heard(SHIP, T0, { statics: true }), T0);
    const fix = T0 + 10 * MIN - 25_000; // the report's UTC second: 12:10:05
    feed(
      store,
      heard({ ...SHIP, sog: 14.2, heading: 90, status: 0, timestamp: fix }, T0 + 10 * MIN),
      T0 + 10 * MIN,
    );
    const view = store.byImo(9300001, T0 + 40 * MIN);
    expect(view).toEqual({
      imo: 9300001,
      mmsi: 219000001,
      name: "NORDIC STAR",
      lat: 55.5,
      lng: 12.5,
      speed_knots: 14.2,
      heading_deg: 90,
      nav_status: "under way using engine",
      position_fix_at: "2026-03-01T12:10:05.000Z",
      position_updated_at: "2026-03-01T12:10:30.000Z",
      position_age_hours: 0.507,
      position_freshness: "live",
    });
    expect(store.byMmsi(219000001, T0)?.name).toBe("NORDIC STAR");
    expect(store.byImo(1234567)).toBeNull();
  });

  test("freshness bands follow FRESHNESS_HOURS; no fix is unknown", () => {
    const store = new MemoryPositionStore();
    feed(store, heard(SHIP, T0, { statics: true }), T0);
    expect(store.byMmsi(SHIP.mmsi, T0)?.position_freshness).toBe("unknown");
    feed(store, heard(SHIP, T0), T0); // no UTC second: the receive time is the fix time
    const at = (h: number) => store.byMmsi(SHIP.mmsi, T0 + h * HOUR)?.position_freshness;
    expect([
      at(0),
      at(FRESHNESS_HOURS.live),
      at(5.9),
      at(FRESHNESS_HOURS.recent),
      at(23.9),
      at(24),
      at(100),
    ]).toEqual(["live", "recent", "recent", "stale", "stale", "outdated", "outdated"]);
    expect(store.byMmsi(SHIP.mmsi, T0 - HOUR)?.position_freshness).toBe("unknown");
  });

  test("a moored or at-anchor claim contradicted by movement is dropped, the position kept", () => {
    const store = new MemoryPositionStore();
    feed(store, heard({ ...SHIP, status: 5, sog: 0 }, T0), T0);
    expect(store.byMmsi(SHIP.mmsi, T0)?.nav_status).toBe("moored");
    feed(store, heard({ ...SHIP, lat: 55.501, status: 1, sog: 6.5 }, T0 + MIN), T0 + MIN);
    expect(store.byMmsi(SHIP.mmsi, T0)).toMatchObject({ nav_status: null, lat: 55.501 });
    // 2.2 km in 10 minutes at "0 knots" while moored.
    feed(store, heard({ ...SHIP, lat: 55.521, status: 5, sog: 0 }, T0 + 11 * MIN), T0 + 11 * MIN);
    expect(store.byMmsi(SHIP.mmsi, T0)).toMatchObject({ nav_status: null, lat: 55.521 });
    feed(store, heard({ ...SHIP, lat: 55.5211, status: 5, sog: 0.1 }, T0 + 20 * MIN), T0 + 20 * MIN);
    expect(store.byMmsi(SHIP.mmsi, T0)?.nav_status).toBe("moored");
  });

  test("implausible jumps are rejected unless the next fix confirms them", () => {
    const store = new MemoryPositionStore();
    feed(store, heard(SHIP, T0), T0);
    // 111 km in 10 minutes: 360 knots.
    expect(feed(store, heard({ ...SHIP, lat: 56.5 }, T0 + 10 * MIN), T0 + 10 * MIN)).toEqual(["implausible"]);
    expect(store.byMmsi(SHIP.mmsi)?.lat).toBe(55.5);
    expect(feed(store, heard({ ...SHIP, lat: 55.51 }, T0 + 20 * MIN), T0 + 20 * MIN)).toEqual(["position"]);
    // A stored outlier: two consistent fixes elsewhere win.
    expect(feed(store, heard({ ...SHIP, lat: 40 }, T0 + 30 * MIN), T0 + 30 * MIN)).toEqual(["implausible"]);
    expect(feed(store, heard({ ...SHIP, lat: 40.01 }, T0 + 40 * MIN), T0 + 40 * MIN)).toEqual(["position"]);
    expect(store.byMmsi(SHIP.mmsi)?.lat).toBe(40.01);
  });

  test("older fixes do not overwrite newer ones", () => {
    const store = new MemoryPositionStore();
    feed(store, heard(SHIP, T0, { tagTime: T0 }), T0);
    expect(feed(store, heard({ ...SHIP, lat: 55.49 }, T0, { tagTime: T0 - MIN }), T0)).toEqual([
      "out-of-order",
    ]);
    expect(store.byMmsi(SHIP.mmsi)?.lat).toBe(55.5);
  });

  test("type 24 and 19 names; base stations and aids are not vessels", () => {
    const store = new MemoryPositionStore();
    const d = new AisDecoder();
    const lines = [
      "!AIVDM,1,1,,A,H3KLehQ=DtddT00000000000000,0*5F", // 24 A: SUOKKI
      "!AIVDM,1,1,,B,403OviQuMGCqWrRO9>E6fE700@GO,0*4D", // 4
    ];
    for (const l of lines) {
      const m = d.push(l, T0);
      if (m) store.update(m);
    }
    expect(store.byMmsi(230108610)?.name).toBe("SUOKKI");
    expect(store.size).toBe(1);
  });
});

describe("fixTime", () => {
  const msg = (second: number | null, tagTime: number | null) =>
    ({
      type: 1,
      second,
      meta: { tags: tagTime === null ? null : { time: tagTime } },
    }) as unknown as AisMessage;

  test("uses the tag block time and the report's UTC second", () => {
    const c = Date.parse("2014-12-10T00:41:53Z");
    expect(new Date(fixTime(msg(51, c), c + HOUR)).toISOString()).toBe("2014-12-10T00:41:51.000Z");
    expect(new Date(fixTime(msg(58, c), c)).toISOString()).toBe("2014-12-10T00:40:58.000Z");
    expect(fixTime(msg(null, c), 0)).toBe(0); // a tag time ahead of reception is not trusted
    expect(fixTime(msg(null, null), 42)).toBe(42);
  });
});
