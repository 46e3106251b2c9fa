/**
 * A unit of many pieces drawn as blocks. Drawing every piece costs time in the square of their
 * number (the painter's order compares each pair that overlaps on screen: 4,780 pieces took
 * 0.48 s and 2.1 MB of SVG, 1,000 pieces 21 ms and 0.44 MB), so above DETAIL_MAX pieces the
 * picture cuts the unit's inside into a grid of at most BLOCKS_MAX near-cubic cells and draws each
 * cell at least half filled as one block, in the colour of the item type with the most volume in
 * it. Blocks hidden behind three filled neighbours (above, towards the door, towards the right
 * side) are left out: the eye never sees them. The picture shows where the load is, how high it
 * stands and which item types fill which part; the legend still counts every piece.
 */
import type { Box } from "./svg.ts";

/** Pieces a unit may have to be drawn piece by piece. */
export const DETAIL_MAX = 1000;
/** Cells of the grid a larger unit is cut into, at most. */
export const BLOCKS_MAX = 1000;
/** Volume below any real piece's share of a cell: float sums within it of half count as half. */
const ROUNDING_MM3 = 1e-6;

interface Inside {
  length: number;
  width: number;
  height: number;
}

/** Cells along the length, width and height: near-cubic, at most BLOCKS_MAX in all. */
function gridOf({ length, width, height }: Inside): [number, number, number] {
  let edge = Math.cbrt((length * width * height) / BLOCKS_MAX);
  for (;;) {
    const n = [length, width, height].map((d) => Math.max(1, Math.round(d / edge))) as [
      number,
      number,
      number,
    ];
    if (n[0] * n[1] * n[2] <= BLOCKS_MAX) return n;
    edge *= 1.05;
  }
}

/** The cells [first, last] a span [lo, hi) crosses, with the length of the span in each. */
function* spans(lo: number, hi: number, cell: number, count: number) {
  const first = Math.max(0, Math.min(count - 1, Math.floor(lo / cell)));
  const last = Math.max(first, Math.min(count - 1, Math.ceil(hi / cell) - 1));
  for (let i = first; i <= last; i++) {
    const overlap = Math.min(hi, (i + 1) * cell) - Math.max(lo, i * cell);
    if (overlap > 0) yield [i, overlap] as const;
  }
}

/** Volume of each cell filled, and by which item type most (cells numbered (x * ny + y) * nz + z). */
function fill(pieces: readonly Box[], n: readonly number[], cell: readonly number[]) {
  const [nx, ny, nz] = n as [number, number, number];
  const filled = new Float64Array(nx * ny * nz);
  const types = pieces.reduce((m, p) => Math.max(m, p.item + 1), 0);
  const byType = new Map<number, number>();
  for (const p of pieces) {
    for (const [i, dx] of spans(p.x0, p.x1, cell[0]!, nx)) {
      for (const [j, dy] of spans(p.y0, p.y1, cell[1]!, ny)) {
        for (const [k, dz] of spans(p.z0, p.z1, cell[2]!, nz)) {
          const c = (i * ny + j) * nz + k;
          filled[c]! += dx * dy * dz;
          const key = c * types + p.item;
          byType.set(key, (byType.get(key) ?? 0) + dx * dy * dz);
        }
      }
    }
  }
  const top = new Int32Array(filled.length).fill(-1);
  const most = new Float64Array(filled.length);
  for (const [key, volume] of byType) {
    const c = Math.floor(key / types);
    if (volume > most[c]!) {
      most[c] = volume;
      top[c] = key % types;
    }
  }
  return { filled, top };
}

/** The blocks that stand for `pieces` (positions in mm inside `inside`), and the cell's size. */
export function unitBlocks(
  pieces: readonly Box[],
  inside: Inside,
): { boxes: Box[]; cell: [number, number, number] } {
  const n = gridOf(inside);
  const [nx, ny, nz] = n;
  const cell: [number, number, number] = [inside.length / nx, inside.width / ny, inside.height / nz];
  const { filled, top } = fill(pieces, n, cell);
  // A cell filled exactly half sums its pieces' shares to within rounding of half (1e-8 mm3 seen).
  const half = (cell[0] * cell[1] * cell[2]) / 2 - ROUNDING_MM3;
  const solid = (i: number, j: number, k: number) =>
    i < nx && j < ny && k < nz && filled[(i * ny + j) * nz + k]! >= half;
  const boxes: Box[] = [];
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < ny; j++) {
      for (let k = 0; k < nz; k++) {
        if (!solid(i, j, k) || (solid(i + 1, j, k) && solid(i, j + 1, k) && solid(i, j, k + 1))) continue;
        const [x0, y0, z0] = [i * cell[0], j * cell[1], k * cell[2]];
        const item = top[(i * ny + j) * nz + k]!;
        boxes.push({ item, x0, y0, z0, x1: x0 + cell[0], y1: y0 + cell[1], z1: z0 + cell[2] });
      }
    }
  }
  return { boxes, cell };
}
