//! River tests over tiny hand-made maps: currents, classes, locks and rules.

use crate::graph::{EdgeAttrs, EdgeSpec, Graph};
use crate::search::{summarize_river, Costing, Objective, Query, River, Searcher, Status};
use crate::tests::{legs, xorshift};

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
pub(crate) const ICE: usize = 0;
pub(crate) const MAIN_CLOSED: usize = 1;
pub(crate) const LOW_WATER: usize = 2;
pub(crate) const SPUR_CLOSED: usize = 3;

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
pub(crate) fn river_map() -> (Vec<(f64, f64)>, Graph) {
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
pub(crate) fn river_s(metres: f64, kmh: f64) -> f64 {
    metres / (kmh / 3.6) * 1.1
}

pub(crate) struct RiverRun {
    pub(crate) status: Status,
    pub(crate) route: crate::search::Route,
    pub(crate) sum: crate::search::RiverSummary,
}

pub(crate) fn river_run(
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
