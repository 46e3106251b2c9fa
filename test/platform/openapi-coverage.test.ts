/**
 * scripts/openapi-coverage.ts against the answers a test really saw: the lines the answer check
 * appends under PORTOLAN_OPENAPI_COVERAGE, compared with the documents the hosts serve.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let dir: string;
const before = process.env.PORTOLAN_OPENAPI_COVERAGE;
beforeAll(async () => {
  p = await makePlatform();
  dir = mkdtempSync(join(tmpdir(), "coverage-"));
});
afterAll(() => {
  if (before === undefined) delete process.env.PORTOLAN_OPENAPI_COVERAGE;
  else process.env.PORTOLAN_OPENAPI_COVERAGE = before;
  rmSync(dir, { recursive: true, force: true });
  return p.close();
});

test("the pairs a run saw, of those the documents list, and the operations without a 2xx or a 4xx", async () => {
  const file = join(dir, "seen.txt");
  process.env.PORTOLAN_OPENAPI_COVERAGE = file;
  const { keys } = await p.tenant();
  expect((await p.call("rates", "/v1/account/keys", bearer(keys.rates))).status).toBe(200);
  expect((await p.call("rates", "/v1/account/keys")).status).toBe(401);
  expect((await p.call("rates", "/v1/account/keys", bearer(keys.rates))).status).toBe(200);
  delete process.env.PORTOLAN_OPENAPI_COVERAGE;
  expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toEqual([
    "Portolan Rates API\tGET /v1/account/keys 200",
    "Portolan Rates API\tGET /v1/account/keys 401",
    "Portolan Rates API\tGET /v1/account/keys 200",
  ]);

  const doc = await (await p.call("rates", "/docs/json")).json();
  const ops = Object.values(doc.paths as Record<string, Record<string, { responses: object }>>).flatMap((m) =>
    Object.values(m),
  );
  const pairs = ops.reduce((n, op) => n + Object.keys(op.responses).length, 0);
  const run = Bun.spawnSync(["./node_modules/.bin/bun", "scripts/openapi-coverage.ts", file, "--missing"]);
  const out = run.stdout.toString();
  expect(run.exitCode).toBe(0);
  const rates = out.slice(out.indexOf("Portolan Rates API:"), out.indexOf("Portolan Distance"));
  const besides500 = pairs - 2 - ops.length;
  expect(rates.split("\n")[0]).toBe(
    `Portolan Rates API: 2/${pairs} (operation, status) pairs (unseen other than 500: ${besides500}), 1/${ops.length} operations; without a 2xx seen: ${ops.length - 1}, without a 4xx seen: ${ops.length - 1}`,
  );
  expect(rates).toContain("  not seen: GET /v1/account/keys 429\n");
  expect(rates).not.toContain("  not seen: GET /v1/account/keys 200\n");
  expect(rates).toContain("  no 2xx seen: GET /v1/rates/search\n");
  expect(out).toMatch(
    /Portolan Ocean tracking API: 0\/\d+ \(operation, status\) pairs \(unseen other than 500: \d+\), 0\/\d+ operations/,
  );
});
