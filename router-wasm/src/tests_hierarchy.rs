//! Contraction hierarchy tables over tiny hand-made maps: the hierarchy answers exactly what A*
//! answers for every closed mask, paths included.

use crate::graph::{haversine_m, EdgeSpec, Graph};
use crate::hierarchy::{earned_top_size, Hierarchy, TABLE_AFTER};
use crate::metric::Metric;
use crate::search::{summarize, Objective, Query, Route, Searcher, Status};
use crate::tests::xorshift;

pub(crate) fn edge(from: u32, to: u32, gate: u8, inner: &[(f64, f64)]) -> EdgeSpec {
    EdgeSpec {
        from,
        to,
        gate,
        inner: inner.to_vec(),
        zones: Vec::new(),
    }
}

/// The same graph twice: A* only, and with its hierarchy attached (answering every query:
/// these maps are far smaller than the A*-first budget). Its top (an eighth of the nodes) has
/// distance tables: `run` builds the query's.
pub(crate) fn pair(nodes: &[(f64, f64)], edges: &[EdgeSpec], gates: u32) -> (Graph, Graph) {
    let plain = Graph::build(0, nodes, edges, gates, 0);
    let mut ch = Graph::build(0, nodes, edges, gates, 0);
    let mut h = Hierarchy::build(&ch, Metric::Distance);
    h.astar_first = 0;
    ch.hierarchy = Some(h);
    (plain, ch)
}

pub(crate) fn run(
    g: &Graph,
    from: (f64, f64),
    to: (f64, f64),
    closed: u32,
    budget: u32,
) -> (Status, Route) {
    let mut s = Searcher::new(g.node_count());
    s.prepare_top_table(g, closed);
    run_on(&mut s, g, from, to, closed, budget)
}

/// `run` with a searcher kept between queries (and its top tables).
pub(crate) fn run_on(
    s: &mut Searcher,
    g: &Graph,
    from: (f64, f64),
    to: (f64, f64),
    closed: u32,
    budget: u32,
) -> (Status, Route) {
    let a = g.snap(from.0, from.1).unwrap();
    let b = g.snap(to.0, to.1).unwrap();
    s.route(
        g,
        &Query {
            from: &a,
            to: &b,
            closed,
            max_settled: budget,
            objective: Objective::Distance,
        },
    )
}

/// Status, metres, gates and path of a query: what the API shows.
fn answer(
    g: &Graph,
    from: (f64, f64),
    to: (f64, f64),
    closed: u32,
) -> (Status, f64, Vec<u32>, Vec<f64>) {
    let mut s = Searcher::new(g.node_count());
    s.prepare_top_table(g, closed);
    answer_on(&mut s, g, from, to, closed)
}

/// `answer` with a searcher kept between queries.
fn answer_on(
    s: &mut Searcher,
    g: &Graph,
    from: (f64, f64),
    to: (f64, f64),
    closed: u32,
) -> (Status, f64, Vec<u32>, Vec<f64>) {
    let (status, route) = run_on(s, g, from, to, closed, 0);
    let a = g.snap(from.0, from.1).unwrap();
    let b = g.snap(to.0, to.1).unwrap();
    if status != Status::Found {
        return (status, 0.0, Vec::new(), Vec::new());
    }
    let s = summarize(g, &a, &b, &route, true);
    (status, route.metres, s.gates, s.path)
}

/// ```text
///  0 (0,0) =gate 1= 1 (0,1) =gate 2= 2 (0,2)      the short way, two passages
///   \                                /
///    3 (2,0.5) ---- 4 (2,1) ---- 5 (2,1.5)        the detour, no passage
///  6 (0,3) - 2, with lane points on 2-6 and 0-3
///
///  8 (-5,0) ==gate 2== 9 (-5,2) - 10 (-5,3)       an island: the passage is shorter than
///     \               /                         the open way round through 7 (contracted
///      7 (-6,1) ------                           first), but must not be the witness of 8-7-9
/// ```
/// Contracting 1 and then the detour nodes gives shortcuts through the gates; closing either
/// gate must fall back on the detour, never on a shortcut that hides a closed passage.
pub(crate) fn gated_map() -> (Vec<(f64, f64)>, Vec<EdgeSpec>) {
    let nodes = vec![
        (0.0, 0.0),
        (0.0, 1.0),
        (0.0, 2.0),
        (2.0, 0.5),
        (2.0, 1.0),
        (2.0, 1.5),
        (0.0, 3.0),
        (-6.0, 1.0),
        (-5.0, 0.0),
        (-5.0, 2.0),
        (-5.0, 3.0),
    ];
    let edges = vec![
        edge(0, 1, 1, &[]),
        edge(1, 2, 2, &[]),
        edge(0, 3, 0, &[(1.0, 0.25)]),
        edge(3, 4, 0, &[]),
        edge(4, 5, 0, &[]),
        edge(5, 2, 0, &[]),
        edge(2, 6, 0, &[(0.0, 2.5)]),
        edge(8, 9, 2, &[]),
        edge(8, 7, 0, &[]),
        edge(7, 9, 0, &[]),
        edge(9, 10, 0, &[]),
    ];
    (nodes, edges)
}

/// (name, from, to, closed, metres, gates)
type Row = (&'static str, (f64, f64), (f64, f64), u32, f64, Vec<u32>);

#[test]
fn closing_a_gate_takes_the_detour_not_a_shortcut() {
    let (nodes, edges) = gated_map();
    let (plain, ch) = pair(&nodes, &edges, 2);
    let h = ch.hierarchy.as_ref().unwrap();
    assert!(h.overlay_count() > edges.len(), "some shortcuts were made");
    let short = haversine_m(0.0, 0.0, 0.0, 2.0);
    let detour = [
        (0.0, 0.0),
        (1.0, 0.25),
        (2.0, 0.5),
        (2.0, 1.0),
        (2.0, 1.5),
        (0.0, 2.0),
    ]
    .windows(2)
    .map(|w| haversine_m(w[0].0, w[0].1, w[1].0, w[1].1))
    .sum::<f64>();
    let table: Vec<Row> = vec![
        (
            "open: both passages",
            (0.0, 0.0),
            (0.0, 2.0),
            0,
            short,
            vec![1, 2],
        ),
        (
            "gate 1 closed: detour",
            (0.0, 0.0),
            (0.0, 2.0),
            0b01,
            detour,
            vec![],
        ),
        (
            "gate 2 closed: detour",
            (0.0, 0.0),
            (0.0, 2.0),
            0b10,
            detour,
            vec![],
        ),
        (
            "both closed: detour",
            (0.0, 0.0),
            (0.0, 2.0),
            0b11,
            detour,
            vec![],
        ),
        (
            "reverse, gate 2 closed",
            (0.0, 2.0),
            (0.0, 0.0),
            0b10,
            detour,
            vec![],
        ),
        (
            "lane point to lane point",
            (1.0, 0.25),
            (0.0, 2.5),
            0,
            haversine_m(1.0, 0.25, 0.0, 0.0) + short + haversine_m(0.0, 2.0, 0.0, 2.5),
            vec![1, 2],
        ),
        (
            "lane point to lane point, gate 1 closed",
            (1.0, 0.25),
            (0.0, 2.5),
            0b01,
            detour - haversine_m(0.0, 0.0, 1.0, 0.25) + haversine_m(0.0, 2.0, 0.0, 2.5),
            vec![],
        ),
        (
            "island, passage open",
            (-5.0, 0.0),
            (-5.0, 3.0),
            0,
            haversine_m(-5.0, 0.0, -5.0, 2.0) + haversine_m(-5.0, 2.0, -5.0, 3.0),
            vec![2],
        ),
        (
            "island, passage closed: round through 7",
            (-5.0, 0.0),
            (-5.0, 3.0),
            0b10,
            haversine_m(-5.0, 0.0, -6.0, 1.0)
                + haversine_m(-6.0, 1.0, -5.0, 2.0)
                + haversine_m(-5.0, 2.0, -5.0, 3.0),
            vec![],
        ),
    ];
    for (name, from, to, closed, metres, gates) in table {
        let got = answer(&ch, from, to, closed);
        assert_eq!(got.0, Status::Found, "{}", name);
        assert!(
            (got.1 - metres).abs() < 1e-6,
            "{}: {} vs {}",
            name,
            got.1,
            metres
        );
        assert_eq!(got.2, gates, "{}", name);
        assert_eq!(
            got,
            answer(&plain, from, to, closed),
            "{}: same as A*",
            name
        );
    }
}

#[test]
fn same_edge_unreachable_and_budget() {
    let (mut nodes, mut edges) = gated_map();
    // A lane with three points, and an island.
    nodes.extend_from_slice(&[(5.0, 0.0), (5.0, 4.0), (9.0, 9.0), (9.0, 9.5)]);
    edges.push(edge(7, 8, 0, &[(5.0, 1.0), (5.0, 2.0), (5.0, 3.0)]));
    edges.push(edge(6, 8, 0, &[]));
    edges.push(edge(9, 10, 0, &[]));
    let (plain, ch) = pair(&nodes, &edges, 2);
    let cases = [
        ("same lane, forwards", (5.0, 1.0), (5.0, 3.0), 0),
        ("same lane, backwards", (5.0, 3.0), (5.0, 1.0), 0),
        ("same point", (5.0, 2.0), (5.0, 2.0), 0),
        ("lane end to its own point", (5.0, 0.0), (5.0, 2.0), 0),
        ("along the lane and beyond", (5.0, 1.0), (0.0, 0.0), 0b11),
        ("to the island", (0.0, 0.0), (9.0, 9.0), 0),
        ("gate closed, island", (0.0, 1.0), (9.0, 9.5), 0b01),
    ];
    for (name, from, to, closed) in cases {
        assert_eq!(
            answer(&ch, from, to, closed),
            answer(&plain, from, to, closed),
            "{}",
            name
        );
    }
    let (status, route) = run(&ch, (5.0, 1.0), (9.0, 9.0), 0, 0);
    assert_eq!((status, route.settled), (Status::NoRoute, 0));
    let (status, _) = run(&ch, (5.0, 1.0), (0.0, 0.0), 0, 1);
    assert_eq!(status, Status::BudgetExhausted);
    // A* first within a budget: the caller's budget counts both searches' settles.
    let mut hybrid = ch;
    hybrid.hierarchy.as_mut().unwrap().astar_first = 2;
    let (status, route) = run(&hybrid, (5.0, 1.0), (0.0, 0.0), 0, 0);
    assert_eq!(status, Status::Found);
    assert!(route.settled > 2);
    assert_eq!(
        run(&hybrid, (5.0, 1.0), (0.0, 0.0), 0, 3).0,
        Status::BudgetExhausted
    );
}

/// A 16 x 16 mesh with jittered nodes, some lanes missing, diagonals (many equal-ish
/// alternatives) and random gates 1-4 on 15% of the edges.
pub(crate) fn random_mesh(rnd: &mut dyn FnMut() -> f64) -> (Vec<(f64, f64)>, Vec<EdgeSpec>) {
    let side = 16u32;
    let mut nodes = Vec::new();
    for i in 0..side {
        for j in 0..side {
            nodes.push((f64::from(i) * 1.5 + rnd(), f64::from(j) * 1.5 + rnd()));
        }
    }
    let gate = |rnd: &mut dyn FnMut() -> f64| {
        if rnd() < 0.15 {
            1 + (rnd() * 4.0) as u8
        } else {
            0
        }
    };
    let mut edges = Vec::new();
    for i in 0..side {
        for j in 0..side {
            let v = i * side + j;
            let mid = |a: (f64, f64), b: (f64, f64)| vec![((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)];
            if j + 1 < side && rnd() < 0.85 {
                let inner = mid(nodes[v as usize], nodes[v as usize + 1]);
                edges.push(edge(v, v + 1, gate(rnd), &inner));
            }
            if i + 1 < side && rnd() < 0.85 {
                edges.push(edge(v, v + side, gate(rnd), &[]));
            }
            if i + 1 < side && j + 1 < side && rnd() < 0.3 {
                edges.push(edge(v, v + side + 1, gate(rnd), &[]));
            }
        }
    }
    (nodes, edges)
}

/// Random meshes with random gates (diagonals make many equal-ish alternatives): for every
/// closed mask the hierarchy gives A*'s metres, gates and path.
#[test]
fn hierarchy_matches_astar_on_random_meshes() {
    for seed in [
        0x2545_f491_4f6c_dd1du64,
        0x9e37_79b9_7f4a_7c15,
        0xdead_beef_cafe_f00d,
    ] {
        let mut rnd = xorshift(seed);
        let (nodes, edges) = random_mesh(&mut rnd);
        let (plain, mut ch) = pair(&nodes, &edges, 4);
        let top = ch.hierarchy.as_ref().unwrap().top;
        assert_eq!(top, 32);
        for round in 0..600 {
            let h = ch.hierarchy.as_mut().unwrap();
            // The search alone, without the top's tables; then A* first with a budget it often
            // exhausts, handing over to the hierarchy (with tables).
            h.top = if (200..300).contains(&round) { 0 } else { top };
            if round == 300 {
                h.astar_first = 40;
            }
            let p = |rnd: &mut dyn FnMut() -> f64| (rnd() * 24.0, rnd() * 24.0);
            let (from, to) = (p(&mut rnd), p(&mut rnd));
            let closed = (rnd() * 16.0) as u32;
            let (want, got) = (
                answer(&plain, from, to, closed),
                answer(&ch, from, to, closed),
            );
            assert_eq!(want.0, got.0, "{:?} -> {:?} closed {}", from, to, closed);
            assert!(
                (want.1 - got.1).abs() < 1e-6,
                "{:?} -> {:?} closed {}: {} vs {}",
                from,
                to,
                closed,
                want.1,
                got.1
            );
            assert_eq!(want.2, got.2, "gates");
            assert_eq!(want.3, got.3, "path");
        }
    }
}

/// The masks of a searcher's tables.
fn table_masks(s: &Searcher) -> Vec<u32> {
    s.top_tables().iter().map(|t| t.0).collect()
}

/// A random mesh without a hierarchy and with one (paths from pre-rounded coordinates), the
/// hierarchy's top size, and random points on the mesh.
fn rounded_pair(seed: u64) -> (Graph, Graph, u32, impl FnMut() -> (f64, f64)) {
    let mut rnd = xorshift(seed);
    let (nodes, edges) = random_mesh(&mut rnd);
    let (plain, mut ch) = pair(&nodes, &edges, 4);
    ch.round_paths();
    let top = ch.hierarchy.as_ref().unwrap().top;
    (plain, ch, top, move || (rnd() * 24.0, rnd() * 24.0))
}

/// `s` answers a random query closing `closed` on `ch` as A* does on `plain`.
fn check_query(
    s: &mut Searcher,
    ch: &Graph,
    plain: &Graph,
    point: &mut impl FnMut() -> (f64, f64),
    closed: u32,
) {
    let (from, to) = (point(), point());
    let want = answer(plain, from, to, closed);
    let got = answer_on(s, ch, from, to, closed);
    assert_eq!(want.0, got.0, "{:?} -> {:?} closed {}", from, to, closed);
    assert!((want.1 - got.1).abs() < 1e-6, "{} vs {}", want.1, got.1);
    assert_eq!(want.2, got.2, "gates");
    assert_eq!(want.3, got.3, "path");
}

/// One searcher over many closed masks, as the router keeps it: full tables built ahead for some,
/// a smaller one earned after `TABLE_AFTER` queries by another, the least recently used dropped
/// to stay within four full tables' cells. Every answer is still A*'s (a query never reads another
/// mask's table), with paths copied from the graph's pre-rounded coordinates.
#[test]
fn one_searcher_keeps_a_table_per_closed_mask() {
    let (plain, mut ch, top, mut point) = rounded_pair(0x0bad_5eed_1234_4321);
    let mut s = Searcher::new(ch.node_count());
    for closed in [0, 1, 2, 4, 8] {
        s.prepare_top_table(&ch, closed);
    }
    assert_eq!(s.top_tables(), vec![(1, top), (2, top), (4, top), (8, top)]);
    // Mask 5 is asked every other query; the others take turns.
    let others = [1, 2, 4, 8, 0, 6];
    let rounds = TABLE_AFTER as usize + 50;
    for i in 0..2 * rounds {
        let closed = if i % 2 == 0 { 5 } else { others[i / 2 % 6] };
        check_query(&mut s, &ch, &plain, &mut point, closed);
        let has_5 = table_masks(&s).contains(&5);
        assert_eq!(has_5, i / 2 + 1 >= TABLE_AFTER as usize, "query {}", i);
    }
    // 5 earned a smaller table and the least recently used of the four built ahead went to make
    // room; 6 was asked too rarely for one.
    let tables = s.top_tables();
    assert_eq!(tables.len(), 4, "{:?}", tables);
    assert!(tables.contains(&(5, earned_top_size(top))), "{:?}", tables);
    assert!(!table_masks(&s).contains(&6), "{:?}", tables);
    // Preparing a mask that earned a smaller table gives it a full one.
    s.prepare_top_table(&ch, 5);
    assert_eq!(s.top_tables().last(), Some(&(5, top)));
    for _ in 0..50 {
        check_query(&mut s, &ch, &plain, &mut point, 5);
    }
    // Tables for a top of another size are dropped, not read.
    ch.hierarchy.as_mut().unwrap().top = 16;
    let (from, to) = ((1.0, 1.0), (22.0, 20.0));
    assert_eq!(
        answer_on(&mut s, &ch, from, to, 5),
        answer(&plain, from, to, 5)
    );
    assert!(s.top_tables().is_empty());
}

/// Masks that each earn a table (as alternatives' closures do) keep theirs side by side within
/// the budget, next to the default's full one, and every answer, with or without a table, is A*'s.
#[test]
fn earned_tables_answer_as_astar_does() {
    let (plain, ch, top, mut point) = rounded_pair(0x005e_ed0f_ea57_ab1e);
    let mut s = Searcher::new(ch.node_count());
    s.prepare_top_table(&ch, 0);
    let earning = [1, 2, 3, 4, 6, 9];
    for i in 0..2 * earning.len() * (TABLE_AFTER as usize + 40) {
        // The default mask between every two others, as main routes come before alternatives.
        let closed = if i % 2 == 0 {
            0
        } else {
            earning[i / 2 % earning.len()]
        };
        check_query(&mut s, &ch, &plain, &mut point, closed);
    }
    let mut tables = s.top_tables();
    tables.sort_unstable();
    let small = earned_top_size(top);
    assert!(small < top);
    let mut want = vec![(0, top)];
    want.extend(earning.iter().map(|&m| (m, small)));
    assert_eq!(tables, want);
}
