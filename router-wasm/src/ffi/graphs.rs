//! Graph exports: buffers shared with the caller, loading and unloading graphs, the last error,
//! and the facts of a loaded graph (counts, mode, sections, landmarks).

use super::{with_graph, Slot, STATE};
use crate::graph::Graph;
use crate::path_json::PointTexts;
use crate::search::Searcher;

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
