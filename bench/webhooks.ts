/**
 * Webhook delivery bench: outbox rows -> fan-out -> leased claims -> signed HTTPS POSTs -> recorded
 * attempts, against a local HTTPS receiver in its own process. Baseline, same run, same receiver,
 * same TLS trust and concurrency: bare fetch POSTs of the same bodies (no database, no signing).
 *
 *   bun bench/webhooks.ts [deliveries=5000] [concurrency=64]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { eq } from "drizzle-orm";
import { loadConfig } from "../api/config.ts";
import { outbox, webhookDeliveries } from "../api/db/schema.ts";
import { openDatabase } from "../api/db/sqlite.ts";
import { Dispatcher } from "../api/webhooks/dispatcher.ts";
import { newSecret, SecretBox, secretHash } from "../api/webhooks/secrets.ts";
import { WebhookStore } from "../api/webhooks/store.ts";
import { makeCertificates } from "../test/webhooks/receiver.ts";

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
  await main(Number(process.argv[2] ?? 5000), Number(process.argv[3] ?? 64));
}

async function main(n: number, concurrency: number) {
  const dir = mkdtempSync(join(tmpdir(), "portolan-bench-webhooks-"));
  const certs = makeCertificates(dir);
  const rxProc = Bun.spawn([process.execPath, import.meta.path, "receiver", certs.cert, certs.key], {
    stdout: "pipe",
    stderr: "inherit",
  });
  try {
    const port = Number(new TextDecoder().decode((await rxProc.stdout.getReader().read()).value).trim());
    const cfg = {
      ...loadConfig({}).webhooks,
      allowPrivate: true,
      caFile: certs.ca,
      resolve: { "hooks.test": ["127.0.0.1"] },
      sweepMs: 20,
      concurrency,
    };
    const { db, close } = openDatabase(join(dir, "bench.sqlite"));
    const store = new WebhookStore(db);
    const box = await SecretBox.create(cfg);
    const id = crypto.randomUUID();
    const secret = newSecret();
    store.create({
      id,
      orgId: "bench-org",
      product: "ocean",
      url: `https://hooks.test:${port}/hook`,
      eventTypes: [],
      description: "bench",
      createdAt: new Date().toISOString(),
      secretHash: await secretHash(secret),
      sealed: await box.seal(secret, id),
    });
    const data = {
      container_number: "MSKU1234565",
      status: "in_transit",
      event_date_time: "2026-11-20T08:00:00Z",
    };
    const rows = Array.from({ length: n }, (_, i) => ({
      id: `bench-${i}`,
      orgId: "bench-org",
      product: "ocean",
      type: "vessel_departed",
      occurredAt: "2026-11-20T08:00:00.000Z",
      data,
      createdAt: "2026-11-20T08:00:01.000Z",
    }));
    for (let i = 0; i < rows.length; i += 500)
      db.insert(outbox)
        .values(rows.slice(i, i + 500))
        .run();

    // Ours: from the first sweep to the last delivery recorded as delivered.
    const t0 = performance.now();
    const dispatcher = await Dispatcher.start(db, cfg);
    const delivered = () =>
      db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, "delivered"))
        .all().length;
    while (delivered() < n) await Bun.sleep(25);
    const ours = n / ((performance.now() - t0) / 1000);
    await dispatcher.stop();

    // Baseline: the same bodies POSTed with bare fetch at the same concurrency.
    const bodies = db
      .select({ body: webhookDeliveries.body })
      .from(webhookDeliveries)
      .all()
      .map((r) => r.body);
    close();
    const ca = [...rootCertificates, await Bun.file(certs.ca).text()];
    let next = 0;
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < bodies.length) {
          const body = bodies[next++]!;
          const res = await fetch(`https://127.0.0.1:${port}/hook`, {
            method: "POST",
            body,
            headers: { "content-type": "application/json", host: `hooks.test:${port}` },
            tls: { serverName: "hooks.test", ca },
          } as RequestInit);
          await res.arrayBuffer();
        }
      }),
    );
    const bare = bodies.length / ((performance.now() - t1) / 1000);
    console.log(`webhook deliveries (${n}, concurrency ${concurrency}, file SQLite, HTTPS loopback)`);
    console.log(
      `  ours:     ${ours.toFixed(0).padStart(7)} deliveries/s  (fan-out, lease, sign, POST, record)`,
    );
    console.log(
      `  baseline: ${bare.toFixed(0).padStart(7)} POSTs/s       (bare fetch, same bodies and receiver)`,
    );
    console.log(`  ratio:    ${(ours / bare).toFixed(2)} of the baseline`);
  } finally {
    rxProc.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
