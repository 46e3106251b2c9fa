//! Flat `extern "C"` ABI of the load planner (binding: router-wasm/binding/loadplan.ts).
//!
//! Protocol: `lp_input(len)` gives a buffer of `len` f64 the caller fills with a problem (layout
//! in [`input`]), `lp_plan(len)` plans it and returns 0, or -1 with the message behind
//! `lp_error_*`; the plan is then behind `lp_result_ptr/len` (layout in [`output`]), valid until
//! the next call. `lp_baseline(len)` answers the same way with the first-fit baseline (one unit of
//! the first unit type, no weight rules). Infinity is a valid value where a limit may be absent.

use super::baseline::first_fit;
use super::load::{finish, unit_plan};
use super::{plan, ItemType, Objective, Params, Plan, UnitType};
use std::cell::RefCell;

/// Problem layout: a header, then `ITEM` f64 per item type, then `UNIT` f64 per unit type.
pub mod input {
    pub const VERSION: f64 = 1.0;
    /// version, item types, unit types, objective (0 fewest, 1 cheapest), work budget,
    /// CoG longitudinal and lateral bounds (fractions, Infinity = unchecked), max units (0 = no cap).
    pub const HEAD: usize = 8;
    /// length, width, height, quantity, orientation mask, weight, stackable (0/1),
    /// max load on top (Infinity = none), priority.
    pub const ITEM: usize = 9;
    /// inside length, width, height, door width, door height (0 = none), payload (Infinity =
    /// none), cost, max count (0 = unlimited).
    pub const UNIT: usize = 8;
}

/// Result layout: `[units, placements, unplaced, work]`, then `UNIT` f64 per unit, `PLACEMENT`
/// per placement (units in order, each unit's boxes in load order), `UNPLACED` per unplaced entry.
pub mod output {
    pub const HEAD: usize = 4;
    /// unit type, placement count, volume, weight, cog x, y, z, volume and weight utilisation.
    pub const UNIT: usize = 9;
    /// item, orientation, x, y, z, length, width, height, wall.
    pub const PLACEMENT: usize = 9;
    /// item, quantity, reason code ([`crate::packing::Reason`]).
    pub const UNPLACED: usize = 3;
}

#[derive(Default)]
struct State {
    input: Vec<f64>,
    result: Vec<f64>,
    error: String,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn int(x: f64, what: &str) -> Result<i64, String> {
    if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 {
        Ok(x as i64)
    } else {
        Err(format!("{} must be an integer, got {}", what, x))
    }
}

fn count(x: f64, what: &str) -> Result<u32, String> {
    let n = int(x, what)?;
    if (0..=i64::from(u32::MAX)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(format!("{} out of range: {}", what, x))
    }
}

/// Reads a problem in the [`input`] layout.
pub fn decode(b: &[f64]) -> Result<(Vec<ItemType>, Vec<UnitType>, Params), String> {
    if b.len() < input::HEAD || b[0] != input::VERSION {
        return Err("bad problem header (version 1 expected)".into());
    }
    let n = count(b[1], "item type count")? as usize;
    let m = count(b[2], "unit type count")? as usize;
    if b.len() != input::HEAD + n * input::ITEM + m * input::UNIT {
        return Err("problem length does not match its counts".into());
    }
    let objective = match b[3] as i64 {
        0 => Objective::FewestUnits,
        1 => Objective::Cheapest,
        _ => return Err("unknown objective".into()),
    };
    let params = Params {
        objective,
        work_budget: int(b[4], "work budget")?.max(0) as u64,
        cog_longitudinal: b[5],
        cog_lateral: b[6],
        max_units: count(b[7], "max units")?,
    };
    let items = b[input::HEAD..input::HEAD + n * input::ITEM]
        .chunks_exact(input::ITEM)
        .map(|r| {
            let mask = count(r[4], "orientation mask")?;
            Ok(ItemType {
                dims: [
                    int(r[0], "length")?,
                    int(r[1], "width")?,
                    int(r[2], "height")?,
                ],
                quantity: count(r[3], "quantity")?,
                orientations: if mask < 64 { mask as u8 } else { 0xff },
                weight: r[5],
                stackable: r[6] != 0.0,
                max_load_on_top: r[7],
                priority: int(r[8], "priority")? as i32,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let units = b[input::HEAD + n * input::ITEM..]
        .chunks_exact(input::UNIT)
        .map(|r| {
            Ok(UnitType {
                inside: [
                    int(r[0], "inside length")?,
                    int(r[1], "inside width")?,
                    int(r[2], "inside height")?,
                ],
                door: [int(r[3], "door width")?, int(r[4], "door height")?],
                payload: r[5],
                cost: r[6],
                max_count: count(r[7], "max count")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok((items, units, params))
}

/// Writes a plan in the [`output`] layout.
pub fn encode(p: &Plan, out: &mut Vec<f64>) {
    out.clear();
    let placements: usize = p.units.iter().map(|u| u.placements.len()).sum();
    out.extend_from_slice(&[
        p.units.len() as f64,
        placements as f64,
        p.unplaced.len() as f64,
        p.work as f64,
    ]);
    for u in &p.units {
        out.extend_from_slice(&[
            u.unit_type as f64,
            u.placements.len() as f64,
            u.volume as f64,
            u.weight,
            u.cog[0],
            u.cog[1],
            u.cog[2],
            u.volume_utilisation,
            u.weight_utilisation,
        ]);
    }
    for u in &p.units {
        for x in &u.placements {
            out.extend_from_slice(&[
                x.item as f64,
                f64::from(x.orientation),
                x.pos[0] as f64,
                x.pos[1] as f64,
                x.pos[2] as f64,
                x.dims[0] as f64,
                x.dims[1] as f64,
                x.dims[2] as f64,
                f64::from(x.wall),
            ]);
        }
    }
    for x in &p.unplaced {
        out.extend_from_slice(&[x.item as f64, f64::from(x.quantity), x.reason as i32 as f64]);
    }
}

/// The baseline as a plan: one unit of the first unit type, what did not fit as no_space.
pub fn baseline_plan(items: &[ItemType], units: &[UnitType]) -> Result<Plan, String> {
    let unit = units.first().ok_or("no unit type")?;
    let boxes = first_fit(items, unit);
    let params = Params {
        cog_longitudinal: f64::INFINITY,
        cog_lateral: f64::INFINITY,
        ..Params::default()
    };
    let loaded = finish(items, unit, boxes, &params);
    let mut left: Vec<u32> = items.iter().map(|i| i.quantity).collect();
    for b in &loaded.boxes {
        left[b.item] -= 1;
    }
    let unplaced = left
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(item, &quantity)| super::Unplaced {
            item,
            quantity,
            reason: super::Reason::NoSpace,
        })
        .collect();
    Ok(Plan {
        units: vec![unit_plan(items, unit, 0, loaded)],
        unplaced,
        work: 0,
    })
}

/// A buffer of `len` f64 for the next problem; valid until the next `lp_input` call.
#[no_mangle]
pub extern "C" fn lp_input(len: usize) -> *mut f64 {
    STATE.with(|s| {
        let mut s = s.borrow_mut();
        s.input.clear();
        s.input.resize(len, 0.0);
        s.input.as_mut_ptr()
    })
}

type Solver = fn(&[ItemType], &[UnitType], &Params) -> Result<Plan, String>;

fn run(len: usize, solve: Solver) -> i32 {
    STATE.with(|s| {
        let s = &mut *s.borrow_mut();
        let answer = s
            .input
            .get(..len)
            .ok_or_else(|| "problem longer than the input buffer".to_string())
            .and_then(decode)
            .and_then(|(items, units, params)| solve(&items, &units, &params));
        match answer {
            Ok(p) => {
                encode(&p, &mut s.result);
                0
            }
            Err(e) => {
                s.result.clear();
                s.error = e;
                -1
            }
        }
    })
}

/// Plans the problem in the first `len` f64 of the input buffer. 0 = done, -1 = bad problem.
#[no_mangle]
pub extern "C" fn lp_plan(len: usize) -> i32 {
    run(len, plan)
}

/// The first-fit baseline on the problem in the input buffer (bench/loadplan.ts).
#[no_mangle]
pub extern "C" fn lp_baseline(len: usize) -> i32 {
    run(len, |items, units, _| baseline_plan(items, units))
}

#[no_mangle]
pub extern "C" fn lp_result_ptr() -> *const f64 {
    STATE.with(|s| s.borrow().result.as_ptr())
}

#[no_mangle]
pub extern "C" fn lp_result_len() -> usize {
    STATE.with(|s| s.borrow().result.len())
}

#[no_mangle]
pub extern "C" fn lp_error_ptr() -> *const u8 {
    STATE.with(|s| s.borrow().error.as_ptr())
}

#[no_mangle]
pub extern "C" fn lp_error_len() -> usize {
    STATE.with(|s| s.borrow().error.len())
}
