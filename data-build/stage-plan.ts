/**
 * Which stages of a build are stale. A stage's fingerprint hashes the pinned checksum of each
 * source input (the package version for npm data), the content of each build output it reads
 * (build id aside: every build restamps it) and its code; a stage is fresh while its fingerprint
 * matches the one its outputs were written with and those outputs exist.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { PROJECT_ROOT } from "../common/build-dir.ts";
import { restampBuildId, restampJsonBuildId } from "../formats/container.ts";
import { expandInputs, PACKAGE_PREFIX, packageInfo, type SourceManifest } from "./manifest.ts";
import type { RegisteredStage, Stage } from "./pipeline.ts";

export interface BuildState {
  buildId: string | null;
  stages: Record<string, { fingerprint: string }>;
}

export interface StagePlan {
  r: RegisteredStage;
  /** The stage's code version when the build started (the code the run loaded). */
  code: string;
  fingerprint: string;
  fresh: boolean;
}

export const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

export const buildStatePath = (outDir: string) => join(outDir, "build-state.json");

export function readBuildState(outDir: string): BuildState {
  const path = buildStatePath(outDir);
  return existsSync(path)
    ? (JSON.parse(readFileSync(path, "utf8")) as BuildState)
    : { buildId: null, stages: {} };
}

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

/** A build output's content without its build id (a container's or a JSON artifact's), or "missing". */
export function artifactDigest(outDir: string, file: string): string {
  const path = join(outDir, file);
  if (!existsSync(path)) return "missing";
  const bytes = new Uint8Array(readFileSync(path));
  restampBuildId(bytes, "");
  return sha256(restampJsonBuildId(bytes, "") ?? bytes);
}

/** The stage of `registry` that writes `file`, if any (router.wasm is built outside the stages). */
export const producerOf = (registry: RegisteredStage[], file: string): Stage | undefined =>
  registry.find((r) => r.stage.outputs.includes(file))?.stage;

/** Refuses a registry where a stage reads an artifact that a later stage (or itself) writes. */
export function checkReadOrder(registry: RegisteredStage[]): void {
  registry.forEach(({ stage }, i) => {
    for (const file of stage.reads ?? []) {
      const at = registry.findIndex((r) => r.stage.outputs.includes(file));
      if (at >= i) {
        throw new Error(
          `stage ${stage.name} reads ${file}, which ${registry[at]!.stage.name} writes: list ${registry[at]!.stage.name} before it`,
        );
      }
    }
  });
}

export function stageFingerprint(
  r: RegisteredStage,
  manifest: SourceManifest,
  outDir: string,
  code = codeVersion(r.module),
): string {
  const inputs = expandInputs(manifest, r.stage.inputs).map((key) =>
    key.startsWith(PACKAGE_PREFIX)
      ? `${key}@${packageInfo(key.slice(PACKAGE_PREFIX.length)).version}`
      : `${key}=${manifest.files[key]!.sha256}`,
  );
  const reads = (r.stage.reads ?? []).map((file) => `${file}=${artifactDigest(outDir, file)}`);
  return sha256(
    JSON.stringify({
      inputs,
      ...(reads.length > 0 ? { reads } : {}),
      code,
      outputs: r.stage.outputs,
    }),
  );
}

/** Whether a stage's outputs are current: same fingerprint as when written, all present, no --force. */
export function isFresh(
  state: BuildState,
  r: RegisteredStage,
  fingerprint: string,
  outDir: string,
  force = false,
) {
  return (
    !force &&
    state.stages[r.stage.name]?.fingerprint === fingerprint &&
    r.stage.outputs.every((o) => existsSync(join(outDir, o)))
  );
}

/**
 * The selected stages with their fingerprints and freshness against the build in `outDir`, as the
 * build stands now; runPipeline fingerprints a stage that reads artifacts again at its turn, after
 * the stages before it have rewritten them.
 */
export function planStages(opts: {
  selected: RegisteredStage[];
  manifest: SourceManifest;
  outDir: string;
  force?: boolean;
}): StagePlan[] {
  const state = readBuildState(opts.outDir);
  return opts.selected.map((r) => {
    const code = codeVersion(r.module);
    const fingerprint = stageFingerprint(r, opts.manifest, opts.outDir, code);
    return { r, code, fingerprint, fresh: isFresh(state, r, fingerprint, opts.outDir, opts.force) };
  });
}
