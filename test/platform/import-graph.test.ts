/**
 * Imports run one way: api and ingest use the engine and the storage layer; the engine, the data
 * build and storage never reach into api/ or ingest/; the engine and the data build share only
 * formats/ (the artifacts one writes and the other reads), never each other's code. Walks every
 * TypeScript file's relative imports, so a new back-edge fails here instead of in review.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT, sources } from "./source-files.ts";

/** Top-level folder of each relative import of a file (static and dynamic, type-only included). */
function importedFolders(file: string): Array<{ spec: string; folder: string }> {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => m[1]!);
  return specs.map((spec) => ({
    spec,
    folder: relative(ROOT, resolve(ROOT, dirname(file), spec)).split("/")[0]!,
  }));
}

/** Which top-level folders each layer may import from (itself always allowed). */
const ALLOWED: Record<string, string[]> = {
  // The engine reads the data build's artifacts through formats/, never the build's code.
  engine: ["router-wasm", "formats", "common"],
  // The sea-hierarchy stage contracts the graph with the router's own code (router-wasm); the
  // build writes its artifacts through formats/, never through the engine.
  "data-build": ["formats", "common", "router-wasm"],
  // The artifact formats, CSV and name normalisation: what the build writes and the engine reads.
  formats: ["common"],
  common: [],
  // The storage layer owns the database; api and ingest reach it, it reaches back into neither.
  storage: ["common"],
  ingest: ["storage", "engine", "formats", "common"],
  // The binding reads the artifact container format (formats/container.ts).
  "router-wasm": ["formats", "common"],
};

test.each(Object.keys(ALLOWED))("%s imports only from its allowed layers", (layer) => {
  const files = sources(layer);
  expect(files.length).toBeGreaterThan(0);
  const wrong = files.flatMap((file) =>
    importedFolders(file)
      .filter(({ folder }) => folder !== layer && !ALLOWED[layer]!.includes(folder))
      .map(({ spec }) => `${file} -> ${spec}`),
  );
  expect(wrong).toEqual([]);
});

test("nothing outside api/ imports api/ internals", () => {
  // Exceptions would go here; it may only shrink, and is empty: storage/ owns all SQL.
  const known = new Set<string>([]);
  const wrong = ["engine", "ingest", "data-build", "formats", "router-wasm", "storage", "common"]
    .flatMap((layer) => sources(layer))
    .filter((file) => !known.has(file))
    .flatMap((file) =>
      importedFolders(file)
        .filter(({ folder }) => folder === "api")
        .map(({ spec }) => `${file} -> ${spec}`),
    );
  expect(wrong).toEqual([]);
});

/** The repository files `file` imports (relative imports only). */
function importedFiles(file: string): string[] {
  return importedFolders(file).map(({ spec }) => relative(ROOT, resolve(ROOT, dirname(file), spec)));
}

/** One import cycle through each file on a cycle among `files`, as the path around it. */
function cycles(files: string[]): string[][] {
  const state = new Map<string, "open" | "done">();
  const found: string[][] = [];
  const visit = (file: string, path: string[]) => {
    state.set(file, "open");
    for (const next of importedFiles(file)) {
      if (!files.includes(next)) continue;
      if (state.get(next) === "open") found.push([...path.slice(path.indexOf(next)), file, next]);
      else if (!state.has(next)) visit(next, [...path, file]);
    }
    state.set(file, "done");
  };
  for (const file of files) if (!state.has(file)) visit(file, []);
  return found;
}

test("api/ imports without cycles: the product app mounts routes that import only its plugins", () => {
  expect(cycles(sources("api"))).toEqual([]);
});
