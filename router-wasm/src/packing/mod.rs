//! Load planning: 3D packing of heterogeneous boxes into containers and trailers (docs/loadplan.md).
//!
//! Coordinates are integers in one length unit (the caller's; the TypeScript engine uses mm):
//! x runs along the unit's length from the front wall (x = 0) to the door, y across its width,
//! z up from the floor. Every plan returned satisfies, box by box: no overlap, inside the unit,
//! an allowed orientation (fitting the door opening when one is given), full support (the whole
//! base on the floor or on tops of boxes at exactly its base height: no overhang), load on top
//! within each item's limit (weight spread over supporters in proportion to contact area),
//! total weight within payload and the centre of gravity within the bounds of [`Params`].
//!
//! The search ([`pack`]) is block building over maximal free spaces with a look-ahead tree
//! search whose effort doubles until a work budget is spent; no clock, no randomness, so the same
//! input gives the same plan.

pub mod baseline;
mod blocks;
pub mod ffi;
mod general;
mod load;
mod pack;
mod spaces;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_greedy;
#[cfg(test)]
mod tests_rules;

/// The six axis permutations, in the order of the orientation bitmask: entry k names which of the
/// item's own dimensions (0 = length, 1 = width, 2 = height as given) lies along the unit's x, y
/// and z. Names as in the Bischoff-Ratcliff data: "xyz", "yxz", "zyx", "xzy", "zxy", "yzx".
pub const ORIENTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 0, 2],
    [2, 1, 0],
    [0, 2, 1],
    [2, 0, 1],
    [1, 2, 0],
];
/// "This side up": the two orientations keeping the given height vertical.
pub const THIS_SIDE_UP: u8 = 0b11;
pub const ALL_ORIENTATIONS: u8 = 0b11_1111;

#[derive(Clone, Debug, PartialEq)]
pub struct ItemType {
    /// Length, width, height as given (> 0).
    pub dims: [i64; 3],
    pub quantity: u32,
    /// Bitmask over [`ORIENTATIONS`]; at least one bit.
    pub orientations: u8,
    /// kg (>= 0).
    pub weight: f64,
    /// false: nothing may stand on it.
    pub stackable: bool,
    /// kg the item's top may carry in total; `f64::INFINITY` = no limit.
    pub max_load_on_top: f64,
    /// Higher first: when not everything fits, lower priorities are left out first.
    pub priority: i32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct UnitType {
    /// Inside length, width, height.
    pub inside: [i64; 3],
    /// Door opening width and height (0 = no limit). A box passes the door as it is placed: its
    /// placed width and height must fit the opening.
    pub door: [i64; 2],
    /// kg; `f64::INFINITY` = no limit.
    pub payload: f64,
    /// Cost of one unit (the cheapest objective).
    pub cost: f64,
    /// Units of this type available (0 = unlimited).
    pub max_count: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    FewestUnits = 0,
    Cheapest = 1,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub objective: Objective,
    /// Work units for the search of one unit (placements tried plus spaces updated); the
    /// deterministic stand-in for a time limit. 0 = a single greedy pass.
    pub work_budget: u64,
    /// The centre of gravity may lie at most this fraction of the inside length from the middle
    /// of the length (0.1 = within the middle 20 %); `f64::INFINITY` = unchecked.
    pub cog_longitudinal: f64,
    /// Same across the width.
    pub cog_lateral: f64,
    /// Most units in one plan (0 = unlimited; each type's `max_count` also applies).
    pub max_units: u32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            objective: Objective::FewestUnits,
            work_budget: DEFAULT_WORK,
            cog_longitudinal: 0.1,
            cog_lateral: 0.05,
            max_units: 0,
        }
    }
}

/// Work units counted per second of single-threaded WebAssembly on the slowest instances per unit
/// of work (bench/loadplan.ts), with room for a busy machine: the search counts moves scanned
/// (half a unit each), spaces scanned and updated, and a fixed cost per state copied and move
/// applied, so a unit of work takes about as long whatever the cargo (5 to 6.5 ns on the
/// Bischoff-Ratcliff sets with two busy cores), yet the same input always gives the same plan.
pub const WORK_PER_SECOND: u64 = 40_000_000;

/// One second per unit type tried and unit (docs/loadplan.md).
pub const DEFAULT_WORK: u64 = WORK_PER_SECOND;

#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub item: usize,
    /// Index into [`ORIENTATIONS`].
    pub orientation: u8,
    /// Corner nearest the origin.
    pub pos: [i64; 3],
    /// Placed length, width, height.
    pub dims: [i64; 3],
    /// 0-based position in the load order.
    pub load_order: u32,
    /// 0-based wall (from the front wall) the box belongs to.
    pub wall: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct UnitPlan {
    pub unit_type: usize,
    /// In load order.
    pub placements: Vec<Placement>,
    pub volume: i64,
    pub weight: f64,
    /// Weighted by box weight; by box volume when nothing weighs anything.
    pub cog: [f64; 3],
    pub volume_utilisation: f64,
    /// 0 when the payload is unlimited.
    pub weight_utilisation: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    TooBigForAnyUnit = 1,
    TooHeavyForAnyUnit = 2,
    Payload = 3,
    NoSpace = 4,
    Cog = 5,
    UnitLimit = 6,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Unplaced {
    pub item: usize,
    pub quantity: u32,
    pub reason: Reason,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub units: Vec<UnitPlan>,
    pub unplaced: Vec<Unplaced>,
    /// Work units spent (all units and unit types tried).
    pub work: u64,
}

/// Placed length, width, height of `dims` in orientation `o`.
pub fn oriented(dims: [i64; 3], o: usize) -> [i64; 3] {
    let p = ORIENTATIONS[o];
    [dims[p[0]], dims[p[1]], dims[p[2]]]
}

/// Orientations of `item` usable in `unit`: allowed, inside the unit, through the door.
pub(crate) fn usable_orientations(item: &ItemType, unit: &UnitType) -> u8 {
    let mut mask = 0;
    for o in 0..6 {
        if item.orientations & (1 << o) == 0 {
            continue;
        }
        let d = oriented(item.dims, o);
        let inside = (0..3).all(|k| d[k] <= unit.inside[k]);
        let door = (unit.door[0] == 0 || d[1] <= unit.door[0])
            && (unit.door[1] == 0 || d[2] <= unit.door[1]);
        if inside && door {
            mask |= 1 << o;
        }
    }
    mask
}

fn check(items: &[ItemType], units: &[UnitType], params: &Params) -> Result<(), String> {
    if units.is_empty() {
        return Err("no unit type".into());
    }
    for (i, it) in items.iter().enumerate() {
        if it.dims.iter().any(|&d| d <= 0) {
            return Err(format!("item {}: dimensions must be positive", i));
        }
        if it.orientations & ALL_ORIENTATIONS == 0 || it.orientations & !ALL_ORIENTATIONS != 0 {
            return Err(format!(
                "item {}: orientation mask must name 1 to 6 orientations",
                i
            ));
        }
        if !(it.weight >= 0.0 && it.weight.is_finite()) {
            return Err(format!("item {}: weight must be finite and >= 0", i));
        }
        if it.max_load_on_top.is_nan() || it.max_load_on_top < 0.0 {
            return Err(format!("item {}: max load on top must be >= 0", i));
        }
    }
    for (i, u) in units.iter().enumerate() {
        if u.inside.iter().any(|&d| d <= 0) || u.door.iter().any(|&d| d < 0) {
            return Err(format!("unit type {}: dimensions must be positive", i));
        }
        if u.payload.is_nan() || u.payload < 0.0 || !u.cost.is_finite() || u.cost < 0.0 {
            return Err(format!("unit type {}: payload and cost must be >= 0", i));
        }
    }
    if !(params.cog_longitudinal >= 0.0 && params.cog_lateral >= 0.0) {
        return Err("centre of gravity bounds must be >= 0".into());
    }
    Ok(())
}

/// Plans the loading of `items` into units of the allowed `units` types (see the module docs).
/// Unit by unit: every available unit type is packed with what is left and the objective picks
/// one: fewest units takes a type that loads everything left (the cheapest such), else the one
/// loading the most volume; cheapest takes the most volume per cost. Items no unit can take are
/// reported with their reason.
pub fn plan(items: &[ItemType], units: &[UnitType], params: &Params) -> Result<Plan, String> {
    check(items, units, params)?;
    let mut left: Vec<u32> = items.iter().map(|i| i.quantity).collect();
    let mut unplaced = Vec::new();
    // Items no unit type can take at all.
    for (i, it) in items.iter().enumerate() {
        let reason = if units.iter().all(|u| usable_orientations(it, u) == 0) {
            Reason::TooBigForAnyUnit
        } else if units
            .iter()
            .all(|u| usable_orientations(it, u) == 0 || it.weight > u.payload)
        {
            Reason::TooHeavyForAnyUnit
        } else {
            continue;
        };
        if left[i] > 0 {
            unplaced.push(Unplaced {
                item: i,
                quantity: left[i],
                reason,
            });
        }
        left[i] = 0;
    }
    let mut used = vec![0u32; units.len()];
    let mut out: Vec<UnitPlan> = Vec::new();
    let mut work = 0u64;
    let mut cog_dropped = vec![0u32; items.len()];
    while left.iter().any(|&n| n > 0) {
        if params.max_units > 0 && out.len() as u32 >= params.max_units {
            break;
        }
        let mut best: Option<(load::Loaded, usize)> = None;
        // Items the centre of gravity kept out of this round's attempts.
        let mut cog_kept_out: Vec<(usize, u32)> = Vec::new();
        for (u, unit) in units.iter().enumerate() {
            if unit.max_count > 0 && used[u] >= unit.max_count {
                continue;
            }
            let packed = pack::pack_unit(items, &left, unit, params.work_budget, false);
            work += packed.work;
            let mut loaded = load::finish(items, unit, packed.boxes, params);
            if !loaded.dropped.is_empty() {
                // Boxes anchored at both ends leave no room to move the load to the middle;
                // packed against one corner it can be moved, then keep whichever loads more.
                let packed = pack::pack_unit(items, &left, unit, params.work_budget, true);
                work += packed.work;
                let compact = load::finish(items, unit, packed.boxes, params);
                if compact.volume > loaded.volume {
                    loaded = compact;
                }
            }
            cog_kept_out.extend_from_slice(&loaded.dropped);
            if loaded.boxes.is_empty() {
                continue;
            }
            if better(
                &loaded,
                unit,
                best.as_ref().map(|(l, b)| (l, &units[*b])),
                &left,
                params.objective,
            ) {
                best = Some((loaded, u));
            }
        }
        let (loaded, u) = match best {
            Some(b) => b,
            None => {
                for (item, n) in cog_kept_out {
                    cog_dropped[item] += n;
                }
                break;
            }
        };
        for b in &loaded.boxes {
            left[b.item] -= 1;
        }
        for &(item, n) in &loaded.dropped {
            cog_dropped[item] += n;
        }
        used[u] += 1;
        out.push(load::unit_plan(items, &units[u], u, loaded));
    }
    // What is left: the reason it stopped.
    let units_exhausted = (params.max_units > 0 && out.len() as u32 >= params.max_units)
        || units
            .iter()
            .enumerate()
            .all(|(u, t)| t.max_count > 0 && used[u] >= t.max_count);
    for (i, &n) in left.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let it = &items[i];
        let payload_bound = !out.is_empty()
            && out
                .iter()
                .all(|p| p.weight + it.weight > units[p.unit_type].payload);
        let reason = if cog_dropped[i] > 0 {
            Reason::Cog
        } else if payload_bound {
            Reason::Payload
        } else if units_exhausted && out.is_empty() {
            Reason::UnitLimit
        } else if !units_exhausted
            && units
                .iter()
                .enumerate()
                .all(|(u, t)| (t.max_count > 0 && used[u] >= t.max_count) || it.weight > t.payload)
        {
            // Fresh units remain, none of them can carry it.
            Reason::Payload
        } else {
            Reason::NoSpace
        };
        unplaced.push(Unplaced {
            item: i,
            quantity: n,
            reason,
        });
    }
    unplaced.sort_by_key(|u| u.item);
    Ok(Plan {
        units: out,
        unplaced,
        work,
    })
}

/// Whether `a` (in `unit`) beats the best so far under the objective.
fn better(
    a: &load::Loaded,
    unit: &UnitType,
    best: Option<(&load::Loaded, &UnitType)>,
    left: &[u32],
    objective: Objective,
) -> bool {
    let (b, bu) = match best {
        Some(x) => x,
        None => return true,
    };
    let total: u32 = left.iter().sum();
    let all_a = a.boxes.len() as u32 == total;
    let all_b = b.boxes.len() as u32 == total;
    let cheaper = || {
        let va: i64 = unit.inside.iter().product();
        let vb: i64 = bu.inside.iter().product();
        (unit.cost, va) < (bu.cost, vb)
    };
    if all_a && all_b {
        // Both take everything: the cheaper, then the smaller unit.
        return cheaper();
    }
    match objective {
        // The last unit if one can be; else the most volume.
        Objective::FewestUnits if all_a != all_b => all_a,
        Objective::FewestUnits => (a.volume, -unit.cost) > (b.volume, -bu.cost),
        Objective::Cheapest => {
            // Volume per cost, cross-multiplied (a cost of 0 makes a unit free: best).
            let lhs = a.volume as f64 * bu.cost;
            let rhs = b.volume as f64 * unit.cost;
            lhs > rhs
                || (lhs == rhs && (a.volume > b.volume || (a.volume == b.volume && cheaper())))
        }
    }
}
