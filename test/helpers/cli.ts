/**
 * `bin/portolan` as an operator runs it, in a process of its own: the keys and webhook secrets it
 * prints are recorded for the suite's secrets gate (issued-secrets.ts).
 */
import { join } from "node:path";
import { recordPrinted } from "./issued-secrets.ts";

export const PORTOLAN = join(import.meta.dir, "../../bin/portolan");
const root = join(import.meta.dir, "../..");

export interface CliRun {
  code: number;
  /** Standard output, trimmed, one entry a line. */
  out: string[];
  err: string;
}

/** Runs `bin/portolan ...args` from the repository root with `env` as its whole environment. */
export function runCli(args: string[], env: Record<string, string | undefined> = process.env): CliRun {
  const r = Bun.spawnSync([PORTOLAN, ...args], { env, cwd: root });
  const out = r.stdout.toString();
  const err = r.stderr.toString();
  recordPrinted(out + err);
  return { code: r.exitCode, out: out.trim().split("\n"), err };
}
