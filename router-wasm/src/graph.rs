//! Transport graph in memory: nodes, CSR arcs over undirected edges, per-edge geometry, gates
//! (closable edge sets: sea passages, border crossings, tunnels), zone splits (emission zones,
//! tolled areas), optional per-edge attributes (speeds, classes, river currents, locks,
//! waterways, seasonal rules), a snapping grid and landmark bounds. Disk layout:
//! docs/graph-format.md (payload version 2).

use crate::container;
use crate::hierarchy::Hierarchy;
use crate::landmarks::Landmarks;
pub const FORMAT_VERSION: u32 =
    container::version_from_text(include_str!("../../formats/graph.version"));
/// Mean Earth radius in metres (IUGG), the same value the data build uses.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;
pub const MODE_SEA: u32 = 0;
const META_WORDS: usize = 16;
/// meta[8]: which optional sections the payload carries (the section table).
pub const HAS_EDGE_SPEED: u32 = 1;
pub const HAS_EDGE_CLASS: u32 = 1 << 1;
pub const HAS_EDGE_COUNTRY: u32 = 1 << 2;
pub const HAS_EDGE_FIXED: u32 = 1 << 3;
pub const HAS_LANDMARKS: u32 = 1 << 4;
/// River: signed current per edge, km/h, > 0 = the water flows from `edge_from` to `edge_to`.
pub const HAS_EDGE_CURRENT: u32 = 1 << 5;
/// River: lock count per edge (their time is in `edge_fixed_s`).
pub const HAS_EDGE_LOCKS: u32 = 1 << 6;
/// River: waterway index per edge (into `names.waterways`).
pub const HAS_EDGE_WATERWAY: u32 = 1 << 7;
/// River: seasonal rules per edge, CSR `rule_start` / `rule_id` (into `names.rules`).
pub const HAS_EDGE_RULES: u32 = 1 << 8;
const KNOWN_SECTIONS: u32 = (1 << 9) - 1;
/// Landmarks for ALT bounds; 16 keeps load fast and the table at 128 bytes per node.
pub const LANDMARKS: usize = 24;
/// Snapping grid cell size in degrees.
const CELL_DEG: f64 = 1.0;
const GRID_COLS: usize = 360;
const GRID_ROWS: usize = 180;

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
    pub edge_len: Vec<f64>,
    /// 0 = no gate, k = gate k - 1 (bit k - 1 of a closed mask).
    pub edge_gate: Vec<u8>,
    pub edge_mode: Vec<u8>,
    pub geom_start: Vec<u32>,
    /// Intermediate points of every edge, flat `[lat, lng]`, in edge direction.
    pub geom: Vec<f64>,
    pub zone_start: Vec<u32>,
    pub zone_id: Vec<u8>,
    pub zone_len: Vec<f64>,
    pub gate_count: u32,
    pub zone_count: u32,
    /// Optional sections present (`HAS_*` flags).
    pub sections: u32,
    /// km/h per edge (`HAS_EDGE_SPEED`; 0 = the query's default speed), else empty.
    pub edge_speed_kmh: Vec<f32>,
    /// Road/rail class per edge (`HAS_EDGE_CLASS`), else empty.
    pub edge_class: Vec<u8>,
    /// Index into `names.countries` per edge (`HAS_EDGE_COUNTRY`), else empty.
    pub edge_country: Vec<u16>,
    /// Fixed seconds per traversal for the time objective (ferries, border waits;
    /// `HAS_EDGE_FIXED`), else empty.
    pub edge_fixed_s: Vec<f32>,
    /// Signed current along `edge_from -> edge_to` in km/h (`HAS_EDGE_CURRENT`), else empty.
    pub edge_current_kmh: Vec<f32>,
    /// Locks per edge (`HAS_EDGE_LOCKS`), else empty.
    pub edge_locks: Vec<u8>,
    /// Waterway index per edge (`HAS_EDGE_WATERWAY`), else empty.
    pub edge_waterway: Vec<u16>,
    /// Seasonal rules of edge e: `rule_id[rule_start[e]..rule_start[e + 1]]` (`HAS_EDGE_RULES`),
    /// else both empty.
    pub rule_start: Vec<u32>,
    pub rule_id: Vec<u8>,
    // Derived at load.
    /// Highest edge speed in km/h (0 without the speed section): scales bounds for time queries.
    pub max_speed_kmh: f64,
    /// Highest over-ground river speed of the edges with a speed of their own: max(3, speed +
    /// |current|) in km/h (0 when no edge has a speed); bounds river queries.
    pub max_ground_kmh: f64,
    /// Highest |current| on edges without a speed of their own (they use the query's default
    /// speed), or -1 when every edge has a speed.
    pub max_default_current_kmh: f64,
    /// Waterway and rule indices in use: highest index + 1 (0 without the section).
    pub waterway_count: u32,
    pub rule_count: u32,
    pub edge_from: Vec<u32>,
    pub edge_to: Vec<u32>,
    /// Connected component of each node over all edges (gates open): two points in different
    /// components have no route whatever the query, so searches end before they start.
    pub component: Vec<u32>,
    /// Edge of each intermediate point and its distance along the edge from `edge_from`.
    pub geom_edge: Vec<u32>,
    pub geom_off: Vec<f64>,
    /// Snap points (ids `0..n` are nodes, `n + k` is intermediate point k) by grid cell, those on
    /// gated edges left out (a query never snaps to a passage): cell `c` holds
    /// `grid_start[c]..grid_start[c + 1]` of `grid_point` and of their unit vectors `grid_xyz`, so
    /// a snap scans one array instead of reading each point's id, edge and gate.
    grid_start: Vec<u32>,
    grid_point: Vec<u32>,
    grid_xyz: Vec<[f64; 3]>,
    pub landmarks: Option<Landmarks>,
    /// Contraction hierarchy for queries in its metric (a separate artifact attached after load:
    /// `Hierarchy::decode`); `None` = A* only.
    pub hierarchy: Option<Hierarchy>,
    /// `geom` and the nodes' `[lat, lng]` rounded as paths show them (`round_paths`), so a path
    /// copies its points instead of rounding thousands of coordinates per query.
    pub rounded: Option<Rounded>,
}

/// Path coordinates rounded to 5 decimals (`search::round_coord`): `[lat, lng]` of every path
/// point id (`search::point_id_count`: the intermediate points, then the nodes), so point id `i`
/// is at `points[2 * i]`.
pub struct Rounded {
    pub points: Vec<f64>,
}

/// An edge for [`Graph::build`]: endpoints, gate code, intermediate points and zone splits.
pub struct EdgeSpec {
    pub from: u32,
    pub to: u32,
    pub gate: u8,
    pub inner: Vec<(f64, f64)>,
    pub zones: Vec<(u8, f64)>,
}

/// Optional per-edge attributes for [`Graph::build`] (tests, tools); each vector empty or one per edge.
#[derive(Clone, Default)]
pub struct EdgeAttrs {
    pub speed_kmh: Vec<f32>,
    pub class: Vec<u8>,
    pub country: Vec<u16>,
    pub fixed_s: Vec<f32>,
    pub current_kmh: Vec<f32>,
    pub locks: Vec<u8>,
    pub waterway: Vec<u16>,
    /// Rule indices per edge (empty or one list per edge; all lists empty = no rule section).
    pub rules: Vec<Vec<u8>>,
}

/// Where a query point joins the graph: a node, or an intermediate point of an edge (then it
/// reaches both edge ends, at the lengths along the edge).
#[derive(Clone, Debug)]
pub struct Anchor {
    /// Snap point id (see `Graph::grid_point`).
    pub point: u32,
    pub lat: f64,
    pub lng: f64,
    pub xyz: [f64; 3],
    /// Great-circle metres from the query point.
    pub snap_m: f64,
    /// `(node, metres)` entries into the graph; one for a node anchor, two for an edge anchor.
    pub links: Vec<(u32, f64)>,
    /// For an edge anchor: the edge and the intermediate point index.
    pub on_edge: Option<(u32, u32)>,
}

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

pub fn chord(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let (x, y, z) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    (x * x + y * y + z * z).sqrt()
}

/// Lower bound in metres of the great-circle distance for a chord of unit vectors:
/// asin(x) >= x + x^3/6 on [0, 1], so no transcendental call is needed.
#[inline]
pub fn chord_bound_m(c: f64) -> f64 {
    EARTH_RADIUS_M * (c + c * c * c / 24.0)
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

fn cell_of(lat: f64, lng: f64) -> usize {
    let r = (((lat + 90.0) / CELL_DEG).floor().max(0.0) as usize).min(GRID_ROWS - 1);
    let c = (((lng + 180.0) / CELL_DEG).floor().max(0.0) as usize).min(GRID_COLS - 1);
    r * GRID_COLS + c
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
        let f32s = |name: &str| -> Result<Vec<f32>, String> {
            words(a.section(name)?, name, f32::from_le_bytes)
        };
        let meta = u32s("meta")?;
        if meta.len() < META_WORDS {
            return Err(format!("artifact {}: meta section too short", path));
        }
        let coords = f64s("node_coord")?;
        let mut g = Graph::empty();
        g.mode = meta[0];
        g.build_id = a.build_id.clone();
        g.lat = coords.iter().step_by(2).copied().collect();
        g.lng = coords.iter().skip(1).step_by(2).copied().collect();
        g.arc_start = u32s("arc_start")?;
        g.arc_head = u32s("arc_head")?;
        g.arc_edge = u32s("arc_edge")?;
        g.edge_len = f64s("edge_len")?;
        g.edge_gate = a.section("edge_gate")?.to_vec();
        g.edge_mode = a.section("edge_mode")?.to_vec();
        g.geom_start = u32s("geom_start")?;
        g.geom = f64s("geom_coord")?;
        g.zone_start = u32s("zone_start")?;
        g.zone_id = a.section("zone_id")?.to_vec();
        g.zone_len = f64s("zone_len")?;
        g.gate_count = meta[6];
        g.zone_count = meta[7];
        g.sections = meta[8];
        if g.sections & !KNOWN_SECTIONS != 0 {
            return Err(format!(
                "artifact {}: unknown optional sections {:#x}; update the router",
                path, g.sections
            ));
        }
        if g.sections & HAS_EDGE_SPEED != 0 {
            g.edge_speed_kmh = f32s("edge_speed_kmh")?;
        }
        if g.sections & HAS_EDGE_CLASS != 0 {
            g.edge_class = a.section("edge_class")?.to_vec();
        }
        if g.sections & HAS_EDGE_COUNTRY != 0 {
            g.edge_country = words(
                a.section("edge_country")?,
                "edge_country",
                u16::from_le_bytes,
            )?;
        }
        if g.sections & HAS_EDGE_FIXED != 0 {
            g.edge_fixed_s = f32s("edge_fixed_s")?;
        }
        if g.sections & HAS_EDGE_CURRENT != 0 {
            g.edge_current_kmh = f32s("edge_current_kmh")?;
        }
        if g.sections & HAS_EDGE_LOCKS != 0 {
            g.edge_locks = a.section("edge_locks")?.to_vec();
        }
        if g.sections & HAS_EDGE_WATERWAY != 0 {
            g.edge_waterway = words(
                a.section("edge_waterway")?,
                "edge_waterway",
                u16::from_le_bytes,
            )?;
        }
        if g.sections & HAS_EDGE_RULES != 0 {
            g.rule_start = u32s("rule_start")?;
            g.rule_id = a.section("rule_id")?.to_vec();
        }
        g.check(meta[1] as usize, meta[2] as usize)
            .map_err(|why| format!("artifact {}: {}", path, why))?;
        g.prepare();
        if g.sections & HAS_LANDMARKS != 0 {
            let lm = Landmarks::from_sections(
                &g,
                a.section("lm_meta")?,
                &u32s("lm_node")?,
                f64s("lm_dist")?,
            )
            .map_err(|why| {
                format!(
                    "artifact {}: {}; run `npm run build` (or `bun run data-build/main.ts`) to rebuild the artifacts",
                    path, why
                )
            })?;
            g.landmarks = Some(lm);
        }
        Ok(g)
    }

    /// Encodes the graph as a payload version 2 artifact (tests and tools; the data build has its
    /// own writer, data-build/graph/encode.ts). Landmarks are written when present.
    pub fn to_artifact(&self, kind: &str, build_id: &str) -> Vec<u8> {
        fn le<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
            v.iter().flat_map(|&x| f(x)).collect()
        }
        let mut meta = vec![0u32; META_WORDS];
        meta[..9].copy_from_slice(&[
            self.mode,
            self.node_count() as u32,
            self.edge_len.len() as u32,
            self.arc_head.len() as u32,
            (self.geom.len() / 2) as u32,
            self.zone_id.len() as u32,
            self.gate_count,
            self.zone_count,
            self.sections,
        ]);
        let coords: Vec<f64> = self
            .lat
            .iter()
            .zip(&self.lng)
            .flat_map(|(&a, &b)| [a, b])
            .collect();
        let mut sections: Vec<(&str, Vec<u8>)> = vec![
            ("meta", le(&meta, u32::to_le_bytes)),
            (
                "names",
                b"{\"mode\":\"\",\"gates\":[],\"zones\":[]}".to_vec(),
            ),
            ("node_coord", le(&coords, f64::to_le_bytes)),
            ("arc_start", le(&self.arc_start, u32::to_le_bytes)),
            ("arc_head", le(&self.arc_head, u32::to_le_bytes)),
            ("arc_edge", le(&self.arc_edge, u32::to_le_bytes)),
            ("edge_len", le(&self.edge_len, f64::to_le_bytes)),
            ("edge_gate", self.edge_gate.clone()),
            ("edge_mode", self.edge_mode.clone()),
            ("geom_start", le(&self.geom_start, u32::to_le_bytes)),
            ("geom_coord", le(&self.geom, f64::to_le_bytes)),
            ("zone_start", le(&self.zone_start, u32::to_le_bytes)),
            ("zone_id", self.zone_id.clone()),
            ("zone_len", le(&self.zone_len, f64::to_le_bytes)),
        ];
        if self.sections & HAS_EDGE_SPEED != 0 {
            sections.push(("edge_speed_kmh", le(&self.edge_speed_kmh, f32::to_le_bytes)));
        }
        if self.sections & HAS_EDGE_CLASS != 0 {
            sections.push(("edge_class", self.edge_class.clone()));
        }
        if self.sections & HAS_EDGE_COUNTRY != 0 {
            sections.push(("edge_country", le(&self.edge_country, u16::to_le_bytes)));
        }
        if self.sections & HAS_EDGE_FIXED != 0 {
            sections.push(("edge_fixed_s", le(&self.edge_fixed_s, f32::to_le_bytes)));
        }
        if self.sections & HAS_EDGE_CURRENT != 0 {
            sections.push((
                "edge_current_kmh",
                le(&self.edge_current_kmh, f32::to_le_bytes),
            ));
        }
        if self.sections & HAS_EDGE_LOCKS != 0 {
            sections.push(("edge_locks", self.edge_locks.clone()));
        }
        if self.sections & HAS_EDGE_WATERWAY != 0 {
            sections.push(("edge_waterway", le(&self.edge_waterway, u16::to_le_bytes)));
        }
        if self.sections & HAS_EDGE_RULES != 0 {
            sections.push(("rule_start", le(&self.rule_start, u32::to_le_bytes)));
            sections.push(("rule_id", self.rule_id.clone()));
        }
        if let (Some(lm), true) = (&self.landmarks, self.sections & HAS_LANDMARKS != 0) {
            let mut m = Vec::with_capacity(16);
            m.extend_from_slice(&(lm.count as u32).to_le_bytes());
            m.extend_from_slice(&lm.base_closed.to_le_bytes());
            m.extend_from_slice(&lm.checksum.to_le_bytes());
            sections.push(("lm_meta", m));
            sections.push(("lm_node", le(&lm.nodes, u32::to_le_bytes)));
            sections.push(("lm_dist", le(&lm.dist, f64::to_le_bytes)));
        }
        let refs: Vec<(&str, &[u8])> = sections.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        container::encode(kind, FORMAT_VERSION, build_id, &refs)
    }

    fn empty() -> Graph {
        Graph {
            mode: 0,
            build_id: String::new(),
            lat: Vec::new(),
            lng: Vec::new(),
            xyz: Vec::new(),
            arc_start: vec![0],
            arc_head: Vec::new(),
            arc_edge: Vec::new(),
            edge_len: Vec::new(),
            edge_gate: Vec::new(),
            edge_mode: Vec::new(),
            geom_start: vec![0],
            geom: Vec::new(),
            zone_start: vec![0],
            zone_id: Vec::new(),
            zone_len: Vec::new(),
            gate_count: 0,
            zone_count: 0,
            sections: 0,
            edge_speed_kmh: Vec::new(),
            edge_class: Vec::new(),
            edge_country: Vec::new(),
            edge_fixed_s: Vec::new(),
            edge_current_kmh: Vec::new(),
            edge_locks: Vec::new(),
            edge_waterway: Vec::new(),
            rule_start: Vec::new(),
            rule_id: Vec::new(),
            max_speed_kmh: 0.0,
            max_ground_kmh: 0.0,
            max_default_current_kmh: -1.0,
            waterway_count: 0,
            rule_count: 0,
            edge_from: Vec::new(),
            edge_to: Vec::new(),
            component: Vec::new(),
            geom_edge: Vec::new(),
            geom_off: Vec::new(),
            grid_start: Vec::new(),
            grid_point: Vec::new(),
            grid_xyz: Vec::new(),
            landmarks: None,
            hierarchy: None,
            rounded: None,
        }
    }

    /// Structural checks so a bad artifact fails at load, not with an out-of-bounds read mid-query.
    fn check(&self, n: usize, e: usize) -> Result<(), String> {
        let ok = self.lat.len() == n
            && self.lng.len() == n
            && self.arc_start.len() == n + 1
            && self.arc_head.len() == self.arc_edge.len()
            && self.arc_start[n] as usize == self.arc_head.len()
            && self.arc_start.windows(2).all(|w| w[0] <= w[1])
            && self.edge_len.len() == e
            && self.edge_gate.len() == e
            && self.edge_mode.len() == e
            && self.geom_start.len() == e + 1
            && self.geom_start.windows(2).all(|w| w[0] <= w[1])
            && self.geom_start[e] as usize * 2 == self.geom.len()
            && self.zone_start.len() == e + 1
            && self.zone_start.windows(2).all(|w| w[0] <= w[1])
            && self.zone_start[e] as usize == self.zone_id.len()
            && self.zone_len.len() == self.zone_id.len()
            && self.gate_count <= 32;
        let optional = |len: usize, flag: u32| {
            if self.sections & flag != 0 {
                len == e
            } else {
                len == 0
            }
        };
        let attrs_ok = optional(self.edge_speed_kmh.len(), HAS_EDGE_SPEED)
            && optional(self.edge_class.len(), HAS_EDGE_CLASS)
            && optional(self.edge_country.len(), HAS_EDGE_COUNTRY)
            && optional(self.edge_fixed_s.len(), HAS_EDGE_FIXED)
            && optional(self.edge_current_kmh.len(), HAS_EDGE_CURRENT)
            && optional(self.edge_locks.len(), HAS_EDGE_LOCKS)
            && optional(self.edge_waterway.len(), HAS_EDGE_WATERWAY)
            && self
                .edge_speed_kmh
                .iter()
                .all(|&v| v.is_finite() && v >= 0.0)
            && self.edge_fixed_s.iter().all(|&v| v.is_finite() && v >= 0.0)
            && self.edge_current_kmh.iter().all(|v| v.is_finite());
        // Rules: a CSR over the edges, from 0 to the end of rule_id, never going back.
        let rules_ok = if self.sections & HAS_EDGE_RULES != 0 {
            self.rule_start.len() == e + 1
                && self.rule_start[0] == 0
                && self.rule_start.windows(2).all(|w| w[0] <= w[1])
                && self.rule_start[e] as usize == self.rule_id.len()
        } else {
            self.rule_start.is_empty() && self.rule_id.is_empty()
        };
        let in_range = self.arc_head.iter().all(|&h| (h as usize) < n)
            && self.arc_edge.iter().all(|&x| ((x >> 1) as usize) < e)
            && self.edge_len.iter().all(|&l| l >= 0.0)
            && self.zone_id.iter().all(|&z| u32::from(z) < self.zone_count)
            && self
                .edge_gate
                .iter()
                .all(|&g| u32::from(g) <= self.gate_count);
        if ok && in_range && attrs_ok && rules_ok {
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
        Graph::build_with(
            mode,
            nodes,
            edges,
            gate_count,
            zone_count,
            EdgeAttrs::default(),
        )
    }

    /// [`Graph::build`] with optional per-edge attribute sections.
    pub fn build_with(
        mode: u32,
        nodes: &[(f64, f64)],
        edges: &[EdgeSpec],
        gate_count: u32,
        zone_count: u32,
        attrs: EdgeAttrs,
    ) -> Graph {
        let n = nodes.len();
        let mut g = Graph::empty();
        g.mode = mode;
        g.build_id = "in-memory".into();
        g.lat = nodes.iter().map(|p| p.0).collect();
        g.lng = nodes.iter().map(|p| p.1).collect();
        g.gate_count = gate_count;
        g.zone_count = zone_count;
        let mut degree = vec![0u32; n];
        for ed in edges {
            degree[ed.from as usize] += 1;
            degree[ed.to as usize] += 1;
        }
        g.arc_start = std::iter::once(0)
            .chain(degree.iter().scan(0u32, |acc, &d| {
                *acc += d;
                Some(*acc)
            }))
            .collect();
        let mut fill = g.arc_start.clone();
        g.arc_head = vec![0u32; edges.len() * 2];
        g.arc_edge = vec![0u32; edges.len() * 2];
        for (i, ed) in edges.iter().enumerate() {
            let (f, t) = (ed.from as usize, ed.to as usize);
            g.arc_head[fill[f] as usize] = ed.to;
            g.arc_edge[fill[f] as usize] = (i as u32) << 1;
            fill[f] += 1;
            g.arc_head[fill[t] as usize] = ed.from;
            g.arc_edge[fill[t] as usize] = ((i as u32) << 1) | 1;
            fill[t] += 1;
            let mut pts = vec![nodes[f]];
            pts.extend_from_slice(&ed.inner);
            pts.push(nodes[t]);
            g.edge_len.push(
                pts.windows(2)
                    .map(|w| haversine_m(w[0].0, w[0].1, w[1].0, w[1].1))
                    .sum(),
            );
            g.edge_gate.push(ed.gate);
            g.edge_mode.push(mode as u8);
            for p in &ed.inner {
                g.geom.push(p.0);
                g.geom.push(p.1);
            }
            g.geom_start.push((g.geom.len() / 2) as u32);
            for &(z, m) in &ed.zones {
                g.zone_id.push(z);
                g.zone_len.push(m);
            }
            g.zone_start.push(g.zone_id.len() as u32);
        }
        let flag = |len: usize, f: u32| if len > 0 { f } else { 0 };
        g.sections = flag(attrs.speed_kmh.len(), HAS_EDGE_SPEED)
            | flag(attrs.class.len(), HAS_EDGE_CLASS)
            | flag(attrs.country.len(), HAS_EDGE_COUNTRY)
            | flag(attrs.fixed_s.len(), HAS_EDGE_FIXED)
            | flag(attrs.current_kmh.len(), HAS_EDGE_CURRENT)
            | flag(attrs.locks.len(), HAS_EDGE_LOCKS)
            | flag(attrs.waterway.len(), HAS_EDGE_WATERWAY);
        g.edge_speed_kmh = attrs.speed_kmh;
        g.edge_class = attrs.class;
        g.edge_country = attrs.country;
        g.edge_fixed_s = attrs.fixed_s;
        g.edge_current_kmh = attrs.current_kmh;
        g.edge_locks = attrs.locks;
        g.edge_waterway = attrs.waterway;
        // Like the data build's writer: the rule section exists when some edge has a rule.
        if attrs.rules.iter().any(|r| !r.is_empty()) {
            assert_eq!(attrs.rules.len(), edges.len(), "one rule list per edge");
            g.sections |= HAS_EDGE_RULES;
            g.rule_start.push(0);
            for r in &attrs.rules {
                g.rule_id.extend_from_slice(r);
                g.rule_start.push(g.rule_id.len() as u32);
            }
        }
        g.check(n, edges.len()).expect("consistent in-memory graph");
        g.prepare();
        g.prepare_landmarks(0);
        g
    }

    /// Derived data: edge endpoints, intermediate point offsets, snapping grid. Landmarks come
    /// separately from `prepare_landmarks` (they depend on the caller's default closures).
    fn prepare(&mut self) {
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

    /// FNV-1a 64 over the bytes of the sections the landmark distances depend on (`arc_start`,
    /// `arc_head`, `arc_edge`, `edge_len`, `edge_gate`, in that order, little-endian): what ties a
    /// landmark table to its graph.
    pub fn topology_checksum(&self) -> u64 {
        let mut h = container::Fnv::new();
        for v in self
            .arc_start
            .iter()
            .chain(&self.arc_head)
            .chain(&self.arc_edge)
        {
            h.write(&v.to_le_bytes());
        }
        for l in &self.edge_len {
            h.write(&l.to_le_bytes());
        }
        h.write(&self.edge_gate);
        h.finish()
    }

    /// Seasonal rule indices of edge `e` (empty without the rule section).
    #[inline]
    pub fn rules_of(&self, e: usize) -> &[u8] {
        match self.rule_start.get(e..e + 2) {
            Some(w) => &self.rule_id[w[0] as usize..w[1] as usize],
            None => &[],
        }
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

    pub fn node_count(&self) -> usize {
        self.lat.len()
    }

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
