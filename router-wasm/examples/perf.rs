//! Native timing of the search over data/build/sea.graph: `cargo run --release --example perf`.
use portolan_router::graph::Graph;
use portolan_router::search::{Objective, Query, River, Searcher};
use std::time::Instant;

fn main() {
    let bytes = std::fs::read("../data/build/sea.graph").expect("run the data build first");
    let mut g = Graph::from_artifact(&bytes, "sea-graph", "sea.graph").unwrap();
    let stored = g.landmarks.take().expect("the artifact carries landmarks");
    let t = Instant::now();
    g.prepare_landmarks(stored.base_closed);
    println!("landmarks recomputed: {:?}", t.elapsed());
    let fresh = g.landmarks.as_ref().unwrap();
    let same = fresh.nodes == stored.nodes
        && fresh.checksum == stored.checksum
        && fresh
            .dist
            .iter()
            .zip(&stored.dist)
            .all(|(a, b)| a.to_bits() == b.to_bits());
    println!("stored landmarks bit-identical to recomputed: {}", same);
    let mut s = Searcher::new(g.node_count());
    // The river objective on the same pairs: the sea graph has no river sections, so this
    // measures the direction-aware costing's overhead (the river bench needs the river graph).
    let ones = vec![1.0; 55];
    let river = Objective::River(River {
        default_kmh: 12.5,
        avoid: 4.0,
        factors: &ones,
    });
    for (name, objective) in [("distance", Objective::Distance), ("river", river)] {
        let n = g.node_count() as u64;
        let mut seed = 88172645463325252u64;
        let (mut settled, mut total) = (0u64, 0u128);
        let runs = 2000;
        for _ in 0..runs {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let a = (seed % n) as usize;
            let b = ((seed >> 20) % n) as usize;
            let from = g.snap(g.lat[a], g.lng[a]).unwrap();
            let to = g.snap(g.lat[b], g.lng[b]).unwrap();
            let t = Instant::now();
            let (_, r) = s.route(
                &g,
                &Query {
                    from: &from,
                    to: &to,
                    closed: 3584,
                    max_settled: 0,
                    objective,
                },
            );
            total += t.elapsed().as_nanos();
            settled += u64::from(r.settled);
        }
        println!(
            "{}: {} µs/query, {} settled/query",
            name,
            total / runs / 1000,
            settled / runs as u64
        );
    }
}
