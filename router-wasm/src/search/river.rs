//! River route summaries: metres, moving and fixed seconds, locks and classes of a route on a
//! river graph, partial edges pro rata.

use super::{pieces, Costing, Objective, River, Route};
use crate::graph::{Anchor, Graph};

/// What a river route amounts to, partial edges pro rata.
#[derive(Debug, Default)]
pub struct RiverSummary {
    /// Real duration: moving time with the rule factors, plus locks; the class avoid factor is a
    /// search cost only and is not in it.
    pub seconds: f64,
    /// Lock seconds (inside `seconds`) and lock count.
    pub lock_seconds: f64,
    pub locks: f64,
    /// Metres with the current, against it, and on slack water (current 0).
    pub downstream_m: f64,
    pub upstream_m: f64,
    pub slack_m: f64,
    /// Metres per waterway index (`Graph::waterway_count` entries).
    pub waterway_m: Vec<f64>,
    /// Metres per rule index (one per factor of the query), on edges carrying the rule.
    pub rule_m: Vec<f64>,
}

pub fn summarize_river(
    g: &Graph,
    from: &Anchor,
    to: &Anchor,
    route: &Route,
    river: River,
) -> RiverSummary {
    let cost = Costing::new(g, Objective::River(river));
    let mut s = RiverSummary {
        waterway_m: vec![0.0; g.waterway_count as usize],
        rule_m: vec![0.0; river.factors.len()],
        ..RiverSummary::default()
    };
    for (x, metres) in pieces(g, from, to, route) {
        let e = (x >> 1) as usize;
        let len = g.edge_len[e];
        let share = if len > 0.0 { metres / len } else { 0.0 };
        let (moving, lock_s) = cost.river_seconds(x).unwrap_or((f64::INFINITY, 0.0));
        s.seconds += (moving + lock_s) * share;
        s.lock_seconds += lock_s * share;
        s.locks += g.edge_locks.get(e).map_or(0.0, |&n| f64::from(n)) * share;
        let along = cost.along_kmh(x);
        if along > 0.0 {
            s.downstream_m += metres;
        } else if along < 0.0 {
            s.upstream_m += metres;
        } else {
            s.slack_m += metres;
        }
        if let Some(&w) = g.edge_waterway.get(e) {
            s.waterway_m[w as usize] += metres;
        }
        for &r in g.rules_of(e) {
            s.rule_m[r as usize] += metres;
        }
    }
    s
}
