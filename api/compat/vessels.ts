/**
 * vessels[]: every hull the timeline names, deduplicated by IMO and by canonical name (so a call
 * without an IMO joins the same hull named elsewhere with one), numbered from 1.
 */
import type { Vessel, VesselFields } from "./shapes.ts";

export interface VesselInput {
  imo?: string;
  name?: string;
  callSign?: string;
  flag?: string;
}

/** Upper case, single spaces, without the M/V-style prefixes carriers add inconsistently. */
export function canonicalVesselName(name: string): string {
  return name
    .trim()
    .toUpperCase()
    .replace(/\s+/g, " ")
    .replace(/^(?:M\/V|MV|M\/S|MS|MV\.|M\.V\.)\s+/, "");
}

export class VesselBook {
  readonly vessels: Vessel[] = [];
  private readonly byImo = new Map<number, Vessel>();
  private readonly byName = new Map<string, Vessel>();

  /** mmsiOf: the hull's MMSI from AIS static data, null when we never heard it. */
  constructor(private readonly mmsiOf: (imo: number) => number | null) {}

  id(v: VesselInput): number | null {
    const imo = v.imo && /^\d{7}$/.test(v.imo) ? Number(v.imo) : null;
    const name = v.name ? canonicalVesselName(v.name) : null;
    if (imo === null && !name) return null;
    let vessel =
      (imo !== null ? this.byImo.get(imo) : undefined) ?? (name ? this.byName.get(name) : undefined);
    if (!vessel) {
      vessel = {
        id: this.vessels.length + 1,
        name: name ?? `IMO ${imo}`,
        imo: null,
        call_sign: null,
        mmsi: null,
        flag: null,
      };
      this.vessels.push(vessel);
    }
    // Later calls fill what earlier ones left out.
    if (vessel.imo === null && imo !== null) {
      vessel.imo = imo;
      vessel.mmsi = this.mmsiOf(imo);
    }
    vessel.call_sign ??= v.callSign ?? null;
    vessel.flag ??= v.flag ?? null;
    if (vessel.imo !== null) this.byImo.set(vessel.imo, vessel);
    if (name) this.byName.set(name, vessel);
    return vessel.id;
  }

  /** The vendor's vessel object without its id (route legs, the AIS block). */
  fields(id: number): VesselFields {
    const { id: _, ...rest } = this.vessels[id - 1]!;
    return rest;
  }
}
