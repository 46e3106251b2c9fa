import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { AisDecoder } from "../../ingest/ais/decoder.ts";
import { encodePosition, encodeStatic, type VesselReport } from "../../ingest/ais/encode.ts";
import type { AisMessage } from "../../ingest/ais/messages.ts";
import { checksum, hex2 } from "../../ingest/ais/nmea.ts";
import { aisLines, decodeAll, REAL_LOGS } from "./fixture.ts";

const TYPE5 = [
  "!AIVDM,2,1,9,B,55R3Vn82=ILTQ3KKS>1<D60Dq@E918U<F222221J1`?164vc03S1CCAD,0*2A",
  "!AIVDM,2,2,9,B,`88888888888880,2*76",
];

/** Independent re-check of what the decoder must have verified: framing and checksum. */
function sentenceIsValid(line: string): boolean {
  // The decoder skips leading control characters and spaces, as here.
  const m = /^(?:\\[^\\]*\\)?[!$]([A-Z]{2}VD[MO],[^*]*)\*([0-9A-Fa-f]{2})/.exec(
    line.replace(/^[^!-\uffff]+/, ""),
  );
  if (!m) return false;
  let x = 0;
  for (const c of m[1]!) x ^= c.charCodeAt(0);
  return x === Number.parseInt(m[2]!, 16);
}

const realSentences = REAL_LOGS.flatMap(aisLines).filter((l) => /!..VD[MO]/.test(l));

const sign = (body: string) => `!${body}*${hex2(checksum(body))}`;

function vessel(i: number): VesselReport {
  return {
    mmsi: 211000000 + i,
    imo: 9000000 + i,
    name: `VESSEL ${i}`,
    callsign: `CALL${i}`,
    shiptype: 70,
    destination: `PORT ${i}`,
    draught: 5 + i / 10,
  };
}

describe("AisDecoder", () => {
  test("counts garbage and keeps going", () => {
    const d = new AisDecoder();
    const lines = [
      "",
      "# comment",
      "$GPGGA,184353.07,1929.045,S,02410.506,E,1,04,2.6,100.00,M,-33.9,M,,0000*6D",
      "IamNotAnAisMessage1111",
      "!AIVDM,1,1,,A,13HOI:0P0000VOHLCnHQKwvL05Ip,0*24", // checksum off by one
      "!AIVDM,1,1,,B,15N4cJ005Jrek0H@9nDW5608EP,013", // no checksum
      "!AIVDM,1,1,,B,,0*25", // empty payload
      sign("AIVDM,1,1,,A,13HOI:0P0000VOH~CnHQKwvL05Ip,0"), // '~' is outside the armoring alphabet
      "!AIVDM,1,1,,A,13HOI:0P0000VOHLCnHQKwvL05Ip,0*23",
    ];
    const out = lines.map((l) => d.push(l, 0));
    expect(out.slice(0, -1).every((m) => m === null)).toBe(true);
    expect(out.at(-1)).toMatchObject({ type: 1, mmsi: 227006760 });
    expect(d.stats).toMatchObject({
      blank: 2,
      notAis: 2,
      badChecksum: 1,
      malformed: 2,
      badPayload: 1,
      messages: 1,
    });
  });

  test("a bad tag block checksum drops the metadata, not the checksummed sentence", () => {
    const d = new AisDecoder();
    const m = d.push("\\g:1-2-73874*A\\!AIVDM,1,1,,A,15MrVH0000KH<:V:NtBLoqFP2H9:,0*2F", 5);
    expect(m).toMatchObject({ mmsi: 366913120, meta: { tags: null, receivedAt: 5 } });
    expect(d.stats.badTagBlocks).toBe(1);
  });

  test("tag block time and source", () => {
    const d = new AisDecoder();
    const m = d.push(
      "\\s:rORBCOMM104,q:u,c:1418172113,T:2014-12-10 00.41.53*55\\!AIVDM,1,1,,B,13F?Vv700<DJuLEtvep`iToV0<00,0*78",
    );
    expect(m?.meta.tags).toMatchObject({ source: "rORBCOMM104", time: 1418172113000 });
  });

  test("interleaved multi-part messages reassemble by sequence id and channel", () => {
    const a = encodeStatic(vessel(1), { seqId: 3, channel: "A" });
    const b = encodeStatic(vessel(2), { seqId: 3, channel: "B" });
    const c = encodeStatic(vessel(3), { seqId: 4, channel: "A" });
    const { messages } = decodeAll([a[0]!, b[0]!, c[0]!, b[1]!, a[1]!, c[1]!]);
    expect(messages.map((m) => m.type === 5 && m.shipname)).toEqual(["VESSEL 2", "VESSEL 1", "VESSEL 3"]);
  });

  test("out-of-order, truncated or mismatched parts never decode", () => {
    const a = encodeStatic(vessel(1), { seqId: 1 });
    const b = encodeStatic(vessel(2), { seqId: 1 });
    expect(decodeAll([a[1]!, a[0]!]).messages).toEqual([]);
    // a's part 1 is superseded by b's: only b decodes, never a[0] + b[1].
    const { messages, decoder } = decodeAll([a[0]!, b[0]!, b[1]!, a[1]!]);
    expect(messages.map((m) => m.mmsi)).toEqual([211000002]);
    expect(decoder.stats.fragmentsDropped).toBe(2);
  });

  test("different tag block groups on the same sequence id do not join", () => {
    const a = encodeStatic(vessel(1), { seqId: 1 });
    const tag = (g: string) => `\\g:${g}*${hex2(checksum(`g:${g}`))}\\`;
    expect(decodeAll([tag("1-2-7") + a[0], tag("2-2-8") + a[1]]).messages).toEqual([]);
    expect(decodeAll([tag("1-2-7") + a[0], tag("2-2-7") + a[1]]).messages).toHaveLength(1);
  });

  test("stale fragments are evicted and memory stays bounded", () => {
    const d = new AisDecoder({ maxFragmentAgeMs: 1000, maxPending: 50 });
    d.push(TYPE5[0]!, 0);
    expect(d.push(TYPE5[1]!, 5000)).toBeNull();
    expect(d.stats.fragmentsEvicted).toBe(1);
    for (let i = 0; i < 1000; i++) {
      d.push(
        encodeStatic(vessel(i), { seqId: i % 10, channel: i % 2 ? "A" : "B" })[0]!.replace(",A,", `,${i},`),
        6000,
      );
    }
    expect(d.pendingCount).toBeLessThanOrEqual(50);
  });

  test("a type 5 decodes with its parts in order", () => {
    const { messages } = decodeAll(TYPE5);
    expect(messages[0]).toMatchObject({
      type: 5,
      mmsi: 371255000,
      imo: 9266633,
      callsign: "HP6683",
      shipname: "SEA ENTERPRISE",
      destination: "LEMMER",
      draught: 1.4,
      eta: { month: 3, day: 29, hour: 11, minute: 0 },
      meta: { sentences: 2, channel: "B" },
    });
  });
});

describe("AisDecoder properties", () => {
  const bytesLine = fc.uint8Array({ maxLength: 120 }).map((b) => String.fromCharCode(...b));
  const printableLine = fc
    .array(fc.integer({ min: 32, max: 126 }), { maxLength: 120 })
    .map((c) => String.fromCharCode(...c));
  const sentenceish = fc
    .tuple(
      fc.constantFrom("!AIVDM,1,1,,A,", "!AIVDM,2,1,3,B,", "!AIVDM,2,2,3,B,", "\\c:1*00\\!AIVDO,1,1,,,"),
      printableLine,
    )
    .map(([a, b]) => a + b);

  test("random bytes and printable lines never throw and never yield a message without a valid sentence", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(bytesLine, printableLine, sentenceish), { maxLength: 40 }), (lines) => {
        const d = new AisDecoder();
        for (const line of lines) {
          const m = d.push(line, 0);
          if (m) expect(sentenceIsValid(line)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  test("corrupted real sentences decode only when they pass the checksum, each on its own", () => {
    const corrupt = fc
      .tuple(
        fc.constantFrom(...realSentences),
        fc.nat(),
        fc.integer({ min: 0, max: 127 }),
        fc.integer({ min: 0, max: 2 }),
      )
      .map(([line, at, code, op]) => {
        const i = at % (line.length + 1);
        if (op === 0) return line.slice(0, i); // truncated
        if (op === 1) return line.slice(0, i) + String.fromCharCode(code) + line.slice(i + 1);
        return line.slice(0, i) + line.slice(i + 1);
      });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(corrupt, fc.constantFrom(...realSentences)), { maxLength: 60 }),
        (lines) => {
          const d = new AisDecoder();
          for (const line of lines) {
            const m = d.push(line, 0);
            if (!m) continue;
            expect(sentenceIsValid(line)).toBe(true);
            // A single-sentence decode depends on its own line only: nothing leaks in from earlier lines.
            if (m.meta.sentences === 1) expect(new AisDecoder().push(line, 0)).toEqual(m);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test("shuffled, interleaved and truncated multi-part messages never mix parts", () => {
    const messages = fc.uniqueArray(fc.integer({ min: 0, max: 19 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(messages, fc.infiniteStream(fc.nat()), fc.nat({ max: 5 }), (keys, rand, drops) => {
        // Distinct (sequence id, channel) per message: the only key AIS itself offers.
        const originals = keys.map((k) => ({
          v: vessel(k),
          parts: encodeStatic(vessel(k), { seqId: k % 10, channel: k < 10 ? "A" : "B" }),
        }));
        const lines = originals.flatMap((o) => o.parts);
        const r = rand[Symbol.iterator]();
        for (let i = lines.length - 1; i > 0; i--) {
          const j = r.next().value! % (i + 1);
          [lines[i], lines[j]] = [lines[j]!, lines[i]!];
        }
        for (let k = 0; k < drops && lines.length > 0; k++) lines.splice(r.next().value! % lines.length, 1);
        const { messages: decoded } = decodeAll(lines);
        for (const m of decoded as AisMessage[]) {
          const o = originals.find((x) => x.v.mmsi === m.mmsi);
          expect(o).toBeDefined();
          expect(m).toMatchObject({
            type: 5,
            imo: o!.v.imo,
            shipname: o!.v.name,
            destination: o!.v.destination,
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  test("in-order interleavings of distinct keys always decode every message", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 19 }), { minLength: 1, maxLength: 10 }),
        (keys) => {
          const parts = keys.map((k) =>
            encodeStatic(vessel(k), { seqId: k % 10, channel: k < 10 ? "A" : "B" }),
          );
          const lines = [...parts.map((p) => p[0]!), ...parts.map((p) => p[1]!)];
          expect(decodeAll(lines).messages.map((m) => m.mmsi)).toEqual(keys.map((k) => 211000000 + k));
        },
      ),
    );
  });

  test("type 1 reports round-trip through the encoder", () => {
    const report = fc.record({
      mmsi: fc.integer({ min: 1, max: 999999999 }),
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
      sog: fc.option(fc.double({ min: 0, max: 102, noNaN: true })),
      cog: fc.option(fc.double({ min: 0, max: 359.9, noNaN: true })),
      heading: fc.option(fc.integer({ min: 0, max: 359 })),
      status: fc.option(fc.integer({ min: 0, max: 14 })),
      timestamp: fc.option(fc.integer({ min: 0, max: 2e12 })),
    });
    fc.assert(
      fc.property(report, (v) => {
        const m = new AisDecoder().push(encodePosition(v), 0);
        expect(m?.type).toBe(1);
        if (m?.type !== 1) return;
        expect(m.mmsi).toBe(v.mmsi);
        expect(Math.abs(m.lat! - v.lat)).toBeLessThanOrEqual(1 / 1200000 + 1e-12);
        expect(Math.abs(m.lon! - v.lng)).toBeLessThanOrEqual(1 / 1200000 + 1e-12);
        if (v.sog === null) expect(m.sog).toBeNull();
        else expect(Math.abs(m.sog! - v.sog)).toBeLessThanOrEqual(0.05 + 1e-9);
        if (v.cog === null) expect(m.cog).toBeNull();
        else expect(Math.abs(m.cog! - v.cog)).toBeLessThanOrEqual(0.05 + 1e-9);
        expect(m.heading).toBe(v.heading);
        expect(m.navStatus).toBe(v.status);
        expect(m.second).toBe(v.timestamp === null ? null : new Date(v.timestamp).getUTCSeconds());
      }),
    );
  });

  test("type 5 static data round-trips through the encoder", () => {
    const text = (n: number) => fc.stringMatching(new RegExp(`^[A-Z0-9][A-Z0-9 ]{0,${n - 2}}[A-Z0-9]$`));
    fc.assert(
      fc.property(
        fc.record({
          mmsi: fc.integer({ min: 1, max: 999999999 }),
          imo: fc.integer({ min: 1000000, max: 9999999 }),
          name: text(20),
          callsign: text(7),
          destination: text(20),
          shiptype: fc.integer({ min: 1, max: 99 }),
          draught: fc.integer({ min: 1, max: 255 }).map((d) => d / 10),
        }),
        fc.nat({ max: 9 }),
        (v, seqId) => {
          const lines = encodeStatic(v, { seqId, time: 1_700_000_000_000, source: "sandbox" });
          const [m] = decodeAll(lines).messages;
          const { name, ...same } = v;
          expect(m).toMatchObject({ type: 5, shipname: name, ...same });
          expect(m?.meta.tags).toMatchObject({ source: "sandbox", time: 1_700_000_000_000 });
        },
      ),
    );
  });
});
