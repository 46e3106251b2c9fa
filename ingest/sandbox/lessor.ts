/**
 * The sandbox lessor: lease data for every leased box the sandbox lines carry (GET
 * /lessor/v1/units/{number}). Deterministic per box; on-hire until the box's empty is returned,
 * then off-hire. One-way leases carry redelivery details (where and when the empty goes back).
 */
import { validateContainerNumber } from "../iso6346.ts";
import { Rng } from "./random.ts";
import { lesseeOf } from "./references.ts";
import type { SimulatedVoyage } from "./simulate.ts";
import type { SandboxWorld } from "./world.ts";

const MANUFACTURERS = [
  "CIMC",
  "Singamas",
  "CXIC Group",
  "Dong Fang International",
  "Maersk Container Industry",
];
const CONTRACTS = ["long-term", "master-lease", "one-way"] as const;

export interface LessorUnit {
  unit: string;
  lessor: string;
  lessee: { name: string; scac: string } | null;
  status: "on-hire" | "off-hire";
  contract: { number: string; type: string };
  redelivery: { reference: string; date: string; location: string; yard: string } | null;
  manufacturer: string;
  checked_at: string;
}

export function lessorUnit(
  world: SandboxWorld,
  raw: string,
  now: number,
  voyageOf: (number: string) => SimulatedVoyage | null,
): LessorUnit | null {
  const v = validateContainerNumber(raw);
  if (!v.ok) return null;
  const prefix = v.number.slice(0, 4);
  const lessor = world.leased.get(prefix);
  if (!lessor) return null;
  const scac = lesseeOf(prefix, Number(v.number.slice(4, 10)));
  const rng = new Rng(`lease:${v.number}`);
  const voyage = voyageOf(v.number);
  const box = voyage?.containers.find((c) => c.number === v.number);
  const returned = box ? Date.parse(box.milestones.emptyReturn) <= now : false;
  const type = rng.pick(CONTRACTS);
  const destination = voyage?.destination;
  const code = lessor
    .replace(/[^A-Za-z]/g, "")
    .slice(0, 3)
    .toUpperCase();
  return {
    unit: v.number,
    lessor,
    lessee: { name: world.carriers.get(scac)!.name, scac },
    status: returned ? "off-hire" : "on-hire",
    contract: {
      number: `${code}-${scac}-${rng.int(2018, 2026)}-${String(rng.int(1, 9999)).padStart(4, "0")}`,
      type,
    },
    redelivery:
      type === "one-way" && box && destination
        ? {
            reference: `RDL${String(rng.int(0, 99_999_999)).padStart(8, "0")}`,
            date: box.milestones.emptyReturn.slice(0, 10),
            location: destination.locode,
            yard: `${destination.name} ${lessor.split(" ")[0]} depot`,
          }
        : null,
    manufacturer: rng.pick(MANUFACTURERS),
    checked_at: new Date(now).toISOString(),
  };
}
