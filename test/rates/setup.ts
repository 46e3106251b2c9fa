/**
 * What the rates tests share: a platform on a database the CLI (a real `bin/portolan` process)
 * opens too, and calls to the rates host with a tenant's key.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Config } from "../../api/config.ts";
import { runCli } from "../helpers/cli.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

export type Json = Record<string, unknown> & { data: Record<string, unknown> & { error?: never } };

export interface RatesWorld {
  p: TestPlatform;
  dir: string;
  database: string;
  /** Writes `text` to `name` in the world's folder and returns its path. */
  file(name: string, text: string): string;
  /** `bin/portolan ...` on the world's database. */
  cli(...args: string[]): { code: number; out: string[]; err: string };
  get(key: string, path: string): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

export async function ratesWorld(overrides: Partial<Config> = {}, now?: () => number): Promise<RatesWorld> {
  const dir = mkdtempSync(join(tmpdir(), "portolan-rates-"));
  const database = sharedTestDatabase(join(dir, "portolan.sqlite"));
  const p = await makePlatform({ database, ...overrides }, now);
  return {
    p,
    dir,
    database,
    file(name, text) {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    },
    cli(...args) {
      return runCli(args, { ...process.env, PORTOLAN_DB: database });
    },
    async get(key, path) {
      const res = await p.call("rates", path, bearer(key));
      return { status: res.status, body: (await res.json()) as Json };
    },
    async close() {
      await p.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
