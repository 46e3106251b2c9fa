/**
 * Lessor connectors: who leases a box, to whom, on what contract and where it goes back. The HTTP
 * connector speaks the small unit API documented in docs/sandbox-carrier.md (the sandbox lessor
 * serves it); a real lessor's API plugs in behind the same interface.
 */

export interface LessorRecord {
  lessor: string;
  lesseeName: string | null;
  /** The lessee's SCAC when it is an ocean line: a carrier hint, never a confirmed carrier. */
  lesseeScac: string | null;
  status: string | null;
  contractNumber: string | null;
  contractType: string | null;
  redeliveryReference: string | null;
  redeliveryDate: string | null;
  redeliveryLocation: string | null;
  redeliveryYard: string | null;
  manufacturer: string | null;
  checkedAt: string;
}

export interface LessorConnector {
  name: string;
  /** The unit's lease data, or null when this lessor does not know the box. */
  lookup(containerNumber: string): Promise<LessorRecord | null>;
}

export interface HttpLessorConfig {
  name: string;
  baseUrl: string;
  apiKey?: string;
  timeoutMs?: number;
}

interface UnitBody {
  lessor: string;
  lessee: { name: string; scac: string | null } | null;
  status: string | null;
  contract: { number: string; type: string } | null;
  redelivery: { reference: string; date: string; location: string; yard: string } | null;
  manufacturer: string | null;
  checked_at: string;
}

export class HttpLessorConnector implements LessorConnector {
  readonly name: string;
  constructor(private readonly config: HttpLessorConfig) {
    this.name = config.name;
  }

  async lookup(containerNumber: string): Promise<LessorRecord | null> {
    const url = `${this.config.baseUrl.replace(/\/+$/, "")}/v1/units/${encodeURIComponent(containerNumber)}`;
    const res = await fetch(url, {
      headers: this.config.apiKey ? { "API-Key": this.config.apiKey } : {},
      signal: AbortSignal.timeout(this.config.timeoutMs ?? 10_000),
    });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`lessor ${this.name}: HTTP ${res.status}`);
    const u = (await res.json()) as UnitBody;
    return {
      lessor: u.lessor,
      lesseeName: u.lessee?.name ?? null,
      lesseeScac: u.lessee?.scac ?? null,
      status: u.status,
      contractNumber: u.contract?.number ?? null,
      contractType: u.contract?.type ?? null,
      redeliveryReference: u.redelivery?.reference ?? null,
      redeliveryDate: u.redelivery?.date ?? null,
      redeliveryLocation: u.redelivery?.location ?? null,
      redeliveryYard: u.redelivery?.yard ?? null,
      manufacturer: u.manufacturer,
      checkedAt: u.checked_at,
    };
  }
}
