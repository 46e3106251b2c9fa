/**
 * The route map moved and read on a phone, in Debian's chromium against the real server: a drag,
 * the wheel, a double click and the keys change the view (and so the drawing); at 390 px and
 * 1280 px the end labels lie inside the map and off every dot; multimodal chains are named by
 * their legs' ports.
 */
// Runs once, on SQLite: the subject is the route map in a browser; the database only holds the key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import {
  type DistancePages,
  distancePages,
  mapBoxes,
  type OpenPage,
  openPage,
  overlaps,
  routeOnPage,
  screenshotPath,
  within,
} from "./browser.ts";

let p: TestPlatform;
let pages: DistancePages;
let origin: string;
let key: string;
let browser: Browser;

beforeAll(async () => {
  pages = await distancePages("moves");
  ({ p, key, origin, browser } = pages);
}, 60_000);
afterAll(() => pages?.close());

type View = { cx: number; cy: number; kx: number; ky: number; width: number; height: number };
const viewOf = async (page: Page) =>
  JSON.parse((await page.getAttribute("svg.worldmap", "data-view"))!) as View;
const legD = (page: Page) => page.getAttribute("path.leg", "d");

/** Waits for the map to show a view other than `before` (moves redraw on the next frame). */
async function movedFrom(page: Page, before: View): Promise<View> {
  await page.waitForFunction(
    (was) => (document.querySelector("svg.worldmap") as SVGSVGElement).dataset.view !== was,
    JSON.stringify(before),
  );
  return viewOf(page);
}

/** Labels inside the map, off every dot and off each other; answers them. */
async function checkLabels(o: OpenPage) {
  const { map, labels, dots } = await mapBoxes(o.page);
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) {
    expect(within(label, map), `${label.text} inside the map`).toBe(true);
    for (const dot of dots) expect(overlaps(label, dot), `${label.text} off the ${dot.cls} dot`).toBe(false);
    for (const other of labels)
      if (other !== label) expect(overlaps(label, other), `${label.text} off ${other.text}`).toBe(false);
  }
  return labels;
}

describe("route map moves and labels", () => {
  test("a drag pans, the wheel zooms about the pointer, keys pan and zoom, 0 fits again", async () => {
    const o = await openPage(browser, `${origin}/map`);
    await routeOnPage(o, key, { from: "NLRTM", to: "SGSIN", mode: "" });
    const fitted = await viewOf(o.page);
    const fittedD = await legD(o.page);
    const box = (await o.page.locator("svg.worldmap").boundingBox())!;
    const [mx, my] = [box.x + box.width / 2, box.y + box.height / 2];

    await o.page.mouse.move(mx, my);
    await o.page.mouse.down();
    await o.page.mouse.move(mx + 120, my + 60, { steps: 4 });
    await o.page.mouse.up();
    const dragged = await movedFrom(o.page, fitted);
    // The map follows the pointer: 120 px right shows what lay 120 px left of the centre.
    expect(dragged.cx).toBeCloseTo(fitted.cx - 120 / fitted.kx, 3);
    expect(dragged.cy).toBeCloseTo(fitted.cy + 60 / fitted.ky, 3);
    expect(dragged.kx).toBe(fitted.kx);
    expect(await legD(o.page)).not.toBe(fittedD);

    // The point under the pointer stays under it while the wheel zooms in.
    // Mouse events carry whole pixels: the pointer's place on the map is a whole pixel less the map's.
    const [wx, wy] = [
      Math.round(box.x + box.width * 0.25) - box.x,
      Math.round(box.y + box.height * 0.75) - box.y,
    ];
    const lngAt = (v: View) => v.cx + (wx - v.width / 2) / v.kx;
    const latAt = (v: View) => v.cy - (wy - v.height / 2) / v.ky;
    await o.page.mouse.move(box.x + wx, box.y + wy);
    await o.page.mouse.wheel(0, -300);
    const zoomed = await movedFrom(o.page, dragged);
    expect(zoomed.kx).toBeGreaterThan(dragged.kx * 1.5);
    expect(lngAt(zoomed)).toBeCloseTo(lngAt(dragged), 3);
    expect(latAt(zoomed)).toBeCloseTo(latAt(dragged), 3);
    await o.page.screenshot({ path: await screenshotPath("route-map-zoomed.png") });

    await o.page.focus("svg.worldmap");
    await o.page.keyboard.press("-");
    const out = await movedFrom(o.page, zoomed);
    expect(out.kx).toBeLessThan(zoomed.kx);
    await o.page.keyboard.press("ArrowRight");
    const right = await movedFrom(o.page, out);
    expect(right.cx).toBeGreaterThan(out.cx);
    await o.page.keyboard.press("0");
    expect(await movedFrom(o.page, right)).toEqual(fitted);
    expect(await legD(o.page)).toBe(fittedD);
    expect(o.errors).toEqual([]);
    await o.close();
  }, 90_000);

  test("a double click zooms in twice about the point clicked", async () => {
    const o = await openPage(browser, `${origin}/map`);
    await routeOnPage(o, key, { from: "NLRTM", to: "SGSIN", mode: "" });
    const before = await viewOf(o.page);
    const box = (await o.page.locator("svg.worldmap").boundingBox())!;
    const [wx, wy] = [
      Math.round(box.x + box.width * 0.3) - box.x,
      Math.round(box.y + box.height * 0.6) - box.y,
    ];
    const lngAt = (v: View) => v.cx + (wx - v.width / 2) / v.kx;
    await o.page.mouse.dblclick(box.x + wx, box.y + wy);
    // The zoom eases in over a few frames: waits for its end (the last frame lands on twice the scale).
    await o.page.waitForFunction(
      (kx) =>
        Math.abs(
          JSON.parse((document.querySelector("svg.worldmap") as SVGSVGElement).dataset.view!).kx - kx * 2,
        ) < 5e-7,
      before.kx,
    );
    const after = await viewOf(o.page);
    expect(after.kx).toBeCloseTo(before.kx * 2, 6);
    expect(lngAt(after)).toBeCloseTo(lngAt(before), 3);
    expect(o.errors).toEqual([]);
    await o.close();
  }, 90_000);

  // The two widths: a phone and a laptop.
  for (const width of [390, 1280])
    test(`at ${width} px the end labels are whole inside the map, clear of the dots, and a zoom redraws`, async () => {
      const o = await openPage(browser, `${origin}/map`, { width, height: 820 });
      await routeOnPage(o, key, { from: "CNSHA", to: "USLAX", mode: "" });
      const labels = await checkLabels(o);
      expect(labels.map((l) => l.text)).toEqual(["Shanghai", "Los Angeles"]);
      await o.page.locator("#map").screenshot({ path: await screenshotPath(`route-map-${width}.png`) });
      // Zoomed in on Los Angeles, the route is drawn anew and its label still finds room inside.
      await o.page.locator("svg.worldmap").scrollIntoViewIfNeeded();
      const box = (await o.page.locator("svg.worldmap").boundingBox())!;
      const before = await viewOf(o.page);
      const beforeD = await legD(o.page);
      await o.page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
      await o.page.mouse.wheel(0, -600);
      expect((await movedFrom(o.page, before)).kx).toBeGreaterThan(before.kx);
      expect(await legD(o.page)).not.toBe(beforeD);
      await checkLabels(o);
      await o.page
        .locator("#map")
        .screenshot({ path: await screenshotPath(`route-map-${width}-zoomed.png`) });
      expect(o.errors).toEqual([]);
      expect(o.requests.every((u) => new URL(u).origin === origin)).toBe(true);
      await o.close();
    }, 90_000);

  test("multimodal chains are named by each leg's mode and ports", async () => {
    const o = await openPage(browser, `${origin}/map`);
    await routeOnPage(o, key, { from: "Duisburg", to: "Shanghai" }, "multimodal");
    const href = (await o.page.getAttribute("#api-link", "href"))!;
    const res = await p.call("distance", href, bearer(key));
    type End = { locode?: string | null; iata?: string | null; name: string };
    type Chain = { sections: Array<{ transport_mode: string; from: End; to: End }> };
    const data = ((await res.json()) as { data: { route: Chain; alternatives: Chain[] } }).data;
    const chains = [data.route, ...data.alternatives];
    const names = (await o.page.locator("tr.chain-row td:first-child").allTextContents()).map((t) =>
      t.replace(/ \(best\)$/, ""),
    );
    expect(names.length).toBe(chains.length);
    const code = (e: End) => e.locode ?? e.iata ?? e.name;
    const mode = (m: string) => m[0] + m.slice(1).toLowerCase();
    chains.forEach((c, i) => {
      const legs = c.sections.map((s) => `${mode(s.transport_mode)} ${code(s.from)} → ${code(s.to)}`);
      expect(names[i]).toBe(legs.join(", "));
    });
    expect(await o.page.textContent("#sections-title")).toBe(`Sections: ${names[0]}`);
    expect(o.errors).toEqual([]);
    await o.close();
  }, 90_000);
});
