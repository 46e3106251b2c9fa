//! Table tests over tiny hand-made maps, in the style of OSRM/Valhalla test tables.

use crate::graph::{haversine_m, EdgeSpec, Graph};
use crate::landmarks::dijkstra;
use crate::search::{summarize, Query, Searcher, Status};

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
    };
    let (status, route) = s.route(&g, &q);
    assert_eq!(status, Status::Found);
    let sum = summarize(&g, &from, &to, &route, false);
    assert!((sum.zone_m[0] - route.metres).abs() < 1.0);
    assert!(sum.path.is_empty());
}

/// A pseudo-random mesh: A* with landmarks and closed gates must match plain Dijkstra.
#[test]
fn astar_matches_dijkstra_on_random_meshes() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
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
        };
        assert_eq!(s.route(&g, &q).0, Status::Found);
    }
}
