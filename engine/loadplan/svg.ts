/**
 * One unit of a load plan as an isometric SVG picture: the unit's outline, every piece as a box
 * with three shaded faces (top, door side, right side; one colour per item type), drawn far to
 * near so nearer faces cover farther ones, a title and a legend. A pure function of the plan: the
 * same unit gives the same text, and every caller-given string is escaped.
 *
 * The view: x (from the front wall to the door) runs right and down the page, y (from the left
 * side) left and down, z up; the eye looks from above the door's right-hand corner.
 */
import { EQUIPMENT, type EquipmentCode } from "./equipment.ts";
import { DETAIL_MAX, unitBlocks } from "./svg-blocks.ts";
import type { PlannedUnit } from "./types.ts";

/** Drawing width in px; the height follows from the unit's proportions. */
const DRAW_W = 880;
const PAD = 24;
const TITLE_H = 44;
const LEGEND_ROW = 20;
/** Legend rows before "and N more". */
const LEGEND_MAX = 20;
const COS30 = Math.cos(Math.PI / 6);

const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#17becf",
  "#bcbd22",
];

const hex = (rgb: readonly number[]) =>
  `#${rgb
    .map((c) =>
      Math.max(0, Math.min(255, Math.round(c)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;

function hslToRgb(h: number, s: number, l: number): number[] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  return [0, 8, 4].map((n) => 255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
}

/** The colour of item type `index` (its index in the plan's input items). */
export function itemColour(index: number): string {
  if (index < PALETTE.length) return PALETTE[index]!;
  // Golden-angle hues: neighbours differ, and any number of types gets a colour.
  return hex(hslToRgb((index * 137.508) % 360, 0.55, 0.55));
}

const rgbOf = (colour: string) => [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
const shade = (colour: string, f: number) => hex(rgbOf(colour).map((c) => c * f));

/** The fills of an item type's faces: top in its colour, the two sides darker. */
export function faceColours(index: number): { top: string; front: string; side: string; edge: string } {
  const c = itemColour(index);
  return { top: c, front: shade(c, 0.8), side: shade(c, 0.64), edge: shade(c, 0.45) };
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};
export const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** One decimal: deterministic text, small files. */
const num = (v: number) => String(Math.round(v * 10) / 10 + 0);

/** A piece (or a block of pieces) as drawn: its item type and its corners, mm. */
export interface Box {
  item: number;
  x0: number;
  y0: number;
  z0: number;
  x1: number;
  y1: number;
  z1: number;
}

/** Ranges of the isometric hexagon's three slab coordinates (x - y, y - z, x - z). */
const hexagon = (b: Box) => ({
  u: [b.x0 - b.y1, b.x1 - b.y0],
  v: [b.y0 - b.z1, b.y1 - b.z0],
  w: [b.x0 - b.z1, b.x1 - b.z0],
});

/** Whether two boxes' pictures share area (the hexagon is exactly the three slabs; w = u + v). */
function overlapOnScreen(a: ReturnType<typeof hexagon>, b: ReturnType<typeof hexagon>): boolean {
  const lo = (k: "u" | "v" | "w") => Math.max(a[k][0]!, b[k][0]!);
  const hi = (k: "u" | "v" | "w") => Math.min(a[k][1]!, b[k][1]!);
  if (hi("u") <= lo("u") || hi("v") <= lo("v") || hi("w") <= lo("w")) return false;
  return Math.min(hi("w"), hi("u") + hi("v")) > Math.max(lo("w"), lo("u") + lo("v"));
}

/** a lies wholly on the far side of b along some axis (the eye looks from +x, +y, +z). */
const behind = (a: Box, b: Box) => a.x1 <= b.x0 || a.y1 <= b.y0 || a.z1 <= b.z0;

/**
 * Painter's order: a box is drawn after every box it covers on screen. Boxes that do not overlap
 * in space always have a separating axis, so the order exists unless three or more boxes form a
 * cycle (a pinwheel); then the farthest remaining box (least x + y + z) goes next.
 */
export function paintOrder(boxes: readonly Box[]): number[] {
  const n = boxes.length;
  const hex6 = boxes.map(hexagon);
  const after: number[][] = boxes.map(() => []);
  const waiting = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (!overlapOnScreen(hex6[i]!, hex6[j]!)) continue;
      if (behind(boxes[i]!, boxes[j]!)) {
        after[i]!.push(j);
        waiting[j]!++;
      } else if (behind(boxes[j]!, boxes[i]!)) {
        after[j]!.push(i);
        waiting[i]!++;
      }
    }
  }
  const key = boxes.map((b) => b.x0 + b.y0 + b.z0);
  const done = new Array<boolean>(n).fill(false);
  const order: number[] = [];
  while (order.length < n) {
    let next = -1;
    let forced = -1;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      if (waiting[i] === 0 && (next < 0 || key[i]! < key[next]!)) next = i;
      if (forced < 0 || key[i]! < key[forced]!) forced = i;
    }
    const pick = next >= 0 ? next : forced;
    done[pick] = true;
    order.push(pick);
    for (const j of after[pick]!) waiting[j]!--;
  }
  return order;
}

export interface SvgOptions {
  /** First title line (escaped); default the equipment's name. */
  title?: string;
}

/**
 * What a unit's picture is drawn from, compact: it crosses to a worker by structured clone, and
 * cloning a unit of 5,000 placements as objects took ~6.5 ms of the serving thread (its boxes as
 * one array of numbers, a few microseconds).
 */
export interface UnitPicture {
  equipment: EquipmentCode;
  volumeUtilisation: number;
  weightUtilisation: number;
  /** Seven numbers a piece: item, x0, y0, z0, x1, y1, z1 (mm). */
  boxes: Float64Array;
  /** Each input item's id (the legend's label; null reads "item <index>"). */
  labels: Array<string | null>;
  title?: string;
}

const BOX_FIELDS = 7;

/** The picture of `unit`; `items` are the plan's input items. */
export function pictureOf(
  unit: PlannedUnit,
  items: ReadonlyArray<{ id?: string | null }>,
  title?: string,
): UnitPicture {
  const boxes = new Float64Array(unit.placements.length * BOX_FIELDS);
  unit.placements.forEach(({ item, position: p, size }, k) => {
    boxes.set([item, p.x, p.y, p.z, p.x + size.length, p.y + size.width, p.z + size.height], k * BOX_FIELDS);
  });
  const { equipment, volumeUtilisation, weightUtilisation } = unit;
  const labels = items.map((it) => it.id ?? null);
  return {
    equipment,
    volumeUtilisation,
    weightUtilisation,
    boxes,
    labels,
    ...(title === undefined ? {} : { title }),
  };
}

function boxesOf(p: UnitPicture): Box[] {
  const b = p.boxes;
  return Array.from({ length: b.length / BOX_FIELDS }, (_, k) => {
    const i = k * BOX_FIELDS;
    return {
      item: b[i]!,
      x0: b[i + 1]!,
      y0: b[i + 2]!,
      z0: b[i + 3]!,
      x1: b[i + 4]!,
      y1: b[i + 5]!,
      z1: b[i + 6]!,
    };
  });
}

/** The projection of one unit's inside onto the page, and SVG shapes through it. */
function projection(L: number, W: number, H: number) {
  const s = DRAW_W / ((L + W) * COS30);
  const ox = PAD + W * COS30 * s;
  const oy = PAD + TITLE_H + H * s;
  const pt = (x: number, y: number, z: number) =>
    `${num(ox + (x - y) * COS30 * s)},${num(oy + ((x + y) / 2 - z) * s)}`;
  const poly = (points: string[], attrs: string) => `<polygon points="${points.join(" ")}" ${attrs}/>`;
  const line = (a: [number, number, number], b: [number, number, number], attrs: string) => {
    const [x1, y1] = pt(...a).split(",");
    const [x2, y2] = pt(...b).split(",");
    return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" ${attrs}/>`;
  };
  /** Where the legend starts: below the floor's near corner. */
  const legendY = oy + ((L + W) / 2) * s + 20;
  return { pt, poly, line, legendY };
}

type Projection = ReturnType<typeof projection>;

/** Each box as a group of its three visible faces, in painter's order. */
function drawBoxes(boxes: readonly Box[], v: Projection): string[] {
  const { pt, poly } = v;
  return paintOrder(boxes).map((k) => {
    const b = boxes[k]!;
    const f = faceColours(b.item);
    const stroke = `stroke="${f.edge}" stroke-width="0.6" stroke-linejoin="round"`;
    return [
      `<g data-item="${b.item}">`,
      poly(
        [pt(b.x0, b.y0, b.z1), pt(b.x1, b.y0, b.z1), pt(b.x1, b.y1, b.z1), pt(b.x0, b.y1, b.z1)],
        `fill="${f.top}" ${stroke}`,
      ),
      poly(
        [pt(b.x1, b.y0, b.z0), pt(b.x1, b.y1, b.z0), pt(b.x1, b.y1, b.z1), pt(b.x1, b.y0, b.z1)],
        `fill="${f.front}" ${stroke}`,
      ),
      poly(
        [pt(b.x0, b.y1, b.z0), pt(b.x1, b.y1, b.z0), pt(b.x1, b.y1, b.z1), pt(b.x0, b.y1, b.z1)],
        `fill="${f.side}" ${stroke}`,
      ),
      "</g>",
    ].join("");
  });
}

/**
 * The unit's outline: nine edges lie behind every piece (the floor, the front wall, the left
 * side), three in front (the door's right-hand corner post and the two top edges meeting it).
 */
function outline(L: number, W: number, H: number, { pt, poly, line }: Projection) {
  const far = 'stroke="#5b6470" stroke-width="1.2"';
  const near = 'stroke="#5b6470" stroke-width="1" stroke-dasharray="6 4" stroke-opacity="0.8"';
  const back = [
    poly([pt(0, 0, 0), pt(L, 0, 0), pt(L, W, 0), pt(0, W, 0)], `fill="#eceef1" ${far}`),
    line([0, 0, 0], [0, 0, H], far),
    line([L, 0, 0], [L, 0, H], far),
    line([0, W, 0], [0, W, H], far),
    line([0, 0, H], [L, 0, H], far),
    line([0, 0, H], [0, W, H], far),
  ];
  const front = [
    line([L, W, 0], [L, W, H], near),
    line([L, 0, H], [L, W, H], near),
    line([0, W, H], [L, W, H], near),
  ];
  return { back, front };
}

/** One row per item type loaded (its swatch, id and count of pieces), then "and N more". */
function legendRows(pieces: readonly Box[], labels: UnitPicture["labels"], top: number): string[] {
  const counts = new Map<number, number>();
  for (const p of pieces) counts.set(p.item, (counts.get(p.item) ?? 0) + 1);
  const types = [...counts.keys()].sort((a, b) => a - b);
  const rows = types.slice(0, LEGEND_MAX).map((item, k) => {
    const y = top + k * LEGEND_ROW;
    const label = labels[item] ?? `item ${item}`;
    return (
      `<rect x="${PAD}" y="${y}" width="14" height="14" fill="${itemColour(item)}" stroke="${faceColours(item).edge}"/>` +
      `<text x="${PAD + 22}" y="${y + 11}">${escapeXml(label)} × ${counts.get(item)}</text>`
    );
  });
  if (types.length > LEGEND_MAX) {
    rows.push(
      `<text x="${PAD}" y="${top + LEGEND_MAX * LEGEND_ROW + 11}">and ${types.length - LEGEND_MAX} more item types</text>`,
    );
  }
  return rows;
}

/** A picture's SVG text. A unit of more than DETAIL_MAX pieces is drawn as blocks (svg-blocks.ts), which the subtitle says. */
function svgOf(p: UnitPicture): string {
  const e = EQUIPMENT[p.equipment];
  const { length: L, width: W, height: H } = e.inside;
  const v = projection(L, W, H);
  const pieces = boxesOf(p);
  const blocks = pieces.length > DETAIL_MAX ? unitBlocks(pieces, e.inside) : null;
  const drawn = drawBoxes(blocks?.boxes ?? pieces, v);
  const { back, front } = outline(L, W, H, v);
  const legend = legendRows(pieces, p.labels, v.legendY);
  const width = DRAW_W + 2 * PAD;
  const height = Math.ceil(v.legendY + legend.length * LEGEND_ROW + PAD);
  const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)} %`;
  const title = p.title ?? e.name;
  const asBlocks = blocks
    ? `; more than ${DETAIL_MAX} pieces, drawn as blocks of ${blocks.cell.map(Math.round).join(" × ")} mm`
    : "";
  const subtitle = `${e.code} ${e.name}, inside ${L} × ${W} × ${H} mm: ${pieces.length} pieces, volume ${pct(p.volumeUtilisation)}, payload ${pct(p.weightUtilisation)}${asBlocks}`;

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="13" fill="#1f2328">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${PAD}" y="${PAD + 4}" font-size="16" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${PAD}" y="${PAD + 24}">${escapeXml(subtitle)}</text>`,
    `<g id="outline-back">${back.join("")}</g>`,
    `<g id="load" data-drawn="${blocks ? "blocks" : "pieces"}">${drawn.join("")}</g>`,
    `<g id="outline-front">${front.join("")}</g>`,
    `<g id="legend">${legend.join("")}</g>`,
    "</svg>",
  ].join("\n");
}

/**
 * The unit's picture. `items` are the plan's input items (their ids label the legend; an item
 * without one reads "item <index>").
 */
export const unitSvg = (
  unit: PlannedUnit,
  items: ReadonlyArray<{ id?: string | null }>,
  opts: SvgOptions = {},
): string => svgOf(pictureOf(unit, items, opts.title));

/** The picture as UTF-8 bytes, as the API serves it (and a worker hands it over). */
export const drawUnit = (p: UnitPicture): Uint8Array<ArrayBuffer> => new TextEncoder().encode(svgOf(p));
