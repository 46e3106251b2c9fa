//! A* over a [`Graph`] between two anchors, and Dijkstra from one anchor to many, with
//! query-time closed gates, per-query edge costs (distance, time, or direction-aware river time,
//! from edge attributes and query inputs), ALT bounds and a settle budget.

use crate::graph::{chord, chord_bound_m, Anchor, Graph, Rounded};
use crate::hierarchy::ChSearch;
use crate::metric::Metric;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Found = 0,
    NoRoute = 1,
    BudgetExhausted = 2,
}

/// What a search minimises. Costs are computed per edge at query time, never stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Objective<'a> {
    /// Metres (`edge_len`): the sea router's objective.
    Distance,
    /// Seconds: `edge_len / speed + edge_fixed_s`, the speed being the edge's `edge_speed_kmh`
    /// when the graph carries it and it is > 0, else `default_kmh` (the query's speed).
    Time { default_kmh: f64 },
    /// Seconds on a river graph, direction-aware (see [`River`]).
    River(River<'a>),
}

/// River costing of one query (docs/graph-format.md, "River costs"). Over ground an edge runs at
/// max(3, speed through water + current) km/h going downstream, max(3, speed - current) upstream;
/// its time is metres / that speed x 1.1 (operating factor) x the factors of its seasonal rules,
/// plus its fixed seconds (locks). The search cost multiplies edges below CEMT class IV by
/// `avoid`; reported durations do not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct River<'a> {
    /// Speed through water of edges without one of their own (km/h, > 0).
    pub default_kmh: f64,
    /// Search-cost factor of edges with a class code below 4 (>= 1; 1 = no avoidance).
    pub avoid: f64,
    /// One factor per seasonal rule index: 0 = the rule closes its edges, else >= 1 (a slow-down).
    /// Needs at least `Graph::rule_count` entries.
    pub factors: &'a [f64],
}

/// Operating factor on river moving time (manoeuvring, waiting, traffic).
pub const RIVER_OPERATING_FACTOR: f64 = 1.1;
/// Over-ground speed floor of a barge going upstream, km/h.
pub const RIVER_MIN_GROUND_KMH: f64 = 3.0;
/// Class codes below this (CEMT IV; 0 = uncurated) are avoided by cost.
pub const RIVER_AVOID_BELOW_CLASS: u8 = 4;

impl<'a> Objective<'a> {
    /// A usable objective: a time objective needs a finite default speed > 0; a river one also an
    /// avoid factor >= 1 and rule factors that are 0 or >= 1 (factors < 1 would break the bounds).
    pub fn is_valid(&self) -> bool {
        let speed_ok = |kmh: f64| kmh.is_finite() && kmh > 0.0;
        match *self {
            Objective::Distance => true,
            Objective::Time { default_kmh } => speed_ok(default_kmh),
            Objective::River(r) => {
                speed_ok(r.default_kmh)
                    && r.avoid.is_finite()
                    && r.avoid >= 1.0
                    && r.factors
                        .iter()
                        .all(|&f| f == 0.0 || (f.is_finite() && f >= 1.0))
            }
        }
    }

    /// Valid, and usable on `g`: a river query names a factor for every rule the graph uses.
    pub fn fits(&self, g: &Graph) -> bool {
        self.is_valid()
            && match *self {
                Objective::River(r) => r.factors.len() >= g.rule_count as usize,
                _ => true,
            }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Distance,
    Time,
    River,
}

/// Per-query edge costing: the objective bound to a graph. Arcs are `edge << 1 | reversed`
/// (`Graph::arc_edge` values): only river costs depend on the direction.
#[derive(Clone, Copy)]
pub struct Costing<'a> {
    g: &'a Graph,
    kind: Kind,
    default_kmh: f64,
    /// Lower-bound metres -> lower-bound cost (1 / fastest speed in m/s for time).
    h_scale: f64,
    avoid: f64,
    factors: &'a [f64],
}

impl<'a> Costing<'a> {
    pub fn new(g: &'a Graph, objective: Objective<'a>) -> Costing<'a> {
        let mut c = Costing {
            g,
            kind: Kind::Distance,
            default_kmh: 0.0,
            h_scale: 1.0,
            avoid: 1.0,
            factors: &[],
        };
        match objective {
            Objective::Distance => {}
            Objective::Time { default_kmh } => {
                c.kind = Kind::Time;
                c.default_kmh = default_kmh;
                c.h_scale = 1.0 / (default_kmh / 3.6).max(g.max_speed_kmh / 3.6);
            }
            Objective::River(r) => {
                // The fastest over-ground speed any edge allows, in any direction: rule factors
                // and avoid are >= 1 and locks >= 0, so metres x 1.1 / it bounds every route.
                let mut fastest = g.max_ground_kmh.max(RIVER_MIN_GROUND_KMH);
                if g.max_default_current_kmh >= 0.0 {
                    fastest = fastest.max(r.default_kmh + g.max_default_current_kmh);
                }
                c.kind = Kind::River;
                c.default_kmh = r.default_kmh;
                c.h_scale = RIVER_OPERATING_FACTOR * 3.6 / fastest;
                c.avoid = r.avoid;
                c.factors = r.factors;
            }
        }
        c
    }

    #[inline]
    fn speed_kmh(&self, e: usize) -> f64 {
        match self.g.edge_speed_kmh.get(e) {
            Some(&v) if v > 0.0 => f64::from(v),
            _ => self.default_kmh,
        }
    }

    #[inline]
    fn fixed_s(&self, e: usize) -> f64 {
        self.g.edge_fixed_s.get(e).map_or(0.0, |&v| f64::from(v))
    }

    /// Signed current along the arc (km/h, > 0 = going downstream).
    #[inline]
    fn along_kmh(&self, x: u32) -> f64 {
        let c = self
            .g
            .edge_current_kmh
            .get((x >> 1) as usize)
            .map_or(0.0, |&v| f64::from(v));
        if x & 1 == 1 {
            -c
        } else {
            c
        }
    }

    /// Real river seconds of the whole arc: (moving, locks); `None` when a rule closes it.
    #[inline]
    pub fn river_seconds(&self, x: u32) -> Option<(f64, f64)> {
        let e = (x >> 1) as usize;
        let mut factor = 1.0;
        for &r in self.g.rules_of(e) {
            factor *= self.factors[r as usize];
        }
        if factor == 0.0 {
            return None;
        }
        let ground = (self.speed_kmh(e) + self.along_kmh(x)).max(RIVER_MIN_GROUND_KMH);
        let moving = self.g.edge_len[e] / (ground / 3.6) * RIVER_OPERATING_FACTOR * factor;
        Some((moving, self.fixed_s(e)))
    }

    /// Search cost of traversing the whole arc `x` (infinite when closed).
    #[inline]
    pub fn arc(&self, x: u32) -> f64 {
        let e = (x >> 1) as usize;
        match self.kind {
            Kind::Distance => self.g.edge_len[e],
            Kind::Time => self.g.edge_len[e] / (self.speed_kmh(e) / 3.6) + self.fixed_s(e),
            Kind::River => match self.river_seconds(x) {
                Some((moving, locks)) => {
                    let below = self
                        .g
                        .edge_class
                        .get(e)
                        .map_or(false, |&c| c < RIVER_AVOID_BELOW_CLASS);
                    (moving + locks) * if below { self.avoid } else { 1.0 }
                }
                None => f64::INFINITY,
            },
        }
    }

    /// The arc's cost without search-only penalties: metres, or real seconds (the river class
    /// avoid factor not applied).
    #[inline]
    pub fn real(&self, x: u32) -> f64 {
        match self.kind {
            Kind::River => self
                .river_seconds(x)
                .map_or(f64::INFINITY, |(moving, locks)| moving + locks),
            _ => self.arc(x),
        }
    }

    /// `full` (the whole arc's cost) for `metres` of it: pro rata (a query point on an edge).
    #[inline]
    fn share(&self, x: u32, full: f64, metres: f64) -> f64 {
        let len = self.g.edge_len[(x >> 1) as usize];
        if self.kind == Kind::Distance {
            metres
        } else if !full.is_finite() {
            full
        } else if len > 0.0 {
            full * (metres / len)
        } else {
            0.0
        }
    }

    /// Search cost of `metres` of arc `x`.
    #[inline]
    pub fn part(&self, x: u32, metres: f64) -> f64 {
        self.share(x, self.arc(x), metres)
    }

    /// Real cost of `metres` of arc `x`.
    #[inline]
    pub fn real_part(&self, x: u32, metres: f64) -> f64 {
        self.share(x, self.real(x), metres)
    }

    /// Search and real cost of an anchor's link `i`, leaving the anchor (`source`) or arriving.
    #[inline]
    fn link(&self, a: &Anchor, i: usize, source: bool) -> (f64, f64) {
        let metres = a.links[i].1;
        match a.on_edge {
            Some((e, _)) => {
                let x = link_arc(e, i, source);
                (self.part(x, metres), self.real_part(x, metres))
            }
            None => (metres, metres),
        }
    }

    /// Least cost of `metres` (A*'s bound, and the hierarchy's goal pruning).
    #[inline]
    pub fn bound(&self, metres: f64) -> f64 {
        metres * self.h_scale
    }
}

/// The arc an edge anchor's link `i` runs along. Link 0 joins `edge_from`, link 1 `edge_to`:
/// leaving towards `edge_from`, or arriving from `edge_to`, runs against the edge.
#[inline]
fn link_arc(e: u32, i: usize, source: bool) -> u32 {
    e << 1 | u32::from((i == 0) == source)
}

/// `metres` of edge `e` counted as class-0 metres: all of them on a class-0 edge of a graph with
/// a class section (river: uncurated water), none otherwise.
#[inline]
fn class0_part(g: &Graph, e: u32, metres: f64) -> f64 {
    match g.edge_class.get(e as usize) {
        Some(0) => metres,
        _ => 0.0,
    }
}

/// Class-0 metres of an anchor's link of `metres` (a node anchor's link has none).
#[inline]
fn anchor_class0(g: &Graph, a: &Anchor, metres: f64) -> f64 {
    a.on_edge.map_or(0.0, |(e, _)| class0_part(g, e, metres))
}

/// The arc between two points `k1 -> k2` of one edge.
#[inline]
fn within_arc(e: u32, k1: u32, k2: u32) -> u32 {
    e << 1 | u32::from(k1 > k2)
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

    /// [`Searcher::route`] by A*.
    fn route_astar(&mut self, g: &Graph, q: &Query) -> (Status, Route) {
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
    fn route_ch(&mut self, g: &Graph, q: &Query) -> (Status, Route) {
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
    fn many_ch(&mut self, g: &Graph, from: &Anchor, targets: &[Option<Anchor>], q: Query) -> Many {
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

/// What a summary writes of a route's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathOut {
    /// Nothing (zone metres and gates only).
    None,
    /// Each point's `[lat, lng]` and id.
    Points,
    /// Each point's id, and `[lat, lng]` only for the query's own ends (`NO_POINT`), in path
    /// order: all a caller needs that reads graph points from `Rounded::points` (a long route has
    /// hundreds of points, each 16 bytes written per query otherwise).
    Ids,
}

/// What a route amounts to: zone metres, gates used, geometry.
#[derive(Debug, Default)]
pub struct Summary {
    /// Metres per zone index (length = zone count).
    pub zone_m: Vec<f64>,
    /// Gate codes (1-based) in travel order, each once.
    pub gates: Vec<u32>,
    /// Flat `[lat, lng]` from the source anchor to the target anchor.
    pub path: Vec<f64>,
    /// Each path point's id in its graph ([`point_id_count`]), or [`NO_POINT`] for the query's own
    /// two ends: the same id is the same coordinates in every route, so a caller may share one
    /// value per point across routes.
    pub path_ids: Vec<u32>,
    /// Whether graph points' coordinates go into `path` (`PathOut::Points`).
    coords: bool,
}

/// The path id of a query's own end (the origin or destination as given, not a graph point).
pub const NO_POINT: u32 = u32::MAX;

/// How many path point ids graph `g` has: its geometry points, then its nodes.
pub fn point_id_count(g: &Graph) -> usize {
    g.geom.len() / 2 + g.node_count()
}

fn node_id(g: &Graph, v: usize) -> u32 {
    (g.geom.len() / 2 + v) as u32
}

impl Summary {
    /// Adds `metres` of edge `e` (its zone split pro rata) and its gate.
    fn add_edge(&mut self, g: &Graph, e: usize, metres: f64) {
        if metres <= 0.0 {
            return;
        }
        let share = if g.edge_len[e] > 0.0 {
            metres / g.edge_len[e]
        } else {
            0.0
        };
        for k in g.zone_start[e]..g.zone_start[e + 1] {
            self.zone_m[g.zone_id[k as usize] as usize] += g.zone_len[k as usize] * share;
        }
        let gate = u32::from(g.edge_gate[e]);
        if gate != 0 && !self.gates.contains(&gate) {
            self.gates.push(gate);
        }
    }

    fn point(&mut self, g: &Graph, k: usize) {
        if self.coords {
            self.path.push(g.geom[2 * k]);
            self.path.push(g.geom[2 * k + 1]);
        }
        self.path_ids.push(k as u32);
    }

    fn node(&mut self, g: &Graph, v: usize) {
        if self.coords {
            self.path.push(g.lat[v]);
            self.path.push(g.lng[v]);
        }
        self.path_ids.push(node_id(g, v));
    }

    /// One of the query's own ends.
    fn end(&mut self, a: &Anchor) {
        self.path.push(a.lat);
        self.path.push(a.lng);
        self.path_ids.push(NO_POINT);
    }

    /// A whole edge's points after the node it is entered from, and the node it leaves by, from
    /// `Graph::rounded`.
    fn rounded_arc(&mut self, r: &Rounded, g: &Graph, e: usize, reversed: bool, head: usize) {
        let (lo, hi) = (
            2 * g.geom_start[e] as usize,
            2 * g.geom_start[e + 1] as usize,
        );
        // Pairs pushed one by one: a two-value `extend_from_slice` is a `memcpy` call in the
        // WebAssembly build.
        let ids = (lo / 2) as u32..(hi / 2) as u32;
        let head = node_id(g, head);
        if self.coords {
            if reversed {
                for p in r.points[lo..hi].chunks_exact(2).rev() {
                    self.path.push(p[0]);
                    self.path.push(p[1]);
                }
            } else {
                self.path.extend_from_slice(&r.points[lo..hi]);
            }
            self.path.push(r.points[2 * head as usize]);
            self.path.push(r.points[2 * head as usize + 1]);
        }
        if reversed {
            self.path_ids.extend(ids.rev());
        } else {
            self.path_ids.extend(ids);
        }
        self.path_ids.push(head);
    }
}

/// Walks along edge `e` from intermediate point `k` (exclusive) to one of its ends (inclusive).
fn walk_to_end(s: &mut Summary, g: &Graph, e: usize, k: usize, to_from_end: bool) {
    let (lo, hi) = (g.geom_start[e] as usize, g.geom_start[e + 1] as usize);
    if to_from_end {
        for i in (lo..k).rev() {
            s.point(g, i);
        }
        s.node(g, g.edge_from[e] as usize);
    } else {
        for i in k + 1..hi {
            s.point(g, i);
        }
        s.node(g, g.edge_to[e] as usize);
    }
}

pub fn summarize(g: &Graph, from: &Anchor, to: &Anchor, route: &Route, want_path: bool) -> Summary {
    let out = if want_path {
        PathOut::Points
    } else {
        PathOut::None
    };
    summarize_into(g, from, to, route, out, (Vec::new(), Vec::new()))
}

/// [`summarize`] writing the path and its ids into `bufs` (cleared; buffers kept between queries
/// save allocating and freeing them per query).
pub fn summarize_into(
    g: &Graph,
    from: &Anchor,
    to: &Anchor,
    route: &Route,
    out: PathOut,
    bufs: (Vec<f64>, Vec<u32>),
) -> Summary {
    let want_path = out != PathOut::None;
    let mut s = Summary {
        zone_m: vec![0.0; g.zone_count as usize],
        ..Summary::default()
    };
    let (mut coords, mut ids) = bufs;
    coords.clear();
    ids.clear();
    let mut path = Summary {
        path: coords,
        path_ids: ids,
        coords: out == PathOut::Points,
        ..Summary::default()
    };
    if want_path {
        // One allocation: the arcs' points and nodes, and the end edges' points at most.
        let points = |e: u32| (g.geom_start[e as usize + 1] - g.geom_start[e as usize]) as usize;
        let ends = [from.on_edge, to.on_edge]
            .iter()
            .flatten()
            .map(|&(e, _)| points(e))
            .sum::<usize>();
        let arcs = route
            .arcs
            .iter()
            .map(|&a| points(g.arc_edge[a as usize] >> 1) + 1)
            .sum::<usize>();
        path.path.reserve(if path.coords {
            2 * (arcs + ends + 4)
        } else {
            4
        });
        path.path_ids.reserve(arcs + ends + 4);
    }
    // The part of the path already rounded.
    let mut rounded = 0..0;
    path.end(from);
    if route.direct {
        if let (Some((e, k1)), Some((_, k2))) = (from.on_edge, to.on_edge) {
            s.add_edge(g, e as usize, route.metres);
            let (k1, k2) = (k1 as usize, k2 as usize);
            if k1 < k2 {
                (k1 + 1..=k2).for_each(|i| path.point(g, i));
            } else {
                (k2..k1).rev().for_each(|i| path.point(g, i));
            }
        }
    } else {
        if let Some((e, k)) = from.on_edge {
            s.add_edge(g, e as usize, from.links[route.from_link].1);
            walk_to_end(&mut path, g, e as usize, k as usize, route.from_link == 0);
        }
        // The arcs' points come rounded when the graph has them so.
        rounded.start = path.path.len();
        for &a in &route.arcs {
            let e = (g.arc_edge[a as usize] >> 1) as usize;
            s.add_edge(g, e, g.edge_len[e]);
            if let (true, Some(r)) = (want_path, &g.rounded) {
                let reversed = g.arc_edge[a as usize] & 1 == 1;
                path.rounded_arc(r, g, e, reversed, g.arc_head[a as usize] as usize);
                rounded.end = path.path.len();
                continue;
            }
            if want_path {
                let (lo, hi) = (g.geom_start[e] as usize, g.geom_start[e + 1] as usize);
                if g.arc_edge[a as usize] & 1 == 1 {
                    (lo..hi).rev().for_each(|i| path.point(g, i));
                } else {
                    (lo..hi).for_each(|i| path.point(g, i));
                }
                path.node(g, g.arc_head[a as usize] as usize);
            }
        }
        if let Some((e, k)) = to.on_edge {
            // Entering the target's edge at one end and walking to its point = the reverse walk.
            s.add_edge(g, e as usize, to.links[route.to_link].1);
            let mut tail = Summary {
                coords: path.coords,
                ..Summary::default()
            };
            walk_to_end(&mut tail, g, e as usize, k as usize, route.to_link == 0);
            let pts: Vec<f64> = tail
                .path
                .chunks_exact(2)
                .rev()
                .skip(1)
                .flatten()
                .copied()
                .collect();
            path.path.extend_from_slice(&pts);
            path.path_ids.extend(tail.path_ids.iter().rev().skip(1));
            path.end(to);
        }
    }
    if want_path {
        // 5 decimals (about 1 m): the precision the API shows, done here where it is cheapest;
        // all but the arcs' points when those came rounded (`rounded` is empty otherwise).
        let (head, rest) = path.path.split_at_mut(rounded.start.min(rounded.end));
        for v in head.iter_mut().chain(&mut rest[rounded.len()..]) {
            *v = round_coord(*v);
        }
    } else {
        // Empty, but the caller's buffers all the same.
        path.path.clear();
        path.path_ids.clear();
    }
    s.path = path.path;
    s.path_ids = path.path_ids;
    s
}

/// A path coordinate as the API shows it: 5 decimals (about 1 m).
#[inline]
pub fn round_coord(v: f64) -> f64 {
    round_half_away(v * 1e5) / 1e5
}

/// `f64::round` (half away from zero) from floor and compare: the same result, but the WebAssembly
/// build has a floor instruction and no round one (`round` is a software call there), and a long
/// path rounds thousands of coordinates.
#[inline]
pub(crate) fn round_half_away(x: f64) -> f64 {
    let r = x.abs();
    let f = r.floor();
    // r - f is exact below 2^52; beyond it every f64 is already an integer.
    let up = if r - f >= 0.5 { f + 1.0 } else { f };
    up.copysign(x)
}

/// The route as pieces of edges in travel order: `(edge << 1 | reversed, metres)`, the first and
/// last partial when a query point lies on an edge.
pub fn pieces(g: &Graph, from: &Anchor, to: &Anchor, route: &Route) -> Vec<(u32, f64)> {
    let mut out = Vec::with_capacity(route.arcs.len() + 2);
    if route.direct {
        if let (Some((e, k1)), Some((_, k2))) = (from.on_edge, to.on_edge) {
            out.push((within_arc(e, k1, k2), route.metres));
        }
        return out;
    }
    if let Some((e, _)) = from.on_edge {
        let l = route.from_link;
        out.push((link_arc(e, l, true), from.links[l].1));
    }
    for &a in &route.arcs {
        let x = g.arc_edge[a as usize];
        out.push((x, g.edge_len[(x >> 1) as usize]));
    }
    if let Some((e, _)) = to.on_edge {
        let l = route.to_link;
        out.push((link_arc(e, l, false), to.links[l].1));
    }
    out
}

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
