/**
 * The README's shell examples, run as written against a started server: every ```sh block in
 * order, in one bash (so ORG, KEY and the other variables carry from block to block), each command
 * checked (errexit, pipefail) and every curl made to fail on an HTTP error status
 * (--fail-with-body). What the test changes, and why:
 * - the set-up block (scripts/start.sh and scripts/test.sh) is skipped: it installs packages and
 *   starts the service, which this test does itself (helpers/server-process.ts);
 * - the products' default URLs (http://127.0.0.1:8080 to 8085) become the started server's free
 *   ports, and /tmp/ (and TMPDIR) a folder of this run's, so runs never meet another service or run;
 * - the server runs on a throwaway database (a SQLite file, or a PostgreSQL schema in the suite's
 *   PostgreSQL pass).
 * A README example that stops working fails here, naming the block and the command.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedTestDatabase } from "../helpers/database.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";
import { runBlocks, shellBlocks } from "../helpers/shell-blocks.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-readme-"));
const env = {
  ...process.env,
  PORTOLAN_DB: sharedTestDatabase(join(dir, "portolan.sqlite")),
  // The longest wait the server allows: a door-to-door route on a loaded machine is not an error.
  PORTOLAN_QUEUE_WAIT_MS: "8000",
};
let server: ServerProcess;

const SET_UP = /scripts\/(start|test)\.sh/;

beforeAll(async () => {
  server = await startServerProcess(env);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the README's shell blocks find the set-up block and the examples", () => {
  const blocks = shellBlocks(readFileSync(join(root, "README.md"), "utf8"), "README.md");
  expect(blocks.filter((b) => SET_UP.test(b.text)).map((b) => b.section)).toEqual(["Set-up: two commands"]);
  expect(blocks.length).toBeGreaterThan(5);
});

test("every README shell example runs as written against a started server", async () => {
  const blocks = shellBlocks(readFileSync(join(root, "README.md"), "utf8"), "README.md").filter(
    (b) => !SET_UP.test(b.text),
  );
  const { code, out, outputs, failed } = await runBlocks(blocks, { server, dir, cwd: root, env });
  expect({ code, failed }).toEqual({ code: 0, failed: null });
  expect(out).toEndWith("\n@@end\n");
  // What each example promises beyond its exit status, checked on that block's own output.
  const shows = (section: string, pattern: RegExp) => {
    const output = outputs[blocks.findIndex((b) => b.section === section)] ?? "";
    return { section, pattern: String(pattern), shown: pattern.test(output) };
  };
  for (const [section, pattern] of [
    ["Your first call", /"ok":true/],
    ["Track a container", /"identifier":"MRKU0158387"/],
    ["Route distances", /"distance":\{"nm":\d/],
    ["Rates", /"indicative":false/], // the sample sheet is current, so it offers its rates
    ["Load plans", /"status":"complete"/],
    ["Webhooks", /\bping \S+ signature ok$/m], // after the test route's answer, on its line,
  ] as const) {
    expect(shows(section, pattern)).toEqual({ section, pattern: String(pattern), shown: true });
  }
  expect(shows("Rates", /^warning:/m).shown).toBe(false);
  // The batch example planned every pair of its sample file.
  const pairs = readFileSync(join(root, "examples/port-pairs.csv"), "utf8").trim().split("\n").length - 1;
  const planned = readFileSync(join(dir, "results.ndjson"), "utf8").trim().split("\n");
  expect(planned.map((l) => JSON.parse(l).ok)).toEqual(Array(pairs).fill(true));
});

/**
 * Commands in code spans and fenced blocks that start with a bare `bun`, `deno` or another tool npm
 * installs into node_modules/.bin (after any VAR=value): none is on a fresh clone's PATH.
 */
function bareRuntimeCommands(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  const blockLines = [...markdown.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].flatMap((m) => m[1]!.split("\n"));
  return [...spans, ...blockLines].filter((c) =>
    /^(\w+=\S*\s+)*(bun|deno|biome|tsc|drizzle-kit)\s/.test(c.trim()),
  );
}

test("README and docs run bun, deno and the other npm tools through npx, npm run or bin/, never bare", () => {
  const files = [
    "README.md",
    ...readdirSync(join(root, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const bare = files.flatMap((f) =>
    bareRuntimeCommands(readFileSync(join(root, f), "utf8")).map((c) => `${f}: ${c}`),
  );
  expect(bare).toEqual([]);
});
