//! Result exports: pointers to the buffers the last query filled, and a graph's rounded path
//! points.

use super::{slot, with_graph, Slot, STATE};
use crate::search::point_id_count;

#[no_mangle]
pub extern "C" fn pr_result_meta() -> *const f64 {
    STATE.with(|s| s.borrow().meta.as_ptr())
}

/// Gate codes (1-based) used by the last route, in travel order; length in meta GATE_COUNT.
#[no_mangle]
pub extern "C" fn pr_result_gates() -> *const u32 {
    STATE.with(|s| s.borrow().gates.as_ptr())
}

/// Metres per zone of the last route; length = `pr_zone_count` of its graph.
#[no_mangle]
pub extern "C" fn pr_result_zones() -> *const f64 {
    STATE.with(|s| s.borrow().zones.as_ptr())
}

/// Flat `[lat, lng]` path of the last route, length in meta PATH_POINTS; after `want_path` 2 on a
/// graph with a hierarchy, the query's own ends only (one pair per `NO_POINT` id, room for two).
#[no_mangle]
pub extern "C" fn pr_result_path() -> *const f64 {
    STATE.with(|s| s.borrow().path.as_ptr())
}

/// Point ids of the last route's path, one per point (`search::NO_POINT` for the query's own ends);
/// length in meta PATH_POINTS.
#[no_mangle]
pub extern "C" fn pr_result_path_ids() -> *const u32 {
    STATE.with(|s| s.borrow().path_ids.as_ptr())
}

/// The last route's path as JSON text (`PATH_JSON`); length in meta PATH_JSON_BYTES.
#[no_mangle]
pub extern "C" fn pr_result_path_json() -> *const u8 {
    STATE.with(|s| s.borrow().path_json.as_ptr())
}

/// `[lat, lng]` of every path point id of graph `handle` as paths show them (`graph::Rounded`;
/// `2 * pr_point_id_count` values), or null for a graph without a hierarchy or no graph: what a
/// caller reads a point from after a route with `want_path` 2, which reports ids only.
#[no_mangle]
pub extern "C" fn pr_rounded_points(handle: i32) -> *const f64 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        match slot(&mut s.graphs, handle) {
            Some(Slot { graph: g, .. }) if g.hierarchy.is_some() => {
                g.round_paths();
                g.rounded
                    .as_ref()
                    .map_or(std::ptr::null(), |r| r.points.as_ptr())
            }
            _ => std::ptr::null(),
        }
    })
}

/// How many path point ids graph `handle` has (0 = no graph): every id below it names one point,
/// at the same coordinates in every route.
#[no_mangle]
pub extern "C" fn pr_point_id_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| point_id_count(g) as u32)
}

/// Metres, costs, then real costs of the last one-to-many (3 x its target count).
#[no_mangle]
pub extern "C" fn pr_result_many() -> *const f64 {
    STATE.with(|s| s.borrow().many.as_ptr())
}

/// River figures of the last route (layout in [`river`]; length in meta RIVER_LEN).
#[no_mangle]
pub extern "C" fn pr_result_river() -> *const f64 {
    STATE.with(|s| s.borrow().river.as_ptr())
}
