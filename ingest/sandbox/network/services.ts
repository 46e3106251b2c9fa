/**
 * The liner services the sandbox carriers run: port rotations through the main container ports
 * (../shared/data/ports/main-container-ports.csv, carrier codes as the sandbox world spells them),
 * a weekly or fortnightly frequency and a service speed. Everything else (leg durations, round
 * trip, hull count, dated sailings) is derived in ./network.ts. A hull sails one service only, so
 * each carrier's services together need at most its fleet (fleet.ts, 20 hulls).
 */
import type { SandboxScac } from "../world.ts";

export interface ServiceSpec {
  scac: SandboxScac;
  /** carrierServiceCode (at most 11 characters). */
  code: string;
  name: string;
  /** Port calls in order; the last leg returns to the first port, where the next sailing starts. */
  rotation: string[];
  /** Index of the first call of the return half: voyage numbers change direction there. */
  turn: number;
  /** Direction letters of the outbound and return halves (DCSA: N, E, W, S). */
  directions: [string, string];
  frequencyDays: 7 | 14;
  knots: number;
}

export const SERVICE_SPECS: readonly ServiceSpec[] = [
  // Maersk: Asia - North Europe, transpacific, transatlantic.
  {
    scac: "MAEU",
    code: "AE1",
    name: "Asia Europe 1",
    rotation: ["CNSHA", "CNNGB", "SGSIN", "NLRTM", "DEBRV", "GBFXT"],
    turn: 3,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  {
    scac: "MAEU",
    code: "TP6",
    name: "Transpacific 6",
    rotation: ["CNSHA", "KRPUS", "USLAX", "USOAK"],
    turn: 2,
    directions: ["E", "W"],
    frequencyDays: 7,
    knots: 17,
  },
  {
    scac: "MAEU",
    code: "TA2",
    name: "Transatlantic 2",
    rotation: ["NLRTM", "DEBRV", "USNYC", "USSAV"],
    turn: 2,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 16,
  },
  // MSC: Asia - Mediterranean, Asia - India/Middle East, transatlantic.
  {
    scac: "MSCU",
    code: "DRAGON",
    name: "Dragon",
    rotation: ["CNNGB", "CNSHA", "HKHKG", "SGSIN", "EGPSD", "ITGIT", "ESVLC"],
    turn: 4,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  {
    scac: "MSCU",
    code: "INDUS",
    name: "Indus",
    rotation: ["SGSIN", "LKCMB", "INNSA", "PKKHI", "AEJEA"],
    turn: 2,
    directions: ["W", "E"],
    frequencyDays: 7,
    knots: 16,
  },
  {
    scac: "MSCU",
    code: "AMERICAS",
    name: "Americas",
    rotation: ["BEANR", "DEHAM", "USNYC", "USORF", "USCHS"],
    turn: 2,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 16,
  },
  // CMA CGM: Asia - North Europe, Asia - Mediterranean, Mediterranean - America.
  {
    scac: "CMDU",
    code: "FAL1",
    name: "French Asia Line 1",
    rotation: ["CNSHA", "CNXMN", "HKHKG", "SGSIN", "GBSOU", "DEHAM", "NLRTM", "FRLEH"],
    turn: 4,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  {
    scac: "CMDU",
    code: "MEX1",
    name: "Mediterranean Asia Express 1",
    rotation: ["CNTAO", "CNSHA", "SGSIN", "MTMAR", "ITGOA", "ESBCN"],
    turn: 3,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  {
    scac: "CMDU",
    code: "MEDUSA",
    name: "Med US Atlantic",
    rotation: ["MTMAR", "ITGOA", "USNYC", "USSAV"],
    turn: 2,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 16,
  },
  // Hapag-Lloyd: Asia - North Europe, transatlantic, Asia - Middle East.
  {
    scac: "HLCU",
    code: "FE2",
    name: "Far East Loop 2",
    rotation: ["CNTAO", "CNSHA", "CNNGB", "SGSIN", "NLRTM", "DEHAM", "GBSOU"],
    turn: 4,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  {
    scac: "HLCU",
    code: "AL5",
    name: "Atlantic Loop 5",
    rotation: ["DEHAM", "BEANR", "USNYC", "USSAV", "USHOU"],
    turn: 2,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 16,
  },
  {
    scac: "HLCU",
    code: "AIM",
    name: "Asia India Middle East",
    rotation: ["CNSHA", "SGSIN", "INNSA", "AEJEA"],
    turn: 2,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  // ONE: Asia - North Europe, transpacific, intra-Asia.
  {
    scac: "ONEY",
    code: "FP1",
    name: "Far East Pendulum 1",
    rotation: ["JPTYO", "CNSHA", "SGSIN", "NLRTM", "DEHAM", "GBSOU"],
    turn: 3,
    directions: ["W", "E"],
    frequencyDays: 14,
    knots: 17,
  },
  {
    scac: "ONEY",
    code: "PS3",
    name: "Pacific South 3",
    rotation: ["JPTYO", "JPNGO", "USLAX", "USOAK"],
    turn: 2,
    directions: ["E", "W"],
    frequencyDays: 7,
    knots: 17,
  },
  {
    scac: "ONEY",
    code: "JTV",
    name: "Japan Thailand Vietnam",
    rotation: ["JPTYO", "KRPUS", "TWKHH", "VNSGN", "THLCH"],
    turn: 3,
    directions: ["S", "N"],
    frequencyDays: 7,
    knots: 16,
  },
];
