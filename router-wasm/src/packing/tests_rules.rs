//! The rule checker of the packing tests: every physical rule a plan must satisfy, written from
//! the definitions and checked from the placements alone, apart from the code that makes plans.

use super::*;

fn overlap_area(a: &Placement, b: &Placement) -> i64 {
    let dx = (a.pos[0] + a.dims[0]).min(b.pos[0] + b.dims[0]) - a.pos[0].max(b.pos[0]);
    let dy = (a.pos[1] + a.dims[1]).min(b.pos[1] + b.dims[1]) - a.pos[1].max(b.pos[1]);
    if dx > 0 && dy > 0 {
        dx * dy
    } else {
        0
    }
}

/// Every rule a returned plan must satisfy, checked from the placements alone.
pub(super) fn violations(
    items: &[ItemType],
    units: &[UnitType],
    params: &Params,
    plan: &Plan,
) -> Vec<String> {
    let mut out = Vec::new();
    let mut placed = vec![0u32; items.len()];
    for (ui, up) in plan.units.iter().enumerate() {
        let u = &units[up.unit_type];
        let p = &up.placements;
        for (i, a) in p.iter().enumerate() {
            placed[a.item] += 1;
            let it = &items[a.item];
            if it.orientations & (1 << a.orientation) == 0
                || oriented(it.dims, a.orientation as usize) != a.dims
            {
                out.push(format!("unit {} box {}: orientation", ui, i));
            }
            if (0..3).any(|k| a.pos[k] < 0 || a.pos[k] + a.dims[k] > u.inside[k]) {
                out.push(format!("unit {} box {}: outside", ui, i));
            }
            if (u.door[0] > 0 && a.dims[1] > u.door[0]) || (u.door[1] > 0 && a.dims[2] > u.door[1])
            {
                out.push(format!("unit {} box {}: door", ui, i));
            }
            if a.load_order != i as u32 {
                out.push(format!("unit {} box {}: not in load order", ui, i));
            }
            let mut base = 0;
            for (j, b) in p.iter().enumerate() {
                let dz = (a.pos[2] + a.dims[2]).min(b.pos[2] + b.dims[2]) - a.pos[2].max(b.pos[2]);
                if i < j && dz > 0 && overlap_area(a, b) > 0 {
                    out.push(format!("unit {} boxes {} {}: overlap", ui, i, j));
                }
                if b.pos[2] + b.dims[2] == a.pos[2] && overlap_area(a, b) > 0 {
                    base += overlap_area(a, b);
                    if j > i {
                        out.push(format!(
                            "unit {} box {}: loaded before its support {}",
                            ui, i, j
                        ));
                    }
                    if !items[b.item].stackable {
                        out.push(format!(
                            "unit {} box {}: on a box that is not stackable",
                            ui, i
                        ));
                    }
                }
            }
            if a.pos[2] > 0 && base != a.dims[0] * a.dims[1] {
                out.push(format!("unit {} box {}: not fully supported", ui, i));
            }
        }
        // Loads, from the highest box down.
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(p[i].pos[2]));
        let mut on_top = vec![0.0; p.len()];
        for &i in &order {
            let force = items[p[i].item].weight + on_top[i];
            for j in 0..p.len() {
                if p[j].pos[2] + p[j].dims[2] == p[i].pos[2] {
                    on_top[j] += force * overlap_area(&p[i], &p[j]) as f64
                        / (p[i].dims[0] * p[i].dims[1]) as f64;
                }
            }
        }
        for (i, a) in p.iter().enumerate() {
            if on_top[i] > items[a.item].max_load_on_top + 1e-6 {
                out.push(format!("unit {} box {}: {} on top", ui, i, on_top[i]));
            }
        }
        let w: f64 = p.iter().map(|a| items[a.item].weight).sum();
        if w > u.payload + 1e-6 {
            out.push(format!("unit {}: over payload", ui));
        }
        if w > 0.0 {
            let c = |k: usize| {
                p.iter()
                    .map(|a| items[a.item].weight * (a.pos[k] as f64 + a.dims[k] as f64 / 2.0))
                    .sum::<f64>()
                    / w
            };
            if (c(0) - u.inside[0] as f64 / 2.0).abs()
                > params.cog_longitudinal * u.inside[0] as f64 + 1e-6
                || (c(1) - u.inside[1] as f64 / 2.0).abs()
                    > params.cog_lateral * u.inside[1] as f64 + 1e-6
            {
                out.push(format!("unit {}: centre of gravity", ui));
            }
        }
    }
    for x in &plan.unplaced {
        placed[x.item] += x.quantity;
    }
    for (i, it) in items.iter().enumerate() {
        if placed[i] != it.quantity {
            out.push(format!(
                "item {}: {} placed or unplaced of {}",
                i, placed[i], it.quantity
            ));
        }
    }
    out
}
