/**
 * Reading build artifacts for the engine's loaders: one message for a missing file (naming the
 * command that builds it) and one for artifacts of different builds.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** The bytes of `file` in the build directory. */
export async function readArtifact(
  buildDir: string,
  file: string,
): Promise<{ path: string; bytes: Uint8Array }> {
  const path = join(buildDir, file);
  const how =
    file === "router.wasm"
      ? "run `bash router-wasm/build.sh`"
      : "run `npm run build` (or `bun run data-build/main.ts`)";
  const buf = await readFile(path).catch(() => {
    throw new Error(`${path} missing: ${how}`);
  });
  return { path, bytes: new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) };
}

/** Refuses an artifact whose build differs from the reference one's (locations.idx, or a graph). */
export function sameBuild(
  buildDir: string,
  artifact: { file: string; buildId: string },
  reference: { file: string; buildId: string },
): void {
  if (artifact.buildId !== reference.buildId) {
    throw new Error(
      `artifacts in ${buildDir} come from different builds (${artifact.file} ${artifact.buildId}, ${reference.file} ${reference.buildId}): run \`npm run build\``,
    );
  }
}

/**
 * Refuses an artifact built with other settings than this engine applies at query time (values
 * baked into it, like the road graph's truck time factor), as a graph of another profile is
 * refused: the message names each differing setting and how to rebuild.
 */
export function sameSettings(
  path: string,
  built: Readonly<Record<string, number>> | undefined,
  applied: Readonly<Record<string, number>>,
): void {
  const recorded = (name: string) => (built && Object.hasOwn(built, name) ? built[name] : undefined);
  const differ = Object.keys(applied).filter((name) => recorded(name) !== applied[name]);
  if (differ.length === 0) return;
  const what = differ.map(
    (name) => `${name} ${recorded(name) ?? "not recorded"}, this engine applies ${applied[name]}`,
  );
  throw new Error(`${path} was built with other settings (${what.join("; ")}): run \`npm run build\``);
}

/** One load per key; a failed load is forgotten so the next call retries. */
export function once<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let pending = cache.get(key);
  if (!pending) {
    pending = load();
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}
