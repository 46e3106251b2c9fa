/**
 * A small SVG world map for the product pages: world-atlas land topology decoded here (no library),
 * an equidistant cylindrical projection whose standard parallel follows the view, lines and markers
 * given as [lat, lng]. Longitudes are unwrapped along each line and the map repeats every 360°, so
 * a route across the antimeridian (Shanghai to Los Angeles) is drawn across the Pacific, never as a
 * line across the whole map.
 */

import { placeLabels } from "./map-labels.js";
import { attachMoves } from "./map-moves.js";

const SVG = "http://www.w3.org/2000/svg";

/** Longitude difference b - a the short way round, in (-180, 180]. */
export const dLng = (a, b) => ((((b - a + 540) % 360) + 360) % 360) - 180;

/** Points with longitudes made continuous: each within 180° of the one before. */
export function unwrap(points) {
  const out = [];
  let prev = null;
  for (const [lat, lng] of points) {
    const x = prev === null ? lng : prev + dLng(prev, lng);
    out.push([lat, x]);
    prev = x;
  }
  return out;
}

/** Rings of [lng, lat] from a TopoJSON topology's `land` object (quantized or not). */
export function landRings(topology) {
  const [sx, sy] = topology.transform?.scale ?? [1, 1];
  const [tx, ty] = topology.transform?.translate ?? [0, 0];
  const quantized = Boolean(topology.transform);
  const arcs = topology.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    return arc.map(([a, b]) => {
      if (quantized) {
        x += a;
        y += b;
      } else {
        x = a;
        y = b;
      }
      return [x * sx + tx, y * sy + ty];
    });
  });
  const ring = (ids) => {
    const pts = [];
    for (const i of ids) {
      const arc = i < 0 ? arcs[~i].slice().reverse() : arcs[i];
      // Consecutive arcs share their joining point.
      pts.push(...(pts.length ? arc.slice(1) : arc));
    }
    return pts;
  };
  const land = topology.objects.land;
  const geometries = land.type === "GeometryCollection" ? land.geometries : [land];
  const rings = [];
  for (const g of geometries) {
    if (g.type === "Polygon") for (const r of g.arcs) rings.push(ring(r));
    if (g.type === "MultiPolygon") for (const p of g.arcs) for (const r of p) rings.push(ring(r));
  }
  return rings;
}

/**
 * A land ring on the repeating plane: world-atlas keeps rings across the antimeridian whole
 * (Chukotka, Fiji), so longitudes are unwrapped; a ring round a pole (Antarctica) then ends a turn
 * from where it started and is closed along that pole.
 */
function planar(ring) {
  const pts = unwrap(ring.map(([lng, lat]) => [lat, lng])).map(([lat, x]) => [x, lat]);
  const turn = pts.at(-1)[0] - pts[0][0];
  if (Math.abs(turn) > 180) {
    const pole = pts.reduce((s, p) => s + p[1], 0) < 0 ? -90 : 90;
    pts.push([pts.at(-1)[0], pole], [pts[0][0], pole]);
  }
  return pts;
}

const el = (name, attrs = {}, parent = null) => {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
};

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

/** Circular mean of longitudes (degrees); 0 when they cancel out. */
function meanLng(lngs) {
  let s = 0;
  let c = 0;
  for (const l of lngs) {
    s += Math.sin((l * Math.PI) / 180);
    c += Math.cos((l * Math.PI) / 180);
  }
  return s === 0 && c === 0 ? 0 : (Math.atan2(s, c) * 180) / Math.PI;
}

/**
 * Lines and markers placed on one continuous longitude axis around the scene's centre: each line
 * unwrapped, then moved by whole turns so its middle is nearest the centre; markers likewise.
 */
function place(scene) {
  // A line is `points`, or `parts` (several runs drawn as one path, e.g. a river rule's stretch).
  const partsOf = (l) => (l.parts ?? [l.points]).filter((pts) => pts.length >= 2);
  const all = [...scene.lines.flatMap((l) => partsOf(l).flat()), ...scene.markers.map((m) => m.at)];
  const centre = meanLng(all.map((p) => p[1]));
  const near = (x) => x + 360 * Math.round((centre - x) / 360);
  const lines = scene.lines
    .map((l) => ({ ...l, parts: partsOf(l).map(unwrap) }))
    .filter((l) => l.parts.length > 0)
    .map((l) => {
      // Runs unwrapped each, then moved together: first run's start sets the turn of the others.
      const x0 = l.parts[0][0][1];
      const parts = l.parts.map((pts) => {
        const k = 360 * Math.round((x0 - pts[0][1]) / 360);
        return pts.map(([lat, x]) => [lat, x + k]);
      });
      const xs = parts.flat().map((p) => p[1]);
      const mid = (Math.min(...xs) + Math.max(...xs)) / 2;
      const shift = near(mid) - mid;
      return { ...l, parts: parts.map((pts) => pts.map(([lat, x]) => [lat, x + shift])) };
    });
  const markers = scene.markers.map((m) => ({ ...m, at: [m.at[0], near(m.at[1])] }));
  return { lines, markers };
}

/** The view: centre, span and scale fitting every placed point, padded. */
function fit(placed, width, height) {
  const pts = [...placed.lines.flatMap((l) => l.parts.flat()), ...placed.markers.map((m) => m.at)];
  if (pts.length === 0) return { cx: 0, cy: 0, k: width / 360, c: 1 };
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const [lat, x] of pts) {
    x0 = Math.min(x0, x);
    x1 = Math.max(x1, x);
    y0 = Math.min(y0, lat);
    y1 = Math.max(y1, lat);
  }
  const spanX = clamp((x1 - x0) * 1.16 + 4, 10, 360);
  const spanY = clamp((y1 - y0) * 1.16 + 4, 8, 170);
  const cy = clamp((y0 + y1) / 2, -85 + spanY / 2, 85 - spanY / 2);
  // Standard parallel at the view's middle latitude: Europe reads as Europe, not stretched.
  const c = Math.cos((clamp(cy, -60, 60) * Math.PI) / 180);
  const k = Math.min(width / (spanX * c), height / spanY);
  return { cx: (x0 + x1) / 2, cy, k, c };
}

/**
 * The view the zoom transform `t` makes of the fitted one: a fitted pixel p shows at t.x + t.k p,
 * so the centre moves by what the transform leaves of the middle, over the zoomed scale.
 */
function moved(fitted, t, width, height) {
  const k = fitted.k * t.k;
  const kx = k * fitted.c;
  const cx = fitted.cx + (width / 2 - t.x - (t.k * width) / 2) / kx;
  const cy = fitted.cy - (height / 2 - t.y - (t.k * height) / 2) / k;
  return { cx, cy, k, kx };
}

/**
 * The world in fitted pixels: three turns across (the tiles drawn), and latitudes ±85° with a view's
 * height beyond each, so a pole can come to the middle even zoomed out (else d3-zoom centres a world
 * shorter than the view and a drag could not move it up or down).
 */
function worldExtent(fitted, width, height) {
  const kx = fitted.k * fitted.c;
  return [
    [width / 2 + (-540 - fitted.cx) * kx, height / 2 - (85 - fitted.cy) * fitted.k - height],
    [width / 2 + (540 - fitted.cx) * kx, height / 2 + (85 + fitted.cy) * fitted.k + height],
  ];
}

/** The markers' dots, then their labels placed clear of the dots and of each other. */
function drawMarkers(marks, markers, px, width, height) {
  const dots = [];
  const labels = [];
  for (const m of markers) {
    const [x, y] = px(m.at[0], m.at[1]);
    const r = m.r ?? 5;
    const dot = el("circle", { class: m.cls, cx: x.toFixed(1), cy: y.toFixed(1), r }, marks);
    if (m.title) el("title", {}, dot).textContent = m.title;
    dots.push({ left: x - r, top: y - r, right: x + r, bottom: y + r });
    if (m.label) labels.push({ x, y, r, label: m.label });
  }
  const texts = labels.map(({ label, ...at }) => {
    const text = el("text", { class: "label", x: 0, y: 0 }, marks);
    text.textContent = label;
    return { text, ...at };
  });
  placeLabels(texts, dots, width, height);
}

/**
 * A map inside `container`. `draw(scene)` renders {lines: [{points | parts, cls, title}], markers:
 * [{at, cls, title, label, r}]} fitted to the view; it redraws itself when the container is
 * resized, and when moved or zoomed (map-moves.js) until the next scene.
 */
export async function createWorldMap(container, landUrl) {
  const svg = el(
    "svg",
    {
      class: "worldmap",
      role: "img",
      tabindex: 0,
      "aria-label": "World map: drag to move, wheel or + and - to zoom",
    },
    container,
  );
  const res = await fetch(landUrl);
  if (!res.ok) throw new Error(`basemap: HTTP ${res.status}`);
  // One path in degrees (x = lng, y = -lat), placed by a transform and repeated per 360° tile.
  const landD = landRings(await res.json())
    .map(
      (r) =>
        `M${planar(r)
          .map(([lng, lat]) => `${lng.toFixed(2)},${(-lat).toFixed(2)}`)
          .join("L")}Z`,
    )
    .join("");
  let scene = { lines: [], markers: [] };
  let moves = null;

  const render = () => {
    const width = Math.max(200, container.clientWidth);
    const height = Math.max(160, container.clientHeight);
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    const placed = place(scene);
    const fitted = fit(placed, width, height);
    const { cx, cy, k, kx } = moved(fitted, moves.transform(), width, height);
    moves.limit(worldExtent(fitted, width, height));
    // Pixels per degree of longitude, and the view (screen px back to degrees), for whoever
    // measures what is drawn (the browser tests).
    svg.dataset.pxPerDegree = String(kx);
    svg.dataset.view = JSON.stringify({ cx, cy, kx, ky: k, width, height });
    const px = (lat, x) => [width / 2 + (x - cx) * kx, height / 2 - (lat - cy) * k];
    el("rect", { class: "sea", x: 0, y: 0, width, height }, svg);
    const defs = el("defs", {}, svg);
    el("path", { id: "land-shape", d: landD }, defs);
    const viewW = width / kx;
    const tiles = el("g", { class: "land" }, svg);
    // One tile more each side: unwrapped rings (Chukotka, Fiji) reach past their tile's edges.
    const first = Math.max(-3, Math.floor((cx - viewW / 2 + 180) / 360) - 1);
    const last = Math.min(3, Math.floor((cx + viewW / 2 + 180) / 360) + 1);
    for (let n = first; n <= last; n++) {
      const tx = width / 2 + (n * 360 - cx) * kx;
      const ty = height / 2 + cy * k;
      const g = el("g", { transform: `matrix(${kx} 0 0 ${k} ${tx} ${ty})` }, tiles);
      el("use", { href: "#land-shape" }, g);
    }
    const lines = el("g", { class: "lines" }, svg);
    for (const line of placed.lines) {
      const xs = line.parts.flat().map((p) => p[1]);
      const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
      // A copy a turn away only where the line runs past the edge of the view.
      for (const o of [-360, 0, 360]) {
        if (o !== 0 && (hi + o < cx - viewW / 2 || lo + o > cx + viewW / 2)) continue;
        const d = line.parts
          .map((pts) =>
            pts
              .map(([lat, x], i) => {
                const [a, b] = px(lat, x + o);
                return `${i ? "L" : "M"}${a.toFixed(1)} ${b.toFixed(1)}`;
              })
              .join(""),
          )
          .join("");
        const path = el("path", { class: line.cls, d }, lines);
        if (o !== 0) path.dataset.copy = "1";
        if (line.title) el("title", {}, path).textContent = line.title;
      }
    }
    drawMarkers(el("g", { class: "markers" }, svg), placed.markers, px, width, height);
  };

  moves = attachMoves(svg, render);
  new ResizeObserver(() => render()).observe(container);
  return {
    svg,
    draw(next) {
      scene = next;
      moves.reset();
      render();
    },
  };
}
