/** `npm run bench`: every bench in turn, each printing its figures against a baseline from the same run. */
import { existsSync } from "node:fs";
import { join } from "node:path";

const BENCHES = [
  "http.ts",
  "http-cpu.ts",
  "observability.ts",
  "tracking.ts",
  "router.ts",
  "road.ts",
  "road-accuracy.ts",
  "river.ts",
  "multimodal.ts",
  "ais.ts",
  "webhooks.ts",
  "starvation.ts",
  "sqlite-burst.ts",
  "scale-out.ts",
  "schedules.ts",
  "loadplan.ts",
  "batch.ts",
  "locations.ts",
];
for (const file of BENCHES) {
  const path = join(import.meta.dir, file);
  if (!existsSync(path)) continue;
  console.log(`\n== ${file}`);
  const proc = Bun.spawn([process.execPath, path], { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) process.exitCode = 1;
}
