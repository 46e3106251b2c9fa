/**
 * The process log (common/log.ts) read back as objects, at a level a test chooses. With
 * PORTOLAN_LOG_FILE (which the suite scans for secrets) the lines the process would have logged
 * anyway still reach the file; on the console a test's captured lines stay with the test.
 */
import { log, writeLogsTo, writeToDestination } from "../../common/log.ts";

export interface CapturedLogs {
  lines: Array<Record<string, unknown>>;
  /** Every line as written, for scanning for text that must not appear. */
  text: () => string;
  restore: () => void;
}

export function captureLogs(level = "info"): CapturedLogs {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const before = log.level;
  const toFile = Boolean(process.env.PORTOLAN_LOG_FILE);
  const logged = log.levels.values[before] ?? Number.POSITIVE_INFINITY;
  log.level = level;
  writeLogsTo((line) => {
    raw.push(line);
    const parsed = JSON.parse(line) as Record<string, unknown>;
    lines.push(parsed);
    if (toFile && (parsed.level as number) >= logged) writeToDestination(line);
  });
  return {
    lines,
    text: () => raw.join(""),
    restore: () => {
      writeLogsTo(null);
      log.level = before;
    },
  };
}
