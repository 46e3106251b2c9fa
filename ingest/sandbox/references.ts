/**
 * The sandbox's reference scheme. Every container number with a valid check digit and one of a
 * played carrier's owner prefixes belongs to exactly one shipment of 2 to 4 boxes: serials are
 * grouped in runs of nine, each run split into three consecutive shipments of 2, 3 and 4 boxes
 * (order drawn per run). A shipment's B/L number and booking number are the same: the carrier's
 * first B/L prefix + 9 digits, BL_BASE + the shipment's index. Any other 9 digits are accepted too
 * (an alias of the shipment at that index modulo the carrier's shipment count), so any number a
 * user types is trackable; only canonical numbers are printed on the boxes' own events.
 */
import { type ContainerValidation, validateContainerNumber, withCheckDigit } from "../iso6346.ts";
import { Rng } from "./random.ts";
import { SANDBOX_SCACS, type SandboxScac, type SandboxWorld } from "./world.ts";

const RUN = 9;
const RUNS_PER_PREFIX = Math.ceil(1_000_000 / RUN);
const SPLITS = [
  [2, 3, 4],
  [2, 4, 3],
  [3, 2, 4],
  [3, 4, 2],
  [4, 2, 3],
  [4, 3, 2],
] as const;
const BL_BASE = 200_000_000;

export type SandboxRefKind = "container" | "bill_of_lading" | "booking";

export interface ShipmentKey {
  scac: SandboxScac;
  /** Index of the shipment within the carrier's space. */
  index: number;
}

export interface ResolvedReference {
  shipment: ShipmentKey;
  /** The B/L (= booking) number as events print it: the queried one for a B/L or booking query. */
  documentNumber: string;
  /** Set on a container query. */
  container: string | null;
}

export type ReferenceLookup =
  | { ok: true; ref: ResolvedReference }
  | { ok: false; status: 400 | 404; message: string };

/**
 * A line's box space: its own owner prefixes, then every leasing company's prefix. A leased run of
 * nine serials sails for one line only (lesseeOf), so a leased box belongs to exactly one shipment.
 */
function prefixesOf(world: SandboxWorld, scac: SandboxScac): string[] {
  return [...world.carriers.get(scac)!.containerPrefixes, ...world.leased.keys()];
}

/** The line a run of leased boxes is on hire to. */
export function lesseeOf(prefix: string, serial: number): SandboxScac {
  return new Rng(`lessee:${prefix}:${Math.floor(serial / RUN)}`).pick(SANDBOX_SCACS);
}

function shipmentsPerCarrier(world: SandboxWorld, scac: SandboxScac): number {
  return prefixesOf(world, scac).length * RUNS_PER_PREFIX * 3;
}

function split(scac: SandboxScac, prefix: string, run: number): readonly number[] {
  return new Rng(`split:${scac}:${prefix}:${run}`).pick(SPLITS);
}

export function canonicalDocumentNumber(world: SandboxWorld, key: ShipmentKey): string {
  const prefix = world.carriers.get(key.scac)!.blPrefixes[0]!;
  return `${prefix}${String(BL_BASE + key.index).padStart(9, "0")}`;
}

/** The boxes of a shipment, in serial order. */
export function shipmentContainers(world: SandboxWorld, key: ShipmentKey): string[] {
  const prefixes = prefixesOf(world, key.scac);
  const part = key.index % 3;
  const run = Math.floor(key.index / 3) % RUNS_PER_PREFIX;
  const prefix = prefixes[Math.floor(key.index / 3 / RUNS_PER_PREFIX)]!;
  const sizes = split(key.scac, prefix, run);
  const start = run * RUN + sizes.slice(0, part).reduce((a, b) => a + b, 0);
  const boxes: string[] = [];
  for (let s = start; s < start + sizes[part]! && s < 1_000_000; s++)
    boxes.push(withCheckDigit(`${prefix}${String(s).padStart(6, "0")}`));
  return boxes;
}

function containerShipment(world: SandboxWorld, scac: SandboxScac, number: string): ShipmentKey {
  const prefixes = prefixesOf(world, scac);
  const prefix = number.slice(0, 4);
  const serial = Number(number.slice(4, 10));
  const run = Math.floor(serial / RUN);
  const sizes = split(scac, prefix, run);
  let offset = serial % RUN;
  let part = 0;
  while (offset >= sizes[part]!) offset -= sizes[part++]!;
  return { scac, index: (prefixes.indexOf(prefix) * RUNS_PER_PREFIX + run) * 3 + part };
}

/** Resolves a query for the carrier `scac`; 400 for malformed numbers, 404 for another carrier's. */
export function lookupReference(
  world: SandboxWorld,
  scac: SandboxScac,
  kind: SandboxRefKind,
  raw: string,
): ReferenceLookup {
  const carrier = world.carriers.get(scac)!;
  const value = raw.trim().toUpperCase();
  if (kind === "container") {
    const v: ContainerValidation = validateContainerNumber(value);
    if (!v.ok) return { ok: false, status: 400, message: `equipmentReference ${value}: ${v.message}` };
    const prefix = v.number.slice(0, 4);
    const leasedHere = world.leased.has(prefix) && lesseeOf(prefix, Number(v.number.slice(4, 10))) === scac;
    if (!carrier.containerPrefixes.includes(prefix) && !leasedHere)
      return { ok: false, status: 404, message: `${v.number} is not ${carrier.shortName} equipment` };
    const shipment = containerShipment(world, scac, v.number);
    return {
      ok: true,
      ref: { shipment, documentNumber: canonicalDocumentNumber(world, shipment), container: v.number },
    };
  }
  const m = /^([A-Z]{4})(\d{9})$/.exec(value);
  if (!m) {
    return {
      ok: false,
      status: 400,
      message: `${value}: a ${carrier.shortName} ${kind === "booking" ? "booking" : "B/L"} number is ${carrier.blPrefixes.join(" or ")} + 9 digits`,
    };
  }
  if (!carrier.blPrefixes.includes(m[1]!))
    return { ok: false, status: 404, message: `${value} is not a ${carrier.shortName} document` };
  const count = shipmentsPerCarrier(world, scac);
  const index = (((Number(m[2]) - BL_BASE) % count) + count) % count;
  return { ok: true, ref: { shipment: { scac, index }, documentNumber: value, container: null } };
}

export function isSandboxScac(s: string): s is SandboxScac {
  return (SANDBOX_SCACS as readonly string[]).includes(s);
}
