/**
 * scripts/postgres-temp.sh from a test: a PostgreSQL of the test's own (`start` prints its URL and
 * folder; `down`, `up` and `stop` take the folder). Throws with the script's stderr when it fails.
 */
import { join } from "node:path";

const SCRIPT = join(import.meta.dir, "../../scripts/postgres-temp.sh");

export function postgresTemp(command: "start" | "down" | "up" | "stop", dir?: string): string {
  const run = Bun.spawnSync(["bash", SCRIPT, command, ...(dir === undefined ? [] : [dir])]);
  if (run.exitCode !== 0) throw new Error(`postgres-temp.sh ${command}: ${run.stderr.toString()}`);
  return run.stdout.toString().trim();
}
