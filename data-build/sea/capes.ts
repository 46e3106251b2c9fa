/**
 * The capes a voyage rounds, as gates: each is a line south to the Antarctic ice along the
 * meridian that divides the oceans there (20 E at Cape Agulhas, Atlantic and Indian; 67 16' W at
 * Cape Horn, Atlantic and Pacific). Every route round the cape crosses its line, so the edges that
 * cross it carry the cape's gate: a route names the cape among its passages (the corridor it
 * takes, beside Suez and Panama), and `avoid` can close it like any passage.
 *
 * A line starts north of its cape, over land, because coarse lanes cut a cape's corner: on 20 E
 * there is no water between the Cape (34.8 S) and 30 S, so a lane crossing there rounds the Cape
 * too; on 67 16' W the line starts south of Tierra del Fuego's main island (54.5 S), clear of the
 * lanes leaving the Strait of Magellan (52-53 S), which is a passage of its own.
 */

export interface Cape {
  id: string;
  name: string;
  /** The meridian of the line. */
  lng: number;
  /** Its ends: north of the cape (over land) and the ice's latitude. */
  north: number;
  south: number;
}

export const CAPES: readonly Cape[] = [
  { id: "good_hope", name: "Cape of Good Hope", lng: 20, north: -30, south: -72 },
  { id: "cape_horn", name: "Cape Horn", lng: -67.27, north: -54.5, south: -72 },
];

/**
 * The index in `capes` of the first cape whose line the polyline (flat lat, lng pairs) crosses, or
 * -1. Segments run straight in lat/lng, as the router draws them; a segment spanning more than
 * 180 degrees of longitude crosses the antimeridian, far from these lines, not the lines. A point
 * on the meridian counts as east of it, so a lane drawn along the meridian, or split at a point on
 * it, crosses where the same line drawn otherwise does, and nowhere else.
 */
export function capeCrossed(coords: ArrayLike<number>, capes: readonly Cape[] = CAPES): number {
  for (let i = 0; i + 3 < coords.length; i += 2) {
    const [lat1, lng1, lat2, lng2] = [coords[i]!, coords[i + 1]!, coords[i + 2]!, coords[i + 3]!];
    if (Math.abs(lng2 - lng1) > 180) continue;
    for (const [k, cape] of capes.entries()) {
      if (lng1 >= cape.lng === lng2 >= cape.lng) continue;
      const lat = lat1 + ((cape.lng - lng1) / (lng2 - lng1)) * (lat2 - lat1);
      if (lat <= cape.north && lat >= cape.south) return k;
    }
  }
  return -1;
}
