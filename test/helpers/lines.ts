/**
 * The lines a child process writes, as they come: wait for the first one matching a pattern. The
 * keys and webhook secrets among them are recorded for the secrets gate (issued-secrets.ts).
 */
import { recordPrinted } from "./issued-secrets.ts";

export interface Lines {
  all: string[];
  /** The first line (seen or to come) matching `pattern`; rejects if the stream ends first. */
  next(pattern: RegExp, what: string): Promise<string>;
}

export function linesOf(stream: ReadableStream<Uint8Array>): Lines {
  const all: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of stream) {
      const parts = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = parts.pop()!;
      for (const line of parts) recordPrinted(line);
      all.push(...parts);
      for (const w of waiters) w();
    }
    if (rest) {
      recordPrinted(rest);
      all.push(rest);
    }
    ended = true;
    for (const w of waiters) w();
  })();
  return {
    all,
    next: (pattern, what) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = all.find((l) => pattern.test(l));
          if (hit !== undefined || ended) waiters.delete(check);
          if (hit !== undefined) resolve(hit);
          else if (ended) reject(new Error(`the output ended without ${what}:\n${all.join("\n")}`));
        };
        waiters.add(check);
        check();
      }),
  };
}
