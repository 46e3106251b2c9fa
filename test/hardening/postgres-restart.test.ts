/**
 * PostgreSQL restarting again and again while two API processes (api/main.ts, as users start it)
 * take writes on it: load plans (a transaction each), webhook endpoints and demurrage terms, from
 * nine clients posting throughout. Neither process may exit; every answer is a success or a 503
 * SERVICE_UNAVAILABLE in the product's envelope with a Retry-After (never a 500, never a dropped
 * connection); after every restart both processes take each write again on their own. A server of
 * the test's own (scripts/postgres-temp.sh), stopped and started on the same port.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { openStorage } from "../../storage/open.ts";
import { recordingFetch, testAccounts } from "../helpers/issued-secrets.ts";
import { postgresTemp as pg } from "../helpers/postgres-server.ts";
import { type ApiProcess, startApi } from "./sqlite-cluster.ts";

const RESTARTS = 12;
/** How long the server stays down each time. */
const DOWN_MS = 1_000;
/** Load between restarts, once both processes take writes again. */
const UP_MS = 300;
/** A process still refusing writes this long after the server came back is stuck. */
const STUCK_MS = 30_000;
/** What each of the nine clients posts: mostly load plans, whose transactions the restarts cut. */
const CLIENT_WRITES = [0, 0, 0, 0, 0, 1, 1, 2, 2];
/** A small load the planner packs at once. */
const PLAN = {
  name: "restart",
  dimension_unit: "cm",
  equipment: ["20GP"],
  items: [{ id: "crate", length: 60, width: 50, height: 40, weight: 40, quantity: 4 }],
  work_budget: 0,
};

let dir = "";
const apis: ApiProcess[] = [];
const keys = { ocean: "", loading: "" };

beforeAll(async () => {
  const [url, folder] = pg("start").split(" ") as [string, string];
  dir = folder;
  const storage = await openStorage(url, { poolSize: 2 });
  try {
    const accounts = testAccounts(storage);
    const org = await accounts.createOrg("restarts", { paid: true, plan: "pro", rateLimit: 1_000_000_000 });
    for (const product of ["ocean", "loading"] as const) {
      await accounts.setEntitlement(org.id, product, null);
      keys[product] = (await accounts.createKey(org.id, product)).key;
    }
  } finally {
    await storage.close();
  }
  // Webhook targets on loopback are registered, never delivered to (nothing listens on port 9).
  // The webhook clients register far more endpoints than an organisation may hold by default.
  const env = { PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1", PORTOLAN_WEBHOOK_MAX_ENDPOINTS: "100000" };
  apis.push(...(await Promise.all([0, 1].map(() => startApi(url, [], env, "tail")))));
}, 120_000);

afterAll(async () => {
  await Promise.all(apis.map((a) => a.stop("SIGKILL")));
  if (dir) pg("stop", dir);
});

interface Write {
  url: string;
  key: string;
  body: () => unknown;
}

/** The three writes, on one process. */
function writes(api: ApiProcess, n: () => number): Write[] {
  return [
    { url: `${api.urls.loading}/v1/load-plans`, key: keys.loading, body: () => PLAN },
    {
      url: `${api.urls.ocean}/v1/webhooks`,
      key: keys.ocean,
      body: () => ({ url: `https://127.0.0.1:9/hook/${n()}` }),
    },
    {
      url: `${api.urls.ocean}/v1/demurrage/terms`,
      key: keys.ocean,
      body: () => ({ carrier_code: "MAEU", port_unlocode: "NLRTM", free_days: n() % 30 }),
    },
  ];
}

/** What one answer was: "ok", "503" (in the envelope, with Retry-After), or what was wrong with it. */
async function post(write: Write): Promise<string> {
  let res: Response;
  try {
    res = await recordingFetch(write.url, {
      method: "POST",
      headers: { authorization: `Bearer ${write.key}`, "content-type": "application/json" },
      body: JSON.stringify(write.body()),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (err) {
    return `${write.url}: no answer (${(err as Error).message})`;
  }
  const text = await res.text();
  if (res.status === 200 || res.status === 201) return "ok";
  let code: unknown;
  try {
    code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
  } catch {}
  if (res.status === 503 && code === "SERVICE_UNAVAILABLE" && res.headers.get("retry-after")) return "503";
  return `${write.url}: ${res.status} ${text.slice(0, 200)}`;
}

const running = (api: ApiProcess) => api.proc.exitCode === null && api.proc.signalCode === null;

/**
 * Posts until the process takes each write: "" then, else what it answered last when it exited or
 * still refused after STUCK_MS (a hang, not a speed target).
 */
async function serves(api: ApiProcess, n: () => number): Promise<string> {
  const end = performance.now() + STUCK_MS;
  for (const write of writes(api, n)) {
    for (let answer = await post(write); answer !== "ok"; answer = await post(write)) {
      if (!running(api) || performance.now() > end) return `${write.url}: ${answer}`;
      await Bun.sleep(50);
    }
  }
  return "";
}

test(`${RESTARTS} PostgreSQL restarts under writes to two API processes: no exit, no 500, no dropped connection`, async () => {
  let counter = 0;
  const n = () => counter++;
  const answers = { ok: 0, unavailable: 0 };
  const wrong: string[] = [];
  let stop = false;
  const client = async (i: number) => {
    const write = writes(apis[i % 2]!, n)[CLIENT_WRITES[i]!]!;
    while (!stop && apis.every(running)) {
      const answer = await post(write);
      if (answer === "ok") answers.ok++;
      else if (answer === "503") answers.unavailable++;
      else wrong.push(answer);
    }
  };
  const clients = CLIENT_WRITES.map((_, i) => client(i));
  let restarts = 0;
  const stuck: string[] = [];
  try {
    while (restarts < RESTARTS && apis.every(running) && stuck.length === 0) {
      await Bun.sleep(UP_MS);
      pg("down", dir);
      await Bun.sleep(DOWN_MS);
      pg("up", dir);
      restarts++;
      for (const api of apis) {
        const refused = await serves(api, n);
        if (refused) stuck.push(`after restart ${restarts}, ${refused}\n${api.log.join("\n")}`);
      }
    }
  } finally {
    stop = true;
    await Promise.all(clients);
  }
  const exited = apis
    .filter((a) => !running(a))
    .map((a) => `exited (${a.proc.exitCode ?? a.proc.signalCode}):\n${a.log.join("\n")}`);
  expect(exited).toEqual([]);
  expect(stuck).toEqual([]);
  expect(wrong.slice(0, 5)).toEqual([]);
  expect(restarts).toBe(RESTARTS);
  // The load ran through the outages and between them.
  expect(answers.unavailable).toBeGreaterThan(0);
  expect(answers.ok).toBeGreaterThan(0);
}, 110_000);
