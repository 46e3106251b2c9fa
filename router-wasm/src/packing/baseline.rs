//! The benchmark's baseline: first fit, one box at a time, largest volume first, each at the first
//! extreme point in back-bottom-left order (smallest x, then z, then y) where some allowed
//! orientation fits, fully supported. No weights, one unit.

use super::pack::PBox;
use super::{oriented, usable_orientations, ItemType, UnitType};

fn free(placed: &[PBox], lo: [i64; 3], d: [i64; 3]) -> bool {
    placed
        .iter()
        .rev()
        .all(|b| (0..3).any(|k| lo[k] >= b.pos[k] + b.dims[k] || b.pos[k] >= lo[k] + d[k]))
}

fn supported(placed: &[PBox], lo: [i64; 3], d: [i64; 3]) -> bool {
    if lo[2] == 0 {
        return true;
    }
    let mut area = 0;
    for b in placed {
        if b.pos[2] + b.dims[2] != lo[2] {
            continue;
        }
        let dx = (lo[0] + d[0]).min(b.pos[0] + b.dims[0]) - lo[0].max(b.pos[0]);
        let dy = (lo[1] + d[1]).min(b.pos[1] + b.dims[1]) - lo[1].max(b.pos[1]);
        if dx > 0 && dy > 0 {
            area += dx * dy;
        }
    }
    // Boxes do not overlap, so the contact areas add up to the base exactly when it is covered.
    area == d[0] * d[1]
}

/// First-fit loading of one unit of `unit` with every item's quantity.
pub fn first_fit(items: &[ItemType], unit: &UnitType) -> Vec<PBox> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (-items[i].dims.iter().product::<i64>(), i));
    let mut placed: Vec<PBox> = Vec::new();
    let mut points: Vec<[i64; 3]> = vec![[0, 0, 0]];
    let key = |p: &[i64; 3]| (p[0], p[2], p[1]);
    for i in order {
        let mask = usable_orientations(&items[i], unit);
        // An identical box that found no place fails again until something new is placed.
        let mut failed_at = usize::MAX;
        for _ in 0..items[i].quantity {
            if failed_at == placed.len() {
                break;
            }
            let mut hit = None;
            'points: for p in &points {
                for o in (0..6).filter(|o| mask & (1 << o) != 0) {
                    let d = oriented(items[i].dims, o);
                    if (0..3).all(|k| p[k] + d[k] <= unit.inside[k])
                        && free(&placed, *p, d)
                        && supported(&placed, *p, d)
                    {
                        hit = Some((*p, o, d));
                        break 'points;
                    }
                }
            }
            let (p, o, d) = match hit {
                Some(h) => h,
                None => {
                    failed_at = placed.len();
                    continue;
                }
            };
            placed.push(PBox {
                item: i,
                orientation: o as u8,
                pos: p,
                dims: d,
            });
            // Points now inside a box are gone for good.
            points.retain(|q| free(&placed[placed.len() - 1..], *q, [1, 1, 1]));
            for q in [
                [p[0] + d[0], p[1], p[2]],
                [p[0], p[1] + d[1], p[2]],
                [p[0], p[1], p[2] + d[2]],
            ] {
                if (0..3).all(|k| q[k] < unit.inside[k]) && !points.contains(&q) {
                    let at = points.partition_point(|x| key(x) < key(&q));
                    points.insert(at, q);
                }
            }
        }
    }
    placed
}
