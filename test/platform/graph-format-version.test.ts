/**
 * The graph payload version has one definition, formats/graph.version: the Rust reader
 * includes it at compile time, the TypeScript writer and binding import it as text. No module may
 * write the number down again.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";
import { GRAPH_FORMAT_VERSION as BINDING_VERSION } from "../../router-wasm/binding/router.ts";
import { CODE_FOLDERS, ROOT, sources } from "./source-files.ts";

test("no TypeScript module defines GRAPH_FORMAT_VERSION but formats/graph-version.ts", () => {
  const definers = CODE_FOLDERS.flatMap((dir) => sources(dir)).filter((file) =>
    /\bconst\s+GRAPH_FORMAT_VERSION\b/.test(readFileSync(join(ROOT, file), "utf8")),
  );
  expect(definers).toEqual(["formats/graph-version.ts"]);
});

test("graph/mod.rs takes FORMAT_VERSION from graph.version at compile time", () => {
  const graphRs = readFileSync(join(ROOT, "router-wasm/src/graph/mod.rs"), "utf8");
  expect(graphRs).toMatch(
    /pub const FORMAT_VERSION: u32 =\s+container::version_from_text\(include_str!\("\.\.\/\.\.\/\.\.\/formats\/graph\.version"\)\);/,
  );
});

test("the version file holds the number the writer and the binding use", () => {
  const text = readFileSync(join(ROOT, "formats/graph.version"), "utf8");
  expect(GRAPH_FORMAT_VERSION).toBe(Number(text));
  expect(BINDING_VERSION).toBe(GRAPH_FORMAT_VERSION);
});
