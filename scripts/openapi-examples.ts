/**
 * Writes the example answers of the six OpenAPI documents (api/shared/openapi/examples/<product>.json,
 * keyed "METHOD /path status"): one real call per operation on a platform built in process over a
 * fresh SQLite database, the sandbox carrier and airline (a real process, test/sandbox/spawn.ts)
 * answering tracking, both clocks fixed. Ids,
 * keys and secrets in the bodies become obviously fake but well-formed values, numbered in order of
 * appearance, so two runs write the same files. Run: npx bun scripts/openapi-examples.ts
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../api/config.ts";
import { PRODUCT_IDS, type ProductId } from "../api/shared/products.ts";
import { readRateFile } from "../engine/rates/file.ts";
import { importSheet } from "../ingest/rates/import.ts";
import { SANDBOX_AIRLINES } from "../ingest/sandbox/airline-world.ts";
import { SANDBOX_SCACS } from "../ingest/sandbox/world.ts";
import { ManualClock, makePlatform, type TestPlatform } from "../test/helpers/platform.ts";
import { startSandbox } from "../test/sandbox/spawn.ts";
import { exampleCalls } from "./openapi-examples/calls.ts";
import { fakeValues } from "./openapi-examples/fake.ts";

/** One FCL sheet valid on the fixed day, for the rates calls. */
const RATE_SHEET = `kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,equipment,rate,transit_days,code,basis,amount
sheet,Asia-Europe Q4,MAEU,OCEAN_FCL,USD,2026-10-01,2026-12-31,,,,,,,,
line,,,,,,,CNSHA,NLRTM,20GP,1000,30,,,
line,,,,,,,CNSHA,NLRTM,40HC,1800,30,,,
surcharge,,,,,,,,,40HC,,,BAF,per_container,300
surcharge,,,,,,,CNSHA,,,,,THC_O,per_container,100
surcharge,,,,,,,,,,,,DOC,per_shipment,50
`;

const OUT = join(import.meta.dir, "../api/shared/openapi/examples");

// The sandbox's demo references show their scenarios from 00:00 UTC on its epoch day.
const START = "2026-11-21T12:00:00Z";
const clock = new ManualClock(Date.parse(START));
const sandbox = await startSandbox({ SANDBOX_START: START, SANDBOX_EPOCH: "2026-11-21T00:00:00Z" });
const p: TestPlatform = await makePlatform(
  {
    database: ":memory:",
    // Links in answers (a load plan's unit pictures) name a deployment's hosts, not this machine.
    publicUrls: Object.fromEntries(PRODUCT_IDS.map((id) => [id, `https://${id}.example.com`])) as Record<
      ProductId,
      string
    >,
    carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) })),
    airlines: SANDBOX_AIRLINES.map(({ iata }) => ({ iata, baseUrl: `${sandbox.airUrl}/${iata}` })),
    // The endpoint's name answers loopback; no dispatcher runs here, so the test ping stays queued.
    webhooks: {
      ...loadConfig({}).webhooks,
      allowPrivate: true,
      resolve: { "hooks.example.com": ["127.0.0.1"] },
    },
  },
  clock.now,
);
try {
  const tenant = await p.tenant({ paid: true, name: "Example Forwarding" });
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000_000 });
  const sheet = readRateFile("asia-europe.csv", RATE_SHEET);
  await importSheet(p.storage, tenant.orgId, sheet, "asia-europe.csv", clock.now());
  const answers = Object.fromEntries(PRODUCT_IDS.map((id) => [id, {}])) as Record<
    ProductId,
    Record<string, unknown>
  >;
  for (const a of await exampleCalls(p, tenant.keys, clock)) answers[a.product][a.key] = a.body;
  const fake = fakeValues();
  for (const id of PRODUCT_IDS) {
    writeFileSync(join(OUT, `${id}.json`), `${JSON.stringify(fake(sorted(answers[id])), null, 2)}\n`);
  }
} finally {
  await p.close();
  await sandbox.stop();
}

/** Keys sorted at every level, so the files diff line by line. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, sorted(v)]),
  );
}
