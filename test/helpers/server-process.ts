/**
 * `api/main.ts` as a user starts it (or api/runtime/deno-main.ts under Deno), in a process of its own: every product and the sandbox on free
 * loopback ports, on the database of `env.PORTOLAN_DB`, ready once every product answers /healthz.
 */
import { join } from "node:path";
import { PRODUCTS, type ProductId } from "../../api/shared/products.ts";
import { freePort } from "./redis-server.ts";

export interface ServerProcess {
  /** http://127.0.0.1:<port> of each product. */
  base: Record<ProductId, string>;
  /** The PORTOLAN_*_PORT variables it was started with. */
  portEnv: Record<string, string>;
  stop(): Promise<void>;
}

const root = join(import.meta.dir, "../..");

async function until(url: string): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await fetch(url);
      return;
    } catch {
      // The start loads every route worker's graphs first: slow on a busy two-core machine.
      if (tries > 1200) throw new Error(`server did not start (${url})`);
      await Bun.sleep(50);
    }
  }
}

/** The command line of the start under each runtime, as the README gives it. */
const START = {
  bun: [join(root, "node_modules/.bin/bun"), join(root, "api/main.ts")],
  deno: [
    join(root, "node_modules/.bin/deno"),
    "run",
    "-A",
    "--no-check",
    join(root, "api/runtime/deno-main.ts"),
  ],
};

export async function startServerProcess(
  env: Record<string, string | undefined>,
  runtime: keyof typeof START = "bun",
): Promise<ServerProcess> {
  const ports = await Promise.all(PRODUCTS.map(() => freePort()));
  const portEnv: Record<string, string> = {
    ...Object.fromEntries(PRODUCTS.map((p, i) => [`PORTOLAN_${p.id.toUpperCase()}_PORT`, String(ports[i])])),
    PORTOLAN_SANDBOX_PORT: String(await freePort()),
    PORTOLAN_SANDBOX_AIS_PORT: String(await freePort()),
    PORTOLAN_SANDBOX_AIR_PORT: String(await freePort()),
    PORTOLAN_ADMIN_PORT: "off",
  };
  const server = Bun.spawn(START[runtime], {
    env: { ...env, ...portEnv },
    cwd: root,
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = Object.fromEntries(PRODUCTS.map((p, i) => [p.id, `http://127.0.0.1:${ports[i]}`])) as Record<
    ProductId,
    string
  >;
  const stop = async () => {
    server.kill("SIGTERM");
    await server.exited;
  };
  try {
    for (const url of Object.values(base)) await until(`${url}/healthz`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, portEnv, stop };
}
