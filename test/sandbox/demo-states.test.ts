/**
 * README's demo table is what a user sees: the sandbox carrier as a real process on a fixed epoch
 * (00:00 UTC of the "start day", as the default start sets it) and a manual clock, every reference of
 * the README's table tracked through a platform over HTTP, each record (and each box of a B/L or
 * booking) checked against its scenario's DEMO_STATES over DEMO_HOURS: added at 00:10 and kept by
 * polls, and added afresh at every hour (the state must not depend on when the user starts).
 */
// Runs once, on SQLite: the subject is the sandbox carrier's demo story; the tracking writes it makes are tested on both databases elsewhere.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { DEMO_HOURS, DEMO_REFERENCES, DEMO_STATES, type DemoReference } from "../../ingest/sandbox/demo.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { readmeDemoTable } from "./demo-tables.ts";
import { type RunningSandbox, startSandbox } from "./spawn.ts";

/** Not the default epoch: the states must follow whatever day the server starts on. */
const EPOCH = Date.parse("2027-03-09T00:00:00Z");
const H = 3_600_000;
const M = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Item = Record<string, unknown>;
interface Tenant {
  p: TestPlatform;
  clock: ManualClock;
  key: string;
}

let sandbox: RunningSandbox;
const tenants: Tenant[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_EPOCH: iso(EPOCH), SANDBOX_START: iso(EPOCH) });
});
afterAll(async () => {
  for (const t of tenants) await t.p.close();
  await sandbox?.stop();
});

async function tenant(at: number): Promise<Tenant> {
  const clock = new ManualClock(at);
  const p = await makePlatform(
    { carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) })) },
    clock.now,
  );
  const org = await p.accounts.createOrg("demo", { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  const t = { p, clock, key: (await p.accounts.createKey(org.id, "ocean")).key };
  tenants.push(t);
  return t;
}

/** Moves the carrier's clock and ours together. */
async function setNow(t: Tenant, at: number) {
  t.clock.t = at;
  await sandbox.setClock({ now: iso(at) });
}

const get = async (t: Tenant, path: string) => {
  const res = await t.p.call("ocean", path, bearer(t.key));
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Item }).data;
};

async function addAll(t: Tenant, demos: readonly DemoReference[]) {
  for (const d of demos) {
    const res = await t.p.call("ocean", "/v1/containers", {
      method: "POST",
      body: JSON.stringify({ identifier: d.reference, identifier_type: identifierType(d) }),
      ...bearer(t.key, { "content-type": "application/json" }),
    });
    expect([d.reference, res.status]).toEqual([d.reference, 201]);
  }
}
const identifierType = (d: DemoReference) => (d.kind === "container" ? "container_id" : d.kind);

/** Every way a record differs from its documented state, as readable strings (empty when none). */
function mismatches(d: DemoReference, item: Item | undefined, label: string): string[] {
  if (!item) return [`${label}: not tracked`];
  const want = DEMO_STATES[d.scenario];
  const route = d.note
    .replace(/^\d+ boxes /, "")
    .split(",")[0]!
    .split(" → ");
  const seen = {
    status: item.status,
    route_alert: item.route_alert,
    customs_hold: item.customs_hold_reason !== null,
    sailed: item.poll_priority !== "pre_departure",
    archived: item.archived_at !== null,
    origin: item.origin_unlocode,
    destination: item.destination_unlocode,
  };
  const expected = {
    status: want.status,
    route_alert: want.routeAlert,
    customs_hold: want.customsHold,
    sailed: want.sailed,
    archived: want.archived,
    origin: route[0],
    destination: route.at(-1),
  };
  const out = Object.entries(expected)
    .filter(([k, v]) => seen[k as keyof typeof seen] !== v)
    .map(([k, v]) => `${label}: ${k} ${JSON.stringify(seen[k as keyof typeof seen])}, documented ${v}`);
  // The note quotes the hold reason the record shows.
  if (want.customsHold && !d.note.includes(String(item.customs_hold_reason)))
    out.push(`${label}: hold reason "${item.customs_hold_reason}" is not in the note "${d.note}"`);
  return out;
}

/** Reads every demo record as a user would (the list, archived ones included) and compares. */
async function check(t: Tenant, demos: readonly DemoReference[], when: string): Promise<string[]> {
  const items = [
    ...((await get(t, "/v1/containers?limit=500")).items as Item[]),
    ...((await get(t, "/v1/containers?limit=500&archived=true")).items as Item[]),
  ];
  const byIdentifier = new Map(items.map((i) => [i.identifier as string, i]));
  const out: string[] = [];
  for (const d of demos) {
    const label = `${when} ${d.reference} (${d.scenario})`;
    const item = byIdentifier.get(d.reference);
    out.push(...mismatches(d, item, label));
    if (item && item.is_demo !== true) out.push(`${label}: is_demo ${item.is_demo}`);
    if (d.kind === "container") continue;
    const lookup = await get(t, `/v1/containers/lookup/${d.reference}`);
    const boxes = Object.keys(lookup.child_containers as Record<string, unknown>);
    if (boxes.length !== d.boxes) out.push(`${label}: ${boxes.length} boxes, documented ${d.boxes}`);
    for (const box of boxes) out.push(...mismatches(d, byIdentifier.get(box), `${label} box ${box}`));
  }
  return out;
}

/** The references README's table lists, as demo.ts documents them (demo.test.ts holds the two equal). */
const demos = () => {
  const byRef = new Map(DEMO_REFERENCES.map((d) => [d.reference, d]));
  return readmeDemoTable().map((r) => {
    const d = byRef.get(r.reference);
    if (!d) throw new Error(`README lists ${r.reference}, which ingest/sandbox/demo.ts does not`);
    return d;
  });
};

test("tracked from 00:10 and polled, each holds its documented state to the end of the window", async () => {
  const list = demos();
  const t = await tenant(EPOCH);
  await setNow(t, EPOCH + 10 * M);
  await addAll(t, list);
  const found = await check(t, list, "00:10");
  // Then as the poller keeps them (whatever is due), every 3 h to the end of the documented window.
  for (let at = EPOCH + 3 * H; at <= EPOCH + DEMO_HOURS.to * H; at += 3 * H) {
    await setNow(t, at);
    await t.p.tracking.ocean.pollDue();
    found.push(...(await check(t, list, `+${(at - EPOCH) / H}h`)));
  }
  expect(found).toEqual([]);
});

test("added at any hour of the window, from 00:00 on the start day, they show the same states", async () => {
  const list = demos();
  const found: string[] = [];
  for (let h = DEMO_HOURS.from; h <= DEMO_HOURS.to; h++) {
    const t = await tenant(EPOCH + h * H);
    await setNow(t, EPOCH + h * H);
    await addAll(t, list);
    found.push(...(await check(t, list, `+${h}h`)));
    await t.p.close();
    tenants.splice(tenants.indexOf(t), 1);
  }
  expect(found).toEqual([]);
  // 37 platforms adding 35 references each: a minute or more on PostgreSQL on a loaded machine.
}, 240_000);
