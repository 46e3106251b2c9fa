//! Contraction hierarchy with gate masks, for distance queries with per-query closures
//! (docs/routing-speed.md). Every node is contracted; every overlay edge (original edge or
//! shortcut) carries the OR of the gate bits of the edges it stands for. Contracting v, the path
//! u-v-w (mask M) needs a shortcut unless a witness path no longer than it uses only gates in M:
//! so for any closed set C, every open path keeps an open representation and the hierarchy is
//! exact for all closure masks, no core needed. A query skips overlay edges whose mask meets the
//! closed mask and runs two upward searches with stall-on-demand, pruned by a great-circle bound
//! to the other end; the highest ranks are not searched but joined through a distance table per
//! frequent closed mask (`TopTable`).
//! Built by the data build (data-build/stages/sea-hierarchy.ts, through `pr_hierarchy_build`).
//! The overlay and its derived query arrays live here; contraction, the artifact, queries and
//! top tables live in the submodules.

mod artifact;
mod build;
mod query;
mod tables;

pub use query::{ChRoute, ChSearch};
pub use tables::{earned_top_size, top_size, TABLE_AFTER, TOP_RANKS};

use crate::graph::Graph;
use crate::metric::Metric;
use build::gate_mask;

/// The sea graph's hierarchy kind; a graph of kind `x-graph` has hierarchies of kind
/// `x-hierarchy` (`road-hierarchy`, `rail-hierarchy`).
pub const KIND: &str = "sea-hierarchy";
pub const FORMAT_VERSION: u32 = 1;
/// `ov_edge` of a shortcut.
const SHORTCUT: u32 = u32::MAX;
/// Distance queries first run A* with this many settles, then the hierarchy. 0 (the default): the
/// hierarchy answers every query: with goal pruning it beats A* on the median too, and A* loses
/// the mean and the tail, which batch jobs and alternatives pay (docs/routing-speed.md);
/// `pr_hierarchy_astar_first` sets it per graph.
pub const ASTAR_FIRST_SETTLES: u32 = 0;
/// Witness searches give up after this many settles (a missed witness only adds a shortcut).
const WITNESS_SETTLES: usize = 400;

/// Overlay edges (original edges and shortcuts, undirected) and the upward adjacency.
#[derive(Default)]
pub struct Hierarchy {
    /// `Metric::checksum` of the graph it was built on.
    pub checksum: u64,
    /// What `ov_len` counts: metres, or seconds at one default speed.
    pub metric: Metric,
    pub ov_a: Vec<u32>,
    pub ov_b: Vec<u32>,
    /// Cost in the hierarchy's metric.
    pub ov_len: Vec<f64>,
    /// Original edge id, or `SHORTCUT`.
    pub ov_edge: Vec<u32>,
    /// A shortcut's two halves (overlay ids, both lower than its own), joining the contracted
    /// middle node to `ov_a` and to `ov_b`.
    pub ov_c1: Vec<u32>,
    pub ov_c2: Vec<u32>,
    /// Per node, overlay edges to higher-ranked nodes.
    pub up_start: Vec<u32>,
    pub up_ov: Vec<u32>,
    /// Contraction order of each node (0 = first contracted).
    pub rank: Vec<u32>,
    /// A* settles a distance query tries before the hierarchy (`ASTAR_FIRST_SETTLES`; 0 = none).
    pub astar_first: u32,
    /// How many of the highest ranks form the top whose distance tables replace the search there
    /// (`top_size`; 0 = none).
    pub top: u32,
    // Derived at load, for the query's inner loop: the upward lists indexed by rank, so the
    // upper levels every query walks sit together in memory.
    order: Vec<u32>,
    /// Unit vector of each rank's node: the goal-pruning bound reads it in rank order instead of
    /// through `order` into `Graph::xyz` (two random reads per queued node).
    q_xyz: Vec<[f64; 3]>,
    q_start: Vec<u32>,
    /// Per upward edge, in separate arrays so the query's scan reads 12 bytes per edge: the
    /// head's rank (| `GATED` when the edge has a gate bit), metres, the gate bits.
    q_head: Vec<u32>,
    q_len: Vec<f64>,
    q_mask: Vec<u32>,
    /// Per upward edge: its overlay id and the rank it leaves from (path unpacking only).
    q_ov: Vec<u32>,
    q_tail: Vec<u32>,
    /// Per overlay edge `i`, its graph arcs (CSR arc indices) unpacked once at load:
    /// `arcs_from_a[arcs_start[i]..arcs_start[i + 1]]` walked from `ov_a`, the same slice of
    /// `arcs_from_b` from `ov_b`. A path copies slices instead of walking each shortcut's halves,
    /// one random read per half (606,929 arcs for the sea graph's 190,692 overlay edges: 5 MB).
    arcs_start: Vec<u32>,
    arcs_from_a: Vec<u32>,
    arcs_from_b: Vec<u32>,
}

/// Flag on `q_head`: the edge has gate bits (`q_mask`), so a closed mask may skip it.
const GATED: u32 = 1 << 31;

/// Unpacked arcs per overlay edge a loaded hierarchy may hold on average (the sea graph: 3.2).
const MAX_UNPACKED_PER_EDGE: u64 = 64;

impl Hierarchy {
    /// Number of overlay edges (original edges + shortcuts).
    pub fn overlay_count(&self) -> usize {
        self.ov_a.len()
    }

    fn derive(&mut self, g: &Graph) {
        let n = self.up_start.len() - 1;
        // Halves come before their shortcut, so one pass fills every mask.
        let mut mask = vec![0u32; self.ov_a.len()];
        for i in 0..mask.len() {
            mask[i] = match self.ov_edge[i] {
                SHORTCUT => mask[self.ov_c1[i] as usize] | mask[self.ov_c2[i] as usize],
                e => gate_mask(g.edge_gate[e as usize]),
            };
        }
        self.order = vec![0; n];
        for (v, &r) in self.rank.iter().enumerate() {
            self.order[r as usize] = v as u32;
        }
        self.q_xyz = self.order.iter().map(|&v| g.xyz[v as usize]).collect();
        self.top = top_size(n);
        self.q_start = Vec::with_capacity(n + 1);
        self.q_start.push(0);
        assert!(n < GATED as usize, "too many nodes for a hierarchy");
        let m = self.up_ov.len();
        self.q_head = Vec::with_capacity(m);
        self.q_len = Vec::with_capacity(m);
        self.q_mask = Vec::with_capacity(m);
        self.q_ov = Vec::with_capacity(m);
        self.q_tail = Vec::with_capacity(m);
        for (r, &v) in self.order.iter().enumerate() {
            let v = v as usize;
            for k in self.up_start[v] as usize..self.up_start[v + 1] as usize {
                let i = self.up_ov[k];
                let head = self.rank[self.across(i, v as u32) as usize];
                let m = mask[i as usize];
                self.q_head.push(if m == 0 { head } else { head | GATED });
                self.q_len.push(self.ov_len[i as usize]);
                self.q_mask.push(m);
                self.q_ov.push(i);
                self.q_tail.push(r as u32);
            }
            self.q_start.push(self.q_head.len() as u32);
        }
        // The first arc of the edge leaving each end (what a scan of the end's arcs finds).
        let arc_from = |x: u32, e: u32| {
            let x = x as usize;
            (g.arc_start[x]..g.arc_start[x + 1])
                .find(|&a| g.arc_edge[a as usize] >> 1 == e)
                .expect("edge leaves its endpoint")
        };
        // Halves come before their shortcut, so each shortcut copies its halves' slices.
        let m = self.ov_a.len();
        let mut start = Vec::with_capacity(m + 1);
        start.push(0u32);
        let (mut from_a, mut from_b) = (Vec::new(), Vec::new());
        for i in 0..m {
            let (a, b) = (self.ov_a[i], self.ov_b[i]);
            match self.ov_edge[i] {
                SHORTCUT => {
                    // `c1` joins the middle node to `a`, `c2` to `b`.
                    let (c1, c2) = (self.ov_c1[i], self.ov_c2[i]);
                    let mid = self.across(c1, a);
                    let half = |c: u32, x: u32| {
                        let c = c as usize;
                        (self.ov_a[c] == x, start[c] as usize..start[c + 1] as usize)
                    };
                    for (to_a, (src_a, r)) in [
                        (true, half(c1, a)),
                        (true, half(c2, mid)),
                        (false, half(c2, b)),
                        (false, half(c1, mid)),
                    ] {
                        match (to_a, src_a) {
                            (true, true) => from_a.extend_from_within(r),
                            (false, false) => from_b.extend_from_within(r),
                            (true, false) => from_a.extend_from_slice(&from_b[r]),
                            (false, true) => from_b.extend_from_slice(&from_a[r]),
                        }
                    }
                }
                e => {
                    from_a.push(arc_from(a, e));
                    from_b.push(arc_from(b, e));
                }
            }
            start.push(from_a.len() as u32);
        }
        self.arcs_start = start;
        self.arcs_from_a = from_a;
        self.arcs_from_b = from_b;
    }

    /// The graph arcs (CSR arc indices) of overlay edge `i` walked from its end `x`.
    #[inline]
    fn arcs(&self, i: u32, x: u32) -> &[u32] {
        let (lo, hi) = (
            self.arcs_start[i as usize] as usize,
            self.arcs_start[i as usize + 1] as usize,
        );
        if self.ov_a[i as usize] == x {
            &self.arcs_from_a[lo..hi]
        } else {
            &self.arcs_from_b[lo..hi]
        }
    }

    #[inline]
    fn across(&self, i: u32, v: u32) -> u32 {
        let i = i as usize;
        if self.ov_a[i] == v {
            self.ov_b[i]
        } else {
            self.ov_a[i]
        }
    }
}
