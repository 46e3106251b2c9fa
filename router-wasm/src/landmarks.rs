//! ALT lower bounds (A*, landmarks, triangle inequality). Distances (metres, edge lengths) from a
//! few far-apart landmarks are computed once, by the data build (data-build/sea/landmarks.ts, the
//! same algorithm as [`Landmarks::select`]), with the gates of `base_closed` closed: closing more
//! gates only lengthens routes, so |d(L, t) - d(L, v)| is a valid lower bound for every query
//! whose closed mask includes `base_closed` (other queries fall back to the great-circle bound).
//! They bound lengths, not costs: a time query divides them by the fastest speed it can use.
//! A stored table carries the checksum of the topology and lengths it was computed on
//! ([`Graph::topology_checksum`]); a table for another graph is refused at load.

use crate::graph::Graph;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub struct Landmarks {
    pub count: usize,
    pub base_closed: u32,
    /// `Graph::topology_checksum` of the graph the table was computed on.
    pub checksum: u64,
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
            checksum: g.topology_checksum(),
            nodes,
            dist,
        }
    }

    /// A table stored in the artifact: `lm_meta` = u32 count, u32 base closed mask, u64 checksum;
    /// `lm_node` u32 x count; `lm_dist` f64 x (nodes x count), node-major. Refuses a table whose
    /// checksum is not the graph's or whose sizes do not fit it.
    pub fn from_sections(
        g: &Graph,
        meta: &[u8],
        nodes: &[u32],
        dist: Vec<f64>,
    ) -> Result<Landmarks, String> {
        if meta.len() != 16 {
            return Err("landmark section lm_meta is not 16 bytes".into());
        }
        let word =
            |at: usize| u32::from_le_bytes([meta[at], meta[at + 1], meta[at + 2], meta[at + 3]]);
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&meta[8..16]);
        let (count, base_closed, checksum) = (word(0) as usize, word(4), u64::from_le_bytes(sum));
        let own = g.topology_checksum();
        if checksum != own {
            return Err(format!(
                "landmarks were computed for another graph (checksum {:016x}, this graph {:016x})",
                checksum, own
            ));
        }
        let n = g.node_count();
        if count == 0
            || nodes.len() != count
            || dist.len() != n * count
            || nodes.iter().any(|&v| v as usize >= n)
            || dist.iter().any(|d| d.is_nan() || *d < 0.0)
        {
            return Err("landmark sections do not fit the graph".into());
        }
        Ok(Landmarks {
            count,
            base_closed,
            checksum,
            nodes: nodes.to_vec(),
            dist,
        })
    }
}
