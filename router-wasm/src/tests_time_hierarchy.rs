//! Time hierarchies (road, rail) over tiny hand-made maps: for the metric they were built in they
//! answer what A* answers, cost, metres, gates and path, route by route and one to many; any
//! other objective is A*'s.

use crate::graph::{EdgeAttrs, EdgeSpec, Graph};
use crate::hierarchy::Hierarchy;
use crate::metric::Metric;
use crate::search::{summarize, Objective, Query, Searcher, Status};
use crate::tests::xorshift;
use crate::tests_hierarchy::{edge, random_mesh};

const KMH: f64 = 60.0;
const TIME: Objective = Objective::Time { default_kmh: KMH };

/// Speeds (0 = the query's default) and fixed seconds (a gated edge is a ferry with a wait).
fn attrs(edges: &[EdgeSpec], rnd: &mut dyn FnMut() -> f64) -> EdgeAttrs {
    let speed_kmh = edges
        .iter()
        .map(|_| {
            if rnd() < 0.3 {
                0.0
            } else {
                (20.0 + rnd() * 100.0) as f32
            }
        })
        .collect();
    let fixed_s = edges
        .iter()
        .map(|e| {
            if e.gate != 0 {
                (rnd() * 3600.0) as f32
            } else {
                0.0
            }
        })
        .collect();
    EdgeAttrs {
        speed_kmh,
        fixed_s,
        class: edges.iter().map(|_| (rnd() * 3.0) as u8).collect(),
        ..EdgeAttrs::default()
    }
}

/// The graph twice: A* only, and with its time hierarchy.
fn time_pair(nodes: &[(f64, f64)], edges: &[EdgeSpec], a: &EdgeAttrs) -> (Graph, Graph) {
    let build = || Graph::build_with(0, nodes, edges, 4, 0, a.clone());
    let (plain, mut ch) = (build(), build());
    let h = Hierarchy::build(&ch, Metric::Time(KMH));
    ch.hierarchy = Some(h);
    (plain, ch)
}

/// Status, cost, metres, gates, path and settles of a query.
type Answer = (Status, f64, f64, Vec<u32>, Vec<f64>, u32);

fn answer(
    s: &mut Searcher,
    g: &Graph,
    from: (f64, f64),
    to: (f64, f64),
    closed: u32,
    o: Objective,
) -> Answer {
    let a = g.snap(from.0, from.1).unwrap();
    let b = g.snap(to.0, to.1).unwrap();
    let q = Query {
        from: &a,
        to: &b,
        closed,
        max_settled: 0,
        objective: o,
    };
    let (status, route) = s.route(g, &q);
    if status != Status::Found {
        return (status, 0.0, 0.0, Vec::new(), Vec::new(), route.settled);
    }
    let sum = summarize(g, &a, &b, &route, true);
    (
        status,
        route.cost,
        route.metres,
        sum.gates,
        sum.path,
        route.settled,
    )
}

fn mesh(seed: u64) -> (Graph, Graph, impl FnMut() -> f64) {
    let mut rnd = xorshift(seed);
    let (nodes, edges) = random_mesh(&mut rnd);
    let a = attrs(&edges, &mut rnd);
    let (plain, ch) = time_pair(&nodes, &edges, &a);
    (plain, ch, rnd)
}

#[test]
fn time_hierarchy_matches_astar_on_random_meshes() {
    for seed in [
        0x2545_f491_4f6c_dd1du64,
        0x9e37_79b9_7f4a_7c15,
        0x0bad_5eed_1234_5678,
    ] {
        let (plain, ch, mut rnd) = mesh(seed);
        let (mut sa, mut sc) = (
            Searcher::new(plain.node_count()),
            Searcher::new(ch.node_count()),
        );
        let mut found = 0;
        for _ in 0..600 {
            let p = |rnd: &mut dyn FnMut() -> f64| (rnd() * 24.0, rnd() * 24.0);
            let (from, to) = (p(&mut rnd), p(&mut rnd));
            let closed = (rnd() * 16.0) as u32;
            let want = answer(&mut sa, &plain, from, to, closed, TIME);
            let got = answer(&mut sc, &ch, from, to, closed, TIME);
            let at = format!("{:?} -> {:?} closed {}", from, to, closed);
            assert_eq!(want.0, got.0, "{}", at);
            if want.0 == Status::Found {
                found += 1;
            }
            assert!(
                (want.1 - got.1).abs() <= 1e-9 * want.1,
                "{}: {} vs {} s",
                at,
                want.1,
                got.1
            );
            assert!(
                (want.2 - got.2).abs() < 1e-6,
                "{}: {} vs {} m",
                at,
                want.2,
                got.2
            );
            assert_eq!(want.3, got.3, "{}: gates", at);
            assert_eq!(want.4, got.4, "{}: path", at);
        }
        assert!(found > 300, "{} routes found", found);
    }
}

#[test]
fn other_objectives_are_answered_by_astar() {
    let (plain, ch, mut rnd) = mesh(0x1234_5678_9abc_def0);
    let (mut sa, mut sc) = (
        Searcher::new(plain.node_count()),
        Searcher::new(ch.node_count()),
    );
    for _ in 0..100 {
        let p = |rnd: &mut dyn FnMut() -> f64| (rnd() * 24.0, rnd() * 24.0);
        let (from, to) = (p(&mut rnd), p(&mut rnd));
        for o in [Objective::Distance, Objective::Time { default_kmh: 30.0 }] {
            // The same search: the same settles, not only the same answer.
            assert_eq!(
                answer(&mut sa, &plain, from, to, 0, o),
                answer(&mut sc, &ch, from, to, 0, o)
            );
        }
    }
}

#[test]
fn one_to_many_through_the_time_hierarchy_matches_dijkstra() {
    let (plain, ch, mut rnd) = mesh(0x0f0f_1e1e_2d2d_3c3c);
    let (mut sa, mut sc) = (
        Searcher::new(plain.node_count()),
        Searcher::new(ch.node_count()),
    );
    for _ in 0..60 {
        let p = |rnd: &mut dyn FnMut() -> f64| (rnd() * 24.0, rnd() * 24.0);
        let from = p(&mut rnd);
        let a = plain.snap(from.0, from.1).unwrap();
        let mut targets: Vec<_> = (0..4)
            .map(|_| {
                let t = p(&mut rnd);
                plain.snap(t.0, t.1)
            })
            .collect();
        // A target that did not snap, and the source itself.
        targets.push(None);
        targets.push(Some(a.clone()));
        let closed = (rnd() * 16.0) as u32;
        let want = sa.one_to_many(&plain, &a, &targets, closed, 0, TIME);
        let got = sc.one_to_many(&ch, &a, &targets, closed, 0, TIME);
        assert_eq!(want.status, got.status);
        let close = |x: &[f64], y: &[f64], tol: f64| {
            x.iter().zip(y).all(|(&p, &q)| {
                (p.is_nan() && q.is_nan()) || p == q || (p - q).abs() <= tol * p.abs().max(1.0)
            })
        };
        assert!(
            close(&want.cost, &got.cost, 1e-9),
            "{:?} vs {:?}",
            want.cost,
            got.cost
        );
        assert!(
            close(&want.real, &got.real, 1e-9),
            "{:?} vs {:?}",
            want.real,
            got.real
        );
        assert!(
            close(&want.metres, &got.metres, 1e-9),
            "{:?} vs {:?}",
            want.metres,
            got.metres
        );
        assert!(close(&want.class0_m, &got.class0_m, 1e-9));
    }
}

#[test]
fn time_artifact_round_trip_and_refusals() {
    let mut rnd = xorshift(7);
    let nodes = [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 0.0)];
    let edges = [
        edge(0, 1, 0, &[]),
        edge(1, 2, 1, &[]),
        edge(2, 3, 0, &[]),
        edge(3, 0, 0, &[]),
    ];
    let a = attrs(&edges, &mut rnd);
    let (_, ch) = time_pair(&nodes, &edges, &a);
    let h = ch.hierarchy.as_ref().unwrap();
    let bytes = h.encode("road-hierarchy", "b1");
    let back = Hierarchy::decode(&ch, &bytes, "road.hierarchy", "road-hierarchy").unwrap();
    assert_eq!(back.metric, Metric::Time(KMH));
    assert_eq!(back.ov_len, h.ov_len);
    // The same roads at another speed: the weights differ, so the checksum refuses it.
    let mut slower = a.clone();
    slower.speed_kmh[2] += 1.0;
    let other = Graph::build_with(0, &nodes, &edges, 4, 0, slower);
    let err = Hierarchy::decode(
        &other,
        &bytes,
        "data/build/road.hierarchy",
        "road-hierarchy",
    )
    .err()
    .unwrap();
    assert!(
        err.contains("another road graph") && err.contains("data/build/road.hierarchy"),
        "{}",
        err
    );
    // A road hierarchy is no rail one.
    let err = Hierarchy::decode(&ch, &bytes, "rail.hierarchy", "rail-hierarchy")
        .err()
        .unwrap();
    assert!(err.contains("rail-hierarchy"), "{}", err);
    // A distance hierarchy of the same graph is tied to its topology only.
    let d = Hierarchy::build(&ch, Metric::Distance).encode("road-hierarchy", "b1");
    let back = Hierarchy::decode(&other, &d, "road.hierarchy", "road-hierarchy").unwrap();
    assert_eq!(back.metric, Metric::Distance);
}
