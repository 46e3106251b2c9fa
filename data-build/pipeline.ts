/**
 * The data-build stage runner. Stages declare their source inputs and output files; the runner
 * verifies inputs (fetch-sources), skips a stage whose inputs and code are unchanged since its
 * outputs were written, and stamps every artifact of the build with one build id.
 */

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { buildDirFrom } from "../common/build-dir.ts";
import { sourcesDirFrom } from "../common/sources-dir.ts";
import { fnv1a64, restampBuildId, restampJsonBuildId } from "../formats/container.ts";
import {
  ensureSource,
  expandInputs,
  matchesInput,
  PACKAGE_PREFIX,
  packageInfo,
  type SourceManifest,
} from "./manifest.ts";

export interface BuildContext {
  sourcesDir: string;
  outDir: string;
  buildId: string;
  log(msg: string): void;
  /** Absolute path of a verified source file, key = path relative to the sources dir, e.g. "sea/marnet_plus_20km.gpkg". */
  source(key: string): string;
}

export interface Stage {
  name: string;
  inputs: string[];
  outputs: string[];
  run(ctx: BuildContext): Promise<void>;
}

/** A stage plus the module defining it: its import tree is the stage's code version. */
export interface RegisteredStage {
  stage: Stage;
  module: string;
}

export const PROJECT_ROOT = resolve(import.meta.dir, "..");

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

interface BuildState {
  buildId: string | null;
  stages: Record<string, { fingerprint: string }>;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Hash of a module and every module it imports by relative path, so a helper edit reruns the stage. */
export function codeVersion(entry: string): string {
  const transpiler = new Bun.Transpiler({ loader: "ts" });
  const hash = createHash("sha256");
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    hash.update(`${relative(PROJECT_ROOT, file)}\n${text}\n`);
    // Data imported as text (a committed table) counts as code; only modules import further.
    if (!file.endsWith(".ts")) return;
    for (const imp of transpiler.scanImports(text)) {
      if (imp.path.startsWith(".")) visit(resolve(dirname(file), imp.path));
    }
  };
  visit(resolve(entry));
  return hash.digest("hex");
}

function buildIdFor(fingerprints: string[]): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${sha256(fingerprints.join("\n")).slice(0, 8)}`;
}

export async function runPipeline(opts: RunOptions): Promise<RunResult> {
  const log = opts.log ?? ((msg: string) => console.log(msg));
  const { manifest, sourcesDir, outDir } = opts;
  const known = new Set(opts.registry.map((r) => r.stage.name));
  for (const name of opts.only ?? []) {
    if (!known.has(name)) throw new Error(`unknown stage "${name}"; stages: ${[...known].join(", ")}`);
  }
  const selected = opts.registry.filter((r) => !opts.only || opts.only.includes(r.stage.name));
  mkdirSync(outDir, { recursive: true });
  const statePath = join(outDir, "build-state.json");
  const state: BuildState = existsSync(statePath)
    ? (JSON.parse(readFileSync(statePath, "utf8")) as BuildState)
    : { buildId: null, stages: {} };

  // fetch-sources: every input of the selected stages, downloaded when missing, then verified.
  const verified = new Map<string, string>();
  const fetchSources: Stage = {
    name: "fetch-sources",
    inputs: [...new Set(selected.flatMap((r) => r.stage.inputs))],
    outputs: [],
    async run(ctx) {
      for (const key of expandInputs(manifest, this.inputs)) {
        const path = key.startsWith(PACKAGE_PREFIX)
          ? packageInfo(key.slice(PACKAGE_PREFIX.length)).dir
          : await ensureSource(manifest, key, ctx.sourcesDir, {
              mirror: opts.mirror,
              fetch: opts.fetch,
              log,
            });
        verified.set(key, path);
      }
      ctx.log(`fetch-sources: ${verified.size} inputs verified`);
    },
  };
  await fetchSources.run(contextFor(fetchSources, state.buildId ?? "unbuilt"));

  // A stage's fingerprint: the pinned checksum of each input (package version for npm data) + its code.
  const fingerprintOf = (r: RegisteredStage): string => {
    const inputs = expandInputs(manifest, r.stage.inputs).map((key) =>
      key.startsWith(PACKAGE_PREFIX)
        ? `${key}@${packageInfo(key.slice(PACKAGE_PREFIX.length)).version}`
        : `${key}=${manifest.files[key]!.sha256}`,
    );
    return sha256(JSON.stringify({ inputs, code: codeVersion(r.module), outputs: r.stage.outputs }));
  };
  const plan = selected.map((r) => {
    const fingerprint = fingerprintOf(r);
    const fresh =
      !opts.force &&
      state.stages[r.stage.name]?.fingerprint === fingerprint &&
      r.stage.outputs.every((o) => existsSync(join(outDir, o)));
    return { r, fingerprint, fresh };
  });
  const buildId =
    plan.every((p) => p.fresh) && state.buildId ? state.buildId : buildIdFor(plan.map((p) => p.fingerprint));

  const ran: string[] = [];
  const skipped: string[] = [];
  for (const { r, fingerprint, fresh } of plan) {
    if (fresh) {
      log(`${r.stage.name}: unchanged, skipped`);
      skipped.push(r.stage.name);
      continue;
    }
    const started = performance.now();
    log(`${r.stage.name}: running`);
    await r.stage.run(contextFor(r.stage, buildId));
    for (const o of r.stage.outputs) {
      if (!existsSync(join(outDir, o)))
        throw new Error(`stage ${r.stage.name} did not write its output ${o}`);
    }
    state.stages[r.stage.name] = { fingerprint };
    ran.push(r.stage.name);
    log(`${r.stage.name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // Saved per stage so a failure later in the run keeps the work already done.
    writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
  }
  state.buildId = buildId;
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
  writeOutputsIndex(opts.registry, manifest, outDir, buildId);
  return { buildId, ran, skipped };

  function contextFor(stage: Stage, id: string): BuildContext {
    return {
      sourcesDir,
      outDir,
      buildId: id,
      log,
      source(key: string): string {
        if (!matchesInput(stage.inputs, key)) {
          throw new Error(`stage ${stage.name} read source ${key} without declaring it in its inputs`);
        }
        const path = verified.get(key);
        if (!path) throw new Error(`source ${key} was not verified by fetch-sources`);
        return path;
      },
    };
  }
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
    for (const key of expandInputs(manifest, stage.inputs)) {
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
