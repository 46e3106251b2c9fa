/**
 * The route map page on the distance host, in Debian's chromium against the real server (embedded
 * SQLite, the build's artifacts): what is drawn (legs by mode, alternatives, ECA marks, transfers,
 * table rows) against the API's own answer for the same call, non-blank map pixels, the
 * antimeridian, the key kept to the tab and the page's own origin, and the security headers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { PAGE_CSP } from "../../api/shared/pages/serve.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import {
  drawnPaths,
  launchChromium,
  mapPixels,
  type OpenPage,
  openPage,
  waitDrawn,
  widestStep,
} from "./browser.ts";

let p: TestPlatform;
let server: ReturnType<typeof serveBun>;
let origin: string;
let key: string;
let browser: Browser;

beforeAll(async () => {
  p = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build") });
  const org = await p.accounts.createOrg("maps", { paid: true, rateLimit: 100_000 });
  key = (await p.accounts.createKey(org.id, "distance")).key;
  server = serveBun(p.apps.distance, "127.0.0.1", 0);
  origin = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await p?.close();
});

type Place = { name: string; lat: number; lng: number };
type Section = { transport_mode: string; path?: number[][]; eca?: { nm: number } };
type Chain = { sections: Section[]; transfers: Array<{ at: Place }> };
type SeaRoute = { path: number[][]; eca: { nm: number } };

/** The API's answer to the call the page made (its link), asked in-process with the same key. */
async function apiAnswer(page: Page) {
  const href = (await page.getAttribute("#api-link", "href"))!;
  const res = await p.call("distance", href, bearer(key));
  expect(res.status).toBe(200);
  return { href, data: ((await res.json()) as { data: Record<string, unknown> }).data };
}

/** Fills the form and routes; resolves when the page has drawn the answer. */
async function route(o: OpenPage, fields: Record<string, string>, api: "route" | "multimodal" = "route") {
  const { page } = o;
  const before = Number((await page.getAttribute("body", "data-routed")) ?? 0);
  await page.fill("#key", key);
  await page.selectOption("select[name=api]", api);
  for (const [name, value] of Object.entries(fields)) {
    const tag = await page.$eval(`[name=${name}]`, (e) => e.tagName);
    if (tag === "SELECT") await page.selectOption(`[name=${name}]`, value);
    else await page.fill(`[name=${name}]`, value);
  }
  await page.click("button[type=submit]");
  await waitDrawn(o, "routed", before + 1);
}

describe("route map page", () => {
  test("served open with a self-only CSP, nosniff, ETag and gzip; the API still needs a key", async () => {
    for (const path of ["/map", "/map/app.js", "/map/worldmap.js", "/map/pages.css", "/map/land.json"]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-security-policy"), path).toBe(PAGE_CSP);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      await res.arrayBuffer();
    }
    // Every directive allows this origin at most: no host, scheme or 'unsafe-*' source anywhere.
    for (const directive of PAGE_CSP.split(";")) {
      expect(directive.trim().split(/\s+/).slice(1), directive).toSatisfy((sources: string[]) =>
        sources.every((s) => s === "'self'" || s === "'none'"),
      );
    }
    const html = await (await fetch(`${origin}/map`)).text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/); // no inline script
    expect(html).not.toMatch(/\sstyle=|<style/); // no inline style
    const land = await fetch(`${origin}/map/land.json`, { headers: { "accept-encoding": "gzip" } });
    expect(land.headers.get("content-encoding")).toBe("gzip");
    const again = await fetch(`${origin}/map/land.json`, {
      headers: { "if-none-match": land.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
    expect((await fetch(`${origin}/map/nope.js`)).status).toBe(404);
    expect((await fetch(`${origin}/v1/distance/route?from=NLRTM&to=SGSIN`)).status).toBe(401);
  });

  test("NLRTM to SGSIN by sea: the route, its alternatives and ECA stretches drawn as the API answers", async () => {
    const o = await openPage(browser, `${origin}/map`);
    await route(o, { from: "NLRTM", to: "SGSIN", mode: "" });
    const { href, data } = await apiAnswer(o.page);
    expect(href).toStartWith("/v1/distance/route?");
    const main = data.route as SeaRoute;
    const alternatives = data.alternatives as SeaRoute[];
    expect(alternatives.length).toBeGreaterThan(0);

    const legs = await drawnPaths(o.page, "path.leg");
    expect(legs.map((l) => l.cls)).toEqual(["leg SEA"]);
    // Every point of the API's path is drawn, nothing more.
    expect(legs[0]!.points.length).toBe(main.path.length);
    expect((await drawnPaths(o.page, "path.alt")).length).toBe(alternatives.length);
    expect(main.eca.nm).toBeGreaterThan(0);
    expect((await drawnPaths(o.page, "path.eca")).length).toBeGreaterThan(0);
    expect(await o.page.locator("circle.end").count()).toBe(2);
    expect(await o.page.locator("tr.chain-row").count()).toBe(1 + alternatives.length);
    expect(await o.page.locator("tr.section-row").count()).toBe(1);
    expect(await o.page.textContent("#section-rows")).toContain("Rotterdam");
    expect(await o.page.textContent("#curl")).toContain(`${origin}${href}`);

    const px = await mapPixels(o.page, "route-map.png", [0x15, 0x65, 0xc0]);
    expect(px.land).toBeGreaterThan(0.05); // Europe, Africa, Asia
    expect(px.sea).toBeGreaterThan(0.2);
    expect(px.route).toBeGreaterThan(300);

    // Picking an alternative draws it as the route and the former route as an alternative.
    await o.page.click("tr.chain-row[data-index='1']");
    expect((await drawnPaths(o.page, "path.leg"))[0]!.points.length).toBe(alternatives[0]!.path.length);

    // The key: in this tab's session storage only; never in a URL, the console or another origin.
    expect(await o.page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect(await o.page.evaluate(() => sessionStorage.getItem("portolan.distance.key"))).toBe(key);
    expect(o.page.url()).not.toContain(key);
    expect(o.requests.every((u) => new URL(u).origin === origin)).toBe(true);
    expect(o.requests.some((u) => u.includes(key))).toBe(false);
    expect(o.console.some((line) => line.includes(key))).toBe(false);
    expect(o.errors).toEqual([]);
    await o.close();
  }, 90_000);

  test("multimodal Duisburg to Shanghai: one path per section coloured by mode, transfers marked", async () => {
    const o = await openPage(browser, `${origin}/map`);
    await route(o, { from: "Duisburg", to: "Shanghai" }, "multimodal");
    const { href, data } = await apiAnswer(o.page);
    expect(href).toStartWith("/v1/distance/multimodal?");
    const chain = data.route as Chain;
    const others = data.alternatives as Chain[];
    const legs = await drawnPaths(o.page, "path.leg");
    expect(legs.map((l) => l.cls)).toEqual(chain.sections.map((s) => `leg ${s.transport_mode}`));
    expect((await drawnPaths(o.page, "path.alt")).length).toBe(
      others.reduce((n, c) => n + c.sections.length, 0),
    );
    expect(await o.page.locator("circle.transfer").count()).toBe(chain.transfers.length);
    expect(await o.page.locator("tr.section-row").count()).toBe(chain.sections.length);
    expect(await o.page.locator("tr.chain-row").count()).toBe(1 + others.length);
    expect(o.requests.every((u) => new URL(u).origin === origin)).toBe(true);
    expect(o.errors).toEqual([]);
    await o.close();
  }, 90_000);

  test("CNSHA to USLAX crosses the Pacific on screen: no segment wider than the map's half", async () => {
    const o = await openPage(browser, `${origin}/map`);
    await route(o, { from: "CNSHA", to: "USLAX", mode: "" });
    const { data } = await apiAnswer(o.page);
    const path = (data.route as SeaRoute).path;
    // The API's path does cross the antimeridian (longitude jumps sign between +180 and -180).
    expect(path.some((q, i) => i > 0 && Math.abs(q[1]! - path[i - 1]![1]!) > 180)).toBe(true);
    const drawn = await drawnPaths(o.page, "path.leg, path.alt");
    expect(drawn.length).toBeGreaterThan(0);
    expect(widestStep(drawn)).toBeLessThan(5);
    // Drawn as one stretch of about the Pacific's width (~120 degrees), not wrapped round the world.
    const leg = drawn[0]!;
    const extent = Math.max(...leg.xDeg) - Math.min(...leg.xDeg);
    expect(extent).toBeGreaterThan(100);
    expect(extent).toBeLessThan(180);
    const width = await o.page.$eval("svg.worldmap", (s) => s.clientWidth);
    expect(leg.points.every(([x]) => x >= 0 && x <= width)).toBe(true);
    await o.close();
  }, 90_000);

  test("a phone-width screen: no sideways scrolling, map and tables stacked", async () => {
    const o = await openPage(browser, `${origin}/map`, { width: 390, height: 844 });
    await route(o, { from: "NLRTM", to: "DEHAM", mode: "" });
    const { scroll, mapWidth } = await o.page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      mapWidth: document.getElementById("map")!.clientWidth,
    }));
    expect(scroll).toBeLessThanOrEqual(390);
    expect(mapWidth).toBeGreaterThan(300);
    expect((await drawnPaths(o.page, "path.leg")).length).toBe(1);
    await o.close();
  }, 90_000);
});
