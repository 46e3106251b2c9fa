/** The sandbox carrier as its own process under Bun: `bun ingest/sandbox/main.ts` (./run.ts). */
import type { ListenTcp } from "./ais.ts";
import { runSandbox } from "./run.ts";

const listenTcp: ListenTcp = ({ hostname, port, open, close }) => {
  const server = Bun.listen({ hostname, port, socket: { open, close, data: () => {} } });
  return { port: server.port, stop: () => server.stop(true) };
};

await runSandbox({ serve: (o) => Bun.serve(o), listenTcp });
