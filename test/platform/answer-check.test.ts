/**
 * The answer check the platform helpers run on every answer (test/helpers/answer-check.ts), against
 * a real host's served document: a documented status and body pass; an undocumented status, a
 * missing field and an extra field each throw, naming the route.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsonResponse } from "../../api/shared/envelopes.ts";
import { checkAnswer } from "../helpers/answer-check.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let doc: Parameters<typeof checkAnswer>[0];
let key: string;
beforeAll(async () => {
  p = await makePlatform();
  key = (await p.tenant()).keys.rates;
  const served = await (await p.call("rates", "/docs/json")).json();
  doc = () => served as never;
});
afterAll(() => p.close());

const sheet = new Request("http://localhost/v1/rates/sheets/0198e3c0-0000-7000-8000-000000000000");

test("the answers a real request gets pass", async () => {
  const real = await p.apps.rates.handle(new Request("http://localhost/v1/account", bearer(key)));
  await checkAnswer(doc, new Request("http://localhost/v1/account"), real);
});

test("an undocumented status, a missing field and an extra field fail, naming the route", async () => {
  const keys = new Request("http://localhost/v1/account/keys");
  await expect(checkAnswer(doc, keys, jsonResponse({ data: { items: [] } }, 418))).rejects.toThrow(
    "GET /v1/account/keys answered 418: the OpenAPI document does not list this status",
  );
  await expect(checkAnswer(doc, keys, jsonResponse({ items: [] }))).rejects.toThrow(
    "GET /v1/account/keys answered 200: body does not match the document",
  );
  await expect(checkAnswer(doc, keys, jsonResponse({ data: { items: [] }, extra: 1 }))).rejects.toThrow(
    "must NOT have additional properties",
  );
  await expect(
    checkAnswer(doc, sheet, jsonResponse({ error: { code: "not_found", message: "x" }, ok: false }, 404)),
  ).rejects.toThrow("must NOT have additional properties");
  await checkAnswer(doc, keys, jsonResponse({ data: { items: [] } }));
});
