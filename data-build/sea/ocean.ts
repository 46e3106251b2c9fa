/**
 * Open-ocean shortcuts. MARNET is a lane network: across open oceans it follows a few fixed lanes
 * (40N then the Aleutian arc in the North Pacific, the equator in the Indian Ocean) and so runs
 * 5-10 % longer than the great-circle sailings real ships make. We add a coarse grid of nodes in
 * open water (edges in 32 directions), joined to nearby MARNET nodes, so routes can cut across.
 * Safety rules, so shortcuts never cross land or slip past a passage gate:
 *  - grid nodes and grid edges keep CLEARANCE_KM from land (world-atlas 50m land, 0.1 deg raster);
 *  - connectors only need to avoid land (10 km margin) except in their last 15 km at the MARNET end;
 *  - nothing within GATE_BUFFER_KM of a gated lane (straits, canals, Arctic passages);
 *  - nothing poleward of 64N / 60S (ice, and the Arctic passages stay on their gated lanes).
 */
import type { Topology } from "topojson-specification";
import { EARTH_RADIUS_M, haversineM } from "../../common/geo.ts";
import { LandRaster } from "./land.ts";

const RES = 0.1;
const COLS = 3600;
const ROWS = 1800;
const CLEARANCE_KM = 50;
const CONNECTOR_MARGIN_KM = 10;
const CONNECTOR_FREE_END_KM = 15;
const GATE_BUFFER_KM = 150;
const GRID_DEG = 3;
const MAX_LAT = 64;
const MIN_LAT = -60;
const CONNECT_KM = 400;
const CONNECTORS_PER_NODE = 4;
const SAMPLE_KM = 5;
/** Coprime steps with |di|, |dj| <= 3: 16 undirected directions, ~1 % worst-case excess. */
const STEPS: ReadonlyArray<[number, number]> = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
  [1, 2],
  [2, 1],
  [1, -2],
  [2, -1],
  [1, 3],
  [3, 1],
  [1, -3],
  [3, -1],
  [2, 3],
  [3, 2],
  [2, -3],
  [3, -2],
];

type Mask = Uint8Array;
const RAD = Math.PI / 180;
const cellIndex = (lat: number, lng: number): number => {
  const r = Math.min(ROWS - 1, Math.max(0, Math.floor((lat + 90) / RES)));
  const c = (((Math.floor((lng + 180) / RES) % COLS) + COLS) % COLS) as number;
  return r * COLS + c;
};

/** Land cells (0.1 degree) as bytes, for the dilations below. */
function landBytes(topo: Topology): Mask {
  const raster = new LandRaster(topo, RES);
  const mask = new Uint8Array(COLS * ROWS);
  for (let i = 0; i < mask.length; i++) if (raster.isLandCell(i)) mask[i] = 1;
  return mask;
}

/** Cells within `km` of a set cell (a conservative square window, wider in longitude toward the poles). */
export function dilate(mask: Mask, km: number): Mask {
  const cellKm = (RES * Math.PI * EARTH_RADIUS_M) / 180 / 1000;
  const rl = Math.ceil(km / cellKm);
  const tmp = new Uint8Array(mask.length);
  for (let c = 0; c < COLS; c++) {
    let run = -1e9;
    // Forward then backward pass: distance in rows to the nearest set cell.
    const near = new Int32Array(ROWS).fill(1e9);
    for (let r = 0; r < ROWS; r++) {
      if (mask[r * COLS + c]) run = r;
      near[r] = r - run;
    }
    run = 1e9;
    for (let r = ROWS - 1; r >= 0; r--) {
      if (mask[r * COLS + c]) run = r;
      if (Math.min(near[r]!, run - r) <= rl) tmp[r * COLS + c] = 1;
    }
  }
  const out = new Uint8Array(mask.length);
  for (let r = 0; r < ROWS; r++) {
    const lat = (r + 0.5) * RES - 90;
    const rc = Math.min(
      COLS / 2,
      Math.ceil(km / (cellKm * Math.max(0.01, Math.cos((Math.abs(lat) + RES) * RAD)))),
    );
    const base = r * COLS;
    // Prefix sums over the row, wrapped, answer "any set cell within rc columns".
    const pre = new Int32Array(COLS * 3 + 1);
    for (let i = 0; i < COLS * 3; i++) pre[i + 1] = pre[i]! + tmp[base + (i % COLS)]!;
    for (let c = 0; c < COLS; c++) {
      const i = c + COLS;
      if (pre[i + rc + 1]! - pre[i - rc]! > 0) out[base + c] = 1;
    }
  }
  return out;
}

/** Marks cells within `km` of each point. */
function paint(mask: Mask, points: ArrayLike<number>, km: number): void {
  const dLat = km / 111;
  for (let i = 0; i < points.length; i += 2) {
    const lat = points[i]!;
    const lng = points[i + 1]!;
    const dLng = Math.min(
      180,
      km / (111 * Math.max(0.05, Math.cos(Math.min(89, Math.abs(lat) + dLat) * RAD))),
    );
    for (let y = lat - dLat; y <= lat + dLat; y += RES) {
      for (let x = lng - dLng; x <= lng + dLng; x += RES) mask[cellIndex(y, x)] = 1;
    }
  }
}

/** Points every SAMPLE_KM along the great circle, as [lat, lng, distance-from-start-km]. */
function* samples(
  lat0: number,
  lng0: number,
  lat1: number,
  lng1: number,
): Generator<[number, number, number]> {
  const d = haversineM(lat0, lng0, lat1, lng1);
  const n = Math.max(1, Math.ceil(d / 1000 / SAMPLE_KM));
  const a = [
    Math.cos(lat0 * RAD) * Math.cos(lng0 * RAD),
    Math.cos(lat0 * RAD) * Math.sin(lng0 * RAD),
    Math.sin(lat0 * RAD),
  ];
  const b = [
    Math.cos(lat1 * RAD) * Math.cos(lng1 * RAD),
    Math.cos(lat1 * RAD) * Math.sin(lng1 * RAD),
    Math.sin(lat1 * RAD),
  ];
  const omega = d / EARTH_RADIUS_M;
  for (let k = 0; k <= n; k++) {
    const t = k / n;
    const wa = omega > 1e-9 ? Math.sin((1 - t) * omega) / Math.sin(omega) : 1 - t;
    const wb = omega > 1e-9 ? Math.sin(t * omega) / Math.sin(omega) : t;
    const x = wa * a[0]! + wb * b[0]!;
    const y = wa * a[1]! + wb * b[1]!;
    const z = wa * a[2]! + wb * b[2]!;
    yield [Math.atan2(z, Math.hypot(x, y)) / RAD, Math.atan2(y, x) / RAD, (t * d) / 1000];
  }
}

function clear(mask: Mask, lat0: number, lng0: number, lat1: number, lng1: number, freeEndKm = 0): boolean {
  const total = haversineM(lat0, lng0, lat1, lng1) / 1000;
  for (const [lat, lng, km] of samples(lat0, lng0, lat1, lng1)) {
    if (lat > MAX_LAT + 1 || lat < MIN_LAT - 2) return false;
    if (km > total - freeEndKm && freeEndKm > 0) continue;
    if (mask[cellIndex(lat, lng)]) return false;
  }
  return true;
}

export interface OceanLinks {
  /** New nodes, flat [lat, lng]. */
  nodes: number[];
  /** Edges between new nodes (ids from 0) or to MARNET nodes (ids from `marnetBase`), as [a, b, isConnector]. */
  edges: Array<[number, number]>;
}

/**
 * Grid nodes and edges to add. `graphNodes` = MARNET node coordinates (flat), `gatePoints` = every
 * point of every gated lane (flat). Returned edge endpoints: grid node i is `graphCount + i`.
 */
export function oceanShortcuts(topo: Topology, graphNodes: Float64Array, gatePoints: number[]): OceanLinks {
  const land = landBytes(topo);
  const gates = new Uint8Array(land.length);
  paint(gates, gatePoints, GATE_BUFFER_KM);
  const open = dilate(land, CLEARANCE_KM);
  const near = dilate(land, CONNECTOR_MARGIN_KM);
  for (let i = 0; i < land.length; i++) {
    if (gates[i]) {
      open[i] = 1;
      near[i] = 1;
    }
  }
  const graphCount = graphNodes.length / 2;
  const rows = Math.floor((MAX_LAT - MIN_LAT) / GRID_DEG) + 1;
  const cols = 360 / GRID_DEG;
  const id = new Int32Array(rows * cols).fill(-1);
  const nodes: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const lat = MIN_LAT + i * GRID_DEG;
      const lng = -180 + j * GRID_DEG;
      if (open[cellIndex(lat, lng)]) continue;
      id[i * cols + j] = graphCount + nodes.length / 2;
      nodes.push(lat, lng);
    }
  }
  const at = (gid: number): [number, number] => {
    const k = gid - graphCount;
    return k >= 0 ? [nodes[2 * k]!, nodes[2 * k + 1]!] : [graphNodes[2 * gid]!, graphNodes[2 * gid + 1]!];
  };
  const edges: Array<[number, number]> = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const a = id[i * cols + j]!;
      if (a < 0) continue;
      for (const [di, dj] of STEPS) {
        const ii = i + di;
        if (ii < 0 || ii >= rows) continue;
        const b = id[ii * cols + ((j + dj + cols) % cols)]!;
        if (b < 0) continue;
        const [la, lo] = at(a);
        const [lb, lob] = at(b);
        if (clear(open, la, lo, lb, lob)) edges.push([a, b]);
      }
    }
  }
  // Connectors: each grid node to its nearest reachable MARNET nodes.
  const bucket = new Map<number, number[]>();
  const bkey = (lat: number, lng: number) =>
    Math.floor((lat + 90) / 2) * 1000 + (((Math.floor((lng + 180) / 2) % 180) + 180) % 180);
  for (let v = 0; v < graphCount; v++) {
    const lat = graphNodes[2 * v]!;
    if (lat > MAX_LAT + 1 || lat < MIN_LAT - 2) continue;
    const k = bkey(lat, graphNodes[2 * v + 1]!);
    const list = bucket.get(k);
    if (list) list.push(v);
    else bucket.set(k, [v]);
  }
  for (let k = 0; k < nodes.length / 2; k++) {
    const [lat, lng] = [nodes[2 * k]!, nodes[2 * k + 1]!];
    const cand: Array<[number, number]> = [];
    for (let dy = -2; dy <= 2; dy++) {
      for (let dx = -3; dx <= 3; dx++) {
        for (const v of bucket.get(bkey(lat + dy * 2, lng + dx * 2)) ?? []) {
          const d = haversineM(lat, lng, graphNodes[2 * v]!, graphNodes[2 * v + 1]!) / 1000;
          if (d <= CONNECT_KM) cand.push([d, v]);
        }
      }
    }
    cand.sort((a, b) => a[0] - b[0]);
    let added = 0;
    for (const [, v] of cand) {
      if (added >= CONNECTORS_PER_NODE) break;
      if (clear(near, lat, lng, graphNodes[2 * v]!, graphNodes[2 * v + 1]!, CONNECTOR_FREE_END_KM)) {
        edges.push([graphCount + k, v]);
        added++;
      }
    }
  }
  return { nodes, edges };
}
