//! Point exports: snapping a point and routing between two points, with the route's summary
//! (and a river route's figures) written to the result buffers.

use super::{
    meta, river, slot, ObjectiveInput, Slot, State, PATH_IDS, PATH_JSON, PATH_NONE, STATE,
    STATUS_BAD_QUERY, STATUS_FOUND, STATUS_NOT_LOADED, STATUS_NO_SNAP,
};
use crate::search::{
    summarize_into, summarize_river, Objective, PathOut, Query, RiverSummary, Status,
};

/// Snaps a point to the nearest node or lane point of graph `handle`; returns its snap point id
/// (meta FROM_* fields hold its position and distance) or -1.
#[no_mangle]
pub extern "C" fn pr_snap(handle: i32, lat: f64, lng: f64) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        match slot(&mut s.graphs, handle).and_then(|x| x.graph.snap(lat, lng)) {
            Some(a) => {
                s.meta[meta::FROM_NODE] = f64::from(a.point);
                s.meta[meta::FROM_LAT] = a.lat;
                s.meta[meta::FROM_LNG] = a.lng;
                s.meta[meta::FROM_SNAP_M] = a.snap_m;
                a.point as i32
            }
            None => -1,
        }
    })
}

/// Routes between two points of graph `handle` (snapped to their nearest node or lane point).
/// `closed` is the gate bitmask, `max_settled` the search budget (0 = unlimited), `objective`
/// `OBJECTIVE_DISTANCE`, `OBJECTIVE_TIME` or `OBJECTIVE_RIVER` (then `default_speed_kmh` is the
/// speed of edges without one; a river query also reads its block from `pr_input`, and leaves its
/// figures behind `pr_result_river`). `want_path` is one of `PATH_*`. Returns a `STATUS_*` code.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pr_route(
    handle: i32,
    from_lat: f64,
    from_lng: f64,
    to_lat: f64,
    to_lng: f64,
    closed: u32,
    max_settled: u32,
    want_path: u32,
    objective_code: u32,
    default_speed_kmh: f64,
) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        s.river.clear();
        let input = ObjectiveInput::read(objective_code, default_speed_kmh, &s.input, 0);
        let status = match input.as_ref().and_then(ObjectiveInput::objective) {
            Some(o) => route_into(
                s,
                handle,
                [from_lat, from_lng, to_lat, to_lng],
                closed,
                max_settled,
                want_path,
                o,
            ),
            None => {
                s.meta.iter_mut().for_each(|m| *m = 0.0);
                STATUS_BAD_QUERY
            }
        };
        s.meta[meta::STATUS] = f64::from(status);
        status
    })
}

fn route_into(
    s: &mut State,
    handle: i32,
    pts: [f64; 4],
    closed: u32,
    max_settled: u32,
    want_path: u32,
    objective: Objective,
) -> i32 {
    s.meta.iter_mut().for_each(|m| *m = 0.0);
    s.gates.clear();
    s.path.clear();
    s.path_ids.clear();
    s.path_json.clear();
    let Slot {
        graph: g,
        searcher,
        texts,
    } = match slot(&mut s.graphs, handle) {
        Some(x) => x,
        None => return STATUS_NOT_LOADED,
    };
    s.zones.clear();
    s.zones.resize(g.zone_count as usize, 0.0);
    if !objective.fits(g) {
        return STATUS_BAD_QUERY;
    }
    let (from, to) = match (g.snap(pts[0], pts[1]), g.snap(pts[2], pts[3])) {
        (Some(a), Some(b)) => (a, b),
        _ => return STATUS_NO_SNAP,
    };
    let m = &mut s.meta;
    m[meta::FROM_NODE] = f64::from(from.point);
    m[meta::TO_NODE] = f64::from(to.point);
    m[meta::FROM_LAT] = from.lat;
    m[meta::FROM_LNG] = from.lng;
    m[meta::TO_LAT] = to.lat;
    m[meta::TO_LNG] = to.lng;
    m[meta::FROM_SNAP_M] = from.snap_m;
    m[meta::TO_SNAP_M] = to.snap_m;
    let (status, route) = searcher.route(
        g,
        &Query {
            from: &from,
            to: &to,
            closed,
            max_settled,
            objective,
        },
    );
    m[meta::SETTLED] = f64::from(route.settled);
    if status != Status::Found {
        return status as i32;
    }
    // Graphs with a hierarchy (sea, road, rail) copy pre-rounded coordinates (4.9 MB once for
    // the sea); the A*-only river graph keeps rounding per query, a small part of its search.
    // Ids name points of `pr_rounded_points`, which only graphs with a hierarchy keep.
    let hierarchy = g.hierarchy.is_some();
    if want_path != PATH_NONE && hierarchy {
        g.round_paths();
    }
    let out = match want_path {
        PATH_NONE => PathOut::None,
        PATH_IDS | PATH_JSON if hierarchy => PathOut::Ids,
        _ => PathOut::Points,
    };
    let summary = summarize_into(
        g,
        &from,
        &to,
        &route,
        out,
        (std::mem::take(&mut s.path), std::mem::take(&mut s.path_ids)),
    );
    if let (PATH_JSON, PathOut::Ids, Some(r)) = (want_path, out, &g.rounded) {
        // Ids only: `summary.path` holds the query's own ends.
        texts.write_path(
            &r.points,
            &summary.path_ids,
            &summary.path,
            &mut s.path_json,
        );
        m[meta::PATH_JSON_BYTES] = s.path_json.len() as f64;
    }
    m[meta::METRES] = route.metres;
    m[meta::COST] = route.cost;
    m[meta::GATE_COUNT] = summary.gates.len() as f64;
    m[meta::PATH_POINTS] = summary.path_ids.len() as f64;
    s.gates = summary.gates;
    s.zones = summary.zone_m;
    s.path = summary.path;
    s.path_ids = summary.path_ids;
    if let Objective::River(river) = objective {
        river_into(&mut s.river, &summarize_river(g, &from, &to, &route, river));
        m[meta::RIVER_LEN] = s.river.len() as f64;
    }
    STATUS_FOUND
}

fn river_into(out: &mut Vec<f64>, r: &RiverSummary) {
    out.clear();
    out.resize(river::HEAD, 0.0);
    out[river::SECONDS] = r.seconds;
    out[river::LOCK_SECONDS] = r.lock_seconds;
    out[river::LOCKS] = r.locks;
    out[river::DOWNSTREAM_M] = r.downstream_m;
    out[river::UPSTREAM_M] = r.upstream_m;
    out[river::SLACK_M] = r.slack_m;
    out[river::WATERWAYS] = r.waterway_m.len() as f64;
    out[river::RULES] = r.rule_m.len() as f64;
    out.extend_from_slice(&r.waterway_m);
    out.extend_from_slice(&r.rule_m);
}
