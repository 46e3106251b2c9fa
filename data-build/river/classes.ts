/**
 * River class codes (edge_class): 0 uncurated / unknown, 1-3 CEMT I-III, 4 CEMT IV, 5 Va, 6 Vb,
 * 7 VIa, 8 VIb, 9 VIc, 10 VII, 11 seagoing. The curated table gives CEMT classes in Europe and
 * descriptive classes elsewhere; the table below (docs/river-network.md) maps each to a code.
 * A range ("Va-VIb", "II-III") takes its lower end: the whole stretch must carry the vessel.
 */
import type { Stretch } from "./inputs.ts";

export const CLASS = {
  unknown: 0,
  I: 1,
  II: 2,
  III: 3,
  IV: 4,
  Va: 5,
  Vb: 6,
  VIa: 7,
  VIb: 8,
  VIc: 9,
  VII: 10,
  seagoing: 11,
} as const;

/** Routing avoids classes below this (CEMT IV, 9 ft in the US). */
export const MIN_PREFERRED_CLASS = CLASS.IV;

const ROMAN: Record<string, number> = {
  I: CLASS.I,
  IA: CLASS.I,
  IB: CLASS.I,
  II: CLASS.II,
  III: CLASS.III,
  IV: CLASS.IV,
  V: CLASS.Va,
  VA: CLASS.Va,
  VB: CLASS.Vb,
  VI: CLASS.VIa,
  VIA: CLASS.VIa,
  VIB: CLASS.VIb,
  VIC: CLASS.VIc,
  VII: CLASS.VII,
};

/**
 * Descriptive classes by leading word. Chinese classes are by vessel tonnage (GB 50139: I 3,000 t,
 * II 2,000 t, III 1,000 t, IV 500 t), matched to the CEMT class of that tonnage; NW-1 carries
 * 1,500-2,000 t vessels (Va), NW-2 is shallower (IV); UDWS is built for 5,000 t river-sea ships
 * (Vb); the Hidrovia runs Vb-size pushed convoys; "regional" freight routes are taken as IV (the
 * table lists them as barge routes), "regional (limited)" as III.
 */
const DESCRIPTIVE: Array<[RegExp, number]> = [
  [/^seagoing|^river-sea|^seaway/i, CLASS.seagoing],
  [/^udws/i, CLASS.Vb],
  [/^nw-1/i, CLASS.Va],
  [/^nw-2/i, CLASS.IV],
  [/^hidrovia/i, CLASS.Vb],
  [/^regional \(limited\)/i, CLASS.III],
  [/^regional/i, CLASS.IV],
];

const CHINESE: Record<number, number> = { 1: CLASS.Va, 2: CLASS.Va, 3: CLASS.IV, 4: CLASS.III };

/** Class code of a curated class string (plus US channel depth, and region for Chinese classes). */
export function classCode(cemt: string, usDepthFt: number | null, region = ""): number {
  const s = cemt.trim();
  const roman = /^(VII|VI[ABC]?|V[AB]?|IV|III|II|I[AB]?)\b/i.exec(s.replace(/^(\S+?)-\S+/, "$1"));
  if (roman) {
    const key = roman[1]!.toUpperCase();
    const chinese = region === "China" ? { I: 1, II: 2, III: 3, IV: 4 }[key.replace(/[AB]$/, "")] : undefined;
    const code = chinese ? CHINESE[chinese]! : (ROMAN[key] ?? CLASS.unknown);
    // A stated tonnage below CEMT IV's 1,000 t wins over the label ("IV (300-500 t)").
    const tonnes = /\(([\d,]+)(?:-([\d,]+))? t\)/.exec(s);
    const top = tonnes ? Number((tonnes[2] ?? tonnes[1]!).replace(/,/g, "")) : Infinity;
    return top < 1_000 ? Math.min(code, CLASS.III) : code;
  }
  for (const [re, code] of DESCRIPTIVE) if (re.test(s)) return code;
  if (usDepthFt !== null) return usDepthFt >= 9 ? CLASS.IV : CLASS.III;
  return CLASS.unknown;
}

export const stretchClass = (s: Stretch): number => classCode(s.cemtClass, s.usDepthFt, s.region);

/** The class label shown for a waterway: the curated class, else the US project depth. */
export function classLabel(s: Stretch): string {
  if (s.cemtClass !== "") return s.cemtClass;
  return s.usDepthFt !== null ? `${s.usDepthFt} ft` : "";
}
