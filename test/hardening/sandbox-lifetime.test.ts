/**
 * The default start runs the sandbox carrier as a child process. When the API is killed the child
 * must not keep its ports (the next start would die with EADDRINUSE): the child exits with
 * its parent, however the parent dies; and a child that dies is started again on its ports.
 */
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
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

/**
 * The JSON log lines a process wrote to stdout, read as they come, and passed on to the suite's
 * PORTOLAN_LOG_FILE when there is one (the suite scans it for secrets).
 */
function logLines(stream: ReadableStream<Uint8Array>): Array<Record<string, unknown>> {
  const suiteLog = process.env.PORTOLAN_LOG_FILE;
  const lines: Array<Record<string, unknown>> = [];
  void (async () => {
    let rest = "";
    for await (const chunk of stream) {
      rest += new TextDecoder().decode(chunk);
      const parts = rest.split("\n");
      rest = parts.pop()!;
      if (suiteLog && parts.length > 0) appendFileSync(suiteLog, `${parts.join("\n")}\n`);
      for (const line of parts) if (line.startsWith("{")) lines.push(JSON.parse(line));
    }
  })();
  return lines;
}

test("a killed sandbox carrier is started again on its ports, logged and reported by /readyz", async () => {
  const productPorts = await Promise.all(PRODUCTS.map(() => freePort()));
  const [sandboxPort, adminPort] = [await freePort(), await freePort()];
  const proc = Bun.spawn([process.execPath, join(root, "api/main.ts")], {
    env: {
      ...process.env,
      PORTOLAN_DB: join(dir, "restart.sqlite"),
      PORTOLAN_ROLES: "api",
      PORTOLAN_LOG_LEVEL: "info",
      // Read from its stdout below.
      PORTOLAN_LOG_FILE: "",
      PORTOLAN_SANDBOX_PORT: String(sandboxPort),
      PORTOLAN_SANDBOX_AIS_PORT: String(await freePort()),
      PORTOLAN_SANDBOX_AIR_PORT: String(await freePort()),
      PORTOLAN_ADMIN_PORT: String(adminPort),
      ...Object.fromEntries(
        PRODUCTS.map((p, i) => [`PORTOLAN_${p.id.toUpperCase()}_PORT`, String(productPorts[i])]),
      ),
    },
    cwd: root,
    stdout: "pipe",
    stderr: "inherit",
  });
  started.push(proc);
  const lines = logLines(proc.stdout);
  const line = (msg: string) => lines.find((l) => l.msg === msg);
  const sandboxCheck = async () => {
    try {
      const body = (await (await fetch(`http://127.0.0.1:${adminPort}/readyz`)).json()) as {
        checks: { sandbox?: { status: string } };
      };
      return body.checks.sandbox?.status;
    } catch {
      return undefined;
    }
  };
  await until("start", async () => (await sandboxCheck()) === "up", 600);
  const first = line("sandbox carrier (DCSA TNT 2.2) listening")?.child_pid as number;
  expect(first).toBeGreaterThan(0);

  process.kill(first, "SIGKILL");
  await until("the exit logged", async () => line("sandbox carrier exited; restarting it") !== undefined);
  expect(line("sandbox carrier exited; restarting it")).toMatchObject({ level: 40, child_pid: first });
  await until("the restart logged", async () => line("sandbox carrier restarted") !== undefined, 600);
  const second = line("sandbox carrier restarted")?.child_pid;
  expect(second).not.toBe(first);
  await until("/readyz sandbox up again", async () => (await sandboxCheck()) === "up");
  expect(await listening(sandboxPort)).toBe(true);

  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
  await until("sandbox gone after a clean stop", async () => !(await listening(sandboxPort)));
}, 120_000);
