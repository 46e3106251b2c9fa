/**
 * The load-plan product through app.handle: create, read, list, change and delete plans planned by
 * the real router.wasm; bad input answered 400 naming the field with nothing stored; another
 * organisation's plan answering 404; writes needing the entitlement. SQLite and, under
 * PORTOLAN_TEST_DB, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { engineInput } from "../../api/loading/input.ts";
import { loadPlannerFor } from "../../api/loading/routes.ts";
import { EQUIPMENT } from "../../engine/loadplan/equipment.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import {
  apiOf,
  BODY,
  CRATE,
  FAST,
  type Json,
  loadingPlatform,
  loadingTenant,
  PALLET,
  type Reply,
  storedPlans,
  unitSummaries,
} from "./setup.ts";

let p: TestPlatform;
let acme: { orgId: string; key: string };
let other: { orgId: string; key: string };
let api: ReturnType<typeof apiOf>;
let otherApi: ReturnType<typeof apiOf>;

beforeAll(async () => {
  p = await loadingPlatform();
  acme = await loadingTenant(p, "Acme Forwarding");
  other = await loadingTenant(p, "Other Org");
  api = apiOf(p, acme.key);
  otherApi = apiOf(p, other.key);
}, 60_000);
afterAll(() => p?.close());

type Placement = {
  item: number;
  item_id: string | null;
  position_mm: { x: number; y: number; z: number };
  size_mm: { length: number; width: number; height: number };
  orientation: string;
  load_order: number;
  wall: number;
};
type Unit = Json & { number: number; equipment: string; placements: Placement[]; svg_url: string };
const unitsOf = (r: Reply) => (r.body.data.result as { units: Unit[] }).units;
const created = async (body: Json = BODY) => {
  const r = await api("POST", "/v1/load-plans", body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r;
};

describe("round trip", () => {
  let id: string;
  let first: Reply;

  test("POST plans at once and answers the whole plan, as the planner made it", async () => {
    first = await created();
    const d = first.body.data;
    id = d.id as string;
    expect(first.body.ok).toBe(true);
    expect(d).toMatchObject({
      name: BODY.name,
      reference: BODY.reference,
      status: "complete",
      version: 1,
      input: {
        items: [PALLET, CRATE],
        dimension_unit: "cm",
        equipment: ["20GP"],
        work_budget: 0,
      },
    });
    expect(d.created_at).toBe(d.updated_at);
    const units = unitsOf(first);
    // The API renders exactly what the planner gives for the same input (same input, same plan).
    const planner = await loadPlannerFor(p.config.buildDir);
    const direct = planner.plan(engineInput(d.input as Json));
    expect(units.map((u) => u.equipment)).toEqual(direct.units.map((u) => u.equipment));
    units.forEach((u, k) => {
      const e = EQUIPMENT[u.equipment as keyof typeof EQUIPMENT];
      expect(u).toMatchObject({
        number: k + 1,
        pieces: direct.units[k]!.placements.length,
        inside_mm: e.inside,
        payload_kg: e.payloadKg,
        svg_url: `${p.config.publicUrls.loading}/v1/load-plans/${id}/units/${k + 1}.svg`,
      });
      expect(u.placements).toEqual(
        direct.units[k]!.placements.map((x) => ({
          item: x.item,
          item_id: x.itemId,
          position_mm: x.position,
          size_mm: x.size,
          orientation: x.orientation,
          load_order: x.loadOrder,
          wall: x.wall,
        })),
      );
      expect(u.cog_mm).toEqual({
        x: Math.round(direct.units[k]!.cog.x * 10) / 10,
        y: Math.round(direct.units[k]!.cog.y * 10) / 10,
        z: Math.round(direct.units[k]!.cog.z * 10) / 10,
      });
    });
    // Every piece accounted for, in mm: the cm input converted.
    const placed = units.flatMap((u) => u.placements);
    expect(placed.filter((x) => x.item === 0)).toHaveLength(PALLET.quantity);
    expect(placed.filter((x) => x.item === 1)).toHaveLength(CRATE.quantity);
    for (const x of placed.filter((x) => x.item === 0)) {
      expect(x.size_mm.height).toBe(1400); // this_side_up kept the height vertical
      expect(x.item_id).toBe("pallet");
    }
    expect((d.result as Json).unplaced).toEqual([]);
  });

  test("GET answers what POST answered; the list summarises it", async () => {
    const got = await api("GET", `/v1/load-plans/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(first.body.data);
    const list = await api("GET", "/v1/load-plans");
    expect(list.body.data.items).toHaveLength(1);
    expect(list.body.data.items![0]).toEqual({
      id,
      name: BODY.name,
      reference: BODY.reference,
      status: "complete",
      version: 1,
      objective: "fewest_units",
      units_used: unitsOf(first).length,
      pieces_placed: PALLET.quantity + CRATE.quantity,
      pieces_unplaced: 0,
      total_cost: null,
      units: unitSummaries(unitsOf(first)),
      created_at: first.body.data.created_at,
      updated_at: first.body.data.updated_at,
    });
    expect(list.body.data).toMatchObject({ has_more: false, next_cursor: null });
  });

  test("PATCH of the name changes the version, not the plan", async () => {
    const r = await api("PATCH", `/v1/load-plans/${id}`, { name: "Renamed", reference: null });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ name: "Renamed", reference: null, version: 2 });
    expect(r.body.data.result).toEqual(first.body.data.result);
    expect(r.body.data.input).toEqual(first.body.data.input);
  });

  test("PATCH of the input plans again; null resets an optional field; nothing new is a no-op", async () => {
    const more = await api("PATCH", `/v1/load-plans/${id}`, {
      items: [{ ...PALLET, quantity: 9 }, CRATE],
      weight_unit: "lb",
    });
    expect(more.status).toBe(200);
    expect(more.body.data).toMatchObject({ version: 3, input: { weight_unit: "lb", equipment: ["20GP"] } });
    const placed = unitsOf(more).flatMap((u) => u.placements);
    expect(placed.filter((x) => x.item === 0)).toHaveLength(9);
    // 40 crates of 40 lb: the weight is converted to kg.
    const kg = unitsOf(more).reduce((s, u) => s + (u.weight_kg as number), 0);
    expect(kg).toBeCloseTo((9 * 600 + 10 * 40) * 0.45359237, 2);

    const reset = await api("PATCH", `/v1/load-plans/${id}`, { weight_unit: null });
    expect(reset.body.data.version).toBe(4);
    expect(reset.body.data.input).not.toHaveProperty("weight_unit");
    const same = await api("PATCH", `/v1/load-plans/${id}`, { name: "Renamed", equipment: ["20GP"] });
    expect(same.status).toBe(200);
    expect(same.body.data.version).toBe(4);
    expect(same.body.data.updated_at).toBe(reset.body.data.updated_at);
  });

  test("DELETE removes the row; the plan then answers 404 everywhere", async () => {
    const r = await api("DELETE", `/v1/load-plans/${id}`);
    expect(r.body).toEqual({ ok: true, data: { id, deleted: true } });
    expect(await storedPlans(p, acme.orgId)).toEqual([]);
    for (const [method, path] of [
      ["GET", `/v1/load-plans/${id}`],
      ["PATCH", `/v1/load-plans/${id}`],
      ["DELETE", `/v1/load-plans/${id}`],
      ["GET", `/v1/load-plans/${id}/units/1.svg`],
    ] as const) {
      const gone = await api(method, path, method === "PATCH" ? { name: "x" } : undefined);
      expect(gone.status, `${method} ${path}`).toBe(404);
      expect(gone.body).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });
    }
  });
});

describe("list", () => {
  test("pages last changed first with a cursor, and filters by reference", async () => {
    const ids: string[] = [];
    for (const ref of ["A", "B", "A"]) {
      ids.push((await created({ ...BODY, reference: ref, items: [CRATE] })).body.data.id as string);
    }
    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 5; page++) {
      const r = await api("GET", `/v1/load-plans?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...r.body.data.items!.map((x) => x.id as string));
      if (!r.body.data.has_more) break;
      cursor = encodeURIComponent(r.body.data.next_cursor as string);
    }
    expect(seen).toEqual([...ids].reverse());
    const a = await api("GET", "/v1/load-plans?reference=A");
    expect(a.body.data.items!.map((x) => x.id)).toEqual([ids[2], ids[0]]);
    // A change moves a plan to the front.
    await api("PATCH", `/v1/load-plans/${ids[0]}`, { name: "touched" });
    const after = await api("GET", "/v1/load-plans?limit=1");
    expect(after.body.data.items![0]!.id).toBe(ids[0]);
    for (const x of ids) await api("DELETE", `/v1/load-plans/${x}`);
  });
});

describe("bad input: 400 naming the field, nothing stored", () => {
  const item = (over: Json) => ({ ...BODY, items: [{ ...PALLET, ...over }] });
  const cases: Array<[string, unknown, RegExp]> = [
    ["no name", { ...BODY, name: undefined }, /name/],
    ["empty name", { ...BODY, name: "" }, /name/],
    ["control character in the name", { ...BODY, name: "a\u0000b" }, /name/],
    ["control character in an item id", item({ id: "p\u0007" }), /items\[0\]\.id/],
    ["no items", { ...BODY, items: [] }, /items/],
    ["zero width", item({ width: 0 }), /items\[0\]\.width/],
    ["negative weight", item({ weight: -1 }), /items\[0\]\.weight/],
    ["fractional quantity", item({ quantity: 1.5 }), /items\[0\]\.quantity/],
    ["string length", item({ length: "120" }), /items\[0\]\.length/],
    ["unknown orientation", item({ orientations: ["xyz", "abc"] }), /items\[0\]\.orientations/],
    ["duplicate orientation", item({ orientations: ["xyz", "xyz"] }), /items\[0\]\.orientations\[1\]/],
    ["negative top load", item({ max_load_on_top: -5 }), /items\[0\]\.max_load_on_top/],
    ["under 1 mm", item({ width: 0.04 }), /items\[0\]\.width/],
    [
      "too long in m",
      { ...BODY, dimension_unit: "m", items: [{ ...PALLET, length: 500 }] },
      /items\[0\]\.length/,
    ],
    [
      "too many pieces",
      {
        ...BODY,
        items: [
          { ...PALLET, quantity: 3000 },
          { ...CRATE, quantity: 3000 },
        ],
      },
      /items/,
    ],
    ["bad unit", { ...BODY, dimension_unit: "ft" }, /dimension_unit/],
    ["unknown equipment", { ...BODY, equipment: ["30GP"] }, /equipment\[0\]/],
    ["equipment twice", { ...BODY, equipment: ["20GP", "20GP"] }, /equipment\[1\]/],
    ["negative cost", { ...BODY, equipment: [{ type: "20GP", cost: -1 }] }, /equipment\[0\]/],
    ["cheapest without cost", { ...BODY, objective: "cheapest" }, /equipment\[0\]/],
    ["cog beyond half", { ...BODY, cog: { longitudinal: 0.7, lateral: 0.1 } }, /cog/],
    ["work budget beyond the cap", { ...BODY, work_budget: 10 ** 12 }, /work_budget/],
    ["not JSON", "{items:", /JSON/],
    ["an array", "[1,2]", /object/],
  ];
  test.each(cases)("%s", async (_, body, field) => {
    const r = await api("POST", "/v1/load-plans", body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({ ok: false, error: { code: "VALIDATION_ERROR", severity: "warning" } });
    expect(r.body.error!.message as string).toMatch(field);
  });
  test("none of them stored a plan or raised an event", async () => {
    expect(await storedPlans(p, acme.orgId)).toEqual([]);
    expect(await p.storage.db.select().from(p.storage.t.outbox)).toEqual([]);
  });
  test("a bad change leaves the plan as it was", async () => {
    const id = (await created()).body.data.id as string;
    const r = await api("PATCH", `/v1/load-plans/${id}`, { name: "new", items: [{ ...PALLET, width: -3 }] });
    expect(r.status).toBe(400);
    const now = await api("GET", `/v1/load-plans/${id}`);
    expect(now.body.data).toMatchObject({ name: BODY.name, version: 1 });
    await api("DELETE", `/v1/load-plans/${id}`);
  });
});

test("fields the API does not know are dropped, not stored (as across the family)", async () => {
  const r = await created({ ...BODY, colour: "red", items: [{ ...CRATE, colour: "blue" }] });
  expect(r.body.data.input).toEqual({
    items: [CRATE],
    dimension_unit: "cm",
    equipment: ["20GP"],
    work_budget: 0,
  });
  await api("DELETE", `/v1/load-plans/${r.body.data.id}`);
});

describe("tenancy and access", () => {
  test("another organisation's plan answers 404 on every route and stays as it was", async () => {
    const mine = await created();
    const id = mine.body.data.id as string;
    for (const [method, path, body] of [
      ["GET", `/v1/load-plans/${id}`, undefined],
      ["PATCH", `/v1/load-plans/${id}`, { name: "stolen" }],
      ["DELETE", `/v1/load-plans/${id}`, undefined],
      ["GET", `/v1/load-plans/${id}/units/1.svg`, undefined],
    ] as const) {
      const r = await otherApi(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.body.error).toMatchObject({ code: "NOT_FOUND" });
    }
    expect((await otherApi("GET", "/v1/load-plans")).body.data.items).toEqual([]);
    expect((await api("GET", `/v1/load-plans/${id}`)).body.data).toEqual(mine.body.data);
    await api("DELETE", `/v1/load-plans/${id}`);
  });

  test("writes need the load-plan entitlement, reads a key; no key answers 401", async () => {
    const org = await p.accounts.createOrg("Lapsed Ltd", { paid: true, plan: "pro" });
    const key = (await p.accounts.createKey(org.id, "loading")).key;
    const lapsed = apiOf(p, key);
    const post = await lapsed("POST", "/v1/load-plans", BODY);
    expect(post.status).toBe(403);
    expect(post.body.error).toMatchObject({ code: "FORBIDDEN" });
    expect((await lapsed("GET", "/v1/load-plans")).status).toBe(200);
    const bare = await p.call("loading", "/v1/load-plans");
    expect(bare.status).toBe(401);
    // Another product's key is refused by the load-plan host.
    const t = await p.tenant({ name: "Keys Ltd" });
    expect((await apiOf(p, t.keys.rates)("GET", "/v1/load-plans")).status).toBe(401);
  });
});

describe("the unit picture route", () => {
  test("serves image/svg+xml per unit, the same bytes each time; other names answer 404", async () => {
    const plan = await created({ ...BODY, items: [{ ...PALLET, id: '<b>"pal"</b> & co' }, CRATE], ...FAST });
    const id = plan.body.data.id as string;
    const n = unitsOf(plan).length;
    const get = (file: string) =>
      p.call("loading", `/v1/load-plans/${id}/units/${file}`, {
        headers: { "x-api-key": acme.key },
      });
    const a = await get("1.svg");
    expect(a.status).toBe(200);
    expect(a.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const text = await a.text();
    expect(text.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(text).toContain("&lt;b&gt;&quot;pal&quot;&lt;/b&gt; &amp; co");
    expect(text).not.toContain("<b>");
    expect(await (await get("1.svg")).text()).toBe(text);
    for (const file of [`${n + 1}.svg`, "0.svg", "1.png", "one.svg", "01.svg"]) {
      const r = await get(file);
      expect(r.status, file).toBe(404);
      expect(((await r.json()) as Json).ok).toBe(false);
    }
    await api("DELETE", `/v1/load-plans/${id}`);
  });
});
