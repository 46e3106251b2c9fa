//! Several graphs in one instance by handle, and the artifact checks around them.

use crate::graph::Graph;
use crate::tests::{road_map, strait_map};

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
