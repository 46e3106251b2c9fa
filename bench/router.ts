/**
 * Sea router benchmark: the WASM router (in-process) against searoute-js on the same real port
 * pairs (top-100 container ports paired three ways, plus the NGA Pub. 151 pairs).
 * Usage: bun bench/router.ts [--quick]
 */
import { createRequire } from "node:module";
import { DEFAULT_MASK } from "../engine/sea/policy.ts";
import { SeaRouter } from "../engine/sea/router.ts";
import { mainPorts, pub151 } from "../test/distance-sea/fixture.ts";

type LngLat = [number, number];
type Searoute = (from: LngLat, to: LngLat, units?: string) => { properties: { length: number } } | null;

interface Pair {
  from: { lat: number; lng: number; name: string };
  to: { lat: number; lng: number; name: string };
}

function pairs(): Pair[] {
  const ports = mainPorts();
  const out: Pair[] = [];
  // Three fixed, spread-out partners per port: short, regional and long-haul pairs alike.
  for (let i = 0; i < ports.length; i++) {
    for (const step of [7, 31, 53]) {
      const j = (i * step + 13) % ports.length;
      if (j !== i) out.push({ from: ports[i]!, to: ports[j]! });
    }
  }
  for (const p of pub151()) out.push({ from: p.a, to: p.b });
  return out;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Per-route wall times in microseconds: each pair timed `reps` times after a warm-up pass. */
function time(list: Pair[], reps: number, run: (p: Pair) => unknown): number[] {
  for (const p of list) run(p);
  const out: number[] = [];
  for (let k = 0; k < reps; k++) {
    for (const p of list) {
      const t0 = Bun.nanoseconds();
      run(p);
      out.push((Bun.nanoseconds() - t0) / 1000);
    }
  }
  return out.sort((a, b) => a - b);
}

const quick = process.argv.includes("--quick");
const list = pairs();
const router = await SeaRouter.load();
const searoute = createRequire(import.meta.url)("searoute-js") as Searoute;

const rows: Array<[string, number[]]> = [
  [
    "wasm route (distance only)",
    time(list, quick ? 3 : 20, (p) => router.routeRaw(p.from, p.to, DEFAULT_MASK, false)),
  ],
  ["planSeaRoute (no path)", time(list, quick ? 3 : 20, (p) => router.plan({ from: p.from, to: p.to }))],
  [
    "planSeaRoute (path)",
    time(list, quick ? 3 : 20, (p) => router.plan({ from: p.from, to: p.to, path: true })),
  ],
  [
    "planSeaRoute (path + alternatives)",
    time(list, quick ? 1 : 3, (p) => router.plan({ ...p, path: true, alternatives: true })),
  ],
];
// searoute-js logs on every call; silence it while it runs.
const log = console.log;
console.log = () => {};
const peerList = quick ? list.slice(0, 60) : list;
const peerFailed = new Set<Pair>();
const peer = time(peerList, 1, (p) => {
  // It throws on pairs that snap to one vertex; count those with the no-route answers.
  try {
    if (!searoute([p.from.lng, p.from.lat], [p.to.lng, p.to.lat], "nm")) peerFailed.add(p);
  } catch {
    peerFailed.add(p);
  }
});
console.log = log;

const peerMedian = quantile(peer, 0.5);
const fmt = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : `${us.toFixed(1)} µs`);
console.log(
  `${list.length} port pairs (${peerList.length} for searoute-js; ${peerFailed.size} of them found no route)`,
);
console.log(`${"".padEnd(36)}${"median".padStart(10)}${"p99".padStart(10)}${"vs searoute-js".padStart(16)}`);
for (const [name, t] of [...rows, ["searoute-js", peer] as [string, number[]]]) {
  const ratio = name === "searoute-js" ? "1x" : `${Math.round(peerMedian / quantile(t, 0.5))}x`;
  console.log(
    `${name.padEnd(36)}${fmt(quantile(t, 0.5)).padStart(10)}${fmt(quantile(t, 0.99)).padStart(10)}${ratio.padStart(16)}`,
  );
}
