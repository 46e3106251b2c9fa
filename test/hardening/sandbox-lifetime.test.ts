/**
 * Issue 10.4: the default start runs the sandbox carrier as a child process. When the API was
 * killed the child kept its ports and the next start died with EADDRINUSE. Now the child exits with
 * its parent, however the parent dies.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PRODUCTS } from "../../api/shared/products.ts";
import { freePort } from "../helpers/redis-server.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-sandbox-life-"));
const started: Array<ReturnType<typeof Bun.spawn>> = [];
afterAll(() => {
  for (const p of started) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: "127.0.0.1", port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

async function until(what: string, check: () => Promise<boolean>, tries = 300) {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await Bun.sleep(50);
  }
  throw new Error(`gave up waiting: ${what}`);
}

test("a SIGKILLed API takes its sandbox child with it, and the next start gets the same ports", async () => {
  const productPorts = await Promise.all(PRODUCTS.map(() => freePort()));
  const sandboxPort = await freePort();
  const env = {
    ...process.env,
    PORTOLAN_DB: join(dir, "portolan.sqlite"),
    PORTOLAN_SANDBOX_PORT: String(sandboxPort),
    PORTOLAN_SANDBOX_AIS_PORT: String(await freePort()),
    PORTOLAN_SANDBOX_AIR_PORT: String(await freePort()),
    PORTOLAN_ADMIN_PORT: "off",
    ...Object.fromEntries(
      PRODUCTS.map((p, i) => [`PORTOLAN_${p.id.toUpperCase()}_PORT`, String(productPorts[i])]),
    ),
  };
  const start = () => {
    const proc = Bun.spawn([process.execPath, join(root, "api/main.ts")], {
      env,
      cwd: root,
      stdout: "ignore",
      stderr: "pipe",
    });
    started.push(proc);
    return proc;
  };
  const health = async () => {
    try {
      return (await fetch(`http://127.0.0.1:${productPorts[0]}/healthz`)).status === 200;
    } catch {
      return false;
    }
  };

  const first = start();
  await until("first start", health);
  expect(await listening(sandboxPort)).toBe(true);

  first.kill("SIGKILL");
  await first.exited;
  await until("sandbox port released", async () => !(await listening(sandboxPort)));

  const second = start();
  await until("second start", async () => (await health()) || second.exitCode !== null);
  expect(second.exitCode).toBeNull();
  expect(await listening(sandboxPort)).toBe(true);
  second.kill("SIGTERM");
  expect(await second.exited).toBe(0);
  await until("sandbox gone after a clean stop", async () => !(await listening(sandboxPort)));
}, 60_000);
