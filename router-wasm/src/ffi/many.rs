//! One-to-many and many-to-many exports: one search per source, answers in the `pr_result_many`
//! buffer.

use super::{
    meta, query_slot, ObjectiveInput, Slot, State, STATE, STATUS_BUDGET, STATUS_FOUND,
    STATUS_NO_SNAP,
};
use crate::search::{Objective, Status};

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
