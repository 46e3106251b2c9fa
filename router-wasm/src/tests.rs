//! Table tests over tiny hand-made maps, in the style of OSRM/Valhalla test tables.

use crate::graph::{haversine_m, EdgeAttrs, EdgeSpec, Graph};
use crate::landmarks::dijkstra;
use crate::search::{summarize, Objective, Query, Searcher, Status};

pub(crate) fn edge(from: u32, to: u32, gate: u8) -> EdgeSpec {
    EdgeSpec {
        from,
        to,
        gate,
        inner: Vec::new(),
        zones: Vec::new(),
    }
}

/// ```text
///   3 (1,1)
///  /       \
/// 0 (0,0) - 1 (0,1) =gate 1= 2 (0,2) - 5 (0,179.5) ~~antimeridian~~ 6 (0,-179.8)
/// 4 (10,10) - 7 (10,11): an island of lanes
/// 8 (-1,0) - 9 (-1,4) with lane points (-1,1) (-1,2) (-1,3), zone 0 over its whole length
/// ```
pub(crate) fn strait_map() -> Graph {
    let nodes = [
        (0.0, 0.0),
        (0.0, 1.0),
        (0.0, 2.0),
        (1.0, 1.0),
        (10.0, 10.0),
        (0.0, 179.5),
        (0.0, -179.8),
        (10.0, 11.0),
        (-1.0, 0.0),
        (-1.0, 4.0),
    ];
    let lane_len = haversine_m(-1.0, 0.0, -1.0, 4.0);
    let edges = vec![
        edge(0, 1, 0),
        edge(1, 2, 1),
        edge(0, 3, 0),
        edge(3, 2, 0),
        edge(4, 7, 0),
        edge(5, 6, 0),
        edge(2, 5, 2),
        EdgeSpec {
            from: 8,
            to: 9,
            gate: 0,
            inner: vec![(-1.0, 1.0), (-1.0, 2.0), (-1.0, 3.0)],
            zones: vec![(0, lane_len)],
        },
        edge(0, 8, 0),
    ];
    Graph::build(0, &nodes, &edges, 2, 1)
}

struct Case {
    name: &'static str,
    from: (f64, f64),
    to: (f64, f64),
    closed: u32,
    budget: u32,
    status: Status,
    /// Expected metres as a sum of great-circle legs between the listed points.
    via: &'static [(f64, f64)],
    gates: &'static [u32],
    /// Expected first and last path points.
    ends: Option<((f64, f64), (f64, f64))>,
}

pub(crate) fn legs(points: &[(f64, f64)]) -> f64 {
    points
        .windows(2)
        .map(|w| haversine_m(w[0].0, w[0].1, w[1].0, w[1].1))
        .sum()
}

#[test]
fn route_table() {
    let g = strait_map();
    let mut s = Searcher::new(g.node_count());
    let cases = [
        Case {
            name: "through the gate",
            from: (0.0, 0.0),
            to: (0.0, 2.0),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(0.0, 0.0), (0.0, 1.0), (0.0, 2.0)],
            gates: &[1],
            ends: Some(((0.0, 0.0), (0.0, 2.0))),
        },
        Case {
            name: "gate closed: detour",
            from: (0.0, 0.0),
            to: (0.0, 2.0),
            closed: 1,
            budget: 0,
            status: Status::Found,
            via: &[(0.0, 0.0), (1.0, 1.0), (0.0, 2.0)],
            gates: &[],
            ends: None,
        },
        Case {
            name: "query points snap to the nearest node",
            from: (0.05, -0.05),
            to: (0.1, 1.95),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(0.0, 0.0), (0.0, 2.0)],
            gates: &[1],
            ends: Some(((0.0, 0.0), (0.0, 2.0))),
        },
        Case {
            name: "across the antimeridian",
            from: (0.0, 2.0),
            to: (0.0, -179.8),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(0.0, 2.0), (0.0, 179.5), (0.0, -179.8)],
            gates: &[2],
            ends: Some(((0.0, 2.0), (0.0, -179.8))),
        },
        Case {
            name: "snap wraps the antimeridian",
            from: (0.0, 179.9),
            to: (0.0, 2.0),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(0.0, -179.8), (0.0, 179.5), (0.0, 2.0)],
            gates: &[2],
            ends: Some(((0.0, -179.8), (0.0, 2.0))),
        },
        Case {
            name: "island unreachable",
            from: (0.0, 0.0),
            to: (10.0, 10.0),
            closed: 0,
            budget: 0,
            status: Status::NoRoute,
            via: &[],
            gates: &[],
            ends: None,
        },
        Case {
            name: "every way closed",
            from: (0.0, 0.0),
            to: (0.0, -179.8),
            closed: 2,
            budget: 0,
            status: Status::NoRoute,
            via: &[],
            gates: &[],
            ends: None,
        },
        Case {
            name: "budget exhausted is not 'no route'",
            from: (0.0, 0.0),
            to: (0.0, -179.8),
            closed: 0,
            budget: 1,
            status: Status::BudgetExhausted,
            via: &[],
            gates: &[],
            ends: None,
        },
        Case {
            name: "snap onto a lane point, then along the lane",
            from: (-1.2, 2.0),
            to: (0.0, 0.0),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(-1.0, 2.0), (-1.0, 1.0), (-1.0, 0.0), (0.0, 0.0)],
            gates: &[],
            ends: Some(((-1.0, 2.0), (0.0, 0.0))),
        },
        Case {
            name: "both points on one lane",
            from: (-1.0, 3.1),
            to: (-0.9, 1.0),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(-1.0, 3.0), (-1.0, 1.0)],
            gates: &[],
            ends: Some(((-1.0, 3.0), (-1.0, 1.0))),
        },
        Case {
            name: "same point",
            from: (0.0, 1.0),
            to: (0.01, 1.0),
            closed: 0,
            budget: 0,
            status: Status::Found,
            via: &[(0.0, 1.0)],
            gates: &[],
            ends: Some(((0.0, 1.0), (0.0, 1.0))),
        },
    ];
    for c in &cases {
        let from = g.snap(c.from.0, c.from.1).unwrap();
        let to = g.snap(c.to.0, c.to.1).unwrap();
        let q = Query {
            from: &from,
            to: &to,
            closed: c.closed,
            max_settled: c.budget,
            objective: Objective::Distance,
        };
        let (status, route) = s.route(&g, &q);
        assert_eq!(status, c.status, "{}", c.name);
        if status != Status::Found {
            continue;
        }
        let want = legs(c.via);
        assert!(
            (route.metres - want).abs() < 1.0,
            "{}: {} m, want {} m",
            c.name,
            route.metres,
            want
        );
        let sum = summarize(&g, &from, &to, &route, true);
        assert_eq!(sum.gates, c.gates, "{}", c.name);
        let path: Vec<(f64, f64)> = sum.path.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        assert!(
            (legs(&path) - route.metres).abs() < 1.0,
            "{}: path length differs from distance",
            c.name
        );
        if let Some((first, last)) = c.ends {
            assert_eq!(path.first(), Some(&first), "{}", c.name);
            assert_eq!(path.last(), Some(&last), "{}", c.name);
        }
    }
}

#[test]
fn zone_metres_follow_the_part_of_the_lane_used() {
    let g = strait_map();
    let mut s = Searcher::new(g.node_count());
    let from = g.snap(-1.0, 2.0).unwrap();
    let to = g.snap(-1.0, 4.0).unwrap();
    let q = Query {
        from: &from,
        to: &to,
        closed: 0,
        max_settled: 0,
        objective: Objective::Distance,
    };
    let (status, route) = s.route(&g, &q);
    assert_eq!(status, Status::Found);
    let sum = summarize(&g, &from, &to, &route, false);
    assert!((sum.zone_m[0] - route.metres).abs() < 1.0);
    assert!(sum.path.is_empty());
}

/// Seeded xorshift64, uniform in [0, 1): the random meshes are the same on every run.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A pseudo-random mesh: A* with landmarks and closed gates must match plain Dijkstra.
#[test]
fn astar_matches_dijkstra_on_random_meshes() {
    let mut rnd = xorshift(0x2545_f491_4f6c_dd1du64);
    let mut nodes = Vec::new();
    for i in 0..20 {
        for j in 0..20 {
            nodes.push((i as f64 * 2.0 + rnd() - 40.0 + 20.0, j as f64 * 2.0 + rnd()));
        }
    }
    let mut edges = Vec::new();
    for i in 0..20u32 {
        for j in 0..20u32 {
            let v = i * 20 + j;
            if j + 1 < 20 && rnd() < 0.8 {
                edges.push(edge(
                    v,
                    v + 1,
                    if rnd() < 0.1 {
                        1 + (rnd() * 3.0) as u8
                    } else {
                        0
                    },
                ));
            }
            if i + 1 < 20 && rnd() < 0.8 {
                edges.push(edge(
                    v,
                    v + 20,
                    if rnd() < 0.1 {
                        1 + (rnd() * 3.0) as u8
                    } else {
                        0
                    },
                ));
            }
        }
    }
    let mut g = Graph::build(0, &nodes, &edges, 3, 0);
    g.prepare_landmarks(0b100);
    let mut s = Searcher::new(g.node_count());
    for _ in 0..300 {
        let a = (rnd() * 400.0) as u32;
        let b = (rnd() * 400.0) as u32;
        let closed = (rnd() * 8.0) as u32;
        let want = dijkstra(&g, a, closed)[b as usize];
        let from = g.snap(nodes[a as usize].0, nodes[a as usize].1).unwrap();
        let to = g.snap(nodes[b as usize].0, nodes[b as usize].1).unwrap();
        let q = Query {
            from: &from,
            to: &to,
            closed,
            max_settled: 0,
            objective: Objective::Distance,
        };
        let (status, route) = s.route(&g, &q);
        if want.is_finite() {
            assert_eq!(status, Status::Found);
            assert!(
                (route.metres - want).abs() < 1e-6 * want.max(1.0),
                "{} vs {}",
                route.metres,
                want
            );
        } else {
            assert_eq!(status, Status::NoRoute);
        }
    }
}

#[test]
fn snap_far_from_everything_scans_all_points() {
    let g = strait_map();
    let a = g.snap(-80.0, -90.0).unwrap();
    assert!(a.snap_m > 5_000_000.0);
    assert!(g.snap(f64::NAN, 0.0).is_none());
}

#[test]
fn never_snaps_inside_a_gated_lane() {
    // A canal 0 -> 1 with a lane point in its middle, and an open detour 0 -> 2 -> 1.
    let nodes = [(0.0, 0.0), (0.0, 2.0), (1.5, 1.0)];
    let edges = vec![
        EdgeSpec {
            from: 0,
            to: 1,
            gate: 1,
            inner: vec![(0.0, 1.0)],
            zones: Vec::new(),
        },
        edge(0, 2, 0),
        edge(2, 1, 0),
    ];
    let g = Graph::build(0, &nodes, &edges, 1, 0);
    let a = g.snap(0.01, 1.0).unwrap();
    assert!(a.on_edge.is_none(), "snapped into the canal");
    let mut s = Searcher::new(g.node_count());
    let to = g.snap(0.0, 2.0).unwrap();
    for closed in [0, 1] {
        let q = Query {
            from: &a,
            to: &to,
            closed,
            max_settled: 0,
            objective: Objective::Distance,
        };
        assert_eq!(s.route(&g, &q).0, Status::Found);
    }
}

/// One-to-many table over the strait map: each target's answer equals the one-to-one route.
#[test]
fn one_to_many_table() {
    let g = strait_map();
    let mut s = Searcher::new(g.node_count());
    let from = g.snap(0.0, 0.0).unwrap();
    let pts = [
        (0.0, 2.0),    // through gate 1, or round by node 3 when it is closed
        (1.0, 1.0),    // node 3
        (10.0, 10.0),  // the island: unreachable
        (0.0, -179.8), // across the antimeridian, through gate 2
        (-1.2, 2.0),   // a lane point
        (0.0, 0.0),    // the source itself
    ];
    let mut targets: Vec<Option<_>> = pts.iter().map(|p| g.snap(p.0, p.1)).collect();
    targets.push(None); // a target that did not snap
    for closed in [0, 1, 2, 3] {
        let many = s.one_to_many(&g, &from, &targets, closed, 0, Objective::Distance);
        assert_eq!(many.status, Status::Found);
        assert!(many.metres[6].is_nan() && many.cost[6].is_nan());
        for (i, t) in targets.iter().enumerate().take(pts.len()) {
            let to = t.as_ref().unwrap();
            let q = Query {
                from: &from,
                to,
                closed,
                max_settled: 0,
                objective: Objective::Distance,
            };
            let (status, route) = s.route(&g, &q);
            if status == Status::Found {
                assert!(
                    (many.metres[i] - route.metres).abs() < 1e-6,
                    "closed {} target {}: {} vs {}",
                    closed,
                    i,
                    many.metres[i],
                    route.metres
                );
                assert_eq!(many.cost[i], many.metres[i]);
            } else {
                assert_eq!(status, Status::NoRoute, "closed {} target {}", closed, i);
                assert_eq!(
                    many.metres[i],
                    f64::INFINITY,
                    "closed {} target {}",
                    closed,
                    i
                );
            }
        }
    }
    let want = legs(&[(0.0, 0.0), (1.0, 1.0), (0.0, 2.0)]);
    let many = s.one_to_many(&g, &from, &targets[..1], 1, 0, Objective::Distance);
    assert!((many.metres[0] - want).abs() < 1.0);
    // A budget too small to finish: the targets not yet final answer NaN, with the status.
    let many = s.one_to_many(&g, &from, &targets[3..4], 0, 1, Objective::Distance);
    assert_eq!(many.status, Status::BudgetExhausted);
    assert!(many.metres[0].is_nan());
}

#[test]
fn other_components_answer_no_route_without_a_search() {
    let g = strait_map();
    let mut s = Searcher::new(g.node_count());
    let from = g.snap(0.0, 0.0).unwrap();
    let island = g.snap(10.0, 10.0).unwrap();
    // Gates do not split components: node 2 stays with node 0 even with gate 1 closed.
    assert!(g.connected(&from, &g.snap(0.0, 2.0).unwrap()));
    assert!(!g.connected(&from, &island));
    let q = Query {
        from: &from,
        to: &island,
        closed: 0,
        max_settled: 0,
        objective: Objective::Distance,
    };
    let (status, route) = s.route(&g, &q);
    assert_eq!((status, route.settled), (Status::NoRoute, 0));
    // One-to-many: the island answers infinity at once and does not hold the search open; with
    // only unreachable targets nothing is settled at all.
    let near = g.snap(1.0, 1.0).unwrap();
    let both = [Some(island.clone()), Some(near)];
    let many = s.one_to_many(&g, &from, &both, 0, 0, Objective::Distance);
    assert_eq!(many.metres[0], f64::INFINITY);
    assert!((many.metres[1] - legs(&[(0.0, 0.0), (1.0, 1.0)])).abs() < 1e-6);
    let whole = s.one_to_many(&g, &from, &both[..1], 0, 0, Objective::Distance);
    assert_eq!((whole.settled, whole.metres[0]), (0, f64::INFINITY));
    assert!(many.settled < g.node_count() as u32);
}

/// Two ways from 0 to 1: a slow direct road (30 km/h) and a longer fast one via 2 (no speed of its
/// own: the query's default applies); and 1 - 3 by ferry (fixed hours on top of its speed).
pub(crate) fn road_map() -> Graph {
    let nodes = [(0.0, 0.0), (0.0, 1.0), (0.3, 0.5), (0.0, 1.5)];
    let attrs = EdgeAttrs {
        speed_kmh: vec![30.0, 0.0, 0.0, 20.0],
        class: vec![1, 0, 0, 9],
        country: vec![0, 0, 0, 1],
        fixed_s: vec![0.0, 0.0, 0.0, 3600.0],
        ..EdgeAttrs::default()
    };
    let edges = vec![edge(0, 1, 0), edge(0, 2, 0), edge(2, 1, 0), edge(1, 3, 0)];
    Graph::build_with(3, &nodes, &edges, 0, 0, attrs)
}

#[test]
fn costs_are_computed_per_query_from_edge_attributes() {
    let g = road_map();
    let mut s = Searcher::new(g.node_count());
    let a = g.snap(0.0, 0.0).unwrap();
    let b = g.snap(0.0, 1.0).unwrap();
    let c = g.snap(0.0, 1.5).unwrap();
    let direct = haversine_m(0.0, 0.0, 0.0, 1.0);
    let detour = legs(&[(0.0, 0.0), (0.3, 0.5), (0.0, 1.0)]);
    let ferry = haversine_m(0.0, 1.0, 0.0, 1.5);
    let run = |s: &mut Searcher, to, objective| {
        let q = Query {
            from: &a,
            to,
            closed: 0,
            max_settled: 0,
            objective,
        };
        let (status, r) = s.route(&g, &q);
        assert_eq!(status, Status::Found);
        r
    };
    let d = run(&mut s, &b, Objective::Distance);
    assert!((d.metres - direct).abs() < 1e-6 && d.cost == d.metres);
    // At 90 km/h by default the detour is faster than 30 km/h on the direct road.
    let fast = Objective::Time { default_kmh: 90.0 };
    let t = run(&mut s, &b, fast);
    assert!(
        (t.metres - detour).abs() < 1e-6,
        "{} vs {}",
        t.metres,
        detour
    );
    assert!((t.cost - detour / 25.0).abs() < 1e-6);
    // At 20 km/h by default the direct road (30 km/h of its own) wins again.
    let slow = Objective::Time { default_kmh: 20.0 };
    let t = run(&mut s, &b, slow);
    assert!((t.metres - direct).abs() < 1e-6);
    assert!((t.cost - direct / (30.0 / 3.6)).abs() < 1e-6);
    // The ferry: its fixed hour on top of its own speed.
    let t = run(&mut s, &c, fast);
    assert!((t.cost - (detour / 25.0 + ferry / (20.0 / 3.6) + 3600.0)).abs() < 1e-6);
    // One-to-many agrees with one-to-one under the time objective.
    let many = s.one_to_many(&g, &a, &[Some(b.clone()), Some(c.clone())], 0, 0, fast);
    assert!((many.cost[1] - t.cost).abs() < 1e-6);
    assert!((many.metres[0] - detour).abs() < 1e-6);
    assert!(!Objective::Time { default_kmh: 0.0 }.is_valid());
}

/// A pseudo-random mesh: one-to-many from a point matches Dijkstra to every node, closures too.
#[test]
fn one_to_many_matches_dijkstra_on_random_meshes() {
    let mut rnd = xorshift(0x9e37_79b9_7f4a_7c15u64);
    let mut nodes = Vec::new();
    for i in 0..12 {
        for j in 0..12 {
            nodes.push((i as f64 * 2.0 + rnd() - 12.0, j as f64 * 2.0 + rnd()));
        }
    }
    let mut edges = Vec::new();
    for i in 0..12u32 {
        for j in 0..12u32 {
            let v = i * 12 + j;
            let gate = |r: f64| if r < 0.15 { 1 + (r * 20.0) as u8 } else { 0 };
            if j + 1 < 12 && rnd() < 0.85 {
                edges.push(edge(v, v + 1, gate(rnd())));
            }
            if i + 1 < 12 && rnd() < 0.85 {
                edges.push(edge(v, v + 12, gate(rnd())));
            }
        }
    }
    let g = Graph::build(0, &nodes, &edges, 3, 0);
    let mut s = Searcher::new(g.node_count());
    let all: Vec<Option<_>> = nodes.iter().map(|p| g.snap(p.0, p.1)).collect();
    for _ in 0..40 {
        let a = (rnd() * 144.0) as usize;
        let closed = (rnd() * 8.0) as u32;
        let want = dijkstra(&g, a as u32, closed);
        let from = all[a].clone().unwrap();
        let many = s.one_to_many(&g, &from, &all, closed, 0, Objective::Distance);
        for (b, w) in want.iter().enumerate() {
            if w.is_finite() {
                assert!((many.metres[b] - w).abs() < 1e-6 * w.max(1.0));
            } else {
                assert_eq!(many.metres[b], f64::INFINITY);
            }
        }
    }
}
