/**
 * The load planner on container loading sets of Bischoff and Ratcliff (1995): the published BR0-BR7
 * (800 instances, ../shared/data/loadplan or PORTOLAN_SOURCES) and strongly heterogeneous sets made
 * with their generator (test/support/bischoff-ratcliff.ts: 20 to 100 box types, seeds of our own,
 * not the published BR8-BR15). One unit of the instance's container, no weights, full support
 * always. Per set: average volume utilisation, time per instance (mean, max) of the
 * single-threaded WASM engine, and in the same run the first-fit baseline (largest box first at the
 * first back-bottom-left extreme point, fully supported) as a ratio. Every plan goes through the
 * tests' independent checker; a violation fails the run.
 * Usage: bun bench/loadplan.ts [--sets BR1,G50] [--limit N] [--generated N] [--work N]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { defaultDirs } from "../data-build/pipeline.ts";
import { DEFAULT_WORK_BUDGET } from "../engine/loadplan/planner.ts";
import { WasmPacker } from "../router-wasm/binding/loadplan.ts";
import { type CheckItem, unitViolations } from "../test/loadplan-engine/check.ts";
import { type GeneratedInstance, generateSet, rawProblem } from "../test/support/bischoff-ratcliff.ts";

type Instance = Omit<GeneratedInstance, "seed">;

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const limit = Number(arg("limit") ?? Number.POSITIVE_INFINITY);
/** Instances per generated set. */
const generatedCount = Number(arg("generated") ?? 20);
/** Work units per instance; absent: the engine's default for the instance. */
const work = arg("work") === undefined ? undefined : Number(arg("work"));
const file = join(defaultDirs().sourcesDir, "loadplan/bischoff-ratcliff-br0-br7.json");
const published = JSON.parse(readFileSync(file, "utf8")) as Record<string, Instance[]>;
/** Seeds apart from the published ones (2502505 + 100 (p - 1)), so nothing is tuned to BR8-BR15. */
const generatedSeed = (p: number) => 7_301_017 + 977 * (p - 1);
const generated: Record<string, Instance[]> = Object.fromEntries(
  [20, 30, 40, 50, 60, 70, 80, 90, 100].map((n) => [
    `G${n}`,
    generateSet(`G${n}`, n, generatedCount, generatedSeed),
  ]),
);
const only = arg("sets")?.split(",");

const packer = await WasmPacker.instantiate(readFileSync(join(buildDirFrom(), "router.wasm")));

const pct = (x: number) => `${(100 * x).toFixed(2)} %`;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
let bad = 0;

/** Plans and checks one instance: engine and baseline utilisation and seconds. */
function measure(inst: Instance): { util: number; base: number; secs: number; baseSecs: number } {
  const p = rawProblem(inst, work ?? DEFAULT_WORK_BUDGET);
  let t0 = performance.now();
  const plan = packer.plan(p);
  const secs = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const first = packer.baseline(p);
  const baseSecs = (performance.now() - t0) / 1000;
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
      console.error(`${inst.set} #${inst.instance} ${who}: ${v.slice(0, 3).join("; ")}`);
    }
  }
  const util = plan.units[0]?.volumeUtilisation ?? 0;
  return { util, base: first.units[0]?.volumeUtilisation ?? 0, secs, baseSecs };
}

/** One table; returns every instance's utilisation and the engine's and baseline's, per set. */
function table(title: string, data: Record<string, Instance[]>, skip: string[]) {
  console.log(`\n${title}`);
  console.log("| set | instances | utilisation | baseline | ratio | mean s | max s | baseline mean s |");
  console.log("|---|---|---|---|---|---|---|---|");
  const util: number[] = [];
  const base: number[] = [];
  const secs: number[] = [];
  for (const set of Object.keys(data).sort((a, b) => a.length - b.length || a.localeCompare(b))) {
    if (only && !only.includes(set)) continue;
    const rows = (data[set] ?? []).slice(0, limit).map(measure);
    const u = rows.map((r) => r.util);
    const b = rows.map((r) => r.base);
    const s = rows.map((r) => r.secs);
    if (!skip.includes(set)) {
      util.push(...u);
      base.push(...b);
      secs.push(...s);
    }
    console.log(
      `| ${set} | ${rows.length} | ${pct(mean(u))} | ${pct(mean(b))} | ${(mean(u) / mean(b)).toFixed(3)} | ${mean(s).toFixed(3)} | ${Math.max(...s).toFixed(3)} | ${mean(rows.map((r) => r.baseSecs)).toFixed(3)} |`,
    );
  }
  return { util, base, secs };
}

const budget = (work ?? DEFAULT_WORK_BUDGET).toLocaleString("en-US");
console.log(`Work budget per instance: ${budget}`);
const br = table(`Bischoff-Ratcliff BR0-BR7, ${file}`, published, ["BR0"]);
if (br.util.length > 0)
  console.log(
    `BR1-BR7 average: ${pct(mean(br.util))} (baseline ${pct(mean(br.base))}); goal >= 90 %: ${mean(br.util) >= 0.9 ? "met" : "NOT met"}`,
  );
const gen = table(
  `Generated strongly heterogeneous sets (Bischoff-Ratcliff generator, ${generatedCount} instances per set)`,
  generated,
  [],
);
if (gen.util.length > 0)
  console.log(
    `G20-G100 average: ${pct(mean(gen.util))} (baseline ${pct(mean(gen.base))}), slowest ${Math.max(...gen.secs).toFixed(3)} s; goal >= 91 %, every instance under 1 s: ${mean(gen.util) >= 0.91 && Math.max(...gen.secs) < 1 ? "met" : "NOT met"}`,
  );
if (bad > 0) {
  console.error(`${bad} plans broke a rule`);
  process.exitCode = 1;
}
