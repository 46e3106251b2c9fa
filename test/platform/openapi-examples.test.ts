/**
 * The documents' example answers (api/shared/openapi/examples.ts, recorded by
 * scripts/openapi-examples.ts): each served on its response, each valid against that response's
 * schema in the served document (the answer check's Ajv), a success example on every operation
 * that answers JSON, and no real key or secret among them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { exampleMedia, examplesOf } from "../../api/shared/openapi/examples.ts";
import { PRODUCT_IDS, type ProductId } from "../../api/shared/products.ts";
import { checkBody, type Doc } from "../helpers/answer-check.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

/** Operations whose success is no JSON body (a page, a picture): their examples are the 4xx ones. */
const NO_JSON_SUCCESS: Partial<Record<ProductId, string[]>> = {
  ocean: ["GET /track"],
  loading: ["GET /v1/load-plans/{id}/units/{file}"],
  distance: ["GET /map"],
};

let p: TestPlatform;
beforeAll(async () => {
  p = await makePlatform();
});
afterAll(() => p.close());

const served = async (product: ProductId) => (await (await p.call(product, "/docs/json")).json()) as Doc;

describe.each(PRODUCT_IDS)("%s", (product) => {
  test("every recorded answer is served as its response's example, valid against its schema", async () => {
    const doc = await served(product);
    const examples = examplesOf(product);
    expect(Object.keys(examples).length).toBeGreaterThan(0);
    for (const [key, body] of Object.entries(examples)) {
      const media = exampleMedia(doc, key);
      expect(media?.example, key).toEqual(body);
      const [method, path, status] = key.split(" ") as [string, string, string];
      checkBody(`example ${key}`, doc, path, method.toLowerCase(), Number(status), media!.example);
    }
  });

  test("every operation has a success example, a 404 and a 400 are among them", async () => {
    const doc = await served(product);
    const keys = Object.keys(examplesOf(product));
    const without = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .map((m) => `${m.toUpperCase()} ${path}`)
        .filter((op) => !keys.some((k) => k.startsWith(`${op} 2`))),
    );
    expect(without.sort()).toEqual(NO_JSON_SUCCESS[product] ?? []);
    expect(keys.some((k) => k.endsWith(" 404"))).toBe(true);
    expect(keys.some((k) => k.endsWith(" 400"))).toBe(true);
  });

  test("no example carries a real key, key hint or webhook secret", () => {
    const text = JSON.stringify(examplesOf(product));
    const secrets = text.match(/\b[a-z]{2,5}_[A-Za-z0-9]{16,}\b/g) ?? [];
    const hints = text.match(/\b[a-z]{2,5}_[A-Za-z0-9]{3}…[A-Za-z0-9]{4}\b/g) ?? [];
    for (const s of [...secrets, ...hints]) expect(s).toMatch(/^[a-z]+_x+(…x+)?$/);
  });
});
