/**
 * The container-loading instance generator of Bischoff and Ratcliff (1995), "Issues in the
 * development of approaches to container loading", Omega 23(4): a 587 x 233 x 220 container; per
 * box type three dimensions drawn uniformly from [30, 120], [25, 100] and [20, 80] and sorted
 * largest first; a dimension may stand vertical when it is less than twice the smallest one; every
 * type starts with one box, then boxes of random types are added while the cargo still fits the
 * container's volume. Random numbers: the minimal standard generator (16807 x mod 2^31 - 1), the
 * first 10 discarded. The published sets use seed 2502505 + 100 (p - 1) for instance p and 3, 5,
 * 8, 10, 12, 15, 20 box types for BR1-BR7 (20 to 100 for BR7-BR15).
 */
import { ORIENTATIONS, type RawProblem } from "../../router-wasm/binding/loadplan.ts";

export type GeneratedInstance = {
  set: string;
  instance: number;
  seed: number;
  container: [number, number, number];
  /** length, width, height, quantity, allowed orientations (Bischoff-Ratcliff names). */
  boxes: Array<[number, number, number, number, string[]]>;
};

export const CONTAINER: [number, number, number] = [587, 233, 220];
const LOW = [30, 25, 20];
const HIGH = [120, 100, 80];
const STABILITY = 2;
const MODULUS = 2 ** 31 - 1;

/** The published seed of instance `p` (from 1). */
export const publishedSeed = (p: number): number => 2502505 + 100 * (p - 1);

function minimalStandard(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 16807) % MODULUS; // below 2^46: exact in a double
    return x / MODULUS;
  };
}

/** Names of the orientations keeping each own dimension (0 length, 1 width, 2 height) vertical. */
const VERTICAL: string[][] = [
  ["zyx", "yzx"],
  ["xzy", "zxy"],
  ["xyz", "yxz"],
];

/** One instance of `types` box types from `seed`. */
export function generate(types: number, seed: number): Omit<GeneratedInstance, "set" | "instance"> {
  const random = minimalStandard(seed);
  for (let i = 0; i < 10; i++) random();
  const dims: number[][] = [];
  for (let i = 0; i < types; i++) {
    const d = [0, 1, 2].map((j) => LOW[j]! + Math.floor(random() * (HIGH[j]! - LOW[j]! + 1)));
    dims.push(d.sort((a, b) => b - a));
  }
  const volumes = dims.map((d) => d[0]! * d[1]! * d[2]!);
  const quantity = dims.map(() => 1);
  const target = CONTAINER[0] * CONTAINER[1] * CONTAINER[2];
  let cargo = volumes.reduce((a, b) => a + b, 0);
  for (;;) {
    const k = Math.floor(random() * types);
    if (target < cargo + volumes[k]!) break;
    quantity[k]!++;
    cargo += volumes[k]!;
  }
  const boxes = dims.map((d, i): [number, number, number, number, string[]] => {
    const smallest = Math.min(...d);
    const names = [2, 1, 0].flatMap((j) => (d[j]! / smallest < STABILITY ? VERTICAL[j]! : []));
    return [d[0]!, d[1]!, d[2]!, quantity[i]!, names];
  });
  return { seed, container: [...CONTAINER], boxes };
}

/** `count` instances of `types` box types named `set`, instance p seeded by `seedOf(p)`. */
export function generateSet(
  set: string,
  types: number,
  count: number,
  seedOf: (p: number) => number = publishedSeed,
): GeneratedInstance[] {
  return Array.from({ length: count }, (_, i) => ({
    set,
    instance: i + 1,
    ...generate(types, seedOf(i + 1)),
  }));
}

/** The engine's problem for an instance: one unit of its container, no weights, no centre of gravity
 * bounds. */
export function rawProblem(
  inst: Pick<GeneratedInstance, "container" | "boxes">,
  workBudget: number,
): RawProblem {
  const [length, width, height] = inst.container;
  return {
    items: inst.boxes.map(([l, w, h, quantity, names]) => ({
      length: l,
      width: w,
      height: h,
      quantity,
      orientations: names.reduce(
        (m, n) => m | (1 << ORIENTATIONS.indexOf(n as (typeof ORIENTATIONS)[number])),
        0,
      ),
      weight: 0,
      stackable: true,
      maxLoadOnTop: Number.POSITIVE_INFINITY,
      priority: 0,
    })),
    units: [
      {
        length,
        width,
        height,
        doorWidth: 0,
        doorHeight: 0,
        payload: Number.POSITIVE_INFINITY,
        cost: 1,
        maxCount: 1,
      },
    ],
    params: {
      objective: "fewest_units",
      workBudget,
      cogLongitudinal: Number.POSITIVE_INFINITY,
      cogLateral: Number.POSITIVE_INFINITY,
      maxUnits: 1,
    },
  };
}
