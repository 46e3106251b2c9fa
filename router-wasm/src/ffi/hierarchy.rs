//! Contraction hierarchy exports (router-wasm/src/hierarchy/, docs/routing-speed.md): attached to a
//! loaded graph (sea, road, rail) as a separate artifact, built by the data build through these
//! calls.

use super::{slot, with_graph, STATE};
use std::cell::RefCell;

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
