//! Moves: the cuboids the search places. A simple move is one block of identical boxes; a general
//! move (Fanslau and Bortfeldt 2010) joins two moves: side by side along the length or the width
//! when they have the same height, or one standing on the covered top of the other when their
//! footprints nearly match, so strongly heterogeneous cargo (a few boxes per type) still offers
//! large moves. Every part stands on the move's floor or on the covered top of the part below it,
//! so every box keeps full support; the move's top is flat, and `top` is the rectangle of it known
//! to be covered by boxes (what may carry the next move). The room a narrower part leaves is given
//! up; a move keeps at least [`MIN_FILL`] of its cuboid filled and of its top supported.

use super::blocks::Block;
use super::{ItemType, UnitType};
use std::collections::HashSet;

/// Least share of a general move's cuboid its boxes fill, and of its top they support.
pub const MIN_FILL: f64 = 0.96;
/// General moves are made when the cargo has at most this many boxes per item type on average:
/// with more, blocks of one item are large already and joining them costs search without gain
/// (generated Bischoff-Ratcliff cargo, bench/loadplan.ts: a gain with 50 types and more, at most
/// 2.5 boxes per type; none with 40, about 3.2).
pub const MAX_PIECES_PER_TYPE: u64 = 3;

#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    pub size: [i64; 3],
    /// The supported part of the top: x and y from, x and y to, relative to the move's corner.
    pub top: [i64; 4],
    pub volume: i64,
    pub weight: f64,
    /// Simple blocks (indices) and their corners relative to the move's corner.
    pub parts: Vec<(u32, [i64; 3])>,
    /// Boxes used per item, by item index.
    pub need: Vec<(u32, u32)>,
}

impl Move {
    fn simple(index: usize, b: &Block) -> Move {
        Move {
            size: b.size,
            top: [0, 0, b.size[0], b.size[1]],
            volume: b.volume,
            weight: b.weight,
            parts: vec![(index as u32, [0, 0, 0])],
            need: vec![(b.item as u32, b.count)],
        }
    }
}

fn area(r: &[i64; 4]) -> i64 {
    (r[2] - r[0]).max(0) * (r[3] - r[1]).max(0)
}

/// The boxes `a` and `b` need together, when `avail` has them.
fn both_needs(a: &Move, b: &Move, avail: &[u32]) -> Option<Vec<(u32, u32)>> {
    let mut need = a.need.clone();
    for &(item, n) in &b.need {
        match need.iter_mut().find(|(i, _)| *i == item) {
            Some(e) => e.1 += n,
            None => need.push((item, n)),
        }
    }
    if need.iter().any(|&(i, n)| avail[i as usize] < n) {
        return None;
    }
    need.sort_unstable();
    Some(need)
}

/// `b` standing on the covered top of `a` (at its corner), when the pair is one valid move.
fn stack(a: &Move, b: &Move, unit: &UnitType, avail: &[u32]) -> Option<Move> {
    let t = a.top;
    if b.size[0] > t[2] - t[0] || b.size[1] > t[3] - t[1] || a.size[2] + b.size[2] > unit.inside[2]
    {
        return None;
    }
    let size = [a.size[0], a.size[1], a.size[2] + b.size[2]];
    let volume = a.volume + b.volume;
    let footprint = (size[0] * size[1]) as f64;
    if (volume as f64) < MIN_FILL * footprint * size[2] as f64
        || (area(&b.top) as f64) < MIN_FILL * footprint
    {
        return None;
    }
    let need = both_needs(a, b, avail)?;
    let offset = [t[0], t[1], a.size[2]];
    let mut parts = a.parts.clone();
    parts.extend(
        b.parts
            .iter()
            .map(|&(p, o)| (p, [o[0] + offset[0], o[1] + offset[1], o[2] + offset[2]])),
    );
    Some(Move {
        size,
        top: [
            b.top[0] + t[0],
            b.top[1] + t[1],
            b.top[2] + t[0],
            b.top[3] + t[1],
        ],
        volume,
        weight: a.weight + b.weight,
        parts,
        need,
    })
}

/// `b` beside `a` along axis `k` (0 length, 1 width), when the pair is one valid move in `unit`.
fn join(a: &Move, b: &Move, k: usize, unit: &UnitType, avail: &[u32]) -> Option<Move> {
    let j = 1 - k;
    let mut size = a.size;
    size[k] += b.size[k];
    size[j] = size[j].max(b.size[j]);
    if size[k] > unit.inside[k] || size[j] > unit.inside[j] {
        return None;
    }
    let volume = a.volume + b.volume;
    if (volume as f64) < MIN_FILL * (size[0] * size[1] * size[2]) as f64 {
        return None;
    }
    let need = both_needs(a, b, avail)?;
    // The supported top: a's, b's (shifted), or both joined where they meet at the seam.
    let mut shifted = b.top;
    shifted[k] += a.size[k];
    shifted[k + 2] += a.size[k];
    let mut top = if area(&shifted) > area(&a.top) {
        shifted
    } else {
        a.top
    };
    if a.top[k + 2] == a.size[k] && b.top[k] == 0 {
        let mut both = [0; 4];
        both[k] = a.top[k];
        both[k + 2] = shifted[k + 2];
        both[j] = a.top[j].max(b.top[j]);
        both[j + 2] = a.top[j + 2].min(b.top[j + 2]);
        if area(&both) > area(&top) {
            top = both;
        }
    }
    if (area(&top) as f64) < MIN_FILL * (size[0] * size[1]) as f64 {
        return None;
    }
    let mut offset = [0; 3];
    offset[k] = a.size[k];
    let mut parts = a.parts.clone();
    parts.extend(
        b.parts
            .iter()
            .map(|&(p, o)| (p, [o[0] + offset[0], o[1] + offset[1], o[2]])),
    );
    Some(Move {
        size,
        top,
        volume,
        weight: a.weight + b.weight,
        parts,
        need,
    })
}

/// A move's size and boxes: moves alike in both are kept once.
type Shape = ([i64; 3], Vec<(u32, u32)>);

/// The moves of `blocks` (sorted largest first): every simple block and, when `general`, pairs of
/// moves of equal height joined along the length or the width, round after round (a joined move
/// joins again), until `limit` moves; moves with the same size and boxes are kept once. Largest
/// volume first (ties in generation order). Returns the moves and the work spent (pairs looked at).
pub fn moves(
    items: &[ItemType],
    blocks: &[Block],
    avail: &[u32],
    unit: &UnitType,
    general: bool,
    limit: usize,
) -> (Vec<Move>, u64) {
    let mut out: Vec<Move> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| Move::simple(i, b))
        .collect();
    let mut work = out.len() as u64;
    if general {
        let joinable: Vec<bool> = blocks.iter().map(|b| items[b.item].stackable).collect();
        let mut seen: HashSet<Shape> = out.iter().map(|m| (m.size, m.need.clone())).collect();
        let mut from = 0;
        while out.len() < limit && from < out.len() {
            let end = out.len();
            let round = Round {
                from,
                limit,
                unit,
                avail,
            };
            let mut ids: Vec<(i64, usize)> = (0..end)
                .filter(|&i| out[i].parts.iter().all(|p| joinable[p.0 as usize]))
                .map(|i| (out[i].size[2], i))
                .collect();
            ids.sort_unstable();
            let (mut new, w) = round.run(&out, &ids, &mut seen);
            work += w;
            let by_area = {
                let mut v: Vec<(i64, usize)> = ids
                    .iter()
                    .map(|&(_, i)| (out[i].size[0] * out[i].size[1], i))
                    .collect();
                v.sort_unstable();
                v
            };
            let (stacks, w) = round.stacks(&out, &by_area, new.len(), &mut seen);
            work += w;
            new.extend(stacks);
            from = end;
            out.extend(new);
        }
    }
    out.sort_by_key(|m| std::cmp::Reverse(m.volume));
    out.truncate(limit);
    (out, work)
}

/// One round of joining: pairs of equal height with at least one move made since `from`.
struct Round<'a> {
    from: usize,
    limit: usize,
    unit: &'a UnitType,
    avail: &'a [u32],
}

impl<'a> Round<'a> {
    /// Moves stacked on moves of nearly the same footprint; `by_area`: (footprint, move) sorted.
    fn stacks(
        &self,
        out: &[Move],
        by_area: &[(i64, usize)],
        made: usize,
        seen: &mut HashSet<Shape>,
    ) -> (Vec<Move>, u64) {
        let mut new: Vec<Move> = Vec::new();
        let mut work = 0;
        for &(fa, a) in by_area {
            let least = (MIN_FILL * fa as f64).ceil() as i64;
            let first = by_area.partition_point(|x| x.0 < least);
            for &(fb, b) in &by_area[first..] {
                if fb > fa {
                    break;
                }
                if a.max(b) < self.from {
                    continue;
                }
                if out.len() + made + new.len() >= self.limit {
                    return (new, work);
                }
                work += 1;
                if let Some(m) = stack(&out[a], &out[b], self.unit, self.avail) {
                    if seen.insert((m.size, m.need.clone())) {
                        new.push(m);
                    }
                }
            }
        }
        (new, work)
    }

    /// `ids`: (height, move) sorted by height. Returns the new moves and the pairs looked at.
    fn run(
        &self,
        out: &[Move],
        ids: &[(i64, usize)],
        seen: &mut HashSet<Shape>,
    ) -> (Vec<Move>, u64) {
        let mut new: Vec<Move> = Vec::new();
        let mut work = 0;
        let mut g = 0;
        while g < ids.len() {
            let e = g + ids[g..].iter().take_while(|x| x.0 == ids[g].0).count();
            for x in g..e {
                for y in x..e {
                    let (a, b) = (ids[x].1, ids[y].1);
                    if a.max(b) < self.from {
                        continue;
                    }
                    if out.len() + new.len() >= self.limit {
                        return (new, work);
                    }
                    for k in 0..2 {
                        work += 1;
                        if let Some(m) = join(&out[a], &out[b], k, self.unit, self.avail) {
                            if seen.insert((m.size, m.need.clone())) {
                                new.push(m);
                            }
                        }
                    }
                }
            }
            g = e;
        }
        (new, work)
    }
}
