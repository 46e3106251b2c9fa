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
//!
//! The shared state and constants live here; the exports live in the submodules by group: graphs
//! (memory, loading, graph facts), routes, many (one-to-many and tables), results, hierarchy.

mod graphs;
mod hierarchy;
mod many;
mod results;
mod routes;

pub use graphs::*;
pub use hierarchy::*;
pub use many::*;
pub use results::*;
pub use routes::*;

use crate::graph::Graph;
use crate::path_json::PointTexts;
use crate::search::{Objective, River, Searcher, Status};
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
