/**
 * The docs' shell examples, run as README's are (helpers/shell-blocks.ts): every ```sh block of
 * docs/*.md, file by file in one bash, against a started server on a throwaway database, each
 * command checked and every curl failing on an HTTP error status. The variables README's examples
 * set (ORG for "Acme Freight", KEY, DKEY, RKEY) are set first. A block that cannot run here (it
 * starts a long-running process, or builds an image) has `<!-- not run: why -->` right above it,
 * and is only checked to say why.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedTestDatabase } from "../helpers/database.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";
import { runBlocks, shellBlocks } from "../helpers/shell-blocks.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-docs-"));
const env = {
  ...process.env,
  PORTOLAN_DB: sharedTestDatabase(join(dir, "portolan.sqlite")),
  // The longest wait the server allows: a door-to-door route on a loaded machine is not an error.
  PORTOLAN_QUEUE_WAIT_MS: "8000",
};
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess(env);
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const blocks = readdirSync(join(root, "docs"))
  .filter((f) => f.endsWith(".md"))
  .sort()
  .flatMap((f) => shellBlocks(readFileSync(join(root, "docs", f), "utf8"), `docs/${f}`));

/** What README's "Your first call", "Route distances" and "Rates" examples set, as they set it. */
const README_VARIABLES = [
  `ORG=$(bin/portolan org create "Acme Freight" | tail -1)`,
  `KEY=$(bin/portolan key create --org "$ORG" --product ocean | tail -1)`,
  `DKEY=$(bin/portolan key create --org "$ORG" --product distance | tail -1)`,
  `RKEY=$(bin/portolan key create --org "$ORG" --product rates | tail -1)`,
].join("\n");

test("the docs' shell blocks are found, and each one not run says why", () => {
  expect(blocks.length).toBeGreaterThan(5);
  expect(blocks.filter((b) => b.notRun === null).length).toBeGreaterThan(0);
  for (const b of blocks.filter((x) => x.notRun !== null))
    expect(b.notRun!.length, `${b.file}:${b.line}`).toBeGreaterThan(10);
});

test("every docs shell example not marked otherwise runs as written against a started server", async () => {
  const runnable = blocks.filter((b) => b.notRun === null);
  const { code, out, failed } = await runBlocks(runnable, {
    server,
    dir,
    cwd: root,
    env,
    preamble: README_VARIABLES,
  });
  expect({ code, failed }).toEqual({ code: 0, failed: null });
  expect(out).toEndWith("\n@@end\n");
}, 600_000);
