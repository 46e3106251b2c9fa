//! Derived data of a loaded or built graph: components, edge ends, point offsets, the snapping
//! grid, landmark tables and rounded path coordinates.

use super::geo::{haversine_m, unit};
use super::snap::cell_of;
use super::{Graph, Rounded, GRID_COLS, GRID_ROWS, HAS_LANDMARKS, LANDMARKS};
use crate::landmarks::Landmarks;

/// Component label per node (the smallest-index root of a union-find over the edges).
fn components(n: usize, from: &[u32], to: &[u32]) -> Vec<u32> {
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for (&a, &b) in from.iter().zip(to) {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
    (0..n as u32).map(|x| find(&mut parent, x)).collect()
}

impl Graph {
    /// Derived data: edge endpoints, intermediate point offsets, snapping grid. Landmarks come
    /// separately from `prepare_landmarks` (they depend on the caller's default closures).
    pub(super) fn prepare(&mut self) {
        let n = self.node_count();
        let e = self.edge_len.len();
        self.max_speed_kmh = self
            .edge_speed_kmh
            .iter()
            .fold(0.0f64, |m, &v| m.max(f64::from(v)));
        self.max_ground_kmh = 0.0;
        self.max_default_current_kmh = -1.0;
        for ed in 0..e {
            let cur = self
                .edge_current_kmh
                .get(ed)
                .map_or(0.0, |&c| f64::from(c).abs());
            match self.edge_speed_kmh.get(ed).map(|&v| f64::from(v)) {
                Some(kmh) if kmh > 0.0 => {
                    self.max_ground_kmh = self.max_ground_kmh.max((kmh + cur).max(3.0))
                }
                _ => self.max_default_current_kmh = self.max_default_current_kmh.max(cur),
            }
        }
        self.waterway_count = self
            .edge_waterway
            .iter()
            .map(|&w| u32::from(w) + 1)
            .max()
            .unwrap_or(0);
        self.rule_count = self
            .rule_id
            .iter()
            .map(|&r| u32::from(r) + 1)
            .max()
            .unwrap_or(0);
        self.xyz = (0..n).map(|i| unit(self.lat[i], self.lng[i])).collect();
        self.edge_from = vec![0; e];
        self.edge_to = vec![0; e];
        for u in 0..n {
            for a in self.arc_start[u] as usize..self.arc_start[u + 1] as usize {
                let x = self.arc_edge[a];
                if x & 1 == 0 {
                    self.edge_from[(x >> 1) as usize] = u as u32;
                    self.edge_to[(x >> 1) as usize] = self.arc_head[a];
                }
            }
        }
        self.component = components(n, &self.edge_from, &self.edge_to);
        let k = self.geom.len() / 2;
        self.geom_edge = vec![0; k];
        self.geom_off = vec![0.0; k];
        for ed in 0..e {
            let from = self.edge_from[ed] as usize;
            let (mut lat, mut lng, mut off) = (self.lat[from], self.lng[from], 0.0);
            for i in self.geom_start[ed] as usize..self.geom_start[ed + 1] as usize {
                let (pl, pg) = (self.geom[2 * i], self.geom[2 * i + 1]);
                off += haversine_m(lat, lng, pl, pg);
                self.geom_edge[i] = ed as u32;
                self.geom_off[i] = off;
                lat = pl;
                lng = pg;
            }
        }
        let point = |id: usize| -> (f64, f64) {
            if id < n {
                (self.lat[id], self.lng[id])
            } else {
                (self.geom[2 * (id - n)], self.geom[2 * (id - n) + 1])
            }
        };
        let gated = |id: usize| id >= n && self.edge_gate[self.geom_edge[id - n] as usize] != 0;
        let mut start = vec![0u32; GRID_COLS * GRID_ROWS + 1];
        for id in (0..n + k).filter(|&id| !gated(id)) {
            let (la, lo) = point(id);
            start[cell_of(la, lo) + 1] += 1;
        }
        for c in 0..GRID_COLS * GRID_ROWS {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let total = start[GRID_COLS * GRID_ROWS] as usize;
        let mut grid_point = vec![0u32; total];
        let mut grid_xyz = vec![[0.0; 3]; total];
        for id in (0..n + k).filter(|&id| !gated(id)) {
            let (la, lo) = point(id);
            let c = cell_of(la, lo);
            grid_point[fill[c] as usize] = id as u32;
            grid_xyz[fill[c] as usize] = unit(la, lo);
            fill[c] += 1;
        }
        self.grid_start = start;
        self.grid_point = grid_point;
        self.grid_xyz = grid_xyz;
    }

    /// (Re)computes the landmark tables for queries that always close `base_closed` (tests and
    /// tools; artifacts carry tables computed by the data build, see `Landmarks::from_sections`).
    pub fn prepare_landmarks(&mut self, base_closed: u32) {
        self.landmarks = None;
        self.landmarks = Some(Landmarks::select(self, LANDMARKS, base_closed));
        self.sections |= HAS_LANDMARKS;
    }

    /// Fills `rounded` (once; the router does it on the first path query of a graph with a
    /// hierarchy).
    pub fn round_paths(&mut self) {
        if self.rounded.is_none() {
            let round = crate::search::round_coord;
            let nodes = self.lat.iter().zip(&self.lng);
            let geom = self.geom.iter().map(|&v| round(v));
            self.rounded = Some(Rounded {
                points: geom
                    .chain(nodes.flat_map(|(&a, &b)| [round(a), round(b)]))
                    .collect(),
            });
        }
    }
}
