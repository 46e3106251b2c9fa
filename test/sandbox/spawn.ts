/** Starts the sandbox carrier as a real subprocess on a free port (for tests, here and elsewhere). */
import { join } from "node:path";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";

export interface RunningSandbox {
  url: string;
  /** tcp://host:port of its AIS feed. */
  aisUrl: string;
  /** Base URL of one played carrier's DCSA API. */
  carrierUrl(scac: string): string;
  /** The sandbox airline's server; one airline's ONE Record {{baseURL}} is `${airUrl}/${IATA}`. */
  airUrl: string;
  setClock(body: { now: string } | { advance_hours: number }): Promise<{ now: string; mode: string }>;
  stop(): Promise<void>;
}

const ROOT = join(import.meta.dir, "../..");

export async function startSandbox(env: Record<string, string> = {}): Promise<RunningSandbox> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "ingest/sandbox/main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      SANDBOX_PORT: "0",
      SANDBOX_AIS_PORT: "0",
      SANDBOX_AIR_PORT: "0",
      SANDBOX_CLOCK: "manual",
      // A test run killed mid-way leaves no sandbox behind holding its ports.
      SANDBOX_EXIT_WITH_PARENT: "1",
      ...env,
    },
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const deadline = Date.now() + 30_000;
  let url: string | null = null;
  let airUrl: string | null = null;
  while (!url || !airUrl) {
    if (Date.now() > deadline) throw new Error(`sandbox did not start: ${seen}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`sandbox exited (${await proc.exited}): ${seen}`);
    seen += decoder.decode(value, { stream: true });
    url = /carrier listening on (http:\/\/\S+)/.exec(seen)?.[1] ?? null;
    airUrl = /airline listening on (http:\/\/\S+)/.exec(seen)?.[1] ?? null;
  }
  reader.releaseLock();
  const aisUrl = /AIS feed on (tcp:\/\/\S+)/.exec(seen)?.[1] ?? "";
  return {
    url,
    aisUrl,
    carrierUrl: (scac) => `${url}/${scac}`,
    airUrl,
    async setClock(body) {
      const res = await fetch(`${url}/_sandbox/clock`, { method: "POST", body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`clock: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as { now: string; mode: string };
    },
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

/** The played carriers as PORTOLAN_CARRIERS would name them: tracking and schedules base URLs. */
export async function sandboxCarriers(
  sandbox: RunningSandbox,
  apiKey: string,
): Promise<DcsaConnectorConfig[]> {
  const bases = (await (await fetch(`${sandbox.url}/_sandbox/carriers`)).json()) as Array<{
    scac: string;
    base_path: string;
    schedules_base_path: string;
  }>;
  return bases.map((b) => ({
    scac: b.scac,
    baseUrl: `${sandbox.url}${b.base_path}`,
    schedulesBaseUrl: `${sandbox.url}${b.schedules_base_path}`,
    apiKey,
  }));
}
