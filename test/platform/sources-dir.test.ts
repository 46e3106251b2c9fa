/**
 * The raw source data has one base: common/sources-dir.ts. A relative PORTOLAN_SOURCES means the
 * same folder to the data build, the API's config and the carrier tables whatever the working
 * directory, and no other module reads the variable.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { referenceDirFrom, sourcesDirFrom } from "../../common/sources-dir.ts";
import { CODE_FOLDERS, ROOT, sources } from "./source-files.ts";

const HOME = "common/sources-dir.ts";

test("only common/sources-dir.ts reads PORTOLAN_SOURCES", () => {
  const readers = [...CODE_FOLDERS, "test"]
    .flatMap((dir) => sources(dir))
    .filter(
      (file) =>
        file !== HOME &&
        file !== "test/platform/sources-dir.test.ts" &&
        /\.PORTOLAN_SOURCES\b|\["PORTOLAN_SOURCES"\]/.test(readFileSync(join(ROOT, file), "utf8")),
    );
  expect(readers).toEqual([]);
});

test("a relative PORTOLAN_SOURCES is taken from the project root by every reader, from any working directory", () => {
  // A fresh process in another working directory: the readers resolve at their own import time.
  const script = `
    const { loadConfig } = await import(${JSON.stringify(join(ROOT, "api/config.ts"))});
    const { defaultDirs } = await import(${JSON.stringify(join(ROOT, "data-build/pipeline.ts"))});
    const { sourcesDirFrom, referenceDirFrom } = await import(${JSON.stringify(join(ROOT, HOME))});
    console.log(JSON.stringify([loadConfig().sourcesDir, defaultDirs().sourcesDir, sourcesDirFrom(), loadConfig().airRateCard, referenceDirFrom()]));
  `;
  for (const env of [{ PORTOLAN_SOURCES: "../elsewhere/data" }, {}]) {
    const run = Bun.spawnSync([process.execPath, "-e", script], {
      cwd: "/tmp",
      env: { PATH: process.env.PATH, ...env },
    });
    expect(run.stderr.toString()).toBe("");
    const [config, build, common, card, reference] = JSON.parse(run.stdout.toString()) as string[];
    const expected = resolve(ROOT, env.PORTOLAN_SOURCES ?? "../shared/data");
    expect([config, build, common]).toEqual([expected, expected, expected]);
    expect(card).toBe(join(expected, "air/indicative-rate-card.json"));
    expect(reference).toBe(resolve(expected, "../reference"));
  }
});

test("the reference files sit beside the sources unless PORTOLAN_REFERENCE names their folder", () => {
  expect(referenceDirFrom({ PORTOLAN_SOURCES: "/srv/portolan/data" })).toBe("/srv/portolan/reference");
  expect(referenceDirFrom({ PORTOLAN_SOURCES: "/srv/data", PORTOLAN_REFERENCE: "/opt/spec" })).toBe(
    "/opt/spec",
  );
  expect(referenceDirFrom({ PORTOLAN_REFERENCE: "../spec" })).toBe(resolve(ROOT, "../spec"));
});

test("a test platform reads the data where PORTOLAN_SOURCES says, as the server does", () => {
  // The test helpers build their config apart from the environment; the data location is the part
  // they take from it, so a clone away from ../shared runs the suite with PORTOLAN_SOURCES.
  const dir = mkdtempSync(join(tmpdir(), "portolan-sources-"));
  try {
    const link = join(dir, "data");
    symlinkSync(sourcesDirFrom(), link);
    const script = `const { makePlatform } = await import(${JSON.stringify(join(ROOT, "test/helpers/platform.ts"))});
      const p = await makePlatform({ sandbox: false });
      console.log(JSON.stringify(p.config.sourcesDir));
      process.exit(0);`;
    const run = Bun.spawnSync([process.execPath, "-e", script], {
      cwd: "/tmp",
      env: { ...process.env, PORTOLAN_SOURCES: link },
    });
    expect(run.stdout.toString().trim()).toBe(JSON.stringify(link));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
