/**
 * How much of the six OpenAPI documents the tests exercised: reads the (document, method, route,
 * status) lines a run with PORTOLAN_OPENAPI_COVERAGE=<file> appended (test/helpers/answer-check.ts)
 * and compares them with the documents the hosts serve (built here over an in-memory database).
 * Prints, per product and in all, the documented operations and (operation, status) pairs, how
 * many the run saw, and the operations without a 2xx or without a 4xx seen; --missing also lists
 * every documented pair no test saw.
 *
 *   npx bun scripts/openapi-coverage.ts <file> [--missing]
 */
import { readFileSync } from "node:fs";
import { buildApps } from "../api/app.ts";
import { bootstrap } from "../api/bootstrap.ts";
import { loadConfig } from "../api/config.ts";
import { PRODUCT_IDS } from "../api/shared/products.ts";
import { log } from "../common/log.ts";
import { sourcesEnv } from "../common/sources-dir.ts";

type Doc = { info: { title: string }; paths: Record<string, Record<string, { responses: object }>> };

/** "GET /v1/x 200" for every documented (operation, status), by operation "GET /v1/x". */
function documented(doc: Doc): Map<string, string[]> {
  const ops = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.set(`${method.toUpperCase()} ${path}`, Object.keys(op.responses));
    }
  }
  return ops;
}

interface Tally {
  operations: number;
  pairs: number;
  seenPairs: number;
  seenOperations: number;
  no2xx: string[];
  no4xx: string[];
  missing: string[];
}

function tally(docs: Doc[], seen: Set<string>): Tally {
  const t: Tally = {
    operations: 0,
    pairs: 0,
    seenPairs: 0,
    seenOperations: 0,
    no2xx: [],
    no4xx: [],
    missing: [],
  };
  for (const doc of docs) {
    for (const [op, statuses] of documented(doc)) {
      t.operations++;
      const hit = statuses.filter((s) => seen.has(`${doc.info.title}\t${op} ${s}`));
      t.pairs += statuses.length;
      t.seenPairs += hit.length;
      if (hit.length > 0) t.seenOperations++;
      if (!hit.some((s) => s.startsWith("2"))) t.no2xx.push(op);
      if (!hit.some((s) => s.startsWith("4"))) t.no4xx.push(op);
      for (const s of statuses) if (!hit.includes(s)) t.missing.push(`${op} ${s}`);
    }
  }
  return t;
}

/** 500 is documented on every operation for an unforeseen fault: no test can ask for one. */
const unseenBesides500 = (t: Tally) => t.missing.filter((m) => !m.endsWith(" 500")).length;

const summary = (name: string, t: Tally) =>
  `${name}: ${t.seenPairs}/${t.pairs} (operation, status) pairs (unseen other than 500: ${unseenBesides500(t)}), ${t.seenOperations}/${t.operations} operations; without a 2xx seen: ${t.no2xx.length}, without a 4xx seen: ${t.no4xx.length}`;

async function documents(): Promise<Doc[]> {
  const running = await bootstrap({ ...loadConfig(sourcesEnv()), database: ":memory:" });
  try {
    const apps = buildApps(running);
    return await Promise.all(
      PRODUCT_IDS.map(async (id) =>
        (await apps[id].handle(new Request("http://localhost/docs/json"))).json(),
      ),
    );
  } finally {
    await running.close();
  }
}

// The hosts' access log would interleave with the report.
log.level = "warn";
const [file, flag] = process.argv.slice(2);
if (!file) {
  console.error("usage: npx bun scripts/openapi-coverage.ts <file> [--missing]");
  process.exit(2);
}
const seen = new Set(readFileSync(file, "utf8").split("\n").filter(Boolean));
const docs = await documents();
for (const doc of docs) {
  const t = tally([doc], seen);
  console.log(summary(doc.info.title, t));
  if (flag === "--missing") {
    for (const op of t.no2xx) console.log(`  no 2xx seen: ${op}`);
    for (const op of t.no4xx) console.log(`  no 4xx seen: ${op}`);
    for (const m of t.missing) console.log(`  not seen: ${m}`);
  }
}
console.log(summary("all documents", tally(docs, seen)));
