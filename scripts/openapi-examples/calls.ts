/**
 * The calls whose answers are the documents' examples: per product, one success per operation
 * that answers JSON, in an order that makes the ids the later calls need, and a 404 and a 400;
 * reads send the path values and query of bodies.ts unless they give their own.
 * Every call states the status it expects, so a call that stops answering so fails the run.
 */
import type { ProductId } from "../../api/shared/products.ts";
import { bearer, type ManualClock, type TestPlatform } from "../../test/helpers/platform.ts";
import { bodyOf, LOAD, readArgsOf } from "./bodies.ts";

export interface ExampleAnswer {
  product: ProductId;
  /** "METHOD /path status", the path as the document writes it. */
  key: string;
  body: unknown;
}

type Json = Record<string, unknown> & { data?: Record<string, unknown> & { id?: string } };

type Ask = (
  op: string,
  status: number,
  opts?: { at?: Record<string, string>; query?: string; body?: unknown },
) => Promise<Json>;

/** An id no record has, for the 404s. */
const UNKNOWN = "00000000-0000-4000-8000-0000000000ff";

export async function exampleCalls(
  p: TestPlatform,
  keys: Record<ProductId, string>,
  clock: ManualClock,
): Promise<ExampleAnswer[]> {
  const found: ExampleAnswer[] = [];
  const askOf =
    (product: ProductId): Ask =>
    async (op, status, given = {}) => {
      // A read's shared path values and query unless the call gives its own.
      const opts = { ...readArgsOf(op), ...given };
      const [method, template] = op.split(" ") as [string, string];
      const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => opts.at?.[name] ?? UNKNOWN);
      const init = bearer(keys[product], { "content-type": "application/json" });
      const res = await p.call(product, `${path}${opts.query ? `?${opts.query}` : ""}`, {
        method,
        ...init,
        ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
      });
      // A second between calls: records made by consecutive calls list in one order.
      clock.advance(1000);
      const body = (await res.json()) as Json;
      if (res.status !== status) {
        throw new Error(`${product} ${op}: answered ${res.status}, not ${status}: ${JSON.stringify(body)}`);
      }
      const answer = `${op} ${status}`;
      if (!found.some((f) => f.product === product && f.key === answer))
        found.push({ product, key: answer, body });
      return body;
    };
  for (const [product, run] of Object.entries(PRODUCT_CALLS) as Array<[ProductId, ProductCalls]>) {
    const ask = askOf(product);
    await ask("GET /healthz", 200);
    await ask("GET /v1/account", 200);
    if (product !== "rates") await keyCalls(ask);
    else await ask("GET /v1/account/keys", 200);
    await run(ask, { keys, p });
    if (product !== "distance") await webhookCalls(ask);
  }
  return found;
}

async function keyCalls(ask: Ask) {
  const made = await ask("POST /v1/account/keys", 201, { body: bodyOf("POST /v1/account/keys") });
  await ask("GET /v1/account/keys", 200);
  await ask("DELETE /v1/account/keys/{id}", 200, { at: { id: made.data!.id! } });
}

async function webhookCalls(ask: Ask) {
  const made = await ask("POST /v1/webhooks", 201, { body: bodyOf("POST /v1/webhooks") });
  const at = { id: made.data!.id! };
  await ask("GET /v1/webhooks", 200);
  await ask("GET /v1/webhooks/{id}", 200, { at });
  await ask("PATCH /v1/webhooks/{id}", 200, { at, body: bodyOf("PATCH /v1/webhooks/{id}") });
  await ask("POST /v1/webhooks/{id}/test", 200, { at });
  await ask("DELETE /v1/webhooks/{id}", 200, { at });
  await ask("GET /v1/webhooks/{id}", 404);
}

interface Context {
  keys: Record<ProductId, string>;
  p: TestPlatform;
}
type ProductCalls = (ask: Ask, x: Context) => Promise<void>;

const PRODUCT_CALLS: Record<ProductId, ProductCalls> = {
  ocean: async (ask, { keys, p }) => {
    const made = await ask("POST /v1/containers", 201, { body: bodyOf("POST /v1/containers") });
    const at = { id: made.data!.id! };
    await p.tracking.ocean.pollDue();
    await ask("GET /v1/containers", 200);
    await ask("GET /v1/containers/{id}", 200, { at });
    await ask("GET /v1/containers/lookup/{identifier}", 202);
    await untilAnswered(() => ask("GET /v1/containers/lookup/{identifier}", 200));
    await ask("POST /v1/containers/{id}/recheck", 200, { at });
    // A line the sandbox does not play: the operator is asked to connect it.
    const unconnected = await ask("POST /v1/containers", 201, {
      body: { identifier: "CSQU3054383", identifier_type: "container_id", carrier_code: "COSU" },
    });
    await ask("POST /v1/containers/{id}/notify-connector", 200, {
      at: { id: unconnected.data!.id! },
      body: bodyOf("POST /v1/containers/{id}/notify-connector"),
    });
    await ask("GET /v1/portfolio/summary", 200);
    const terms = await ask("POST /v1/demurrage/terms", 201, { body: bodyOf("POST /v1/demurrage/terms") });
    await ask("GET /v1/demurrage/terms", 200);
    await ask("DELETE /v1/demurrage/terms/{id}", 200, { at: { id: terms.data!.id! } });
    await ask("GET /v2/events", 200);
    await ask("GET /public/v1/lookup/{number}", 200);
    for (const alias of ["tracking", "container", "reference"]) {
      await ask(`GET /compat/vendor/${alias}`, 200, { query: `api_key=${keys.ocean}&number=MRKU0158387` });
    }
    await ask("DELETE /v1/containers/{id}", 200, { at });
    await ask("GET /v1/containers/{id}", 404);
    await ask("POST /v1/containers", 400, { body: { identifier: "MRKU0158387", identifier_type: "vessel" } });
  },
  air: async (ask, { p }) => {
    await ask("GET /public/v1/awb-prefixes/{reference}", 200);
    await ask("POST /v1/rates/quote", 200, { body: bodyOf("POST /v1/rates/quote") });
    await ask("POST /rates/quote", 200, { body: bodyOf("POST /rates/quote") });
    const made = await ask("POST /v1/awbs", 201, { body: bodyOf("POST /v1/awbs") });
    const at = { id: made.data!.id! };
    await p.air.waybills.pollDue();
    await ask("GET /v1/awbs", 200);
    await ask("GET /v1/awbs/{id}", 200, { at });
    await ask("DELETE /v1/awbs/{id}", 200, { at });
    await ask("GET /v1/awbs/{id}", 404);
    await ask("POST /v1/rates/quote", 400, { body: { origin: "FRA" } });
  },
  schedules: async (ask) => {
    for (const base of ["/v1", "/public/v1"]) {
      const p2p = await ask(`GET ${base}/point-to-point`, 200);
      await ask(`GET ${base}/ports/{unlocode}/calls`, 200);
      await ask(`GET ${base}/vessels/{imo}/schedule`, 200);
      // A service the search found, else the shared one.
      const first = (p2p.data as { items?: Array<Record<string, string>> }).items?.[0];
      await ask(
        `GET ${base}/services/{code}/schedule`,
        200,
        first && { at: { code: first.service_code! }, query: `carrier=${first.carrier}` },
      );
      await ask(`GET ${base}/reliability`, 200);
    }
    const made = await ask("POST /v1/follows", 201, { body: bodyOf("POST /v1/follows") });
    const at = { id: made.data!.id! };
    await ask("GET /v1/follows", 200);
    await ask("GET /v1/follows/{id}", 200, { at });
    await ask("DELETE /v1/follows/{id}", 200, { at });
    await ask("GET /v1/follows/{id}", 404);
    await ask("GET /v1/point-to-point", 400, { query: "origin=SGSIN" });
  },
  loading: async (ask) => {
    const made = await ask("POST /v1/load-plans", 201, { body: bodyOf("POST /v1/load-plans") });
    const at = { id: made.data!.id! };
    await ask("GET /v1/load-plans", 200);
    await ask("GET /v1/load-plans/{id}", 200, { at });
    await ask("PATCH /v1/load-plans/{id}", 200, { at, body: bodyOf("PATCH /v1/load-plans/{id}") });
    await ask("DELETE /v1/load-plans/{id}", 200, { at });
    await ask("GET /v1/load-plans/{id}", 404);
    await ask("POST /v1/load-plans", 400, { body: { ...LOAD, equipment: [] } });
  },
  rates: async (ask) => {
    await ask("GET /v1/rates/search", 200);
    const sheets = await ask("GET /v1/rates/sheets", 200);
    const id = (sheets.data as { items: Array<{ id: string }> }).items[0]!.id;
    await ask("GET /v1/rates/sheets/{id}", 200, { at: { id } });
    await ask("GET /v1/rates/sheets/{id}", 404);
    await ask("GET /v1/rates/search", 400, { query: "origin=CNSHA&destination=NLRTM" });
  },
  distance: async (ask) => {
    await ask("GET /v1/distance/route", 200);
    await ask("GET /v1/distance/multimodal", 200);
    await ask("GET /v1/distance/locations", 200);
    await ask("GET /v1/distance/matrix", 200);
    await ask("POST /v1/distance/matrix", 200, { body: bodyOf("POST /v1/distance/matrix") });
    await ask("DELETE /v1/account/keys/{id}", 404);
    await ask("GET /v1/distance/route", 400, { query: "from=NLRTM" });
  },
};

/** Asks again while the carrier is still being asked (a 202 before the 200), a few seconds at most. */
async function untilAnswered(call: () => Promise<Json>): Promise<Json> {
  for (let tries = 1; ; tries++) {
    try {
      return await call();
    } catch (err) {
      if (tries >= 40 || !String(err).includes("answered 202")) throw err;
      await Bun.sleep(250);
    }
  }
}
