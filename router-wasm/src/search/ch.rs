//! The bridge from [`Searcher`] to a graph's contraction hierarchy: top tables, point-to-point
//! and one-to-many queries in the hierarchy's metric, summed in travel order as A* sums them.

use super::costing::{anchor_class0, class0_part, within_arc, Costing, Kind};
use super::{Many, Query, Route, Searcher, Status};
use crate::graph::{Anchor, Graph};
use crate::hierarchy::ChSearch;

/// Cost and metres of a found path summed in travel order, as A* sums them: one path gives
/// bit-identical numbers whichever search found it (the two sides' sums differ in the last bits).
fn travel_sums(
    g: &Graph,
    cost: &Costing,
    q: &Query,
    arcs: &[u32],
    from_link: usize,
    to_link: usize,
) -> (f64, f64) {
    let edge = |a: u32| g.arc_edge[a as usize];
    if cost.kind == Kind::Distance {
        let mut metres = q.from.links[from_link].1;
        for &a in arcs {
            metres += g.edge_len[(edge(a) >> 1) as usize];
        }
        metres += q.to.links[to_link].1;
        return (metres, metres);
    }
    let mut c = cost.link(q.from, from_link, true).0;
    for &a in arcs {
        c += cost.arc(edge(a));
    }
    c += cost.link(q.to, to_link, false).0;
    let inner: f64 = arcs
        .iter()
        .map(|&a| g.edge_len[(edge(a) >> 1) as usize])
        .sum();
    let metres = q.from.links[from_link].1 + inner + q.to.links[to_link].1;
    (c, metres)
}

/// Class-0 metres of a found route, counted as `Searcher::one_to_many` counts them.
fn route_class0(g: &Graph, from: &Anchor, to: &Anchor, route: &Route) -> f64 {
    if route.direct {
        return match from.on_edge {
            Some((e, _)) if from.point != to.point => class0_part(g, e, route.metres),
            _ => 0.0,
        };
    }
    let mut low = anchor_class0(g, from, from.links[route.from_link].1);
    for &a in &route.arcs {
        let e = g.arc_edge[a as usize] >> 1;
        low += class0_part(g, e, g.edge_len[e as usize]);
    }
    low + anchor_class0(g, to, to.links[route.to_link].1)
}

impl Searcher {
    /// Builds the hierarchy's top table for queries in its metric closing `closed` now, rather
    /// than once they are frequent (`hierarchy::TABLE_AFTER`). False without a hierarchy.
    pub fn prepare_top_table(&mut self, g: &Graph, closed: u32) -> bool {
        match &g.hierarchy {
            Some(h) => {
                let n = g.node_count();
                self.ch
                    .get_or_insert_with(|| ChSearch::new(n))
                    .prepare(h, closed);
                true
            }
            None => false,
        }
    }

    /// The closed masks whose top tables this searcher holds and the ranks each covers, the most
    /// recently used last.
    pub fn top_tables(&self) -> Vec<(u32, u32)> {
        self.ch.as_ref().map_or(Vec::new(), ChSearch::tables)
    }

    /// Drops the hierarchy search state (its top tables were built from the graph's previous
    /// hierarchy).
    pub fn hierarchy_changed(&mut self) {
        self.ch = None;
    }

    /// [`Searcher::route`] for a query in the metric of the graph's hierarchy: the same answers
    /// (anchors, one-edge routes, components, budget), found by the hierarchy search.
    pub(super) fn route_ch(&mut self, g: &Graph, q: &Query) -> (Status, Route) {
        let h = g.hierarchy.as_ref().expect("hierarchy present");
        let cost = Costing::new(g, q.objective);
        let mut out = Route::default();
        let mut best = f64::INFINITY;
        let mut direct_m = 0.0;
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
        if !out.direct && !g.connected(q.from, q.to) {
            return (Status::NoRoute, out);
        }
        // Links seed the search at their cost: metres as they are, else priced by the objective.
        let seeds = |a: &Anchor, source: bool| -> Vec<(u32, f64)> {
            (0..a.links.len())
                .map(|i| (a.links[i].0, cost.link(a, i, source).0))
                .collect()
        };
        let priced;
        let (from, to) = if cost.kind == Kind::Distance {
            (&q.from.links, &q.to.links)
        } else {
            priced = (seeds(q.from, true), seeds(q.to, false));
            (&priced.0, &priced.1)
        };
        let n = g.node_count();
        let ch = self.ch.get_or_insert_with(|| ChSearch::new(n));
        let r = ch.route(
            h,
            from,
            to,
            [&q.from.xyz, &q.to.xyz],
            cost.bound(1.0),
            q.closed,
            q.max_settled,
            best,
        );
        out.settled = r.settled;
        if r.budget_exhausted {
            return (Status::BudgetExhausted, out);
        }
        if !r.best.is_finite() {
            return (Status::NoRoute, out);
        }
        out.cost = r.best;
        out.metres = direct_m;
        if let Some((arcs, from_link, to_link)) = r.path {
            let (c, m) = travel_sums(g, &cost, q, &arcs, from_link, to_link);
            out.cost = c;
            out.metres = m;
            out.arcs = arcs;
            out.from_link = from_link;
            out.to_link = to_link;
            out.direct = false;
        }
        (Status::Found, out)
    }

    /// [`Searcher::one_to_many`] on a graph whose time hierarchy serves the objective: one
    /// hierarchy query per target (the callers ask for a few: rail's railheads).
    pub(super) fn many_ch(
        &mut self,
        g: &Graph,
        from: &Anchor,
        targets: &[Option<Anchor>],
        q: Query,
    ) -> Many {
        let k = targets.len();
        let mut out = Many {
            status: Status::Found,
            metres: vec![f64::NAN; k],
            cost: vec![f64::NAN; k],
            real: vec![f64::NAN; k],
            class0_m: vec![f64::NAN; k],
            settled: 0,
        };
        for (i, t) in targets.iter().enumerate() {
            let t = match t {
                Some(t) => t,
                None => continue,
            };
            let (status, route) = self.route_ch(g, &Query { to: t, ..q });
            out.settled += route.settled;
            match status {
                Status::Found => {
                    out.metres[i] = route.metres;
                    out.cost[i] = route.cost;
                    // Time costs have no search-only penalties.
                    out.real[i] = route.cost;
                    out.class0_m[i] = route_class0(g, from, t, &route);
                }
                Status::NoRoute => {
                    out.metres[i] = f64::INFINITY;
                    out.cost[i] = f64::INFINITY;
                    out.real[i] = f64::INFINITY;
                    out.class0_m[i] = f64::INFINITY;
                }
                Status::BudgetExhausted => out.status = Status::BudgetExhausted,
            }
        }
        out
    }
}
