/**
 * An independent checker of load plans for the tests and the bench: recomputes every physical rule
 * from the placements alone (none of the engine's code), and lists what breaks.
 */
import { ORIENTATIONS } from "../../router-wasm/binding/loadplan.ts";

export interface CheckItem {
  length: number;
  width: number;
  height: number;
  /** Bitmask over ORIENTATIONS. */
  orientations: number;
  weight: number;
  stackable: boolean;
  /** Infinity = no limit. */
  maxLoadOnTop: number;
}

export interface CheckUnit {
  length: number;
  width: number;
  height: number;
  /** 0 = no door limit. */
  doorWidth: number;
  doorHeight: number;
  /** Infinity = no limit. */
  payload: number;
}

export interface CheckBox {
  item: number;
  x: number;
  y: number;
  z: number;
  length: number;
  width: number;
  height: number;
  loadOrder: number;
}

const TOL = 1e-6;

/** Placed (length, width, height) of each allowed orientation, from the orientation names. */
function allowedShapes(it: CheckItem): string[] {
  const dim = { x: it.length, y: it.width, z: it.height };
  return ORIENTATIONS.filter((_, k) => it.orientations & (1 << k)).map((name) =>
    [...name].map((c) => dim[c as "x" | "y" | "z"]).join("x"),
  );
}

const footprintOverlap = (a: CheckBox, b: CheckBox): number => {
  const dx = Math.min(a.x + a.length, b.x + b.length) - Math.max(a.x, b.x);
  const dy = Math.min(a.y + a.width, b.y + b.width) - Math.max(a.y, b.y);
  return dx > 0 && dy > 0 ? dx * dy : 0;
};

/**
 * Rule violations of one unit's boxes: orientation, door, inside, overlap, full support, load on
 * top (a box passes its weight plus its own top load down to the boxes under it, shared by contact
 * area), payload, centre of gravity (weighted; unchecked when nothing weighs anything) and load
 * order (each box after those it stands on).
 */
export function unitViolations(
  items: CheckItem[],
  unit: CheckUnit,
  boxes: CheckBox[],
  cog: { longitudinal: number; lateral: number },
): string[] {
  const out: string[] = [];
  boxes.forEach((b, i) => {
    const it = items[b.item]!;
    if (!allowedShapes(it).includes(`${b.length}x${b.width}x${b.height}`))
      out.push(`box ${i}: ${b.length}x${b.width}x${b.height} is no allowed orientation of item ${b.item}`);
    if (unit.doorWidth > 0 && (b.width > unit.doorWidth || b.height > unit.doorHeight))
      out.push(`box ${i}: does not pass the door`);
    if (b.x < 0 || b.y < 0 || b.z < 0 || b.x + b.length > unit.length || b.y + b.width > unit.width)
      out.push(`box ${i}: outside the unit`);
    if (b.z + b.height > unit.height) out.push(`box ${i}: above the roof`);
  });
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      const dz = Math.min(a.z + a.height, b.z + b.height) - Math.max(a.z, b.z);
      if (dz > 0 && footprintOverlap(a, b) > 0) out.push(`boxes ${i} and ${j} overlap`);
    }
  }
  // Supporters of each box: tops at exactly its base height.
  const under = boxes.map((b) =>
    b.z === 0
      ? []
      : boxes
          .map((c, k) => ({ k, area: c.z + c.height === b.z ? footprintOverlap(b, c) : 0 }))
          .filter((s) => s.area > 0),
  );
  boxes.forEach((b, i) => {
    if (b.z === 0) return;
    const covered = under[i]!.reduce((s, x) => s + x.area, 0);
    if (covered !== b.length * b.width) out.push(`box ${i}: base ${covered}/${b.length * b.width} supported`);
    for (const s of under[i]!) {
      if (!items[boxes[s.k]!.item]!.stackable) out.push(`box ${i}: stands on box ${s.k}, not stackable`);
      if (boxes[s.k]!.loadOrder > b.loadOrder) out.push(`box ${i}: loaded before box ${s.k} under it`);
    }
  });
  // Loads, top down.
  const onTop = new Array<number>(boxes.length).fill(0);
  const byHeight = boxes.map((_, i) => i).sort((a, b) => boxes[b]!.z - boxes[a]!.z);
  for (const i of byHeight) {
    const b = boxes[i]!;
    const force = items[b.item]!.weight + onTop[i]!;
    for (const s of under[i]!) onTop[s.k]! += (force * s.area) / (b.length * b.width);
  }
  boxes.forEach((b, i) => {
    const limit = items[b.item]!.maxLoadOnTop;
    if (onTop[i]! > limit + TOL * (1 + limit)) out.push(`box ${i}: ${onTop[i]} kg on top, limit ${limit}`);
  });
  const weight = boxes.reduce((s, b) => s + items[b.item]!.weight, 0);
  if (weight > unit.payload + TOL * (1 + unit.payload))
    out.push(`weight ${weight} over payload ${unit.payload}`);
  if (weight > 0) {
    const cx = boxes.reduce((s, b) => s + items[b.item]!.weight * (b.x + b.length / 2), 0) / weight;
    const cy = boxes.reduce((s, b) => s + items[b.item]!.weight * (b.y + b.width / 2), 0) / weight;
    if (Math.abs(cx - unit.length / 2) > cog.longitudinal * unit.length + TOL)
      out.push(`centre of gravity x ${cx} outside the middle ${2 * cog.longitudinal} of ${unit.length}`);
    if (Math.abs(cy - unit.width / 2) > cog.lateral * unit.width + TOL)
      out.push(`centre of gravity y ${cy} outside the middle ${2 * cog.lateral} of ${unit.width}`);
  }
  return out;
}

/** Loaded volume / inside volume. */
export const utilisation = (unit: CheckUnit, boxes: CheckBox[]): number =>
  boxes.reduce((s, b) => s + b.length * b.width * b.height, 0) / (unit.length * unit.width * unit.height);
