/**
 * Golden decodes: gpsd's *.chk (its own JSON decode of each log), libais typeexamples.json and
 * tagblock.json. Only the fields we decode are compared (see ingest/ais/README.md for the rest);
 * gpsd's raw sentinels are mapped to our nulls and units.
 */
import { describe, expect, test } from "bun:test";
import type { AisMessage } from "../../ingest/ais/messages.ts";
import { aisLines, decodeAll } from "./fixture.ts";

type Rec = Record<string, unknown>;
const SUPPORTED = new Set([1, 2, 3, 4, 5, 18, 19, 21, 24, 27]);
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const num = (v: unknown) => Number(v);
const orNull = (v: number) => v || null;
const text = (v: unknown) => String(v).trimEnd() || null;

/** Our field name and the expected value for one gpsd/libais key, or undefined to skip the key. */
function expectation(
  key: string,
  v: unknown,
  rec: Rec,
  libais: boolean,
): [string, unknown, number?] | undefined {
  const type = num(rec.type);
  const scaled = rec.scaled === true;
  const long = type === 27;
  switch (key) {
    case "repeat":
    case "mmsi":
    case "accuracy":
    case "raim":
    case "cs":
    case "display":
    case "dsc":
    case "band":
    case "msg22":
    case "regional":
    case "maneuver":
    case "model":
    case "serial":
      return [key, v];
    case "radio":
      return type === 4 || type <= 3 || type === 18 ? [key, v] : undefined;
    case "assigned":
      return [key, Boolean(v)];
    case "status":
      return ["navStatus", v === 15 ? null : v];
    case "turn":
      if (!scaled) return ["rotRaw", v];
      // gpsd prints scaled turns as text: "n/a", "fastleft"/"fastright" (±127) or "%.2f".
      if (v === "n/a") return ["rot", null];
      if (v === "fastleft" || v === "fastright") return ["rotRaw", v === "fastleft" ? -127 : 127];
      return ["rot", v === null ? null : num(v), 0.01];
    case "speed":
      if (long) return ["sog", v === 63 ? null : v];
      return scaled ? ["sog", v, 1e-3] : ["sog", v === 1023 ? null : num(v) / 10];
    case "course":
      if (long) return ["cog", num(v) >= 360 ? null : v];
      return scaled ? ["cog", num(v) >= 360 ? null : v, 1e-3] : ["cog", num(v) >= 3600 ? null : num(v) / 10];
    case "lon":
    case "lat": {
      const deg = scaled ? num(v) : num(v) / (long ? 600 : 600000);
      const limit = key === "lat" ? 90 : 180;
      return [key, Math.abs(deg) > limit ? null : deg, scaled ? 1e-4 : 1e-9];
    }
    case "heading":
      return [key, num(v) >= 360 ? null : v];
    case "second":
      return type === 4 ? undefined : [key, num(v) >= 60 ? null : v];
    case "timestamp":
      return type === 4 ? ["timestamp", v] : undefined;
    case "epfd":
    case "shiptype":
      return [key, orNull(num(v))];
    case "imo":
      return [key, orNull(num(v))];
    case "ais_version":
      return ["aisVersion", v];
    case "callsign":
    case "shipname":
    case "destination":
    case "name":
      return [key, text(v)];
    case "vendorid":
      // gpsd keeps the pre-1371-4 7-character vendor string; its first 3 characters are our vendor id.
      return ["vendorId", text(String(v).slice(0, 3))];
    case "to_bow":
      return ["toBow", orNull(num(v))];
    case "to_stern":
      return ["toStern", orNull(num(v))];
    case "to_port":
      return ["toPort", orNull(num(v))];
    case "to_starboard":
      return ["toStarboard", orNull(num(v))];
    case "eta":
      return ["eta", v];
    case "draught":
      return scaled ? ["draught", orNull(num(v)), 1e-3] : ["draught", orNull(num(v) / 10)];
    case "dte":
      return [key, Boolean(v)];
    case "gnss":
      // gpsd prints the raw bit; libais prints its negation ("current GNSS position").
      return ["latency", libais ? !v : Boolean(v)];
    case "aid_type":
      return ["aidType", v];
    case "off_position":
      return ["offPosition", v];
    case "virtual_aid":
      return ["virtualAid", v];
    case "partno":
    case "part_num":
      return ["partno", v];
    case "mothership_mmsi":
      return ["mothershipMmsi", v];
    case "tagblock_station":
      return ["tags.source", v];
    case "tagblock_timestamp":
      return ["tags.time", Date.parse(String(v))];
    case "tagblock_group": {
      const g = v as Rec;
      return ["tags.group", `${g.sentence}-${g.groupsize}-${g.id}`];
    }
    default:
      return undefined;
  }
}

/** Our value for a compared field (type 4 time and the ETA in gpsd's string forms). */
function actual(m: AisMessage, field: string, libais: boolean): unknown {
  if (field === "timestamp" && m.type === 4) {
    return `${pad(m.year ?? 0, 4)}-${pad(m.month ?? 0)}-${pad(m.day ?? 0)}T${pad(m.hour ?? 24)}:${pad(m.minute ?? 60)}:${pad(m.second ?? 60)}Z`;
  }
  if (field === "eta" && m.type === 5) {
    const e = m.eta;
    return `${pad(e.month ?? 0)}-${pad(e.day ?? 0)}T${pad(e.hour ?? 24)}:${pad(e.minute ?? 60)}Z`;
  }
  const tags = m.meta.tags;
  if (field === "tags.source") return tags?.source;
  if (field === "tags.time") return tags?.time;
  if (field === "tags.group")
    return tags?.group && `${tags.group.sentence}-${tags.group.size}-${tags.group.id}`;
  const value = (m as unknown as Rec)[field];
  // libais's 6-bit table has '-' for 31 and '`' for 39 where ITU-R M.1371 (and gpsd) have '_' and "'".
  return libais && typeof value === "string" ? value.replaceAll("_", "-").replaceAll("'", "`") : value;
}

/** Mismatch descriptions between one reference record and our decode. */
function diff(rec: Rec, m: AisMessage, libais = false): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(rec)) {
    const e = expectation(key, v, rec, libais);
    if (!e) continue;
    const [field, want, tolerance] = e;
    const got = actual(m, field, libais);
    // A sentence cut inside the radio state: gpsd reads the bits present, we report null.
    if (field === "radio" && got === null) continue;
    const ok =
      tolerance !== undefined && typeof want === "number" && typeof got === "number"
        ? Math.abs(want - got) <= tolerance
        : got === want;
    if (!ok)
      out.push(
        `${rec.type}/${rec.mmsi} ${key}->${field}: want ${JSON.stringify(want)} got ${JSON.stringify(got)}`,
      );
  }
  return out;
}

/**
 * Pairs reference records with our messages in order by (type, mmsi); a reference record with no
 * decode of ours is reported.
 */
function compare(
  records: Rec[],
  decoded: AisMessage[],
  libais = false,
): { mismatches: string[]; missing: string[]; compared: number } {
  const mismatches: string[] = [];
  const missing: string[] = [];
  let cursor = 0;
  let compared = 0;
  const messages = mergeType24(decoded);
  for (const rec of records) {
    // gpsd prints a type 24 once both parts are in (name plus part B), or part A alone.
    const part = rec.type === 24 ? ("shiptype" in rec ? 1 : 0) : undefined;
    const at = messages.findIndex(
      (m, i) =>
        i >= cursor &&
        m.type === rec.type &&
        m.mmsi === rec.mmsi &&
        (part === undefined || (m.type === 24 && m.partno === part)),
    );
    if (at < 0) {
      missing.push(`${rec.type}/${rec.mmsi}`);
      continue;
    }
    cursor = at + 1;
    compared++;
    mismatches.push(...diff(rec, messages[at]!, libais));
  }
  return { mismatches, missing, compared };
}

/** Part B messages with the name from the latest part A of the same MMSI, as gpsd reports them. */
function mergeType24(messages: AisMessage[]): AisMessage[] {
  const names = new Map<number, string | null>();
  return messages.map((m) => {
    if (m.type !== 24) return m;
    if (m.partno === 0) {
      names.set(m.mmsi, m.shipname);
      return m;
    }
    return names.has(m.mmsi) ? ({ ...m, shipname: names.get(m.mmsi) } as AisMessage) : m;
  });
}

/** gpsd's AIS JSON records of a .chk, skipping repeats printed after non-AIS lines. */
function gpsdRecords(chk: string): Rec[] {
  const out: Rec[] = [];
  let previous = "";
  for (const line of aisLines(chk)) {
    if (!line.startsWith("{")) {
      if (line.trim() !== "") previous = line;
      continue;
    }
    const rec = JSON.parse(line) as Rec;
    const echoed = chk.endsWith(".log.chk");
    if (rec.class !== "AIS" || !SUPPORTED.has(num(rec.type))) continue;
    if (echoed && !/^!..VD[MO]/.test(previous)) continue;
    out.push(rec);
  }
  return out;
}

describe("gpsd golden decodes", () => {
  const cases: Array<[string, string]> = [
    ["gpsd/ais-18-27.log", "gpsd/ais-18-27.log.chk"],
    ["gpsd/ais-nmea.log", "gpsd/ais-nmea.log.chk"],
    ["gpsd/ais-raw-messages.log", "gpsd/ais-raw-messages.log.chk"],
    ["gpsd/sample.aivdm", "gpsd/sample.aivdm.ju.chk"],
    ["gpsd/sample.aivdm", "gpsd/sample.aivdm.js.chk"],
  ];
  for (const [log, chk] of cases) {
    test(`${log} matches ${chk}`, () => {
      const records = gpsdRecords(chk);
      const { messages } = decodeAll(aisLines(log));
      const { mismatches, missing, compared } = compare(records, messages);
      expect(mismatches).toEqual([]);
      expect(missing).toEqual([]);
      expect(compared).toBeGreaterThan(0);
    });
  }
});

describe("libais golden decodes", () => {
  const json = (file: string) =>
    aisLines(file)
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Rec);

  test("typeexamples.nmea matches typeexamples.json line by line", () => {
    const lines = aisLines("libais/typeexamples.nmea").filter((l) => l.startsWith("!"));
    const records = json("libais/typeexamples.json");
    expect(records).toHaveLength(lines.length);
    const mismatches: string[] = [];
    let compared = 0;
    records.forEach((rec, i) => {
      if (!SUPPORTED.has(num(rec.type))) return;
      const { messages } = decodeAll([lines[i]!]);
      expect(messages).toHaveLength(1);
      mismatches.push(...diff(rec, messages[0]!, true));
      compared++;
    });
    expect(mismatches).toEqual([]);
    expect(compared).toBe(9);
  });

  test("tagblock.nmea matches tagblock.json (station, time, group)", () => {
    const { messages } = decodeAll(aisLines("libais/tagblock.nmea"));
    const { mismatches, missing, compared } = compare(json("libais/tagblock.json"), messages, true);
    expect(mismatches).toEqual([]);
    expect(missing).toEqual([]);
    expect(compared).toBe(4);
  });
});
