//! A* over a [`Graph`] between two anchors, and Dijkstra from one anchor to many, with
//! query-time closed gates, per-query edge costs (distance, time, or direction-aware river time,
//! from edge attributes and query inputs), ALT bounds and a settle budget. The searcher's state and
//! entry point live here; costing, A*, the hierarchy bridge, one-to-many and route summaries live
//! in the submodules.

mod astar;
mod ch;
mod costing;
mod one_to_many;
mod river;
mod summary;

pub use costing::{
    Costing, Objective, River, RIVER_AVOID_BELOW_CLASS, RIVER_MIN_GROUND_KMH,
    RIVER_OPERATING_FACTOR,
};
pub use one_to_many::Many;
pub use river::{summarize_river, RiverSummary};
#[cfg(test)]
pub(crate) use summary::round_half_away;
pub use summary::{
    pieces, point_id_count, round_coord, summarize, summarize_into, PathOut, Summary, NO_POINT,
};

use crate::graph::{chord, chord_bound_m, Anchor, Graph};
use crate::hierarchy::ChSearch;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Found = 0,
    NoRoute = 1,
    BudgetExhausted = 2,
}

pub struct Query<'a> {
    pub from: &'a Anchor,
    pub to: &'a Anchor,
    /// Bit k set = edges with gate k + 1 are closed.
    pub closed: u32,
    /// Maximum heap pops (settles, counting re-opened nodes); 0 = unlimited.
    pub max_settled: u32,
    pub objective: Objective<'a>,
}

#[derive(Default, Debug)]
pub struct Route {
    /// Length of the route in metres.
    pub metres: f64,
    /// What the search minimised (metres for `Distance`, seconds for `Time`).
    pub cost: f64,
    /// Arcs from the source link node to the target link node.
    pub arcs: Vec<u32>,
    /// Which link of each anchor the route uses (unused when `direct`).
    pub from_link: usize,
    pub to_link: usize,
    /// Both anchors lie on one edge and the route stays on it.
    pub direct: bool,
    pub settled: u32,
}

/// Reusable search state; `stamp` avoids clearing per-node arrays between queries.
pub struct Searcher {
    dist: Vec<f64>,
    parent: Vec<u32>,
    /// Heuristic per node, computed on first touch in a query.
    h: Vec<f64>,
    /// Metres, real cost and class-0 metres along the search tree (one-to-many).
    len: Vec<f64>,
    real: Vec<f64>,
    low: Vec<f64>,
    stamp: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Landmarks used by this query and their distance to the target anchor.
    active: Vec<(usize, f64)>,
    /// Hierarchy search state, made on the first query in the metric of a graph's hierarchy.
    ch: Option<ChSearch>,
}

/// Landmarks consulted per query: the ones with the best bound at the source.
const ACTIVE_LANDMARKS: usize = 4;
/// Parent markers of the source link nodes (`SOURCE - link`).
const SOURCE: u32 = u32::MAX;

impl Searcher {
    pub fn new(n: usize) -> Searcher {
        Searcher {
            dist: vec![f64::INFINITY; n],
            parent: vec![SOURCE; n],
            h: vec![0.0; n],
            len: vec![0.0; n],
            real: vec![0.0; n],
            low: vec![0.0; n],
            stamp: vec![0; n],
            generation: 0,
            heap: BinaryHeap::new(),
            active: Vec::with_capacity(ACTIVE_LANDMARKS),
            ch: None,
        }
    }

    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.heap.clear();
    }

    /// Distance from landmark k to an anchor: through its cheaper link.
    fn landmark_to(g: &Graph, k: usize, a: &Anchor) -> f64 {
        let lm = g.landmarks.as_ref().expect("landmarks present");
        a.links
            .iter()
            .map(|&(v, c)| lm.dist[v as usize * lm.count + k] + c)
            .fold(f64::INFINITY, f64::min)
    }

    fn choose_landmarks(&mut self, g: &Graph, q: &Query) {
        self.active.clear();
        if let Some(lm) = g
            .landmarks
            .as_ref()
            .filter(|lm| q.closed & lm.base_closed == lm.base_closed)
        {
            let mut scored: Vec<(f64, usize, f64)> = (0..lm.count)
                .map(|k| {
                    let dt = Self::landmark_to(g, k, q.to);
                    let b = (dt - Self::landmark_to(g, k, q.from)).abs();
                    (if b.is_nan() { 0.0 } else { b }, k, dt)
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            for &(_, k, dt) in scored.iter().take(ACTIVE_LANDMARKS) {
                self.active.push((k, dt));
            }
        }
    }

    /// Lower bound in metres from node `v` to the target anchor: the best of great-circle and
    /// landmark bounds.
    #[inline]
    fn heuristic(&self, g: &Graph, v: u32, target: &[f64; 3]) -> f64 {
        let mut best = chord_bound_m(chord(&g.xyz[v as usize], target));
        if let (Some(lm), false) = (&g.landmarks, self.active.is_empty()) {
            let row = v as usize * lm.count;
            for &(k, dt) in &self.active {
                let b = (dt - lm.dist[row + k]).abs();
                if b > best {
                    best = b;
                }
            }
        }
        best
    }

    #[inline]
    fn touch(&mut self, g: &Graph, v: u32, target: &[f64; 3], cost: &Costing) {
        let vi = v as usize;
        if self.stamp[vi] != self.generation {
            self.stamp[vi] = self.generation;
            self.dist[vi] = f64::INFINITY;
            self.h[vi] = cost.bound(self.heuristic(g, v, target));
        }
    }

    /// Shortest route between two anchors, or why there is none. The heuristic is admissible but
    /// not strictly consistent, so a node whose distance improves is re-opened; the search stops
    /// when no open entry can beat the best complete route.
    pub fn route(&mut self, g: &Graph, q: &Query) -> (Status, Route) {
        assert!(
            self.dist.len() == g.node_count(),
            "searcher built for another graph"
        );
        debug_assert!(q.objective.fits(g), "objective unusable on this graph");
        if let Some(h) = g
            .hierarchy
            .as_ref()
            .filter(|h| h.metric.serves(&q.objective))
        {
            let first = h.astar_first;
            if first == 0 || (q.max_settled != 0 && q.max_settled <= first) {
                return if first == 0 {
                    self.route_ch(g, q)
                } else {
                    self.route_astar(g, q)
                };
            }
            // A* while it is cheaper than the hierarchy would be, then the hierarchy.
            let (status, route) = self.route_astar(
                g,
                &Query {
                    max_settled: first,
                    ..*q
                },
            );
            if status != Status::BudgetExhausted {
                return (status, route);
            }
            let (status, mut route) = self.route_ch(
                g,
                &Query {
                    max_settled: if q.max_settled == 0 {
                        0
                    } else {
                        q.max_settled - first
                    },
                    ..*q
                },
            );
            route.settled += first;
            return (status, route);
        }
        self.route_astar(g, q)
    }
}
