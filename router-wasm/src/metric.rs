//! What a contraction hierarchy's edge weights are (docs/routing-speed.md, "Hierarchies per
//! graph"): metres (the sea) or seconds of the time objective at one default speed (road, rail).
//! A query uses the hierarchy only when its objective is the hierarchy's metric; any other
//! objective is answered by A*.

use crate::container::Fnv;
use crate::graph::Graph;
use crate::search::{Costing, Objective};

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Metric {
    /// Metres (`edge_len`).
    #[default]
    Distance,
    /// Seconds of `Objective::Time` with this default speed (km/h, finite, > 0).
    Time(f64),
}

impl Metric {
    /// The metric of a time objective's default speed, or distance for 0 (the FFI's encoding).
    pub fn from_kmh(kmh: f64) -> Option<Metric> {
        if kmh == 0.0 {
            Some(Metric::Distance)
        } else if kmh.is_finite() && kmh > 0.0 {
            Some(Metric::Time(kmh))
        } else {
            None
        }
    }

    /// The default speed of a time metric, 0 for distance (the FFI's encoding).
    pub fn kmh(self) -> f64 {
        match self {
            Metric::Distance => 0.0,
            Metric::Time(kmh) => kmh,
        }
    }

    pub fn objective(self) -> Objective<'static> {
        match self {
            Metric::Distance => Objective::Distance,
            Metric::Time(default_kmh) => Objective::Time { default_kmh },
        }
    }

    /// Whether queries with `objective` may use a hierarchy of this metric: exactly the same
    /// costs (a time objective at another default speed is not).
    pub fn serves(self, objective: &Objective) -> bool {
        match (self, *objective) {
            (Metric::Distance, Objective::Distance) => true,
            (Metric::Time(a), Objective::Time { default_kmh }) => a == default_kmh,
            _ => false,
        }
    }

    /// Cost of each edge, the same in both directions: the very `Costing::arc` A* adds.
    pub fn weights(self, g: &Graph) -> Vec<f64> {
        let cost = Costing::new(g, self.objective());
        (0..g.edge_len.len() as u32)
            .map(|e| cost.arc(e << 1))
            .collect()
    }

    /// What ties a hierarchy to its graph: the topology checksum for distance; for time, that
    /// and the edge speeds and fixed seconds the weights come from.
    pub fn checksum(self, g: &Graph) -> u64 {
        let topology = g.topology_checksum();
        match self {
            Metric::Distance => topology,
            Metric::Time(_) => {
                let mut h = Fnv::new();
                h.write(&topology.to_le_bytes());
                for s in g.edge_speed_kmh.iter().chain(&g.edge_fixed_s) {
                    h.write(&s.to_le_bytes());
                }
                h.finish()
            }
        }
    }
}
