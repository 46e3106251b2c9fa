/**
 * Open routes are limited per client address, over a real socket served as `npm start` serves
 * them (serveBun): one client that spends its window leaves another client's untouched. Clients
 * connect from two loopback addresses (127.0.0.2 and 127.0.0.3).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { request } from "node:http";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { FREE_LIMIT } from "../../api/shared/product-app.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let server: ReturnType<typeof serveBun>;
beforeAll(async () => {
  p = await makePlatform({ sandbox: false, rateWindowMs: 60_000 });
  server = serveBun(p.apps.ocean, "127.0.0.1", 0);
});
afterAll(async () => {
  server.stop(true);
  await p.close();
});

/** GET /swagger/json (open, limited per address) from `localAddress`: its status. */
function get(localAddress: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: server.port, path: "/swagger/json", localAddress },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test("a client that spends its window does not spend another's", async () => {
  for (let i = 0; i < FREE_LIMIT; i++) expect(await get("127.0.0.2")).toBe(200);
  expect(await get("127.0.0.2")).toBe(429);
  expect(await get("127.0.0.3")).toBe(200);
});
