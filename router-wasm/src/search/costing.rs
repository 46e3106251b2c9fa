//! Per-query edge costs: the objective a search minimises (distance, time, or direction-aware
//! river time) bound to a graph, with the lower bounds the heuristics use and the arcs of anchor
//! links and one-edge routes.

use crate::graph::{Anchor, Graph};

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
pub(super) enum Kind {
    Distance,
    Time,
    River,
}

/// Per-query edge costing: the objective bound to a graph. Arcs are `edge << 1 | reversed`
/// (`Graph::arc_edge` values): only river costs depend on the direction.
#[derive(Clone, Copy)]
pub struct Costing<'a> {
    g: &'a Graph,
    pub(super) kind: Kind,
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
    pub(super) fn along_kmh(&self, x: u32) -> f64 {
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
    pub(super) fn link(&self, a: &Anchor, i: usize, source: bool) -> (f64, f64) {
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
pub(super) fn link_arc(e: u32, i: usize, source: bool) -> u32 {
    e << 1 | u32::from((i == 0) == source)
}

/// `metres` of edge `e` counted as class-0 metres: all of them on a class-0 edge of a graph with
/// a class section (river: uncurated water), none otherwise.
#[inline]
pub(super) fn class0_part(g: &Graph, e: u32, metres: f64) -> f64 {
    match g.edge_class.get(e as usize) {
        Some(0) => metres,
        _ => 0.0,
    }
}

/// Class-0 metres of an anchor's link of `metres` (a node anchor's link has none).
#[inline]
pub(super) fn anchor_class0(g: &Graph, a: &Anchor, metres: f64) -> f64 {
    a.on_edge.map_or(0.0, |(e, _)| class0_part(g, e, metres))
}

/// The arc between two points `k1 -> k2` of one edge.
#[inline]
pub(super) fn within_arc(e: u32, k1: u32, k2: u32) -> u32 {
    e << 1 | u32::from(k1 > k2)
}
