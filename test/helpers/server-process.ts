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

/** Waits for `url` to answer; false when the process exited first (a port taken in between, say). */
async function until(url: string, exited: () => boolean): Promise<boolean> {
  for (let tries = 0; ; tries++) {
    try {
      await fetch(url);
      return true;
    } catch {
      if (exited()) return false;
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
type Runtime = keyof typeof START;

/**
 * A free port is free when asked, not when the server binds it: another process may take it in
 * between. A start whose process exits before answering is tried again on other ports.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  runtime: Runtime = "bun",
): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(env, runtime);
    if (started) return started;
    if (attempt === 3) throw new Error("the server process exited before it answered, three times");
  }
}

async function startOnce(
  env: Record<string, string | undefined>,
  runtime: Runtime,
): Promise<ServerProcess | null> {
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
  const exited = () => server.exitCode !== null || server.signalCode !== null;
  try {
    for (const url of Object.values(base)) {
      if (!(await until(`${url}/healthz`, exited))) return null;
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, portEnv, stop };
}
