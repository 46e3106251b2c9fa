//! Graphs built in memory from edge specs and optional per-edge attributes (tests, tools).

use super::geo::haversine_m;
use super::{
    Graph, HAS_EDGE_CLASS, HAS_EDGE_COUNTRY, HAS_EDGE_CURRENT, HAS_EDGE_FIXED, HAS_EDGE_LOCKS,
    HAS_EDGE_RULES, HAS_EDGE_SPEED, HAS_EDGE_WATERWAY,
};

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

impl Graph {
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
}
