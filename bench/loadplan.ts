/**
 * The load planner on the Bischoff-Ratcliff container loading sets BR0-BR7 (800 instances,
 * ../shared/data/loadplan or PORTOLAN_SOURCES): one unit of the instance's container, no weights,
 * full support always. Per set: average volume utilisation, time per instance (mean, max) of the
 * single-threaded WASM engine, and in the same run the first-fit baseline (largest box first at the
 * first back-bottom-left extreme point, fully supported) as a ratio. Every plan goes through the
 * tests' independent checker; a violation fails the run.
 * Usage: bun bench/loadplan.ts [--sets BR1,BR2] [--limit N] [--work N]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { defaultDirs } from "../data-build/pipeline.ts";
import { ORIENTATIONS, type RawProblem, WasmPacker } from "../router-wasm/binding/loadplan.ts";
import { type CheckItem, unitViolations } from "../test/loadplan-engine/check.ts";

type Instance = {
  set: string;
  instance: number;
  container: [number, number, number];
  boxes: Array<[number, number, number, number, string[]]>;
};

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const limit = Number(arg("limit") ?? Number.POSITIVE_INFINITY);
/** Work units per instance: the engine default (packing/mod.rs DEFAULT_WORK). */
const work = Number(arg("work") ?? 20_000_000);
const file = join(defaultDirs().sourcesDir, "loadplan/bischoff-ratcliff-br0-br7.json");
const data = JSON.parse(readFileSync(file, "utf8")) as Record<string, Instance[]>;
const sets = arg("sets")?.split(",") ?? Object.keys(data).sort();

const packer = await WasmPacker.instantiate(readFileSync(join(buildDirFrom(), "router.wasm")));

function problem(inst: Instance): RawProblem {
  const [length, width, height] = inst.container;
  return {
    items: inst.boxes.map(([l, w, h, quantity, names]) => ({
      length: l,
      width: w,
      height: h,
      quantity,
      orientations: names.reduce(
        (m, n) => m | (1 << ORIENTATIONS.indexOf(n as (typeof ORIENTATIONS)[number])),
        0,
      ),
      weight: 0,
      stackable: true,
      maxLoadOnTop: Number.POSITIVE_INFINITY,
      priority: 0,
    })),
    units: [
      {
        length,
        width,
        height,
        doorWidth: 0,
        doorHeight: 0,
        payload: Number.POSITIVE_INFINITY,
        cost: 1,
        maxCount: 1,
      },
    ],
    params: {
      objective: "fewest_units",
      workBudget: work,
      cogLongitudinal: Number.POSITIVE_INFINITY,
      cogLateral: Number.POSITIVE_INFINITY,
      maxUnits: 1,
    },
  };
}

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
console.log(`Bischoff-Ratcliff, ${file}; work budget ${work.toLocaleString("en-US")} per instance`);
console.log("| set | instances | utilisation | baseline | ratio | mean s | max s | baseline mean s |");
console.log("|---|---|---|---|---|---|---|---|");
const br17: number[] = [];
const br17Base: number[] = [];
let bad = 0;
for (const set of sets) {
  const instances = (data[set] ?? []).slice(0, limit);
  const util: number[] = [];
  const base: number[] = [];
  const secs: number[] = [];
  const baseSecs: number[] = [];
  for (const inst of instances) {
    const p = problem(inst);
    let t0 = performance.now();
    const plan = packer.plan(p);
    secs.push((performance.now() - t0) / 1000);
    t0 = performance.now();
    const first = packer.baseline(p);
    baseSecs.push((performance.now() - t0) / 1000);
    const unit = { ...p.units[0]!, doorWidth: 0, doorHeight: 0 };
    const items: CheckItem[] = p.items;
    for (const [who, q] of [
      ["engine", plan],
      ["baseline", first],
    ] as const) {
      const u = q.units[0];
      const v = u ? unitViolations(items, unit, u.placements, { longitudinal: 1, lateral: 1 }) : [];
      if (v.length > 0) {
        bad++;
        console.error(`${set} #${inst.instance} ${who}: ${v.slice(0, 3).join("; ")}`);
      }
    }
    util.push(plan.units[0]?.volumeUtilisation ?? 0);
    base.push(first.units[0]?.volumeUtilisation ?? 0);
  }
  if (set !== "BR0") {
    br17.push(...util);
    br17Base.push(...base);
  }
  console.log(
    `| ${set} | ${instances.length} | ${pct(mean(util))} | ${pct(mean(base))} | ${(mean(util) / mean(base)).toFixed(3)} | ${mean(secs).toFixed(3)} | ${Math.max(...secs).toFixed(3)} | ${mean(baseSecs).toFixed(3)} |`,
  );
}
if (br17.length > 0)
  console.log(
    `BR1-BR7 average: ${pct(mean(br17))} (baseline ${pct(mean(br17Base))}); goal >= 90 %: ${mean(br17) >= 0.9 ? "met" : "NOT met"}`,
  );
if (bad > 0) {
  console.error(`${bad} plans broke a rule`);
  process.exitCode = 1;
}
