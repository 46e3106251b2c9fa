/**
 * A dispatcher's attempts in flight, per endpoint and per organisation, and the caps that keep one
 * endpoint, or one organisation however many endpoints it has, from taking every slot: a receiver
 * that hangs until the timeout holds only its endpoint's share, and an organisation's hanging
 * receivers together only its share (docs/webhooks.md, Fairness).
 */
import type { Admission } from "../../storage/webhooks.ts";
import type { WebhookConfig } from "./config.ts";

type Caps = Pick<WebhookConfig, "endpointConcurrency" | "orgConcurrency">;

const bump = (m: Map<string, number>, key: string, by: number) => {
  const n = (m.get(key) ?? 0) + by;
  if (n > 0) m.set(key, n);
  else m.delete(key);
};

const at = (m: ReadonlyMap<string, number>, cap: number) =>
  [...m].filter(([, n]) => n >= cap).map(([key]) => key);

/** One claim's admission: the counts in flight when it starts, plus what it takes. */
class ClaimSlots implements Admission {
  private readonly endpoints: Map<string, number>;
  private readonly orgs: Map<string, number>;

  constructor(
    flight: InFlight,
    private readonly caps: Caps,
  ) {
    this.endpoints = new Map(flight.endpoints);
    this.orgs = new Map(flight.orgs);
  }

  take(endpointId: string, orgId: string): boolean {
    if ((this.endpoints.get(endpointId) ?? 0) >= this.caps.endpointConcurrency) return false;
    if ((this.orgs.get(orgId) ?? 0) >= this.caps.orgConcurrency) return false;
    bump(this.endpoints, endpointId, 1);
    bump(this.orgs, orgId, 1);
    return true;
  }

  full() {
    return {
      endpoints: at(this.endpoints, this.caps.endpointConcurrency),
      orgs: at(this.orgs, this.caps.orgConcurrency),
    };
  }
}

/** Attempts in flight per endpoint id and per organisation id (entries at zero are removed). */
export class InFlight {
  readonly endpoints = new Map<string, number>();
  readonly orgs = new Map<string, number>();

  started(endpointId: string, orgId: string): void {
    bump(this.endpoints, endpointId, 1);
    bump(this.orgs, orgId, 1);
  }

  ended(endpointId: string, orgId: string): void {
    bump(this.endpoints, endpointId, -1);
    bump(this.orgs, orgId, -1);
  }

  /** What one claim may take on top of these, within the caps; a claim that fails just drops it. */
  admission(caps: Caps): Admission {
    return new ClaimSlots(this, caps);
  }
}
