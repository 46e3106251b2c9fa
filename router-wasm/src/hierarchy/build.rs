//! Contraction: every node contracted cheapest first, with witness searches that respect gate
//! masks, into the overlay of a [`Hierarchy`].

use super::{Hierarchy, ASTAR_FIRST_SETTLES, SHORTCUT, WITNESS_SETTLES};
use crate::graph::Graph;
use crate::metric::Metric;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An overlay edge while contracting.
struct Work {
    a: u32,
    b: u32,
    len: f64,
    mask: u32,
    edge: u32,
    c1: u32,
    c2: u32,
}

#[inline]
fn other(w: &Work, v: u32) -> u32 {
    if w.a == v {
        w.b
    } else {
        w.a
    }
}

/// Closed-mask bit of a gate code (0 = no gate).
#[inline]
pub(super) fn gate_mask(gate: u8) -> u32 {
    if gate == 0 {
        0
    } else {
        1 << (gate - 1)
    }
}

/// Witness search buffers, reused across searches.
struct Scratch {
    dist: Vec<f64>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Search id per target node, and the current search's id.
    want: Vec<u32>,
    search: u32,
}

/// A shortcut to add: ends, length, mask, the halves (overlay ids) to u and to w.
type Shortcut = (u32, u32, f64, u32, u32, u32);

struct Contraction {
    ov: Vec<Work>,
    adj: Vec<Vec<u32>>,
    done: Vec<bool>,
    scratch: Scratch,
}

impl Contraction {
    /// Bounded Dijkstra from `s` over uncontracted nodes other than `skip`, on overlay edges whose
    /// mask lies within `allowed`: afterwards `scratch.dist` holds what it settled within `limit`.
    /// It stops early once every node of `targets` is settled.
    fn witness(
        &mut self,
        allowed: u32,
        s: u32,
        skip: u32,
        limit: f64,
        targets: impl Iterator<Item = u32>,
    ) {
        let sc = &mut self.scratch;
        sc.search = sc.search.wrapping_add(1);
        let mut left = 0usize;
        for t in targets {
            if sc.want[t as usize] != sc.search {
                sc.want[t as usize] = sc.search;
                left += 1;
            }
        }
        for &v in sc.touched.iter() {
            sc.dist[v as usize] = f64::INFINITY;
        }
        sc.touched.clear();
        sc.heap.clear();
        sc.dist[s as usize] = 0.0;
        sc.touched.push(s);
        sc.heap.push(Reverse((0u64, s)));
        let mut settled = 0;
        while let Some(Reverse((bits, u))) = sc.heap.pop() {
            let du = f64::from_bits(bits);
            if du > sc.dist[u as usize] {
                continue;
            }
            if du > limit || settled >= WITNESS_SETTLES {
                break;
            }
            settled += 1;
            if sc.want[u as usize] == sc.search {
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            for &i in &self.adj[u as usize] {
                let w = &self.ov[i as usize];
                if w.mask & !allowed != 0 {
                    continue;
                }
                let v = other(w, u);
                if v == skip || self.done[v as usize] {
                    continue;
                }
                let dv = du + w.len;
                if dv < sc.dist[v as usize] {
                    if sc.dist[v as usize].is_infinite() {
                        sc.touched.push(v);
                    }
                    sc.dist[v as usize] = dv;
                    sc.heap.push(Reverse((dv.to_bits(), v)));
                }
            }
        }
    }

    /// Shortcuts contracting `v` needs, and its remaining degree.
    fn shortcuts(&mut self, v: u32) -> (Vec<Shortcut>, usize) {
        // The shortest edge to each remaining neighbour per mask (a gated edge and an ungated one
        // to the same neighbour are both needed: closures tell them apart).
        let mut nb: Vec<(u32, u32, f64, u32)> = Vec::new();
        for &i in &self.adj[v as usize] {
            let w = &self.ov[i as usize];
            let u = other(w, v);
            if self.done[u as usize] || u == v {
                continue;
            }
            match nb.iter_mut().find(|x| x.0 == u && x.3 == w.mask) {
                Some(x) if w.len < x.2 => *x = (u, i, w.len, w.mask),
                Some(_) => {}
                None => nb.push((u, i, w.len, w.mask)),
            }
        }
        let mut out = Vec::new();
        // Pairs (index into nb, length, mask) no witness has ruled out yet.
        let mut open: Vec<(usize, f64, u32)> = Vec::new();
        let mut masks: Vec<u32> = Vec::new();
        for k in 0..nb.len() {
            let (u, iu, lu, mu) = nb[k];
            if k + 1 == nb.len() {
                break;
            }
            let limit = nb[k + 1..].iter().map(|x| lu + x.2).fold(0.0, f64::max);
            // Ungated witnesses first: their mask is within every pair's.
            self.witness(0, u, v, limit, nb[k + 1..].iter().map(|x| x.0));
            open.clear();
            for (j, &(w, _, lw, mw)) in nb.iter().enumerate().skip(k + 1) {
                let len = lu + lw;
                if u != w && self.scratch.dist[w as usize] > len {
                    open.push((j, len, mu | mw));
                }
            }
            // Gated pairs may have a witness through their own gates: one search per mask.
            masks.clear();
            for &(_, _, m) in &open {
                if m != 0 && !masks.contains(&m) {
                    masks.push(m);
                }
            }
            for &m in &masks {
                let limit = open
                    .iter()
                    .filter(|x| x.2 == m)
                    .map(|x| x.1)
                    .fold(0.0, f64::max);
                let targets: Vec<u32> = open
                    .iter()
                    .filter(|x| x.2 == m)
                    .map(|x| nb[x.0].0)
                    .collect();
                self.witness(m, u, v, limit, targets.into_iter());
                let dist = &self.scratch.dist;
                open.retain(|&(j, len, mask)| mask != m || dist[nb[j].0 as usize] > len);
            }
            for &(j, len, mask) in &open {
                let (w, iw, _, _) = nb[j];
                out.push((u, w, len, mask, iu, iw));
            }
        }
        (out, nb.len())
    }
}

impl Hierarchy {
    /// Contracts every node, cheapest first by edge difference, contracted neighbours and depth,
    /// priorities updated lazily; edges weigh what `metric` says.
    pub fn build(g: &Graph, metric: Metric) -> Hierarchy {
        let n = g.node_count();
        let weight = metric.weights(g);
        let mut c = Contraction {
            ov: Vec::new(),
            adj: vec![Vec::new(); n],
            done: vec![false; n],
            scratch: Scratch {
                dist: vec![f64::INFINITY; n],
                touched: Vec::new(),
                heap: BinaryHeap::new(),
                want: vec![0; n],
                search: 0,
            },
        };
        for (e, &len) in weight.iter().enumerate() {
            let (a, b) = (g.edge_from[e], g.edge_to[e]);
            if a == b {
                continue;
            }
            let id = c.ov.len() as u32;
            c.ov.push(Work {
                a,
                b,
                len,
                mask: gate_mask(g.edge_gate[e]),
                edge: e as u32,
                c1: 0,
                c2: 0,
            });
            c.adj[a as usize].push(id);
            c.adj[b as usize].push(id);
        }
        let mut deleted = vec![0i64; n];
        let mut level = vec![0i64; n];
        // Edge difference, contracted neighbours and depth (the last keeps the hierarchy shallow).
        let priority = |added: usize, degree: usize, deleted: i64, level: i64| -> i64 {
            2 * (added as i64 - degree as i64) + deleted + level
        };
        let mut heap = BinaryHeap::new();
        for v in 0..n as u32 {
            let (added, degree) = c.shortcuts(v);
            heap.push(Reverse((priority(added.len(), degree, 0, 0), v)));
        }
        let mut up: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut rank = vec![0u32; n];
        let mut next_rank = 0u32;
        while let Some(Reverse((p, v))) = heap.pop() {
            if c.done[v as usize] {
                continue;
            }
            // Lazy update: contract only if still no worse than the next candidate.
            let (added, degree) = c.shortcuts(v);
            let now = priority(added.len(), degree, deleted[v as usize], level[v as usize]);
            if now > p && heap.peek().map_or(false, |Reverse((q, _))| now > *q) {
                heap.push(Reverse((now, v)));
                continue;
            }
            // v's remaining edges all lead to uncontracted (higher) nodes: its upward list. They
            // leave the working graph, so witness searches never walk them again.
            let ups = std::mem::take(&mut c.adj[v as usize]);
            c.done[v as usize] = true;
            for &i in &ups {
                let u = other(&c.ov[i as usize], v);
                c.adj[u as usize].retain(|&j| j != i);
                deleted[u as usize] += 1;
                level[u as usize] = level[u as usize].max(level[v as usize] + 1);
            }
            up[v as usize] = ups;
            rank[v as usize] = next_rank;
            next_rank += 1;
            for (u, w, len, mask, iu, iw) in added {
                let id = c.ov.len() as u32;
                c.ov.push(Work {
                    a: u,
                    b: w,
                    len,
                    mask,
                    edge: SHORTCUT,
                    c1: iu,
                    c2: iw,
                });
                // A parallel edge no shorter, usable by fewer queries, is dominated: drop it.
                let ov = &c.ov;
                let dominated = |j: u32| {
                    let x = &ov[j as usize];
                    ((x.a == u && x.b == w) || (x.a == w && x.b == u))
                        && x.len >= len
                        && x.mask & mask == mask
                };
                c.adj[u as usize].retain(|&j| !dominated(j));
                c.adj[w as usize].retain(|&j| !dominated(j));
                c.adj[u as usize].push(id);
                c.adj[w as usize].push(id);
            }
        }
        let mut up_start = vec![0u32; n + 1];
        let mut up_ov = Vec::new();
        for v in 0..n {
            up_ov.extend_from_slice(&up[v]);
            up_start[v + 1] = up_ov.len() as u32;
        }
        let ov = c.ov;
        let mut h = Hierarchy {
            checksum: metric.checksum(g),
            metric,
            ov_a: ov.iter().map(|w| w.a).collect(),
            ov_b: ov.iter().map(|w| w.b).collect(),
            ov_len: ov.iter().map(|w| w.len).collect(),
            ov_edge: ov.iter().map(|w| w.edge).collect(),
            ov_c1: ov.iter().map(|w| w.c1).collect(),
            ov_c2: ov.iter().map(|w| w.c2).collect(),
            up_start,
            up_ov,
            rank,
            astar_first: ASTAR_FIRST_SETTLES,
            // The query's arrays: filled by `derive` once the stored fields are in.
            ..Hierarchy::default()
        };
        h.derive(g);
        h
    }
}
