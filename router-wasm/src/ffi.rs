//! Flat `extern "C"` ABI for the WebAssembly module (one router per instance).
//!
//! Protocol: `pr_alloc` a buffer, copy the artifact bytes in, `pr_load` it (then `pr_free`);
//! `pr_route` answers a query and leaves its result in buffers read through `pr_result_*`
//! pointers, valid until the next call. Errors leave a message behind `pr_error_ptr/len`.

use crate::graph::Graph;
use crate::search::{summarize, Query, Searcher, Status};
use std::cell::RefCell;

pub const STATUS_FOUND: i32 = Status::Found as i32;
pub const STATUS_NO_ROUTE: i32 = Status::NoRoute as i32;
pub const STATUS_BUDGET: i32 = Status::BudgetExhausted as i32;
pub const STATUS_NOT_LOADED: i32 = 3;
pub const STATUS_NO_SNAP: i32 = 4;

/// Layout of the `pr_result_meta` f64 array.
pub mod meta {
    pub const STATUS: usize = 0;
    pub const METRES: usize = 1;
    pub const FROM_NODE: usize = 2;
    pub const TO_NODE: usize = 3;
    pub const FROM_LAT: usize = 4;
    pub const FROM_LNG: usize = 5;
    pub const TO_LAT: usize = 6;
    pub const TO_LNG: usize = 7;
    pub const FROM_SNAP_M: usize = 8;
    pub const TO_SNAP_M: usize = 9;
    pub const SETTLED: usize = 10;
    pub const GATE_COUNT: usize = 11;
    pub const PATH_POINTS: usize = 12;
    pub const LEN: usize = 16;
}

#[derive(Default)]
struct State {
    graph: Option<Graph>,
    searcher: Option<Searcher>,
    error: String,
    meta: Vec<f64>,
    gates: Vec<u32>,
    zones: Vec<f64>,
    path: Vec<f64>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State { meta: vec![0.0; meta::LEN], ..State::default() });
}

#[no_mangle]
pub extern "C" fn pr_alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// # Safety
/// `ptr` and `len` must come from one `pr_alloc` call and not be freed twice.
#[no_mangle]
pub unsafe extern "C" fn pr_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Loads a graph artifact of kind `sea-graph`; returns 0 or -1 (message via `pr_error_*`).
/// `base_closed` = gates the caller always closes (its defaults): landmark bounds are computed
/// with them closed, so queries closing at least those gates get the fast bounds.
///
/// # Safety
/// `ptr..ptr + len` must be readable memory holding the artifact.
#[no_mangle]
pub unsafe extern "C" fn pr_load(ptr: *const u8, len: usize, base_closed: u32) -> i32 {
    let bytes = std::slice::from_raw_parts(ptr, len);
    load(bytes, "sea-graph", "sea.graph", base_closed)
}

pub fn load(bytes: &[u8], kind: &str, path: &str, base_closed: u32) -> i32 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        match Graph::from_artifact(bytes, kind, path) {
            Ok(mut g) => {
                g.prepare_landmarks(base_closed);
                s.searcher = Some(Searcher::new(g.node_count()));
                s.zones = vec![0.0; g.zone_count as usize];
                s.graph = Some(g);
                0
            }
            Err(e) => {
                s.error = e;
                -1
            }
        }
    })
}

#[no_mangle]
pub extern "C" fn pr_error_ptr() -> *const u8 {
    STATE.with(|s| s.borrow().error.as_ptr())
}

#[no_mangle]
pub extern "C" fn pr_error_len() -> usize {
    STATE.with(|s| s.borrow().error.len())
}

/// Snaps a point to the nearest node or lane point; returns its snap point id (meta FROM_*
/// fields hold its position and distance) or -1.
#[no_mangle]
pub extern "C" fn pr_snap(lat: f64, lng: f64) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        match s.graph.as_ref().and_then(|g| g.snap(lat, lng)) {
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

/// Routes between two points (snapped to their nearest node or lane point). `closed` is the gate bitmask,
/// `max_settled` the search budget (0 = unlimited). Returns a `STATUS_*` code.
#[no_mangle]
pub extern "C" fn pr_route(
    from_lat: f64,
    from_lng: f64,
    to_lat: f64,
    to_lng: f64,
    closed: u32,
    max_settled: u32,
    want_path: u32,
) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let status = route_into(
            s,
            [from_lat, from_lng, to_lat, to_lng],
            closed,
            max_settled,
            want_path != 0,
        );
        s.meta[meta::STATUS] = f64::from(status);
        status
    })
}

fn route_into(s: &mut State, pts: [f64; 4], closed: u32, max_settled: u32, want_path: bool) -> i32 {
    let (g, searcher) = match (s.graph.as_ref(), s.searcher.as_mut()) {
        (Some(g), Some(x)) => (g, x),
        _ => return STATUS_NOT_LOADED,
    };
    s.meta.iter_mut().for_each(|m| *m = 0.0);
    s.gates.clear();
    s.path.clear();
    s.zones.iter_mut().for_each(|z| *z = 0.0);
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
        },
    );
    m[meta::SETTLED] = f64::from(route.settled);
    if status != Status::Found {
        return status as i32;
    }
    let summary = summarize(g, &from, &to, &route, want_path);
    m[meta::METRES] = route.metres;
    m[meta::GATE_COUNT] = summary.gates.len() as f64;
    m[meta::PATH_POINTS] = (summary.path.len() / 2) as f64;
    s.gates = summary.gates;
    s.zones = summary.zone_m;
    s.path = summary.path;
    STATUS_FOUND
}

#[no_mangle]
pub extern "C" fn pr_result_meta() -> *const f64 {
    STATE.with(|s| s.borrow().meta.as_ptr())
}

/// Gate codes (1-based) used by the last route, in travel order; length in meta GATE_COUNT.
#[no_mangle]
pub extern "C" fn pr_result_gates() -> *const u32 {
    STATE.with(|s| s.borrow().gates.as_ptr())
}

/// Metres per zone of the last route; length = `pr_zone_count`.
#[no_mangle]
pub extern "C" fn pr_result_zones() -> *const f64 {
    STATE.with(|s| s.borrow().zones.as_ptr())
}

/// Flat `[lat, lng]` path of the last route; length in meta PATH_POINTS.
#[no_mangle]
pub extern "C" fn pr_result_path() -> *const f64 {
    STATE.with(|s| s.borrow().path.as_ptr())
}

#[no_mangle]
pub extern "C" fn pr_node_count() -> u32 {
    STATE.with(|s| {
        s.borrow()
            .graph
            .as_ref()
            .map_or(0, |g| g.node_count() as u32)
    })
}

#[no_mangle]
pub extern "C" fn pr_zone_count() -> u32 {
    STATE.with(|s| s.borrow().graph.as_ref().map_or(0, |g| g.zone_count))
}

#[no_mangle]
pub extern "C" fn pr_gate_count() -> u32 {
    STATE.with(|s| s.borrow().graph.as_ref().map_or(0, |g| g.gate_count))
}
