/**
 * Pan and zoom for the world map through d3-zoom (d3-zoom.js, loaded before the modules, sets
 * globalThis.d3): a drag (mouse, pen or one finger) moves the view, the wheel or a two-finger pinch
 * zooms about the pointer, and on the focused map the arrow keys pan, + and - zoom and 0 fits the
 * drawing again. The zoom's transform applies to the fitted view's pixels; the map reads it on
 * each render.
 */

/** How far the zoom goes either way from the fitted view. */
const ZOOM_MIN = 0.5;
const ZOOM_MAX = 64;
/** An arrow key pans an eighth of the view; + and - zoom by 1.5. */
const KEY_PAN = 1 / 8;
const KEY_ZOOM = 1.5;

/**
 * Attaches the moves to `svg` and answers {transform(), reset(), limit(extent)}: the current
 * transform ({k, x, y}), back to the fitted view, and the fitted pixels the view may show (the
 * world's, [[x0, y0], [x1, y1]]). `redraw()` renders on the next frame after a move.
 */
export function attachMoves(svg, redraw) {
  const { d3 } = globalThis;
  let pending = false;
  const zoom = d3
    .zoom()
    .scaleExtent([ZOOM_MIN, ZOOM_MAX])
    .on("zoom", () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        redraw();
      });
    });
  const map = d3.select(svg).call(zoom);
  const reset = () => map.call(zoom.transform, d3.zoomIdentity);
  map.on("keydown.moves", (e) => {
    const { width, height } = svg.getBoundingClientRect();
    const pan = (dx, dy) =>
      map.call(zoom.translateBy, dx / d3.zoomTransform(svg).k, dy / d3.zoomTransform(svg).k);
    const keys = {
      ArrowLeft: () => pan(width * KEY_PAN, 0),
      ArrowRight: () => pan(-width * KEY_PAN, 0),
      ArrowUp: () => pan(0, height * KEY_PAN),
      ArrowDown: () => pan(0, -height * KEY_PAN),
      "+": () => map.call(zoom.scaleBy, KEY_ZOOM),
      "=": () => map.call(zoom.scaleBy, KEY_ZOOM),
      "-": () => map.call(zoom.scaleBy, 1 / KEY_ZOOM),
      0: reset,
    };
    if (!Object.hasOwn(keys, e.key)) return;
    e.preventDefault();
    keys[e.key]();
  });
  return {
    transform: () => d3.zoomTransform(svg),
    reset,
    limit: (extent) => zoom.translateExtent(extent),
  };
}
