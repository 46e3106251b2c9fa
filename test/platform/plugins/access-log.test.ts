/**
 * The access log over every product app: one line per request with its request id, route template
 * and caller, whatever the answer; and nothing in the log of the keys, webhook secrets and secret
 * hashes the requests carried or created, nor a query's personal data.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../../api/config.ts";
import { loggedQuery } from "../../../api/shared/plugins/access-log.ts";
import { PRODUCT_IDS, type ProductId } from "../../../api/shared/products.ts";
import { secretHash } from "../../../api/webhooks/secrets.ts";
import { type CapturedLogs, captureLogs } from "../../helpers/logs.ts";
import { bearer, makePlatform, type TestPlatform } from "../../helpers/platform.ts";

let p: TestPlatform;
let logs: CapturedLogs;
let tenant: Awaited<ReturnType<TestPlatform["tenant"]>>;
/** Every key and secret the requests below carried or created, and the hashes stored for them. */
const secrets: string[] = [];

beforeAll(async () => {
  const webhooks = { ...loadConfig({}).webhooks, resolve: { "hooks.example.com": ["93.184.216.34"] } };
  p = await makePlatform({ webhooks });
  tenant = await p.tenant({ paid: true });
  secrets.push(...Object.values(tenant.keys));
  logs = captureLogs("info");
});
afterAll(async () => {
  logs?.restore();
  await p?.close();
});

/** The lines logged so far once Elysia's after-response hooks have run. */
async function linesAfter(count: number) {
  for (let turns = 0; turns < 100 && logs.lines.filter((l) => l.msg === "request").length < count; turns++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return logs.lines.filter((l) => l.msg === "request");
}

describe("access lines", () => {
  const calls: Array<[ProductId, string, RequestInit | undefined, string, number]> = [];
  test("one per request, every answer echoing its id in the header and error bodies", async () => {
    const before = (await linesAfter(0)).length;
    const requests: Array<[ProductId, string, RequestInit | undefined, string, number]> = [
      ["ocean", "/healthz", undefined, "/healthz", 200],
      ["rates", "/v1/rates/sheets?limit=1", bearer(tenant.keys.rates), "/v1/rates/sheets", 200],
      // Refused before routing: no route template yet.
      ["ocean", "/v1/containers/MSKU1234565", undefined, "(unmatched)", 401],
      ["air", "/v1/no-such-route?api_key=secret-in-query", bearer(tenant.keys.air), "(unmatched)", 404],
    ];
    for (const product of PRODUCT_IDS) {
      const init = {
        method: "POST",
        ...bearer(tenant.keys[product], { "content-type": "application/json" }),
        body: JSON.stringify({ url: "https://hooks.example.com/in", event_types: [] }),
      };
      if (product !== "distance") requests.push([product, "/v1/webhooks", init, "/v1/webhooks", 201]);
    }
    for (const [product, path, init, route, status] of requests) {
      const res = await p.call(product, path, init);
      const body = (await res.json()) as {
        request_id?: string;
        error?: { request_id?: string };
        data?: { secret?: string };
      };
      expect(res.status, `${product} ${path}`).toBe(status);
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      if (status >= 400) expect(body.request_id ?? body.error?.request_id).toBe(id ?? "");
      if (body.data?.secret) secrets.push(body.data.secret, await secretHash(body.data.secret));
      calls.push([product, id!, init, route, status]);
    }
    const lines = (await linesAfter(before + requests.length)).slice(before);
    expect(lines.map((l) => [l.product, l.request_id, l.route, l.status])).toEqual(
      calls.map(([product, id, , route, status]) => [product, id, route, status]),
    );
    const keyed = lines.find((l) => l.route === "/v1/rates/sheets")!;
    expect([keyed.method, keyed.org, typeof keyed.duration_ms]).toEqual(["GET", tenant.orgId, "number"]);
    expect(lines.find((l) => l.product === "air" && l.status === 404)?.query).toEqual({
      api_key: "[redacted]",
    });
  });

  test("no key, secret or secret hash appears anywhere in the log", () => {
    expect(secrets.length).toBeGreaterThan(PRODUCT_IDS.length * 2);
    const text = logs.text();
    expect(secrets.filter((s) => text.includes(s))).toEqual([]);
    expect(text).not.toContain("secret-in-query");
  });
});

test("a query's values are logged but for keys, secrets and personal data", () => {
  expect(loggedQuery("http://h/v1/x?limit=5&email=a%40b.c&api_key=k&contact_name=Ann&mode=sea")).toEqual({
    limit: "5",
    email: "[redacted]",
    api_key: "[redacted]",
    contact_name: "[redacted]",
    mode: "sea",
  });
  expect(loggedQuery("http://h/v1/x")).toBeNull();
});
