/**
 * The suite's secrets gate (scripts/secrets-in-logs.sh) on logs written by real processes: a
 * recorded key or its hash logged by mistake is caught and not repeated in the report, a clean log
 * passes, and nothing to check fails; a key the CLI prints to a test is recorded, and so are the
 * key a test sends over a real socket and the webhook secret it is answered.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mintKey } from "../../api/accounts/keys.ts";
import { sha256Hex } from "../../api/shared/crypto.ts";
import { newSecret } from "../../api/webhooks/secrets.ts";
import { runCli } from "../helpers/cli.ts";
import { recordingFetch, recordSecrets } from "../helpers/issued-secrets.ts";

const root = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "secrets-gate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `record`, the helpers recording into `file` instead of the suite's own list. */
async function recordingInto<T>(file: string, record: () => T | Promise<T>): Promise<T> {
  const suite = process.env.PORTOLAN_TEST_SECRETS;
  process.env.PORTOLAN_TEST_SECRETS = file;
  try {
    return await record();
  } finally {
    if (suite === undefined) delete process.env.PORTOLAN_TEST_SECRETS;
    else process.env.PORTOLAN_TEST_SECRETS = suite;
  }
}

const recordInto = (file: string, ...values: string[]) => recordingInto(file, () => recordSecrets(...values));

/** A process logging at info into `file` (common/log.ts): an access line, then `leak` if given. */
function logInto(file: string, leak = ""): void {
  const script = `import { log } from "${root}/common/log.ts";
log.info({ route: "/healthz", status: 200 }, "request");
if (process.env.LEAK) log.warn({ caller: process.env.LEAK }, "a line that should not hold this");`;
  const run = Bun.spawnSync([process.execPath, "-e", script], {
    env: { ...process.env, PORTOLAN_LOG_LEVEL: "info", PORTOLAN_LOG_FILE: file, LEAK: leak },
  });
  expect(run.exitCode).toBe(0);
}

function gate(secrets: string, log: string, ...outputs: string[]) {
  const run = Bun.spawnSync(["bash", join(root, "scripts/secrets-in-logs.sh"), secrets, log, ...outputs]);
  return { code: run.exitCode, out: run.stdout.toString() };
}

test("a recorded key or its hash in the log fails the gate, the report redacting it", async () => {
  const { key } = await mintKey("ocean");
  const secrets = join(dir, "leaks.txt");
  await recordInto(secrets, key);
  for (const leaked of [key, await sha256Hex(key)]) {
    const log = join(dir, `leak-${leaked.length}.log`);
    logInto(log, leaked);
    const { code, out } = gate(secrets, log);
    expect(code).toBe(1);
    expect(out).toContain("1 lines hold a recorded secret; the first: ");
    expect(out).toContain('"caller":"[redacted]"');
    expect(out).not.toContain(leaked);
  }
});

test("a secret in a suite's output fails it too; a clean log and output pass", async () => {
  const { key } = await mintKey("rates");
  const secrets = join(dir, "clean.txt");
  await recordInto(secrets, key);
  const log = join(dir, "clean.log");
  logInto(log);
  const output = join(dir, "suite.out");
  writeFileSync(output, "(pass) something\n");
  expect(gate(secrets, log, output)).toEqual({
    code: 0,
    out: expect.stringContaining("none in 1 access lines"),
  });
  writeFileSync(output, `(fail) printed ${key}\n`);
  expect(gate(secrets, log, output).code).toBe(1);
});

test("nothing to check fails: no secret recorded, or no access line logged", async () => {
  const empty = join(dir, "empty.txt");
  writeFileSync(empty, "");
  const log = join(dir, "some.log");
  logInto(log);
  expect(gate(empty, log)).toEqual({ code: 1, out: `no secret was recorded in ${empty}\n` });
  const secrets = join(dir, "one.txt");
  await recordInto(secrets, (await mintKey("air")).key);
  const quiet = join(dir, "quiet.log");
  writeFileSync(quiet, '{"level":40,"msg":"redis down"}\n');
  expect(gate(secrets, quiet)).toEqual({ code: 1, out: `no access line in ${quiet}\n` });
  expect(gate(secrets, join(dir, "missing.log")).code).toBe(1);
});

test("a key the CLI prints to a test is recorded, with its hash", async () => {
  const secrets = join(dir, "cli.txt");
  const env = { ...process.env, PORTOLAN_DB: join(dir, "cli.sqlite") };
  const made = await recordingInto(secrets, () => {
    const org = runCli(["org", "create", "Printed Freight"], env).out.at(-1)!;
    return runCli(["key", "create", "--org", org, "--product", "distance"], env);
  });
  expect(made.code).toBe(0);
  const key = made.out.at(-1)!;
  expect(key).toMatch(/^ds_[0-9A-Za-z]{32}$/);
  const recorded = readFileSync(secrets, "utf8").split("\n");
  expect(recorded).toContain(key);
  expect(recorded).toContain(await sha256Hex(key));
});

test("a key sent and a webhook secret answered over a real socket are recorded", async () => {
  const secrets = join(dir, "socket.txt");
  const { key } = await mintKey("loading");
  const secret = newSecret();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () => Response.json({ data: { secret } }),
  });
  try {
    const res = await recordingInto(secrets, () =>
      recordingFetch(`http://127.0.0.1:${server.port}/v1/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
      }),
    );
    expect(res.status).toBe(200);
  } finally {
    server.stop(true);
  }
  const recorded = readFileSync(secrets, "utf8").split("\n");
  expect(recorded).toEqual(expect.arrayContaining([key, secret, await sha256Hex(secret)]));
});
