/** The request-id plugin alone: a trusted proxy's id is kept when plain, anything else replaced. */
import { describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { requestId } from "../../../api/shared/plugins/request-id.ts";

const appFor = (trustProxy: boolean) =>
  new Elysia()
    .use(requestId(trustProxy))
    .get("/id", ({ requestId }) => requestId)
    .get("/raw", () => new Response("raw"))
    .get("/fails", () => {
      throw new Error("fails");
    });

const call = async (trustProxy: boolean, path: string, given?: string) => {
  const headers: Record<string, string> = given === undefined ? {} : { "x-request-id": given };
  const res = await appFor(trustProxy).handle(new Request(`http://localhost${path}`, { headers }));
  return { header: res.headers.get("x-request-id"), body: await res.text() };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("requestId", () => {
  test("a new UUID per request, on the context and echoed", async () => {
    const [a, b] = [await call(false, "/id"), await call(false, "/id")];
    expect(a.header).toMatch(UUID);
    expect(a.body).toBe(a.header!);
    expect(b.header).not.toBe(a.header);
  });

  test("echoed on a handler's own Response and on a failure", async () => {
    expect((await call(false, "/raw")).header).toMatch(UUID);
    expect((await call(false, "/fails")).header).toMatch(UUID);
  });

  test("a proxy's id is kept only when the proxy is trusted and the id is a plain token", async () => {
    expect((await call(true, "/id", "edge-7f3a.42:1")).header).toBe("edge-7f3a.42:1");
    expect((await call(false, "/id", "edge-7f3a")).header).toMatch(UUID);
    for (const bad of ["", "has space", 'quote"', "x".repeat(129), "line\tbreak"]) {
      expect((await call(true, "/id", bad)).header, bad).toMatch(UUID);
    }
  });
});
