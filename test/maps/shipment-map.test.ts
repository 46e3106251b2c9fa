/**
 * The shipment page on the ocean host, in Debian's chromium against the real server: a sandbox
 * reference tracked through the sandbox carrier process (with its AIS feed), drawn as the lookup
 * record and the compat route_data say (legs sailed and to sail, ports, the pin, port rows,
 * milestones), non-blank map pixels, the key kept to the tab and the page's own origin.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { PAGE_CSP } from "../../api/shared/pages/serve.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld } from "../../ingest/sandbox/world.ts";
import { type CompatWorld, compatGet, compatWorld, type Json } from "../compat/setup.ts";
import { bearer } from "../helpers/platform.ts";
import {
  drawnPaths,
  mapPixels,
  openPage,
  type PageServer,
  servePages,
  waitDrawn,
  widestStep,
} from "./browser.ts";

/** Sandbox boxes; the first whose voyage has a transshipment (two legs or more) is shown. */
const CANDIDATES = ["MSCU2375717", "CMAU1663002", "HLCU1662993", "MSKU8767972"];

/**
 * The reference and the instant to look at it: halfway through its last leg, so legs sailed, the
 * leg under way (split at the pin) and the port still to come are all on the map.
 */
async function pickVoyage() {
  const world = await loadWorld();
  const voyages = CANDIDATES.map((ref) => ({ ref, voyage: simulateVoyage(ref, { world })! }));
  const { ref, voyage } = voyages.find((v) => v.voyage.legs.length >= 2) ?? voyages[0]!;
  const last = voyage.legs.at(-1)!;
  const at = (Date.parse(last.departure) + Date.parse(last.arrival)) / 2;
  return { ref, start: new Date(at).toISOString() };
}

let REF: string;

let w: CompatWorld;
let feeds: { close(): Promise<void> };
let pages: PageServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  const picked = await pickVoyage();
  REF = picked.ref;
  w = await compatWorld({
    start: picked.start,
    config: { buildDir: join(import.meta.dir, "../../data/build") },
    sandboxEnv: { SANDBOX_AIS_INTERVAL_MS: "60000" },
  });
  const { startAisFeeds } = await import("../../ingest/ais/feeds.ts");
  feeds = startAisFeeds([w.sandbox.aisUrl], w.p.tracking.positions, w.clock.now);
  pages = await servePages(w.p.apps.ocean);
  ({ origin, browser } = pages);
}, 60_000);
afterAll(async () => {
  await pages?.close();
  await feeds?.close();
  await w?.close();
});

type Place = { name: string; locode: string | null; lat: number | null; lng: number | null };
type Leg = { path: number[][]; from: Place; to: Place };

describe("shipment page", () => {
  test("served open with the self-only CSP and nosniff; the tracking API still needs a key", async () => {
    for (const path of ["/track", "/track/app.js", "/track/worldmap.js", "/track/land.json"]) {
      const res = await fetch(`${origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-security-policy"), path).toBe(PAGE_CSP);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      await res.arrayBuffer();
    }
    expect((await fetch(`${origin}/v1/containers/lookup/${REF}`)).status).toBe(401);
  });

  test("a tracked reference: legs, ports, pin, port rows and milestones as the API answers", async () => {
    // The sandbox broadcasts its hulls when its clock is set: positions arrive over its AIS feed.
    await w.at(w.clock.t);
    const o = await openPage(browser, `${origin}/track`);
    await o.page.fill("#key", w.key);
    await o.page.fill("[name=ref]", REF);
    await o.page.click("button[type=submit]");
    await waitDrawn(o, "tracked", 1);

    // The API's own answers, asked after the page (the reference is tracked by now).
    const record = (await (
      await w.p.call("ocean", `/v1/containers/lookup/${REF}`, bearer(w.key))
    ).json()) as {
      data: { events: unknown[]; vessel_position: unknown };
    };
    const compat = await compatGet(w, { number: REF, route: "true", ais: "true" });
    const routeData = (compat.body.data as Json).route_data as { route: Leg[]; pin: number[] | null };
    expect(routeData.route.length).toBeGreaterThan(0);

    const legs = await drawnPaths(o.page, "path.leg");
    const legIds = new Set(legs.flatMap((l) => l.cls.split(" ").filter((c) => /^leg-\d+$/.test(c))));
    expect(legIds.size).toBe(routeData.route.length);
    expect(legs.every((l) => /\b(sailed|to-sail)\b/.test(l.cls))).toBe(true);
    expect(widestStep(legs)).toBeLessThan(30);
    const ports = new Set(routeData.route.flatMap((l) => [l.from, l.to]).map((p) => `${p.locode}|${p.name}`));
    expect(await o.page.locator("circle.port").count()).toBe(ports.size);
    expect(await o.page.locator("tr.port-row").count()).toBe(ports.size);
    expect(await o.page.locator("circle.vessel").count()).toBe(routeData.pin ? 1 : 0);
    expect(await o.page.locator("li.milestone").count()).toBe(record.data.events.length);
    expect(record.data.events.length).toBeGreaterThan(0);
    const summary = await o.page.textContent("#summary-rows");
    expect(summary).toContain("Position freshness");

    const px = await mapPixels(o.page, "shipment-map.png", [0x15, 0x65, 0xc0]);
    expect(px.land).toBeGreaterThan(0.02);
    expect(px.sea).toBeGreaterThan(0.2);
    expect(px.route).toBeGreaterThan(100);

    // The compat surface takes its key in the query: sent there, to this origin, and nowhere else.
    expect(o.requests.every((u) => new URL(u).origin === origin)).toBe(true);
    const withKey = o.requests.filter((u) => u.includes(w.key)).map((u) => new URL(u).pathname);
    expect(new Set(withKey)).toEqual(new Set(["/compat/vendor/tracking"]));
    expect(o.page.url()).not.toContain(w.key);
    expect(o.console.some((line) => line.includes(w.key))).toBe(false);
    expect(await o.page.evaluate(() => Object.keys(localStorage).length)).toBe(0);
    expect(o.errors).toEqual([]);
    await o.close();
  }, 120_000);
});
