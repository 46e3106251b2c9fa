//! ALT lower bounds (A*, landmarks, triangle inequality). Distances from a few far-apart
//! landmarks are computed once, with the gates of `base_closed` closed: closing more gates only
//! lengthens routes, so |d(L, t) - d(L, v)| is a valid lower bound for every query whose closed
//! mask includes `base_closed` (other queries fall back to the great-circle bound).

use crate::graph::Graph;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub struct Landmarks {
    pub count: usize,
    pub base_closed: u32,
    pub nodes: Vec<u32>,
    /// `dist[v * count + k]` = metres from landmark k to node v (infinite if unreachable).
    pub dist: Vec<f64>,
}

/// Single-source Dijkstra over the edges whose gate is not in `closed`.
pub fn dijkstra(g: &Graph, source: u32, closed: u32) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; g.node_count()];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = 0.0;
    heap.push(Reverse((0u64, source)));
    while let Some(Reverse((d_bits, u))) = heap.pop() {
        let du = f64::from_bits(d_bits);
        if du > dist[u as usize] {
            continue;
        }
        for a in g.arc_start[u as usize]..g.arc_start[u as usize + 1] {
            let e = (g.arc_edge[a as usize] >> 1) as usize;
            let gate = g.edge_gate[e];
            if gate != 0 && closed & (1 << (gate - 1)) != 0 {
                continue;
            }
            let v = g.arc_head[a as usize];
            let dv = du + g.edge_len[e];
            if dv < dist[v as usize] {
                dist[v as usize] = dv;
                heap.push(Reverse((dv.to_bits(), v)));
            }
        }
    }
    dist
}

impl Landmarks {
    /// Farthest-first selection: each new landmark is the node farthest (by sea distance) from
    /// those already chosen, which spreads them around the network's edges.
    pub fn select(g: &Graph, count: usize, base_closed: u32) -> Landmarks {
        let n = g.node_count();
        let count = count.min(n);
        let mut nodes = Vec::with_capacity(count);
        let mut tables: Vec<Vec<f64>> = Vec::with_capacity(count);
        let mut nearest = vec![f64::INFINITY; n];
        let farthest = |d: &[f64]| -> u32 {
            let mut best = (0u32, -1.0);
            for (v, &x) in d.iter().enumerate() {
                if x.is_finite() && x > best.1 {
                    best = (v as u32, x);
                }
            }
            best.0
        };
        if n > 0 {
            let mut next = farthest(&dijkstra(g, 0, base_closed));
            while nodes.len() < count {
                let d = dijkstra(g, next, base_closed);
                for (m, &x) in nearest.iter_mut().zip(d.iter()) {
                    *m = m.min(x);
                }
                nodes.push(next);
                tables.push(d);
                next = farthest(&nearest);
            }
        }
        let mut dist = vec![0.0; n * count];
        for (k, t) in tables.iter().enumerate() {
            for v in 0..n {
                dist[v * count + k] = t[v];
            }
        }
        Landmarks {
            count,
            base_closed,
            nodes,
            dist,
        }
    }
}
