/**
 * The rates product end to end: sheets imported with the real CLI (a `bin/portolan` process on the
 * same database), read back over HTTP, searched, and the host's rules (GET only, 404 across
 * organisations, no 500 on any input). Runs on SQLite and, under PORTOLAN_TEST_DB, PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { loadConfig } from "../../api/config.ts";
import { CONTAINER_TYPES } from "../../engine/rates/sheet.ts";
import { bearer } from "../helpers/platform.ts";
import { type RatesWorld, ratesWorld } from "./setup.ts";
import { AIR_CSV, FCL_CSV, FCL_HEAD, FCL_JSON, FCL2_CSV, LCL_CSV, ROAD_CSV } from "./sheets.ts";

let w: RatesWorld;
let acme: { orgId: string; keys: Record<string, string> };
let other: { orgId: string; keys: Record<string, string> };
const ids: Record<string, string> = {};

type Offer = {
  id: string;
  indicative: boolean;
  carrier: string | null;
  sheet_id: string | null;
  equipment: string | null;
  currency: string;
  total: number;
  base: number;
  surcharges: number;
  charges: Array<{ code: string; amount: number }>;
  transit_days: number | null;
  transit_source: string | null;
  valid_from: string;
  valid_to: string;
  cost_model?: string;
};

beforeAll(async () => {
  // A public answer for the endpoint's name, so no test depends on the machine's DNS.
  w = await ratesWorld({
    webhooks: { ...loadConfig({}).webhooks, resolve: { "hooks.example.com": ["93.184.216.34"] } },
  });
  acme = await w.p.tenant({ paid: true, name: "Acme Forwarding" });
  other = await w.p.tenant({ paid: true, name: "Other Org" });
  for (const t of [acme, other]) await w.p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000_000 });
}, 60_000);
afterAll(() => w?.close());

const search = async (query: string, key = acme.keys.rates!) => {
  const r = await w.get(key, `/v1/rates/search?${query}`);
  return {
    status: r.status,
    data: r.body.data as { offers: Offer[]; total: number; unpriced: unknown[] },
    body: r.body,
  };
};
const outboxRows = async () => (await w.p.storage.db.select().from(w.p.storage.t.outbox)).length;

describe("import round trip with the CLI", () => {
  test("CSV and JSON sheets import, by organisation id or name, and read back as written", async () => {
    for (const [name, text, org] of [
      ["fcl.csv", FCL_CSV, acme.orgId],
      ["fcl2.csv", FCL2_CSV, "Acme Forwarding"],
      ["lcl.csv", LCL_CSV, acme.orgId],
      ["air.csv", AIR_CSV, acme.orgId],
      ["road.csv", ROAD_CSV, acme.orgId],
    ] as const) {
      const r = w.cli("rates", "import", "--org", org, w.file(name, text));
      expect(r, name).toMatchObject({ code: 0, err: "" });
      expect(r.out[0]).toEndWith("imported as a new sheet");
      ids[name] = r.out.at(-1)!;
    }
    const json = w.cli("rates", "import", "--org", other.orgId, w.file("fcl.json", JSON.stringify(FCL_JSON)));
    expect(json.code).toBe(0);
    ids["other.json"] = json.out.at(-1)!;

    const csv = await w.get(acme.keys.rates!, `/v1/rates/sheets/${ids["fcl.csv"]}`);
    const fromJson = await w.get(other.keys.rates!, `/v1/rates/sheets/${ids["other.json"]}`);
    expect(csv.status).toBe(200);
    const sheet = csv.body.data;
    expect(sheet).toMatchObject({
      id: ids["fcl.csv"],
      ...FCL_HEAD,
      source_file: "fcl.csv",
      version: 1,
      lines: 4,
      surcharges: 6,
    });
    expect(sheet.rate_lines).toEqual(
      [
        ["CNSHA", "NLRTM", "20GP", 1000, 30],
        ["CNSHA", "NLRTM", "40HC", 1800, 30],
        ["CN", "NLRTM", "40HC", 2500, 33],
        ["CNSHA", "DEHAM", "40HC", 1900, null],
      ].map(([origin, destination, equipment, rate, transit_days]) => ({
        origin,
        destination,
        equipment,
        basis: "per_container",
        rate,
        min: null,
        breaks: null,
        transit_days,
        distance_km: null,
      })),
    );
    expect((sheet.rate_surcharges as unknown[]).length).toBe(6);
    expect(sheet.rate_surcharges).toContainEqual({
      code: "LSS",
      basis: "percent",
      amount: 10,
      equipment: null,
      origin: null,
      destination: null,
      valid_from: "2026-02-01",
      valid_to: null,
    });
    // The JSON file holds the same rates in another order: same content, same digest.
    expect(fromJson.body.data.digest).toBe(sheet.digest);
    const sortedJson = (x: unknown) =>
      JSON.stringify([...(x as unknown[])].map((v) => JSON.stringify(v)).sort());
    expect(sortedJson(fromJson.body.data.rate_lines)).toBe(sortedJson(sheet.rate_lines));
    expect(sortedJson(fromJson.body.data.rate_surcharges)).toBe(sortedJson(sheet.rate_surcharges));

    const air = (await w.get(acme.keys.rates!, `/v1/rates/sheets/${ids["air.csv"]}`)).body.data;
    expect((air.rate_lines as unknown[])[0]).toMatchObject({
      origin: "FRA",
      destination: "JFK",
      basis: "weight_break",
      min: 75,
      breaks: { "-45": 4, "+45": 3.2, "+100": 2.8, "+300": 2.5, "+500": 2.3, "+1000": 2.1 },
    });

    const list = w.cli("rates", "list", "--org", acme.orgId);
    expect(list.code).toBe(0);
    expect(list.out).toHaveLength(5);
  }, 60_000);

  test("re-importing the same rates (CSV again, or as JSON) is a no-op", async () => {
    const before = await w.get(acme.keys.rates!, `/v1/rates/sheets/${ids["fcl.csv"]}`);
    const rows = await outboxRows();
    for (const [name, text] of [
      ["fcl.csv", FCL_CSV],
      ["fcl-again.json", JSON.stringify(FCL_JSON)],
    ]) {
      const r = w.cli("rates", "import", "--org", acme.orgId, w.file(name!, text!));
      expect(r.code).toBe(0);
      expect(r.out[0]).toEndWith("unchanged: the sheet already holds these rates");
      expect(r.out.at(-1)).toBe(ids["fcl.csv"]!);
    }
    expect(await w.get(acme.keys.rates!, `/v1/rates/sheets/${ids["fcl.csv"]}`)).toEqual(before);
    expect(await outboxRows()).toBe(rows);
  });

  test("a bad row at line N rejects the whole file with its line number and changes nothing", async () => {
    const before = await w.get(acme.keys.rates!, "/v1/rates/sheets");
    const sheetBefore = await w.get(acme.keys.rates!, `/v1/rates/sheets/${ids["fcl.csv"]}`);
    const rows = await outboxRows();
    // Line 4 reprices a lane (valid), line 9's amount is not a number.
    const lines = FCL_CSV.split("\n");
    lines[3] = "line,,,,,,,CNSHA,NLRTM,40HC,1650,30,,,";
    lines[8] = "surcharge,,,,,2026-02-01,,,,,,,LSS,percent,ten";
    const bad = w.cli("rates", "import", "--org", acme.orgId, w.file("fcl-bad.csv", lines.join("\n")));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      'fcl-bad.csv line 9, column amount: amount must be a number (like 1250 or 4.75), got "ten"',
    );
    expect(bad.err).toContain("nothing was imported");
    const badJson = JSON.parse(JSON.stringify(FCL_JSON));
    badJson.name = "Brand new sheet";
    badJson.surcharges[3].origin = "SHANGHAI";
    const j = w.cli("rates", "import", "--org", acme.orgId, w.file("new.json", JSON.stringify(badJson)));
    expect(j.code).toBe(2);
    expect(j.err).toContain(
      'new.json $.surcharges[3].origin: origin must be a UN/LOCODE or an ISO country code, got "SHANGHAI"',
    );
    expect(w.cli("rates", "import", "--org", "No such org", w.file("x.csv", FCL_CSV)).code).toBe(2);
    expect(await w.get(acme.keys.rates!, "/v1/rates/sheets")).toEqual(before);
    expect(await w.get(acme.keys.rates!, `/v1/rates/sheets/${ids["fcl.csv"]}`)).toEqual(sheetBefore);
    expect(await outboxRows()).toBe(rows);
  });

  test("a sheet already expired imports with a warning line before its id; a current one without", async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const dated = (name: string, from: string, to: string) =>
      FCL2_CSV.replace("FEU special", name).replace("2026-01-01", from).replace("2026-02-28", to);
    const expired = w.cli(
      "rates",
      "import",
      "--org",
      acme.orgId,
      w.file("old.csv", dated("Old", day(-90), day(-2))),
    );
    expect(expired).toMatchObject({ code: 0, err: "" });
    expect(expired.out).toHaveLength(3);
    expect(expired.out[1]).toStartWith(`warning: this sheet expired on ${day(-2)}`);
    expect(expired.out[2]).toMatch(/^[0-9a-f-]{36}$/);
    const current = w.cli(
      "rates",
      "import",
      "--org",
      acme.orgId,
      w.file("new.csv", dated("New", day(-1), day(364))),
    );
    expect(current).toMatchObject({ code: 0, err: "" });
    expect(current.out).toHaveLength(2);
    for (const out of [expired.out, current.out]) expect(w.cli("rates", "delete", out.at(-1)!).code).toBe(0);
  });

  test("rates delete removes a sheet with its lines; an unknown id is a usage error", async () => {
    const text = FCL2_CSV.replace("FEU special", "Throwaway");
    const id = w.cli("rates", "import", "--org", acme.orgId, w.file("throwaway.csv", text)).out.at(-1)!;
    expect((await w.get(acme.keys.rates!, `/v1/rates/sheets/${id}`)).status).toBe(200);
    const del = w.cli("rates", "delete", id);
    expect(del).toMatchObject({ code: 0, out: ['deleted rate sheet "Throwaway" (1 lines)', id] });
    expect((await w.get(acme.keys.rates!, `/v1/rates/sheets/${id}`)).status).toBe(404);
    expect(await w.p.storage.rateSheets.lines(id)).toEqual([]);
    expect(await w.p.storage.rateSheets.surcharges([id])).toEqual([]);
    expect(w.cli("rates", "delete", id).code).toBe(2);
  });

  test("sheets list newest import first, paged, and filter by mode", async () => {
    const all = await w.get(acme.keys.rates!, "/v1/rates/sheets");
    const items = all.body.data.items as Array<{ id: string; mode: string }>;
    expect(items.map((i) => i.id)).toEqual(
      ["road.csv", "air.csv", "lcl.csv", "fcl2.csv", "fcl.csv"].map((n) => ids[n]!),
    );
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await w.get(acme.keys.rates!, `/v1/rates/sheets?limit=2${cursor && `&cursor=${cursor}`}`);
      seen.push(...(page.body.data.items as Array<{ id: string }>).map((i) => i.id));
      if (!page.body.data.has_more) break;
      cursor = page.body.data.next_cursor as string;
    }
    expect(seen).toEqual(items.map((i) => i.id));
    const fcl = await w.get(acme.keys.rates!, "/v1/rates/sheets?mode=ocean_fcl");
    expect((fcl.body.data.items as Array<{ id: string }>).map((i) => i.id)).toEqual([
      ids["fcl2.csv"]!,
      ids["fcl.csv"]!,
    ]);
  });
});

describe("search", () => {
  test("offers sorted by total, each with its breakdown, validity, transit and indicative flag", async () => {
    const r = await search(
      "origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&equipment=40HC&date=2026-01-15&quantity=2",
    );
    expect(r.status).toBe(200);
    const offers = r.data.offers;
    const sheetOffers = offers.filter((o) => !o.indicative);
    // MSCU 1700 + BAF 450 per box; MAEU 1800 + BAF 300 + THC_O 100 + ISPS 15 per box, DOC 50.
    expect(sheetOffers.map((o) => [o.carrier, o.total])).toEqual([
      ["MSCU", 4300],
      ["MAEU", 4480],
    ]);
    const maeu = sheetOffers[1]!;
    expect(maeu.charges.map((c) => [c.code, c.amount])).toEqual([
      ["BASE", 3600],
      ["BAF", 600],
      ["THC_O", 200],
      ["DOC", 50],
      ["ISPS", 30],
    ]);
    expect(maeu).toMatchObject({
      sheet_id: ids["fcl.csv"],
      valid_from: "2026-01-01",
      valid_to: "2026-03-31",
      transit_days: 30,
      transit_source: "sheet",
      base: 3600,
      surcharges: 880,
    });
    // MSCU's sheet has no transit: the sea planner's distance at 14 knots gives it.
    expect(sheetOffers[0]).toMatchObject({ transit_source: "distance_engine" });
    expect(sheetOffers[0]!.transit_days).toBeGreaterThan(20);
    expect(sheetOffers[0]!.transit_days).toBeLessThan(45);
    const indicative = offers.filter((o) => o.indicative);
    expect(indicative).toHaveLength(1);
    expect(indicative[0]).toMatchObject({
      carrier: null,
      sheet_id: null,
      equipment: "40HC",
      currency: "USD",
      cost_model: "docs/rates.md#indicative-cost-model",
      transit_source: "distance_engine",
      valid_from: "2026-01-15",
      valid_to: "2026-01-15",
    });
    expect(indicative[0]!.charges.map((c) => c.code)).toEqual(["BASE", "BAF", "THC_O", "THC_D"]);
    for (let i = 1; i < offers.length; i++)
      expect(offers[i - 1]!.total).toBeLessThanOrEqual(offers[i]!.total);
    for (const o of offers) {
      expect(o.total).toBeCloseTo(
        o.charges.reduce((s, c) => s + c.amount, 0),
        6,
      );
      expect(o.total).toBeCloseTo(o.base + o.surcharges, 6);
    }
  });

  test.each([
    // date: sheets valid_from and valid_to are inclusive; MSCU ends 2026-02-28, MAEU 2026-03-31.
    ["2025-12-31", []],
    ["2026-01-01", ["MSCU", "MAEU"]],
    ["2026-02-28", ["MSCU", "MAEU"]],
    ["2026-03-01", ["MAEU"]],
    ["2026-03-31", ["MAEU"]],
    ["2026-04-01", []],
  ])("validity on %s", async (date, carriers) => {
    const r = await search(
      `origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&equipment=40HC&date=${date}&indicative=false`,
    );
    expect(r.data.offers.map((o) => o.carrier)).toEqual(carriers);
  });

  test("FCL without equipment offers each priced container type; LCL minimum; air breaks; road per km", async () => {
    const fcl = await search("origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&date=2026-02-15&carrier=MAEU");
    // LSS 10 % applies from February; ISPS has ended.
    expect(fcl.data.offers.map((o) => [o.equipment, o.total])).toEqual([
      ["20GP", 1000 + 150 + 100 + 100 + 50],
      ["40HC", 1800 + 300 + 100 + 180 + 50],
    ]);
    const lcl = await search(
      "origin=CNSHA&destination=NLRTM&mode=OCEAN_LCL&date=2026-05-01&weight_kg=500&volume_m3=0.8&indicative=false",
    );
    expect(
      lcl.data.offers.map((o) => [o.charges.map((c) => `${c.code}=${c.amount}`).join(" "), o.total]),
    ).toEqual([["BASE=60 CFS=8 DOC=25", 93]]);
    const air = await search("origin=FRA&destination=JFK&mode=AIR&date=2026-03-01&weight_kg=90");
    const lh = air.data.offers.find((o) => o.carrier === "LH")!;
    expect(lh).toMatchObject({ currency: "EUR", total: 399.5, transit_days: 2 });
    expect(lh.charges[0]).toMatchObject({
      code: "BASE",
      weight_break: "+100",
      rate: 2.8,
      quantity: 100,
      amount: 280,
    });
    // Codes match as written: the city's UN/LOCODE is not the IATA-coded line's airport (docs/rates.md).
    const byLocode = await search(
      "origin=DEFRA&destination=USNYC&mode=AIR&date=2026-03-01&weight_kg=90&indicative=false",
    );
    expect(byLocode.data.offers.map((o) => o.total)).toEqual([]);
    const road = await search(
      "origin=DEHAM&destination=PLWAW&mode=ROAD&date=2026-03-01&quantity=2&indicative=false",
    );
    expect(road.data.offers.map((o) => o.total)).toEqual([2419.2]);
  });

  test("a fresh organisation gets the indicative set, labelled, for every mode", async () => {
    for (const [query, codes] of [
      ["origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL", CONTAINER_TYPES.length],
      ["origin=CNSHA&destination=NLRTM&mode=OCEAN_LCL&volume_m3=2", 1],
      ["origin=FRA&destination=JFK&mode=AIR&weight_kg=250", 1],
      ["origin=DEHAM&destination=PLWAW&mode=ROAD", 1],
      ["origin=DEHAM&destination=PLWAW&mode=RAIL", 1],
    ] as const) {
      const r = await search(query, other.keys.rates!);
      expect(r.status, query).toBe(200);
      expect(r.data.offers, query).toHaveLength(codes);
      for (const o of r.data.offers) {
        expect(o, query).toMatchObject({
          indicative: true,
          carrier: null,
          cost_model: "docs/rates.md#indicative-cost-model",
        });
        expect(o.total, query).toBeGreaterThan(0);
        expect(o.transit_days, query).toBeGreaterThan(0);
      }
    }
    // The 45' costs more than the 40' high cube, which costs more than the 20'.
    const fcl = await search("origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL", other.keys.rates!);
    const total = (e: string) => fcl.data.offers.find((o) => o.equipment === e)!.total;
    expect(total("20GP")).toBeLessThan(total("40HC"));
    expect(total("40HC")).toBeLessThan(total("45HC"));
  });

  test.each([
    ["origin=CNSHA&destination=NLRTM", "invalid_request"],
    ["origin=CNSHA&destination=NLRTM&mode=SEA", "invalid_request"],
    ["origin=Shanghai&destination=NLRTM&mode=OCEAN_FCL", "invalid_request"],
    ["origin=FRA&destination=NLRTM&mode=OCEAN_FCL", "invalid_request"],
    ["origin=CNSHA&destination=CNSHA&mode=OCEAN_FCL", "invalid_request"],
    ["origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&equipment=53HC", "invalid_request"],
    ["origin=CNSHA&destination=NLRTM&mode=OCEAN_LCL", "invalid_request"],
    ["origin=FRA&destination=JFK&mode=AIR", "invalid_request"],
    ["origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&date=2026-02-30", "invalid_request"],
    ["origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&quantity=0", "invalid_request"],
  ])("refused: %s", async (query, code) => {
    const r = await search(query);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: { code, message: expect.any(String), request_id: expect.any(String) },
    } as never);
  });

  test("a lane the engine cannot route, or a place it does not know, still answers: no 404 or 422 is documented", async () => {
    // Two real UN/LOCODEs nowhere near one another by road; then a well-formed code naming nothing.
    for (const lane of ["origin=DEHAM&destination=USNYC", "origin=ZZQQQ&destination=NLRTM"]) {
      const r = await search(`${lane}&mode=ROAD`);
      expect(r.status, lane).toBe(200);
      expect(r.data.offers).toEqual([]);
      expect(r.data.unpriced).toEqual([
        { source: "indicative", sheet_id: null, equipment: null, reason: expect.any(String) },
      ]);
    }
    const doc = (await (await w.p.call("rates", "/docs/json")).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    const statuses = Object.keys(doc.paths["/v1/rates/search"]!.get.responses);
    expect(statuses).not.toContain("404");
    expect(statuses).not.toContain("422");
  });
});

describe("the host's rules", () => {
  const routes = [
    "/v1/rates/search",
    "/v1/rates/sheets",
    "/v1/rates/sheets/x",
    "/v1/account",
    "/v1/account/keys",
    "/v1/account/keys/x",
    "/healthz",
    "/swagger/json",
    "/v1/nothing",
  ];

  test("every non-GET method on every route but webhook management answers 405 method_not_allowed", async () => {
    for (const path of routes) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const res = await w.p.call("rates", path, { method, ...bearer(acme.keys.rates!) });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(await res.json()).toEqual({
          error: { code: "method_not_allowed", message: expect.any(String), request_id: expect.any(String) },
        });
      }
    }
    // Webhook management keeps its writes.
    const hook = await w.p.call("rates", "/v1/webhooks", {
      method: "POST",
      body: JSON.stringify({
        url: "https://hooks.example.com/rates",
        event_types: ["rate_added", "rate_changed", "rate_expiring", "ping", "rates_published"],
      }),
      ...bearer(acme.keys.rates!, { "content-type": "application/json" }),
    });
    expect(hook.status).toBe(201);
    const created = ((await hook.json()) as { data: { id: string; event_types: string[] } }).data;
    // Exactly the catalogue: the old placeholder is not an event.
    expect(created.event_types).toEqual(["rate_added", "rate_changed", "rate_expiring", "ping"]);
    const del = await w.p.call("rates", `/v1/webhooks/${created.id}`, {
      method: "DELETE",
      ...bearer(acme.keys.rates!),
    });
    expect(del.status).toBe(200);
  });

  test("another organisation's sheet answers 404 exactly like an unknown id", async () => {
    const theirs = await w.get(other.keys.rates!, `/v1/rates/sheets/${ids["fcl.csv"]}`);
    const unknown = await w.get(other.keys.rates!, "/v1/rates/sheets/00000000-0000-0000-0000-000000000000");
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(theirs.body).toEqual({
      error: {
        code: "not_found",
        message: `No rate sheet ${ids["fcl.csv"]} on this account.`,
        request_id: expect.any(String),
      },
    } as never);
    // Their list and searches never show it either.
    const list = await w.get(other.keys.rates!, "/v1/rates/sheets");
    expect((list.body.data.items as Array<{ id: string }>).map((i) => i.id)).toEqual([ids["other.json"]!]);
    const s = await search(
      "origin=CNSHA&destination=NLRTM&mode=OCEAN_FCL&date=2026-01-15&indicative=false",
      other.keys.rates!,
    );
    expect(new Set(s.data.offers.map((o) => o.sheet_id))).toEqual(new Set([ids["other.json"]!]));
    const noKey = await w.p.call("rates", "/v1/rates/sheets");
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({
      error: { code: "missing_key", message: expect.any(String), request_id: expect.any(String) },
    });
  });

  test("OpenAPI documents the rates routes", async () => {
    const doc = (await (await w.p.call("rates", "/swagger/json")).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/rates/search", "/v1/rates/sheets", "/v1/rates/sheets/{id}"]),
    );
    expect(doc.paths["/v1/rates/search"]!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        "origin",
        "destination",
        "mode",
        "equipment",
        "date",
        "weight_kg",
        "volume_m3",
        "quantity",
      ]),
    );
  });

  test("fast-check: no 500 and the rates envelope on any query, path and method", async () => {
    const code = fc.oneof(
      fc.constantFrom(
        "CNSHA",
        "NLRTM",
        "DEHAM",
        "PLWAW",
        "FRA",
        "JFK",
        "USNYC",
        "CN",
        "ZZZZZ",
        "",
        " ",
        "%",
        "NL RTM",
      ),
      fc.string({ maxLength: 8 }),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(
        "0",
        "-1",
        "1e309",
        "NaN",
        "2026-01-15",
        "true",
        "40HC",
        "20gp",
        "OCEAN_FCL",
        "AIR",
        "ROAD",
        "RAIL",
        "OCEAN_LCL",
      ),
    );
    const query = fc.record(
      {
        origin: code,
        destination: code,
        mode: fc.oneof(
          fc.constantFrom("OCEAN_FCL", "OCEAN_LCL", "AIR", "ROAD", "RAIL", "ocean_fcl"),
          fc.string({ maxLength: 6 }),
        ),
        equipment: value,
        date: value,
        weight_kg: value,
        volume_m3: value,
        quantity: value,
        currency: value,
        carrier: value,
        indicative: value,
        limit: value,
        cursor: value,
        junk: value,
      },
      { requiredKeys: [] },
    );
    const path = fc.oneof(
      fc.constantFrom("/v1/rates/search", "/v1/rates/sheets"),
      fc
        .oneof(fc.string({ maxLength: 40 }), fc.constantFrom(ids["fcl.csv"]!, "%00", ".."))
        .map((id) => `/v1/rates/sheets/${encodeURIComponent(id)}`),
    );
    await fc.assert(
      fc.asyncProperty(
        path,
        query,
        fc.constantFrom("GET", "GET", "GET", "POST", "HEAD"),
        async (p, q, method) => {
          const qs = new URLSearchParams(Object.entries(q) as Array<[string, string]>).toString();
          const res = await w.p.call("rates", `${p}?${qs}`, { method, ...bearer(acme.keys.rates!) });
          expect(res.status).not.toBe(500);
          if (method === "HEAD") return;
          const body = (await res.json()) as Record<string, unknown>;
          if (res.status === 200) expect(Object.keys(body)).toEqual(["data"]);
          else
            expect(body).toEqual({
              error: {
                code: expect.stringMatching(/^(invalid_request|not_found|method_not_allowed)$/),
                message: expect.any(String),
                request_id: expect.any(String),
              },
            });
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);
});
