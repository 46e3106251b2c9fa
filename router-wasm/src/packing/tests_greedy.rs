//! The greedy step's choices: the space to fill and the block among the largest (docs/loadplan.md,
//! "Greedy step"). A limit on load on top keeps to blocks of one item (no general blocks).

use super::tests::{item, one_unit, solve, unit};
use super::*;

fn weighing(boxes: &[([i64; 3], u32)], orientations: u8) -> Vec<ItemType> {
    boxes
        .iter()
        .map(|&(dims, n)| ItemType {
            orientations,
            weight: 1.0,
            max_load_on_top: 100.0,
            ..item(dims, n)
        })
        .collect()
}

/// One greedy pass.
fn greedy() -> Params {
    Params {
        work_budget: 0,
        ..one_unit()
    }
}

#[test]
fn the_greedy_step_passes_over_a_block_that_leaves_a_gap_no_box_fits() {
    // Unit 100 x 10 x 10. A (92 long) is the largest block but leaves 8, thinner than any box;
    // three B side by side (90) leave 10, which C fills: the whole unit in one greedy pass.
    let items = weighing(
        &[([92, 10, 10], 1), ([30, 10, 10], 3), ([10, 10, 10], 1)],
        0b11_1111,
    );
    let plan = solve(&items, &[unit([100, 10, 10])], &greedy());
    assert_eq!(plan.units[0].volume, 100 * 10 * 10);
    let unplaced: Vec<(usize, u32)> = plan.unplaced.iter().map(|u| (u.item, u.quantity)).collect();
    assert_eq!(unplaced, vec![(0, 1)]);
}

#[test]
fn the_greedy_step_fills_the_lowest_space_first_and_the_tops_meet() {
    // Unit 50 x 20 x 20, boxes as given, cargo of exactly its volume in two layers of 10. Filling
    // the floor before any top lets the second layer stand on tops of one height; taking a space
    // on a top near a corner first loads 16,000 of the 20,000.
    let boxes = [([20, 20, 10], 3), ([10, 20, 10], 2), ([20, 10, 10], 2)];
    let plan = solve(&weighing(&boxes, 0b1), &[unit([50, 20, 20])], &greedy());
    assert_eq!(plan.units[0].volume, 50 * 20 * 20);
    assert!(plan.unplaced.is_empty());
}
