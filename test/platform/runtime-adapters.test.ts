/**
 * Product code runs under Bun and Deno alike: what differs sits in the runtime adapters the entry
 * points choose (api/runtime/, storage/sqlite.ts), never in a branch on the runtime. Comments may
 * name either runtime; code outside the adapters uses neither's own globals, modules or
 * import.meta.dir.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, sources } from "./source-files.ts";

/** Files that use a runtime's own API, and why. It may only shrink. */
const ALLOWED: Record<string, string> = {
  // The bun:sqlite opener the Bun entry hands the storage layer.
  "storage/sqlite.ts": "bun:sqlite",
  // The sandbox process's Bun entry; api/runtime/deno-sandbox.ts is Deno's.
  "ingest/sandbox/main.ts": "Bun.serve, Bun.listen",
  // The receiver of `portolan webhooks listen`: the CLI runs under Bun (bin/portolan).
  "api/webhooks/listener.ts": "Bun.serve with tls",
  // A generator run by hand with Bun, not part of the service.
  "ingest/schedules/gen-cs-schema.ts": "Bun.YAML",
};

const RUNTIME_API = /\b(?:Bun|Deno)\.\w|typeof (?:Bun|Deno)\b|from ["']bun(?::\w+)?["']|import\.meta\.dir\b/;

/** The lines of a file that are code: comment lines and trailing comments left out. */
function codeLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
    .map((line) => line.replace(/\s\/\/.*$/, ""));
}

test("no product code outside the runtime adapters uses Bun's or Deno's own API", () => {
  const files = ["api", "ingest", "engine", "storage", "formats", "common"].flatMap((d) => sources(d));
  expect(files.length).toBeGreaterThan(100);
  const used = files
    .filter((f) => !f.startsWith("api/runtime/") && !(f in ALLOWED))
    .flatMap((f) =>
      codeLines(readFileSync(join(ROOT, f), "utf8"))
        .filter((line) => RUNTIME_API.test(line))
        .map((line) => `${f}: ${line.trim()}`),
    );
  expect(used).toEqual([]);
});

test("every allowed file still uses its runtime's API (the list only shrinks)", () => {
  const stale = Object.keys(ALLOWED).filter(
    (f) => !codeLines(readFileSync(join(ROOT, f), "utf8")).some((line) => RUNTIME_API.test(line)),
  );
  expect(stale).toEqual([]);
});
