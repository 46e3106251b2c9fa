/**
 * The data-build stage runner. Stages declare their source inputs, the build outputs they read
 * (another stage's artifacts, router.wasm) and their output files; the runner verifies inputs
 * (fetch-sources), skips a stage whose inputs, reads and code are unchanged since its outputs were
 * written, and stamps every artifact of the build with one build id.
 */

import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { sourcesDirFrom } from "../common/sources-dir.ts";
import { fnv1a64, restampBuildId, restampJsonBuildId } from "../formats/container.ts";
import { ensureSource, expandInputs, PACKAGE_PREFIX, packageInfo, type SourceManifest } from "./manifest.ts";
import { type ContextInputs, stageContext } from "./stage-context.ts";
import {
  buildStatePath,
  checkReadOrder,
  isFresh,
  planStages,
  producerOf,
  readBuildState,
  sha256,
  stageFingerprint,
} from "./stage-plan.ts";
import { schedule } from "./stage-schedule.ts";
import type { StageJob, StageMessage } from "./stage-worker.ts";

export interface BuildContext {
  sourcesDir: string;
  outDir: string;
  buildId: string;
  log(msg: string): void;
  /** Absolute path of a verified source file, key = path relative to the sources dir, e.g. "sea/marnet_plus_20km.gpkg". */
  source(key: string): string;
  /** The bytes of a build output the stage declares in `reads`, e.g. "sea.graph". */
  artifact(file: string): Uint8Array;
}

export interface Stage {
  name: string;
  inputs: string[];
  /**
   * Build outputs the stage reads: other stages' artifacts (which run earlier) or router.wasm. Their
   * content, build id aside, is part of the stage's fingerprint, so a changed sea.graph reruns the
   * stages that read it; the sources behind them are credited in ATTRIBUTION.
   */
  reads?: string[];
  outputs: string[];
  run(ctx: BuildContext): Promise<void>;
}

/** A stage plus the module defining it: its import tree is the stage's code version. */
export interface RegisteredStage {
  stage: Stage;
  module: string;
}

export function defaultDirs(env: Record<string, string | undefined> = process.env): {
  sourcesDir: string;
  outDir: string;
} {
  return {
    sourcesDir: sourcesDirFrom(env),
    outDir: buildDirFrom(env),
  };
}

export interface RunOptions {
  registry: RegisteredStage[];
  manifest: SourceManifest;
  sourcesDir: string;
  outDir: string;
  /** Stage names to run; default all. */
  only?: string[];
  /** Rerun selected stages even when unchanged. */
  force?: boolean;
  /**
   * Stages built at once, each in a worker thread when more than one (default 1: in this thread, in
   * registry order). A stage starts once the stages writing what it reads have finished.
   */
  jobs?: number;
  /** Download missing sources from `${mirror}/${key}` instead of their upstream URL. */
  mirror?: string;
  fetch?: typeof fetch;
  log?(msg: string): void;
}

export interface RunResult {
  buildId: string;
  ran: string[];
  skipped: string[];
}

function buildIdFor(fingerprints: string[]): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${sha256(fingerprints.join("\n")).slice(0, 8)}`;
}

/** fetch-sources: every input of the selected stages, downloaded when missing, then verified. */
async function fetchSources(
  selected: RegisteredStage[],
  opts: RunOptions,
  log: (msg: string) => void,
): Promise<Map<string, string>> {
  const verified = new Map<string, string>();
  for (const key of expandInputs(opts.manifest, [...new Set(selected.flatMap((r) => r.stage.inputs))])) {
    const path = key.startsWith(PACKAGE_PREFIX)
      ? packageInfo(key.slice(PACKAGE_PREFIX.length)).dir
      : await ensureSource(opts.manifest, key, opts.sourcesDir, {
          mirror: opts.mirror,
          fetch: opts.fetch,
          log,
        });
    verified.set(key, path);
  }
  log(`fetch-sources: ${verified.size} inputs verified`);
  return verified;
}

export async function runPipeline(opts: RunOptions): Promise<RunResult> {
  const log = opts.log ?? ((msg: string) => console.log(msg));
  const { manifest, sourcesDir, outDir } = opts;
  const known = new Set(opts.registry.map((r) => r.stage.name));
  for (const name of opts.only ?? []) {
    if (!known.has(name)) throw new Error(`unknown stage "${name}"; stages: ${[...known].join(", ")}`);
  }
  checkReadOrder(opts.registry);
  const selected = opts.registry.filter((r) => !opts.only || opts.only.includes(r.stage.name));
  mkdirSync(outDir, { recursive: true });
  const state = readBuildState(outDir);
  const verified = await fetchSources(selected, opts, log);

  const plan = planStages({ selected, manifest, outDir, force: opts.force });
  const buildId =
    plan.every((p) => p.fresh) && state.buildId ? state.buildId : buildIdFor(plan.map((p) => p.fingerprint));

  const ran: string[] = [];
  const skipped: string[] = [];
  const jobs = Math.max(1, opts.jobs ?? 1);
  const producers = new Map(
    opts.registry.flatMap((r) => r.stage.outputs.map((o) => [o, r.stage.name] as const)),
  );
  const selectedNames = new Set(plan.map((p) => p.r.stage.name));
  const scheduled = plan.map((planned) => ({
    ...planned,
    name: planned.r.stage.name,
    after: (planned.r.stage.reads ?? []).flatMap((file) => {
      const by = producers.get(file);
      return by && selectedNames.has(by) ? [by] : [];
    }),
  }));
  await schedule(scheduled, jobs, async (planned) => {
    const { r } = planned;
    // A stage reading artifacts is judged again now: a stage before it may have rewritten them.
    const fingerprint = r.stage.reads?.length
      ? stageFingerprint(r, manifest, outDir, planned.code)
      : planned.fingerprint;
    if (isFresh(state, r, fingerprint, outDir, opts.force)) {
      log(`${r.stage.name}: unchanged, skipped`);
      skipped.push(r.stage.name);
      return;
    }
    const started = performance.now();
    log(`${r.stage.name}: running`);
    const context = { sourcesDir, outDir, buildId, verified, producers, log };
    if (jobs > 1) await inWorker(r, context);
    else await r.stage.run(stageContext(r.stage, context));
    for (const o of r.stage.outputs) {
      if (!existsSync(join(outDir, o)))
        throw new Error(`stage ${r.stage.name} did not write its output ${o}`);
    }
    state.stages[r.stage.name] = { fingerprint };
    ran.push(r.stage.name);
    log(`${r.stage.name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // Saved per stage so a failure later in the run keeps the work already done.
    writeFileSync(buildStatePath(outDir), `${JSON.stringify(state, null, 2)}\n`);
  });
  state.buildId = buildId;
  writeFileSync(buildStatePath(outDir), `${JSON.stringify(state, null, 2)}\n`);
  writeOutputsIndex(opts.registry, manifest, outDir, buildId);
  const inOrder = (names: string[]) => plan.map((p) => p.r.stage.name).filter((n) => names.includes(n));
  return { buildId, ran: inOrder(ran), skipped: inOrder(skipped) };
}

/** Runs a registered stage in a worker thread (stage-worker.ts), its log lines into the build's. */
function inWorker(r: RegisteredStage, c: ContextInputs): Promise<void> {
  const job: StageJob = {
    module: r.module,
    name: r.stage.name,
    sourcesDir: c.sourcesDir,
    outDir: c.outDir,
    buildId: c.buildId,
    verified: [...c.verified],
    producers: [...c.producers],
  };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./stage-worker.ts", import.meta.url).href);
    worker.onmessage = (event: MessageEvent<StageMessage>) => {
      const m = event.data;
      if ("log" in m) return c.log(m.log);
      worker.terminate();
      if ("error" in m) reject(new Error(m.error));
      else resolve();
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`stage ${r.stage.name}: ${event.message}`));
    };
    worker.postMessage(job);
  });
}

/** The sources behind a stage's outputs: its own inputs and those behind every artifact it reads. */
function sourcesBehind(registry: RegisteredStage[], stage: Stage): string[] {
  const behind = (stage.reads ?? []).flatMap((file) => {
    const producer = producerOf(registry, file);
    return producer ? sourcesBehind(registry, producer) : [];
  });
  return [...new Set([...stage.inputs, ...behind])];
}

/**
 * Restamps every existing artifact with the build id, then writes manifest.json (artifacts, sizes,
 * FNV checksums) and ATTRIBUTION (every source behind an existing artifact).
 */
function writeOutputsIndex(
  registry: RegisteredStage[],
  manifest: SourceManifest,
  outDir: string,
  buildId: string,
) {
  const artifacts: Array<{ file: string; stage: string; bytes: number; fnv1a64: string }> = [];
  const credits = new Map<string, { licence: string; attribution: string; upstream: string[] }>();
  for (const { stage } of registry) {
    const present = stage.outputs.filter((o) => existsSync(join(outDir, o)));
    if (present.length === 0) continue;
    for (const file of present) {
      const path = join(outDir, file);
      let bytes = new Uint8Array(readFileSync(path));
      if (restampBuildId(bytes, buildId)) writeFileSync(path, bytes);
      const json = restampJsonBuildId(bytes, buildId);
      if (json) {
        bytes = json;
        writeFileSync(path, bytes);
      }
      artifacts.push({
        file,
        stage: stage.name,
        bytes: statSync(path).size,
        fnv1a64: fnv1a64(bytes).toString(16),
      });
    }
    for (const key of expandInputs(manifest, sourcesBehind(registry, stage))) {
      const isPackage = key.startsWith(PACKAGE_PREFIX);
      const entry = isPackage ? manifest.packages[key.slice(PACKAGE_PREFIX.length)]! : manifest.files[key]!;
      const upstream = isPackage
        ? (entry as { upstream: string }).upstream
        : (manifest.files[key]!.url ?? `${key} (compiled facts, no upstream copy)`);
      const id = `${entry.attribution}\n${entry.licence}`;
      const credit = credits.get(id) ?? {
        licence: entry.licence,
        attribution: entry.attribution,
        upstream: [],
      };
      credit.upstream.push(upstream);
      credits.set(id, credit);
    }
  }
  writeFileSync(
    join(outDir, "manifest.json"),
    `${JSON.stringify({ build_id: buildId, written_at: new Date().toISOString(), artifacts }, null, 2)}\n`,
  );
  const lines = [`Portolan build ${buildId}: data sources and their terms`, ""];
  for (const c of credits.values()) {
    lines.push(c.attribution, `  licence: ${c.licence}`, `  upstream: ${summarizeUrls(c.upstream)}`, "");
  }
  writeFileSync(join(outDir, "ATTRIBUTION"), lines.join("\n"));
}

/** Many files from one place (249 UN/LOCODE CSVs) read as one folder line. */
function summarizeUrls(urls: string[]): string {
  if (urls.length === 1) return urls[0]!;
  let prefix = urls[0]!;
  for (const u of urls) while (!u.startsWith(prefix)) prefix = prefix.slice(0, -1);
  prefix = prefix.slice(0, prefix.lastIndexOf("/") + 1);
  return `${prefix} (${urls.length} files)`;
}
