//! What a found route amounts to: zone metres, gates, the path and its point ids, coordinates
//! rounded as the API shows them, and the route as pieces of edges.

use super::costing::{link_arc, within_arc};
use super::Route;
use crate::graph::{Anchor, Graph, Rounded};

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
