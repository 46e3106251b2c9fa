/**
 * A real platform over a fresh database (test/helpers/database.ts), with helpers to call products;
 * every answer `call` returns has been checked against the product's OpenAPI document
 * (answer-check.ts), and the keys, secrets and tokens it carried recorded (issued-secrets.ts).
 */
import { buildApps, type FetchApp } from "../../api/app.ts";
import { bootstrap, type Running } from "../../api/bootstrap.ts";
import { type Config, loadConfig } from "../../api/config.ts";
import type { ProductId } from "../../api/shared/products.ts";
import { sourcesEnv } from "../../common/sources-dir.ts";
import { checkAnswer } from "./answer-check.ts";
import { testDatabase } from "./database.ts";
import { recordExchange, recordingAccounts, recordSecrets } from "./issued-secrets.ts";

type Served = Parameters<typeof checkAnswer>[0] extends () => infer D ? D : never;
const documents = new WeakMap<FetchApp, Served>();

/**
 * The OpenAPI document the product app serves (plugins/openapi.ts keeps it in the app's store),
 * parsed once per app: it is built once, and its examples make it large.
 */
function documentOf(app: FetchApp): Served {
  let doc = documents.get(app);
  if (!doc) {
    doc = (app as unknown as { store: { openApiDocument(): Served } }).store.openApiDocument();
    documents.set(app, doc);
  }
  return doc;
}

export interface TestPlatform extends Running {
  apps: Record<ProductId, FetchApp>;
  call(product: ProductId, path: string, init?: RequestInit): Promise<Response>;
  /** An organisation entitled to every product, with one key per product. */
  tenant(opts?: {
    paid?: boolean;
    name?: string;
  }): Promise<{ orgId: string; keys: Record<ProductId, string> }>;
}

export class ManualClock {
  constructor(public t = Date.parse("2026-11-21T12:00:00Z")) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

export async function makePlatform(
  overrides: Partial<Config> = {},
  now?: () => number,
): Promise<TestPlatform> {
  const config = { ...loadConfig(sourcesEnv()), database: testDatabase(), ...overrides };
  const running = await bootstrap(config, now);
  const apps = buildApps(running);
  const accounts = recordingAccounts(running.accounts);
  recordSecrets(config.metricsToken);
  return {
    ...running,
    accounts,
    apps,
    call: async (product, path, init) => {
      const request = new Request(`http://localhost${path}`, init);
      const response = await apps[product].handle(request);
      await recordExchange(request, response);
      await checkAnswer(() => documentOf(apps[product]), request, response);
      return response;
    },
    tenant: async (opts = {}) => {
      const org = await accounts.createOrg(opts.name ?? "tenant", {
        paid: opts.paid ?? false,
        plan: opts.paid ? "pro" : "free",
      });
      const keys = {} as Record<ProductId, string>;
      for (const p of ["ocean", "air", "schedules", "loading", "rates", "distance"] as const) {
        await accounts.setEntitlement(org.id, p, null);
        keys[p] = (await accounts.createKey(org.id, p)).key;
      }
      return { orgId: org.id, keys };
    },
  };
}

export const bearer = (key: string, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${key}`, ...extra },
});
