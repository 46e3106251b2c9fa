/** Each played carrier's fleet: plausible names, valid IMO numbers, stable per carrier. */
import { Rng } from "./random.ts";
import type { SandboxScac } from "./world.ts";

export interface Vessel {
  imo: string;
  name: string;
  flag: string;
  callSign: string;
}

const CITIES = [
  "ALGECIRAS",
  "BUSAN",
  "CAPE TOWN",
  "DURBAN",
  "ESSEN",
  "GENOA",
  "HOUSTON",
  "IZMIR",
  "JAKARTA",
  "KOBE",
  "LISBON",
  "MANILA",
  "NAGOYA",
  "OSAKA",
  "PIRAEUS",
  "QUEBEC",
  "SANTOS",
  "TOKYO",
  "VALENCIA",
  "YOKOHAMA",
  "ZEEBRUGGE",
  "AARHUS",
  "BREMEN",
  "CALLAO",
  "DALIAN",
  "GDANSK",
  "HALIFAX",
  "KINGSTON",
  "LIMA",
  "MUMBAI",
];
const GIVEN = [
  "ANNA",
  "BEATRICE",
  "CLARA",
  "DANIELA",
  "ELOANE",
  "FLAVIA",
  "GIOVANNA",
  "HELENA",
  "ISABELLA",
  "JULIA",
  "KATYA",
  "LAURA",
  "MAYA",
  "NOA",
  "OLIVIA",
  "PAOLA",
  "REGINA",
  "SOFIA",
  "TERESA",
  "VALERIA",
  "ALINA",
  "BETTINA",
  "CELINE",
  "DIANA",
  "EMMA",
  "FABIOLA",
  "GRETA",
  "IRENE",
  "LUCIA",
  "MARTA",
];
const NAVIGATORS = [
  "MARCO POLO",
  "MAGELLAN",
  "VASCO DE GAMA",
  "COLUMBUS",
  "AMERIGO VESPUCCI",
  "CABOT",
  "CHAMPLAIN",
  "LA PEROUSE",
  "BOUGAINVILLE",
  "TASMAN",
  "CORTES",
  "HUDSON",
  "BERING",
  "DIAS",
  "ZHENG HE",
  "IBN BATTUTA",
  "CASSINI",
  "LAPLACE",
  "FOURIER",
  "PASCAL",
  "RABELAIS",
  "VOLTAIRE",
  "MOLIERE",
  "CORNEILLE",
];
const STARS = [
  "APUS",
  "AQUILA",
  "CARINA",
  "CYGNUS",
  "DRACO",
  "GRUS",
  "HYDRA",
  "LIBRA",
  "LYRA",
  "ORION",
  "PAVO",
  "PHOENIX",
  "PYXIS",
  "SAGITTA",
  "SCORPIUS",
  "TAURUS",
  "VELA",
  "VOLANS",
  "HARMONY",
  "INNOVATION",
  "OLYMPUS",
  "TRUST",
  "WISDOM",
  "COMPETENCE",
];
const NAMES: Record<SandboxScac, (n: string) => string> = {
  MAEU: (n) => `MAERSK ${n}`,
  MSCU: (n) => `MSC ${n}`,
  CMDU: (n) => `CMA CGM ${n}`,
  HLCU: (n) => `${n} EXPRESS`,
  ONEY: (n) => `ONE ${n}`,
};
const POOLS: Record<SandboxScac, string[]> = {
  MAEU: CITIES,
  MSCU: GIVEN,
  CMDU: NAVIGATORS,
  HLCU: CITIES,
  ONEY: STARS,
};
const FLAGS = ["PA", "LR", "MH", "SG", "DK", "MT", "HK", "DE", "PT", "GB"];
const FLEET_SIZE = 20;

/** IMO check digit: digits 1-6 weighted 7..2, last digit of the sum. */
export function imoCheckDigit(six: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(six[i]) * (7 - i);
  return sum % 10;
}

export function isValidImo(imo: string): boolean {
  return /^\d{7}$/.test(imo) && imoCheckDigit(imo.slice(0, 6)) === Number(imo[6]);
}

const fleets = new Map<SandboxScac, Vessel[]>();

export function fleet(scac: SandboxScac): Vessel[] {
  let ships = fleets.get(scac);
  if (ships) return ships;
  const rng = new Rng(`fleet:${scac}`);
  const pool = [...POOLS[scac]];
  ships = [];
  for (let i = 0; i < FLEET_SIZE && pool.length; i++) {
    const base = pool.splice(rng.int(0, pool.length - 1), 1)[0]!;
    // Hulls built since the mid-1990s carry IMO numbers starting with 9.
    const six = `9${String(rng.int(10000, 99999))}`;
    ships.push({
      imo: `${six}${imoCheckDigit(six)}`,
      name: NAMES[scac](base),
      flag: rng.pick(FLAGS),
      callSign: Array.from({ length: 4 }, () => String.fromCharCode(65 + rng.int(0, 25))).join(""),
    });
  }
  fleets.set(scac, ships);
  return ships;
}
