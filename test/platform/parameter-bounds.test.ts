/**
 * The documents' parameters against what the servers enforce: for every bound a document declares
 * (minimum, exclusiveMinimum, maximum), the host refuses the value one past it with a 400 in its
 * envelope naming the parameter, and answers the bound itself; every boolean takes the spellings
 * the document names and refuses others; every id in a path is a UUID, and a value that is no UUID
 * answers 404. The parameters the handlers are known to check are each declared so.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

type Schema = {
  type?: string;
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
};
type Parameter = { name: string; in: string; schema: Schema };
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[]; security?: unknown[] }>> };

const docs = {} as Record<ProductId, Doc>;

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  const t = await p.tenant({ paid: true });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  keys = t.keys;
  for (const id of PRODUCT_IDS) docs[id] = (await (await p.call(id, "/docs/json")).json()) as Doc;
});
afterAll(() => p.close());

/** The other parameters a route needs to answer 200 (schedules' public twins take the same). */
const BASE: Record<string, Record<string, string>> = {
  "/v1/point-to-point": { origin: "NLRTM", destination: "SGSIN" },
  "/v1/rates/search": { origin: "NLRTM", destination: "USNYC", mode: "OCEAN_FCL" },
  "/v1/distance/route": { from: "NLRTM", to: "SGSIN" },
  "/v1/distance/multimodal": { from: "NLRTM", to: "SGSIN", modes: "SEA" },
  "/v1/distance/locations": { q: "Rotterdam" },
  "/v1/distance/matrix": { sources: "NLRTM", destinations: "SGSIN" },
};

/** Every (product, path, parameter) whose handler checks a range. */
const ENFORCED = [
  "ocean /v1/containers limit",
  "ocean /v2/events limit",
  "ocean /v1/webhooks limit",
  "air /v1/awbs limit",
  "schedules /v1/point-to-point limit",
  "schedules /v1/point-to-point max_transshipments",
  "schedules /v1/reliability window_days",
  "schedules /public/v1/reliability window_days",
  "loading /v1/load-plans limit",
  "rates /v1/rates/search limit",
  "rates /v1/rates/search quantity",
  "rates /v1/rates/search weight_kg",
  "rates /v1/rates/search volume_m3",
  "rates /v1/rates/sheets limit",
  "distance /v1/distance/route speed_knots",
  "distance /v1/distance/route cargo_tonnes",
  "distance /v1/distance/multimodal speed_knots",
  "distance /v1/distance/multimodal cargo_tonnes",
  "distance /v1/distance/matrix speed_knots",
  "distance /v1/distance/matrix cargo_tonnes",
  "distance /v1/distance/locations limit",
];

/** Values past each declared bound (refused) and the bounds themselves (answered). */
function probes(s: Schema): { refused: number[]; accepted: number[] } {
  const refused: number[] = [];
  const accepted: number[] = [];
  if (s.minimum !== undefined) {
    refused.push(s.minimum - 1);
    accepted.push(s.minimum);
  }
  if (s.exclusiveMinimum !== undefined) refused.push(s.exclusiveMinimum);
  if (s.maximum !== undefined) {
    refused.push(s.maximum + 1);
    accepted.push(s.maximum);
  }
  return { refused, accepted };
}

async function ask(product: ProductId, path: string, query: Record<string, string>, open: boolean) {
  const res = await p.call(
    product,
    `${path}?${new URLSearchParams(query)}`,
    open ? {} : bearer(keys[product]),
  );
  return { status: res.status, text: await res.text() };
}

test("every declared bound is the one the server enforces, in each product's envelope", async () => {
  const checked: string[] = [];
  for (const product of PRODUCT_IDS) {
    for (const [path, ops] of Object.entries(docs[product].paths)) {
      const op = ops.get;
      const open = op?.security?.length === 0;
      for (const param of op?.parameters ?? []) {
        const { refused, accepted } = probes(param.schema);
        if (param.in !== "query" || refused.length === 0) continue;
        checked.push(`${product} ${path} ${param.name}`);
        const base = BASE[path.replace(/^\/public/, "")] ?? {};
        for (const value of refused) {
          const got = await ask(product, path, { ...base, [param.name]: String(value) }, open);
          expect(got.status, `${product} ${path} ${param.name}=${value}`).toBe(400);
          expect(got.text, `${product} ${path} ${param.name}=${value}`).toContain(param.name);
        }
        for (const value of accepted) {
          const got = await ask(product, path, { ...base, [param.name]: String(value) }, open);
          expect(got.status, `${product} ${path} ${param.name}=${value}: ${got.text.slice(0, 200)}`).toBe(
            200,
          );
        }
      }
    }
  }
  expect(checked).toEqual(expect.arrayContaining(ENFORCED));
}, 300_000);

/** Every (product, path, flag) the handlers read as a boolean (api/shared/flag.ts, engine/distance/requests.ts). */
const FLAGS = [
  "ocean /v1/containers archived",
  "air /v1/awbs archived",
  "schedules /v1/point-to-point direct_only",
  "schedules /public/v1/point-to-point direct_only",
  "rates /v1/rates/search indicative",
  "distance /v1/distance/route path",
  "distance /v1/distance/route alternatives",
  "distance /v1/distance/route handling",
  "distance /v1/distance/route seasonal",
  "distance /v1/distance/multimodal path",
  "distance /v1/distance/multimodal alternatives",
  "distance /v1/distance/multimodal handling",
  "distance /v1/distance/multimodal seasonal",
  "distance /v1/distance/locations geocode",
  "distance /v1/distance/matrix handling",
  "distance /v1/distance/matrix seasonal",
];

/** The route reads these flags only in the modes that use them (engine/distance/requests.ts). */
const RIVER_ROUTE = { from: "Duisburg", to: "Rotterdam", mode: "RIVER" };
const baseOf = (path: string, flag: string) =>
  path === "/v1/distance/route" && (flag === "handling" || flag === "seasonal")
    ? RIVER_ROUTE
    : (BASE[path.replace(/^\/public/, "")] ?? {});

test("every boolean takes true, 1, false, 0 in any case and refuses another value naming it", async () => {
  const checked: string[] = [];
  for (const product of PRODUCT_IDS) {
    for (const [path, ops] of Object.entries(docs[product].paths)) {
      const open = ops.get?.security?.length === 0;
      for (const param of ops.get?.parameters ?? []) {
        if (param.in !== "query" || param.schema.type !== "boolean") continue;
        checked.push(`${product} ${path} ${param.name}`);
        const base = baseOf(path, param.name);
        for (const value of ["true", "1", "FALSE", "0"]) {
          const got = await ask(product, path, { ...base, [param.name]: value }, open);
          expect(got.status, `${product} ${path} ${param.name}=${value}: ${got.text.slice(0, 200)}`).toBe(
            200,
          );
        }
        const got = await ask(product, path, { ...base, [param.name]: "yes" }, open);
        expect(got.status, `${product} ${path} ${param.name}=yes`).toBe(400);
        expect(got.text).toContain(param.name);
      }
    }
  }
  expect(checked.sort()).toEqual([...FLAGS].sort());
}, 300_000);

/** The resources named by a UUID in their paths. */
const UUID_PATHS = [
  "ocean /v1/containers/{id}",
  "ocean /v1/demurrage/terms/{id}",
  "ocean /v1/webhooks/{id}",
  "ocean /v1/account/keys/{id}",
  "air /v1/awbs/{id}",
  "schedules /v1/follows/{id}",
  "loading /v1/load-plans/{id}",
  "rates /v1/rates/sheets/{id}",
];

test("every id in a path is documented as a UUID, and a value that is no UUID answers 404", async () => {
  const checked: string[] = [];
  for (const product of PRODUCT_IDS) {
    for (const [path, ops] of Object.entries(docs[product].paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const id = op.parameters?.find((q) => q.in === "path" && q.name === "id");
        if (!id) continue;
        checked.push(`${product} ${path}`);
        expect(id.schema.format, `${product} ${method} ${path}`).toBe("uuid");
        const res = await p.call(product, path.replace("{id}", "not-a-uuid").replace("{file}", "1.svg"), {
          method: method.toUpperCase(),
          ...bearer(keys[product], { "content-type": "application/json" }),
          ...(method === "get" || method === "delete" ? {} : { body: "{}" }),
        });
        // Ocean's DELETE of a webhook endpoint is idempotent and checks no existence (spec).
        const idempotent = product === "ocean" && method === "delete" && path === "/v1/webhooks/{id}";
        expect(res.status, `${product} ${method} ${path}`).toBe(idempotent ? 200 : 404);
      }
    }
  }
  expect(checked).toEqual(expect.arrayContaining(UUID_PATHS));
});
