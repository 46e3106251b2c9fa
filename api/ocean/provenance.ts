/**
 * A lookup record's field_provenance: why each enrichment field is filled or empty, one sentence
 * each (docs/tracking.md, "Field provenance", lists the rules). The fields fall into families that
 * share one entry, and each family's entry is written from a handful of values (the carrier, the
 * destination, whether the ETA is estimated, ...) that many records share. So each family's text
 * is kept per process under those values, and a record read for the first time is answered with
 * texts written for others instead of some 3 kB of objects built and serialised (about 6 us of a
 * first lookup's 74 us of server CPU, docs/tracking.md). An entry is written from its family's
 * values alone (`entry` receives nothing else), so the values are the whole key by construction.
 */

import type { VesselPosition } from "../../ingest/ais/positions.ts";
import type { Demurrage } from "../../ingest/tracking/demurrage.ts";
import type { TrackedRow } from "../../storage/trackings.ts";

export type Provenance = {
  state: "resolved" | "contract_required" | "not_published" | "not_applicable" | "awaiting_carrier";
  action: "supply_terms" | "wait" | "do_not_expect" | "none";
  source: string | null;
  confidence: number | null;
  evidence: string;
};

/** What the provenance of one record is written from. */
export interface ProvenanceSubject {
  row: TrackedRow;
  dem: Demurrage;
  position: VesselPosition | null;
  /** The destination's name as the record shows it. */
  dest: string;
  /** Whether the destination's time zone is known (the last free day is then exact). */
  destZoneKnown: boolean;
}

type Value = string | number | boolean | null;

interface Family {
  /** The record's fields this family's entry explains, in the order the record shows them. */
  fields: readonly string[];
  /** Every value the entry is written from; always as many (they are a path in ProvenanceTexts). */
  values(s: ProvenanceSubject): Value[];
  entry(v: readonly Value[]): Provenance;
}

const carrierOf = (row: TrackedRow) => row.carrierName ?? row.carrierCode ?? "the carrier";

/** The lessor family's values, also the redelivery family's first four (its fallback entry). */
const lessorValues = (row: TrackedRow): Value[] => [
  Boolean(row.ownerIsLessor),
  row.equipmentOwner,
  row.equipmentLessor,
  row.lesseeName,
];

function lessorEntry([isLessor, owner, lessor, lessee]: readonly Value[]): Provenance {
  if (!isLessor) {
    return {
      state: "not_applicable",
      action: "none",
      source: "bic_registry",
      confidence: owner ? 1 : null,
      evidence: owner
        ? `The box belongs to ${owner}, not a leasing company.`
        : "The box's owner is not a leasing company.",
    };
  }
  if (lessor) {
    return {
      state: "resolved",
      action: "none",
      source: "lessor",
      confidence: 1,
      evidence: `${lessor} reports the lease${lessee ? ` to ${lessee}` : ""}.`,
    };
  }
  return {
    state: "not_published",
    action: "do_not_expect",
    source: "lessor",
    confidence: null,
    evidence: `${owner ?? "The lessor"} does not publish lease data to us for this box.`,
  };
}

export const FAMILIES: readonly Family[] = [
  {
    fields: ["eta"],
    values: ({ row, dest }) => [carrierOf(row), dest, Boolean(row.eta), Boolean(row.etaIsEstimated)],
    entry: ([carrier, dest, eta, estimated]) =>
      eta
        ? {
            state: "resolved",
            action: "none",
            source: "carrier",
            confidence: estimated ? 0.7 : 1,
            evidence: estimated
              ? `Latest ${carrier} estimate for arrival at ${dest}.`
              : `Actual arrival at ${dest} reported by ${carrier}.`,
          }
        : {
            state: "awaiting_carrier",
            action: "wait",
            source: "carrier",
            confidence: null,
            evidence: `${carrier} has not published an arrival time yet.`,
          },
  },
  {
    fields: ["vessel_position"],
    values: ({ row, position: p }) =>
      p
        ? [
            true,
            p.position_freshness,
            p.name ?? row.currentVesselName ?? "the carrying vessel",
            p.position_age_hours ?? "?",
          ]
        : [false, Boolean(row.currentVesselImo), null, null],
    entry: ([fix, second, vessel, age]) => {
      if (fix) {
        return {
          state: "resolved",
          action: "none",
          source: "ais",
          confidence: second === "live" ? 1 : second === "recent" ? 0.8 : 0.5,
          evidence: `AIS fix of ${vessel} ${age} h ago (${second}).`,
        };
      }
      return second
        ? {
            state: "awaiting_carrier",
            action: "wait",
            source: "ais",
            confidence: null,
            evidence: "No AIS fix received for the carrying vessel yet.",
          }
        : {
            state: "not_applicable",
            action: "none",
            source: null,
            confidence: null,
            evidence: "The box is not aboard a vessel right now.",
          };
    },
  },
  {
    fields: ["customs_hold_reason"],
    values: ({ row }) => [carrierOf(row), Boolean(row.customsHoldSince), Boolean(row.customsHoldReason)],
    entry: ([carrier, held, reason]) =>
      held
        ? reason
          ? {
              state: "resolved",
              action: "none",
              source: "carrier",
              confidence: 1,
              evidence: `${carrier} reported the hold with its reason.`,
            }
          : {
              state: "not_published",
              action: "do_not_expect",
              source: "carrier",
              confidence: null,
              evidence: `${carrier} reported a hold without naming its reason.`,
            }
        : {
            state: "not_applicable",
            action: "none",
            source: null,
            confidence: null,
            evidence: "No customs hold is active.",
          },
  },
  {
    fields: ["demurrage_free_days_left", "demurrage_last_free_day", "demurrage_accrued_usd"],
    values: ({ row, dem, dest, destZoneKnown }) => [
      carrierOf(row),
      dest,
      dem.stopped,
      dem.terms ? dem.terms.freeDays : null,
      dem.lastFreeDay,
      destZoneKnown,
    ],
    entry: ([carrier, port, stopped, freeDays, lastFreeDay, zoneKnown]) => {
      if (stopped) {
        return {
          state: "not_applicable",
          action: "none",
          source: null,
          confidence: null,
          evidence: "The box has left the terminal: the clock stopped at gate-out.",
        };
      }
      if (freeDays === null) {
        return {
          state: "contract_required",
          action: "supply_terms",
          source: null,
          confidence: null,
          evidence: `No free-time terms are on file for ${carrier} at ${port}.`,
        };
      }
      if (!lastFreeDay) {
        return {
          state: "awaiting_carrier",
          action: "wait",
          source: "terms",
          confidence: null,
          evidence: `Free time starts at discharge in ${port}, which ${carrier} has not reported yet.`,
        };
      }
      return {
        state: "resolved",
        action: "none",
        source: "terms",
        confidence: zoneKnown ? 1 : 0.8,
        evidence: `${freeDays} free days from discharge in ${port}: last free day ${lastFreeDay}.`,
      };
    },
  },
  {
    fields: [
      "equipment_lessor",
      "lessee_name",
      "lessor_status",
      "lessor_contract_number",
      "lessor_contract_type",
      "equipment_manufacturer",
    ],
    values: ({ row }) => lessorValues(row),
    entry: lessorEntry,
  },
  {
    fields: ["redelivery_reference", "redelivery_date", "redelivery_location", "redelivery_yard"],
    values: ({ row }) => [
      ...lessorValues(row),
      Boolean(row.redeliveryDate),
      row.redeliveryYard ?? row.redeliveryLocation,
      row.lessorContractType,
    ],
    entry: (v) => {
      const [isLessor, , lessor, , booked, yard, contract] = v;
      if (!isLessor || !lessor) return lessorEntry(v);
      if (booked) {
        return {
          state: "resolved",
          action: "none",
          source: "lessor",
          confidence: 1,
          evidence: `One-way lease: the empty goes back to ${yard}.`,
        };
      }
      return {
        state: "not_applicable",
        action: "none",
        source: "lessor",
        confidence: 1,
        evidence: `A ${contract ?? "term"} lease has no redelivery booked for this trip.`,
      };
    },
  },
  {
    fields: ["container_size", "iso_type_code", "equipment_type"],
    values: ({ row }) => [Boolean(row.containerSize)],
    entry: ([size]) =>
      size
        ? {
            state: "resolved",
            action: "none",
            source: "carrier",
            confidence: 1,
            evidence: "Derived from the ISO 6346 size-type code the carrier reported.",
          }
        : {
            state: "awaiting_carrier",
            action: "wait",
            source: "carrier",
            confidence: null,
            evidence: "The carrier has not reported the size-type code yet.",
          },
  },
  {
    fields: ["equipment_owner"],
    values: ({ row }) => [
      row.equipmentOwner,
      row.identifier.slice(0, 4),
      row.containerNumber ? row.containerNumber.slice(0, 4) : null,
    ],
    entry: ([owner, prefix, boxPrefix]) =>
      owner
        ? {
            state: "resolved",
            action: "none",
            source: "bic_registry",
            confidence: 1,
            evidence: `BIC owner prefix ${prefix} is registered to ${owner}.`,
          }
        : {
            state: "not_published",
            action: "do_not_expect",
            source: "bic_registry",
            confidence: null,
            evidence:
              boxPrefix !== null
                ? `Owner prefix ${boxPrefix} is not in the BIC registry we hold.`
                : "No container number yet.",
          },
  },
];

/** The provenance as objects: each family's entry, shared by the fields it explains. */
export function provenance(s: ProvenanceSubject): Record<string, Provenance> {
  const out: Record<string, Provenance> = {};
  for (const family of FAMILIES) {
    const entry = family.entry(family.values(s));
    for (const field of family.fields) out[field] = entry;
  }
  return out;
}

/** One level of a family's texts: a map per value, the last value's holding the text. */
type Level = Map<Value, Level | string>;

/**
 * Each family's `"field":entry` members by the values they are written from, one map level per
 * value: a Map tells null, "", false and 0 apart and hashes each value once, where a key string
 * made of the values cost more than half of what it saved (measured 2026-12-05). Kept until `bound`
 * texts, then dropped together (each is a few hundred bytes and quick to write again); a bound of 0
 * keeps none.
 */
export class ProvenanceTexts {
  private roots: Level[] = FAMILIES.map(() => new Map());
  private count = 0;

  constructor(readonly bound: number) {}

  get size(): number {
    return this.count;
  }

  members(family: number, values: readonly Value[]): string {
    let level = this.roots[family]!;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = level.get(values[i]!) as Level | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(values[i]!, next);
      }
      level = next;
    }
    const kept = level.get(values[last]!) as string | undefined;
    if (kept !== undefined) return kept;
    const { fields, entry } = FAMILIES[family]!;
    const text = JSON.stringify(entry(values));
    const members = fields.map((field) => `${JSON.stringify(field)}:${text}`).join(",");
    if (this.bound <= 0) return members;
    if (this.count >= this.bound) {
      this.roots = FAMILIES.map(() => new Map());
      this.count = 0;
      return members;
    }
    level.set(values[last]!, members);
    this.count++;
    return members;
  }
}

/** JSON.stringify(provenance(s)), byte for byte, from the texts of records with the same values. */
export function provenanceJson(texts: ProvenanceTexts, s: ProvenanceSubject): string {
  let json = `{${texts.members(0, FAMILIES[0]!.values(s))}`;
  for (let i = 1; i < FAMILIES.length; i++) json += `,${texts.members(i, FAMILIES[i]!.values(s))}`;
  return `${json}}`;
}
