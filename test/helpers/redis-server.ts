/** Starts a real redis-server on a free loopback port for one test file. */
import { createServer } from "node:net";

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
}

/** On a free port, or on `port` (a restart after stop(): the data is not kept). */
export async function startRedis(port?: number): Promise<RedisProcess> {
  port ??= await freePort();
  const proc = Bun.spawn(
    ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdout: "pipe", stderr: "pipe" },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const sock = await Bun.connect({ hostname: "127.0.0.1", port, socket: { data() {} } });
      sock.end();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}`);
      await Bun.sleep(50);
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}
