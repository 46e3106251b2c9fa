/**
 * Carrier and airline connectors with their failures counted (portolan_connector_errors_total, by
 * line and the failure's kind) and the lines whose latest call failed kept for /readyz: the
 * connector itself is untouched, its calling method wrapped on an object that inherits everything
 * else from it.
 */
import { connectorErrors } from "../common/metrics.ts";

/** "carrier MAEU" -> the failure kind of its latest call, while that call failed. */
const failing = new Map<string, string>();

/** The lines whose latest call failed as unreachable (a refusal of one reference says nothing). */
export function unreachableLines(): string[] {
  return [...failing].filter(([, kind]) => kind === "unavailable").map(([line]) => line);
}

export function countingErrors<C extends object, M extends keyof C & string>(
  connector: C,
  method: M,
  labels: { kind: "carrier" | "airline"; line: string },
): C {
  const call = connector[method] as (...args: unknown[]) => Promise<unknown>;
  const counted = Object.create(connector) as C;
  const name = `${labels.kind} ${labels.line}`;
  Object.defineProperty(counted, method, {
    value: (...args: unknown[]) =>
      call.apply(connector, args).then(
        (answer) => {
          failing.delete(name);
          return answer;
        },
        (err: unknown) => {
          const kind = (err as { kind?: unknown }).kind;
          const error = typeof kind === "string" ? kind : "other";
          connectorErrors.inc({ ...labels, error });
          failing.set(name, error);
          throw err;
        },
      ),
  });
  return counted;
}
