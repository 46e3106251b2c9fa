//! Weight rules of a loading: loads on tops, centre of gravity, load order.
//!
//! Load model: a box presses on the boxes under it with its own weight plus the load on its top,
//! shared among them in proportion to contact area (a fully supported base is covered exactly once,
//! so the shares add up to 1). The load on an item's top is the sum of what the boxes on it pass
//! down; it must not exceed the item's `max_load_on_top`.

use super::blocks::Block;
use super::pack::PBox;
use super::{ItemType, Params, Placement, UnitPlan, UnitType};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

const EPS: f64 = 1e-9;

#[derive(Clone, Copy)]
struct LBox {
    lo: [i64; 3],
    hi: [i64; 3],
    limit: f64,
    load: f64,
    sup_start: u32,
    sup_len: u32,
}

/// Every box placed so far with the load on its top and its supporters (box index, share).
/// Supporters are always placed before what they carry, so indices only point backwards.
#[derive(Clone, Default)]
pub struct Loads {
    boxes: Vec<LBox>,
    sup: Vec<(u32, f64)>,
}

fn overlap(alo: &[i64; 3], ahi: &[i64; 3], blo: &[i64; 3], bhi: &[i64; 3]) -> i64 {
    let dx = ahi[0].min(bhi[0]) - alo[0].max(blo[0]);
    let dy = ahi[1].min(bhi[1]) - alo[1].max(blo[1]);
    if dx > 0 && dy > 0 {
        dx * dy
    } else {
        0
    }
}

impl Loads {
    pub fn len(&self) -> usize {
        self.boxes.len()
    }

    /// Boxes whose tops are at `z` under the rectangle `lo..hi`.
    fn under(&self, lo: [i64; 3], hi: [i64; 3]) -> Vec<usize> {
        (0..self.boxes.len())
            .filter(|&c| {
                let b = &self.boxes[c];
                b.hi[2] == lo[2] && overlap(&b.lo, &b.hi, &lo, &hi) > 0
            })
            .collect()
    }

    /// Extra load on each box when `b` stands at `pos`, or None when a limit would break.
    fn deltas(&self, items: &[ItemType], b: &Block, pos: [i64; 3]) -> Option<Vec<f64>> {
        let mut delta = vec![0.0; self.boxes.len()];
        if pos[2] == 0 {
            return Some(delta);
        }
        let hi = [pos[0] + b.size[0], pos[1] + b.size[1], pos[2]];
        let under = self.under(pos, hi);
        let column = items[b.item].weight * b.n[2] as f64;
        let base = (b.box_dims[0] * b.box_dims[1]) as f64;
        for j in 0..b.n[1] {
            for i in 0..b.n[0] {
                let lo = [
                    pos[0] + i * b.box_dims[0],
                    pos[1] + j * b.box_dims[1],
                    pos[2],
                ];
                let hi = [lo[0] + b.box_dims[0], lo[1] + b.box_dims[1], pos[2]];
                for &c in &under {
                    let a = overlap(&self.boxes[c].lo, &self.boxes[c].hi, &lo, &hi);
                    if a > 0 {
                        delta[c] += column * a as f64 / base;
                    }
                }
            }
        }
        for c in (0..self.boxes.len()).rev() {
            if delta[c] <= 0.0 && !under.contains(&c) {
                continue;
            }
            let x = &self.boxes[c];
            if x.load + delta[c] > x.limit + EPS * (1.0 + x.limit.abs()) {
                return None;
            }
            let d = delta[c];
            for k in x.sup_start..x.sup_start + x.sup_len {
                let (s, share) = self.sup[k as usize];
                delta[s as usize] += d * share;
            }
        }
        Some(delta)
    }

    /// Whether block `b` may stand at `pos` as far as loads on tops go.
    pub fn fits(&self, items: &[ItemType], b: &Block, pos: [i64; 3]) -> bool {
        self.deltas(items, b, pos).is_some()
    }

    /// Records block `b` at `pos` (it fits).
    pub fn place(&mut self, items: &[ItemType], b: &Block, pos: [i64; 3]) {
        if let Some(delta) = self.deltas(items, b, pos) {
            for (x, d) in self.boxes.iter_mut().zip(&delta) {
                x.load += d;
            }
        }
        let it = &items[b.item];
        // Nothing at all may touch the top of an item that is not stackable.
        let limit = if it.stackable {
            it.max_load_on_top
        } else {
            -1.0
        };
        let d = b.box_dims;
        let first = self.boxes.len();
        let base = (d[0] * d[1]) as f64;
        for k in 0..b.n[2] {
            for j in 0..b.n[1] {
                for i in 0..b.n[0] {
                    let lo = [pos[0] + i * d[0], pos[1] + j * d[1], pos[2] + k * d[2]];
                    let hi = [lo[0] + d[0], lo[1] + d[1], lo[2] + d[2]];
                    let sup_start = self.sup.len() as u32;
                    if k > 0 {
                        let below = first + ((k - 1) * b.n[1] * b.n[0] + j * b.n[0] + i) as usize;
                        self.sup.push((below as u32, 1.0));
                    } else if lo[2] > 0 {
                        for c in self.under(lo, hi) {
                            if c < first {
                                let a = overlap(&self.boxes[c].lo, &self.boxes[c].hi, &lo, &hi);
                                self.sup.push((c as u32, a as f64 / base));
                            }
                        }
                    }
                    self.boxes.push(LBox {
                        lo,
                        hi,
                        limit,
                        load: it.weight * (b.n[2] - 1 - k) as f64,
                        sup_start,
                        sup_len: self.sup.len() as u32 - sup_start,
                    });
                }
            }
        }
    }
}

/// A unit's loading after the weight rules: its boxes, what was taken out for the centre of
/// gravity (item, count), loaded volume.
pub struct Loaded {
    pub boxes: Vec<PBox>,
    pub dropped: Vec<(usize, u32)>,
    pub volume: i64,
}

fn cog(items: &[ItemType], boxes: &[PBox]) -> ([f64; 3], f64) {
    let weight: f64 = boxes.iter().map(|b| items[b.item].weight).sum();
    let mut c = [0.0; 3];
    let mut total = 0.0;
    for b in boxes {
        // By weight; by volume when nothing weighs anything.
        let m = if weight > 0.0 {
            items[b.item].weight
        } else {
            (b.dims[0] * b.dims[1] * b.dims[2]) as f64
        };
        for (k, ck) in c.iter_mut().enumerate() {
            *ck += m * (b.pos[k] as f64 + b.dims[k] as f64 / 2.0);
        }
        total += m;
    }
    if total > 0.0 {
        for ck in &mut c {
            *ck /= total;
        }
    }
    (c, weight)
}

/// How far the centre of gravity lies outside the bounds, as fractions of length and width.
fn cog_excess(c: [f64; 3], unit: &UnitType, p: &Params) -> f64 {
    let l = unit.inside[0] as f64;
    let w = unit.inside[1] as f64;
    let ex = ((c[0] - l / 2.0).abs() / l - p.cog_longitudinal).max(0.0);
    let ey = ((c[1] - w / 2.0).abs() / w - p.cog_lateral).max(0.0);
    if ex <= EPS && ey <= EPS {
        0.0
    } else {
        ex + ey
    }
}

/// Whether anything stands on box `i`.
fn carries(boxes: &[PBox], i: usize) -> bool {
    let a = &boxes[i];
    let top = a.pos[2] + a.dims[2];
    let ahi = [a.pos[0] + a.dims[0], a.pos[1] + a.dims[1], top];
    boxes.iter().any(|b| {
        b.pos[2] == top
            && overlap(
                &a.pos,
                &ahi,
                &b.pos,
                &[b.pos[0] + b.dims[0], b.pos[1] + b.dims[1], 0],
            ) > 0
    })
}

/// Brings the centre of gravity within bounds: first by moving the whole load along the floor
/// (which keeps every support and load), then by taking out, one at a time, the box with nothing on
/// top whose removal helps most. Weightless loads are not checked.
fn balance(
    items: &[ItemType],
    unit: &UnitType,
    boxes: &mut Vec<PBox>,
    p: &Params,
) -> Vec<(usize, u32)> {
    let mut dropped: Vec<(usize, u32)> = Vec::new();
    // One move per change of the load: moving again could only hop around the middle.
    let mut moved = false;
    loop {
        let (c, weight) = cog(items, boxes);
        if weight <= 0.0 || cog_excess(c, unit, p) == 0.0 {
            break;
        }
        // Shift within the free margins towards the middle.
        let mut shift = [0i64; 2];
        for (k, s) in shift.iter_mut().enumerate().filter(|_| !moved) {
            let lo = boxes.iter().map(|b| b.pos[k]).min().unwrap_or(0);
            let hi = boxes
                .iter()
                .map(|b| b.pos[k] + b.dims[k])
                .max()
                .unwrap_or(0);
            let want = (unit.inside[k] as f64 / 2.0 - c[k]).round() as i64;
            *s = want.max(-lo).min(unit.inside[k] - hi);
        }
        if shift != [0, 0] {
            moved = true;
            for b in boxes.iter_mut() {
                b.pos[0] += shift[0];
                b.pos[1] += shift[1];
            }
            continue;
        }
        let mut pick: Option<(f64, usize)> = None;
        for i in 0..boxes.len() {
            let m = items[boxes[i].item].weight;
            if m <= 0.0 || carries(boxes, i) {
                continue;
            }
            // The centre without box i (a weightless rest is not checked).
            let mut c2 = c;
            for (k, ck) in c2.iter_mut().enumerate() {
                let at = boxes[i].pos[k] as f64 + boxes[i].dims[k] as f64 / 2.0;
                *ck = (c[k] * weight - m * at) / (weight - m).max(EPS);
            }
            let e = if weight - m <= EPS {
                0.0
            } else {
                cog_excess(c2, unit, p)
            };
            if pick.map_or(true, |(be, _)| e < be) {
                pick = Some((e, i));
            }
        }
        // Weightless boxes on top of every weighted one: take one off first (it changes nothing).
        let i = match pick
            .map(|x| x.1)
            .or_else(|| (0..boxes.len()).find(|&i| !carries(boxes, i)))
        {
            Some(i) => i,
            None => break,
        };
        let item = boxes.remove(i).item;
        moved = false;
        match dropped.iter_mut().find(|d| d.0 == item) {
            Some(d) => d.1 += 1,
            None => dropped.push((item, 1)),
        }
    }
    dropped
}

/// The weight rules a unit's packing still needs after the search: centre of gravity, then the
/// load order (wall by wall from the front; each box after the boxes it stands on).
pub fn finish(items: &[ItemType], unit: &UnitType, mut boxes: Vec<PBox>, p: &Params) -> Loaded {
    let dropped = balance(items, unit, &mut boxes, p);
    let boxes = load_order(boxes);
    let volume = boxes
        .iter()
        .map(|b| b.dims[0] * b.dims[1] * b.dims[2])
        .sum();
    Loaded {
        boxes,
        dropped,
        volume,
    }
}

/// Sort key of the load order: x, z, y of the corner.
type Key = (i64, i64, i64);

/// Boxes in loading sequence: front to back, bottom to top, left to right, each after every box
/// it stands on (a topological order of the support relation, smallest (x, z, y) first).
fn load_order(boxes: Vec<PBox>) -> Vec<PBox> {
    let n = boxes.len();
    let mut waiting = vec![0usize; n];
    let mut carried: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, a) in boxes.iter().enumerate() {
        let top = a.pos[2] + a.dims[2];
        let ahi = [a.pos[0] + a.dims[0], a.pos[1] + a.dims[1], 0];
        for (j, b) in boxes.iter().enumerate() {
            let bhi = [b.pos[0] + b.dims[0], b.pos[1] + b.dims[1], 0];
            if b.pos[2] == top && overlap(&a.pos, &ahi, &b.pos, &bhi) > 0 {
                carried[i].push(j);
                waiting[j] += 1;
            }
        }
    }
    let key = |b: &PBox| (b.pos[0], b.pos[2], b.pos[1]);
    let mut ready: BinaryHeap<Reverse<(Key, usize)>> = (0..n)
        .filter(|&i| waiting[i] == 0)
        .map(|i| Reverse((key(&boxes[i]), i)))
        .collect();
    let mut out = Vec::with_capacity(n);
    while let Some(Reverse((_, i))) = ready.pop() {
        out.push(boxes[i]);
        for &j in &carried[i] {
            waiting[j] -= 1;
            if waiting[j] == 0 {
                ready.push(Reverse((key(&boxes[j]), j)));
            }
        }
    }
    out
}

/// The report of one unit (boxes already in load order). A wall is a run of the sequence; a new
/// one starts when a box lies wholly behind the shallowest box of the current wall.
pub fn unit_plan(items: &[ItemType], unit: &UnitType, unit_type: usize, l: Loaded) -> UnitPlan {
    let (c, weight) = cog(items, &l.boxes);
    let mut wall = 0u32;
    let mut wall_end = i64::MAX;
    let placements = l
        .boxes
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if b.pos[0] >= wall_end {
                wall += 1;
                wall_end = i64::MAX;
            }
            wall_end = wall_end.min(b.pos[0] + b.dims[0]);
            Placement {
                item: b.item,
                orientation: b.orientation,
                pos: b.pos,
                dims: b.dims,
                load_order: i as u32,
                wall,
            }
        })
        .collect();
    let inside: i64 = unit.inside.iter().product();
    UnitPlan {
        unit_type,
        placements,
        volume: l.volume,
        weight,
        cog: c,
        volume_utilisation: l.volume as f64 / inside as f64,
        weight_utilisation: if unit.payload.is_finite() && unit.payload > 0.0 {
            weight / unit.payload
        } else {
            0.0
        },
    }
}
