/** The body plugin alone: one capped JSON parser, and the text no field can hold refused at the edge. */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { accessRules } from "../../../api/shared/plugins/access.ts";
import { jsonBody, parseBody } from "../../../api/shared/plugins/body.ts";
import { errors } from "../../../api/shared/plugins/errors.ts";
import { ROUTER_HANDLER } from "../../../api/shared/plugins/request-target.ts";
import { product } from "../../../api/shared/products.ts";

describe("parseBody", () => {
  test.each([
    ['{"a":1,"b":["x"]}', { a: 1, b: ["x"] }],
    ['  {"text":"\\u00e9\\ud83d\\ude00"}  ', { text: "é😀" }],
    ["", undefined],
    ["  \n", undefined],
  ])("%p reads as %p", (text, body) => {
    expect(parseBody(text)).toEqual(body);
  });

  test.each([
    ["{", "Request body is not valid JSON."],
    ["[1]", "Request body must be a JSON object."],
    ["null", "Request body must be a JSON object."],
    ['"text"', "Request body must be a JSON object."],
    ['{"toString":"x"}', "Request body: no field may be named toString."],
    ['{"a":{"valueOf":1}}', "Request body: no field may be named valueOf."],
    [
      '{"tags":["ok","\\u0000"]}',
      "Request body: tags[1] holds a NUL character or an unpaired surrogate, which no field accepts.",
    ],
    [
      '{"terms":{"carrier_code":"\\ud800"}}',
      "Request body: terms.carrier_code holds a NUL character or an unpaired surrogate, which no field accepts.",
    ],
  ])("%p is refused", (text, message) => {
    expect(() => parseBody(text)).toThrow(message);
  });
});

describe("jsonBody", () => {
  const CAP = 64;
  // Elysia wraps what a parser throws; the errors plugin renders the refusal (rates: {error}).
  const rates = product("rates");
  const app = new Elysia({ handler: ROUTER_HANDLER })
    .use(errors(rates, { accessOf: accessRules(rates), routes: () => [] }))
    .use(jsonBody("test", CAP))
    .post("/echo", ({ body }) => JSON.stringify(body ?? "no body"));
  const answer = async (res: Response) =>
    res.status === 200 ? [200, await res.text()] : [res.status, (await res.json()).error.message];
  const post = async (body: BodyInit, headers: Record<string, string> = {}, path = "/echo") =>
    answer(await app.handle(new Request(`http://localhost${path}`, { method: "POST", body, headers })));
  const chunked = (text: string) =>
    new ReadableStream({
      start(c) {
        for (const piece of text.match(/.{1,16}/g) ?? []) c.enqueue(new TextEncoder().encode(piece));
        c.close();
      },
    });

  test("a JSON object within the cap reaches the route, declared or chunked", async () => {
    expect(await post('{"a":1}', { "content-type": "application/json" })).toEqual([200, '{"a":1}']);
    expect(await post(chunked('{"b":"chunked"}'))).toEqual([200, '{"b":"chunked"}']);
  });

  test("over the cap is a 400: declared (before routing: no such path is needed), sent or chunked", async () => {
    const big = JSON.stringify({ text: "x".repeat(CAP) });
    const refused = [400, `Request body exceeds the ${CAP}-byte limit.`];
    expect(await post(big, { "content-length": String(big.length) }, "/nowhere")).toEqual(refused);
    expect(await post(big, { "content-type": "application/json" })).toEqual(refused);
    expect(await post(chunked(big))).toEqual(refused);
  });

  test("a body no field can hold is refused whatever its content type says", async () => {
    expect(await post('{"a":"\\u0000"}', { "content-type": "text/plain" })).toEqual([
      400,
      "Request body: a holds a NUL character or an unpaired surrogate, which no field accepts.",
    ]);
  });
});
