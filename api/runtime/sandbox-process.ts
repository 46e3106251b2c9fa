/**
 * Runs the sandbox carrier (ingest/sandbox) as a child process for the default start, anchored to
 * today's date so the documented demo references are in their described states. The same process
 * serves the sandbox airline (ONE Record) on its own port. It is supervised: when it exits it is
 * started again on the same ports and epoch, after a back-off that doubles up to a ceiling; /readyz
 * reports it degraded meanwhile and every exit and restart is logged.
 */
import { log } from "../../common/log.ts";
import type { OneRecordAirlineConfig } from "../../ingest/airlines/one-record.ts";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import type { HttpLessorConfig } from "../../ingest/lessors/connector.ts";
import { SANDBOX_AIRLINES } from "../../ingest/sandbox/airline-world.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import type { Child, Runtime } from "./runtime.ts";

type Env = Record<string, string | undefined>;

/** Back-off before a restart: the first, its ceiling, and a run long enough to start again from the first. */
export const RESTART_FIRST_MS = 250;
export const RESTART_MAX_MS = 30_000;
const STABLE_RUN_MS = 60_000;

interface Ports {
  port: number;
  aisPort: number;
  airPort: number;
}

interface Spawned {
  proc: Child;
  url: string;
  airUrl: string;
  ais: string | null;
}

/** Starts the sandbox process and waits for it to name the addresses it listens on. */
async function spawnSandbox(
  spawn: Runtime["spawnSandbox"],
  ports: Ports,
  env: Env,
  epoch: string,
): Promise<Spawned> {
  // The child's stdin is a pipe whose our end closes when this process dies however it dies; the
  // child exits on EOF (SANDBOX_EXIT_WITH_PARENT).
  const proc = spawn({
    ...env,
    SANDBOX_PORT: String(ports.port),
    SANDBOX_AIS_PORT: String(ports.aisPort),
    SANDBOX_AIR_PORT: String(ports.airPort),
    SANDBOX_CLOCK: "real",
    SANDBOX_EPOCH: epoch,
    SANDBOX_EXIT_WITH_PARENT: "1",
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
  return { proc, url, airUrl, ais: /AIS feed on (tcp:\/\/\S+)/.exec(seen)?.[1] ?? null };
}

/** Restarts the process `respawn` makes whenever the current one exits, until stopped. */
function supervise(first: Spawned, respawn: () => Promise<Spawned>) {
  let current = first.proc;
  let state: "up" | "restarting" = "up";
  let stopped = false;
  let delay = RESTART_FIRST_MS;
  let startedAt = Date.now();
  const restart = async (): Promise<void> => {
    while (!stopped) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay = Math.min(delay * 2, RESTART_MAX_MS);
      if (stopped) return;
      try {
        const next = await respawn();
        if (stopped) next.proc.kill();
        else watch(next.proc);
        return;
      } catch (err) {
        log.error({ role: "sandbox", err, retry_in_ms: delay }, "sandbox carrier did not start again");
      }
    }
  };
  const watch = (proc: Child) => {
    current = proc;
    state = "up";
    startedAt = Date.now();
    if (proc !== first.proc) log.info({ role: "sandbox", child_pid: proc.pid }, "sandbox carrier restarted");
    void proc.exited.then(({ code, signal }) => {
      if (stopped) return;
      state = "restarting";
      if (Date.now() - startedAt >= STABLE_RUN_MS) delay = RESTART_FIRST_MS;
      log.warn(
        {
          role: "sandbox",
          child_pid: proc.pid,
          exit_code: code,
          signal,
          restart_in_ms: delay,
        },
        "sandbox carrier exited; restarting it",
      );
      void restart();
    });
  };
  watch(first.proc);
  return {
    state: () => state,
    pid: () => current.pid,
    stop: () => {
      stopped = true;
      current.kill();
    },
  };
}

const portOf = (url: string) => Number(new URL(url).port);

export async function startSandboxCarrier(
  spawn: Runtime["spawnSandbox"],
  port: number,
  aisPort: number,
  env: Env = process.env,
  airPort = 8092,
) {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const epoch = env.SANDBOX_EPOCH ?? today.toISOString();
  const first = await spawnSandbox(spawn, { port, aisPort, airPort }, env, epoch);
  const { url, airUrl, ais } = first;
  // Restarts take the ports the first start got, so every address handed out stays right.
  const ports = { port: portOf(url), airPort: portOf(airUrl), aisPort: ais ? portOf(ais) : aisPort };
  const supervisor = supervise(first, () => spawnSandbox(spawn, ports, env, epoch));
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
  return { url, airUrl, carriers, lessors, airlines, aisFeeds: ais ? [ais] : [], ...supervisor };
}
