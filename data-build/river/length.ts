/**
 * Channel length. Natural Earth 1:10m lines and the hand-digitised canals are generalised: they
 * cut the bends a barge sails, so their km fall short of the published river kilometres. Each
 * geometry source gets one factor, the median of published km / graph km over the curated
 * stretches of length-calibration.csv that lie (>= MIN_SOURCE_SHARE of their km) on that source;
 * every edge of the source is lengthened by it (docs/river-network.md, "Channel length").
 * Sources without calibration rows keep their drawn length: WDB II (no stretch lies on it), lake
 * crossings (open water is crossed straight) and links (straight stand-ins).
 *
 * The table is imported as text, so the build's code version covers it. Stretches on the five
 * real-world test routes (test/distance-river/real-world.test.ts) are left out of it on purpose:
 * the check stays independent of the factor.
 */
import { median } from "../../common/median.ts";
import { csvRecords } from "../../formats/csv.ts";
import type { LineSource } from "./inputs.ts";
import calibrationCsv from "./length-calibration.csv" with { type: "text" };
import type { RiverNet } from "./noding.ts";
import type { StretchMatch } from "./stretches.ts";

export const LENGTH_CALIBRATION_CSV: string = calibrationCsv;
/** A stretch calibrates the source holding at least this share of its km. */
export const MIN_SOURCE_SHARE = 0.9;
const MI_KM = 1.609344;

export interface CalibrationRow {
  id: string;
  publishedKm: number;
  basis: string;
}

export function parseCalibration(csv = LENGTH_CALIBRATION_CSV): CalibrationRow[] {
  return csvRecords(csv).map((r) => {
    const value = Number(r.published);
    const unit = r.unit ?? "";
    if (!(value > 0) || (unit !== "km" && unit !== "mi"))
      throw new Error(`length-calibration.csv ${r.id}: published ${r.published} ${unit} is not a length`);
    return { id: r.id ?? "", publishedKm: unit === "mi" ? value * MI_KM : value, basis: r.basis ?? "" };
  });
}

export interface CalibrationUse extends CalibrationRow {
  source: LineSource;
  graphKm: number;
  ratio: number;
  /** False when the stretch is not on one source (share below MIN_SOURCE_SHARE). */
  used: boolean;
}

export interface LengthCalibration {
  factors: Record<LineSource, number>;
  rows: CalibrationUse[];
}

/** Factors per source from the stretches' graph km (before any factor); two decimals. */
export function calibrateLengths(rows: CalibrationRow[], matches: StretchMatch[]): LengthCalibration {
  const byId = new Map(matches.map((m) => [m.id, m]));
  const uses = rows.map((r): CalibrationUse => {
    const m = byId.get(r.id);
    if (!m) throw new Error(`length-calibration.csv: ${r.id} is no waterways.csv stretch`);
    return {
      ...r,
      source: m.source,
      graphKm: m.km,
      ratio: m.km > 0 ? Math.round((r.publishedKm / m.km) * 1000) / 1000 : 0,
      used: m.km > 0 && m.sourceShare >= MIN_SOURCE_SHARE && m.source !== "link",
    };
  });
  const factors: Record<LineSource, number> = { ne: 1, wdb: 1, canal: 1, lake: 1, link: 1 };
  for (const source of Object.keys(factors) as LineSource[]) {
    const ratios = uses.filter((u) => u.used && u.source === source).map((u) => u.ratio);
    if (ratios.length > 0) factors[source] = Math.round(median(ratios) * 100) / 100;
  }
  return { factors, rows: uses };
}

/** Lengthens every edge by its source's factor (after all cutting: pieces keep their source). */
export function applyLengthFactors(net: RiverNet, factors: Record<LineSource, number>): void {
  for (const e of net.edges) e.metres *= factors[e.tag.source];
}
