//! A* over a [`Graph`] with query-time closed gates and a settle budget.

use crate::graph::Graph;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Found = 0,
    NoRoute = 1,
    BudgetExhausted = 2,
}

pub struct Query {
    pub from: u32,
    pub to: u32,
    /// Bit k set = edges with gate k + 1 are closed.
    pub closed: u32,
    /// Maximum heap pops (settles, counting re-opened nodes); 0 = unlimited.
    pub max_settled: u32,
}

#[derive(Default, Debug)]
pub struct Route {
    pub metres: f64,
    /// Arcs from source to target.
    pub arcs: Vec<u32>,
    pub settled: u32,
}

/// Reusable search state; `stamp` avoids clearing per-node arrays between queries.
pub struct Searcher {
    dist: Vec<f64>,
    parent: Vec<u32>,
    /// Heuristic per node, computed on first touch in a query.
    h: Vec<f64>,
    stamp: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Landmarks used by this query and their distance to the target.
    active: Vec<(usize, f64)>,
}

/// Landmarks consulted per query: the ones with the best bound at the source.
const ACTIVE_LANDMARKS: usize = 4;

const NO_ARC: u32 = u32::MAX;

impl Searcher {
    pub fn new(n: usize) -> Searcher {
        Searcher {
            dist: vec![f64::INFINITY; n],
            parent: vec![NO_ARC; n],
            h: vec![0.0; n],
            stamp: vec![0; n],
            generation: 0,
            heap: BinaryHeap::new(),
            active: Vec::with_capacity(ACTIVE_LANDMARKS),
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

    fn choose_landmarks(&mut self, g: &Graph, s: usize, t: usize, closed: u32) {
        self.active.clear();
        if let Some(lm) = g
            .landmarks
            .as_ref()
            .filter(|lm| closed & lm.base_closed == lm.base_closed)
        {
            let mut scored: Vec<(f64, usize)> = (0..lm.count)
                .map(|k| {
                    let b = (lm.dist[t * lm.count + k] - lm.dist[s * lm.count + k]).abs();
                    (if b.is_nan() { 0.0 } else { b }, k)
                })
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            for &(_, k) in scored.iter().take(ACTIVE_LANDMARKS) {
                self.active.push((k, lm.dist[t * lm.count + k]));
            }
        }
    }

    /// Lower bound from `v` to the target: the best of the great-circle and landmark bounds.
    #[inline]
    fn heuristic(&self, g: &Graph, v: u32, t: u32) -> f64 {
        let mut best = g.bound_m(v, t);
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

    /// Shortest route, or why there is none. The heuristic is admissible but not strictly
    /// consistent, so a node whose distance improves is re-opened; the first pop of the target
    /// is then optimal.
    pub fn route(&mut self, g: &Graph, q: &Query) -> (Status, Route) {
        assert!(
            self.dist.len() == g.node_count(),
            "searcher built for another graph"
        );
        self.next_generation();
        let (s, t) = (q.from as usize, q.to as usize);
        self.choose_landmarks(g, s, t, q.closed);
        self.stamp[s] = self.generation;
        self.dist[s] = 0.0;
        self.parent[s] = NO_ARC;
        self.h[s] = self.heuristic(g, q.from, q.to);
        // Non-negative f64 order equals their bit patterns' order, so the heap key is an integer.
        self.heap.push(Reverse((self.h[s].to_bits(), q.from)));
        let mut settled = 0u32;
        while let Some(Reverse((f_bits, u))) = self.heap.pop() {
            let ui = u as usize;
            let du = self.dist[ui];
            if f_bits > (du + self.h[ui]).to_bits() {
                continue; // stale entry
            }
            settled += 1;
            if ui == t {
                return (Status::Found, self.trace(g, t, du, settled));
            }
            if q.max_settled != 0 && settled >= q.max_settled {
                return (
                    Status::BudgetExhausted,
                    Route {
                        settled,
                        ..Route::default()
                    },
                );
            }
            for a in g.arc_start[ui]..g.arc_start[ui + 1] {
                let e = (g.arc_edge[a as usize] >> 1) as usize;
                let gate = g.edge_gate[e];
                if gate != 0 && q.closed & (1 << (gate - 1)) != 0 {
                    continue;
                }
                let v = g.arc_head[a as usize];
                let vi = v as usize;
                let dv = du + g.edge_len[e];
                if self.stamp[vi] != self.generation {
                    self.stamp[vi] = self.generation;
                    self.dist[vi] = f64::INFINITY;
                    self.h[vi] = self.heuristic(g, v, q.to);
                }
                if dv < self.dist[vi] {
                    self.dist[vi] = dv;
                    self.parent[vi] = a;
                    self.heap.push(Reverse(((dv + self.h[vi]).to_bits(), v)));
                }
            }
        }
        (
            Status::NoRoute,
            Route {
                settled,
                ..Route::default()
            },
        )
    }

    fn trace(&self, g: &Graph, t: usize, metres: f64, settled: u32) -> Route {
        let mut arcs = Vec::new();
        let mut v = t;
        while self.parent[v] != NO_ARC {
            let a = self.parent[v];
            arcs.push(a);
            let e = (g.arc_edge[a as usize] >> 1) as usize;
            // The arc's tail is the edge endpoint that is not its head.
            let reversed = g.arc_edge[a as usize] & 1 == 1;
            v = if reversed {
                g.edge_to[e]
            } else {
                g.edge_from[e]
            } as usize;
        }
        arcs.reverse();
        Route {
            metres,
            arcs,
            settled,
        }
    }
}

/// What a route amounts to: zone metres, gates used, geometry.
#[derive(Debug, Default)]
pub struct Summary {
    /// Metres per zone index (length = zone count).
    pub zone_m: Vec<f64>,
    /// Gate codes (1-based) in travel order, each once.
    pub gates: Vec<u32>,
    /// Flat `[lat, lng]` from the source node to the target node.
    pub path: Vec<f64>,
}

pub fn summarize(g: &Graph, from: u32, route: &Route, want_path: bool) -> Summary {
    let mut s = Summary {
        zone_m: vec![0.0; g.zone_count as usize],
        ..Summary::default()
    };
    if want_path {
        s.path.push(g.lat[from as usize]);
        s.path.push(g.lng[from as usize]);
    }
    for &a in &route.arcs {
        let e = (g.arc_edge[a as usize] >> 1) as usize;
        let reversed = g.arc_edge[a as usize] & 1 == 1;
        for k in g.eca_start[e]..g.eca_start[e + 1] {
            s.zone_m[g.eca_zone[k as usize] as usize] += g.eca_len[k as usize];
        }
        let gate = u32::from(g.edge_gate[e]);
        if gate != 0 && !s.gates.contains(&gate) {
            s.gates.push(gate);
        }
        if want_path {
            let (lo, hi) = (g.geom_start[e] as usize, g.geom_start[e + 1] as usize);
            if reversed {
                for i in (lo..hi).rev() {
                    s.path.push(g.geom[2 * i]);
                    s.path.push(g.geom[2 * i + 1]);
                }
            } else {
                s.path.extend_from_slice(&g.geom[2 * lo..2 * hi]);
            }
            let head = g.arc_head[a as usize] as usize;
            s.path.push(g.lat[head]);
            s.path.push(g.lng[head]);
        }
    }
    s
}
