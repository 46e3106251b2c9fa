/**
 * The answer check the platform helpers run on every answer (test/helpers/answer-check.ts), against
 * a real host's served document: a documented status, body and headers pass; an undocumented
 * status, a missing field, an extra field, a missing required header, an undeclared header and
 * another content type each throw, naming the route.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { jsonResponse as json } from "../../api/shared/envelopes.ts";
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
  const real = await p.apps.rates.handle(new Request("http://localhost/v1/account/keys", bearer(key)));
  const sent = Object.fromEntries(real.headers);
  const jsonResponse = (body: unknown, status = 200) => json(body, status, sent);
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

test("a required header missing, an undeclared one and another content type fail; transport headers pass", async () => {
  const keys = new Request("http://localhost/v1/account/keys");
  const real = await p.apps.rates.handle(new Request("http://localhost/v1/account/keys", bearer(key)));
  const body = await real.text();
  const sent = Object.fromEntries(real.headers);
  const answer = (headers: Record<string, string>) => new Response(body, { status: 200, headers });
  const { "x-request-id": _id, ...withoutId } = sent;
  await expect(checkAnswer(doc, keys, answer(withoutId))).rejects.toThrow(
    "GET /v1/account/keys answered 200: the required header x-request-id is missing",
  );
  await expect(checkAnswer(doc, keys, answer({ ...sent, "x-powered-by": "Elysia" }))).rejects.toThrow(
    "GET /v1/account/keys answered 200: sent the header x-powered-by, which the document does not declare",
  );
  await expect(checkAnswer(doc, keys, answer({ ...sent, "content-type": "text/plain" }))).rejects.toThrow(
    "GET /v1/account/keys answered 200: documented as application/json, sent text/plain",
  );
  await checkAnswer(doc, keys, answer({ ...sent, date: new Date().toUTCString(), vary: "accept-encoding" }));
});
