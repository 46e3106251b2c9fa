/**
 * field_provenance's text from the per-process texts (api/ocean/provenance.ts) against the
 * objects serialised, over records drawn from small sets of values, so that records sharing some
 * of a family's values and not others follow each other through one cache: a value left out of a
 * family's key would answer one record with another's text.
 */
import { expect, test } from "bun:test";
import { getTableColumns } from "drizzle-orm";
import fc from "fast-check";
import {
  FAMILIES,
  type ProvenanceSubject,
  ProvenanceTexts,
  provenance,
  provenanceJson,
} from "../../api/ocean/provenance.ts";
import type { VesselPosition } from "../../ingest/ais/positions.ts";
import { computeDemurrage, type Demurrage } from "../../ingest/tracking/demurrage.ts";
import { tracked } from "../../storage/schema.ts";
import type { TrackedRow } from "../../storage/trackings.ts";

/** Every column of a tracked row, null. */
const NULL_ROW = Object.fromEntries(Object.keys(getTableColumns(tracked)).map((k) => [k, null]));

const text = (...xs: string[]) => fc.constantFrom<string | null>(null, "", ...xs);
const flag = fc.constantFrom<boolean | null>(null, false, true);

const row = fc.record({
  identifier: fc.constantFrom("MSCU1234565", "TGHU7654320"),
  containerNumber: text("MSCU1234565", "TGHU7654320"),
  carrierName: text("Maersk"),
  carrierCode: text("MSCU"),
  eta: text("2026-12-09T06:00:00Z"),
  etaIsEstimated: flag,
  currentVesselImo: text("9811000"),
  currentVesselName: text("EVER GIVEN"),
  customsHoldSince: text("2026-12-01T00:00:00Z"),
  customsHoldReason: text("Documents"),
  ownerIsLessor: fc.boolean(),
  equipmentOwner: text("Triton", "MSC"),
  equipmentLessor: text("Triton"),
  lesseeName: text("Maersk"),
  redeliveryDate: text("2026-12-20"),
  redeliveryYard: text("Yard 7"),
  redeliveryLocation: text("NLRTM"),
  lessorContractType: text("master"),
  containerSize: text("40HC"),
  destinationUnlocode: text("NLRTM"),
});

const demurrage = fc.record({
  stopped: fc.boolean(),
  terms: fc.option(fc.constantFrom(0, 5), { nil: null }),
  lastFreeDay: text("2026-12-14"),
});

const position = fc.option(
  fc.record({
    name: text("EVER GIVEN", "MSC OSCAR"),
    position_age_hours: fc.constantFrom<number | null>(null, 0, 3),
    position_freshness: fc.constantFrom("live", "recent", "stale"),
  }),
  { nil: null },
);

const subject: fc.Arbitrary<ProvenanceSubject> = fc
  .record({
    row,
    dem: demurrage,
    position,
    dest: fc.constantFrom("Unknown", "Rotterdam", "NLRTM"),
    destZoneKnown: fc.boolean(),
  })
  .map(({ row, dem, position, dest, destZoneKnown }) => ({
    row: { ...NULL_ROW, ...row } as unknown as TrackedRow,
    dem: {
      terms:
        dem.terms === null
          ? null
          : {
              id: "t",
              carrierCode: null,
              portUnlocode: null,
              equipment: null,
              freeDays: dem.terms,
              dailyRateUsd: null,
              createdAt: "2026-11-01T00:00:00Z",
            },
      lastFreeDay: dem.lastFreeDay,
      freeDaysLeft: null,
      accruedUsd: null,
      atRisk: false,
      phase: "none",
      stopped: dem.stopped,
    } satisfies Demurrage,
    position: position && ({ ...position } as unknown as VesselPosition),
    dest,
    destZoneKnown,
  }));

test("provenance texts equal the objects serialised, whatever records went through the cache before", () => {
  fc.assert(
    fc.property(
      fc.array(subject, { minLength: 1, maxLength: 80 }),
      fc.constantFrom(0, 3, 4096),
      (subjects, bound) => {
        const texts = new ProvenanceTexts(bound);
        for (const s of subjects) expect(provenanceJson(texts, s)).toBe(JSON.stringify(provenance(s)));
      },
    ),
    { numRuns: 300 },
  );
});

test("each family gives the same number of values for every record (a path in the texts)", () => {
  for (const [i, family] of FAMILIES.entries()) {
    const lengths = new Set(
      fc.sample(subject, { numRuns: 500, seed: i }).map((s) => family.values(s).length),
    );
    expect([family.fields[0], lengths.size]).toEqual([family.fields[0], 1]);
  }
});

test("one family's text is shared by records that differ elsewhere; a value of its own is not", () => {
  const texts = new ProvenanceTexts(100);
  const base = fc.sample(subject, { numRuns: 1, seed: 7 })[0]!;
  const other = { ...base, row: { ...base.row, carrierName: "Another line", carrierCode: "ANLU" } };
  provenanceJson(texts, base);
  const families = texts.size;
  provenanceJson(texts, { ...base, row: { ...base.row, lessorContractType: "one-way" } });
  // The lessor contract type only goes into the redelivery family: one new text at most.
  expect(texts.size - families).toBeLessThanOrEqual(1);
  const before = texts.size;
  const json = JSON.parse(provenanceJson(texts, other)) as Record<string, { evidence: string }>;
  // The carrier is in the eta, customs and demurrage families: each a new text.
  expect(texts.size - before).toBe(3);
  expect(json.eta!.evidence).toContain("Another line");
});

/** A box on a Maersk voyage to Rotterdam, nothing else known. */
const BASE_ROW = {
  ...NULL_ROW,
  identifier: "MSKU1234565",
  containerNumber: "MSKU1234565",
  carrierName: "Maersk",
  ownerIsLessor: false,
  destinationUnlocode: "NLRTM",
} as unknown as TrackedRow;

const BASE: ProvenanceSubject = {
  row: BASE_ROW,
  dem: computeDemurrage(BASE_ROW, null, 0, null),
  position: null,
  dest: "Rotterdam",
  destZoneKnown: true,
};

const TERMS = {
  id: "t",
  carrierCode: null,
  portUnlocode: null,
  equipment: null,
  freeDays: 5,
  dailyRateUsd: 150,
  createdAt: "2026-11-01T00:00:00Z",
};

const FIX = {
  name: "MAERSK ESSEN",
  position_age_hours: 2,
  position_freshness: "recent",
} as unknown as VesselPosition;

/** The rules docs/tracking.md ("Field provenance") states: a record, a field, what it shows. */
const RULES: Array<[string, Partial<TrackedRow>, Partial<ProvenanceSubject>, string, unknown[]]> = [
  [
    "estimated ETA",
    { eta: "2026-12-09T06:00:00Z", etaIsEstimated: true },
    {},
    "eta",
    ["resolved", "none", "carrier", 0.7, "Latest Maersk estimate for arrival at Rotterdam."],
  ],
  [
    "actual arrival",
    { eta: "2026-12-09T06:00:00Z", etaIsEstimated: false },
    {},
    "eta",
    ["resolved", "none", "carrier", 1, "Actual arrival at Rotterdam reported by Maersk."],
  ],
  [
    "no ETA yet",
    {},
    {},
    "eta",
    ["awaiting_carrier", "wait", "carrier", null, "Maersk has not published an arrival time yet."],
  ],
  [
    "recent AIS fix",
    { currentVesselImo: "9632179" },
    { position: FIX },
    "vessel_position",
    ["resolved", "none", "ais", 0.8, "AIS fix of MAERSK ESSEN 2 h ago (recent)."],
  ],
  [
    "aboard, no fix",
    { currentVesselImo: "9632179" },
    {},
    "vessel_position",
    ["awaiting_carrier", "wait", "ais", null, "No AIS fix received for the carrying vessel yet."],
  ],
  [
    "not aboard",
    {},
    {},
    "vessel_position",
    ["not_applicable", "none", null, null, "The box is not aboard a vessel right now."],
  ],
  [
    "hold without reason",
    { customsHoldSince: "2026-12-01T00:00:00Z" },
    {},
    "customs_hold_reason",
    ["not_published", "do_not_expect", "carrier", null, "Maersk reported a hold without naming its reason."],
  ],
  [
    "no terms",
    {},
    {},
    "demurrage_accrued_usd",
    [
      "contract_required",
      "supply_terms",
      null,
      null,
      "No free-time terms are on file for Maersk at Rotterdam.",
    ],
  ],
  [
    "terms, not discharged",
    {},
    { dem: { ...BASE.dem, terms: TERMS } },
    "demurrage_last_free_day",
    [
      "awaiting_carrier",
      "wait",
      "terms",
      null,
      "Free time starts at discharge in Rotterdam, which Maersk has not reported yet.",
    ],
  ],
  [
    "terms, discharged, zone unknown",
    {},
    { dem: { ...BASE.dem, terms: TERMS, lastFreeDay: "2026-12-14" }, destZoneKnown: false },
    "demurrage_free_days_left",
    ["resolved", "none", "terms", 0.8, "5 free days from discharge in Rotterdam: last free day 2026-12-14."],
  ],
  [
    "gated out",
    {},
    { dem: { ...BASE.dem, terms: TERMS, stopped: true } },
    "demurrage_free_days_left",
    ["not_applicable", "none", null, null, "The box has left the terminal: the clock stopped at gate-out."],
  ],
  [
    "leased, lessor silent",
    { ownerIsLessor: true, equipmentOwner: "Triton" },
    {},
    "lessee_name",
    [
      "not_published",
      "do_not_expect",
      "lessor",
      null,
      "Triton does not publish lease data to us for this box.",
    ],
  ],
  [
    "leased, reported",
    { ownerIsLessor: true, equipmentLessor: "Triton", lesseeName: "Maersk" },
    {},
    "lessor_status",
    ["resolved", "none", "lessor", 1, "Triton reports the lease to Maersk."],
  ],
  [
    "one-way lease",
    {
      ownerIsLessor: true,
      equipmentLessor: "Triton",
      redeliveryDate: "2026-12-20",
      redeliveryLocation: "NLRTM",
    },
    {},
    "redelivery_yard",
    ["resolved", "none", "lessor", 1, "One-way lease: the empty goes back to NLRTM."],
  ],
  [
    "owner's own box",
    { equipmentOwner: "Maersk" },
    {},
    "redelivery_date",
    ["not_applicable", "none", "bic_registry", 1, "The box belongs to Maersk, not a leasing company."],
  ],
  [
    "size-type reported",
    { containerSize: "40HC" },
    {},
    "iso_type_code",
    ["resolved", "none", "carrier", 1, "Derived from the ISO 6346 size-type code the carrier reported."],
  ],
  [
    "owner prefix known",
    { equipmentOwner: "Maersk" },
    {},
    "equipment_owner",
    ["resolved", "none", "bic_registry", 1, "BIC owner prefix MSKU is registered to Maersk."],
  ],
  [
    "owner prefix unknown",
    {},
    {},
    "equipment_owner",
    [
      "not_published",
      "do_not_expect",
      "bic_registry",
      null,
      "Owner prefix MSKU is not in the BIC registry we hold.",
    ],
  ],
];

test.each(RULES)(
  "provenance rule: %s",
  (_, row, rest, field, [state, action, source, confidence, evidence]) => {
    const s = { ...BASE, ...rest, row: { ...BASE.row, ...row } };
    const texts = new ProvenanceTexts(100);
    // Once to fill the texts, once from them: both the rule.
    for (let i = 0; i < 2; i++) {
      const shown = (JSON.parse(provenanceJson(texts, s)) as Record<string, unknown>)[field];
      expect(shown).toEqual({ state, action, source, confidence, evidence });
    }
  },
);
