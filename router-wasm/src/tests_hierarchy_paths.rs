//! The contraction hierarchy's artifact and paths: round trips and refusals, shortcut unpacking,
//! and path points and texts as the API shows them.

use crate::graph::Graph;
use crate::hierarchy::{Hierarchy, KIND};
use crate::path_json::{js_number, PointTexts};
use crate::search::{
    point_id_count, round_coord, summarize, summarize_into, PathOut, Searcher, Status, NO_POINT,
};
use crate::tests::xorshift;
use crate::tests_hierarchy::{gated_map, pair, random_mesh, run, run_on};

#[test]
fn artifact_round_trip_and_refusals() {
    let (nodes, edges) = gated_map();
    let (_, ch) = pair(&nodes, &edges, 2);
    let h = ch.hierarchy.as_ref().unwrap();
    let bytes = h.encode(KIND, "b1");
    let back = Hierarchy::decode(&ch, &bytes, "data/build/sea.hierarchy", KIND).unwrap();
    assert_eq!(back.overlay_count(), h.overlay_count());
    assert_eq!(back.up_ov, h.up_ov);
    // Another graph (one lane longer): refused by checksum.
    let mut moved = nodes.clone();
    moved[4] = (2.5, 1.0);
    let other = Graph::build(0, &moved, &edges, 2, 0);
    let err = Hierarchy::decode(&other, &bytes, "data/build/sea.hierarchy", KIND)
        .err()
        .unwrap();
    assert!(
        err.contains("another sea graph") && err.contains("npm run build"),
        "{}",
        err
    );
    let mut corrupt = bytes.clone();
    let last = corrupt.len() - 9;
    corrupt[last] ^= 1;
    assert!(Hierarchy::decode(&ch, &corrupt, "x", KIND)
        .err()
        .unwrap()
        .contains("checksum mismatch"));
}

/// Appends a shortcut `a`-`a` with halves `c1` and `c2` (a loop: both halves touch `a`).
fn push_loop(h: &mut Hierarchy, a: u32, c1: u32, c2: u32) -> u32 {
    h.ov_a.push(a);
    h.ov_b.push(a);
    h.ov_len.push(0.0);
    h.ov_edge.push(u32::MAX);
    h.ov_c1.push(c1);
    h.ov_c2.push(c2);
    (h.ov_a.len() - 1) as u32
}

#[test]
fn shortcuts_that_cannot_be_unpacked_are_refused() {
    let (nodes, edges) = gated_map();
    let (_, ch) = pair(&nodes, &edges, 2);
    let fresh = || pair(&nodes, &edges, 2).1.hierarchy.unwrap();
    let h = ch.hierarchy.as_ref().unwrap();
    // Two original overlay edges leaving one node `a` for different nodes.
    let m = h.overlay_count() as u32;
    let originals: Vec<u32> = (0..m)
        .filter(|&i| h.ov_edge[i as usize] != u32::MAX)
        .collect();
    let (a, j, k) = originals
        .iter()
        .flat_map(|&j| originals.iter().map(move |&k| (j, k)))
        .find_map(|(j, k)| {
            let (aj, bj) = (h.ov_a[j as usize], h.ov_b[j as usize]);
            let (ak, bk) = (h.ov_a[k as usize], h.ov_b[k as usize]);
            (j != k && aj == ak && bj != bk).then_some((aj, j, k))
        })
        .expect("a node with two edges");
    let refused = |h: &Hierarchy| {
        Hierarchy::decode(&ch, &h.encode(KIND, "b1"), "sea.hierarchy", KIND)
            .err()
            .unwrap_or_default()
    };
    // A loop along one edge and back is a valid overlay edge.
    let mut fine = fresh();
    push_loop(&mut fine, a, j, j);
    assert_eq!(refused(&fine), "");
    // Halves that leave `a` for different middle nodes do not join.
    let mut split = fresh();
    push_loop(&mut split, a, j, k);
    assert!(
        refused(&split).contains("does not fit the graph"),
        "{}",
        refused(&split)
    );
    // Loops of loops double their arcs at each level: 2^40 arcs would not fit in memory.
    let mut deep = fresh();
    let mut last = push_loop(&mut deep, a, j, j);
    for _ in 0..40 {
        last = push_loop(&mut deep, a, last, last);
    }
    assert!(
        refused(&deep).contains("too many arcs"),
        "{}",
        refused(&deep)
    );
}

#[test]
fn path_rounding_matches_f64_round() {
    let mut rnd = xorshift(0x1234_5678_9abc_def1);
    let mut cases = vec![
        0.5,
        -0.5,
        1.5,
        -2.5,
        0.499_999_999_999_999_94,
        -0.0,
        0.0,
        4.5e15,
        -7.25,
    ];
    for _ in 0..100_000 {
        cases.push((rnd() - 0.5) * 360.0 * 1e5);
        cases.push(((rnd() * 36_000_000.0).floor() + 0.5) * if rnd() < 0.5 { -1.0 } else { 1.0 });
    }
    for x in cases {
        assert_eq!(
            crate::search::round_half_away(x).to_bits(),
            x.round().to_bits(),
            "{}",
            x
        );
    }
}

/// A path's point ids: one per point, the query's own ends `NO_POINT`, and every other id the
/// graph point at those very coordinates (rounded as paths show them), whichever route or search
/// (A*, the hierarchy from pre-rounded coordinates, direct along one lane) passed it.
#[test]
fn path_ids_name_the_graph_points_a_path_passes() {
    let mut rnd = xorshift(0x1d5_0f9a_7e5e_ed00);
    let (nodes, mut edges) = random_mesh(&mut rnd);
    // Three points along every lane, so walking one backwards reverses several.
    for e in &mut edges {
        let (a, b) = (nodes[e.from as usize], nodes[e.to as usize]);
        let at = |t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        e.inner = vec![at(0.25), at(0.5), at(0.75)];
    }
    let (plain, mut ch) = pair(&nodes, &edges, 4);
    ch.round_paths();
    let mut point = move || (rnd() * 24.0, rnd() * 24.0);
    let coords = |g: &Graph, id: u32| {
        let geom_points = g.geom.len() / 2;
        let k = id as usize;
        let (lat, lng) = if k < geom_points {
            (g.geom[2 * k], g.geom[2 * k + 1])
        } else {
            (g.lat[k - geom_points], g.lng[k - geom_points])
        };
        (round_coord(lat), round_coord(lng))
    };
    let mut searcher = Searcher::new(ch.node_count());
    let mut texts = PointTexts::default();
    let number = |v: f64| {
        let mut out = Vec::new();
        js_number(v, &mut out);
        String::from_utf8(out).unwrap()
    };
    let (mut routes, mut graph_points) = (0, 0);
    for i in 0..400 {
        let (from, to) = (point(), point());
        // Every tenth query on one lane (the direct case).
        let to = if i % 10 == 0 {
            (from.0 + 0.01, from.1)
        } else {
            to
        };
        for (g, s) in [(&plain, None), (&ch, Some(&mut searcher))] {
            let (status, route) = match s {
                Some(s) => run_on(s, g, from, to, 0, 0),
                None => run(g, from, to, 0, 0),
            };
            if status != Status::Found {
                continue;
            }
            let a = g.snap(from.0, from.1).unwrap();
            let b = g.snap(to.0, to.1).unwrap();
            let sum = summarize(g, &a, &b, &route, true);
            assert_eq!(sum.path_ids.len() * 2, sum.path.len());
            assert_eq!(sum.path_ids[0], NO_POINT);
            for (k, &id) in sum.path_ids.iter().enumerate() {
                let at = (sum.path[2 * k], sum.path[2 * k + 1]);
                if id == NO_POINT {
                    continue;
                }
                assert!((id as usize) < point_id_count(g));
                assert_eq!(coords(g, id), at, "point {} of a route", k);
                graph_points += 1;
            }
            routes += 1;
            let without = summarize(g, &a, &b, &route, false);
            assert!(without.path.is_empty() && without.path_ids.is_empty());
            // Ids only: the same ids, the ends' coordinates in order, and each graph point's
            // coordinates where `Rounded::points` keeps them (on the graph that has them).
            let bufs = (Vec::new(), Vec::new());
            let ids = summarize_into(g, &a, &b, &route, PathOut::Ids, bufs);
            assert_eq!(ids.path_ids, sum.path_ids);
            let ends: Vec<f64> = (0..sum.path_ids.len())
                .filter(|&k| sum.path_ids[k] == NO_POINT)
                .flat_map(|k| [sum.path[2 * k], sum.path[2 * k + 1]])
                .collect();
            assert_eq!(ids.path, ends);
            if let Some(r) = &g.rounded {
                for (k, &id) in sum.path_ids.iter().enumerate() {
                    if id != NO_POINT {
                        let at = &r.points[2 * id as usize..2 * id as usize + 2];
                        assert_eq!(at, &sum.path[2 * k..2 * k + 2]);
                    }
                }
                // The JSON text from the ids is the points' text, from texts made or kept.
                let pairs: Vec<String> = sum
                    .path
                    .chunks_exact(2)
                    .map(|p| format!("[{},{}]", number(p[0]), number(p[1])))
                    .collect();
                let mut json = Vec::new();
                texts.write_path(&r.points, &ids.path_ids, &ids.path, &mut json);
                assert_eq!(
                    String::from_utf8(json).unwrap(),
                    format!("[{}]", pairs.join(","))
                );
            }
        }
    }
    assert!(
        routes > 600 && graph_points > 10 * routes,
        "{} routes, {} points",
        routes,
        graph_points
    );
}

/// Numbers as JavaScript's JSON.stringify writes them (the expected texts are its output).
#[test]
fn js_numbers_are_what_json_stringify_writes() {
    for (v, want) in [
        (5.0, "5"),
        (-0.0, "0"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e-7, "1e-7"),
        (-2.5e-8, "-2.5e-8"),
        (1e-6, "0.000001"),
        (1.5e21, "1.5e+21"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123.45678, "123.45678"),
        (-33.00001, "-33.00001"),
        (100.0, "100"),
        (f64::NAN, "null"),
        (f64::NEG_INFINITY, "null"),
    ] {
        let mut out = Vec::new();
        js_number(v, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), want, "{}", v);
    }
}

#[test]
fn path_texts_of_any_length_are_json_stringify_pairs() {
    // Points whose text fills a slot to its last byte (22 bytes and a comma), overflows it, is
    // short, and the query's own ends (NO_POINT) between them; each point twice, made then kept.
    let points = [
        -89.99999,
        -179.99999,
        0.1 + 0.2,
        -179.123456789012,
        12.5,
        3.0,
        -89.99999,
        -1179.99999,
    ];
    let ids = [0, NO_POINT, 1, 2, 3, 0, 1, NO_POINT, 2, 3];
    let ends = [51.9, 4.1, -0.0, 1e-7];
    let pair = |lat: f64, lng: f64| {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        js_number(lat, &mut a);
        js_number(lng, &mut b);
        format!(
            "[{},{}]",
            String::from_utf8(a).unwrap(),
            String::from_utf8(b).unwrap()
        )
    };
    let mut end = ends.chunks_exact(2);
    let want: Vec<String> = ids
        .iter()
        .map(|&id| match id {
            NO_POINT => {
                let e = end.next().unwrap();
                pair(e[0], e[1])
            }
            i => pair(points[2 * i as usize], points[2 * i as usize + 1]),
        })
        .collect();
    assert_eq!(pair(points[0], points[1]).len() + 1, 23);
    assert!(pair(points[6], points[7]).len() + 1 > 23);
    let mut texts = PointTexts::default();
    for _ in 0..2 {
        let mut out = b"xy".to_vec();
        texts.write_path(&points, &ids, &ends, &mut out);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("xy[{}]", want.join(","))
        );
    }
    let mut out = Vec::new();
    texts.write_path(&points, &[], &[], &mut out);
    assert_eq!(out, b"[]");
}
