//! Transport graph in memory: nodes, CSR arcs over undirected edges, per-edge geometry, gates
//! (closable edge sets: sea passages, border crossings, tunnels), zone splits (emission zones,
//! tolled areas), optional per-edge attributes (speeds, classes, river currents, locks,
//! waterways, seasonal rules), a snapping grid and landmark bounds. Disk layout:
//! docs/graph-format.md (payload version 2).
//!
//! The graph's types and constants live here; the artifact, in-memory builds, derived data,
//! snapping and spherical geometry live in the submodules.

mod artifact;
mod build;
mod geo;
mod prepare;
mod snap;

pub use build::{EdgeAttrs, EdgeSpec};
pub use geo::{chord, chord_bound_m, haversine_m, unit};

use crate::container;
use crate::hierarchy::Hierarchy;
use crate::landmarks::Landmarks;

pub const FORMAT_VERSION: u32 =
    container::version_from_text(include_str!("../../../formats/graph.version"));
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

impl Graph {
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

    pub fn node_count(&self) -> usize {
        self.lat.len()
    }
}
