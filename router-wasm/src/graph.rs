//! Transport graph in memory: nodes, CSR arcs over undirected edges, per-edge geometry, gates
//! (passages), zone splits (ECA) and a snapping grid. Layout on disk: docs/graph-format.md.

use crate::container;
use crate::landmarks::Landmarks;

pub const FORMAT_VERSION: u32 = 1;
/// Mean Earth radius in metres (IUGG), the same value the data build uses.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;
pub const MODE_SEA: u32 = 0;
const META_WORDS: usize = 16;
/// Landmarks for ALT bounds; 16 keeps load under ~50 ms and the table at 128 bytes per node.
pub const LANDMARKS: usize = 16;

pub struct Graph {
    pub mode: u32,
    pub build_id: String,
    pub lat: Vec<f64>,
    pub lng: Vec<f64>,
    /// Unit vectors of the nodes, for cheap great-circle bounds.
    pub xyz: Vec<[f64; 3]>,
    pub arc_start: Vec<u32>,
    pub arc_head: Vec<u32>,
    /// `edge << 1 | reversed`.
    pub arc_edge: Vec<u32>,
    /// Edge endpoints, derived from the arcs at load.
    pub edge_from: Vec<u32>,
    pub edge_to: Vec<u32>,
    pub edge_len: Vec<f64>,
    /// 0 = no gate, k = gate k - 1 (bit k - 1 of a closed mask).
    pub edge_gate: Vec<u8>,
    pub edge_mode: Vec<u8>,
    pub geom_start: Vec<u32>,
    /// Intermediate points of every edge, flat `[lat, lng]`, in edge direction.
    pub geom: Vec<f64>,
    pub eca_start: Vec<u32>,
    pub eca_zone: Vec<u8>,
    pub eca_len: Vec<f64>,
    pub gate_count: u32,
    pub zone_count: u32,
    grid_cols: usize,
    grid_rows: usize,
    cell_deg: f64,
    grid_start: Vec<u32>,
    grid_node: Vec<u32>,
    pub landmarks: Option<Landmarks>,
}

/// An edge for [`Graph::build`]: endpoints, gate code, intermediate points and zone splits.
pub struct EdgeSpec {
    pub from: u32,
    pub to: u32,
    pub gate: u8,
    pub inner: Vec<(f64, f64)>,
    pub zones: Vec<(u8, f64)>,
}

pub fn unit(lat: f64, lng: f64) -> [f64; 3] {
    let (la, lo) = (lat.to_radians(), lng.to_radians());
    [la.cos() * lo.cos(), la.cos() * lo.sin(), la.sin()]
}

/// Great-circle distance in metres.
pub fn haversine_m(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let d_lat = (lat2 - lat1).to_radians();
    let d_lng = (lng2 - lng1).to_radians();
    let a = (d_lat / 2.0).sin().powi(2)
        + lat1.to_radians().cos() * lat2.to_radians().cos() * (d_lng / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * a.sqrt().min(1.0).asin()
}

fn chord(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let (x, y, z) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    (x * x + y * y + z * z).sqrt()
}

/// Arc angle from the chord of two unit vectors.
fn chord_to_arc(c: f64) -> f64 {
    2.0 * (c / 2.0).min(1.0).asin()
}

fn words<T: Copy, const N: usize>(
    bytes: &[u8],
    name: &str,
    conv: fn([u8; N]) -> T,
) -> Result<Vec<T>, String> {
    if bytes.len() % N != 0 {
        return Err(format!("section {} is not a multiple of {} bytes", name, N));
    }
    Ok(bytes
        .chunks_exact(N)
        .map(|c| {
            let mut a = [0u8; N];
            a.copy_from_slice(c);
            conv(a)
        })
        .collect())
}

impl Graph {
    /// Decodes and checks a graph artifact of the given kind (for example `sea-graph`).
    pub fn from_artifact(bytes: &[u8], kind: &str, path: &str) -> Result<Graph, String> {
        let a = container::decode(bytes, kind, FORMAT_VERSION, path)?;
        let u32s = |name: &str| -> Result<Vec<u32>, String> {
            words(a.section(name)?, name, u32::from_le_bytes)
        };
        let f64s = |name: &str| -> Result<Vec<f64>, String> {
            words(a.section(name)?, name, f64::from_le_bytes)
        };
        let meta = u32s("meta")?;
        if meta.len() < META_WORDS {
            return Err(format!("artifact {}: meta section too short", path));
        }
        let coords = f64s("node_coord")?;
        let n = meta[1] as usize;
        let e = meta[2] as usize;
        let g = Graph {
            edge_from: Vec::new(),
            edge_to: Vec::new(),
            mode: meta[0],
            build_id: a.build_id.clone(),
            lat: coords.iter().step_by(2).copied().collect(),
            lng: coords.iter().skip(1).step_by(2).copied().collect(),
            xyz: coords.chunks_exact(2).map(|c| unit(c[0], c[1])).collect(),
            arc_start: u32s("arc_start")?,
            arc_head: u32s("arc_head")?,
            arc_edge: u32s("arc_edge")?,
            edge_len: f64s("edge_len")?,
            edge_gate: a.section("edge_gate")?.to_vec(),
            edge_mode: a.section("edge_mode")?.to_vec(),
            geom_start: u32s("geom_start")?,
            geom: f64s("geom_coord")?,
            eca_start: u32s("eca_start")?,
            eca_zone: a.section("eca_zone")?.to_vec(),
            eca_len: f64s("eca_len")?,
            gate_count: meta[6],
            zone_count: meta[7],
            grid_cols: meta[8] as usize,
            grid_rows: meta[9] as usize,
            cell_deg: f64::from(meta[10]) / 1e6,
            grid_start: u32s("grid_start")?,
            grid_node: u32s("grid_node")?,
            landmarks: None,
        };
        let mut g = g;
        g.check(n, e)
            .map_err(|why| format!("artifact {}: {}", path, why))?;
        g.prepare();
        Ok(g)
    }

    /// Structural checks so a bad artifact fails at load, not with an out-of-bounds read mid-query.
    fn check(&self, n: usize, e: usize) -> Result<(), String> {
        let ok = self.lat.len() == n
            && self.arc_start.len() == n + 1
            && self.arc_head.len() == self.arc_edge.len()
            && self.arc_start[n] as usize == self.arc_head.len()
            && self.edge_len.len() == e
            && self.edge_gate.len() == e
            && self.edge_mode.len() == e
            && self.geom_start.len() == e + 1
            && self.geom_start[e] as usize * 2 == self.geom.len()
            && self.eca_start.len() == e + 1
            && self.eca_start[e] as usize == self.eca_zone.len()
            && self.eca_len.len() == self.eca_zone.len()
            && self.grid_start.len() == self.grid_cols * self.grid_rows + 1
            && self.grid_node.len() == n
            && self.cell_deg > 0.0
            && self.gate_count <= 32;
        let in_range = self.arc_head.iter().all(|&h| (h as usize) < n)
            && self.arc_edge.iter().all(|&x| ((x >> 1) as usize) < e)
            && self.grid_node.iter().all(|&x| (x as usize) < n)
            && self
                .eca_zone
                .iter()
                .all(|&z| u32::from(z) < self.zone_count)
            && self
                .edge_gate
                .iter()
                .all(|&g| u32::from(g) <= self.gate_count);
        if ok && in_range {
            Ok(())
        } else {
            Err("inconsistent section sizes or indices".into())
        }
    }

    /// Builds a graph in memory (tests, tools): lengths are great-circle lengths of the polylines.
    pub fn build(
        mode: u32,
        nodes: &[(f64, f64)],
        edges: &[EdgeSpec],
        gate_count: u32,
        zone_count: u32,
    ) -> Graph {
        let n = nodes.len();
        let mut degree = vec![0u32; n + 1];
        for ed in edges {
            degree[ed.from as usize] += 1;
            degree[ed.to as usize] += 1;
        }
        let mut arc_start = vec![0u32; n + 1];
        for i in 0..n {
            arc_start[i + 1] = arc_start[i] + degree[i];
        }
        let mut fill = arc_start.clone();
        let mut arc_head = vec![0u32; edges.len() * 2];
        let mut arc_edge = vec![0u32; edges.len() * 2];
        let (mut edge_len, mut geom, mut geom_start) = (Vec::new(), Vec::new(), vec![0u32]);
        let (mut eca_start, mut eca_zone, mut eca_len) = (vec![0u32], Vec::new(), Vec::new());
        for (i, ed) in edges.iter().enumerate() {
            let (f, t) = (ed.from as usize, ed.to as usize);
            arc_head[fill[f] as usize] = ed.to;
            arc_edge[fill[f] as usize] = (i as u32) << 1;
            fill[f] += 1;
            arc_head[fill[t] as usize] = ed.from;
            arc_edge[fill[t] as usize] = ((i as u32) << 1) | 1;
            fill[t] += 1;
            let mut pts = vec![nodes[f]];
            pts.extend_from_slice(&ed.inner);
            pts.push(nodes[t]);
            edge_len.push(
                pts.windows(2)
                    .map(|w| haversine_m(w[0].0, w[0].1, w[1].0, w[1].1))
                    .sum(),
            );
            for p in &ed.inner {
                geom.push(p.0);
                geom.push(p.1);
            }
            geom_start.push((geom.len() / 2) as u32);
            for &(z, m) in &ed.zones {
                eca_zone.push(z);
                eca_len.push(m);
            }
            eca_start.push(eca_zone.len() as u32);
        }
        let (cols, rows) = (360usize, 180usize);
        let cell = |p: &(f64, f64)| -> usize {
            let r = ((p.0 + 90.0).floor().max(0.0) as usize).min(rows - 1);
            let c = ((p.1 + 180.0).floor().max(0.0) as usize).min(cols - 1);
            r * cols + c
        };
        let mut grid_start = vec![0u32; cols * rows + 1];
        for p in nodes {
            grid_start[cell(p) + 1] += 1;
        }
        for c in 0..cols * rows {
            grid_start[c + 1] += grid_start[c];
        }
        let mut gfill = grid_start.clone();
        let mut grid_node = vec![0u32; n];
        for (i, p) in nodes.iter().enumerate() {
            grid_node[gfill[cell(p)] as usize] = i as u32;
            gfill[cell(p)] += 1;
        }
        let mut g = Graph {
            edge_from: Vec::new(),
            edge_to: Vec::new(),
            mode,
            build_id: "in-memory".into(),
            lat: nodes.iter().map(|p| p.0).collect(),
            lng: nodes.iter().map(|p| p.1).collect(),
            xyz: nodes.iter().map(|p| unit(p.0, p.1)).collect(),
            arc_start,
            arc_head,
            arc_edge,
            edge_gate: edges.iter().map(|e| e.gate).collect(),
            edge_mode: vec![mode as u8; edges.len()],
            edge_len,
            geom_start,
            geom,
            eca_start,
            eca_zone,
            eca_len,
            gate_count,
            zone_count,
            grid_cols: cols,
            grid_rows: rows,
            cell_deg: 1.0,
            grid_start,
            grid_node,
            landmarks: None,
        };
        g.prepare();
        g.prepare_landmarks(0);
        g
    }

    /// Derived data: edge endpoints (landmarks come from `prepare_landmarks`).
    fn prepare(&mut self) {
        let e = self.edge_len.len();
        self.edge_from = vec![0; e];
        self.edge_to = vec![0; e];
        for u in 0..self.node_count() {
            for a in self.arc_start[u] as usize..self.arc_start[u + 1] as usize {
                let x = self.arc_edge[a];
                if x & 1 == 0 {
                    self.edge_from[(x >> 1) as usize] = u as u32;
                    self.edge_to[(x >> 1) as usize] = self.arc_head[a];
                }
            }
        }
    }

    /// (Re)computes the landmark tables for queries that always close `base_closed`.
    pub fn prepare_landmarks(&mut self, base_closed: u32) {
        self.landmarks = None;
        self.landmarks = Some(Landmarks::select(self, LANDMARKS, base_closed));
    }

    pub fn node_count(&self) -> usize {
        self.lat.len()
    }

    /// Lower bound in metres of the sea distance between two nodes.
    #[inline]
    pub fn bound_m(&self, a: u32, b: u32) -> f64 {
        let c = chord(&self.xyz[a as usize], &self.xyz[b as usize]);
        // asin(x) >= x + x^3/6 on [0, 1], so this stays below the arc without a transcendental call.
        EARTH_RADIUS_M * (c + c * c * c / 24.0)
    }

    /// Nearest node to a point and its great-circle distance in metres, via rings of grid cells.
    pub fn snap(&self, lat: f64, lng: f64) -> Option<(u32, f64)> {
        if self.lat.is_empty() || !lat.is_finite() || !lng.is_finite() {
            return None;
        }
        let q = unit(lat, lng);
        let rows = self.grid_rows as i64;
        let cols = self.grid_cols as i64;
        let row0 = (((lat + 90.0) / self.cell_deg).floor() as i64).clamp(0, rows - 1);
        let lng = (lng + 180.0).rem_euclid(360.0) - 180.0;
        let col0 = (((lng + 180.0) / self.cell_deg).floor() as i64).clamp(0, cols - 1);
        let mut best: Option<(u32, f64)> = None;
        let visit = |r: i64, c: i64, best: &mut Option<(u32, f64)>| {
            if r < 0 || r >= rows {
                return;
            }
            let cell = (r * cols + c.rem_euclid(cols)) as usize;
            for &node in
                &self.grid_node[self.grid_start[cell] as usize..self.grid_start[cell + 1] as usize]
            {
                let d = chord(&q, &self.xyz[node as usize]);
                if best.map_or(true, |(_, bd)| d < bd) {
                    *best = Some((node, d));
                }
            }
        };
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
                let step = (ring as f64 * self.cell_deg).to_radians();
                let max_lat = (lat.abs() + (ring + 1) as f64 * self.cell_deg)
                    .min(90.0)
                    .to_radians();
                if chord_to_arc(bd) <= step.min(2.0 * max_lat.cos() * step / std::f64::consts::PI) {
                    return best.map(|(node, c)| (node, chord_to_arc(c) * EARTH_RADIUS_M));
                }
            }
        }
        // Rings now wrap the globe (a point far from every node): a full scan is simpler and exact.
        for (node, p) in self.xyz.iter().enumerate() {
            let d = chord(&q, p);
            if best.map_or(true, |(_, bd)| d < bd) {
                best = Some((node as u32, d));
            }
        }
        best.map(|(node, c)| (node, chord_to_arc(c) * EARTH_RADIUS_M))
    }
}
