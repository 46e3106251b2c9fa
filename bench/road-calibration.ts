/**
 * Leave-one-out check of the road model's published-pairs scale (data-build/road/CALIBRATION.md):
 * each pair of calibration-pairs.csv predicted from the others, with no scale, one scale per region
 * and one global scale. Reads the pairs' unscaled model km from road-network.summary.json.
 * `bun bench/road-calibration.ts [buildDir]`
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { median } from "../common/median.ts";
import type { PairUse } from "../data-build/road/pair-calibration.ts";

type Measured = PairUse & { modelKm: number; ratio: number };
type Rule = (pair: Measured, others: Measured[]) => number;

const RULES: Record<string, Rule> = {
  "no scale": () => 1,
  "per region": (p, others) => {
    const same = others.filter((o) => o.region === p.region);
    return same.length === 0 ? 1 : median(same.map((o) => o.ratio));
  },
  global: (_, others) => median(others.map((o) => o.ratio)),
};

const dir = process.argv[2] ?? buildDirFrom();
const summary = JSON.parse(readFileSync(join(dir, "road-network.summary.json"), "utf8")) as {
  published_pairs: { scale: number; pairs: PairUse[] };
};
const pairs = summary.published_pairs.pairs.filter((p): p is Measured => p.ratio !== null);
console.log(`${pairs.length} measured pairs; the build applied scale ${summary.published_pairs.scale}`);
for (const [name, rule] of Object.entries(RULES)) {
  const errors = pairs.map((p, i) => {
    const others = pairs.filter((_, j) => j !== i);
    return Math.abs((p.modelKm * rule(p, others)) / p.publishedKm - 1);
  });
  const over = errors.filter((e) => e > 0.15).length;
  console.log(
    `${name.padEnd(10)} leave-one-out median |error| ${(median(errors) * 100).toFixed(1)} %, ` +
      `max ${(Math.max(...errors) * 100).toFixed(1)} %, ${over} over 15 %`,
  );
}
