//! Flat `extern "C"` ABI for the WebAssembly module: several graphs per instance, by handle.
//!
//! Protocol: `pr_alloc` a buffer, copy the artifact bytes in (and its kind and file name), then
//! `pr_load` it (then `pr_free` the buffers): it returns a graph handle (>= 0) or -1. Every query
//! names its graph by handle; `pr_unload` frees one. No mode is built in: the caller says which
//! artifact kind it loads (`sea-graph`, `rail-graph`, ...), the container check refuses another.
//! `pr_route` and `pr_one_to_many` leave their result in buffers read through `pr_result_*`
//! pointers, shared by all graphs and valid until the next call. Errors leave a message behind
//! `pr_error_ptr/len`.
//!
//! River queries (`OBJECTIVE_RIVER`) read their costing from the `pr_input` buffer, at 0 for
//! `pr_route` and after the targets for `pr_one_to_many`: `[avoid, n, factor_0 .. factor_n-1]`,
//! one time factor per seasonal rule index (0 = closed, else >= 1), n >= the graph's
//! `pr_rule_count`. 55 rules do not fit the 32-bit gate mask, hence a buffer.

use crate::graph::Graph;
use crate::path_json::PointTexts;
use crate::search::{
    point_id_count, summarize_into, summarize_river, Objective, PathOut, Query, River,
    RiverSummary, Searcher, Status,
};
use std::cell::RefCell;

pub const STATUS_FOUND: i32 = Status::Found as i32;
pub const STATUS_NO_ROUTE: i32 = Status::NoRoute as i32;
pub const STATUS_BUDGET: i32 = Status::BudgetExhausted as i32;
/// No graph behind the handle.
pub const STATUS_NOT_LOADED: i32 = 3;
pub const STATUS_NO_SNAP: i32 = 4;
/// An unknown objective, an unusable default speed, or bad river inputs (avoid < 1, a rule
/// factor < 1 other than 0, fewer factors than the graph's rules, a malformed input block).
pub const STATUS_BAD_QUERY: i32 = 5;

/// `objective` argument of the query functions.
pub const OBJECTIVE_DISTANCE: u32 = 0;
pub const OBJECTIVE_TIME: u32 = 1;
pub const OBJECTIVE_RIVER: u32 = 2;

/// `pr_route`'s `want_path`: nothing of the path; each point's coordinates and id
/// (`pr_result_path`, `pr_result_path_ids`); on a graph with a hierarchy, the ids only
/// (`search::PathOut::Ids`, points from `pr_rounded_points`) or the ids and the path's JSON text
/// (`pr_result_path_json`). The last two answer as `PATH_POINTS` on other graphs.
pub const PATH_NONE: u32 = 0;
pub const PATH_POINTS: u32 = 1;
pub const PATH_IDS: u32 = 2;
pub const PATH_JSON: u32 = 3;

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
    /// What the search minimised: metres (distance objective) or seconds (time objective).
    pub const COST: usize = 13;
    /// Length of the `pr_result_river` array (0 unless the last route was a river route).
    pub const RIVER_LEN: usize = 14;
    /// Bytes of the `pr_result_path_json` text (0 unless the last route asked for `PATH_JSON`).
    pub const PATH_JSON_BYTES: usize = 15;
    pub const LEN: usize = 16;
}

/// Layout of the `pr_result_river` f64 array: these fields, then `WATERWAYS` metres per waterway
/// index, then `RULES` metres per rule index (one per factor of the query).
pub mod river {
    /// Real seconds: moving time with the rule factors, plus locks (no class avoid factor).
    pub const SECONDS: usize = 0;
    pub const LOCK_SECONDS: usize = 1;
    /// Locks passed (partial edges at the ends pro rata).
    pub const LOCKS: usize = 2;
    pub const DOWNSTREAM_M: usize = 3;
    pub const UPSTREAM_M: usize = 4;
    pub const SLACK_M: usize = 5;
    pub const WATERWAYS: usize = 6;
    pub const RULES: usize = 7;
    pub const HEAD: usize = 8;
}

struct Slot {
    graph: Graph,
    searcher: Searcher,
    /// The graph's points' JSON texts, for paths asked as JSON.
    texts: PointTexts,
}

#[derive(Default)]
struct State {
    graphs: Vec<Option<Slot>>,
    error: String,
    meta: Vec<f64>,
    gates: Vec<u32>,
    zones: Vec<f64>,
    path: Vec<f64>,
    /// The path's point ids (`Summary::path_ids`).
    path_ids: Vec<u32>,
    /// The path's JSON text (`PATH_JSON`).
    path_json: Vec<u8>,
    /// Last river route (layout in [`river`]).
    river: Vec<f64>,
    /// One-to-many answer: metres of the K targets, then their costs, then their real costs.
    many: Vec<f64>,
    /// Caller-filled query input (one-to-many targets, a river query's block).
    input: Vec<f64>,
    /// `pr_top_tables`' answer: (closed mask, ranks covered) pairs.
    tables: Vec<u32>,
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

/// Loads a graph artifact of kind `kind` (UTF-8; `path` names the file in messages). Returns
/// its handle (>= 0), or -1 with the message behind `pr_error_*`. Landmarks come from the
/// artifact (computed by the data build); a graph without them searches with great-circle bounds.
///
/// # Safety
/// Each `ptr..ptr + len` must be readable memory (the artifact, the kind, the path).
#[no_mangle]
pub unsafe extern "C" fn pr_load(
    ptr: *const u8,
    len: usize,
    kind_ptr: *const u8,
    kind_len: usize,
    path_ptr: *const u8,
    path_len: usize,
) -> i32 {
    let bytes = std::slice::from_raw_parts(ptr, len);
    let kind = String::from_utf8_lossy(std::slice::from_raw_parts(kind_ptr, kind_len)).into_owned();
    let path = String::from_utf8_lossy(std::slice::from_raw_parts(path_ptr, path_len)).into_owned();
    load(bytes, &kind, &path)
}

/// Loads an artifact (see `pr_load`); returns the handle or -1.
pub fn load(bytes: &[u8], kind: &str, path: &str) -> i32 {
    match Graph::from_artifact(bytes, kind, path) {
        Ok(g) => add(g),
        Err(e) => {
            STATE.with(|s| s.borrow_mut().error = e);
            -1
        }
    }
}

/// Adds a graph built in memory (tests, tools); returns its handle.
pub fn add(g: Graph) -> i32 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        let slot = Slot {
            searcher: Searcher::new(g.node_count()),
            graph: g,
            texts: PointTexts::default(),
        };
        match s.graphs.iter().position(Option::is_none) {
            Some(h) => {
                s.graphs[h] = Some(slot);
                h as i32
            }
            None => {
                s.graphs.push(Some(slot));
                (s.graphs.len() - 1) as i32
            }
        }
    })
}

/// Frees a graph; its handle may be reused by a later load. Returns 0, or -1 for no such graph.
#[no_mangle]
pub extern "C" fn pr_unload(handle: i32) -> i32 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        match s.graphs.get_mut(handle as usize) {
            Some(x) if handle >= 0 && x.is_some() => {
                *x = None;
                0
            }
            _ => -1,
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

/// A buffer of at least `len` f64 the caller fills with query input (one-to-many targets as
/// flat `[lat, lng]`, then a river query's block); valid until the next `pr_input` call.
#[no_mangle]
pub extern "C" fn pr_input(len: usize) -> *mut f64 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        if s.input.len() < len {
            s.input.resize(len, 0.0);
        }
        s.input.as_mut_ptr()
    })
}

fn slot(graphs: &mut [Option<Slot>], handle: i32) -> Option<&mut Slot> {
    if handle < 0 {
        return None;
    }
    graphs.get_mut(handle as usize).and_then(Option::as_mut)
}

/// The slot of `handle` for a many-target query and its objective, or the status to answer: a
/// missing or unfit objective or too short an input is a bad query, an unknown handle not loaded.
fn query_slot<'g, 'o>(
    graphs: &'g mut [Option<Slot>],
    handle: i32,
    input_complete: bool,
    objective: Option<Objective<'o>>,
) -> Result<(&'g mut Slot, Objective<'o>), i32> {
    let objective = match objective {
        Some(o) if input_complete => o,
        _ => return Err(STATUS_BAD_QUERY),
    };
    let x = slot(graphs, handle).ok_or(STATUS_NOT_LOADED)?;
    if !objective.fits(&x.graph) {
        return Err(STATUS_BAD_QUERY);
    }
    Ok((x, objective))
}

/// A query's objective inputs, owned: the river factors are copied out of the input buffer so the
/// query can take the state mutably (55 f64, nothing next to a search).
struct ObjectiveInput {
    code: u32,
    default_kmh: f64,
    avoid: f64,
    factors: Vec<f64>,
}

impl ObjectiveInput {
    /// Reads a river block at `at` of `input` when `code` asks for one; `None` when it is malformed.
    fn read(code: u32, default_kmh: f64, input: &[f64], at: usize) -> Option<ObjectiveInput> {
        let mut o = ObjectiveInput {
            code,
            default_kmh,
            avoid: 1.0,
            factors: Vec::new(),
        };
        if code == OBJECTIVE_RIVER {
            let head = input.get(at..at + 2)?;
            let n = head[1];
            if !(n >= 0.0 && n.fract() == 0.0 && n <= 65_536.0) {
                return None;
            }
            o.avoid = head[0];
            o.factors = input.get(at + 2..at + 2 + n as usize)?.to_vec();
        }
        Some(o)
    }

    fn objective(&self) -> Option<Objective<'_>> {
        let o = match self.code {
            OBJECTIVE_DISTANCE => Objective::Distance,
            OBJECTIVE_TIME => Objective::Time {
                default_kmh: self.default_kmh,
            },
            OBJECTIVE_RIVER => Objective::River(River {
                default_kmh: self.default_kmh,
                avoid: self.avoid,
                factors: &self.factors,
            }),
            _ => return None,
        };
        if o.is_valid() {
            Some(o)
        } else {
            None
        }
    }
}

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

/// From one point to `count` targets of graph `handle`, in one search. The targets are flat
/// `[lat, lng]` in the `pr_input` buffer (snapped like `pr_route`'s points; a river query's block
/// follows them). Answers through `pr_result_many`: `count` metres, then `count` costs, then
/// `count` real costs (river: seconds without the class avoid factor; else equal to the costs),
/// then `count` class-0 metres (river: uncurated water; 0 without a class section)
/// (infinity = unreachable, NaN = target did not snap, or the budget ran out before it was final:
/// then the status is `STATUS_BUDGET`).
/// Meta FROM_* hold the source snap, SETTLED the search's heap pops. Returns a `STATUS_*` code
/// (`STATUS_FOUND` once the search completed, whatever each target's answer).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pr_one_to_many(
    handle: i32,
    from_lat: f64,
    from_lng: f64,
    count: usize,
    closed: u32,
    max_settled: u32,
    objective_code: u32,
    default_speed_kmh: f64,
) -> i32 {
    let query = (objective_code, default_speed_kmh, 2 * count);
    many_query(4 * count, query, |s, objective| {
        many_into(
            s,
            handle,
            (from_lat, from_lng),
            count,
            closed,
            max_settled,
            objective,
        )
    })
}

/// Runs a many-target query on the state: answers cleared and sized to `answers` NaNs, the
/// objective read from the input buffer after its `points` values, the status also in meta.
fn many_query(
    answers: usize,
    (objective_code, default_speed_kmh, points): (u32, f64, usize),
    run: impl FnOnce(&mut State, Option<Objective>) -> i32,
) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        s.meta.iter_mut().for_each(|m| *m = 0.0);
        s.many.clear();
        s.many.resize(answers, f64::NAN);
        let input = ObjectiveInput::read(objective_code, default_speed_kmh, &s.input, points);
        let status = run(s, input.as_ref().and_then(ObjectiveInput::objective));
        s.meta[meta::STATUS] = f64::from(status);
        status
    })
}

fn many_into(
    s: &mut State,
    handle: i32,
    from: (f64, f64),
    count: usize,
    closed: u32,
    max_settled: u32,
    objective: Option<Objective>,
) -> i32 {
    let (
        Slot {
            graph: g, searcher, ..
        },
        objective,
    ) = match query_slot(&mut s.graphs, handle, s.input.len() >= 2 * count, objective) {
        Ok(x) => x,
        Err(status) => return status,
    };
    let source = match g.snap(from.0, from.1) {
        Some(a) => a,
        None => return STATUS_NO_SNAP,
    };
    s.meta[meta::FROM_NODE] = f64::from(source.point);
    s.meta[meta::FROM_LAT] = source.lat;
    s.meta[meta::FROM_LNG] = source.lng;
    s.meta[meta::FROM_SNAP_M] = source.snap_m;
    let targets: Vec<_> = s.input[..2 * count]
        .chunks_exact(2)
        .map(|p| g.snap(p[0], p[1]))
        .collect();
    let many = searcher.one_to_many(g, &source, &targets, closed, max_settled, objective);
    s.meta[meta::SETTLED] = f64::from(many.settled);
    s.many[..count].copy_from_slice(&many.metres);
    s.many[count..2 * count].copy_from_slice(&many.cost);
    s.many[2 * count..3 * count].copy_from_slice(&many.real);
    s.many[3 * count..].copy_from_slice(&many.class0_m);
    many.status as i32
}

// Many-to-many tables (engine/multimodal/sea-distances.ts: the main ports' sea rows, filled once
// per thread): every point snapped once, not once per source's search.

/// From each of `sources` points to each of `targets` points of graph `handle`: one
/// `pr_one_to_many` search per source over targets snapped once. The points are flat
/// `[lat, lng]` in the `pr_input` buffer, sources then targets (a river query's block follows
/// them). Answers through `pr_result_many`: `sources * targets` metres, one source's row after
/// another (infinity = unreachable; NaN = a point did not snap, or that source's budget ran out
/// before the target was final). Returns `STATUS_FOUND`, `STATUS_BUDGET` when some source's
/// budget ran out, or the query's error status.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn pr_many_to_many(
    handle: i32,
    sources: usize,
    targets: usize,
    closed: u32,
    max_settled: u32,
    objective_code: u32,
    default_speed_kmh: f64,
) -> i32 {
    let query = (objective_code, default_speed_kmh, 2 * (sources + targets));
    many_query(sources * targets, query, |s, objective| {
        table_into(
            s,
            handle,
            (sources, targets),
            closed,
            max_settled,
            objective,
        )
    })
}

fn table_into(
    s: &mut State,
    handle: i32,
    (sources, targets): (usize, usize),
    closed: u32,
    max_settled: u32,
    objective: Option<Objective>,
) -> i32 {
    let points = 2 * (sources + targets);
    let (
        Slot {
            graph: g, searcher, ..
        },
        objective,
    ) = match query_slot(&mut s.graphs, handle, s.input.len() >= points, objective) {
        Ok(x) => x,
        Err(status) => return status,
    };
    let mut snapped = s.input[..points]
        .chunks_exact(2)
        .map(|p| g.snap(p[0], p[1]));
    let from: Vec<_> = snapped.by_ref().take(sources).collect();
    let to: Vec<_> = snapped.collect();
    let mut status = STATUS_FOUND;
    let mut settled = 0.0;
    for (i, source) in from.iter().enumerate() {
        let source = match source {
            Some(a) => a,
            None => continue,
        };
        let many = searcher.one_to_many(g, source, &to, closed, max_settled, objective);
        settled += f64::from(many.settled);
        if many.status == Status::BudgetExhausted {
            status = STATUS_BUDGET;
        }
        s.many[i * targets..(i + 1) * targets].copy_from_slice(&many.metres);
    }
    s.meta[meta::SETTLED] = settled;
    status
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

fn with_graph<T>(handle: i32, none: T, f: impl FnOnce(&Graph) -> T) -> T {
    STATE.with(|s| {
        let s = s.borrow();
        match s
            .graphs
            .get(handle.max(0) as usize)
            .and_then(Option::as_ref)
        {
            Some(x) if handle >= 0 => f(&x.graph),
            _ => none,
        }
    })
}

#[no_mangle]
pub extern "C" fn pr_node_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| g.node_count() as u32)
}

#[no_mangle]
pub extern "C" fn pr_zone_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| g.zone_count)
}

#[no_mangle]
pub extern "C" fn pr_gate_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| g.gate_count)
}

/// Waterway indices the graph's edges use (highest + 1; 0 without the section).
#[no_mangle]
pub extern "C" fn pr_waterway_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| g.waterway_count)
}

/// Seasonal rule indices the graph's edges use (highest + 1): a river query passes at least this
/// many factors.
#[no_mangle]
pub extern "C" fn pr_rule_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| g.rule_count)
}

/// The graph's mode code (meta[0]: 0 sea, 1 river, 2 rail, 3 road), or -1.
#[no_mangle]
pub extern "C" fn pr_graph_mode(handle: i32) -> i32 {
    with_graph(handle, -1, |g| g.mode as i32)
}

/// Optional sections the graph carries (`graph::HAS_*` flags), or 0.
#[no_mangle]
pub extern "C" fn pr_graph_sections(handle: i32) -> u32 {
    with_graph(handle, 0, |g| g.sections)
}

/// Landmark count and the closed mask they assume (0 landmarks = great-circle bounds only).
#[no_mangle]
pub extern "C" fn pr_landmark_count(handle: i32) -> u32 {
    with_graph(handle, 0, |g| {
        g.landmarks.as_ref().map_or(0, |l| l.count as u32)
    })
}

#[no_mangle]
pub extern "C" fn pr_landmark_closed(handle: i32) -> u32 {
    with_graph(handle, 0, |g| {
        g.landmarks.as_ref().map_or(0, |l| l.base_closed)
    })
}

// Contraction hierarchies (router-wasm/src/hierarchy.rs, docs/routing-speed.md): attached to a
// loaded graph (sea, road, rail) as a separate artifact, built by the data build through these
// calls.

thread_local! {
    /// The last `pr_hierarchy_build` artifact, read through `pr_hierarchy_ptr`.
    static BUILT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Attaches a hierarchy artifact of `kind` (`sea-hierarchy`, `road-hierarchy`..., built for this
/// graph: its checksum must match) to graph `handle`: its queries in the hierarchy's metric then
/// use it. Returns 0, or -1 with the message behind `pr_error_*` (the graph keeps routing with A*).
///
/// # Safety
/// Each `ptr..ptr + len` must be readable memory (the artifact, the file name, the kind).
#[no_mangle]
pub unsafe extern "C" fn pr_load_hierarchy(
    handle: i32,
    ptr: *const u8,
    len: usize,
    path_ptr: *const u8,
    path_len: usize,
    kind_ptr: *const u8,
    kind_len: usize,
) -> i32 {
    let bytes = std::slice::from_raw_parts(ptr, len);
    let path = String::from_utf8_lossy(std::slice::from_raw_parts(path_ptr, path_len)).into_owned();
    let kind = String::from_utf8_lossy(std::slice::from_raw_parts(kind_ptr, kind_len)).into_owned();
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let result = match slot(&mut s.graphs, handle) {
            Some(x) => {
                crate::hierarchy::Hierarchy::decode(&x.graph, bytes, &path, &kind).map(|h| {
                    x.graph.hierarchy = Some(h);
                    x.searcher.hierarchy_changed();
                })
            }
            None => Err(format!("no graph loaded under handle {}", handle)),
        };
        match result {
            Ok(()) => 0,
            Err(e) => {
                s.error = e;
                -1
            }
        }
    })
}

/// Whether graph `handle` routes queries in a hierarchy's metric with it (1) or only A* (0).
#[no_mangle]
pub extern "C" fn pr_has_hierarchy(handle: i32) -> u32 {
    with_graph(handle, 0, |g| u32::from(g.hierarchy.is_some()))
}

/// The metric of graph `handle`'s hierarchy: 0 for distance, a time objective's default speed
/// (km/h), or -1 without a hierarchy.
#[no_mangle]
pub extern "C" fn pr_hierarchy_kmh(handle: i32) -> f64 {
    with_graph(handle, -1.0, |g| {
        g.hierarchy.as_ref().map_or(-1.0, |h| h.metric.kmh())
    })
}

/// Contracts graph `handle` (the data build's hierarchy stages) in the metric `kmh` names (0:
/// distance, else the time objective at that default speed) and keeps the artifact of `kind`,
/// stamped `build_id`, for `pr_hierarchy_ptr`; returns its length in bytes (0 = no graph or a
/// speed that is not finite and > 0).
///
/// # Safety
/// `id_ptr..id_ptr + id_len` and `kind_ptr..kind_ptr + kind_len` must be readable memory.
#[no_mangle]
pub unsafe extern "C" fn pr_hierarchy_build(
    handle: i32,
    id_ptr: *const u8,
    id_len: usize,
    kind_ptr: *const u8,
    kind_len: usize,
    kmh: f64,
) -> usize {
    let id = String::from_utf8_lossy(std::slice::from_raw_parts(id_ptr, id_len)).into_owned();
    let kind = String::from_utf8_lossy(std::slice::from_raw_parts(kind_ptr, kind_len)).into_owned();
    let bytes = match crate::metric::Metric::from_kmh(kmh) {
        Some(metric) => with_graph(handle, Vec::new(), |g| {
            crate::hierarchy::Hierarchy::build(g, metric).encode(&kind, &id)
        }),
        None => Vec::new(),
    };
    BUILT.with(|b| {
        *b.borrow_mut() = bytes;
        b.borrow().len()
    })
}

/// The artifact the last `pr_hierarchy_build` made.
#[no_mangle]
pub extern "C" fn pr_hierarchy_ptr() -> *const u8 {
    BUILT.with(|b| b.borrow().as_ptr())
}

/// Sets how many settles a distance query of graph `handle` tries with A* before its hierarchy
/// (0 = the hierarchy answers every distance query; default `ASTAR_FIRST_SETTLES`). Returns 0,
/// or -1 when the graph has no hierarchy.
#[no_mangle]
pub extern "C" fn pr_hierarchy_astar_first(handle: i32, settles: u32) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        match slot(&mut s.graphs, handle).and_then(|x| x.graph.hierarchy.as_mut()) {
            Some(h) => {
                h.astar_first = settles;
                0
            }
            None => -1,
        }
    })
}

/// The top distance tables graph `handle`'s searcher holds: writes (closed mask, ranks covered)
/// pairs, the most recently used last, for `pr_result_tables`; returns how many (0 without a
/// hierarchy or a table), or -1 for an unknown handle.
#[no_mangle]
pub extern "C" fn pr_top_tables(handle: i32) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let tables = match slot(&mut s.graphs, handle) {
            Some(x) => x.searcher.top_tables(),
            None => return -1,
        };
        s.tables = tables
            .iter()
            .flat_map(|&(closed, ranks)| [closed, ranks])
            .collect();
        tables.len() as i32
    })
}

/// The pairs of the last `pr_top_tables`.
#[no_mangle]
pub extern "C" fn pr_result_tables() -> *const u32 {
    STATE.with(|s| s.borrow().tables.as_ptr())
}

/// Builds the top distance table of graph `handle`'s hierarchy for queries closing `closed` now
/// (the sea router does for its default closures at load; other masks get theirs once frequent:
/// `hierarchy::TABLE_AFTER`). Returns 0, or -1 when the graph has no hierarchy.
#[no_mangle]
pub extern "C" fn pr_hierarchy_table(handle: i32, closed: u32) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let ready = slot(&mut s.graphs, handle)
            .map_or(false, |x| x.searcher.prepare_top_table(&x.graph, closed));
        if ready {
            0
        } else {
            -1
        }
    })
}
