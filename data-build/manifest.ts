/**
 * The pinned-input manifest (data-build/sources.json): every source file a stage may read, with its
 * upstream URL, sha256, licence and attribution, plus the npm packages that ship data. Nothing is
 * read unverified: a missing file is downloaded, then every file is checked against its sha256.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface SourceFile {
  /** Where a fresh deployment downloads it; null for compiled files that have no upstream copy. */
  url: string | null;
  sha256: string;
  licence: string;
  attribution: string;
}

export interface SourcePackage {
  licence: string;
  attribution: string;
  upstream: string;
}

export interface SourceManifest {
  files: Record<string, SourceFile>;
  packages: Record<string, SourcePackage>;
}

/** Stage inputs naming an npm package that ships data: "npm:geo-tz". */
export const PACKAGE_PREFIX = "npm:";

export const MANIFEST_PATH = join(import.meta.dir, "sources.json");

export function loadManifest(path = MANIFEST_PATH): SourceManifest {
  return JSON.parse(readFileSync(path, "utf8")) as SourceManifest;
}

/** Expands stage input patterns ("ports/unlocode/*.csv", "npm:geo-tz") to manifest keys; unknown = error. */
export function expandInputs(manifest: SourceManifest, patterns: string[]): string[] {
  const keys: string[] = [];
  for (const pattern of patterns) {
    let matched: string[];
    if (pattern.startsWith(PACKAGE_PREFIX)) {
      matched = pattern.slice(PACKAGE_PREFIX.length) in manifest.packages ? [pattern] : [];
    } else {
      const glob = new Bun.Glob(pattern);
      matched = Object.keys(manifest.files).filter((k) => k === pattern || glob.match(k));
    }
    if (matched.length === 0) throw new Error(`input "${pattern}" is not listed in data-build/sources.json`);
    keys.push(...matched.filter((k) => !keys.includes(k)));
  }
  return keys;
}

export const matchesInput = (patterns: string[], key: string): boolean =>
  patterns.some((p) => p === key || (!p.startsWith(PACKAGE_PREFIX) && new Bun.Glob(p).match(key)));

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const requireHere = createRequire(import.meta.url);

/** Directory and version of an installed data package. */
export function packageInfo(name: string): { dir: string; version: string } {
  const pkgJson = requireHere.resolve(`${name}/package.json`);
  return {
    dir: dirname(pkgJson),
    version: (JSON.parse(readFileSync(pkgJson, "utf8")) as { version: string }).version,
  };
}

export interface FetchOptions {
  /** Base URL replacing every upstream: `${mirror}/${key}` (a local mirror, or a test server). */
  mirror?: string;
  fetch?: typeof fetch;
  log(msg: string): void;
}

/**
 * Returns the verified path of one source file, downloading it first when missing. The download
 * lands in a temp file renamed into place only after its checksum matched.
 */
export async function ensureSource(
  manifest: SourceManifest,
  key: string,
  sourcesDir: string,
  opts: FetchOptions,
): Promise<string> {
  const entry = manifest.files[key];
  if (!entry) throw new Error(`source ${key} is not listed in data-build/sources.json`);
  const path = join(sourcesDir, key);
  if (!existsSync(path)) {
    const url = opts.mirror ? `${opts.mirror.replace(/\/$/, "")}/${key}` : entry.url;
    if (!url)
      throw new Error(`source ${key} is missing from ${sourcesDir} and has no upstream URL to fetch it from`);
    opts.log(`fetch-sources: downloading ${key} from ${url}`);
    const res = await (opts.fetch ?? fetch)(url);
    if (!res.ok) throw new Error(`source ${key}: download from ${url} failed with HTTP ${res.status}`);
    const body = new Uint8Array(await res.arrayBuffer());
    const got = createHash("sha256").update(body).digest("hex");
    if (got !== entry.sha256) {
      throw new Error(`source ${key}: downloaded file has sha256 ${got}, sources.json pins ${entry.sha256}`);
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.part`, body);
    renameSync(`${path}.part`, path);
    return path;
  }
  const got = await sha256File(path);
  if (got !== entry.sha256) {
    throw new Error(
      `source ${key} (${path}) has sha256 ${got} but data-build/sources.json pins ${entry.sha256}: ` +
        "the file changed upstream or locally; restore it or update the pin deliberately",
    );
  }
  return path;
}
