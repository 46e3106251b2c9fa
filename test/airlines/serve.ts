/** The sandbox airline's server in this process, on a real socket, with a manual clock. */
import { createAirlineSandbox } from "../../ingest/sandbox/airline-server.ts";
import { type AirlineWorld, loadAirlineWorld } from "../../ingest/sandbox/airline-world.ts";
import { SandboxClock } from "../../ingest/sandbox/server.ts";
import { DEFAULT_EPOCH } from "../../ingest/sandbox/simulate.ts";

export interface LocalAirline {
  url: string;
  world: AirlineWorld;
  clock: SandboxClock;
  epoch: number;
  /** One airline's ONE Record {{baseURL}}. */
  baseUrl(iata: string): string;
  stop(): void;
}

export async function serveAirline(
  opts: { epoch?: number; apiKey?: string; pageSize?: number; world?: AirlineWorld } = {},
): Promise<LocalAirline> {
  const world = opts.world ?? (await loadAirlineWorld());
  const epoch = opts.epoch ?? DEFAULT_EPOCH;
  const clock = new SandboxClock("manual", { start: epoch });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: createAirlineSandbox({
      world,
      clock,
      epoch,
      apiKey: opts.apiKey ?? null,
      pageSize: opts.pageSize,
    }),
  });
  const url = `http://127.0.0.1:${server.port}`;
  return { url, world, clock, epoch, baseUrl: (iata) => `${url}/${iata}`, stop: () => server.stop(true) };
}
