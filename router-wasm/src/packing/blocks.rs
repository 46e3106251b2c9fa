//! Blocks: cuboids of nx x ny x nz identical boxes in one orientation, the search's moves. A block
//! is fully supported inside (columns of equal boxes) and its top is one flat face.

use super::{oriented, usable_orientations, ItemType, UnitType};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Block {
    pub item: usize,
    pub orientation: u8,
    pub n: [i64; 3],
    /// One box, as placed.
    pub box_dims: [i64; 3],
    /// The whole block.
    pub size: [i64; 3],
    pub count: u32,
    pub volume: i64,
    pub weight: f64,
}

/// Most blocks kept per unit (the largest by volume): bounds the scan per step.
pub const MAX_BLOCKS: usize = 12_000;

/// Every block of the items with `avail` boxes left that fits `unit`, largest volume first (ties in
/// a fixed order), and the work spent (blocks made, sorted). Columns are only as high as the item's
/// load on top allows ((nz - 1) boxes on the bottom one), one box high for items that are not
/// stackable.
pub fn generate(items: &[ItemType], avail: &[u32], unit: &UnitType) -> (Vec<Block>, u64) {
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let count = avail[i] as i64;
        if count == 0 {
            continue;
        }
        let mask = usable_orientations(it, unit);
        let mut seen: Vec<[i64; 3]> = Vec::new();
        for o in 0..6 {
            if mask & (1 << o) == 0 {
                continue;
            }
            let d = oriented(it.dims, o);
            // Equal dimensions give the same placed box twice: keep one.
            if seen.contains(&d) {
                continue;
            }
            seen.push(d);
            let mut max_z = unit.inside[2] / d[2];
            if !it.stackable {
                max_z = 1;
            } else if it.weight > 0.0 && it.max_load_on_top.is_finite() {
                let carried = (it.max_load_on_top / it.weight + 1e-9).floor() as i64;
                max_z = max_z.min(1 + carried);
            }
            let max_x = unit.inside[0] / d[0];
            let max_y = unit.inside[1] / d[1];
            for nz in 1..=max_z.min(count) {
                for ny in 1..=max_y.min(count / nz) {
                    for nx in 1..=max_x.min(count / (nz * ny)) {
                        let n = [nx, ny, nz];
                        let size = [nx * d[0], ny * d[1], nz * d[2]];
                        let c = (nx * ny * nz) as u32;
                        out.push(Block {
                            item: i,
                            orientation: o as u8,
                            n,
                            box_dims: d,
                            size,
                            count: c,
                            volume: size[0] * size[1] * size[2],
                            weight: it.weight * f64::from(c),
                        });
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| {
        b.volume
            .cmp(&a.volume)
            .then(a.item.cmp(&b.item))
            .then(a.orientation.cmp(&b.orientation))
            .then(a.n.cmp(&b.n))
    });
    let made = out.len() as u64;
    let work = made * (1 + u64::from(64 - made.leading_zeros()));
    out.truncate(MAX_BLOCKS);
    (out, work)
}
