/**
 * Carrier connectors by kind: what each configured carrier (PORTOLAN_CARRIERS) becomes. DCSA Track
 * & Trace 2.2 is the one kind today; another kind is one entry in CONNECTOR_KINDS, building its
 * connector (the one-method seam in connector.ts) from its settings.
 */
import { countingErrors } from "../connector-errors.ts";
import { type CarrierConnector, DcsaConnector, type DcsaConnectorConfig } from "./connector.ts";

/** What every connector may use besides its own settings. */
export interface ConnectorContext {
  /** The caller's clock (ms). */
  now: () => number;
}

const CONNECTOR_KINDS = {
  dcsa: (settings: DcsaConnectorConfig, ctx: ConnectorContext) =>
    new DcsaConnector({ now: ctx.now, ...settings }),
} satisfies Record<string, (settings: DcsaConnectorConfig, ctx: ConnectorContext) => CarrierConnector>;

export type ConnectorKind = keyof typeof CONNECTOR_KINDS;

/** A configured carrier: its connector's kind ("dcsa" when not given) and that kind's settings. */
export type CarrierConfig = DcsaConnectorConfig & { kind?: string };

/**
 * The configured carriers' connectors, by SCAC. A kind no entry of CONNECTOR_KINDS names stops the
 * start with the kinds there are (looked up as an own key: a kind like "constructor" is unknown).
 */
export function carrierConnectors(
  configs: readonly CarrierConfig[],
  ctx: ConnectorContext,
): Map<string, CarrierConnector> {
  return new Map(
    configs.map(({ kind = "dcsa", ...settings }) => {
      if (!Object.hasOwn(CONNECTOR_KINDS, kind)) {
        const known = Object.keys(CONNECTOR_KINDS).join(", ");
        throw new Error(`carrier ${settings.scac}: unknown connector kind "${kind}" (known: ${known})`);
      }
      const connector = CONNECTOR_KINDS[kind as ConnectorKind](settings, ctx);
      return [
        settings.scac,
        countingErrors(connector, "fetchEvents", { kind: "carrier", line: settings.scac }),
      ];
    }),
  );
}
