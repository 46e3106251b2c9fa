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
    reference: "MAEU4988977",
    kind: "container",
    scac: "MAEU",
    scenario: "in_transit",
    note: "USSAV → CNTAO",
  },
  {
    reference: "MAEU3508564",
    kind: "container",
    scac: "MAEU",
    scenario: "discharged",
    note: "ESVLC → TRMER",
  },
  {
    reference: "MSAU7630917",
    kind: "container",
    scac: "MAEU",
    scenario: "customs_hold",
    note: "BRSSZ → MTMAR → AEJEA, Customs hold: X-ray examination ordered",
  },
  {
    reference: "MSKU1744785",
    kind: "container",
    scac: "MAEU",
    scenario: "missed_connection",
    note: "GBLGP → DEHAM → CNSHA, rolled at DEHAM onto a later sailing",
  },
  {
    reference: "MAEU200015838",
    kind: "bill_of_lading",
    scac: "MAEU",
    scenario: "bill_of_lading",
    boxes: 3,
    note: "3 boxes INMUN → EGPSD → BRSSZ",
  },
  {
    reference: "MAEU200007919",
    kind: "booking",
    scac: "MAEU",
    scenario: "booking",
    boxes: 3,
    note: "3 boxes CNTAG → MAPTM, planned to sail on start day + 2",
  },
  {
    reference: "MAEU0000008",
    kind: "container",
    scac: "MAEU",
    scenario: "returned_empty",
    note: "CNTAO → TWKHH",
  },
  {
    reference: "MSCU2375717",
    kind: "container",
    scac: "MSCU",
    scenario: "in_transit",
    note: "JPYOK → PAONX",
  },
  {
    reference: "MSCU5508562",
    kind: "container",
    scac: "MSCU",
    scenario: "discharged",
    note: "SGSIN → SAJED",
  },
  {
    reference: "MSZU3868149",
    kind: "container",
    scac: "MSCU",
    scenario: "customs_hold",
    note: "TWKHH → TRMER, Customs hold: documentary check of the commercial invoice",
  },
  {
    reference: "MSDU3628881",
    kind: "container",
    scac: "MSCU",
    scenario: "missed_connection",
    note: "JPYOK → KRPUS → COCTG, rolled at KRPUS onto a later sailing",
  },
  {
    reference: "MEDU200142542",
    kind: "bill_of_lading",
    scac: "MSCU",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes AEKHL → DEHAM → USLGB",
  },
  {
    reference: "MEDU200104248",
    kind: "booking",
    scac: "MSCU",
    scenario: "booking",
    boxes: 4,
    note: "4 boxes CLSAI → SGSIN → VNCMT, planned to sail on start day + 3",
  },
  {
    reference: "MSCU0000007",
    kind: "container",
    scac: "MSCU",
    scenario: "returned_empty",
    note: "CNRZH → JPTYO",
  },
  {
    reference: "CMAU1663002",
    kind: "container",
    scac: "CMDU",
    scenario: "in_transit",
    note: "KRPUS → USHOU",
  },
  {
    reference: "CMAU3325998",
    kind: "container",
    scac: "CMDU",
    scenario: "discharged",
    note: "SGSIN → MYTPP → JPOSA",
  },
  {
    reference: "CGMU0690589",
    kind: "container",
    scac: "CMDU",
    scenario: "customs_hold",
    note: "CNQZL → HKHKG → DEHAM, Customs hold: X-ray examination ordered",
  },
  {
    reference: "CMAU7127120",
    kind: "container",
    scac: "CMDU",
    scenario: "missed_connection",
    note: "JPUKB → TWKHH → AUSYD, rolled at TWKHH onto a later sailing",
  },
  {
    reference: "CMDU200128185",
    kind: "bill_of_lading",
    scac: "CMDU",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes USLGB → AEJEA → INMUN",
  },
  {
    reference: "CMDU200000000",
    kind: "booking",
    scac: "CMDU",
    scenario: "booking",
    boxes: 3,
    note: "3 boxes TRIZT → ITGOA, planned to sail on start day + 2",
  },
  {
    reference: "CMAU0475130",
    kind: "container",
    scac: "CMDU",
    scenario: "returned_empty",
    note: "ESALG → CNCAN",
  },
  {
    reference: "HLCU1662993",
    kind: "container",
    scac: "HLCU",
    scenario: "in_transit",
    note: "CAMTR → USLGB",
  },
  {
    reference: "HLCU4276280",
    kind: "container",
    scac: "HLCU",
    scenario: "discharged",
    note: "MYTPP → CNNGB",
  },
  {
    reference: "HLCU5226534",
    kind: "container",
    scac: "HLCU",
    scenario: "customs_hold",
    note: "THLCH → TWKHH → JPTYO, Customs hold: physical inspection ordered",
  },
  {
    reference: "HLXU6696876",
    kind: "container",
    scac: "HLCU",
    scenario: "missed_connection",
    note: "MYTPP → HKHKG → CNDLC, rolled at HKHKG onto a later sailing",
  },
  {
    reference: "HLCU200514735",
    kind: "bill_of_lading",
    scac: "HLCU",
    scenario: "bill_of_lading",
    boxes: 3,
    note: "3 boxes SGSIN → GRPIR → MAPTM",
  },
  {
    reference: "HLCU200118785",
    kind: "booking",
    scac: "HLCU",
    scenario: "booking",
    boxes: 3,
    note: "3 boxes BRSSZ → VNCMT, planned to sail on start day + 1",
  },
  {
    reference: "HLCU0950296",
    kind: "container",
    scac: "HLCU",
    scenario: "returned_empty",
    note: "JMKIN → USHOU",
  },
  {
    reference: "ONEU1425428",
    kind: "container",
    scac: "ONEY",
    scenario: "in_transit",
    note: "KRINC → RULED",
  },
  {
    reference: "MOLU1381170",
    kind: "container",
    scac: "ONEY",
    scenario: "discharged",
    note: "CNNGB → MTMAR",
  },
  {
    reference: "MOLU5182270",
    kind: "container",
    scac: "ONEY",
    scenario: "customs_hold",
    note: "SGSIN → VNCMT, Customs hold: physical inspection ordered",
  },
  {
    reference: "ONEU4276267",
    kind: "container",
    scac: "ONEY",
    scenario: "missed_connection",
    note: "ITGIT → MTMAR → VNHPH, rolled at MTMAR onto a later sailing",
  },
  {
    reference: "ONEY200964652",
    kind: "bill_of_lading",
    scac: "ONEY",
    scenario: "bill_of_lading",
    boxes: 4,
    note: "4 boxes TRMER → AEJEA → PKKHI",
  },
  {
    reference: "ONEY200015838",
    kind: "booking",
    scac: "ONEY",
    scenario: "booking",
    boxes: 3,
    note: "3 boxes CNDLC → MYPKG, planned to sail on start day + 3",
  },
  {
    reference: "ONEU0000007",
    kind: "container",
    scac: "ONEY",
    scenario: "returned_empty",
    note: "HKHKG → CNFOC",
  },
];

const DEMO_SET = new Set(DEMO_REFERENCES.map((d) => d.reference));

export const isDemoReference = (reference: string): boolean => DEMO_SET.has(reference.trim().toUpperCase());
