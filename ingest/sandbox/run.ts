/**
 * The sandbox carrier's process, runtime neutral: its entry (./main.ts for Bun,
 * api/runtime/deno-sandbox.ts for Deno) hands it the runtime's servers.
 * SANDBOX_PORT (8090), SANDBOX_AIS_PORT (8091, TCP AIVDM feed), SANDBOX_AIS_INTERVAL_MS (10000),
 * SANDBOX_AIR_PORT (8092, the sandbox airline's ONE Record servers: ./airline-server.ts),
 * SANDBOX_HOST (127.0.0.1), SANDBOX_CLOCK (real | manual), SANDBOX_START
 * (ISO: initial clock reading), SANDBOX_TIME_SCALE (real clock speed-up), SANDBOX_EPOCH (ISO: anchor
 * of booking dates), SANDBOX_API_KEY, SANDBOX_EXIT_WITH_PARENT (1: exit when stdin closes),
 * PORTOLAN_SOURCES, PORTOLAN_BUILD_DIR.
 */

import { createAirlineSandbox } from "./airline-server.ts";
import { loadAirlineWorld } from "./airline-world.ts";
import { type ListenTcp, SandboxAis } from "./ais.ts";
import { createSandbox, SandboxClock } from "./server.ts";
import { DEFAULT_EPOCH } from "./simulate.ts";
import { loadWorld } from "./world.ts";

function instant(name: string): number | undefined {
  const raw = process.env[name];
  if (!raw) return undefined;
  const t = Date.parse(raw);
  if (Number.isNaN(t)) throw new Error(`${name} must be an ISO 8601 date-time, got "${raw}"`);
  return t;
}

/** The runtime's HTTP server and TCP listener, handed in by the entry (./main.ts under Bun). */
export interface SandboxRuntime {
  serve(o: { port: number; hostname: string; fetch: (request: Request) => Response | Promise<Response> }): {
    hostname?: string;
    port?: number;
  };
  listenTcp: ListenTcp;
}

export async function runSandbox(runtime: SandboxRuntime): Promise<void> {
  const mode = process.env.SANDBOX_CLOCK ?? "real";
  if (mode !== "real" && mode !== "manual")
    throw new Error(`SANDBOX_CLOCK must be real or manual, got "${mode}"`);
  const timeScale = Number(process.env.SANDBOX_TIME_SCALE ?? 1);
  if (!(timeScale > 0)) throw new Error("SANDBOX_TIME_SCALE must be a positive number");
  const port = Number(process.env.SANDBOX_PORT ?? 8090);

  const hostname = process.env.SANDBOX_HOST ?? "127.0.0.1";
  const [world, airWorld] = await Promise.all([loadWorld(), loadAirlineWorld()]);
  const clock = new SandboxClock(mode, { start: instant("SANDBOX_START"), timeScale });
  const epoch = instant("SANDBOX_EPOCH") ?? DEFAULT_EPOCH;
  const ais = new SandboxAis(world, epoch);
  const feed = ais.listen(
    runtime.listenTcp,
    Number(process.env.SANDBOX_AIS_PORT ?? 8091),
    hostname,
    Number(process.env.SANDBOX_AIS_INTERVAL_MS ?? 10_000),
    () => clock.now(),
  );
  const apiKey = process.env.SANDBOX_API_KEY || null;
  const fetch = createSandbox({
    world,
    clock,
    epoch,
    apiKey,
    onClock: () => feed.publish(),
  });
  const server = runtime.serve({ port, hostname, fetch });
  // The airline shares the clock: /_sandbox/clock on either port moves both.
  const airline = runtime.serve({
    port: Number(process.env.SANDBOX_AIR_PORT ?? 8092),
    hostname,
    fetch: createAirlineSandbox({ world: airWorld, clock, epoch, apiKey, clockControl: fetch }),
  });
  console.log(`sandbox AIS feed on tcp://${hostname}:${feed.port}`);
  console.log(`sandbox carrier listening on http://${server.hostname}:${server.port} (clock ${mode})`);
  console.log(`sandbox airline listening on http://${airline.hostname}:${airline.port} (ONE Record)`);

  if (process.env.SANDBOX_EXIT_WITH_PARENT === "1") {
    // The parent holds our stdin open; the kernel closes it when the parent dies, even by SIGKILL, so
    // end of input means nobody owns us any more: exit and free the ports for the next start.
    (async () => {
      for await (const _ of process.stdin) {
        // Nothing is ever sent; only the end matters.
      }
      process.exit(0);
    })();
  }
}
