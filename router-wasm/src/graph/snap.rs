//! Snapping: the grid cell of a point, the nearest node or lane point to a query point as an
//! [`Anchor`], and whether two anchors are connected.

use super::geo::{chord, chord_to_arc, unit};
use super::{Anchor, Graph, CELL_DEG, EARTH_RADIUS_M, GRID_COLS, GRID_ROWS};

pub(super) fn cell_of(lat: f64, lng: f64) -> usize {
    let r = (((lat + 90.0) / CELL_DEG).floor().max(0.0) as usize).min(GRID_ROWS - 1);
    let c = (((lng + 180.0) / CELL_DEG).floor().max(0.0) as usize).min(GRID_COLS - 1);
    r * GRID_COLS + c
}

impl Graph {
    /// Nearest node or intermediate lane point to a query point, via rings of grid cells. Snapping
    /// to lane points as well as nodes matters: long lanes pass close to ports (Colombo, Montreal)
    /// whose nearest node is 90-350 km away.
    ///
    /// Lane points of gated edges (canals, straits) are never snap targets: a route passes a gate
    /// only by using its whole edge, so closing a gate cannot move where a query starts.
    /// Whether two anchors lie in one component (an anchor's links all do: one node or one edge).
    pub fn connected(&self, a: &Anchor, b: &Anchor) -> bool {
        match (a.links.first(), b.links.first()) {
            (Some(&(x, _)), Some(&(y, _))) => {
                self.component[x as usize] == self.component[y as usize]
            }
            _ => false,
        }
    }

    pub fn snap(&self, lat: f64, lng: f64) -> Option<Anchor> {
        if self.grid_point.is_empty() || !lat.is_finite() || !lng.is_finite() {
            return None;
        }
        let q = unit(lat, lng);
        let (rows, cols) = (GRID_ROWS as i64, GRID_COLS as i64);
        let lng = (lng + 180.0).rem_euclid(360.0) - 180.0;
        let cell0 = cell_of(lat, lng) as i64;
        let (row0, col0) = (cell0 / cols, cell0 % cols);
        // The nearest of `points` (grid slots from `first`) if nearer than `best`: a slot and a chord.
        let scan = |points: &[[f64; 3]], first: usize, best: &mut Option<(usize, f64)>| {
            for (i, p) in points.iter().enumerate() {
                let d = chord(&q, p);
                if best.map_or(true, |(_, bd)| d < bd) {
                    *best = Some((first + i, d));
                }
            }
        };
        let mut best: Option<(usize, f64)> = None;
        let visit = |r: i64, c: i64, best: &mut Option<(usize, f64)>| {
            if r < 0 || r >= rows {
                return;
            }
            let cell = (r * cols + c.rem_euclid(cols)) as usize;
            let (lo, hi) = (
                self.grid_start[cell] as usize,
                self.grid_start[cell + 1] as usize,
            );
            scan(&self.grid_xyz[lo..hi], lo, best);
        };
        let mut done = false;
        for ring in 0..cols / 2 {
            if ring == 0 {
                visit(row0, col0, &mut best);
            } else {
                for c in col0 - ring..=col0 + ring {
                    visit(row0 - ring, c, &mut best);
                    visit(row0 + ring, c, &mut best);
                }
                for r in row0 - ring + 1..row0 + ring {
                    visit(r, col0 - ring, &mut best);
                    visit(r, col0 + ring, &mut best);
                }
            }
            if let Some((_, bd)) = best {
                // Anything beyond this ring is at least `ring` cells away in latitude, or in longitude
                // at latitudes up to max_lat, where sin(d/2) >= cos(lat) * dlng / pi.
                let step = (ring as f64 * CELL_DEG).to_radians();
                let max_lat = (lat.abs() + (ring + 1) as f64 * CELL_DEG)
                    .min(90.0)
                    .to_radians();
                if chord_to_arc(bd) <= step.min(2.0 * max_lat.cos() * step / std::f64::consts::PI) {
                    done = true;
                    break;
                }
            }
        }
        if !done {
            // The rings wrapped the globe (a point far from every lane): scan everything.
            scan(&self.grid_xyz, 0, &mut best);
        }
        best.map(|(slot, c)| self.anchor(slot, chord_to_arc(c) * EARTH_RADIUS_M))
    }

    /// The anchor of grid slot `slot` (its point and unit vector as the snap read them).
    fn anchor(&self, slot: usize, snap_m: f64) -> Anchor {
        let n = self.node_count();
        let id = self.grid_point[slot];
        let xyz = self.grid_xyz[slot];
        let i = id as usize;
        if i < n {
            return Anchor {
                point: id,
                lat: self.lat[i],
                lng: self.lng[i],
                xyz,
                snap_m,
                links: vec![(id, 0.0)],
                on_edge: None,
            };
        }
        let k = i - n;
        let e = self.geom_edge[k] as usize;
        let off = self.geom_off[k];
        Anchor {
            point: id,
            lat: self.geom[2 * k],
            lng: self.geom[2 * k + 1],
            xyz,
            snap_m,
            links: vec![
                (self.edge_from[e], off),
                (self.edge_to[e], (self.edge_len[e] - off).max(0.0)),
            ],
            on_edge: Some((e as u32, k as u32)),
        }
    }
}
