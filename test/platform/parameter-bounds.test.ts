/**
 * The documents' numeric query parameters against what the servers enforce: for every bound a
 * document declares (minimum, exclusiveMinimum, maximum), the host refuses the value one past it
 * with a 400 in its envelope naming the parameter, and answers the bound itself. The parameters the
 * handlers are known to bound are each declared with their bounds.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

type Schema = { type?: string; minimum?: number; exclusiveMinimum?: number; maximum?: number };
type Parameter = { name: string; in: string; schema: Schema };
type Doc = { paths: Record<string, Record<string, { parameters?: Parameter[]; security?: unknown[] }>> };

let p: TestPlatform;
let keys: Record<ProductId, string>;
beforeAll(async () => {
  p = await makePlatform();
  const t = await p.tenant({ paid: true });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  keys = t.keys;
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
    const doc = (await (await p.call(product, "/docs/json")).json()) as Doc;
    for (const [path, ops] of Object.entries(doc.paths)) {
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
