/**
 * AIS decoder throughput over the real reference logs (gpsd, libais, pyais; PORTOLAN_SOURCES),
 * repeated to about 1M sentences, against a baseline measured in the same run: a bare
 * `line.split(",")` plus checksum pass over the same lines, i.e. the least any decoder must do.
 * Usage: bun bench/ais.ts [--quick]
 */
import { AisDecoder } from "../ingest/ais/decoder.ts";
import { checksum } from "../ingest/ais/nmea.ts";
import { aisLines, REAL_LOGS } from "../test/ais/fixture.ts";

const quick = process.argv.includes("--quick");
const target = quick ? 100_000 : 1_000_000;
const sentences = REAL_LOGS.flatMap(aisLines).filter((l) => l.includes("VDM") || l.includes("VDO"));
const lines: string[] = [];
while (lines.length < target) lines.push(...sentences);
lines.length = target;

function baseline(): number {
  let ok = 0;
  for (const line of lines) {
    const star = line.lastIndexOf("*");
    const fields = line.split(",");
    if (
      fields.length >= 7 &&
      checksum(line, line.indexOf("!") + 1, star) === Number.parseInt(line.slice(star + 1, star + 3), 16)
    )
      ok++;
  }
  return ok;
}

function decode(): number {
  const d = new AisDecoder();
  let n = 0;
  for (const line of lines) if (d.push(line, 0)) n++;
  return n;
}

/** Best of `runs` timed passes (after one warm-up), in sentences per second. */
function rate(run: () => number, runs: number): { perSecond: number; result: number } {
  let result = run();
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    result = run();
    best = Math.min(best, performance.now() - t0);
  }
  return { perSecond: (lines.length / best) * 1000, result };
}

const runs = quick ? 2 : 5;
const base = rate(baseline, runs);
const ours = rate(decode, runs);
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
console.log(`${fmt(lines.length)} sentences from ${sentences.length} distinct real lines`);
console.log(
  `baseline split+checksum  ${fmt(base.perSecond)} sentences/s (${fmt(base.result)} pass checksum)`,
);
console.log(`AisDecoder.push          ${fmt(ours.perSecond)} sentences/s (${fmt(ours.result)} messages)`);
console.log(`ratio decoder/baseline   ${(ours.perSecond / base.perSecond).toFixed(2)}`);
console.log(`goal >= 100,000/s        ${ours.perSecond >= 100_000 ? "met" : "NOT met"}`);
