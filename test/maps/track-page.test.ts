/**
 * The shipment page read as a person reads it, in Debian's chromium against the real server and
 * the sandbox carrier (with its AIS feed): MEDU0316769, the demo's missed connection (Hong Kong ->
 * Singapore -> Jebel Ali, rolled at Singapore onto a later sailing), shows its route alert, times
 * in words in each place's zone, statuses as words, the leg it has departed on drawn solid, and at
 * 360 px port labels inside the map and clear of the vessel's dot.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { type CompatWorld, compatWorld } from "../compat/setup.ts";
import { bearer } from "../helpers/platform.ts";
import {
  mapBoxes,
  type OpenPage,
  openPage,
  overlaps,
  type PageServer,
  screenshotPath,
  servePages,
  waitDrawn,
  within,
} from "./browser.ts";

const REF = "MEDU0316769";
/** The demo's states hold from the epoch (00:00 UTC) for 36 h: noon of the first day is inside. */
const EPOCH = "2026-11-21T00:00:00Z";

let w: CompatWorld;
let feeds: { close(): Promise<void> };
let pages: PageServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  w = await compatWorld({
    start: "2026-11-21T12:00:00Z",
    config: { buildDir: join(import.meta.dir, "../../data/build") },
    sandboxEnv: { SANDBOX_EPOCH: EPOCH, SANDBOX_AIS_INTERVAL_MS: "60000" },
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

async function track(viewport?: { width: number; height: number }): Promise<OpenPage> {
  await w.at(w.clock.t);
  const o = await openPage(browser, `${origin}/track`, viewport);
  await o.page.fill("#key", w.key);
  await o.page.fill("[name=ref]", REF);
  await o.page.click("button[type=submit]");
  await waitDrawn(o, "tracked", 1);
  return o;
}

/** The drawn legs: classes and titles ("Singapore (SGSIN) → Jebel Ali (AEJEA) on …"). */
const drawnLegs = (page: Page) =>
  page.$$eval("path.leg:not([data-copy])", (paths) =>
    paths.map((p) => ({
      cls: p.getAttribute("class") ?? "",
      title: p.querySelector("title")?.textContent ?? "",
    })),
  );

type Event = {
  label: string;
  is_actual: boolean;
  location: string | null;
  timestamp: string;
  event_local_datetime: string | null;
  event_timezone: string | null;
};

describe("shipment page, read", () => {
  test("route alert, times in words, statuses as words, the departed leg solid", async () => {
    const o = await track();
    const record = (await (
      await w.p.call("ocean", `/v1/containers/lookup/${REF}`, bearer(w.key))
    ).json()) as {
      data: { route_alert: string | null; status: string; events: Event[] };
    };
    expect(record.data.route_alert).toBe("missed_connection");
    expect(await o.page.textContent(".route-alert")).toStartWith("Missed connection");

    const shown = ["#summary-rows", "#port-rows", "#milestones"].map((id) => o.page.textContent(id));
    for (const text of await Promise.all(shown)) {
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/); // no ISO dates
      expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\b/); // no enum names
    }
    expect(await o.page.textContent("#summary-rows")).toContain("In transit");
    // Each milestone at its port's wall-clock time ("Sat, 17 Oct 2026, 09:00 GMT+8"), UTC without a port.
    const whens = await o.page.locator("li.milestone .when").allTextContents();
    expect(whens.length).toBe(record.data.events.length);
    expect(record.data.events.some((e) => e.event_local_datetime)).toBe(true);
    record.data.events.forEach((e, i) => {
      const wall = e.event_local_datetime ?? e.timestamp;
      const [day, hhmm] = [Number(wall.slice(8, 10)), wall.slice(11, 16)];
      const month = new Date(`${wall.slice(0, 10)}T00:00:00Z`).toLocaleString("en-GB", {
        month: "short",
        timeZone: "UTC",
      });
      expect(whens[i]).toMatch(new RegExp(`^\\w{3}, ${day} ${month} ${wall.slice(0, 4)}, ${hhmm} \\S+ · `));
      if (!e.event_timezone) expect(whens[i]).toContain(" UTC · ");
    });

    // A leg whose port of departure has an actual departure is solid (sailed or under way).
    const departedFrom = record.data.events
      .filter((e) => e.is_actual && /depart/i.test(e.label) && e.location)
      .map((e) => e.location!);
    expect(departedFrom.length).toBeGreaterThan(0);
    const legs = await drawnLegs(o.page);
    for (const place of departedFrom) {
      const from = legs.filter((l) => l.title.includes(`(${place}) →`));
      expect(from.length, `a leg from ${place}`).toBeGreaterThan(0);
      expect(
        from.some((l) => /\bsailed\b/.test(l.cls)),
        `the leg from ${place} solid`,
      ).toBe(true);
    }
    await o.page.screenshot({ path: await screenshotPath("track-missed-connection.png") });
    expect(o.errors).toEqual([]);
    await o.close();
  }, 120_000);

  test("at 360 px the port labels lie inside the map, clear of the vessel's dot", async () => {
    const o = await track({ width: 360, height: 740 });
    await o.page.locator("svg.worldmap").scrollIntoViewIfNeeded();
    const { map, labels, dots } = await mapBoxes(o.page);
    expect(labels.length).toBeGreaterThan(1);
    const vessel = dots.filter((d) => d.cls === "vessel");
    expect(vessel.length).toBe(1);
    for (const label of labels) {
      expect(within(label, map), `${label.text} inside`).toBe(true);
      for (const dot of dots)
        expect(overlaps(label, dot), `${label.text} off the ${dot.cls} dot`).toBe(false);
    }
    await o.page.locator("#map").screenshot({ path: await screenshotPath("track-360.png") });
    expect(o.errors).toEqual([]);
    await o.close();
  }, 120_000);
});
