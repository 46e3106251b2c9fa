/**
 * Sample references (docs/sandbox-carrier.md): the tracking engine marks these is_demo. Scenarios
 * hold around the default epoch (2026-11-21, clock between epoch + 6 h and epoch + 30 h); set
 * SANDBOX_EPOCH to a recent day to bring them back to the same states later.
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
  note: string;
}

export const DEMO_REFERENCES: readonly DemoReference[] = [
  {
    reference: "MAEU4988977",
    kind: "container",
    scac: "MAEU",
    scenario: "in_transit",
    note: "USSAV → CNTAO",
  },
  {
    reference: "MAEU0712717",
    kind: "container",
    scac: "MAEU",
    scenario: "discharged",
    note: "CNTAO → SAJED",
  },
  {
    reference: "MSAU2999878",
    kind: "container",
    scac: "MAEU",
    scenario: "customs_hold",
    note: "CNCAN → DEBRV Customs hold: X-ray examination ordered",
  },
  {
    reference: "MSKU8767972",
    kind: "container",
    scac: "MAEU",
    scenario: "missed_connection",
    note: "CNYIK → ESALG → MAPTM, onward sailing 2026-11-25T02:00:00Z",
  },
  {
    reference: "MAEU200015838",
    kind: "bill_of_lading",
    scac: "MAEU",
    scenario: "bill_of_lading",
    note: "3 boxes INMUN → EGPSD → BRSSZ",
  },
  {
    reference: "MAEU200007919",
    kind: "booking",
    scac: "MAEU",
    scenario: "booking",
    note: "3 boxes CNTAG → MAPTM, departs 2026-11-25T16:00:00Z",
  },
  { reference: "MAEU0000008", kind: "container", scac: "MAEU", scenario: "returned_empty", note: "" },
  {
    reference: "MSCU2375717",
    kind: "container",
    scac: "MSCU",
    scenario: "in_transit",
    note: "JPYOK → PAONX",
  },
  {
    reference: "MSCU5226569",
    kind: "container",
    scac: "MSCU",
    scenario: "discharged",
    note: "CNTAG → MAPTM",
  },
  {
    reference: "MSZU0143077",
    kind: "container",
    scac: "MSCU",
    scenario: "customs_hold",
    note: "USNYC → MAPTM Customs hold: documentary check of the commercial invoice",
  },
  {
    reference: "MSDU4944713",
    kind: "container",
    scac: "MSCU",
    scenario: "missed_connection",
    note: "COCTG → JMKIN → JPYOK, onward sailing 2026-11-30T18:00:00Z",
  },
  {
    reference: "MEDU200142542",
    kind: "bill_of_lading",
    scac: "MSCU",
    scenario: "bill_of_lading",
    note: "4 boxes AEKHL → DEHAM → USLGB",
  },
  {
    reference: "MEDU200324679",
    kind: "booking",
    scac: "MSCU",
    scenario: "booking",
    note: "3 boxes MXZLO → CNSZX, departs 2026-11-28T10:00:00Z",
  },
  { reference: "MSCU0000007", kind: "container", scac: "MSCU", scenario: "returned_empty", note: "" },
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
    note: "SGSIN → JPOSA",
  },
  {
    reference: "CGMU0690589",
    kind: "container",
    scac: "CMDU",
    scenario: "customs_hold",
    note: "CNQZL → DEHAM Customs hold: X-ray examination ordered",
  },
  {
    reference: "CMAU7127120",
    kind: "container",
    scac: "CMDU",
    scenario: "missed_connection",
    note: "JPUKB → TWKHH → AUSYD, onward sailing 2026-11-18T05:00:00Z",
  },
  {
    reference: "CMDU200118785",
    kind: "bill_of_lading",
    scac: "CMDU",
    scenario: "bill_of_lading",
    note: "3 boxes TWTXG → HKHKG → DEHAM",
  },
  {
    reference: "CMDU200000000",
    kind: "booking",
    scac: "CMDU",
    scenario: "booking",
    note: "3 boxes TRIZT → ITGOA, departs 2026-11-23T08:00:00Z",
  },
  { reference: "CMAU0475130", kind: "container", scac: "CMDU", scenario: "returned_empty", note: "" },
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
    note: "THLCH → JPTYO Customs hold: physical inspection ordered",
  },
  {
    reference: "HLXU6867407",
    kind: "container",
    scac: "HLCU",
    scenario: "missed_connection",
    note: "CNCAN → HKHKG → LKCMB, onward sailing 2026-11-24T14:00:00Z",
  },
  {
    reference: "HLCU200514735",
    kind: "bill_of_lading",
    scac: "HLCU",
    scenario: "bill_of_lading",
    note: "3 boxes SGSIN → GRPIR → MAPTM",
  },
  {
    reference: "HLCU200118785",
    kind: "booking",
    scac: "HLCU",
    scenario: "booking",
    note: "3 boxes BRSSZ → VNCMT, departs 2026-11-25T17:00:00Z",
  },
  { reference: "HLCU0950296", kind: "container", scac: "HLCU", scenario: "returned_empty", note: "" },
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
    note: "SGSIN → VNCMT Customs hold: physical inspection ordered",
  },
  {
    reference: "ONEU4276267",
    kind: "container",
    scac: "ONEY",
    scenario: "missed_connection",
    note: "ITGIT → MTMAR → VNHPH, onward sailing 2026-11-14T20:00:00Z",
  },
  {
    reference: "ONEY200142542",
    kind: "bill_of_lading",
    scac: "ONEY",
    scenario: "bill_of_lading",
    note: "3 boxes ITGIT → MTMAR → VNHPH",
  },
  {
    reference: "ONEY200015838",
    kind: "booking",
    scac: "ONEY",
    scenario: "booking",
    note: "3 boxes CNDLC → MYPKG, departs 2026-11-24T06:00:00Z",
  },
  { reference: "ONEU0000007", kind: "container", scac: "ONEY", scenario: "returned_empty", note: "" },
];

const DEMO_SET = new Set(DEMO_REFERENCES.map((d) => d.reference));

export const isDemoReference = (reference: string): boolean => DEMO_SET.has(reference.trim().toUpperCase());
