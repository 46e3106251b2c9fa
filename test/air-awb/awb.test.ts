/**
 * Air waybill numbers: the mod-7 check digit, the spellings parseAwb accepts, the hint on a typo,
 * and the prefix table read from ../shared/data/air/awb-prefixes.csv. Expected numbers below are
 * worked by hand: the check digit is the first seven serial digits mod 7 (1234567 = 7 x 176366 + 5).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import {
  AWB_PREFIXES_FILE,
  AwbPrefixes,
  awbCheckDigit,
  formatAwb,
  parseAwb,
  withAwbCheckDigit,
} from "../../ingest/airlines/awb.ts";

describe("check digit", () => {
  test.each([
    ["1234567", 5], // 7 x 176366 = 1234562
    ["0000000", 0],
    ["0000006", 6],
    ["0000007", 0],
    ["1111111", 1], // 7 x 158730 = 1111110
    ["7654321", 3], // 7 x 1093474 = 7654318
    ["9999999", 2], // 7 x 1428571 = 9999997
  ])("%s -> %d", (first7, digit) => {
    expect(awbCheckDigit(first7)).toBe(digit);
    expect(parseAwb(`020${first7}${digit}`).ok).toBe(true);
  });

  test("refuses anything but seven digits", () => {
    for (const bad of ["123456", "12345678", "12345a7", ""]) expect(() => awbCheckDigit(bad)).toThrow();
  });
});

describe("parsing", () => {
  test.each([
    "020-12345675",
    "02012345675",
    "020 12345675",
    " 020-1234 5675 ",
    "020 - 1234 - 5675",
    "020\t12345675",
    "020–12345675", // en dash, as word processors write it
    "020—12345675", // em dash
    "020\u00a012345675", // no-break space
  ])("%j reads as 02012345675", (text) => {
    expect(parseAwb(text)).toEqual({ ok: true, awb: "02012345675", prefix: "020", serial: "12345675" });
  });

  test.each([
    ["", "empty"],
    ["020", "a prefix alone"],
    ["020-1234567", "10 digits"],
    ["020-123456756", "12 digits"],
    ["O20-12345675", "letter O for zero"],
    ["020.12345675", "dot separator"],
    ["020/12345675", "slash separator"],
    ["LH 020-12345675", "airline code in front"],
    ["٠٢٠١٢٣٤٥٦٧٥", "Arabic-Indic digits"],
    ["０２０１２３４５６７５", "full-width digits"],
    ["+02012345675", "a sign"],
    [`020-12345675${" ".repeat(60)}`, "longer than 64 characters, even if only spaces"],
    ["9".repeat(100_000), "huge"],
  ])("%j is refused as format (%s)", (text) => {
    const r = parseAwb(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe("format");
    expect(r.message).toMatch(/11 digits/);
  });

  test("formatAwb prints prefix-serial", () => {
    expect(formatAwb("02012345675")).toBe("020-12345675");
  });

  test("withAwbCheckDigit completes prefix + seven digits", () => {
    expect(withAwbCheckDigit("1761234567")).toBe("17612345675");
    expect(() => withAwbCheckDigit("176123456")).toThrow();
  });
});

describe("typos and hints", () => {
  // [typed, kind of typo, expected check digit, suggestion, the one valid adjacent swap or null]
  test.each([
    ["020-12345674", "check digit mistyped (5 -> 4)", 5, "02012345675", "02012346574"],
    ["020-12345679", "check digit that can never be (7, 8, 9)", 5, "02012345675", null],
    ["020-12845675", "serial digit mistyped (3 -> 8)", 4, "02012845674", "02012485675"],
    ["020-12345657", "check digit swapped with the digit before it", 3, "02012345653", "02012345675"],
    ["020-00000007", "check digit 0 swapped with a 7 before it", 0, "02000000000", "02000000070"],
    // Several swaps give a valid number, so none is offered.
    ["020-13245675", "serial digits swapped (2 <-> 3)", 6, "02013245676", null],
    ["020-12354675", "serial digits swapped (4 <-> 5)", 2, "02012354672", null],
    ["176-12345670", "another prefix, same serial", 5, "17612345675", "17612345760"],
  ] as const)("%s (%s)", (typed, _kind, checkDigit, suggestion, swapped) => {
    const r = parseAwb(typed);
    if (r.ok || r.reason !== "check_digit")
      throw new Error(`expected a check-digit refusal: ${JSON.stringify(r)}`);
    expect(r.awb).toBe(typed.replace("-", ""));
    expect(r.prefix).toBe(typed.slice(0, 3));
    expect(r.hint).toEqual({ checkDigit, suggestion, swapped });
    expect(r.message).toContain(`check digit should be ${checkDigit}`);
    expect(r.message).toContain(`did you mean ${formatAwb(suggestion)}`);
    if (swapped) expect(r.message).toContain(formatAwb(swapped));
    // Every number offered is itself valid.
    for (const s of [suggestion, swapped]) if (s) expect(parseAwb(s).ok).toBe(true);
  });

  // What mod 7 cannot see: a digit replaced by one 7 away, adjacent digits 7 apart swapped.
  test.each([
    ["020-12345675", "020-12345605", "7th digit 7 -> 0"],
    ["020-12345675", "020-82345675", "1st digit 1 -> 8"],
    ["020-01800002", "020-08100002", "1 and 8 swapped"],
    ["020-00000700", "020-00000070", "6th and 7th digits 7 <-> 0 swapped"],
  ])("%s and %s both pass (%s)", (a, b) => {
    expect(parseAwb(a).ok).toBe(true);
    expect(parseAwb(b).ok).toBe(true);
  });

  const checkedDigits = fc.stringMatching(/^\d{7}$/);
  const prefix = fc.stringMatching(/^\d{3}$/);
  const valid = fc.tuple(prefix, checkedDigits).map(([p, d]) => withAwbCheckDigit(`${p}${d}`));
  const adjacentSwap = (s: string, i: number) => `${s.slice(0, i)}${s[i + 1]}${s[i]}${s.slice(i + 2)}`;

  test("every written form of a valid AWB parses to the same number", () => {
    const sep = fc.constantFrom("", " ", "-", " - ", "\t");
    fc.assert(
      fc.property(valid, sep, sep, (awb, a, b) => {
        const text = `${awb.slice(0, 3)}${a}${awb.slice(3, 7)}${b}${awb.slice(7)}`;
        expect(parseAwb(text)).toEqual({ ok: true, awb, prefix: awb.slice(0, 3), serial: awb.slice(3) });
      }),
      { numRuns: 300 },
    );
  });

  test("a single mistyped digit is caught unless it is 7 away; the hint is valid and one step away", () => {
    fc.assert(
      fc.property(valid, fc.integer({ min: 3, max: 10 }), fc.integer({ min: 1, max: 9 }), (awb, at, plus) => {
        const typed = `${awb.slice(0, at)}${(Number(awb[at]) + plus) % 10}${awb.slice(at + 1)}`;
        const r = parseAwb(typed);
        // The check digit itself has one right value; a checked digit 7 away keeps the residue.
        if (at < 10 && Math.abs(Number(typed[at]) - Number(awb[at])) === 7) {
          expect(r.ok).toBe(true);
          return;
        }
        if (r.ok || r.reason !== "check_digit") throw new Error(`${typed} not refused on its check digit`);
        expect(parseAwb(r.hint.suggestion).ok).toBe(true);
        expect(r.hint.suggestion.slice(0, 10)).toBe(typed.slice(0, 10));
        // A mistyped check digit: the suggestion is exactly the number meant.
        if (at === 10) expect(r.hint.suggestion).toBe(awb);
        if (r.hint.swapped) {
          expect(parseAwb(r.hint.swapped).ok).toBe(true);
          const swaps = [3, 4, 5, 6, 7, 8, 9].map((i) => adjacentSwap(typed, i));
          expect(swaps).toContain(r.hint.swapped);
        }
      }),
      { numRuns: 500 },
    );
  });

  test("adjacent digits swapped are caught unless they are 7 apart (never with the check digit)", () => {
    fc.assert(
      fc.property(valid, fc.integer({ min: 3, max: 9 }), (awb, at) => {
        const typed = adjacentSwap(awb, at);
        const gap = Math.abs(Number(awb[at]) - Number(awb[at + 1]));
        // A check digit is 0 to 6, so a 7 or more moved into its place never passes.
        expect(parseAwb(typed).ok).toBe(gap === 0 || (gap === 7 && at < 9));
      }),
      { numRuns: 500 },
    );
  });
});

describe("prefix table", () => {
  const csvPath = join(sourcesDirFrom(), AWB_PREFIXES_FILE);

  test("loads every row of the shared table", async () => {
    const table = await AwbPrefixes.load(sourcesDirFrom());
    const lines = readFileSync(csvPath, "utf8").split(/\r?\n/).filter(Boolean);
    expect(table.airlines().length).toBe(lines.length - 1);
    const prefixes = table.airlines().map((a) => a.prefix);
    expect(prefixes).toEqual([...prefixes].sort());
  });

  test.each([
    ["020", { prefix: "020", iata: "LH", icao: "GEC", name: "Lufthansa Cargo" }],
    ["176", { prefix: "176", iata: "EK", icao: "UAE", name: "Emirates" }],
    ["406", { prefix: "406", iata: "5X", icao: "UPS", name: "UPS Airlines" }],
    ["055", { prefix: "055", iata: "AZ", icao: "ITY", name: "ITA Airways (ex Alitalia)" }],
    ["000", null],
    ["20", null],
    ["02012345675", null], // a whole AWB is not a prefix
  ])("%s -> %j", async (prefix, airline) => {
    expect((await AwbPrefixes.load()).airline(prefix)).toEqual(airline);
  });

  test("quoted names keep their commas", () => {
    const t = AwbPrefixes.fromCsv('awb_prefix,iata,icao,airline\r\n123,XY,XYZ,"Cargo, Ltd"\r\n');
    expect(t.airline("123")?.name).toBe("Cargo, Ltd");
  });

  test.each([
    ["20,LH,GEC,Lufthansa", /prefix "20"/],
    ["020,L,GEC,Lufthansa", /iata "L"/],
    ["020,LH,G3C,Lufthansa", /icao "G3C"/],
    ["020,LH,GEC,", /no airline name/],
    ["020,LH,GEC,Lufthansa\n020,LX,SWR,Swiss", /listed twice/],
  ])("a broken row stops the load: %j", (rows, message) => {
    expect(() => AwbPrefixes.fromCsv(`awb_prefix,iata,icao,airline\n${rows}\n`)).toThrow(message);
  });
});
