/**
 * POST {air_url}/rates/quote through the air-cargo app (app.handle on a real platform): the spec's
 * fields plus the documented extras in the {data} envelope, the air key and the ocean family key,
 * the /v1 spelling; every bad body answers invalid_request naming the field and writes nothing;
 * unknown airports not_found; no key 401; no 500 for any body (fast-check).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getTableName } from "drizzle-orm";
import fc from "fast-check";
import type { ProductId } from "../../api/shared/products.ts";
import { copyOrder } from "../../storage/copy.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  const tenant = await p.tenant({ paid: true });
  // An arranged ceiling, so the tables and the fuzz below reach the handler instead of a 429.
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000_000 });
  keys = tenant.keys;
});
afterAll(() => p.close());

type Json = Record<string, unknown>;

async function quote(body: unknown, key: string | null = keys.air, path = "/rates/quote") {
  const res = await p.call("air", path, {
    method: "POST",
    ...(key
      ? bearer(key, { "content-type": "application/json" })
      : { headers: { "content-type": "application/json" } }),
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

/** Every table's rows: what a request wrote shows up as a difference. */
async function contents(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const { name } of copyOrder()) {
    const table = Object.values(p.storage.t).find((t) => getTableName(t) === name)!;
    out[name] = (await p.storage.db.select().from(table)) as unknown[];
  }
  return out;
}

const GOOD = { origin: "FRA", destination: "ORD", weight_kg: 90, volume_cm3: 600_000 };
const SPEC_FIELDS = [
  "origin",
  "destination",
  "chargeable_weight_kg",
  "net_per_kg",
  "surcharge_per_kg",
  "total_charge",
  "currency",
  "airline_iata",
];
const EXTRAS = [
  "indicative",
  "rate_card",
  "origin_airport",
  "destination_airport",
  "airline_rule",
  "lane",
  "breakdown",
  "other_charges",
];

describe("a quote", () => {
  test("answers the spec's fields and the documented extras, in {data}", async () => {
    const { status, body } = await quote(GOOD);
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(["data"]);
    const data = body.data as Json;
    expect(Object.keys(data)).toEqual([...SPEC_FIELDS, ...EXTRAS]);
    // The shared card: EUR>NAM N 3.00; 100 kg chargeable (volume) at +100 2.16; fuel 1.05; security 0.15.
    expect(data).toMatchObject({
      origin: "FRA",
      destination: "ORD",
      chargeable_weight_kg: 100,
      net_per_kg: 2.16,
      surcharge_per_kg: 1.2,
      total_charge: 336,
      currency: "USD",
      airline_iata: "LH",
      indicative: true,
    });
    for (const f of ["chargeable_weight_kg", "net_per_kg", "surcharge_per_kg", "total_charge"])
      expect(typeof data[f]).toBe("number");
    expect(data.airline_iata).toMatch(/^[A-Z0-9]{2}$/);
    expect((data.rate_card as Json).note).toStartWith("SYNTHETIC, indicative model");
  });

  test("the ocean family key and /v1/rates/quote give the same answer", async () => {
    const a = await quote(GOOD);
    expect(await quote(GOOD, keys.ocean)).toEqual(a);
    expect(await quote(GOOD, keys.air, "/v1/rates/quote")).toEqual(a);
  });

  test("a city UN/LOCODE is answered as given, with the airport that priced it", async () => {
    const { status, body } = await quote({ ...GOOD, origin: "GBLON", destination: "jptyo" });
    expect(status).toBe(200);
    const data = body.data as Json;
    expect([data.origin, data.destination]).toEqual(["GBLON", "JPTYO"]);
    expect([(data.origin_airport as Json).iata, (data.destination_airport as Json).iata]).toEqual([
      "LHR",
      "NRT",
    ]);
  });
});

describe("refusals", () => {
  // [what, body, a field the message names (or the message's start for bodies with no fields)]
  const rows: Array<[string, unknown, string]> = [
    ["no body", "", "Request body could not be parsed"],
    ["not JSON", "{origin:", "Request body is not valid JSON"],
    ["an array", "[]", "Request body must be a JSON object"],
    ["null", "null", "Request body must be a JSON object"],
    ["an empty object", {}, "origin"],
    ["no origin", { ...GOOD, origin: undefined }, "origin"],
    ["no destination", { ...GOOD, destination: undefined }, "destination"],
    ["no weight", { ...GOOD, weight_kg: undefined }, "weight_kg"],
    ["no volume", { ...GOOD, volume_cm3: undefined }, "volume_cm3"],
    ["a misspelt weight", { origin: "FRA", destination: "ORD", weight: 90, volume_cm3: 1 }, "weight_kg"],
    ["a numeric origin", { ...GOOD, origin: 12 }, "origin"],
    ["a null destination", { ...GOOD, destination: null }, "destination"],
    ["an empty origin", { ...GOOD, origin: "" }, "origin"],
    ["a 65-character origin", { ...GOOD, origin: "F".repeat(65) }, "origin"],
    ["a 4-letter origin (ICAO)", { ...GOOD, origin: "EDDF" }, "origin"],
    ["a 1-letter destination", { ...GOOD, destination: "D" }, "destination"],
    ["weight as text", { ...GOOD, weight_kg: "90" }, "weight_kg"],
    ["weight true", { ...GOOD, weight_kg: true }, "weight_kg"],
    ["zero weight", { ...GOOD, weight_kg: 0 }, "weight_kg"],
    ["negative weight", { ...GOOD, weight_kg: -5 }, "weight_kg"],
    ["weight over 1,000,000 kg", { ...GOOD, weight_kg: 1_000_001 }, "weight_kg"],
    [
      "weight 1e400 (Infinity)",
      '{"origin":"FRA","destination":"ORD","weight_kg":1e400,"volume_cm3":1}',
      "weight_kg",
    ],
    ["zero volume", { ...GOOD, volume_cm3: 0 }, "volume_cm3"],
    ["volume as text", { ...GOOD, volume_cm3: "1000" }, "volume_cm3"],
    ["volume in a list", { ...GOOD, volume_cm3: [1000] }, "volume_cm3"],
    ["volume over 10,000 m3", { ...GOOD, volume_cm3: 1e11 }, "volume_cm3"],
    [
      "one airport both ends",
      { ...GOOD, origin: "DEFRA", destination: "fra" },
      "origin and destination are the same airport",
    ],
  ];

  test.each(rows)("%s: invalid_request, writes nothing", async (_, bad, named) => {
    const before = await contents();
    const { status, body } = await quote(bad);
    expect(status).toBe(400);
    const error = body.error as Json;
    expect(error.code).toBe("invalid_request");
    expect(error.message as string).toContain(named);
    expect(Object.keys(body)).toEqual(["error"]);
    expect(await contents()).toEqual(before);
  });

  test.each([
    ["XXX", "origin: no airport has the IATA code XXX."],
    ["LON", "origin: no airport has the IATA code LON."],
    ["AQXXX", "origin: no place has the UN/LOCODE AQXXX."],
    ["FIKTK", "origin: FIKTK (Kotka) has no airport KTK of its own"],
  ])("unknown airport %p: not_found, on either spelling of the route", async (origin, message) => {
    for (const path of ["/rates/quote", "/v1/rates/quote"]) {
      const { status, body } = await quote({ ...GOOD, origin }, keys.air, path);
      expect(status, path).toBe(404);
      expect((body.error as Json).code).toBe("not_found");
      expect((body.error as Json).message).toStartWith(message);
    }
  });

  test("no key, another product's key: 401 missing_key; GET: 405", async () => {
    for (const key of [null, keys.distance, keys.rates, "ac_notakey"]) {
      const { status, body } = await quote(GOOD, key);
      expect(status).toBe(401);
      expect((body.error as Json).code).toBe("missing_key");
    }
    const get = await p.call("air", "/rates/quote", bearer(keys.air));
    expect(get.status).toBe(405);
    expect(((await get.json()) as { error: Json }).error.code).toBe("method_not_allowed");
  });

  test("any body: 200, 400 invalid_request or 404 not_found, never a 500, and no writes", async () => {
    const before = await contents();
    const value = fc.oneof(fc.anything(), fc.double(), fc.string({ maxLength: 8 }));
    const field = <T>(good: fc.Arbitrary<T>) => fc.option(fc.oneof(good, value), { nil: undefined });
    const bodies = fc.record(
      {
        origin: field(fc.constantFrom("FRA", "sin", "DEFRA", "XXX", "GBLON", "JFK")),
        destination: field(fc.constantFrom("ORD", "HKG", "USNYC", "ZZZZ", "LHR")),
        weight_kg: field(fc.double({ min: 0.001, max: 1e6, noNaN: true })),
        volume_cm3: field(fc.double({ min: 0.001, max: 1e10, noNaN: true })),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (b) => {
        const { status, body } = await quote(b);
        expect([200, 400, 404]).toContain(status);
        if (status === 200) {
          const d = body.data as Json;
          expect(d.total_charge as number).toBeGreaterThan(0);
          expect(d.indicative).toBe(true);
        } else expect(["invalid_request", "not_found"]).toContain((body.error as Json).code as string);
        // A body whose numbers are not positive finite numbers is never quoted.
        const num = (v: unknown) => typeof v === "number" && v > 0;
        if (!num(b.weight_kg) || !num(b.volume_cm3)) expect(status).toBe(400);
      }),
      { numRuns: 150 },
    );
    expect(await contents()).toEqual(before);
  }, 60_000);

  test("the document promises the quote's 404, and no 422: every pair of airports is priced", async () => {
    const doc = (await (await p.call("air", "/docs/json")).json()) as {
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
    };
    for (const path of ["/rates/quote", "/v1/rates/quote"]) {
      const statuses = Object.keys(doc.paths[path]!.post.responses);
      expect(statuses, path).toContain("404");
      expect(statuses, path).not.toContain("422");
    }
  });
});
