/** The request-target plugin alone: targets no route may see are refused before any route runs. */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import {
  decodablePath,
  isCanonicalTarget,
  ROUTER_HANDLER,
  requestTarget,
} from "../../../api/shared/plugins/request-target.ts";

/** Each check with what it lets through and what it refuses. */
const CHECKS = {
  isCanonicalTarget: {
    check: isCanonicalTarget,
    through: ["http://localhost/v1/account", "http://127.0.0.1:8080/v1/x?y=1"],
    refused: [
      "http://localhost",
      "http:///v1/account",
      "https://localhost/v1/account",
      "http://evil?/v1/account",
      "http://evil#/v1/account",
      "http://ev il/v1/account",
      "http://evil\\x/v1/account",
      "/v1/account",
    ],
  },
  decodablePath: {
    check: decodablePath,
    through: ["/v1/containers/MSKU1234565", "/v1/x%20y", "/v1/%E2%82%AC"],
    refused: ["/v1/%", "/v1/%ZZ", "/v1/%FF", "/v1/%C0%AF", "/v1/%ED%A0%80", "/v1/a%00b"],
  },
};

describe.each(Object.entries(CHECKS))("%s", (_, { check, through, refused }) => {
  test.each(through)("lets %s through", (text) => {
    expect(check(text)).toBe(true);
  });
  test.each(refused)("refuses %s", (text) => {
    expect(check(text)).toBe(false);
  });
});

describe("requestTarget", () => {
  // Without an error plugin, Elysia answers a thrown ApiError with its status and message.
  const app = new Elysia({ handler: ROUTER_HANDLER })
    .use(requestTarget("test", { getOnly: (path) => path.startsWith("/read") }))
    .get("/read", () => "read")
    .post("/write", () => "written")
    .get("/items/:id", ({ params }) => params.id);
  const call = async (url: string, init?: RequestInit) => {
    const res = await app.handle(new Request(url, init));
    return [res.status, await res.text()];
  };

  test("a target routing can be trusted with reaches its route", async () => {
    expect(await call("http://localhost/read")).toEqual([200, "read"]);
    expect(await call("http://localhost/write", { method: "POST" })).toEqual([200, "written"]);
    expect(await call("http://localhost/items/a%20b")).toEqual([200, "a b"]);
  });

  test.each([
    ["https://localhost/read", "Malformed request target or Host header."],
    [
      "http://localhost/items/%ZZ",
      "The path has malformed percent-encoding (or encodes invalid UTF-8 or a NUL).",
    ],
    [
      "http://localhost/items/%00",
      "The path has malformed percent-encoding (or encodes invalid UTF-8 or a NUL).",
    ],
    [
      "http://localhost/read?tag=a%00",
      'Query parameter "tag" holds a NUL character, which no field accepts.',
    ],
  ])("%s answers 400 before any route", async (url, message) => {
    expect(await call(url)).toEqual([400, message]);
  });

  test("a GET-only path answers 405 to other methods, HEAD passes", async () => {
    expect(await call("http://localhost/read", { method: "DELETE" })).toEqual([
      405,
      "Method DELETE is not allowed here; this API answers GET only.",
    ]);
    expect((await call("http://localhost/read", { method: "HEAD" }))[0]).toBe(200);
  });
});
