//! The greedy step's choice among the largest blocks (docs/loadplan.md, "Greedy step").

use super::tests::{item, one_unit, solve, unit};
use super::*;

#[test]
fn the_greedy_step_passes_over_a_block_that_leaves_a_gap_no_box_fits() {
    // Unit 100 x 10 x 10. A (92 long) is the largest block but leaves 8, thinner than any box;
    // three B side by side (90) leave 10, which C fills: the whole unit in one greedy pass. A
    // limit on load on top keeps to blocks of one item (no general blocks).
    let items: Vec<ItemType> = [([92, 10, 10], 1), ([30, 10, 10], 3), ([10, 10, 10], 1)]
        .iter()
        .map(|&(dims, n)| ItemType {
            weight: 1.0,
            max_load_on_top: 100.0,
            ..item(dims, n)
        })
        .collect();
    let params = Params {
        work_budget: 0,
        ..one_unit()
    };
    let plan = solve(&items, &[unit([100, 10, 10])], &params);
    assert_eq!(plan.units[0].volume, 100 * 10 * 10);
    let unplaced: Vec<(usize, u32)> = plan.unplaced.iter().map(|u| (u.item, u.quantity)).collect();
    assert_eq!(unplaced, vec![(0, 1)]);
}
