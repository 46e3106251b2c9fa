//! Table tests over tiny hand-made maps, in the style of OSRM/Valhalla test tables.

use crate::graph::{haversine_m, EdgeAttrs, EdgeSpec, Graph};
use crate::landmarks::dijkstra;
use crate::search::{
    summarize, summarize_river, Costing, Objective, Query, River, Searcher, Status,
};

fn edge(from: u32, to: u32, gate: u8) -> EdgeSpec {
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
fn strait_map() -> Graph {
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

fn legs(points: &[(f64, f64)]) -> f64 {
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
fn road_map() -> Graph {
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

/// Several graphs in one instance, by handle; an artifact round trip keeps attributes and
/// landmarks; a landmark table for another graph, or a v1 payload, is refused.
#[test]
fn graphs_by_handle_and_artifact_checks() {
    use crate::ffi;
    let sea = strait_map();
    let road = road_map();
    let sea_bytes = sea.to_artifact("sea-graph", "b1");
    let road_bytes = road.to_artifact("road-graph", "b1");
    let h_sea = ffi::load(&sea_bytes, "sea-graph", "sea.graph");
    let h_road = ffi::load(&road_bytes, "road-graph", "road.graph");
    assert!(h_sea >= 0 && h_road >= 0 && h_sea != h_road);
    assert_eq!(ffi::pr_graph_mode(h_road), 3);
    assert_eq!(
        ffi::pr_landmark_count(h_sea),
        sea.landmarks.as_ref().unwrap().count as u32
    );
    assert_eq!(ffi::pr_graph_sections(h_road), road.sections);
    let sea_route = ffi::pr_route(h_sea, 0.0, 0.0, 0.0, 2.0, 0, 0, 0, 0, 0.0);
    assert_eq!(sea_route, ffi::STATUS_FOUND);
    let road_time = ffi::pr_route(h_road, 0.0, 0.0, 0.0, 1.0, 0, 0, 0, 1, 90.0);
    assert_eq!(road_time, ffi::STATUS_FOUND);
    assert_eq!(
        ffi::pr_route(h_road, 0.0, 0.0, 0.0, 1.0, 0, 0, 0, 1, 0.0),
        ffi::STATUS_BAD_QUERY
    );
    assert_eq!(
        ffi::pr_route(h_road, 0.0, 0.0, 0.0, 1.0, 0, 0, 0, 7, 50.0),
        ffi::STATUS_BAD_QUERY
    );
    // A kind the caller did not ask for is refused by the container check.
    assert_eq!(ffi::load(&road_bytes, "sea-graph", "road.graph"), -1);
    assert_eq!(ffi::pr_unload(h_road), 0);
    assert_eq!(ffi::pr_unload(h_road), -1);
    assert_eq!(
        ffi::pr_route(h_road, 0.0, 0.0, 0.0, 1.0, 0, 0, 0, 0, 0.0),
        ffi::STATUS_NOT_LOADED
    );
    assert_eq!(
        ffi::pr_route(-1, 0.0, 0.0, 0.0, 1.0, 0, 0, 0, 0, 0.0),
        ffi::STATUS_NOT_LOADED
    );
    // The sea graph is untouched by the road graph's unload; the freed handle is reused.
    assert_eq!(
        ffi::pr_route(h_sea, 0.0, 0.0, 0.0, 2.0, 0, 0, 0, 0, 0.0),
        ffi::STATUS_FOUND
    );
    assert_eq!(ffi::load(&road_bytes, "road-graph", "road.graph"), h_road);

    let back = Graph::from_artifact(&road_bytes, "road-graph", "road.graph").unwrap();
    assert_eq!(back.edge_speed_kmh, road.edge_speed_kmh);
    assert_eq!(back.edge_country, road.edge_country);
    assert_eq!(back.edge_class, road.edge_class);
    assert_eq!(back.edge_fixed_s, road.edge_fixed_s);
    let lm = back.landmarks.as_ref().unwrap();
    assert_eq!(lm.dist, road.landmarks.as_ref().unwrap().dist);

    // Landmarks of another graph (one edge length changed) are refused with the rebuild hint.
    let mut other = strait_map();
    other.edge_len[0] += 1.0;
    other.landmarks = sea.landmarks.as_ref().map(|l| crate::landmarks::Landmarks {
        count: l.count,
        base_closed: l.base_closed,
        checksum: l.checksum,
        nodes: l.nodes.clone(),
        dist: l.dist.clone(),
    });
    let err = Graph::from_artifact(
        &other.to_artifact("sea-graph", "b1"),
        "sea-graph",
        "x.graph",
    )
    .err()
    .unwrap();
    assert!(
        err.contains("landmarks were computed for another graph"),
        "{}",
        err
    );
    assert!(err.contains("npm run build"), "{}", err);

    // A payload version 1 artifact is refused.
    let a = crate::container::decode(&sea_bytes, "sea-graph", crate::graph::FORMAT_VERSION, "s")
        .unwrap();
    let v1: Vec<(&str, &[u8])> = a.sections.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let old = crate::container::encode("sea-graph", 1, "b0", &v1);
    let err = Graph::from_artifact(&old, "sea-graph", "old.graph")
        .err()
        .unwrap();
    assert!(err.contains("npm run build"), "{}", err);
}

/// A river edge for [`river_graph`].
struct Reach {
    from: u32,
    to: u32,
    inner: Vec<(f64, f64)>,
    speed: f32,
    /// Signed along from -> to.
    current: f32,
    class: u8,
    locks: u8,
    fixed_s: f32,
    waterway: u16,
    rules: Vec<u8>,
}

fn reach(from: u32, to: u32, speed: f32, current: f32, class: u8, waterway: u16) -> Reach {
    Reach {
        from,
        to,
        inner: Vec::new(),
        speed,
        current,
        class,
        locks: 0,
        fixed_s: 0.0,
        waterway,
        rules: Vec::new(),
    }
}

fn river_graph(nodes: &[(f64, f64)], reaches: Vec<Reach>) -> Graph {
    let mut attrs = EdgeAttrs::default();
    let mut edges = Vec::new();
    for r in reaches {
        attrs.speed_kmh.push(r.speed);
        attrs.current_kmh.push(r.current);
        attrs.class.push(r.class);
        attrs.locks.push(r.locks);
        attrs.fixed_s.push(r.fixed_s);
        attrs.waterway.push(r.waterway);
        attrs.rules.push(r.rules);
        edges.push(EdgeSpec {
            from: r.from,
            to: r.to,
            gate: 0,
            inner: r.inner,
            zones: Vec::new(),
        });
    }
    Graph::build_with(1, nodes, &edges, 0, 0, attrs)
}

const LOCK_S: f32 = 0.75 * 3600.0;
const LOCK_NA_S: f32 = 1.25 * 3600.0;
/// Rule indices of [`river_map`].
const ICE: usize = 0;
const MAIN_CLOSED: usize = 1;
const LOW_WATER: usize = 2;
const SPUR_CLOSED: usize = 3;

/// ```text
///                 4 (0.3,0.75)               5 (0.3,1.5)
///      canal 2 locks /    \ canal 1 lock       | spur, class II (rule 3: closure)
///                   /      \                   |
/// 6 ==rapids== 0 ---- 1 ---------- 2 ~~~~ main, via (0.15,1.25) ~~~~ 3 ---- 7 (0,2)
/// (0,-0.3)    (0,0) (0,0.5)      (0,1)  ---- side arm, class III ---- (0,1.5)  2 locks, 1.25 h each
/// ```
/// The main river (waterway 0, class VIa then Va) flows from 3 to 0 at 4 km/h (2 km/h on 2-3);
/// rules: 0 ice on 0-1, 1 closure on 1-2, 2 low water on 2-3, 3 closure of the spur. The rapids
/// (0 -> 6) run at 11 km/h, so going up them the barge crawls at the 3 km/h floor.
fn river_map() -> (Vec<(f64, f64)>, Graph) {
    let nodes = vec![
        (0.0, 0.0),
        (0.0, 0.5),
        (0.0, 1.0),
        (0.0, 1.5),
        (0.3, 0.75),
        (0.3, 1.5),
        (0.0, -0.3),
        (0.0, 2.0),
    ];
    let reaches = vec![
        Reach {
            rules: vec![ICE as u8],
            ..reach(0, 1, 12.5, -4.0, 7, 0)
        },
        Reach {
            rules: vec![MAIN_CLOSED as u8],
            ..reach(1, 2, 12.5, -4.0, 7, 0)
        },
        Reach {
            inner: vec![(0.15, 1.25)],
            rules: vec![LOW_WATER as u8],
            ..reach(2, 3, 12.5, -2.0, 5, 0)
        },
        Reach {
            locks: 2,
            fixed_s: 2.0 * LOCK_S,
            ..reach(1, 4, 10.0, 0.0, 4, 1)
        },
        Reach {
            locks: 1,
            fixed_s: LOCK_S,
            ..reach(4, 2, 10.0, 0.0, 4, 1)
        },
        reach(2, 3, 12.5, 0.0, 3, 2),
        Reach {
            rules: vec![SPUR_CLOSED as u8],
            ..reach(3, 5, 10.0, 0.0, 2, 3)
        },
        reach(0, 6, 12.5, 11.0, 5, 4),
        Reach {
            locks: 2,
            fixed_s: 2.0 * LOCK_NA_S,
            ..reach(3, 7, 12.5, 0.0, 4, 5)
        },
    ];
    let g = river_graph(&nodes, reaches);
    (nodes, g)
}

/// Seconds of `metres` at `kmh` over ground, with the operating factor.
fn river_s(metres: f64, kmh: f64) -> f64 {
    metres / (kmh / 3.6) * 1.1
}

struct RiverRun {
    status: Status,
    route: crate::search::Route,
    sum: crate::search::RiverSummary,
}

fn river_run(
    g: &Graph,
    s: &mut Searcher,
    from: (f64, f64),
    to: (f64, f64),
    avoid: f64,
    factors: &[f64],
) -> RiverRun {
    let a = g.snap(from.0, from.1).unwrap();
    let b = g.snap(to.0, to.1).unwrap();
    let river = River {
        default_kmh: 12.5,
        avoid,
        factors,
    };
    let q = Query {
        from: &a,
        to: &b,
        closed: 0,
        max_settled: 0,
        objective: Objective::River(river),
    };
    let (status, route) = s.route(g, &q);
    let sum = if status == Status::Found {
        summarize_river(g, &a, &b, &route, river)
    } else {
        Default::default()
    };
    RiverRun { status, route, sum }
}

struct RiverCase {
    name: &'static str,
    from: (f64, f64),
    to: (f64, f64),
    avoid: f64,
    /// (rule, factor) set on top of all 1.
    rules: &'static [(usize, f64)],
    /// None = no route.
    want: Option<RiverWant>,
}

struct RiverWant {
    /// Nodes or points passed, for the metres.
    via: &'static [(f64, f64)],
    /// (metres of the listed legs, over-ground km/h, rule factor) per stretch.
    legs: &'static [(usize, f64, f64)],
    lock_s: f64,
    locks: f64,
}

#[test]
fn river_table() {
    let (_, g) = river_map();
    let mut s = Searcher::new(g.node_count());
    let main_bend: &[(f64, f64)] = &[(0.0, 1.0), (0.15, 1.25), (0.0, 1.5)];
    let cases = [
        RiverCase {
            name: "downstream 1 -> 0 at 12.5 + 4 km/h",
            from: (0.0, 0.5),
            to: (0.0, 0.0),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 0.5), (0.0, 0.0)],
                legs: &[(1, 16.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "upstream 0 -> 1 at 12.5 - 4 km/h",
            from: (0.0, 0.0),
            to: (0.0, 0.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 0.0), (0.0, 0.5)],
                legs: &[(1, 8.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "down the rapids at 12.5 + 11 km/h",
            from: (0.0, 0.0),
            to: (0.0, -0.3),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 0.0), (0.0, -0.3)],
                legs: &[(1, 23.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "up the rapids: never below 3 km/h over ground",
            from: (0.0, -0.3),
            to: (0.0, 0.0),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, -0.3), (0.0, 0.0)],
                legs: &[(1, 3.0, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "main river closed: the canal with its flight of three locks",
            from: (0.0, 0.5),
            to: (0.0, 1.0),
            avoid: 4.0,
            rules: &[(MAIN_CLOSED, 0.0)],
            want: Some(RiverWant {
                via: &[(0.0, 0.5), (0.3, 0.75), (0.0, 1.0)],
                legs: &[(2, 10.0, 1.0)],
                lock_s: 3.0 * 2700.0,
                locks: 3.0,
            }),
        },
        RiverCase {
            name: "two locks of 1.25 h (North America)",
            from: (0.0, 1.5),
            to: (0.0, 2.0),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.5), (0.0, 2.0)],
                legs: &[(1, 12.5, 1.0)],
                lock_s: 2.0 * 4500.0,
                locks: 2.0,
            }),
        },
        RiverCase {
            name: "class III side arm avoided: the longer class Va bend, upstream",
            from: (0.0, 1.0),
            to: (0.0, 1.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: main_bend,
                legs: &[(2, 10.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "no avoidance: the class III side arm is quicker",
            from: (0.0, 1.0),
            to: (0.0, 1.5),
            avoid: 1.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.0), (0.0, 1.5)],
                legs: &[(1, 12.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "class II spur used when it is the only way, real time reported",
            from: (0.0, 1.5),
            to: (0.3, 1.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.5), (0.3, 1.5)],
                legs: &[(1, 10.0, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "spur closed: no route",
            from: (0.0, 1.5),
            to: (0.3, 1.5),
            avoid: 4.0,
            rules: &[(SPUR_CLOSED, 0.0)],
            want: None,
        },
        RiverCase {
            name: "ice on 0-1 doubles its time only",
            from: (0.0, 1.0),
            to: (0.0, 0.0),
            avoid: 4.0,
            rules: &[(ICE, 2.0)],
            want: Some(RiverWant {
                via: &[(0.0, 1.0), (0.0, 0.5), (0.0, 0.0)],
                legs: &[(1, 16.5, 1.0), (1, 16.5, 2.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "low water on the bend: x1.5 there, and the bend still beats the side arm x4",
            from: (0.0, 1.0),
            to: (0.0, 1.5),
            avoid: 4.0,
            rules: &[(LOW_WATER, 1.5)],
            want: Some(RiverWant {
                via: main_bend,
                legs: &[(2, 10.5, 1.5)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from a point on the bend down to 2 (downstream, pro rata)",
            from: (0.16, 1.25),
            to: (0.0, 1.0),
            avoid: 4.0,
            rules: &[(LOW_WATER, 1.5)],
            want: Some(RiverWant {
                via: &[(0.15, 1.25), (0.0, 1.0)],
                legs: &[(1, 14.5, 1.5)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from a point on the bend up to 3 (upstream, pro rata)",
            from: (0.16, 1.25),
            to: (0.0, 1.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.15, 1.25), (0.0, 1.5)],
                legs: &[(1, 10.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from 3 down to a point on the bend (pro rata)",
            from: (0.0, 1.5),
            to: (0.16, 1.25),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.5), (0.15, 1.25)],
                legs: &[(1, 14.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from 2 up to a point on the bend (pro rata)",
            from: (0.0, 1.0),
            to: (0.16, 1.25),
            avoid: 4.0,
            rules: &[(LOW_WATER, 2.0)],
            want: Some(RiverWant {
                via: &[(0.0, 1.0), (0.15, 1.25)],
                legs: &[(1, 10.5, 2.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
    ];
    for c in &cases {
        let mut factors = vec![1.0; 4];
        for &(r, f) in c.rules {
            factors[r] = f;
        }
        let run = river_run(&g, &mut s, c.from, c.to, c.avoid, &factors);
        let want = match &c.want {
            None => {
                assert_eq!(run.status, Status::NoRoute, "{}", c.name);
                continue;
            }
            Some(w) => w,
        };
        assert_eq!(run.status, Status::Found, "{}", c.name);
        let metres = legs(want.via);
        assert!(
            (run.route.metres - metres).abs() < 1.0,
            "{}: {} m, want {} m",
            c.name,
            run.route.metres,
            metres
        );
        // Split the listed points into the stretches of `legs`, each with its own speed.
        let mut at = 0;
        let mut seconds = want.lock_s;
        for &(n, kmh, factor) in want.legs {
            seconds += river_s(legs(&want.via[at..=at + n]), kmh) * factor;
            at += n;
        }
        assert!(
            (run.sum.seconds - seconds).abs() < 1e-6 * seconds,
            "{}: {} s, want {} s",
            c.name,
            run.sum.seconds,
            seconds
        );
        assert!(
            (run.sum.lock_seconds - want.lock_s).abs() < 1e-6,
            "{}",
            c.name
        );
        assert!((run.sum.locks - want.locks).abs() < 1e-9, "{}", c.name);
        let by_current = run.sum.downstream_m + run.sum.upstream_m + run.sum.slack_m;
        let by_waterway: f64 = run.sum.waterway_m.iter().sum();
        for (what, m) in [("current", by_current), ("waterways", by_waterway)] {
            assert!(
                (m - run.route.metres).abs() < 1e-6,
                "{}: {} metres {} vs {}",
                c.name,
                what,
                m,
                run.route.metres
            );
        }
        // The search cost carries the avoid factor on class < 4 edges, the duration does not.
        assert!(
            run.route.cost >= run.sum.seconds * (1.0 - 1e-12),
            "{}",
            c.name
        );
    }
}

#[test]
fn river_reports_current_waterway_and_rule_metres() {
    let (_, g) = river_map();
    let mut s = Searcher::new(g.node_count());
    // 3 -> 0 with the main river closed: down the bend, through the canal, down 1-0.
    let mut factors = vec![1.0; 4];
    factors[MAIN_CLOSED] = 0.0;
    let run = river_run(&g, &mut s, (0.0, 1.5), (0.0, 0.0), 4.0, &factors);
    assert_eq!(run.status, Status::Found);
    let bend = legs(&[(0.0, 1.5), (0.15, 1.25), (0.0, 1.0)]);
    let canal = legs(&[(0.0, 1.0), (0.3, 0.75), (0.0, 0.5)]);
    let lower = legs(&[(0.0, 0.5), (0.0, 0.0)]);
    let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
    assert!(near(run.route.metres, bend + canal + lower));
    assert!(near(run.sum.downstream_m, bend + lower));
    assert_eq!(run.sum.upstream_m, 0.0);
    assert!(near(run.sum.slack_m, canal));
    assert_eq!(run.sum.waterway_m.len(), 6);
    assert!(near(run.sum.waterway_m[0], bend + lower));
    assert!(near(run.sum.waterway_m[1], canal));
    assert_eq!(run.sum.rule_m.len(), 4);
    assert!(near(run.sum.rule_m[ICE], lower));
    assert!(near(run.sum.rule_m[LOW_WATER], bend));
    assert_eq!(run.sum.rule_m[MAIN_CLOSED], 0.0);
    assert_eq!(run.sum.locks, 3.0);
    // The same trip upstream is slower, and the one-to-many answer matches both ways.
    let up = river_run(&g, &mut s, (0.0, 0.0), (0.0, 1.5), 4.0, &factors);
    assert!(up.sum.seconds > run.sum.seconds);
    assert!(near(up.sum.upstream_m, bend + lower));
}

/// Plain Dijkstra over river arc costs: the reference for A* with landmarks.
fn river_dijkstra(g: &Graph, source: u32, cost: &Costing) -> Vec<f64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut dist = vec![f64::INFINITY; g.node_count()];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = 0.0;
    heap.push(Reverse((0u64, source)));
    while let Some(Reverse((d, u))) = heap.pop() {
        let du = f64::from_bits(d);
        if du > dist[u as usize] {
            continue;
        }
        for a in g.arc_start[u as usize]..g.arc_start[u as usize + 1] {
            let v = g.arc_head[a as usize];
            let dv = du + cost.arc(g.arc_edge[a as usize]);
            if dv < dist[v as usize] {
                dist[v as usize] = dv;
                heap.push(Reverse((dv.to_bits(), v)));
            }
        }
    }
    dist
}

/// Random river meshes (currents both ways, classes, locks, rules closing or slowing edges): A*
/// with landmarks finds the Dijkstra optimum (the bounds stay admissible), one-to-many agrees,
/// and all factors 1 is never slower than any factors >= 1.
#[test]
fn river_astar_matches_dijkstra_on_random_meshes() {
    let mut rnd = xorshift(0x51ed_2701_9a3c_44b1u64);
    let side = 12u32;
    let mut nodes = Vec::new();
    for i in 0..side {
        for j in 0..side {
            nodes.push((
                f64::from(i) * 0.3 + rnd() * 0.1,
                f64::from(j) * 0.3 + rnd() * 0.1,
            ));
        }
    }
    let mut reaches = Vec::new();
    for i in 0..side {
        for j in 0..side {
            let v = i * side + j;
            for (ok, w) in [(j + 1 < side, v + 1), (i + 1 < side, v + side)] {
                if !ok || rnd() > 0.85 {
                    continue;
                }
                let current = if rnd() < 0.3 {
                    0.0
                } else {
                    (rnd() * 24.0 - 12.0) as f32
                };
                let locks = if rnd() < 0.1 {
                    1 + (rnd() * 3.0) as u8
                } else {
                    0
                };
                let rules = if rnd() < 0.3 {
                    vec![(rnd() * 6.0) as u8]
                } else {
                    Vec::new()
                };
                reaches.push(Reach {
                    locks,
                    fixed_s: f32::from(locks) * LOCK_S,
                    rules,
                    ..reach(
                        v,
                        w,
                        if rnd() < 0.5 { 12.5 } else { 10.0 },
                        current,
                        (rnd() * 8.0) as u8,
                        (rnd() * 3.0) as u16,
                    )
                });
            }
        }
    }
    let g = river_graph(&nodes, reaches);
    assert!(g.landmarks.is_some());
    let mut s = Searcher::new(g.node_count());
    let all: Vec<Option<_>> = nodes.iter().map(|p| g.snap(p.0, p.1)).collect();
    let n = nodes.len();
    for round in 0..30 {
        let factors: Vec<f64> = (0..6)
            .map(|_| match rnd() {
                x if x < 0.15 => 0.0,
                x if x < 0.5 => 1.0 + rnd() * 2.0,
                _ => 1.0,
            })
            .collect();
        let ones = vec![1.0; 6];
        let avoid = if round % 3 == 0 { 1.0 } else { 4.0 };
        let river = River {
            default_kmh: 12.5,
            avoid,
            factors: &factors,
        };
        let cost = Costing::new(&g, Objective::River(river));
        let a = (rnd() * n as f64) as usize;
        let want = river_dijkstra(&g, a as u32, &cost);
        let from = all[a].clone().unwrap();
        let many = s.one_to_many(&g, &from, &all, 0, 0, Objective::River(river));
        for _ in 0..10 {
            let b = (rnd() * n as f64) as usize;
            let to = all[b].as_ref().unwrap();
            let mut q = Query {
                from: &from,
                to,
                closed: 0,
                max_settled: 0,
                objective: Objective::River(river),
            };
            let (status, route) = s.route(&g, &q);
            if !want[b].is_finite() {
                assert_eq!(status, Status::NoRoute);
                assert_eq!(many.cost[b], f64::INFINITY);
                continue;
            }
            assert_eq!(status, Status::Found);
            let tol = 1e-9 * want[b].max(1.0);
            assert!(
                (route.cost - want[b]).abs() < tol,
                "{} vs {}",
                route.cost,
                want[b]
            );
            assert!((many.cost[b] - route.cost).abs() < tol);
            let sum = summarize_river(&g, &from, to, &route, river);
            assert!((many.real[b] - sum.seconds).abs() < 1e-6 * sum.seconds.max(1.0));
            assert!((many.metres[b] - route.metres).abs() < 1e-6 * route.metres.max(1.0));
            // No seasonal rules: never slower than with them.
            q.objective = Objective::River(River {
                factors: &ones,
                ..river
            });
            let (status, free) = s.route(&g, &q);
            assert_eq!(status, Status::Found);
            assert!(free.cost <= route.cost * (1.0 + 1e-12));
        }
    }
}

#[test]
fn river_inputs_are_checked() {
    let (_, g) = river_map();
    let ok = [1.0, 0.0, 1.5, 1.0];
    let objective = |avoid: f64, factors: &'static [f64]| {
        Objective::River(River {
            default_kmh: 12.5,
            avoid,
            factors,
        })
    };
    assert!(objective(4.0, &[1.0, 0.0, 1.5, 1.0]).fits(&g));
    assert!(Objective::River(River {
        default_kmh: 12.5,
        avoid: 1.0,
        factors: &ok
    })
    .fits(&g));
    // Factors below 1 (other than 0) would make the bounds inadmissible: refused.
    assert!(!objective(4.0, &[1.0, 0.5, 1.0, 1.0]).is_valid());
    assert!(!objective(0.5, &[1.0; 4]).is_valid());
    assert!(!objective(f64::NAN, &[1.0; 4]).is_valid());
    assert!(!objective(4.0, &[1.0, f64::INFINITY, 1.0, 1.0]).is_valid());
    // Fewer factors than the graph's rules: valid alone, unusable on this graph.
    assert!(objective(4.0, &[1.0; 3]).is_valid());
    assert!(!objective(4.0, &[1.0; 3]).fits(&g));
}

/// The river sections survive an artifact round trip and reach the FFI: a river route through
/// `pr_route` with its block in `pr_input`, its figures behind `pr_result_river`.
#[test]
fn river_sections_round_trip_and_ffi() {
    use crate::ffi;
    let (_, g) = river_map();
    let bytes = g.to_artifact("river-graph", "b1");
    let back = Graph::from_artifact(&bytes, "river-graph", "river.graph").unwrap();
    assert_eq!(back.edge_current_kmh, g.edge_current_kmh);
    assert_eq!(back.edge_locks, g.edge_locks);
    assert_eq!(back.edge_waterway, g.edge_waterway);
    assert_eq!(back.rule_start, g.rule_start);
    assert_eq!(back.rule_id, g.rule_id);
    assert_eq!((back.waterway_count, back.rule_count), (6, 4));
    assert_eq!(back.max_ground_kmh, 23.5);
    let h = ffi::load(&bytes, "river-graph", "river.graph");
    assert!(h >= 0);
    assert_eq!((ffi::pr_waterway_count(h), ffi::pr_rule_count(h)), (6, 4));
    let set_input = |v: &[f64]| {
        let p = ffi::pr_input(v.len());
        // SAFETY: pr_input returns a buffer of at least v.len() f64.
        unsafe { std::ptr::copy_nonoverlapping(v.as_ptr(), p, v.len()) };
    };
    let route = |input: &[f64]| {
        set_input(input);
        ffi::pr_route(h, 0.0, 0.5, 0.0, 1.0, 0, 0, 0, ffi::OBJECTIVE_RIVER, 12.5)
    };
    assert_eq!(route(&[4.0, 4.0, 1.0, 1.0, 1.0, 1.0]), ffi::STATUS_FOUND);
    let read = |len: usize| {
        // SAFETY: the result buffers hold at least `len` f64 after a found route.
        unsafe { std::slice::from_raw_parts(ffi::pr_result_river(), len).to_vec() }
    };
    let meta = unsafe { std::slice::from_raw_parts(ffi::pr_result_meta(), ffi::meta::LEN) };
    let len = meta[ffi::meta::RIVER_LEN] as usize;
    assert_eq!(len, ffi::river::HEAD + 6 + 4);
    let open = read(len);
    let main = legs(&[(0.0, 0.5), (0.0, 1.0)]);
    assert!((open[ffi::river::SECONDS] - river_s(main, 8.5)).abs() < 1e-6);
    assert!((open[ffi::river::UPSTREAM_M] - main).abs() < 1e-6);
    assert!((open[ffi::river::HEAD + 6 + MAIN_CLOSED] - main).abs() < 1e-6);
    // The main river closed: the canal and its three locks.
    assert_eq!(route(&[4.0, 4.0, 1.0, 0.0, 1.0, 1.0]), ffi::STATUS_FOUND);
    let meta = unsafe { std::slice::from_raw_parts(ffi::pr_result_meta(), ffi::meta::LEN) };
    let closed = read(meta[ffi::meta::RIVER_LEN] as usize);
    assert_eq!(closed[ffi::river::LOCKS], 3.0);
    assert_eq!(closed[ffi::river::LOCK_SECONDS], 3.0 * 2700.0);
    // Malformed or unusable river inputs are bad queries, not panics.
    for bad in [
        &[4.0, 3.0, 1.0, 1.0, 1.0][..],      // fewer factors than rules
        &[4.0, 4.0, 1.0, 0.5, 1.0, 1.0][..], // a factor below 1
        &[0.5, 4.0, 1.0, 1.0, 1.0, 1.0][..], // avoid below 1
        &[4.0, 1.5, 1.0, 1.0, 1.0, 1.0][..], // a fractional count
        &[4.0, 4e9][..],                     // a count beyond the buffer
    ] {
        assert_eq!(route(bad), ffi::STATUS_BAD_QUERY, "{:?}", bad);
    }
    // One-to-many: the river block follows the targets; third block = real seconds.
    set_input(&[0.0, 1.0, 0.0, 0.0, 4.0, 4.0, 1.0, 1.0, 1.0, 1.0]);
    assert_eq!(
        ffi::pr_one_to_many(h, 0.0, 0.5, 2, 0, 0, ffi::OBJECTIVE_RIVER, 12.5),
        ffi::STATUS_FOUND
    );
    let many = unsafe { std::slice::from_raw_parts(ffi::pr_result_many(), 6).to_vec() };
    assert!((many[4] - open[ffi::river::SECONDS]).abs() < 1e-6);
    assert!((many[5] - river_s(legs(&[(0.0, 0.5), (0.0, 0.0)]), 16.5)).abs() < 1e-6);
    // Sea, road and rail calls are unchanged: no river figures behind a distance route.
    assert_eq!(
        ffi::pr_route(h, 0.0, 0.5, 0.0, 1.0, 0, 0, 0, ffi::OBJECTIVE_DISTANCE, 0.0),
        ffi::STATUS_FOUND
    );
    let meta = unsafe { std::slice::from_raw_parts(ffi::pr_result_meta(), ffi::meta::LEN) };
    assert_eq!(meta[ffi::meta::RIVER_LEN], 0.0);
    assert_eq!(ffi::pr_unload(h), 0);

    // A reader refuses an unknown section flag and a rule CSR that runs backwards.
    let mut other = river_map().1;
    other.sections |= 1 << 9;
    let err = Graph::from_artifact(&other.to_artifact("river-graph", "b1"), "river-graph", "x")
        .err()
        .unwrap();
    assert!(err.contains("unknown optional sections"), "{}", err);
    let mut other = river_map().1;
    other.rule_start.swap(1, 2);
    other.rule_start[1] = 3;
    assert!(
        Graph::from_artifact(&other.to_artifact("river-graph", "b1"), "river-graph", "x").is_err()
    );
}

#[test]
fn one_to_many_counts_class_0_metres() {
    // 0 --class 0 (uncurated), lane point (0,0.5)-- 1 --class IV-- 2
    let nodes = [(0.0, 0.0), (0.0, 1.0), (0.0, 2.0)];
    let reaches = vec![
        Reach {
            inner: vec![(0.0, 0.5)],
            ..reach(0, 1, 12.5, 0.0, 0, 0)
        },
        reach(1, 2, 12.5, 0.0, 4, 1),
    ];
    let g = river_graph(&nodes, reaches);
    let mut s = Searcher::new(g.node_count());
    let objective = Objective::River(River {
        default_kmh: 12.5,
        avoid: 4.0,
        factors: &[],
    });
    let lane = legs(&[(0.0, 0.0), (0.0, 1.0)]);
    let at = |lat: f64, lng: f64| g.snap(lat, lng);
    let many = s.one_to_many(
        &g,
        &at(0.0, 0.0).unwrap(),
        &[at(0.0, 1.0), at(0.0, 2.0), at(0.0, 0.5)],
        0,
        0,
        objective,
    );
    assert!((many.class0_m[0] - lane).abs() < 1e-6);
    assert!((many.class0_m[1] - lane).abs() < 1e-6);
    // A target on the class-0 lane itself: the part of the lane ridden.
    assert!((many.class0_m[2] - legs(&[(0.0, 0.0), (0.0, 0.5)])).abs() < 1e-6);
    // From the middle of the lane onwards: only its second half is class 0.
    let from_lane = s.one_to_many(&g, &at(0.0, 0.5).unwrap(), &[at(0.0, 2.0)], 0, 0, objective);
    assert!((from_lane.class0_m[0] - legs(&[(0.0, 0.5), (0.0, 1.0)])).abs() < 1e-6);
    let curated = s.one_to_many(&g, &at(0.0, 1.0).unwrap(), &[at(0.0, 2.0)], 0, 0, objective);
    assert_eq!(curated.class0_m[0], 0.0);
}
