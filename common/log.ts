/**
 * The process's structured log (pino): one JSON object a line on stdout (or appended to
 * PORTOLAN_LOG_FILE), or a readable line with PORTOLAN_LOG_FORMAT=pretty. PORTOLAN_LOG_LEVEL sets
 * the level: info by default, warn under `bun test` (NODE_ENV=test), whose servers would otherwise
 * flood the suite's output. Errors are logged by type, message, code and stack only: a failed
 * statement's parameters, a driver's `detail` or any other field an error carries never reach a
 * line.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import pino from "pino";

type Env = Record<string, string | undefined>;

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** The level the environment asks for; an unknown one stops the start with the choices named. */
export function logLevelFrom(env: Env): string {
  const level = env.PORTOLAN_LOG_LEVEL || (env.NODE_ENV === "test" ? "warn" : "info");
  if (!LEVELS.includes(level)) throw new Error(`PORTOLAN_LOG_LEVEL must be one of ${LEVELS.join(", ")}`);
  return level;
}

export function logFormatFrom(env: Env): "json" | "pretty" {
  const format = env.PORTOLAN_LOG_FORMAT || "json";
  if (format !== "json" && format !== "pretty") throw new Error("PORTOLAN_LOG_FORMAT must be json or pretty");
  return format;
}

/**
 * PORTOLAN_LOG_FILE opened for appending (null when unset): with O_APPEND every process writing the
 * same file adds whole lines after the others', and a rotation by truncation keeps working. Throws
 * naming the file and the reason when it cannot be opened.
 */
export function openLogFile(env: Env): number | null {
  const file = env.PORTOLAN_LOG_FILE;
  if (!file) return null;
  try {
    return openSync(file, "a");
  } catch (err) {
    const reason = (err as { code?: string }).code ?? String(err);
    throw new Error(`PORTOLAN_LOG_FILE ${file} cannot be opened for appending (${reason})`);
  }
}

/** The file setting as loadConfig checks it: the file opened once and closed again. */
export function logFileFrom(env: Env): string | null {
  const fd = openLogFile(env);
  if (fd === null) return null;
  closeSync(fd);
  return env.PORTOLAN_LOG_FILE!;
}

/** drizzle's failed-statement message ends with every value it was sent. */
const PARAMS_LINE = /\nparams: [\s\S]*$/;

export interface LoggedError {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
}

/** An error as a log line holds it: named fields only, a statement's values cut from its text. */
export function loggedError(err: unknown, depth = 0): LoggedError | string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: unknown }).code;
  const cut = (text: string) => text.replace(PARAMS_LINE, "");
  const out: LoggedError = { type: err.name, message: cut(err.message) };
  if (typeof code === "string" || typeof code === "number") out.code = String(code);
  if (err.stack) out.stack = cut(err.stack.replace(err.message, out.message));
  if (err.cause instanceof Error && depth < 3) out.cause = loggedError(err.cause, depth + 1) as LoggedError;
  return out;
}

const NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO",
  40: "WARN",
  50: "ERROR",
  60: "FATAL",
};
const OWN = new Set(["level", "time", "msg", "pid", "hostname"]);

/** A JSON line as a person reads it: time, level, message, then the other fields as key=value. */
export function prettyLine(json: string): string {
  const o = JSON.parse(json) as Record<string, unknown>;
  const fields = Object.entries(o)
    .filter(([k]) => !OWN.has(k))
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  const time = new Date(o.time as number).toISOString().slice(11, 23);
  return `${time} ${NAMES[o.level as number] ?? o.level} ${o.msg ?? ""}${fields.length ? ` ${fields.join(" ")}` : ""}\n`;
}

const stdout = (line: string) => {
  process.stdout.write(line);
};

/**
 * Where lines go unless a test reads them: the file, written synchronously so a process that is
 * killed loses no line it logged, or stdout (with the reason on it when the file cannot be opened).
 */
function destination(env: Env): { write: (line: string) => void; problem: string | null } {
  try {
    const fd = openLogFile(env);
    return { write: fd === null ? stdout : (line) => writeSync(fd, line), problem: null };
  } catch (err) {
    return { write: stdout, problem: (err as Error).message };
  }
}

const target = destination(process.env);
let sink: (line: string) => void = target.write;

/**
 * Sends every line to `write` instead of the destination (null: back to it); for tests reading the
 * log.
 */
export function writeLogsTo(write: ((line: string) => void) | null): void {
  sink = write ?? target.write;
}

/** Writes a line where the process logs when no test reads them. */
export function writeToDestination(line: string): void {
  target.write(line);
}

/** A bad setting falls back here and stops the start in loadConfig (api/config.ts), named. */
function createLog(env: Env) {
  const pretty = env.PORTOLAN_LOG_FORMAT === "pretty";
  return pino(
    {
      level: LEVELS.includes(env.PORTOLAN_LOG_LEVEL ?? "")
        ? env.PORTOLAN_LOG_LEVEL
        : logLevelFrom({ NODE_ENV: env.NODE_ENV }),
      base: { pid: process.pid },
      serializers: { err: loggedError },
      // Names a caller might pass by mistake; never printed whatever holds them.
      redact: { paths: ["key", "secret", "authorization", "password", "token"], censor: "[redacted]" },
    },
    { write: (line: string) => sink(pretty ? prettyLine(line) : line) },
  );
}

/** The process's logger; children add fields (`log.child({ role: "poller" })`). */
export const log = createLog(process.env);
if (target.problem) log.error(`${target.problem}; logging to stdout`);

/**
 * A `(context, err)` callback for modules that take one (the poller, the dispatcher, schedule
 * sync): an error line from `component`, the context as its message.
 */
export function errorLine(component: string): (context: unknown, err?: unknown) => void {
  return (context, err) => {
    // "[poller]" alone says only who failed: the component field says it already.
    const said = String(context)
      .replace(/^\[[^\]]+\]\s*/, "")
      .replace(/:\s*$/, "");
    log.error({ component, err }, said || `${component} failed`);
  };
}
