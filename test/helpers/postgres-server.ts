/**
 * scripts/postgres-temp.sh from a test: a PostgreSQL of the test's own (`start` prints its URL and
 * folder; `down`, `up` and `stop` take the folder, `up` a port other than the server's own too).
 * Throws with the script's stderr when it fails.
 */
import { join } from "node:path";

const SCRIPT = join(import.meta.dir, "../../scripts/postgres-temp.sh");

export function postgresTemp(command: "start" | "down" | "up" | "stop", dir?: string, port?: number): string {
  const args = [dir, port?.toString()].filter((a): a is string => a !== undefined);
  const run = Bun.spawnSync(["bash", SCRIPT, command, ...args]);
  if (run.exitCode !== 0) throw new Error(`postgres-temp.sh ${command}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}
