/** The process log's pieces: levels from the environment, errors as logged, the pretty format. */
import { afterAll, afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../api/config.ts";
import { errorLine, logFormatFrom, loggedError, logLevelFrom, prettyLine } from "../../common/log.ts";
import { type CapturedLogs, captureLogs } from "../helpers/logs.ts";

let logs: CapturedLogs | null = null;
afterEach(() => logs?.restore());
const dir = mkdtempSync(join(tmpdir(), "log-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test.each([
  [{}, "info"],
  [{ NODE_ENV: "test" }, "warn"],
  [{ NODE_ENV: "test", PORTOLAN_LOG_LEVEL: "info" }, "info"],
  [{ PORTOLAN_LOG_LEVEL: "silent" }, "silent"],
])("level from %j is %s", (env, level) => {
  expect(logLevelFrom(env)).toBe(level);
});

test("an unknown level or format stops the start with the choices named", () => {
  expect(() => logLevelFrom({ PORTOLAN_LOG_LEVEL: "loud" })).toThrow(
    "PORTOLAN_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent",
  );
  expect(() => logFormatFrom({ PORTOLAN_LOG_FORMAT: "xml" })).toThrow(
    "PORTOLAN_LOG_FORMAT must be json or pretty",
  );
  expect(logFormatFrom({ PORTOLAN_LOG_FORMAT: "pretty" })).toBe("pretty");
});

test("an error is logged by its named fields only, a statement's values cut", () => {
  const cause = Object.assign(new Error("duplicate key"), { code: "23505", detail: "Key (hash)=(abc)" });
  const err = Object.assign(new Error("Failed query: insert into t values ($1)\nparams: whsec_1"), {
    cause,
    params: ["whsec_1"],
  });
  const logged = loggedError(err);
  expect(JSON.stringify(logged)).not.toContain("whsec_1");
  expect(JSON.stringify(logged)).not.toContain("abc");
  expect(logged).toMatchObject({
    type: "Error",
    message: "Failed query: insert into t values ($1)",
    cause: { type: "Error", message: "duplicate key", code: "23505" },
  });
  expect(loggedError("plain")).toBe("plain");
});

test("a pretty line reads time, level, message, then the fields", () => {
  const line = JSON.stringify({
    level: 40,
    time: Date.parse("2026-12-07T10:11:12.345Z"),
    pid: 1,
    msg: "slow",
    route: "/v1/x",
    n: 2,
  });
  expect(prettyLine(line)).toBe("10:11:12.345 WARN slow route=/v1/x n=2\n");
});

test("errorLine: the component as a field, the context as the message", () => {
  logs = captureLogs("error");
  errorLine("poller")("[poller]", new Error("boom"));
  errorLine("webhooks")("[webhooks] fan-out failed:", new Error("gone"));
  expect(logs.lines.map((l) => [l.component, l.msg])).toEqual([
    ["poller", "poller failed"],
    ["webhooks", "fan-out failed"],
  ]);
});

/** A process that logs `msg` at warn with PORTOLAN_LOG_FILE=file; its stdout. */
function logFrom(file: string, msg: string): string {
  const script = `import { log } from "${join(import.meta.dir, "../../common/log.ts")}"; log.warn("${msg}");`;
  const run = Bun.spawnSync([process.execPath, "-e", script], {
    env: { ...process.env, PORTOLAN_LOG_FILE: file, PORTOLAN_LOG_LEVEL: "info" },
  });
  expect(run.exitCode).toBe(0);
  return run.stdout.toString();
}

test("PORTOLAN_LOG_FILE: every process appends its lines after what the file holds, none on stdout", () => {
  const file = join(dir, "portolan.log");
  writeFileSync(file, "kept\n");
  expect([logFrom(file, "first"), logFrom(file, "second")]).toEqual(["", ""]);
  const [kept, ...lines] = readFileSync(file, "utf8").trimEnd().split("\n");
  expect([kept, ...lines.map((l) => JSON.parse(l).msg)]).toEqual(["kept", "first", "second"]);
  expect(loadConfig({ PORTOLAN_LOG_FILE: file }).log.file).toBe(file);
});

test("a log file that cannot be opened stops the start, named; the log goes to stdout saying why", () => {
  const file = join(dir, "no-such-folder", "portolan.log");
  expect(() => loadConfig({ PORTOLAN_LOG_FILE: file })).toThrow(
    `PORTOLAN_LOG_FILE ${file} cannot be opened for appending (ENOENT)`,
  );
  const lines = logFrom(file, "still said")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    [50, `PORTOLAN_LOG_FILE ${file} cannot be opened for appending (ENOENT); logging to stdout`],
    [40, "still said"],
  ]);
});
