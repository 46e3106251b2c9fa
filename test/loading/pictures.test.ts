/**
 * Unit pictures off the event loop and kept (api/loading/pictures.ts): the pictures of a large plan
 * are drawn on the route worker while the host answers other requests, a picture once drawn is
 * served again without drawing (counted by the pool's picture lane), a changed plan is drawn anew,
 * another organisation still gets 404, and a unit of more than DETAIL_MAX pieces is drawn as
 * blocks: far fewer shapes and bytes, every piece still counted in the legend.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BLOCKS_MAX, DETAIL_MAX } from "../../engine/loadplan/svg-blocks.ts";
import { RoutePool } from "../../engine/sea/pool.ts";
import { closeRoutePlanners, routePlanner } from "../../engine/services.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { apiOf, BODY, FAST, loadingPlatform, loadingTenant } from "./setup.ts";

let p: TestPlatform;
let api: ReturnType<typeof apiOf>;
let pool: RoutePool;

beforeAll(async () => {
  await closeRoutePlanners();
  p = await loadingPlatform({ routes: { workers: 1, queue: 8 } });
  api = apiOf(p, (await loadingTenant(p, "Pictures")).key);
  const planner = await routePlanner(p.config.buildDir, p.config.routes);
  if (!(planner instanceof RoutePool)) throw new Error("expected the route pool");
  pool = planner;
}, 60_000);
afterAll(async () => {
  await closeRoutePlanners();
  await p?.close();
});

const cubes = (name: string, side: number, quantity: number, equipment: string) => ({
  name,
  dimension_unit: "cm",
  equipment: [equipment],
  items: [
    { id: "grey", length: side, width: side, height: side, weight: 1, quantity: quantity / 2 },
    { id: "blue", length: side, width: side, height: side, weight: 1, quantity: quantity / 2 },
  ],
  ...FAST,
});
const drawings = () => pool.stats().lanes.picture.answered;
const svgPath = (id: unknown, n: number) => `/v1/load-plans/${id}/units/${n}.svg`;

test("a large plan's pictures are drawn on the worker: the account answers while they draw", async () => {
  // 4,600 cubes in five 20' boxes of ~930 pieces: each unit is drawn piece by piece (~20 ms).
  const made = await api("POST", "/v1/load-plans", cubes("Cubes", 30, 4600, "20GP"));
  expect(made.status).toBe(201);
  const units = (made.body.data.result as { units_used: number }).units_used;
  expect(units).toBe(5);
  const before = drawings();
  let answered = 0;
  const pictures = Array.from({ length: units }, (_, k) =>
    api("GET", svgPath(made.body.data.id, k + 1)).then((res) => {
      answered++;
      return res;
    }),
  );
  let done = false;
  void Promise.all(pictures).finally(() => {
    done = true;
  });
  while (pool.stats().lanes.picture.running === 0 && !done) await Bun.sleep(1);
  const account = await api("GET", "/v1/account");
  expect(account.status).toBe(200);
  expect(answered).toBeLessThan(units);
  for (const res of await Promise.all(pictures)) {
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.text.match(/<g id="load"[^>]*>/)?.[0]).toBe('<g id="load" data-drawn="pieces">');
  }
  expect(drawings() - before).toBe(units);
}, 60_000);

test("a picture once drawn is served without drawing again; a changed plan is drawn anew", async () => {
  const made = await api("POST", "/v1/load-plans", BODY);
  const id = made.body.data.id;
  const before = drawings();
  // Two at once share one drawing; the third is served from what was kept.
  const [a, b] = await Promise.all([api("GET", svgPath(id, 1)), api("GET", svgPath(id, 1))]);
  const c = await api("GET", svgPath(id, 1));
  expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
  expect(b.text).toBe(a.text);
  expect(c.text).toBe(a.text);
  expect(a.text).toContain("<title>Shanghai consolidation: unit 1 of 1</title>");
  expect(drawings() - before).toBe(1);

  const renamed = await api("PATCH", `/v1/load-plans/${id}`, { name: "Ningbo consolidation" });
  expect(renamed.body.data.version).toBe(2);
  const d = await api("GET", svgPath(id, 1));
  expect(d.text).toContain("<title>Ningbo consolidation: unit 1 of 1</title>");
  expect(drawings() - before).toBe(2);

  // Kept pictures answer only the plan's own organisation; a unit beyond the plan is 404.
  const other = apiOf(p, (await loadingTenant(p, "Other Ltd")).key);
  const foreign = await other("GET", svgPath(id, 1));
  expect([foreign.status, foreign.body.error?.code]).toEqual([404, "NOT_FOUND"]);
  expect((await api("GET", svgPath(id, 2))).status).toBe(404);
  expect(drawings() - before).toBe(2);
});

test(`a unit of more than ${DETAIL_MAX} pieces is drawn as blocks, every piece counted in the legend`, async () => {
  // 5,000 cubes of 20 cm in one 40' high cube: drawn piece by piece, 2.1 MB and ~0.5 s of drawing.
  const made = await api("POST", "/v1/load-plans", cubes("Small cubes", 20, 5000, "40HC"));
  const unit = (made.body.data.result as { units: Array<{ pieces: number }> }).units[0]!;
  expect(unit.pieces).toBe(5000);
  const res = await api("GET", svgPath(made.body.data.id, 1));
  expect(res.status).toBe(200);
  // Matched, not printed whole: the picture drawn piece by piece would be 2.1 MB of text.
  const text = res.text;
  expect(text.match(/<g id="load"[^>]*>/)?.[0]).toBe('<g id="load" data-drawn="blocks">');
  const blocks = text.match(/<g data-item="\d+">/g) ?? [];
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.length).toBeLessThanOrEqual(BLOCKS_MAX);
  // Three faces of about 150 characters each per block, and the frame.
  expect(text.length).toBeLessThan(BLOCKS_MAX * 500);
  expect(text.match(/: 5000 pieces, volume [^<]*/)?.[0]).toMatch(
    new RegExp(`more than ${DETAIL_MAX} pieces, drawn as blocks of \\d+ × \\d+ × \\d+ mm$`),
  );
  expect(text.match(/(grey|blue) × \d+/g)).toEqual(["grey × 2500", "blue × 2500"]);
});
