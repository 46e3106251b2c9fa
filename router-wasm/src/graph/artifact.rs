//! The graph artifact: decoding and checking one (payload version 2), and encoding a graph.

use super::{
    Graph, FORMAT_VERSION, HAS_EDGE_CLASS, HAS_EDGE_COUNTRY, HAS_EDGE_CURRENT, HAS_EDGE_FIXED,
    HAS_EDGE_LOCKS, HAS_EDGE_RULES, HAS_EDGE_SPEED, HAS_EDGE_WATERWAY, HAS_LANDMARKS,
    KNOWN_SECTIONS, META_WORDS,
};
use crate::container;
use crate::landmarks::Landmarks;

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

    pub(super) fn empty() -> Graph {
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
    pub(super) fn check(&self, n: usize, e: usize) -> Result<(), String> {
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
}
