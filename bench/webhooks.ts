/**
 * Webhook delivery bench: outbox rows -> fan-out -> leased claims -> signed HTTPS POSTs -> recorded
 * attempts, against a local HTTPS receiver in its own process. Baseline, same run, same receiver,
 * same TLS trust and concurrency: bare fetch POSTs of the same bodies (no database, no signing).
 *
 * Two shapes: the deliveries spread over `endpoints` endpoints, each of its own organisation
 * (enough for the per-endpoint and per-organisation caps to let the dispatcher fill every slot),
 * then all of them to one endpoint, which the per-endpoint cap (PORTOLAN_WEBHOOK_ENDPOINT_CONCURRENCY,
 * 4) keeps below the dispatcher's concurrency on purpose. The CPU time this process spent per
 * delivery is printed too: steadier than rates on a busy box. Then the second section, a slow
 * tenant's webhooks (bench/webhook-tenants.ts).
 *
 *   bun bench/webhooks.ts [deliveries=5000] [concurrency=64] [endpoints=16] [per-endpoint=4]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { eq } from "drizzle-orm";
import { loadConfig } from "../api/config.ts";
import type { WebhookConfig } from "../api/webhooks/config.ts";
import { Dispatcher } from "../api/webhooks/dispatcher.ts";
import { newSecret, SecretBox, secretHash } from "../api/webhooks/secrets.ts";
import { openDatabase } from "../storage/sqlite.ts";
import { sqliteStorage } from "../storage/storage.ts";
import { makeCertificates } from "../test/webhooks/receiver.ts";
import * as tenants from "./webhook-tenants.ts";

if (process.argv[2] === "receiver") {
  // Child mode: a bare HTTPS receiver that answers 204 to everything.
  const [, , , cert, key] = process.argv;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: Bun.file(cert!), key: Bun.file(key!) },
    fetch: async (req) => {
      await req.arrayBuffer();
      return new Response(null, { status: 204 });
    },
  });
  console.log(server.port);
} else {
  const arg = (i: number, fallback: number) => Number(process.argv[i] ?? fallback);
  const defaults = loadConfig({}).webhooks;
  await main(arg(2, 5000), arg(3, 64), arg(4, 16), arg(5, defaults.endpointConcurrency));
  const seconds = 4;
  tenants.report(await tenants.bench(seconds), seconds);
}

async function main(n: number, concurrency: number, endpoints: number, perEndpoint: number) {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-webhooks-"));
  const certs = makeCertificates(dir);
  const rxProc = Bun.spawn([process.execPath, import.meta.path, "receiver", certs.cert, certs.key], {
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const port = Number(new TextDecoder().decode((await rxProc.stdout.getReader().read()).value).trim());
    for (const e of new Set([endpoints, 1])) {
      const cfg = {
        ...loadConfig({}).webhooks,
        allowPrivate: true,
        caFile: certs.ca,
        resolve: { "hooks.test": ["127.0.0.1"] },
        sweepMs: 20,
        concurrency,
        endpointConcurrency: perEndpoint,
      };
      await shape(join(dir, `bench-${e}.sqlite`), cfg, port, n, e);
    }
  } finally {
    rxProc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function shape(database: string, cfg: WebhookConfig, port: number, n: number, endpoints: number) {
  const storage = sqliteStorage(openDatabase(database));
  const { db, t } = storage;
  const store = storage.webhooks;
  const box = await SecretBox.create(cfg);
  for (let e = 0; e < endpoints; e++) {
    const id = crypto.randomUUID();
    const secret = newSecret();
    await store.create(
      {
        id,
        orgId: `bench-org-${e}`,
        product: "ocean",
        url: `https://hooks.test:${port}/hook/${e}`,
        eventTypes: [],
        description: "bench",
        createdAt: new Date().toISOString(),
        secretHash: await secretHash(secret),
        sealed: await box.seal(secret, id),
      },
      1,
    );
  }
  const data = {
    container_number: "MSKU1234565",
    status: "in_transit",
    event_date_time: "2026-11-20T08:00:00Z",
  };
  // Each organisation's events go to its one endpoint: n deliveries in all.
  const rows = Array.from({ length: Math.ceil(n / endpoints) * endpoints }, (_, i) => ({
    id: `bench-${i}`,
    orgId: `bench-org-${i % endpoints}`,
    product: "ocean",
    type: "vessel_departed",
    occurredAt: "2026-11-20T08:00:00.000Z",
    data,
    createdAt: "2026-11-20T08:00:01.000Z",
  }));
  for (let i = 0; i < rows.length; i += 500) await db.insert(t.outbox).values(rows.slice(i, i + 500));
  const total = rows.length;

  // Ours: from the first sweep to the last delivery recorded as delivered.
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const dispatcher = await Dispatcher.start(storage, cfg);
  const delivered = async () =>
    (
      await db
        .select({ id: t.webhookDeliveries.id })
        .from(t.webhookDeliveries)
        .where(eq(t.webhookDeliveries.status, "delivered"))
    ).length;
  while ((await delivered()) < total) await Bun.sleep(25);
  const ours = total / ((performance.now() - t0) / 1000);
  const cpu = process.cpuUsage(cpu0);
  await dispatcher.stop();

  // Baseline: the same bodies POSTed with bare fetch at the same concurrency, to the same paths.
  const sent = await db
    .select({ body: t.webhookDeliveries.body, url: t.webhookEndpoints.url })
    .from(t.webhookDeliveries)
    .innerJoin(t.webhookEndpoints, eq(t.webhookEndpoints.id, t.webhookDeliveries.endpointId));
  await storage.close();
  const ca = [...rootCertificates, await Bun.file(cfg.caFile!).text()];
  let next = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: cfg.concurrency }, async () => {
      while (next < sent.length) {
        const { body, url } = sent[next++]!;
        const res = await fetch(`https://127.0.0.1:${port}${new URL(url).pathname}`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", host: `hooks.test:${port}` },
          tls: { serverName: "hooks.test", ca },
        } as RequestInit);
        await res.arrayBuffer();
      }
    }),
  );
  const bare = sent.length / ((performance.now() - t1) / 1000);
  const perEndpoint = Math.min(cfg.endpointConcurrency, cfg.concurrency);
  console.log(
    `webhook deliveries: ${total} to ${endpoints} endpoint(s) of one organisation each, concurrency ${cfg.concurrency}, ` +
      `${perEndpoint} per endpoint, file SQLite, HTTPS loopback`,
  );
  console.log(
    `  ours:     ${ours.toFixed(0).padStart(7)} deliveries/s  (fan-out, lease, sign, POST, record; ` +
      `${((cpu.user + cpu.system) / total).toFixed(0)} us CPU each)`,
  );
  console.log(
    `  baseline: ${bare.toFixed(0).padStart(7)} POSTs/s       (bare fetch, same bodies and receiver)`,
  );
  console.log(`  ratio:    ${(ours / bare).toFixed(2)} of the baseline`);
}
