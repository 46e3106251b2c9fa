/**
 * Debian's chromium driven by playwright-core: pages that record every request and console line,
 * the drawn map read back from the SVG, and screenshots decoded to check for drawn map pixels.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import type { FetchApp } from "../../api/app.ts";
import { serveBun } from "../../api/runtime/bun-serve.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { countNear, decodePng } from "./png.ts";

export const CHROMIUM = "/usr/bin/chromium";
/**
 * Where page screenshots go: a temporary folder, so running the suite never rewrites tracked files;
 * `PORTOLAN_SCREENSHOTS=docs/img bun test test/maps` refreshes README's pictures.
 */
const SCREENSHOTS = process.env.PORTOLAN_SCREENSHOTS ?? join(tmpdir(), "portolan-screenshots");

/** The path a screenshot named `name` is saved at (its folder made). */
export async function screenshotPath(name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  return join(SCREENSHOTS, name);
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: bash scripts/test.sh installs it (apt-get install -y chromium).`,
    );
  }
  // --no-sandbox: test machines run as root, where chromium refuses its sandbox.
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
}

/** A product's app on a loopback port and a browser to open its pages; close() ends both. */
export interface PageServer {
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function servePages(app: FetchApp): Promise<PageServer> {
  const server = serveBun(app, "127.0.0.1", 0);
  const browser = await launchChromium().catch((err) => {
    server.stop(true);
    throw err;
  });
  return {
    origin: `http://127.0.0.1:${server.port}`,
    browser,
    close: async () => {
      await browser.close();
      server.stop(true);
    },
  };
}

/** The distance pages of a test platform on the build's artifacts, and a paying organisation's key. */
export interface DistancePages extends PageServer {
  p: TestPlatform;
  key: string;
}

export async function distancePages(orgName: string): Promise<DistancePages> {
  const p = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build") });
  const org = await p.accounts.createOrg(orgName, { paid: true, rateLimit: 100_000 });
  const key = (await p.accounts.createKey(org.id, "distance")).key;
  const pages = await servePages(p.apps.distance);
  return {
    ...pages,
    p,
    key,
    close: async () => {
      await pages.close();
      await p.close();
    },
  };
}

export interface OpenPage {
  page: Page;
  requests: string[];
  console: string[];
  errors: string[];
  close(): Promise<void>;
}

export async function openPage(
  browser: Browser,
  url: string,
  viewport = { width: 1280, height: 860 },
): Promise<OpenPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const requests: string[] = [];
  const logged: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("console", (m) => logged.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  try {
    await page.waitForSelector("body[data-ready='1']", { state: "attached", timeout: 20_000 });
  } catch (err) {
    throw new Error(`${url} did not get ready: ${[...errors, ...logged].join("; ")}`, { cause: err });
  }
  return { page, requests, console: logged, errors, close: () => context.close() };
}

/** Waits for body[data-{flag}="{count}"] (set by the page when it has drawn), else says what it shows. */
export async function waitDrawn(o: OpenPage, flag: string, count: number, timeout = 60_000) {
  try {
    await o.page.waitForSelector(`body[data-${flag}='${count}']`, { state: "attached", timeout });
  } catch (err) {
    const shown = await o.page.textContent("#status");
    throw new Error(`not drawn: status "${shown}"; ${[...o.errors, ...o.console].join("; ")}`, {
      cause: err,
    });
  }
}

export interface DrawnPath {
  cls: string;
  /** Screen x of each point, in degrees of longitude (pixels / pixels per degree). */
  xDeg: number[];
  /** Screen points in pixels. */
  points: Array<[number, number]>;
}

/** The map's paths matching `selector` as drawn on screen (copies a turn away left out). */
export function drawnPaths(page: Page, selector: string): Promise<DrawnPath[]> {
  return page.evaluate((sel) => {
    const svg = document.querySelector("svg.worldmap") as SVGSVGElement;
    const perDeg = Number(svg.dataset.pxPerDegree);
    return [...svg.querySelectorAll(`${sel}:not([data-copy])`)].map((p) => {
      const nums = (p.getAttribute("d") ?? "").match(/-?\d+(\.\d+)?/g)!.map(Number);
      const points: Array<[number, number]> = [];
      for (let i = 0; i + 1 < nums.length; i += 2) points.push([nums[i]!, nums[i + 1]!]);
      return { cls: p.getAttribute("class") ?? "", xDeg: points.map(([x]) => x / perDeg), points };
    });
  }, selector);
}

/** Largest longitude step between consecutive points of any path, on screen (degrees). */
export const widestStep = (paths: DrawnPath[]) =>
  Math.max(0, ...paths.flatMap((p) => p.xDeg.slice(1).map((x, i) => Math.abs(x - p.xDeg[i]!))));

/** Screenshot of the map (saved), decoded: land and route colours counted. */
export async function mapPixels(page: Page, save: string, routeRgb: [number, number, number]) {
  await page.screenshot({ path: await screenshotPath(save) });
  const img = decodePng(new Uint8Array(await page.locator("#map").screenshot()));
  return {
    img,
    land: countNear(img, [0xf4, 0xf1, 0xe8], 4) / (img.width * img.height),
    sea: countNear(img, [0xdc, 0xe9, 0xf5], 4) / (img.width * img.height),
    route: countNear(img, routeRgb, 24),
  };
}

/** Fills the route map's form and routes; resolves when the page has drawn the answer. */
export async function routeOnPage(
  o: OpenPage,
  key: string,
  fields: Record<string, string>,
  api: "route" | "multimodal" = "route",
) {
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

type Box = { left: number; top: number; right: number; bottom: number };

/** The map's box, each label's (with its text) and each dot's, on screen. */
export function mapBoxes(page: Page) {
  return page.evaluate(() => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const svg = document.querySelector("svg.worldmap")!;
    return {
      map: box(svg),
      labels: [...svg.querySelectorAll("text.label")].map((t) => ({ text: t.textContent ?? "", ...box(t) })),
      dots: [...svg.querySelectorAll("circle")].map((c) => ({
        cls: c.getAttribute("class") ?? "",
        ...box(c),
      })),
    };
  });
}

/** Whether two boxes share any area. */
export const overlaps = (a: Box, b: Box) =>
  Math.min(a.right, b.right) > Math.max(a.left, b.left) &&
  Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

/** Whether `inner` lies inside `outer`. */
export const within = (inner: Box, outer: Box) =>
  inner.left >= outer.left &&
  inner.right <= outer.right &&
  inner.top >= outer.top &&
  inner.bottom <= outer.bottom;
