/**
 * The rate-limit plugin behind the access plugin, over real accounts and the in-process window:
 * a window per account and product on keyed paths, per client IP on limited open paths, none on
 * the others.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { type Access, access, accessRules } from "../../../api/shared/plugins/access.ts";
import { FREE_LIMIT, PAID_LIMIT, rateLimit, windowLimit } from "../../../api/shared/plugins/rate-limit.ts";
import { ROUTER_HANDLER } from "../../../api/shared/plugins/request-target.ts";
import { type ProductId, product } from "../../../api/shared/products.ts";
import { ManualClock, makePlatform, type TestPlatform } from "../../helpers/platform.ts";

describe("windowLimit", () => {
  test.each([
    [{ paid: false, rateLimit: null }, FREE_LIMIT],
    [{ paid: true, rateLimit: null }, PAID_LIMIT],
    [{ paid: false, rateLimit: 500 }, 500],
    [{ paid: true, rateLimit: 5 }, 5],
  ])("%p: %d", (org, limit) => {
    expect(windowLimit(org)).toBe(limit);
  });
});

let p: TestPlatform;
const clock = new ManualClock();
beforeAll(async () => {
  p = await makePlatform({ trustProxy: true }, clock.now);
});
afterAll(() => p.close());

const appFor = (id: ProductId) => {
  const def = product(id);
  const rule = (path: string): Access | undefined =>
    path.startsWith("/public/")
      ? { auth: "none", limited: !path.endsWith("/free"), errors: "open" }
      : undefined;
  return new Elysia({ handler: ROUTER_HANDLER })
    .use(access(def, p, accessRules(def, rule)))
    .use(rateLimit(def, p))
    .get("/*", () => "ok");
};
const burst = async (
  app: ReturnType<typeof appFor>,
  n: number,
  path: string,
  headers: Record<string, string>,
) => {
  const answers: Response[] = [];
  for (let i = 0; i < n; i++)
    answers.push(await app.handle(new Request(`http://localhost${path}`, { headers })));
  return answers;
};

test("keyed paths: a window per account and product, headers on every answer, 429 past it", async () => {
  const ocean = appFor("ocean");
  const { keys } = await p.tenant();
  const other = await p.tenant();
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const answers = await burst(ocean, FREE_LIMIT + 1, "/v1/anything", auth(keys.ocean));
  expect(answers.slice(0, FREE_LIMIT).every((r) => r.status === 200)).toBe(true);
  expect(answers[0]!.headers.get("x-ratelimit-limit")).toBe(String(FREE_LIMIT));
  expect(answers[0]!.headers.get("x-ratelimit-remaining")).toBe(String(FREE_LIMIT - 1));
  expect(Number(answers[0]!.headers.get("x-ratelimit-reset"))).toBe(Math.ceil((clock.t + 20_000) / 1000));
  const last = answers[FREE_LIMIT]!;
  expect([last.status, last.headers.get("retry-after"), last.headers.get("x-ratelimit-remaining")]).toEqual([
    429,
    "20",
    "0",
  ]);
  expect(await last.text()).toBe(
    `Rate limit exceeded: ${FREE_LIMIT} requests per 20-second window; retry in 20 s.`,
  );
  // Another account, and the same account on another product, count from zero.
  expect((await burst(ocean, 1, "/v1/anything", auth(other.keys.ocean)))[0]!.status).toBe(200);
  expect((await burst(appFor("rates"), 1, "/v1/anything", auth(keys.rates)))[0]!.status).toBe(200);
});

test("limited open paths: a window per client IP (X-Forwarded-For with PORTOLAN_TRUST_PROXY=1)", async () => {
  const schedules = appFor("schedules");
  const from = (ip: string) => ({ "x-forwarded-for": `${ip}, 10.0.0.1` });
  const answers = await burst(schedules, FREE_LIMIT + 1, "/public/v1/ping", from("203.0.113.7"));
  expect(answers.map((r) => r.status).filter((s) => s === 200)).toHaveLength(FREE_LIMIT);
  expect(answers[FREE_LIMIT]!.status).toBe(429);
  expect((await burst(schedules, 1, "/public/v1/ping", from("203.0.113.8")))[0]!.status).toBe(200);
});

test("open paths that are not limited count nothing and send no rate headers", async () => {
  const answers = await burst(appFor("schedules"), FREE_LIMIT + 5, "/public/v1/free", {});
  expect(answers.every((r) => r.status === 200 && !r.headers.has("x-ratelimit-limit"))).toBe(true);
});
