/**
 * The API reference page (/docs, alias /swagger) in Debian's chromium against a real server: it
 * draws every operation and webhook event of the host's document, and every request it makes
 * stays on the host; an opened operation shows its recorded example answer.
 */
// Runs once, on SQLite: the subject is the reference page in a browser; the database only holds the key.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { openPage, type PageServer, servePages } from "./browser.ts";

let p: TestPlatform;
let pages: PageServer;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  p = await makePlatform();
  pages = await servePages(p.apps.ocean);
  ({ origin, browser } = pages);
}, 60_000);
afterAll(async () => {
  await pages?.close();
  await p?.close();
});

test.each(["/docs", "/swagger"])(
  "%s lists every operation and loads nothing from elsewhere",
  async (path) => {
    const doc = (await (await fetch(`${origin}/docs/json`)).json()) as {
      paths: Record<string, object>;
      webhooks?: Record<string, object>;
    };
    // Operations and webhook events alike: the page draws each with its method and name.
    const expected = Object.entries({ ...doc.paths, ...doc.webhooks })
      .flatMap(([where, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${where}`))
      .sort();
    expect(Object.keys(doc.webhooks ?? {}).length).toBeGreaterThan(0);
    const page = await openPage(browser, `${origin}${path}`);
    try {
      await page.page.waitForSelector(".opblock", { timeout: 20_000 });
      const shown = await page.page.$$eval(".opblock-summary", (els) =>
        els.map((e) => {
          const method = e.querySelector(".opblock-summary-method")?.textContent ?? "";
          const where = e.querySelector(".opblock-summary-path")?.getAttribute("data-path") ?? "";
          return `${method} ${where}`;
        }),
      );
      expect(shown.sort()).toEqual(expected);
      expect(page.requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
      expect(page.errors).toEqual([]);
    } finally {
      await page.close();
    }
  },
  60_000,
);

test("an operation opened on /docs shows its recorded answer as the example value", async () => {
  const page = await openPage(browser, `${origin}/docs`);
  try {
    const account = page.page.locator("#operations-default-getV1Account");
    await account.locator(".opblock-summary").click();
    const example = account.locator(".responses-wrapper .microlight").first();
    await example.waitFor({ timeout: 20_000 });
    // The example's organisation, not a value generated from the schema ("string").
    expect(await example.textContent()).toContain('"org_name": "Example Forwarding"');
    expect(page.errors).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000);
