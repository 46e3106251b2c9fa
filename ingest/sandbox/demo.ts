/**
 * Sample references (README, docs/sandbox-carrier.md): the tracking engine marks these is_demo. Each
 * shows its scenario's documented state (DEMO_STATES) through the tracking API from 00:00 UTC on the
 * epoch day to DEMO_HOURS.to hours later, for any epoch at 00:00 UTC (voyages are drawn relative to
 * SANDBOX_EPOCH, which the default start sets to today). test/sandbox/demo-states.test.ts tracks
 * every one through a platform; replacements must pass it.
 */
export type DemoScenario =
  | "in_transit"
  | "discharged"
  | "customs_hold"
  | "missed_connection"
  | "bill_of_lading"
  | "booking"
  | "returned_empty";

export interface DemoReference {
  reference: string;
  kind: "container" | "bill_of_lading" | "booking";
  scac: string;
  scenario: DemoScenario;
  /** Boxes behind a B/L or booking. */
  boxes?: number;
  /** Route (origin → hub → destination) and what to look at; dates count from the start day. */
  note: string;
}

/** Hours after the epoch (00:00 UTC of the start day) between which every state below holds. */
export const DEMO_HOURS = { from: 0, to: 36 } as const;

/** What tracking a demo reference shows (the record and, for a B/L or booking, each of its boxes). */
export interface DemoState {
  /** Column heading of README's demo table. */
  heading: string;
  status: "in_transit" | "discharged" | "customs_hold" | "returned_empty";
  routeAlert: "missed_connection" | null;
  /** customs_hold_reason is set. */
  customsHold: boolean;
  /**
   * Left its origin: poll_priority is past pre_departure. A booking not sailed yet still reads
   * in_transit: its booking and pick-up events are actual ones (docs/tracking.md).
   */
  sailed: boolean;
  /** Closed out as soon as it is read (archived_at set). */
  archived: boolean;
}

const base = { routeAlert: null, customsHold: false, sailed: true, archived: false } as const;
export const DEMO_STATES: Record<DemoScenario, DemoState> = {
  in_transit: { ...base, heading: "in transit", status: "in_transit" },
  discharged: { ...base, heading: "discharged", status: "discharged" },
  customs_hold: { ...base, heading: "customs hold", status: "customs_hold", customsHold: true },
  missed_connection: {
    ...base,
    heading: "missed connection",
    status: "in_transit",
    routeAlert: "missed_connection",
  },
  bill_of_lading: { ...base, heading: "B/L (3-4 boxes in transit)", status: "in_transit" },
  booking: { ...base, heading: "booking (not sailed yet)", status: "in_transit", sailed: false },
  returned_empty: { ...base, heading: "empty returned", status: "returned_empty", archived: true },
};

export const DEMO_REFERENCES: readonly DemoReference[] = [
  {
    reference: "MRKU0158387",
    kind: "container",
    scac: "MAEU",
    scenario: "in_transit",
    note: "SGSIN → NLRTM",
  },
  {
    reference: "MAEU2569159",
    kind: "container",
    scac: "MAEU",
    scenario: "discharged",
    note: "USLAX → CNSHA",
  },
  {
    reference: "MAEU4254206",
    kind: "container",
    scac: "MAEU",
    scenario: "customs_hold",
    note: "NLRTM → CNSHA, Customs hold: physical inspection ordered",
  },
  {
    reference: "MSKU9106853",
    kind: "container",
    scac: "MAEU",
    scenario: "missed_connection",
    note: "CNNGB → NLRTM → USSAV, rolled at NLRTM onto a later sailing",
  },
  {
    reference: "MAEU200000005",
    kind: "bill_of_lading",
    scac: "MAEU",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes SGSIN → NLRTM → USSAV",
  },
  {
    reference: "MAEU200007919",
    kind: "booking",
    scac: "MAEU",
    scenario: "booking",
    boxes: 3,
    note: "3 boxes NLRTM → CNSHA → KRPUS, planned to sail on start day + 2",
  },
  {
    reference: "MAEU0000008",
    kind: "container",
    scac: "MAEU",
    scenario: "returned_empty",
    note: "NLRTM → CNSHA → KRPUS",
  },
  {
    reference: "MSCU2375717",
    kind: "container",
    scac: "MSCU",
    scenario: "in_transit",
    note: "CNNGB → ESVLC",
  },
  {
    reference: "MEDU8394140",
    kind: "container",
    scac: "MSCU",
    scenario: "discharged",
    note: "CNSHA → HKHKG",
  },
  {
    reference: "MEDU4543816",
    kind: "container",
    scac: "MSCU",
    scenario: "customs_hold",
    note: "AEJEA → SGSIN, Customs hold: X-ray examination ordered",
  },
  {
    reference: "MEDU0316769",
    kind: "container",
    scac: "MSCU",
    scenario: "missed_connection",
    note: "HKHKG → SGSIN → AEJEA, rolled at SGSIN onto a later sailing",
  },
  {
    reference: "MEDU200142542",
    kind: "bill_of_lading",
    scac: "MSCU",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes CNSHA → SGSIN → INNSA",
  },
  {
    reference: "MEDU200000182",
    kind: "booking",
    scac: "MSCU",
    scenario: "booking",
    boxes: 4,
    note: "4 boxes SGSIN → EGPSD, planned to sail on start day + 3",
  },
  {
    reference: "MSCU0475147",
    kind: "container",
    scac: "MSCU",
    scenario: "returned_empty",
    note: "HKHKG → EGPSD",
  },
  {
    reference: "CMAU1663002",
    kind: "container",
    scac: "CMDU",
    scenario: "in_transit",
    note: "CNSHA → MTMAR",
  },
  {
    reference: "CMAU6867478",
    kind: "container",
    scac: "CMDU",
    scenario: "discharged",
    note: "USSAV → MTMAR → CNTAO",
  },
  {
    reference: "CMAU0763624",
    kind: "container",
    scac: "CMDU",
    scenario: "customs_hold",
    note: "HKHKG → SGSIN → ITGOA, Customs hold: physical inspection ordered",
  },
  {
    reference: "CMAU5182427",
    kind: "container",
    scac: "CMDU",
    scenario: "missed_connection",
    note: "CNXMN → SGSIN → ESBCN, rolled at SGSIN onto a later sailing",
  },
  {
    reference: "CMDU200128185",
    kind: "bill_of_lading",
    scac: "CMDU",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes DEHAM → CNXMN",
  },
  {
    reference: "CMDU200000042",
    kind: "booking",
    scac: "CMDU",
    scenario: "booking",
    boxes: 4,
    note: "4 boxes CNSHA → MTMAR → USSAV, planned to sail on start day + 1",
  },
  {
    reference: "CMAU0475130",
    kind: "container",
    scac: "CMDU",
    scenario: "returned_empty",
    note: "CNSHA → NLRTM",
  },
  {
    reference: "HLCU0475149",
    kind: "container",
    scac: "HLCU",
    scenario: "in_transit",
    note: "CNNGB → SGSIN → AEJEA",
  },
  {
    reference: "HLXU2217321",
    kind: "container",
    scac: "HLCU",
    scenario: "discharged",
    note: "GBSOU → CNSHA",
  },
  {
    reference: "HLXU8842136",
    kind: "container",
    scac: "HLCU",
    scenario: "customs_hold",
    note: "CNNGB → SGSIN → AEJEA, Customs hold: X-ray examination ordered",
  },
  {
    reference: "HLBU7003794",
    kind: "container",
    scac: "HLCU",
    scenario: "missed_connection",
    note: "CNSHA → SGSIN → GBSOU, rolled at SGSIN onto a later sailing",
  },
  {
    reference: "HLCU200000022",
    kind: "bill_of_lading",
    scac: "HLCU",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes CNSHA → SGSIN",
  },
  {
    reference: "HLCU200000246",
    kind: "booking",
    scac: "HLCU",
    scenario: "booking",
    boxes: 4,
    note: "4 boxes SGSIN → AEJEA, planned to sail on start day + 2",
  },
  {
    reference: "HLBU0395950",
    kind: "container",
    scac: "HLCU",
    scenario: "returned_empty",
    note: "CNTAO → GBSOU",
  },
  {
    reference: "ONEU1425428",
    kind: "container",
    scac: "ONEY",
    scenario: "in_transit",
    note: "USLAX → JPTYO → VNSGN",
  },
  {
    reference: "MOLU0285655",
    kind: "container",
    scac: "ONEY",
    scenario: "discharged",
    note: "VNSGN → JPTYO → USOAK",
  },
  {
    reference: "ONEU8438849",
    kind: "container",
    scac: "ONEY",
    scenario: "customs_hold",
    note: "VNSGN → JPTYO → USOAK, Customs hold: physical inspection ordered",
  },
  {
    reference: "ONEU0237576",
    kind: "container",
    scac: "ONEY",
    scenario: "missed_connection",
    note: "USLAX → JPTYO → SGSIN, rolled at JPTYO onto a later sailing",
  },
  {
    reference: "ONEY200000002",
    kind: "bill_of_lading",
    scac: "ONEY",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes NLRTM → CNSHA",
  },
  {
    reference: "ONEY200000064",
    kind: "booking",
    scac: "ONEY",
    scenario: "booking",
    boxes: 3,
    note: "3 boxes DEHAM → JPTYO → TWKHH, planned to sail on start day + 3",
  },
  {
    reference: "ONEU0000007",
    kind: "container",
    scac: "ONEY",
    scenario: "returned_empty",
    note: "USOAK → JPTYO → KRPUS",
  },
];

const DEMO_SET = new Set(DEMO_REFERENCES.map((d) => d.reference));

export const isDemoReference = (reference: string): boolean => DEMO_SET.has(reference.trim().toUpperCase());
