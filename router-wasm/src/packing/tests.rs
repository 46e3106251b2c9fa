//! Table tests over tiny hand-made loads. Every plan any test gets is also run through
//! [`violations`], a second implementation of the physical rules written from the definitions.

use super::ffi::{
    baseline_plan, decode, encode, input, lp_input, lp_plan, lp_result_len, lp_result_ptr,
};
use super::tests_rules::violations;
use super::*;

pub(super) fn item(dims: [i64; 3], quantity: u32) -> ItemType {
    ItemType {
        dims,
        quantity,
        orientations: ALL_ORIENTATIONS,
        weight: 0.0,
        stackable: true,
        max_load_on_top: f64::INFINITY,
        priority: 0,
    }
}

pub(super) fn unit(inside: [i64; 3]) -> UnitType {
    UnitType {
        inside,
        door: [0, 0],
        payload: f64::INFINITY,
        cost: 1.0,
        max_count: 0,
    }
}

/// One unit at most, no centre-of-gravity bounds: what a single-unit case needs.
pub(super) fn one_unit() -> Params {
    Params {
        max_units: 1,
        cog_longitudinal: f64::INFINITY,
        cog_lateral: f64::INFINITY,
        work_budget: 200_000,
        ..Params::default()
    }
}

pub(super) fn solve(items: &[ItemType], units: &[UnitType], params: &Params) -> Plan {
    let plan = plan(items, units, params).unwrap();
    let v = violations(items, units, params, &plan);
    assert!(v.is_empty(), "{:?}", v);
    plan
}

struct Case {
    name: &'static str,
    items: Vec<ItemType>,
    unit: UnitType,
    params: Params,
    /// Boxes placed per item.
    placed: Vec<u32>,
    /// Unplaced (item, quantity, reason).
    unplaced: Vec<(usize, u32, Reason)>,
}

fn tall(mut it: ItemType, mask: u8) -> ItemType {
    it.orientations = mask;
    it
}

fn weighing(mut it: ItemType, weight: f64, max_top: f64) -> ItemType {
    it.weight = weight;
    it.max_load_on_top = max_top;
    it
}

#[test]
fn single_unit_table() {
    let not_stackable = ItemType {
        stackable: false,
        ..tall(item([100, 100, 50], 2), THIS_SIDE_UP)
    };
    let cases = vec![
        Case {
            name: "one box",
            items: vec![item([10, 20, 30], 1)],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![1],
            unplaced: vec![],
        },
        Case {
            name: "exact fit: eight cubes fill the unit",
            items: vec![item([50, 50, 50], 8)],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![8],
            unplaced: vec![],
        },
        Case {
            name: "exact fit of two kinds",
            items: vec![item([100, 100, 40], 1), item([100, 50, 60], 2)],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![1, 2],
            unplaced: vec![],
        },
        Case {
            name: "one too many",
            items: vec![item([50, 50, 50], 9)],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![8],
            unplaced: vec![(0, 1, Reason::NoSpace)],
        },
        Case {
            name: "only as given: too long for the unit",
            items: vec![tall(item([200, 10, 10], 1), 0b1)],
            unit: unit([100, 300, 100]),
            params: one_unit(),
            placed: vec![0],
            unplaced: vec![(0, 1, Reason::TooBigForAnyUnit)],
        },
        Case {
            name: "turned on the floor it fits",
            items: vec![tall(item([200, 10, 10], 1), 0b11)],
            unit: unit([100, 300, 100]),
            params: one_unit(),
            placed: vec![1],
            unplaced: vec![],
        },
        Case {
            name: "this side up: too tall upright",
            items: vec![tall(item([10, 10, 60], 1), THIS_SIDE_UP)],
            unit: unit([100, 100, 50]),
            params: one_unit(),
            placed: vec![0],
            unplaced: vec![(0, 1, Reason::TooBigForAnyUnit)],
        },
        Case {
            name: "any orientation: laid down it fits",
            items: vec![item([10, 10, 60], 1)],
            unit: unit([100, 100, 50]),
            params: one_unit(),
            placed: vec![1],
            unplaced: vec![],
        },
        Case {
            name: "this side up: two layers of 2x2 with the height kept",
            items: vec![tall(item([50, 50, 40], 8), THIS_SIDE_UP)],
            unit: unit([100, 100, 90]),
            params: one_unit(),
            placed: vec![8],
            unplaced: vec![],
        },
        Case {
            name: "door lower than the inside: upright does not pass",
            items: vec![tall(item([50, 50, 95], 1), THIS_SIDE_UP)],
            unit: UnitType {
                door: [100, 90],
                ..unit([100, 100, 100])
            },
            params: one_unit(),
            placed: vec![0],
            unplaced: vec![(0, 1, Reason::TooBigForAnyUnit)],
        },
        Case {
            name: "not stackable: only one on the floor",
            items: vec![not_stackable.clone()],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![1],
            unplaced: vec![(0, 1, Reason::NoSpace)],
        },
        Case {
            name: "stackable: both",
            items: vec![tall(item([100, 100, 50], 2), THIS_SIDE_UP)],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![2],
            unplaced: vec![],
        },
        Case {
            name: "max load on top below one box: no stack",
            items: vec![tall(
                weighing(item([100, 100, 50], 2), 10.0, 5.0),
                THIS_SIDE_UP,
            )],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![1],
            unplaced: vec![(0, 1, Reason::NoSpace)],
        },
        Case {
            name: "max load on top of exactly one box: stack of two",
            items: vec![tall(
                weighing(item([100, 100, 50], 2), 10.0, 10.0),
                THIS_SIDE_UP,
            )],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![2],
            unplaced: vec![],
        },
        Case {
            name: "max load on top: a light box may go on a fragile one",
            items: vec![
                tall(weighing(item([100, 100, 50], 1), 10.0, 3.0), THIS_SIDE_UP),
                tall(
                    weighing(item([100, 100, 50], 1), 3.0, f64::INFINITY),
                    THIS_SIDE_UP,
                ),
            ],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![1, 1],
            unplaced: vec![],
        },
        Case {
            name: "payload: two of three",
            items: vec![weighing(item([10, 10, 10], 3), 40.0, f64::INFINITY)],
            unit: UnitType {
                payload: 100.0,
                ..unit([100, 100, 100])
            },
            params: one_unit(),
            placed: vec![2],
            unplaced: vec![(0, 1, Reason::Payload)],
        },
        Case {
            name: "heavier than any payload",
            items: vec![weighing(item([10, 10, 10], 1), 140.0, f64::INFINITY)],
            unit: UnitType {
                payload: 100.0,
                ..unit([100, 100, 100])
            },
            params: one_unit(),
            placed: vec![0],
            unplaced: vec![(0, 1, Reason::TooHeavyForAnyUnit)],
        },
        Case {
            name: "centre of gravity: a heavy half cannot be balanced, the light half stays",
            items: vec![
                tall(
                    weighing(item([500, 100, 100], 1), 1000.0, f64::INFINITY),
                    0b1,
                ),
                tall(item([500, 100, 100], 1), 0b1),
            ],
            unit: unit([1000, 100, 100]),
            params: Params {
                cog_longitudinal: 0.1,
                cog_lateral: 0.05,
                ..one_unit()
            },
            placed: vec![0, 1],
            unplaced: vec![(0, 1, Reason::Cog)],
        },
        Case {
            name: "priority: the high one goes when only one fits",
            items: vec![
                ItemType {
                    priority: 0,
                    ..item([100, 100, 80], 1)
                },
                ItemType {
                    priority: 5,
                    ..item([100, 100, 30], 1)
                },
            ],
            unit: unit([100, 100, 100]),
            params: one_unit(),
            placed: vec![0, 1],
            unplaced: vec![(0, 1, Reason::NoSpace)],
        },
    ];
    for c in cases {
        let units = [c.unit.clone()];
        let plan = plan(&c.items, &units, &c.params).unwrap();
        let v = violations(&c.items, &units, &c.params, &plan);
        assert!(v.is_empty(), "{}: {:?}", c.name, v);
        let mut placed = vec![0u32; c.items.len()];
        for p in plan.units.iter().flat_map(|u| &u.placements) {
            placed[p.item] += 1;
        }
        assert_eq!(placed, c.placed, "{}: placed", c.name);
        let unplaced: Vec<_> = plan
            .unplaced
            .iter()
            .map(|u| (u.item, u.quantity, u.reason))
            .collect();
        assert_eq!(unplaced, c.unplaced, "{}: unplaced", c.name);
    }
}

#[test]
fn the_smaller_box_goes_on_the_larger_never_overhanging() {
    // Both fit only with B on the floor and A on B; A on the floor would leave B half in the air.
    let items = [
        tall(item([60, 100, 50], 1), 0b1),
        tall(item([100, 100, 50], 1), 0b1),
    ];
    let plan = solve(&items, &[unit([100, 100, 100])], &one_unit());
    let p = &plan.units[0].placements;
    assert_eq!(p.len(), 2);
    assert_eq!((p[0].item, p[0].pos[2]), (1, 0));
    assert_eq!((p[1].item, p[1].pos[2]), (0, 50));
}

#[test]
fn a_box_stands_on_two_boxes_of_equal_height_side_by_side() {
    // Unit 100 x 50 x 90, side view:
    //   +-------C-------+  C: 100 x 50 x 50, nothing on it
    //   |   A   |   B   |  A, B: 50 x 50 x 40, one box per type
    //   +-------+-------+
    // C covers A and B together; on the floor it would leave no room above it.
    let c = ItemType {
        stackable: false,
        ..tall(item([100, 50, 50], 1), 0b1)
    };
    let items = [
        tall(item([50, 50, 40], 1), 0b1),
        tall(item([50, 50, 40], 1), 0b1),
        c,
    ];
    let plan = solve(&items, &[unit([100, 50, 90])], &one_unit());
    let p = &plan.units[0].placements;
    assert_eq!(p.len(), 3, "{:?}", plan.unplaced);
    assert_eq!((p[2].item, p[2].pos), (2, [0, 0, 40]));
}

#[test]
fn a_box_stands_on_two_columns_of_different_boxes_and_equal_height() {
    // Unit 100 x 50 x 100, side view:
    //   +-------E-------+  E: 100 x 50 x 10, nothing on it
    //   |   B   |   D   |  B: 50 x 50 x 50 on A (40); D: 50 x 50 x 60 on C (30)
    //   |       +-------+
    //   +-------+   C   |
    //   |   A   |       |
    //   +-------+-------+
    let e = ItemType {
        stackable: false,
        ..tall(item([100, 50, 10], 1), 0b1)
    };
    let items = [
        tall(item([50, 50, 40], 1), 0b1),
        tall(item([50, 50, 50], 1), 0b1),
        tall(item([50, 50, 30], 1), 0b1),
        tall(item([50, 50, 60], 1), 0b1),
        e,
    ];
    let plan = solve(&items, &[unit([100, 50, 100])], &one_unit());
    let p = &plan.units[0].placements;
    assert_eq!(p.len(), 5, "{:?}", plan.unplaced);
    let top = p.iter().find(|b| b.item == 4).unwrap();
    assert_eq!(top.pos, [0, 0, 90]);
}

#[test]
fn a_single_heavy_box_is_moved_to_the_middle() {
    let items = [weighing(item([100, 100, 100], 1), 1000.0, f64::INFINITY)];
    let params = Params {
        max_units: 1,
        ..Params::default()
    };
    let plan = solve(&items, &[unit([1000, 300, 100])], &params);
    let u = &plan.units[0];
    assert_eq!(u.placements[0].pos, [450, 100, 0]);
    assert_eq!(u.cog, [500.0, 150.0, 50.0]);
    assert_eq!(u.weight, 1000.0);
}

#[test]
fn load_order_is_front_to_back_and_bottom_up() {
    let items = [tall(item([50, 100, 50], 4), 0b1)];
    let plan = solve(&items, &[unit([100, 100, 100])], &one_unit());
    let p = &plan.units[0].placements;
    let seq: Vec<[i64; 3]> = p.iter().map(|x| x.pos).collect();
    assert_eq!(seq, vec![[0, 0, 0], [0, 0, 50], [50, 0, 0], [50, 0, 50]]);
    let walls: Vec<u32> = p.iter().map(|x| x.wall).collect();
    assert_eq!(walls, vec![0, 0, 1, 1]);
    assert_eq!(plan.units[0].volume_utilisation, 1.0);
}

#[test]
fn several_units_when_one_is_not_enough() {
    let items = [item([100, 100, 100], 3)];
    let plan = solve(&items, &[unit([100, 100, 100])], &Params::default());
    assert_eq!(plan.units.len(), 3);
    assert!(plan.unplaced.is_empty());
    // Limited availability: the rest has no unit.
    let limited = UnitType {
        max_count: 2,
        ..unit([100, 100, 100])
    };
    let plan = solve(&items, &[limited], &Params::default());
    assert_eq!(plan.units.len(), 2);
    let unplaced: Vec<_> = plan
        .unplaced
        .iter()
        .map(|u| (u.item, u.quantity, u.reason))
        .collect();
    assert_eq!(unplaced, vec![(0, 1, Reason::NoSpace)]);
}

#[test]
fn objective_fewest_units_or_cheapest() {
    // 4 cubes: one big unit (cost 10) takes all, a small one (cost 3) takes 2.
    let items = [item([50, 50, 50], 4)];
    let units = [
        UnitType {
            cost: 10.0,
            ..unit([100, 100, 50])
        },
        UnitType {
            cost: 3.0,
            ..unit([100, 50, 50])
        },
    ];
    let fewest = solve(&items, &units, &Params::default());
    let types: Vec<usize> = fewest.units.iter().map(|u| u.unit_type).collect();
    assert_eq!(types, vec![0]);
    let cheapest = solve(
        &items,
        &units,
        &Params {
            objective: Objective::Cheapest,
            ..Params::default()
        },
    );
    let types: Vec<usize> = cheapest.units.iter().map(|u| u.unit_type).collect();
    assert_eq!(types, vec![1, 1]);
}

#[test]
fn same_input_same_plan() {
    let items = [
        weighing(item([30, 20, 10], 17), 5.0, 40.0),
        weighing(item([25, 25, 25], 9), 12.0, f64::INFINITY),
        ItemType {
            stackable: false,
            ..weighing(item([40, 30, 20], 5), 8.0, 0.0)
        },
    ];
    let units = [unit([120, 80, 70])];
    let params = Params {
        work_budget: 300_000,
        cog_longitudinal: 0.2,
        cog_lateral: 0.1,
        ..Params::default()
    };
    let a = solve(&items, &units, &params);
    let b = solve(&items, &units, &params);
    assert_eq!(a, b);
    assert!(a.work > 0);
}

#[test]
fn more_search_never_loads_less() {
    // A heterogeneous load where the greedy pass leaves room.
    let items = [
        item([37, 23, 19], 20),
        item([41, 29, 13], 20),
        item([17, 31, 27], 20),
    ];
    let units = [unit([120, 90, 80])];
    let greedy = solve(
        &items,
        &units,
        &Params {
            work_budget: 0,
            ..one_unit()
        },
    );
    let searched = solve(&items, &units, &one_unit());
    assert!(searched.units[0].volume >= greedy.units[0].volume);
}

#[test]
fn bad_input_is_refused() {
    let units = [unit([100, 100, 100])];
    let zero = item([0, 10, 10], 1);
    assert!(plan(&[zero], &units, &Params::default()).is_err());
    let none = tall(item([10, 10, 10], 1), 0);
    assert!(plan(&[none], &units, &Params::default()).is_err());
    assert!(plan(&[item([10, 10, 10], 1)], &[], &Params::default()).is_err());
}

#[test]
fn baseline_first_fit_keeps_support() {
    let items = [item([37, 23, 19], 20), item([41, 29, 13], 20)];
    let units = [unit([120, 90, 80])];
    let plan = baseline_plan(&items, &units).unwrap();
    let params = one_unit();
    assert!(violations(&items, &units, &params, &plan).is_empty());
    assert!(!plan.units[0].placements.is_empty());
}

#[test]
fn flat_abi_round_trip() {
    let items = [weighing(item([50, 50, 50], 3), 2.0, f64::INFINITY)];
    let units = [unit([100, 100, 100])];
    let mut buf = vec![
        input::VERSION,
        1.0,
        1.0,
        0.0,
        1000.0,
        f64::INFINITY,
        f64::INFINITY,
        0.0,
    ];
    buf.extend_from_slice(&[50.0, 50.0, 50.0, 3.0, 63.0, 2.0, 1.0, f64::INFINITY, 0.0]);
    buf.extend_from_slice(&[100.0, 100.0, 100.0, 0.0, 0.0, f64::INFINITY, 1.0, 0.0]);
    let (di, du, dp) = decode(&buf).unwrap();
    assert_eq!(di, items);
    assert_eq!(du, units);
    let ptr = lp_input(buf.len());
    unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), ptr, buf.len()) };
    assert_eq!(lp_plan(buf.len()), 0);
    let got = unsafe { std::slice::from_raw_parts(lp_result_ptr(), lp_result_len()) }.to_vec();
    let mut want = Vec::new();
    encode(&plan(&di, &du, &dp).unwrap(), &mut want);
    assert_eq!(got, want);
    assert_eq!(&got[..3], &[1.0, 3.0, 0.0]);
    // A header that does not match its body.
    buf[1] = 2.0;
    assert!(decode(&buf).is_err());
}

#[test]
fn centring_half_a_unit_off_does_not_hop_back_and_forth() {
    // The middle of 1001 is 500.5: a box moved to 450 or 451 is half a unit off either way, outside
    // a bound of 0; the engine must stop moving and take the box out instead.
    let items = [tall(
        weighing(item([100, 100, 100], 1), 10.0, f64::INFINITY),
        0b1,
    )];
    let params = Params {
        cog_longitudinal: 0.0,
        ..one_unit()
    };
    let plan = solve(&items, &[unit([1001, 100, 100])], &params);
    let unplaced: Vec<_> = plan
        .unplaced
        .iter()
        .map(|u| (u.item, u.quantity, u.reason))
        .collect();
    assert_eq!(unplaced, vec![(0, 1, Reason::Cog)]);
}
