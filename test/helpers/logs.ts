/** The process log (common/log.ts) read back as objects, at a level a test chooses. */
import { log, writeLogsTo } from "../../common/log.ts";

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
  log.level = level;
  writeLogsTo((line) => {
    raw.push(line);
    lines.push(JSON.parse(line));
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
