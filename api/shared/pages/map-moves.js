/**
 * Pan and zoom for the world map: a drag (mouse, pen or one finger) moves the view, the wheel or a
 * two-finger pinch zooms about the pointer, and on the focused map the arrow keys pan, + and -
 * zoom and 0 fits the drawing again. The moves are kept as an offset of the fitted view (degrees
 * and a zoom factor), which the map applies on each render.
 */

/** How far the zoom goes either way from the fitted view. */
const ZOOM_MIN = 0.5;
const ZOOM_MAX = 64;
/** A wheel notch (deltaY 100) zooms by e^0.2, about 1.22. */
const WHEEL_RATE = 0.002;
/** An arrow key pans an eighth of the view; + and - zoom by 1.5. */
const KEY_PAN = 1 / 8;
const KEY_ZOOM = 1.5;

/** The fitted view unmoved. */
export const unmoved = () => ({ dx: 0, dy: 0, zoom: 1 });

/**
 * Attaches the moves to `svg`. `move` ({dx, dy, zoom}) is changed in place; `fitted()` answers the
 * fitted view's {kx, k, width, height} (pixels per degree across and down, before the zoom);
 * `redraw()` renders. Moves between two renders add up: each reads the scale from `move`.
 */
export function attachMoves(svg, move, fitted, redraw) {
  let pending = false;
  const changed = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      redraw();
    });
  };
  const scale = () => {
    const { kx, k, width, height } = fitted();
    return { kx: kx * move.zoom, k: k * move.zoom, width, height };
  };
  const panBy = (px, py) => {
    const { kx, k } = scale();
    move.dx -= px / kx;
    move.dy += py / k;
    changed();
  };
  // The point under (px, py) stays put: the centre moves toward it as the scale grows.
  const zoomAt = (factor, px, py) => {
    const f = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, move.zoom * factor)) / move.zoom;
    const { kx, k, width, height } = scale();
    move.dx += ((px - width / 2) / kx) * (1 - 1 / f);
    move.dy -= ((py - height / 2) / k) * (1 - 1 / f);
    move.zoom *= f;
    changed();
  };
  const at = (e) => {
    const box = svg.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top];
  };
  const pointers = new Map();
  svg.addEventListener("pointerdown", (e) => {
    svg.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, at(e));
  });
  svg.addEventListener("pointermove", (e) => {
    const was = pointers.get(e.pointerId);
    if (!was) return;
    const now = at(e);
    if (pointers.size === 1) panBy(now[0] - was[0], now[1] - was[1]);
    else {
      const other = [...pointers].find(([id]) => id !== e.pointerId)[1];
      const before = Math.hypot(was[0] - other[0], was[1] - other[1]);
      const after = Math.hypot(now[0] - other[0], now[1] - other[1]);
      if (before > 0) zoomAt(after / before, (now[0] + other[0]) / 2, (now[1] + other[1]) / 2);
    }
    pointers.set(e.pointerId, now);
  });
  for (const end of ["pointerup", "pointercancel"])
    svg.addEventListener(end, (e) => pointers.delete(e.pointerId));
  svg.addEventListener(
    "wheel",
    (e) => {
      e.preventDefault(); // the page does not scroll while the pointer zooms the map
      const [px, py] = at(e);
      zoomAt(Math.exp(-e.deltaY * WHEEL_RATE), px, py);
    },
    { passive: false },
  );
  svg.addEventListener("keydown", (e) => {
    const { width, height } = scale();
    const keys = {
      ArrowLeft: () => panBy(width * KEY_PAN, 0),
      ArrowRight: () => panBy(-width * KEY_PAN, 0),
      ArrowUp: () => panBy(0, height * KEY_PAN),
      ArrowDown: () => panBy(0, -height * KEY_PAN),
      "+": () => zoomAt(KEY_ZOOM, width / 2, height / 2),
      "=": () => zoomAt(KEY_ZOOM, width / 2, height / 2),
      "-": () => zoomAt(1 / KEY_ZOOM, width / 2, height / 2),
      0: () => {
        Object.assign(move, unmoved());
        changed();
      },
    };
    if (!Object.hasOwn(keys, e.key)) return;
    e.preventDefault();
    keys[e.key]();
  });
}
