//! One unit: block building over maximal spaces (after Parreno et al. 2008: the lowest space
//! nearest a corner of the unit first, the block anchored at that corner) with a partial-completion
//! tree search
//! (Fanslau and Bortfeldt 2010): at each step the `width` best blocks for the chosen space (the
//! largest, ranked by volume less the room they leave too thin for any box) are tried, each
//! subtree `depth` levels deep and completed greedily, and the step leading to the most loaded
//! volume is kept. Effort doubles run after run (Zhu and Lim 2012) until the work budget is
//! spent; the best complete loading seen anywhere is the answer.

use super::blocks::{self, Block};
use super::general::{self, Move};
use super::load::Loads;
use super::spaces::{self, Space};
use super::{oriented, usable_orientations, ItemType, UnitType};

/// A box of the loading: item index, orientation, corner, placed dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PBox {
    pub item: usize,
    pub orientation: u8,
    pub pos: [i64; 3],
    pub dims: [i64; 3],
}

/// Work counted for a copy of a state or a move applied beyond what it scans: the allocations and
/// copies that cost time whatever the size of the cargo.
const STEP: u64 = 32;

pub struct Packed {
    pub boxes: Vec<PBox>,
    pub work: u64,
}

#[derive(Clone, Copy)]
struct Placed {
    block: u32,
    pos: [i64; 3],
}

#[derive(Clone)]
struct State {
    spaces: Vec<Space>,
    placed: Vec<Placed>,
    avail: Vec<u32>,
    volume: i64,
    weight: f64,
    /// Loads on tops, kept only when some item limits its load on top.
    loads: Option<Loads>,
}

/// What the scan for candidates reads of a move, packed tight (the scan is the hot loop): a
/// simple move's item and count, or `item == GENERAL` (check `Move::need`).
#[derive(Clone, Copy)]
struct Key {
    size: [i32; 3],
    item: u32,
    count: u32,
}

const GENERAL: u32 = u32::MAX;

/// Candidates looked at per candidate kept: the largest moves, ranked by volume less the room
/// they leave too thin for any box.
const RANKED: usize = 3;

struct Ctx<'a> {
    items: &'a [ItemType],
    unit: &'a UnitType,
    blocks: Vec<Block>,
    moves: Vec<Move>,
    keys: Vec<Key>,
    volumes: Vec<i64>,
    min_dim: i64,
    work: u64,
    budget: u64,
    best: Option<State>,
    /// Volume of everything the current tier may load: reaching it ends the search.
    goal: i64,
    cands: Vec<Vec<(u32, [i64; 3])>>,
    /// Anchor everything at the origin corner: the load ends up in one piece against the front
    /// wall and the left side, so moving it along the floor can centre it (centre of gravity).
    compact: bool,
}

/// Packs `avail[i]` boxes of each item into one unit of type `unit`, spending about `budget` work
/// units. Items are loaded by priority tiers (highest first), each tier continuing in the space
/// the previous ones left. `compact`: see [`Ctx::compact`].
pub fn pack_unit(
    items: &[ItemType],
    avail: &[u32],
    unit: &UnitType,
    budget: u64,
    compact: bool,
) -> Packed {
    let usable: Vec<u32> = items
        .iter()
        .zip(avail)
        .map(|(it, &n)| {
            if usable_orientations(it, unit) == 0 {
                0
            } else {
                n
            }
        })
        .collect();
    let mut min_dim = i64::MAX;
    for (it, &n) in items.iter().zip(&usable) {
        if n > 0 {
            let mask = usable_orientations(it, unit);
            for o in (0..6).filter(|o| mask & (1 << o) != 0) {
                min_dim = min_dim.min(*oriented(it.dims, o).iter().min().unwrap_or(&0));
            }
        }
    }
    let weighted = items
        .iter()
        .zip(&usable)
        .any(|(it, &n)| n > 0 && it.max_load_on_top.is_finite());
    let (blocks, generation) = blocks::generate(items, &usable, unit);
    // General moves pay when blocks of one item are small (few boxes per item type); loads on
    // tops are tracked block by block, so only when nothing limits them.
    let types = usable.iter().filter(|&&n| n > 0).count() as u64;
    let pieces: u64 = usable.iter().map(|&n| u64::from(n)).sum();
    let join = !weighted && pieces <= general::MAX_PIECES_PER_TYPE * types;
    let (moves, joining) = general::moves(items, &blocks, &usable, unit, join, blocks::MAX_BLOCKS);
    let mut ctx = Ctx {
        items,
        unit,
        keys: moves
            .iter()
            .map(|m| Key {
                size: [m.size[0] as i32, m.size[1] as i32, m.size[2] as i32],
                item: if m.parts.len() == 1 {
                    m.need[0].0
                } else {
                    GENERAL
                },
                count: m.need[0].1,
            })
            .collect(),
        volumes: moves.iter().map(|m| m.volume).collect(),
        blocks,
        moves,
        min_dim: if min_dim == i64::MAX { 1 } else { min_dim },
        work: generation + joining,
        budget,
        best: None,
        goal: 0,
        cands: Vec::new(),
        compact,
    };
    let mut tiers: Vec<i32> = items
        .iter()
        .zip(&usable)
        .filter(|(_, &n)| n > 0)
        .map(|(it, _)| it.priority)
        .collect();
    tiers.sort_unstable_by(|a, b| b.cmp(a));
    tiers.dedup();
    let mut root = State {
        spaces: vec![Space {
            lo: [0, 0, 0],
            hi: unit.inside,
        }],
        placed: Vec::new(),
        avail: vec![0; items.len()],
        volume: 0,
        weight: 0.0,
        loads: if weighted {
            Some(Loads::default())
        } else {
            None
        },
    };
    let tier_count = tiers.len().max(1) as u64;
    for (t, &p) in tiers.iter().enumerate() {
        for (i, it) in items.iter().enumerate() {
            if it.priority == p {
                root.avail[i] = usable[i];
            }
        }
        ctx.goal = root.volume
            + items
                .iter()
                .zip(&root.avail)
                .map(|(it, &n)| it.dims.iter().product::<i64>() * i64::from(n))
                .sum::<i64>();
        ctx.budget = budget * (t as u64 + 1) / tier_count;
        ctx.best = None;
        ctx.run(&root);
        root = ctx.best.take().unwrap_or(root);
    }
    Packed {
        boxes: ctx.expand(&root),
        work: ctx.work,
    }
}

impl<'a> Ctx<'a> {
    /// Greedy first, then tree searches of doubling effort (width w at depth d: about w^d greedy
    /// completions per step) while the budget lasts.
    fn run(&mut self, root: &State) {
        self.complete(root.clone());
        let mut effort = 2usize;
        let mut tried: Vec<(usize, usize)> = Vec::new();
        while self.work < self.budget && !self.solved() && effort <= 1 << 16 {
            for depth in 1..=3usize {
                let width = (effort as f64).powf(1.0 / depth as f64).round() as usize;
                if width < 2 || tried.contains(&(width, depth)) {
                    continue;
                }
                tried.push((width, depth));
                self.search(root.clone(), width, depth);
                if self.work >= self.budget || self.solved() {
                    return;
                }
            }
            effort *= 2;
        }
    }

    fn solved(&self) -> bool {
        self.best.as_ref().map_or(false, |b| b.volume >= self.goal)
    }

    /// A copy of `s` to try a move on, counted as work like the spaces it copies.
    fn fork(&mut self, s: &State) -> State {
        self.work += STEP + (s.spaces.len() + s.placed.len() + s.avail.len()) as u64 / 2;
        s.clone()
    }

    fn offer(&mut self, s: &State) {
        if self.best.as_ref().map_or(true, |b| s.volume > b.volume) {
            self.best = Some(s.clone());
        }
    }

    /// The space to fill next: the one with the lowest floor, then the one nearest a corner of the
    /// unit (sorted distances to the walls compared lexicographically), then the larger. Compact:
    /// the one nearest the origin corner (sorted coordinates of its corner), then the larger.
    fn select(&mut self, s: &State) -> Option<usize> {
        self.work += s.spaces.len() as u64;
        let l = self.unit.inside;
        let mut best: Option<([i64; 3], i64, usize)> = None;
        for (i, sp) in s.spaces.iter().enumerate() {
            let mut d = if self.compact {
                sp.lo
            } else {
                [
                    sp.lo[0].min(l[0] - sp.hi[0]),
                    sp.lo[1].min(l[1] - sp.hi[1]),
                    sp.lo[2],
                ]
            };
            if self.compact {
                d.sort_unstable();
            } else {
                // The lowest floor first (layer by layer: tops meet at one height more often),
                // then the sorted distances to the walls.
                d[..2].sort_unstable();
                d.rotate_right(1);
            }
            let v = sp.volume();
            let better = match best {
                None => true,
                Some((bd, bv, bi)) => {
                    (d, -v, sp.lo, sp.hi) < (bd, -bv, s.spaces[bi].lo, s.spaces[bi].hi)
                }
            };
            if better {
                best = Some((d, v, i));
            }
        }
        best.map(|b| b.2)
    }

    /// Where `b` goes in `sp`: at the space's floor, in the corner nearest a corner of the unit.
    fn anchor(&self, sp: &Space, size: [i64; 3]) -> [i64; 3] {
        let l = self.unit.inside;
        if self.compact {
            return sp.lo;
        }
        let x = if sp.lo[0] <= l[0] - sp.hi[0] {
            sp.lo[0]
        } else {
            sp.hi[0] - size[0]
        };
        let y = if sp.lo[1] <= l[1] - sp.hi[1] {
            sp.lo[1]
        } else {
            sp.hi[1] - size[1]
        };
        [x, y, sp.lo[2]]
    }

    /// Up to `k` blocks for space `sp`, largest first, into `out`.
    fn candidates(&mut self, s: &State, sp: &Space, k: usize, out: &mut Vec<(u32, [i64; 3])>) {
        out.clear();
        let vol = sp.volume();
        // Blocks are sorted by decreasing volume: skip those larger than the space.
        let start = self.volumes.partition_point(|&v| v > vol);
        let room = self.unit.payload - s.weight;
        let fit = [sp.size(0) as i32, sp.size(1) as i32, sp.size(2) as i32];
        let mut bi = start;
        while bi < self.keys.len() {
            let key = self.keys[bi];
            bi += 1;
            if key.size[0] > fit[0] || key.size[1] > fit[1] || key.size[2] > fit[2] {
                continue;
            }
            let m = &self.moves[bi - 1];
            let enough = if key.item == GENERAL {
                m.need.iter().all(|&(i, n)| s.avail[i as usize] >= n)
            } else {
                s.avail[key.item as usize] >= key.count
            };
            if !enough || m.weight > room + 1e-9 {
                continue;
            }
            let pos = self.anchor(sp, m.size);
            if let Some(loads) = &s.loads {
                self.work += loads.len() as u64 / 8;
                if !loads.fits(self.items, &self.blocks[m.parts[0].0 as usize], pos) {
                    continue;
                }
            }
            out.push(((bi - 1) as u32, pos));
            if out.len() >= k * RANKED {
                break;
            }
        }
        // Half a unit per move looked at: the scan reads packed keys, cheaper than the rest.
        self.work += (bi - start) as u64 / 2;
        let size = |c: &(u32, [i64; 3])| self.moves[c.0 as usize].size;
        out.sort_by_key(|c| std::cmp::Reverse(self.volumes[c.0 as usize] - self.loss(sp, size(c))));
        out.truncate(k);
    }

    /// Room a move of `size` leaves in `sp` too thin for any box: along each axis the gap beside
    /// it, when thinner than the smallest box dimension, over the move's face.
    fn loss(&self, sp: &Space, size: [i64; 3]) -> i64 {
        (0..3)
            .map(|d| {
                let gap = sp.size(d) - size[d];
                if gap > 0 && gap < self.min_dim {
                    gap * size[(d + 1) % 3] * size[(d + 2) % 3]
                } else {
                    0
                }
            })
            .sum()
    }

    fn apply(&mut self, s: &mut State, block: u32, pos: [i64; 3]) {
        let m = &self.moves[block as usize];
        let hi = [pos[0] + m.size[0], pos[1] + m.size[1], pos[2] + m.size[2]];
        // General moves are made of stackable items only.
        let first = &self.blocks[m.parts[0].0 as usize];
        let top = if self.items[first.item].stackable {
            let t = m.top;
            Some([pos[0] + t[0], pos[1] + t[1], pos[0] + t[2], pos[1] + t[3]])
        } else {
            None
        };
        self.work += STEP + spaces::cut(&mut s.spaces, pos, hi, top, self.min_dim);
        for &(i, n) in &m.need {
            s.avail[i as usize] -= n;
        }
        s.volume += m.volume;
        s.weight += m.weight;
        if let Some(loads) = &mut s.loads {
            loads.place(self.items, first, pos);
        }
        s.placed.push(Placed { block, pos });
    }

    /// The next space that takes a block and its `k` best blocks (in `self.cands[level]`), dropping
    /// spaces nothing fits any more. None when the state is complete.
    fn next(&mut self, s: &mut State, k: usize, level: usize) -> Option<()> {
        while self.cands.len() <= level {
            self.cands.push(Vec::new());
        }
        let mut out = std::mem::take(&mut self.cands[level]);
        let found = loop {
            let i = match self.select(s) {
                Some(i) => i,
                None => break None,
            };
            let sp = s.spaces[i];
            self.candidates(s, &sp, k, &mut out);
            if out.is_empty() {
                s.spaces.swap_remove(i);
            } else {
                break Some(());
            }
        };
        self.cands[level] = out;
        found
    }

    /// Greedy completion: always the largest block; offers the result.
    fn complete(&mut self, mut s: State) -> i64 {
        let level = 0;
        while self.next(&mut s, 1, level).is_some() {
            let (b, pos) = self.cands[level][0];
            self.apply(&mut s, b, pos);
        }
        self.offer(&s);
        s.volume
    }

    /// Best completed volume below `s` with `depth` more levels of branching.
    fn evaluate(&mut self, mut s: State, width: usize, depth: usize) -> i64 {
        if depth == 0 {
            return self.complete(s);
        }
        if self.next(&mut s, width, depth).is_none() {
            self.offer(&s);
            return s.volume;
        }
        let cands = self.cands[depth].clone();
        let mut best = s.volume;
        for (b, pos) in cands {
            let mut t = self.fork(&s);
            self.apply(&mut t, b, pos);
            best = best.max(self.evaluate(t, width, depth - 1));
        }
        best
    }

    /// One run of the tree search from `s`: every step keeps the candidate with the best
    /// evaluation (the first on ties).
    fn search(&mut self, mut s: State, width: usize, depth: usize) {
        loop {
            if self.work >= self.budget || self.solved() {
                return;
            }
            if self.next(&mut s, width, depth).is_none() {
                self.offer(&s);
                return;
            }
            let cands = self.cands[depth].clone();
            let mut pick = cands[0];
            if cands.len() > 1 {
                let mut best = -1;
                for &(b, pos) in &cands {
                    let mut t = self.fork(&s);
                    self.apply(&mut t, b, pos);
                    let v = self.evaluate(t, width, depth - 1);
                    if v > best {
                        best = v;
                        pick = (b, pos);
                    }
                }
            }
            self.apply(&mut s, pick.0, pick.1);
        }
    }

    fn expand(&self, s: &State) -> Vec<PBox> {
        let mut out = Vec::new();
        for p in &s.placed {
            for &(part, offset) in &self.moves[p.block as usize].parts {
                let b = &self.blocks[part as usize];
                let corner = [
                    p.pos[0] + offset[0],
                    p.pos[1] + offset[1],
                    p.pos[2] + offset[2],
                ];
                expand_block(b, corner, &mut out);
            }
        }
        out
    }
}

/// The boxes of block `b` with its corner at `pos`, into `out`.
fn expand_block(b: &Block, pos: [i64; 3], out: &mut Vec<PBox>) {
    for k in 0..b.n[2] {
        for j in 0..b.n[1] {
            for i in 0..b.n[0] {
                out.push(PBox {
                    item: b.item,
                    orientation: b.orientation,
                    pos: [
                        pos[0] + i * b.box_dims[0],
                        pos[1] + j * b.box_dims[1],
                        pos[2] + k * b.box_dims[2],
                    ],
                    dims: b.box_dims,
                });
            }
        }
    }
}
