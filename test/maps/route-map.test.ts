/**
 * The route map page on the distance host, in Debian's chromium against the real server (embedded
 * SQLite, the build's artifacts): what is drawn (legs by mode, alternatives, ECA marks, seasonal
 * river stretches, transfers, table rows) against the API's own answer for the same call,
 * non-blank map pixels, the antimeridian, the key kept to the tab and the page's own origin, and
 * the security headers.
 */
// Runs once, on SQLite: the subject is the route map in a browser; the database only holds the key.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { PAGE_CSP } from "../../api/shared/pages/serve.ts";
import { haversineM } from "../../common/geo.ts";
import { decodeRiverRules, RIVER_RULES_OUTPUT } from "../../formats/river-rules.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import {
  type DistancePages,
  distancePages,
  drawnPaths,
  mapPixels,
  type OpenPage,
  openPage,
  routeOnPage,
  widestStep,
} from "./browser.ts";

const BUILD = join(import.meta.dir, "../../data/build");
let p: TestPlatform;
let pages: DistancePages;
let origin: string;
let key: string;
let browser: Browser;

beforeAll(async () => {
  pages = await distancePages("maps");
  ({ p, key, origin, browser } = pages);
}, 60_000);
afterAll(() => pages?.close());

type Place = { name: string; lat: number; lng: number };
type Section = { transport_mode: string; path?: Array<[number, number]>; eca?: { nm: number } };
type Note = { id: string; kind: string; effect: string; km: number };
type Chain = { sections: Section[]; transfers: Array<{ at: Place }> };
type SeaRoute = { path: number[][]; eca: { nm: number } };

/** The API's answer to the call the page made (its link), asked in-process with the same key. */
async function apiAnswer(page: Page) {
  const href = (await page.getAttribute("#api-link", "href"))!;
  const res = await p.call("distance", href, bearer(key));
  expect(res.status).toBe(200);
  return { href, data: ((await res.json()) as { data: Record<string, unknown> }).data };
}

/** The map's paths matching `selector` in degrees: runs of [lat, lng], read back through its view. */
function drawnDegrees(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const svg = document.querySelector("svg.worldmap") as SVGSVGElement;
    const v = JSON.parse(svg.dataset.view!) as Record<string, number>;
    return [...svg.querySelectorAll(`${sel}:not([data-copy])`)].map((p) => ({
      title: p.querySelector("title")?.textContent ?? "",
      runs: (p.getAttribute("d") ?? "")
        .split("M")
        .filter(Boolean)
        .map((run) => {
          const n = run.match(/-?\d+(\.\d+)?/g)!.map(Number);
          const pts: Array<[number, number]> = [];
          for (let i = 0; i + 1 < n.length; i += 2)
            pts.push([v.cy! - (n[i + 1]! - v.height! / 2) / v.ky!, v.cx! + (n[i]! - v.width! / 2) / v.kx!]);
          return pts;
        }),
    }));
  }, selector);
}

/** Metres from a point to the nearest segment of `runs` (flat locally: the runs are river bends). */
function metresTo([lat, lng]: [number, number], runs: Array<Array<[number, number]>>): number {
  const mx = 111_320 * Math.cos((lat * Math.PI) / 180);
  const my = 110_574;
  let best = Number.POSITIVE_INFINITY;
  for (const run of runs) {
    for (let i = 0; i + 1 < run.length; i++) {
      const [ax, ay] = [(run[i]![1] - lng) * mx, (run[i]![0] - lat) * my];
      const [bx, by] = [(run[i + 1]![1] - lng) * mx, (run[i + 1]![0] - lat) * my];
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * (bx - ax) + ay * (by - ay)) / len2));
      best = Math.min(best, Math.hypot(ax + t * (bx - ax), ay + t * (by - ay)));
    }
  }
  return best;
}

/**
 * km of `path` along the drawn `runs`: its segments whose ends and middle lie within `maxM` of them
 * (the middle: a side channel between two points of the main river is not on it).
 */
function kmAlong(path: Array<[number, number]>, runs: Array<Array<[number, number]>>, maxM = 1000) {
  const near = path.map((q) => metresTo(q, runs) <= maxM);
  let m = 0;
  for (let i = 0; i + 1 < path.length; i++) {
    const [a, b] = [path[i]!, path[i + 1]!];
    const mid: [number, number] = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    if (near[i] && near[i + 1] && metresTo(mid, runs) <= maxM) m += haversineM(a[0], a[1], b[0], b[1]);
  }
  return m / 1000;
}

/** Fills the form and routes with the test's key. */
const route = (o: OpenPage, fields: Record<string, string>, api: "route" | "multimodal" = "route") =>
  routeOnPage(o, key, fields, api);

describe("route map page", () => {
  test("served open with a self-only CSP, nosniff, ETag and gzip; the API still needs a key", async () => {
    const files = ["/map/app.js", "/map/worldmap.js", "/map/d3-zoom.js", "/map/pages.css", "/map/land.json"];
    for (const path of ["/map", ...files]) {
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
    // d3-zoom comes from this host, a script that revalidates like the page's own files.
    const d3 = await fetch(`${origin}/map/d3-zoom.js`);
    expect(d3.headers.get("content-type")).toStartWith("text/javascript");
    expect(await d3.text()).toContain("d3-zoom/ v3.0.0");
    const d3Again = await fetch(`${origin}/map/d3-zoom.js`, {
      headers: { "if-none-match": d3.headers.get("etag")! },
    });
    expect(d3Again.status).toBe(304);
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

  // A date inside the rule's yearly window (from the build's rules); the ends sit either side of it.
  const RULES = decodeRiverRules(readFileSync(join(BUILD, RIVER_RULES_OUTPUT))).rules;
  test.each([
    // rgb: the style's colour on screen (the ice band is half transparent over land).
    { rule: "EU04", kind: "closure", from: "Frankfurt", to: "Vienna", rgb: [0xb7, 0x1c, 0x1c] },
    { rule: "EU07", kind: "ice_risk", from: "Constanta", to: "Budapest", rgb: [0xa2, 0xda, 0xf0] },
  ])(
    "RIVER $from to $to in $rule's window: one $kind path per note, along the water it names",
    async (c) => {
      const rule = RULES.find((r) => r.id === c.rule)!;
      expect(rule.kind).toBe(c.kind as typeof rule.kind);
      const date = `2026-${rule.window!.from}`;
      const o = await openPage(browser, `${origin}/map`);
      await route(o, { from: c.from, to: c.to, mode: "RIVER", date });
      const { href, data } = await apiAnswer(o.page);
      expect(href).toContain(`date=${date}`);
      const notes = (data.seasonal_notes as Note[]).filter((n) => n.kind === c.kind);
      expect(notes.map((n) => n.id)).toContain(c.rule);
      const drawn = await drawnDegrees(o.page, `path.seasonal.${c.kind}`);
      expect(drawn.map((d) => d.title.split(" ")[0])).toEqual(notes.map((n) => n.id));
      // The barge trip the note measured sails the noted stretch for the note's km: a slow-down's
      // is the answer's own barge leg, a closure's the same trip with no rule applied. That much of
      // its path lies on what the page drew for the rule. The note counts channel km (edge lengths
      // calibrated to published river km, docs/river-network.md), the drawn line is the generalised
      // geometry: a little shorter.
      const measured =
        c.kind === "closure"
          ? (
              (await (await p.call("distance", `${href}&seasonal=false`, bearer(key))).json()) as {
                data: { route: Chain };
              }
            ).data.route
          : (data.route as Chain);
      const barge = measured.sections.find((s) => s.transport_mode === "RIVER")!;
      for (const [i, n] of notes.entries()) {
        const along = kmAlong(barge.path!, drawn[i]!.runs);
        expect(along, n.id).toBeGreaterThan(n.km * 0.85);
        expect(along, n.id).toBeLessThan(n.km * 1.02 + 1);
      }
      const px = await mapPixels(o.page, `seasonal-${c.rule}.png`, c.rgb as [number, number, number]);
      expect(px.route).toBeGreaterThan(300);
      // The table keeps listing every note; the legend names the style.
      const listed = await o.page.textContent("#notes");
      for (const n of data.seasonal_notes as Note[]) expect(listed).toContain(n.id);
      expect(await o.page.locator(`.legend .swatch.${c.kind}`).count()).toBe(1);
      expect(o.requests.every((u) => new URL(u).origin === origin)).toBe(true);
      expect(o.errors).toEqual([]);
      await o.close();
    },
    90_000,
  );

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
