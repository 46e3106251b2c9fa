/**
 * Runs the sandbox carrier (ingest/sandbox) as a child process for the default start, anchored to
 * today's date so the documented demo references are in their described states. The same process
 * serves the sandbox airline (ONE Record) on its own port.
 */
import { join } from "node:path";
import type { OneRecordAirlineConfig } from "../../ingest/airlines/one-record.ts";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import type { HttpLessorConfig } from "../../ingest/lessors/connector.ts";
import { SANDBOX_AIRLINES } from "../../ingest/sandbox/airline-world.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";

export async function startSandboxCarrier(
  port: number,
  aisPort: number,
  env: Record<string, string | undefined> = process.env,
  airPort = 8092,
) {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "../../ingest/sandbox/main.ts")], {
    env: {
      ...env,
      SANDBOX_PORT: String(port),
      SANDBOX_AIS_PORT: String(aisPort),
      SANDBOX_AIR_PORT: String(airPort),
      SANDBOX_CLOCK: "real",
      SANDBOX_EPOCH: env.SANDBOX_EPOCH ?? today.toISOString(),
      SANDBOX_EXIT_WITH_PARENT: "1",
    },
    // Our end of this pipe closes when this process dies however it dies; the child exits on EOF.
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  let seen = "";
  let url: string | null = null;
  let airUrl: string | null = null;
  while (!url || !airUrl) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`sandbox carrier exited before listening: ${seen}`);
    seen += new TextDecoder().decode(value);
    url = /carrier listening on (http:\/\/\S+)/.exec(seen)?.[1] ?? null;
    airUrl = /airline listening on (http:\/\/\S+)/.exec(seen)?.[1] ?? null;
  }
  reader.releaseLock();
  const carriers: DcsaConnectorConfig[] = SANDBOX_SCACS.map((scac) => ({
    scac,
    baseUrl: `${url}/${scac}`,
    schedulesBaseUrl: `${url}/${scac}/cs/v1`,
  }));
  const lessors: HttpLessorConfig[] = [{ name: "sandbox lessor", baseUrl: `${url}/lessor` }];
  const airlines: OneRecordAirlineConfig[] = SANDBOX_AIRLINES.map(({ iata }) => ({
    iata,
    baseUrl: `${airUrl}/${iata}`,
  }));
  const ais = /AIS feed on (tcp:\/\/\S+)/.exec(seen)?.[1];
  return { url, airUrl, carriers, lessors, airlines, aisFeeds: ais ? [ais] : [], stop: () => proc.kill() };
}
