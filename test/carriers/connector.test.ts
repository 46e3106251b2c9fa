/** The DCSA connector against real local HTTP servers: conformance fixtures, pagination, failures. */
import { afterAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { referenceDirFrom } from "../../common/sources-dir.ts";
import { CarrierError, DcsaConnector } from "../../ingest/carriers/connector.ts";
import { failure, json } from "../helpers/carrier-answers.ts";

const FIXTURES = join(referenceDirFrom(), "dcsa/conformance-messages");
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.json`), "utf8");

type Handler = (req: Request, url: URL) => Response | Promise<Response>;
let handler: Handler = () => new Response("[]");
/** Copies: Bun recycles a request's headers once it is answered. */
const requests: Array<{ url: URL; headers: Headers }> = [];
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    requests.push({ url: new URL(req.url), headers: new Headers(req.headers) });
    return handler(req, new URL(req.url));
  },
});
afterAll(() => server.stop(true));

const base = `http://127.0.0.1:${server.port}/carrier`;
const connector = (extra: Partial<ConstructorParameters<typeof DcsaConnector>[0]> = {}) =>
  new DcsaConnector({ scac: "TEST", baseUrl: base, ...extra });

test("the valid conformance message is accepted as is", async () => {
  handler = () => json(fixture("tnt-220-response"));
  const events = await connector().fetchEvents({ kind: "container", value: "APZU4812090" });
  expect(events).toEqual(JSON.parse(fixture("tnt-220-response")));
});

test("the four wrong conformance messages are rejected as invalid_payload", async () => {
  for (const name of ["attribute-values", "date-times", "event-ids", "structure"]) {
    handler = () => json(fixture(`tnt-220-response-wrong-${name}`));
    const err = await failure(connector().fetchEvents({ kind: "container", value: "APZU4812090" }));
    expect(err.kind).toBe("invalid_payload");
    expect(err.details.issues?.length).toBeGreaterThan(0);
  }
});

test("the reference goes in the DCSA query parameter of its kind, with limit and credentials", async () => {
  handler = () => json([]);
  requests.length = 0;
  const c = connector({ apiKey: "k-1", bearerToken: "tok", headers: { "X-Extra": "1" }, pageLimit: 7 });
  await c.fetchEvents({ kind: "container", value: " msku1234565 " });
  await c.fetchEvents({ kind: "bill_of_lading", value: "MAEU204812345" });
  await c.fetchEvents({ kind: "booking", value: "MAEU204812346" });
  const urls = requests.map((r) => r.url);
  expect(urls.map((u) => u.pathname)).toEqual(Array(3).fill("/carrier/v2/events"));
  expect(urls[0]!.searchParams.get("equipmentReference")).toBe("MSKU1234565");
  expect(urls[1]!.searchParams.get("transportDocumentReference")).toBe("MAEU204812345");
  expect(urls[2]!.searchParams.get("carrierBookingReference")).toBe("MAEU204812346");
  expect(urls[0]!.searchParams.get("limit")).toBe("7");
  expect(requests[0]!.headers.get("API-Key")).toBe("k-1");
  expect(requests[0]!.headers.get("Authorization")).toBe("Bearer tok");
  expect(requests[0]!.headers.get("X-Extra")).toBe("1");
});

/** Seven valid events split over pages, linked by whichever header style `link` produces. */
function paged(link: (nextOffset: number, url: URL) => Record<string, string>) {
  const all = JSON.parse(fixture("tnt-220-response")) as unknown[];
  return (_req: Request, url: URL) => {
    const offset = Number(url.searchParams.get("cursor") ?? url.searchParams.get("offset") ?? 0);
    const limit = Number(url.searchParams.get("limit"));
    const next = offset + limit;
    return json(all.slice(offset, next), { headers: next < all.length ? link(next, url) : {} });
  };
}

test("pagination: Next-Page as a full URL, a path, a bare cursor, or Next-Page-Cursor", async () => {
  const styles: Array<(n: number, url: URL) => Record<string, string>> = [
    (n, url) => ({ "Next-Page": `${url.origin}${url.pathname}?offset=${n}&limit=3&equipmentReference=X` }),
    (n, url) => ({ "Next-Page": `${url.pathname}?offset=${n}&limit=3`, "Previous-Page": "/whatever" }),
    (n) => ({ "Next-Page": String(n), "Prev-Page": "0" }),
    (n) => ({ "Next-Page-Cursor": String(n) }),
  ];
  for (const style of styles) {
    handler = paged(style);
    const events = await connector({ pageLimit: 3 }).fetchEvents({ kind: "container", value: "APZU4812090" });
    expect(events.map((e) => e.eventID)).toEqual(
      (JSON.parse(fixture("tnt-220-response")) as Array<{ eventID: string }>).map((e) => e.eventID),
    );
  }
});

test("an eventID repeated on a later page is a schema violation", async () => {
  const all = JSON.parse(fixture("tnt-220-response")) as unknown[];
  handler = (_req, url) =>
    url.searchParams.get("cursor")
      ? json(all.slice(0, 1))
      : json(all.slice(0, 2), { headers: { "Next-Page-Cursor": "c" } });
  expect((await failure(connector().fetchEvents({ kind: "container", value: "X" }))).kind).toBe(
    "invalid_payload",
  );
});

test("a never-ending pagination stops at maxPages", async () => {
  let n = 0;
  handler = () => json([], { headers: { "Next-Page-Cursor": String(++n) } });
  const err = await failure(connector({ maxPages: 4 }).fetchEvents({ kind: "container", value: "X" }));
  expect(err.kind).toBe("invalid_payload");
  expect(n).toBe(4);
});

test("429 is rate_limited with Retry-After in seconds or as a date", async () => {
  handler = () => json({ errors: [] }, { status: 429, headers: { "Retry-After": "17" } });
  let err = await failure(connector().fetchEvents({ kind: "container", value: "X" }));
  expect(err.kind).toBe("rate_limited");
  expect(err.details.retryAfterSeconds).toBe(17);
  handler = () =>
    json({}, { status: 429, headers: { "Retry-After": new Date(Date.now() + 120_000).toUTCString() } });
  err = await failure(connector().fetchEvents({ kind: "container", value: "X" }));
  expect(err.details.retryAfterSeconds).toBeGreaterThan(100);
  expect(err.details.retryAfterSeconds).toBeLessThanOrEqual(120);
});

test("5xx is unavailable, 4xx is rejected with its status", async () => {
  handler = () => new Response("boom", { status: 503 });
  let err = await failure(connector().fetchEvents({ kind: "container", value: "X" }));
  expect([err.kind, err.status]).toEqual(["unavailable", 503]);
  handler = () => json({ statusCode: 404 }, { status: 404 });
  err = await failure(connector().fetchEvents({ kind: "container", value: "X" }));
  expect([err.kind, err.status]).toEqual(["rejected", 404]);
  handler = () => json({}, { status: 401 });
  err = await failure(connector().fetchEvents({ kind: "container", value: "X" }));
  expect([err.kind, err.status]).toEqual(["rejected", 401]);
});

test("a body that is not JSON is invalid_payload", async () => {
  handler = () => new Response("<html>maintenance</html>", { status: 200 });
  expect((await failure(connector().fetchEvents({ kind: "container", value: "X" }))).kind).toBe(
    "invalid_payload",
  );
});

test("no answer within the timeout is unavailable (timeout)", async () => {
  handler = () => new Promise((r) => setTimeout(() => r(json([])), 2_000));
  const err = await failure(connector({ timeoutMs: 150 }).fetchEvents({ kind: "container", value: "X" }));
  expect(err.kind).toBe("unavailable");
  expect(err.details.timeout).toBe(true);
});

test("a refused connection is unavailable", async () => {
  const dead = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const url = `http://127.0.0.1:${dead.port}`;
  dead.stop(true);
  const err = await failure(
    new DcsaConnector({ scac: "DEAD", baseUrl: url }).fetchEvents({ kind: "container", value: "X" }),
  );
  expect(err.kind).toBe("unavailable");
  expect(err.details.timeout).toBe(false);
});

test("the caller's abort propagates as an abort, not a carrier error", async () => {
  handler = () => new Promise((r) => setTimeout(() => r(json([])), 2_000));
  const ctl = new AbortController();
  setTimeout(() => ctl.abort(new Error("shutting down")), 50);
  const err = await connector()
    .fetchEvents({ kind: "container", value: "X" }, { signal: ctl.signal })
    .catch((e: unknown) => e);
  expect(err).not.toBeInstanceOf(CarrierError);
  expect((err as Error).message).toBe("shutting down");
});
