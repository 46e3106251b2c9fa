//! Point-to-point A* with ALT bounds: the search [`Searcher::route`] runs on graphs without a
//! hierarchy in the query's metric.

use super::costing::{within_arc, Costing, Kind};
use super::{Query, Route, Searcher, Status, SOURCE};
use crate::graph::Graph;
use std::cmp::Reverse;

impl Searcher {
    /// [`Searcher::route`] by A*.
    pub(super) fn route_astar(&mut self, g: &Graph, q: &Query) -> (Status, Route) {
        self.next_generation();
        self.choose_landmarks(g, q);
        let cost = Costing::new(g, q.objective);
        let target = q.to.xyz;
        let mut best = f64::INFINITY;
        let mut direct_m = 0.0;
        let mut out = Route::default();
        if let (Some((e1, k1)), Some((e2, k2))) = (q.from.on_edge, q.to.on_edge) {
            if e1 == e2 {
                direct_m = (g.geom_off[k1 as usize] - g.geom_off[k2 as usize]).abs();
                best = cost.part(within_arc(e1, k1, k2), direct_m);
                out.direct = true;
            }
        }
        if q.from.point == q.to.point {
            best = 0.0;
            direct_m = 0.0;
            out.direct = true;
        }
        for i in 0..q.from.links.len() {
            let v = q.from.links[i].0;
            let c = cost.link(q.from, i, true).0;
            self.touch(g, v, &target, &cost);
            let vi = v as usize;
            if c < self.dist[vi] {
                self.dist[vi] = c;
                self.parent[vi] = SOURCE - i as u32;
                // Non-negative f64 order equals their bit patterns' order: the heap key is an integer.
                self.heap.push(Reverse(((c + self.h[vi]).to_bits(), v)));
            }
        }
        // Different components: no route whatever the closures; do not search the whole component.
        if !out.direct && !g.connected(q.from, q.to) {
            return (Status::NoRoute, out);
        }
        let ends: Vec<(u32, f64)> = (0..q.to.links.len())
            .map(|i| (q.to.links[i].0, cost.link(q.to, i, false).0))
            .collect();
        let mut settled = 0u32;
        let mut end: Option<(u32, usize)> = None;
        while let Some(Reverse((f_bits, u))) = self.heap.pop() {
            let ui = u as usize;
            let du = self.dist[ui];
            if f_bits > (du + self.h[ui]).to_bits() {
                continue; // stale entry
            }
            if f64::from_bits(f_bits) >= best {
                break;
            }
            settled += 1;
            if q.max_settled != 0 && settled > q.max_settled {
                out.settled = settled;
                return (Status::BudgetExhausted, out);
            }
            for (i, &(v, c)) in ends.iter().enumerate() {
                if v == u && du + c < best {
                    best = du + c;
                    end = Some((u, i));
                    out.direct = false;
                }
            }
            for a in g.arc_start[ui]..g.arc_start[ui + 1] {
                let x = g.arc_edge[a as usize];
                let gate = g.edge_gate[(x >> 1) as usize];
                if gate != 0 && q.closed & (1 << (gate - 1)) != 0 {
                    continue;
                }
                let v = g.arc_head[a as usize];
                self.touch(g, v, &target, &cost);
                let vi = v as usize;
                let dv = du + cost.arc(x);
                if dv < self.dist[vi] {
                    self.dist[vi] = dv;
                    self.parent[vi] = a;
                    self.heap.push(Reverse(((dv + self.h[vi]).to_bits(), v)));
                }
            }
        }
        out.settled = settled;
        if !best.is_finite() {
            return (Status::NoRoute, out);
        }
        out.cost = best;
        out.metres = best;
        if out.direct {
            out.metres = direct_m;
        }
        if let Some((t, link)) = end {
            out.to_link = link;
            let mut v = t as usize;
            while self.parent[v] < SOURCE - 1 {
                let a = self.parent[v];
                out.arcs.push(a);
                let e = (g.arc_edge[a as usize] >> 1) as usize;
                // The arc's tail is the edge endpoint that is not its head.
                v = if g.arc_edge[a as usize] & 1 == 1 {
                    g.edge_to[e]
                } else {
                    g.edge_from[e]
                } as usize;
            }
            out.from_link = (SOURCE - self.parent[v]) as usize;
            out.arcs.reverse();
            if cost.kind != Kind::Distance {
                out.metres = q.from.links[out.from_link].1
                    + out
                        .arcs
                        .iter()
                        .map(|&a| g.edge_len[(g.arc_edge[a as usize] >> 1) as usize])
                        .sum::<f64>()
                    + q.to.links[out.to_link].1;
            }
        }
        (Status::Found, out)
    }
}
