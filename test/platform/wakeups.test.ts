/**
 * Wake-ups between roles: in one process, and across two instances (two processes) on a real
 * redis-server, including a re-subscription after a lost connection and Redis being down.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createClient } from "redis";
import { wakeups } from "../../api/shared/cross-process.ts";
import { health } from "../../api/shared/health.ts";
import type { WakeTopic, Wakeups } from "../../ingest/wakeups.ts";
import { captureLogs } from "../helpers/logs.ts";
import { type RedisProcess, startRedis } from "../helpers/redis-server.ts";
import { until } from "../webhooks/setup.ts";

let redis: RedisProcess;
let admin: ReturnType<typeof createClient>;
const opened: Wakeups[] = [];

async function open(url: string | null = redis.url): Promise<Wakeups> {
  const w = await wakeups({ redisUrl: url });
  opened.push(w);
  return w;
}

beforeAll(async () => {
  redis = await startRedis();
  admin = createClient({ url: redis.url });
  await admin.connect();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((w) => w.close()));
});
afterAll(async () => {
  await admin.quit();
  await redis.stop();
});

/** Counts the wake-ups of each topic an instance's listener got. */
function counter(w: Wakeups) {
  const got: Record<WakeTopic, number> = { "webhooks.outbox": 0, "tracking.due": 0 };
  const stops = (Object.keys(got) as WakeTopic[]).map((t) => w.on(t, () => void got[t]++));
  return {
    got,
    stop: () => {
      for (const s of stops) s();
    },
  };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

/** Where REDIS_URL points: nowhere (one process) or the test's redis-server. */
const instances: [string, () => string | null][] = [
  ["in one process", () => null],
  ["with REDIS_URL", () => redis.url],
];

describe.each(instances)("one instance %s", (_, url) => {
  test("a signal wakes that topic's listeners once each, at once, and no other topic's", async () => {
    const w = await open(url());
    const [x, y] = [counter(w), counter(w)];
    w.signal("webhooks.outbox");
    await settle();
    expect([x.got, y.got]).toEqual([
      { "webhooks.outbox": 1, "tracking.due": 0 },
      { "webhooks.outbox": 1, "tracking.due": 0 },
    ]);
    y.stop();
    w.signal("tracking.due");
    await settle();
    expect([x.got, y.got]).toEqual([
      { "webhooks.outbox": 1, "tracking.due": 1 },
      { "webhooks.outbox": 1, "tracking.due": 0 },
    ]);
  });

  test("a listener that throws neither reaches the signaller nor stops the others", async () => {
    const w = await open(url());
    const logs = captureLogs("error");
    try {
      w.on("tracking.due", () => {
        throw new Error("listener bug");
      });
      const x = counter(w);
      expect(() => w.signal("tracking.due")).not.toThrow();
      await settle();
      expect(x.got["tracking.due"]).toBe(1);
      expect(logs.lines.map((l) => [l.component, l.msg])).toEqual([["wakeups", "tracking.due"]]);
    } finally {
      logs.restore();
    }
  });
});

describe("two instances on one Redis", () => {
  test("a signal in one wakes the other's listeners, and its own exactly once", async () => {
    const [a, b] = [await open(), await open()];
    const [inA, inB] = [counter(a), counter(b)];
    a.signal("webhooks.outbox");
    await until(async () => inB.got["webhooks.outbox"] === 1, 5000, "the other instance");
    // One channel delivers in order: once b's reply arrives in a, a's own message has come back too.
    b.signal("tracking.due");
    await until(async () => inA.got["tracking.due"] === 1, 5000, "the barrier");
    expect([inA.got, inB.got]).toEqual([
      { "webhooks.outbox": 1, "tracking.due": 1 },
      { "webhooks.outbox": 1, "tracking.due": 1 },
    ]);
  });

  test("after a lost subscription every listener looks once (a signal may have been missed)", async () => {
    const [a, b] = [await open(), await open()];
    const [inA, inB] = [counter(a), counter(b)];
    await admin.sendCommand(["CLIENT", "KILL", "TYPE", "pubsub"]);
    const once = { "webhooks.outbox": 1, "tracking.due": 1 };
    await until(async () => Bun.deepEquals([inA.got, inB.got], [once, once]), 10_000).catch(() => {});
    expect([inA.got, inB.got]).toEqual([once, once]);
    // Subscribed again: signals flow as before.
    a.signal("webhooks.outbox");
    await until(async () => inB.got["webhooks.outbox"] === 2, 5000).catch(() => {});
    expect(inB.got["webhooks.outbox"]).toBe(2);
  });

  test("closing releases the instance's connections", async () => {
    const clients = async () => (await admin.clientList()).length;
    const before = await clients();
    const ws = [await open(), await open()];
    expect(await clients()).toBe(before + 3); // one shared link, one subscriber each
    await Promise.all(ws.map((w) => w.close()));
    await until(async () => (await clients()) === before, 5000).catch(() => {});
    expect(await clients()).toBe(before);
  });

  test("Redis down: a signal still wakes the signalling process's own listeners", async () => {
    const own = await startRedis();
    const warn = console.warn;
    console.warn = () => {}; // the link announces the outage; not this test's subject
    try {
      const w = await open(own.url);
      const x = counter(w);
      await own.stop();
      await until(
        async () => health({ config: { redisUrl: own.url } }).dependencies.redis === "down",
        10_000,
      );
      w.signal("webhooks.outbox");
      await settle();
      expect(x.got["webhooks.outbox"]).toBe(1);
    } finally {
      console.warn = warn;
    }
  });
});
