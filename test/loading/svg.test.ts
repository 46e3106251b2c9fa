/**
 * The unit picture (engine/loadplan/svg.ts): the painter's order checked against an independent
 * ray cast over plans of random cargo from the real planner, deterministic escaped text, and the
 * picture served by the real server opened in Debian's chromium (playwright-core), its screenshot
 * decoded and checked for each item type's colour.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Browser } from "playwright-core";
import { loadPlannerFor } from "../../api/loading/routes.ts";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { EQUIPMENT } from "../../engine/loadplan/equipment.ts";
import type { LoadPlanner } from "../../engine/loadplan/planner.ts";
import { faceColours, itemColour, paintOrder, unitSvg } from "../../engine/loadplan/svg.ts";
import { BLOCKS_MAX, unitBlocks } from "../../engine/loadplan/svg-blocks.ts";
import type { PlannedUnit } from "../../engine/loadplan/types.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { launchChromium, screenshotPath } from "../maps/browser.ts";
import { countNear, decodePng } from "../maps/png.ts";
import { apiOf, BODY, CRATE, FAST, loadingPlatform, loadingTenant, PALLET } from "./setup.ts";

let planner: LoadPlanner;
let p: TestPlatform;

beforeAll(async () => {
  p = await loadingPlatform();
  planner = await loadPlannerFor(p.config.buildDir);
}, 60_000);
afterAll(() => p?.close());

type Box = { x0: number; y0: number; z0: number; x1: number; y1: number; z1: number };
const boxesOf = (u: PlannedUnit): Box[] =>
  u.placements.map((x) => ({
    x0: x.position.x,
    y0: x.position.y,
    z0: x.position.z,
    x1: x.position.x + x.size.length,
    y1: x.position.y + x.size.width,
    z1: x.position.z + x.size.height,
  }));

/**
 * The box seen at screen point (u = x - y, w = (x + y) / 2 - z): the view ray is P0 + t(1, 1, 1)
 * with P0 = (u, 0, u / 2 - w), the eye at t = +infinity; the nearest box is the one it leaves last.
 */
function seenAt(boxes: readonly Box[], u: number, w: number): number {
  const p0 = [u, 0, u / 2 - w];
  let best = -1;
  let bestExit = Number.NEGATIVE_INFINITY;
  boxes.forEach((b, k) => {
    const lo = [b.x0, b.y0, b.z0].map((v, i) => v - p0[i]!);
    const hi = [b.x1, b.y1, b.z1].map((v, i) => v - p0[i]!);
    const enter = Math.max(...lo);
    const exit = Math.min(...hi);
    if (exit - enter > 1e-6 && exit > bestExit) {
      best = k;
      bestExit = exit;
    }
  });
  return best;
}

/** Whether the point lies within a hair of an outline, where the two readings may round apart. */
function onOutline(boxes: readonly Box[], u: number, w: number): boolean {
  const v = w - u / 2;
  const c = u + v;
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-3;
  return boxes.some(
    (b) =>
      near(u, b.x0 - b.y1) ||
      near(u, b.x1 - b.y0) ||
      near(v, b.y0 - b.z1) ||
      near(v, b.y1 - b.z0) ||
      near(c, b.x0 - b.z1) ||
      near(c, b.x1 - b.z0),
  );
}

/** The box painted last at the point (the painter's answer), from the order under test. */
function paintedAt(boxes: readonly Box[], order: readonly number[], u: number, w: number): number {
  for (let i = order.length - 1; i >= 0; i--) {
    const b = boxes[order[i]!]!;
    // Inside the hexagon: its three slab ranges (x - y, y - z, x - z), strictly.
    const v = w - u / 2; // y - z on the ray's plane section: y - z = (x + y)/2 - z - (x - y)/2
    const c = u + v;
    if (
      u > b.x0 - b.y1 &&
      u < b.x1 - b.y0 &&
      v > b.y0 - b.z1 &&
      v < b.y1 - b.z0 &&
      c > b.x0 - b.z1 &&
      c < b.x1 - b.z0
    )
      return order[i]!;
  }
  return -1;
}

describe("painter's order", () => {
  test("at every sampled point the box painted last is the one the eye sees (random cargo)", () => {
    const item = fc.record({
      length: fc.integer({ min: 200, max: 1600 }),
      width: fc.integer({ min: 200, max: 1200 }),
      height: fc.integer({ min: 150, max: 1200 }),
      quantity: fc.integer({ min: 1, max: 25 }),
      weight: fc.integer({ min: 1, max: 300 }),
      orientations: fc.constantFrom("any" as const, "this_side_up" as const),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("20GP", "40HC", "TRAILER_13_6"),
        fc.integer(),
        (items, equipment, seed) => {
          const plan = planner.plan({ items, dimensionUnit: "mm", equipment: [equipment], workBudget: 0 });
          for (const unit of plan.units) {
            const boxes = boxesOf(unit);
            const order = paintOrder(boxes.map((b, k) => ({ item: unit.placements[k]!.item, ...b })));
            expect([...order].sort((a, b) => a - b)).toEqual(boxes.map((_, k) => k));
            const rand = fc.sample(
              fc.tuple(
                fc.double({ min: -3000, max: 14_000, noNaN: true }),
                fc.double({ min: -3000, max: 8000, noNaN: true }),
              ),
              { numRuns: 400, seed },
            );
            for (const [u, w] of rand) {
              if (!onOutline(boxes, u, w)) expect(paintedAt(boxes, order, u, w)).toBe(seenAt(boxes, u, w));
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  // Arrangements where a simple sort (by x + y + z of the near corner, or by layer) paints wrongly.
  const box = (x0: number, y0: number, z0: number, l: number, w: number, h: number): Box => ({
    x0,
    y0,
    z0,
    x1: x0 + l,
    y1: y0 + w,
    z1: z0 + h,
  });
  test.each([
    [
      "tall piece in front of a stacked one",
      [box(0, 0, 0, 300, 600, 1500), box(0, 0, 1500, 300, 600, 400), box(300, 0, 0, 600, 600, 2300)],
    ],
    [
      "long piece under short ones across it",
      [box(0, 0, 0, 2000, 300, 300), box(200, 300, 0, 300, 300, 900), box(1500, 0, 300, 300, 300, 300)],
    ],
    [
      "wide piece beside a tower",
      [box(0, 0, 0, 500, 500, 500), box(0, 0, 500, 500, 500, 500), box(0, 500, 0, 2000, 1200, 200)],
    ],
  ] as const)("%s", (_, boxes) => {
    const order = paintOrder(boxes.map((b) => ({ item: 0, ...b })));
    let checked = 0;
    for (let u = -2000; u <= 2500; u += 7.3) {
      for (let w = -2600; w <= 2000; w += 7.7) {
        if (onOutline(boxes, u, w)) continue;
        expect(paintedAt(boxes, order, u, w)).toBe(seenAt(boxes, u, w));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300_000);
  });
});

describe("blocks", () => {
  /** Volume of the intersection of two boxes. */
  const common = (a: Box, b: Box) =>
    Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) *
    Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)) *
    Math.max(0, Math.min(a.z1, b.z1) - Math.max(a.z0, b.z0));

  test("each block is a grid cell at least half filled, coloured by its main item; every such cell in sight is a block", () => {
    const item = fc.record({
      length: fc.integer({ min: 100, max: 900 }),
      width: fc.integer({ min: 100, max: 900 }),
      height: fc.integer({ min: 100, max: 900 }),
      quantity: fc.integer({ min: 1, max: 60 }),
      weight: fc.constant(1),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 4 }),
        fc.constantFrom("20GP", "40HC"),
        (items, code) => {
          const unit = planner.plan({ items, dimensionUnit: "mm", equipment: [code], workBudget: 0 })
            .units[0]!;
          const pieces = boxesOf(unit).map((b, k) => ({ item: unit.placements[k]!.item, ...b }));
          const inside = EQUIPMENT[unit.equipment].inside;
          const { boxes, cell } = unitBlocks(pieces, inside);
          const [nx, ny, nz] = [inside.length, inside.width, inside.height].map((d, i) =>
            Math.round(d / cell[i]!),
          );
          expect(nx! * ny! * nz!).toBeLessThanOrEqual(BLOCKS_MAX);
          const at = (i: number, j: number, k: number): Box => ({
            x0: i * cell[0],
            y0: j * cell[1],
            z0: k * cell[2],
            x1: (i + 1) * cell[0],
            y1: (j + 1) * cell[1],
            z1: (k + 1) * cell[2],
          });
          const full = (i: number, j: number, k: number) =>
            i < nx! &&
            j < ny! &&
            k < nz! &&
            pieces.reduce((v, p) => v + common(p, at(i, j, k)), 0) >=
              (cell[0] * cell[1] * cell[2]) / 2 - 1e-6;
          const drawn = new Set(
            boxes.map(
              (b) =>
                `${Math.round(b.x0 / cell[0])},${Math.round(b.y0 / cell[1])},${Math.round(b.z0 / cell[2])}`,
            ),
          );
          expect(drawn.size).toBe(boxes.length);
          for (let i = 0; i < nx!; i++) {
            for (let j = 0; j < ny!; j++) {
              for (let k = 0; k < nz!; k++) {
                const seen = full(i, j, k) && !(full(i + 1, j, k) && full(i, j + 1, k) && full(i, j, k + 1));
                expect(drawn.has(`${i},${j},${k}`)).toBe(seen);
              }
            }
          }
          for (const b of boxes) {
            const byItem = new Map<number, number>();
            for (const p of pieces) byItem.set(p.item, (byItem.get(p.item) ?? 0) + common(p, b));
            expect(byItem.get(b.item)!).toBeGreaterThanOrEqual(Math.max(...byItem.values()) - 1e-6);
          }
        },
      ),
      {
        numRuns: 12,
        // Cells filled exactly half, their pieces' shares summing to half less 1e-8 mm3.
        examples: [
          [
            [
              { length: 113, width: 451, height: 599, quantity: 24, weight: 1 },
              { length: 122, width: 634, height: 381, quantity: 45, weight: 1 },
              { length: 140, width: 640, height: 248, quantity: 33, weight: 1 },
              { length: 163, width: 840, height: 163, quantity: 7, weight: 1 },
            ],
            "20GP",
          ],
        ],
      },
    );
  }, 120_000);
});

describe("the SVG text", () => {
  const unit = () =>
    planner.plan({
      items: [
        {
          id: "<script>alert(\"x\")</script> & 'co'",
          length: 1200,
          width: 800,
          height: 1400,
          weight: 500,
          quantity: 4,
        },
        { length: 600, width: 500, height: 400, weight: 40, quantity: 6 },
      ],
      dimensionUnit: "mm",
      equipment: ["20GP"],
      workBudget: 0,
    }).units[0]!;

  test("is the same for the same unit, with every given string escaped", () => {
    const u = unit();
    const items = [{ id: "<script>alert(\"x\")</script> & 'co'" }, { id: null }];
    const a = unitSvg(u, items, { title: "Plan <A> & B" });
    expect(unitSvg(structuredClone(u), items, { title: "Plan <A> & B" })).toBe(a);
    expect(a).not.toContain("<script");
    expect(a).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;co&apos; × 4");
    expect(a).toContain("item 1 × 6");
    expect(a).toContain("<title>Plan &lt;A&gt; &amp; B</title>");
    // One group of three faces per piece, in the item's colours.
    expect(a.match(/<g data-item="\d+">/g)).toHaveLength(10);
    for (const [k, n] of [
      [0, 4],
      [1, 6],
    ] as const) {
      const f = faceColours(k);
      expect(a.split(`fill="${f.top}"`).length - 1).toBe(n + 1); // and the legend's swatch
      expect(a.split(`fill="${f.front}"`).length - 1).toBe(n);
      expect(a.split(`fill="${f.side}"`).length - 1).toBe(n);
    }
  });

  test("item colours differ, beyond the palette too", () => {
    const colours = Array.from({ length: 60 }, (_, k) => itemColour(k));
    expect(colours.every((c) => /^#[0-9a-f]{6}$/.test(c))).toBe(true);
    expect(new Set(colours).size).toBe(60);
  });
});

describe("in a real browser", () => {
  let browser: Browser;
  let server: ReturnType<typeof serveBun>;
  let key: string;

  beforeAll(async () => {
    key = (await loadingTenant(p, "Browser Ltd")).key;
    server = serveBun(p.apps.loading, "127.0.0.1", 0);
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
  });

  test("chromium opens the unit SVG; the screenshot shows each item type's colour", async () => {
    const id = '<b>"pal"</b> & co';
    const body = {
      ...BODY,
      ...FAST,
      equipment: ["20GP"],
      items: [
        { ...PALLET, id, quantity: 4 },
        { ...CRATE, quantity: 8 },
        {
          id: "drum",
          length: 58,
          width: 58,
          height: 88,
          weight: 180,
          quantity: 6,
          orientations: "this_side_up",
        },
      ],
    };
    const made = await apiOf(p, key)("POST", "/v1/load-plans", body);
    expect(made.status).toBe(201);
    const unit = (made.body.data.result as { units: Array<{ placements: Array<{ item: number }> }> })
      .units[0]!;
    const types = [...new Set(unit.placements.map((x) => x.item))].sort();
    expect(types).toEqual([0, 1, 2]);

    const context = await browser.newContext({
      viewport: { width: 960, height: 1000 },
      extraHTTPHeaders: { authorization: `Bearer ${key}` },
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      const url = `http://127.0.0.1:${server.port}/v1/load-plans/${made.body.data.id}/units/1.svg`;
      const res = await page.goto(url);
      expect(res?.status()).toBe(200);
      expect(res?.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
      const doc = await page.evaluate(() => ({
        root: document.documentElement.tagName,
        parseErrors: document.getElementsByTagName("parsererror").length,
        pieces: document.querySelectorAll("#load > g").length,
        legend: document.querySelector("#legend")?.textContent ?? "",
        html: document.getElementsByTagName("b").length,
      }));
      expect(doc).toMatchObject({ root: "svg", parseErrors: 0, pieces: unit.placements.length, html: 0 });
      expect(doc.legend).toContain(`${id} × 4`);
      expect(errors).toEqual([]);

      await page.screenshot({ path: await screenshotPath("load-plan-unit.png") });
      const img = decodePng(new Uint8Array(await page.locator("#load").screenshot()));
      const total = img.width * img.height;
      expect(countNear(img, [255, 255, 255], 0) + countNear(img, [0xec, 0xee, 0xf1], 2)).toBeLessThan(total);
      for (const k of types) {
        const faces = faceColours(k);
        const seen = [faces.top, faces.front, faces.side].map((c) => {
          const rgb = [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16)) as [
            number,
            number,
            number,
          ];
          return countNear(img, rgb, 3);
        });
        // Each type shows at least one face over a visible area (a piece is tens of pixels across).
        expect(Math.max(...seen), `item ${k} ${JSON.stringify(seen)}`).toBeGreaterThan(150);
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});
