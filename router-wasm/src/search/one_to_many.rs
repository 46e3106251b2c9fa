//! Dijkstra from one anchor to many targets, with per-target metres, cost, real cost and class-0
//! metres.

use super::costing::{anchor_class0, class0_part, within_arc, Costing};
use super::{Objective, Query, Searcher, Status};
use crate::graph::{Anchor, Graph};
use crate::metric::Metric;
use std::cmp::Reverse;

/// One-to-many answer: per target, metres and cost (NaN = not snapped or not final when the
/// budget ran out, infinity = unreachable).
#[derive(Debug)]
pub struct Many {
    pub status: Status,
    pub metres: Vec<f64>,
    pub cost: Vec<f64>,
    /// The cost without search-only penalties (river: real seconds); equals `cost` otherwise.
    pub real: Vec<f64>,
    /// Metres on class-0 edges (river: uncurated water; 0 on graphs without a class section).
    pub class0_m: Vec<f64>,
    pub settled: u32,
}

impl Searcher {
    /// Dijkstra from one anchor to many: metres, cost and real cost (without search-only
    /// penalties: [`Costing::real`]) of the cheapest route to each target (`None` targets, points
    /// that did not snap, answer NaN; unreachable ones infinity). Stops once no open entry can
    /// improve any target. On budget exhaustion the targets not yet final answer NaN.
    pub fn one_to_many(
        &mut self,
        g: &Graph,
        from: &Anchor,
        targets: &[Option<Anchor>],
        closed: u32,
        max_settled: u32,
        objective: Objective,
    ) -> Many {
        assert!(
            self.dist.len() == g.node_count(),
            "searcher built for another graph"
        );
        debug_assert!(objective.fits(g), "objective unusable on this graph");
        let time_ch = g.hierarchy.as_ref().map_or(false, |h| {
            h.metric != Metric::Distance && h.metric.serves(&objective)
        });
        if time_ch {
            let q = Query {
                from,
                to: from,
                closed,
                max_settled,
                objective,
            };
            return self.many_ch(g, from, targets, q);
        }
        self.next_generation();
        let cost = Costing::new(g, objective);
        let k = targets.len();
        let mut out = Many {
            status: Status::Found,
            metres: vec![f64::NAN; k],
            cost: vec![f64::NAN; k],
            real: vec![f64::NAN; k],
            class0_m: vec![f64::NAN; k],
            settled: 0,
        };
        // (link node, target, link cost, link metres, link real cost, link class-0 metres),
        // sorted by node for lookup on settle.
        let mut ends: Vec<(u32, usize, f64, f64, f64, f64)> = Vec::new();
        let mut settled_already = vec![false; k];
        for (i, t) in targets.iter().enumerate() {
            let t = match t {
                Some(t) => t,
                None => continue,
            };
            out.metres[i] = f64::INFINITY;
            out.cost[i] = f64::INFINITY;
            out.real[i] = f64::INFINITY;
            out.class0_m[i] = f64::INFINITY;
            if t.point == from.point {
                out.metres[i] = 0.0;
                out.cost[i] = 0.0;
                out.real[i] = 0.0;
                out.class0_m[i] = 0.0;
            } else if let (Some((e1, k1)), Some((e2, k2))) = (from.on_edge, t.on_edge) {
                if e1 == e2 {
                    let m = (g.geom_off[k1 as usize] - g.geom_off[k2 as usize]).abs();
                    let x = within_arc(e1, k1, k2);
                    out.metres[i] = m;
                    out.cost[i] = cost.part(x, m);
                    out.real[i] = cost.real_part(x, m);
                    out.class0_m[i] = class0_part(g, e1, m);
                }
            }
            // Another component: unreachable (infinity) at once, and no reason to keep searching for it.
            if !g.connected(from, t) {
                settled_already[i] = true;
                continue;
            }
            for (l, &(v, m)) in t.links.iter().enumerate() {
                let (c, r) = cost.link(t, l, false);
                ends.push((v, i, c, m, r, anchor_class0(g, t, m)));
            }
        }
        ends.sort_by_key(|x| x.0);
        let worst = |c: &[f64]| {
            c.iter()
                .zip(&settled_already)
                .filter(|(x, &done)| !x.is_nan() && !done)
                .fold(f64::NEG_INFINITY, |a, (&b, _)| a.max(b))
        };
        let mut bound = worst(&out.cost);
        for (l, &(v, m)) in from.links.iter().enumerate() {
            let vi = v as usize;
            if self.stamp[vi] != self.generation {
                self.stamp[vi] = self.generation;
                self.dist[vi] = f64::INFINITY;
            }
            let (c, r) = cost.link(from, l, true);
            if c < self.dist[vi] {
                self.dist[vi] = c;
                self.len[vi] = m;
                self.real[vi] = r;
                self.low[vi] = anchor_class0(g, from, m);
                self.heap.push(Reverse((c.to_bits(), v)));
            }
        }
        let mut settled = 0u32;
        let mut last = 0.0;
        while let Some(Reverse((d_bits, u))) = self.heap.pop() {
            let ui = u as usize;
            let du = f64::from_bits(d_bits);
            if du > self.dist[ui] {
                continue;
            }
            if du >= bound {
                break;
            }
            settled += 1;
            if max_settled != 0 && settled > max_settled {
                out.status = Status::BudgetExhausted;
                break;
            }
            last = du;
            let first = ends.partition_point(|x| x.0 < u);
            let mut improved = false;
            for &(_, i, c, m, r, lm) in ends[first..].iter().take_while(|x| x.0 == u) {
                if du + c < out.cost[i] {
                    out.cost[i] = du + c;
                    out.metres[i] = self.len[ui] + m;
                    out.real[i] = self.real[ui] + r;
                    out.class0_m[i] = self.low[ui] + lm;
                    improved = true;
                }
            }
            if improved {
                bound = worst(&out.cost);
            }
            for a in g.arc_start[ui]..g.arc_start[ui + 1] {
                let x = g.arc_edge[a as usize];
                let e = (x >> 1) as usize;
                let gate = g.edge_gate[e];
                if gate != 0 && closed & (1 << (gate - 1)) != 0 {
                    continue;
                }
                let v = g.arc_head[a as usize];
                let vi = v as usize;
                if self.stamp[vi] != self.generation {
                    self.stamp[vi] = self.generation;
                    self.dist[vi] = f64::INFINITY;
                }
                let dv = du + cost.arc(x);
                if dv < self.dist[vi] {
                    self.dist[vi] = dv;
                    self.len[vi] = self.len[ui] + g.edge_len[e];
                    self.real[vi] = self.real[ui] + cost.real(x);
                    self.low[vi] = self.low[ui] + class0_part(g, e as u32, g.edge_len[e]);
                    self.heap.push(Reverse((dv.to_bits(), v)));
                }
            }
        }
        out.settled = settled;
        if out.status == Status::BudgetExhausted {
            for i in 0..k {
                if out.cost[i].is_nan() || out.cost[i] > last {
                    out.metres[i] = f64::NAN;
                    out.cost[i] = f64::NAN;
                    out.real[i] = f64::NAN;
                    out.class0_m[i] = f64::NAN;
                }
            }
        }
        out
    }
}
