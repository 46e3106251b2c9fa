/**
 * A compat test world: the sandbox carrier (its own process, manual clock) behind a counting proxy
 * (a real Bun.serve that forwards and counts, optionally slowly), a platform whose carriers point
 * at the proxy, and an entitled organisation with an ocean key.
 */
import { closeCompat } from "../../api/compat/routes.ts";
import type { Config } from "../../api/config.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

export interface CountingProxy {
  url: string;
  /** Carrier requests seen, per reference (the query's value), and in all. */
  asked(reference?: string): number;
  /** Held before forwarding (a slow carrier). */
  delayMs: number;
  /** Answered instead of forwarding (a carrier in trouble), with Retry-After when set. */
  fail: { status: number; retryAfter?: number } | null;
  stop(): void;
}

export function countingProxy(target: string): CountingProxy {
  const seen = new Map<string, number>();
  let total = 0;
  const proxy: CountingProxy = {
    url: "",
    delayMs: 0,
    fail: null,
    asked: (reference) => (reference === undefined ? total : (seen.get(reference) ?? 0)),
    stop: () => server.stop(true),
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      total++;
      for (const value of url.searchParams.values()) seen.set(value, (seen.get(value) ?? 0) + 1);
      if (proxy.delayMs > 0) await Bun.sleep(proxy.delayMs);
      if (proxy.fail) {
        const { status, retryAfter } = proxy.fail;
        const headers = retryAfter === undefined ? undefined : { "retry-after": String(retryAfter) };
        return new Response(JSON.stringify({ message: "carrier trouble" }), { status, headers });
      }
      const res = await fetch(`${target}${url.pathname}${url.search}`, { headers: req.headers });
      return new Response(await res.arrayBuffer(), { status: res.status, headers: res.headers });
    },
  });
  proxy.url = `http://127.0.0.1:${server.port}`;
  return proxy;
}

export interface CompatWorld {
  sandbox: RunningSandbox;
  proxy: CountingProxy;
  clock: ManualClock;
  p: TestPlatform;
  orgId: string;
  key: string;
  /** Moves our clock and the carrier's. */
  at(instant: string | number): Promise<void>;
  close(): Promise<void>;
}

export async function compatWorld(
  opts: { start?: string; config?: Partial<Config>; sandboxEnv?: Record<string, string> } = {},
): Promise<CompatWorld> {
  const start = opts.start ?? "2026-11-21T12:00:00Z";
  const sandbox = await startSandbox({ SANDBOX_START: start, ...opts.sandboxEnv });
  const proxy = countingProxy(sandbox.url);
  const clock = new ManualClock(Date.parse(start));
  const p = await makePlatform(
    {
      carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: `${proxy.url}/${scac}` })),
      ...opts.config,
    },
    clock.now,
  );
  const org = await p.accounts.createOrg("compat", { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  const key = (await p.accounts.createKey(org.id, "ocean")).key;
  return {
    sandbox,
    proxy,
    clock,
    p,
    orgId: org.id,
    key,
    async at(instant) {
      clock.t = typeof instant === "number" ? instant : Date.parse(instant);
      await sandbox.setClock({ now: new Date(clock.t).toISOString() });
    },
    async close() {
      await closeCompat(p);
      proxy.stop();
      await sandbox.stop();
      await p.close();
    },
  };
}

export type Json = Record<string, unknown>;

/** An organisation of its own (with the ocean product and a key), on the plan given. */
export async function oceanTenant(
  w: CompatWorld,
  name: string,
  plan: Parameters<CompatWorld["p"]["accounts"]["createOrg"]>[1],
) {
  const org = await w.p.accounts.createOrg(name, { rateLimit: 1_000_000, ...plan });
  await w.p.accounts.setEntitlement(org.id, "ocean", null);
  return { orgId: org.id, key: (await w.p.accounts.createKey(org.id, "ocean")).key };
}

/** An ocean API call with that key, in-process: its status and JSON body. */
export async function oceanCall(w: CompatWorld, key: string, path: string, init: RequestInit = {}) {
  const res = await w.p.call("ocean", path, {
    ...init,
    ...bearer(key, { "content-type": "application/json" }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** GET a compat path in-process; query values are sent as given. */
export async function compatGet(
  w: CompatWorld,
  query: Record<string, string>,
  path = "/compat/vendor/tracking",
): Promise<{ status: number; headers: Headers; body: Json }> {
  const qs = new URLSearchParams({ api_key: w.key, ...query });
  const res = await w.p.call("ocean", `${path}?${qs}`);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
}
