/**
 * Marker labels that stay inside the map and off the markers: each label takes the first of a few
 * places round its dot (right, left, above, below, then the corners) whose box lies inside the
 * view and clear of every dot and every label placed before it; with none clear, the place that
 * overlaps least, moved inside the view.
 */

/** Gap between a dot's edge and its label (px). */
const GAP = 4;

/** Label boxes round a dot at (x, y) of radius r, for a text w wide and h high, best first. */
function places(x, y, r, w, h) {
  const d = r + GAP;
  return [
    [x + d, y - h / 2],
    [x - d - w, y - h / 2],
    [x - w / 2, y - d - h],
    [x - w / 2, y + d],
    [x + d * 0.7, y - d * 0.7 - h],
    [x - d * 0.7 - w, y - d * 0.7 - h],
    [x + d * 0.7, y + d * 0.7],
    [x - d * 0.7 - w, y + d * 0.7],
  ].map(([left, top]) => ({ left, top, right: left + w, bottom: top + h }));
}

const overlap = (a, b) =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
  Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));

/** The box moved the least to lie inside width x height (2 px in from each edge). */
function inside(box, width, height) {
  const dx = Math.min(0, width - 2 - box.right) || Math.max(0, 2 - box.left);
  const dy = Math.min(0, height - 2 - box.bottom) || Math.max(0, 2 - box.top);
  return { left: box.left + dx, top: box.top + dy, right: box.right + dx, bottom: box.bottom + dy };
}

/**
 * Places each `text` element of `labels` ({text, x, y, r}: its dot's centre and radius) given the
 * boxes of every dot drawn; the texts are already in the document, so they can be measured.
 */
export function placeLabels(labels, dots, width, height) {
  const taken = [...dots];
  for (const { text, x, y, r } of labels) {
    const size = text.getBBox();
    const options = places(x, y, r, size.width, size.height);
    const cost = (box) => taken.reduce((sum, t) => sum + overlap(box, t), 0);
    const moved = options.map((b) => inside(b, width, height));
    // A place that needed no move and overlaps nothing; else the least overlapping one, moved in.
    const fits = options.find((b, i) => b.left === moved[i].left && b.top === moved[i].top && cost(b) === 0);
    const box = fits ?? moved.reduce((best, b) => (cost(b) < cost(best) ? b : best));
    // The box's top left to the text's baseline origin: getBBox measured the text at (0, 0).
    text.setAttribute("x", (box.left - size.x).toFixed(1));
    text.setAttribute("y", (box.top - size.y).toFixed(1));
    taken.push(box);
  }
}
