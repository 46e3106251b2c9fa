/**
 * Which carrier a reference belongs to, from ../shared/data/carriers (PORTOLAN_SOURCES):
 * ocean-carriers.csv (SCAC, container and B/L prefixes of the operating lines) and
 * container-owner-prefixes.csv (BIC owner codes). Order: an explicit SCAC hint, then the container
 * owner prefix, then the B/L or booking prefix (a line issues its documents under its own prefix;
 * the longest matching prefix wins). A lessor's word about a box is not resolved here: it is the
 * tracking engine's carrier_hint_code.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { csvRecords } from "../../formats/csv.ts";
import type { ReferenceKind } from "./connector.ts";

export interface OceanCarrier {
  scac: string;
  name: string;
  shortName: string;
  containerPrefixes: string[];
  blPrefixes: string[];
}

export interface CarrierResolution {
  /** The operating carrier the reference names (SCAC hint, container or document prefix). */
  carrier: { scac: string; name: string } | null;
  /** Registered owner of the box per its BIC prefix. */
  owner: string | null;
  /** The owner is a leasing (or trading, or shipper-owned) company, so it says nothing about the line. */
  ownerIsLessor: boolean;
  via: "scac_hint" | "container_prefix" | "bl_prefix" | "none";
}

interface Owner {
  name: string;
  /** The table's line abbreviation; only operating lines have one. */
  abbr: string;
}

const fold = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

export class CarrierDirectory {
  private readonly byScac = new Map<string, OceanCarrier>();
  private readonly byContainerPrefix = new Map<string, OceanCarrier>();
  private readonly byBlPrefix: Array<[string, OceanCarrier]> = [];
  private readonly owners = new Map<string, Owner>();

  private constructor(carriersCsv: string, ownersCsv: string) {
    for (const r of csvRecords(carriersCsv)) {
      const split = (s: string | undefined) =>
        (s ?? "")
          .split("|")
          .map((x) => x.trim().toUpperCase())
          .filter(Boolean);
      const c: OceanCarrier = {
        scac: r.scac!.trim().toUpperCase(),
        name: r.name!.trim(),
        shortName: (r.short_name ?? "").trim(),
        containerPrefixes: split(r.container_prefixes),
        blPrefixes: split(r.bl_prefixes),
      };
      this.byScac.set(c.scac, c);
      for (const p of c.containerPrefixes) this.byContainerPrefix.set(p, c);
      for (const p of c.blPrefixes) this.byBlPrefix.push([p, c]);
    }
    // Longest prefix first so a 4-letter prefix beats a shorter one sharing its start.
    this.byBlPrefix.sort((a, b) => b[0].length - a[0].length);
    for (const r of csvRecords(ownersCsv)) {
      const prefix = r.owner_prefix?.trim().toUpperCase();
      if (prefix) this.owners.set(prefix, { name: r.owner!.trim(), abbr: (r.owner_abbr ?? "").trim() });
    }
  }

  static fromCsv(oceanCarriersCsv: string, ownerPrefixesCsv: string): CarrierDirectory {
    return new CarrierDirectory(oceanCarriersCsv, ownerPrefixesCsv);
  }

  static async load(dir: string = sourcesDirFrom()): Promise<CarrierDirectory> {
    const [carriers, owners] = await Promise.all([
      readFile(join(dir, "carriers/ocean-carriers.csv"), "utf8"),
      readFile(join(dir, "carriers/container-owner-prefixes.csv"), "utf8"),
    ]);
    return new CarrierDirectory(carriers, owners);
  }

  /** Every BIC owner prefix with its owner; `lessor` marks owners that are not operating lines. */
  ownerPrefixes(): Array<{ prefix: string; owner: string; lessor: boolean }> {
    return [...this.owners].map(([prefix, o]) => ({ prefix, owner: o.name, lessor: !o.abbr }));
  }

  carriers(): OceanCarrier[] {
    return [...this.byScac.values()];
  }

  carrier(scac: string): OceanCarrier | null {
    return this.byScac.get(scac.trim().toUpperCase()) ?? null;
  }

  /** The operating line behind a BIC owner prefix, from either table; null for lessors and unknowns. */
  carrierForContainerPrefix(prefix: string): OceanCarrier | null {
    const p = prefix.toUpperCase();
    const direct = this.byContainerPrefix.get(p);
    if (direct) return direct;
    const owner = this.owners.get(p);
    return owner?.abbr ? this.carrierForOwner(owner) : null;
  }

  /** Owner names and abbreviations in the BIC table do not match the carrier table exactly ("Hapag" vs "Hapag-Lloyd"). */
  private carrierForOwner(owner: Owner): OceanCarrier | null {
    const name = fold(owner.name);
    const abbr = fold(owner.abbr);
    for (const c of this.byScac.values()) {
      const short = fold(c.shortName);
      const full = fold(c.name);
      if (abbr === short || name === full) return c;
    }
    for (const c of this.byScac.values()) {
      const short = fold(c.shortName);
      if (short.length >= 3 && (name.startsWith(short) || short.startsWith(abbr) || abbr.startsWith(short)))
        return c;
    }
    return null;
  }

  /** Carrier whose B/L (and booking) prefix starts the reference. */
  carrierForBlPrefix(reference: string): OceanCarrier | null {
    const s = reference.trim().toUpperCase();
    return this.byBlPrefix.find(([p]) => s.startsWith(p))?.[1] ?? null;
  }

  resolve(input: { reference: string; kind: ReferenceKind; scacHint?: string | null }): CarrierResolution {
    const ref = input.reference.trim().toUpperCase().replace(/[\s-]/g, "");
    const prefix = input.kind === "container" ? ref.slice(0, 4) : null;
    const owner = prefix ? (this.owners.get(prefix) ?? null) : null;
    const ownerCarrier = prefix ? this.carrierForContainerPrefix(prefix) : null;
    const base = {
      owner: owner?.name ?? ownerCarrier?.name ?? null,
      ownerIsLessor: owner !== null && !owner.abbr,
    };
    const hinted = input.scacHint ? this.carrier(input.scacHint) : null;
    if (hinted) return { ...base, carrier: pick(hinted), via: "scac_hint" };
    if (ownerCarrier) return { ...base, carrier: pick(ownerCarrier), via: "container_prefix" };
    if (input.kind !== "container") {
      const bl = this.carrierForBlPrefix(ref);
      if (bl) return { ...base, carrier: pick(bl), via: "bl_prefix" };
    }
    return { ...base, carrier: null, via: "none" };
  }
}

const pick = (c: OceanCarrier) => ({ scac: c.scac, name: c.name });
