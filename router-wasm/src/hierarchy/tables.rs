//! Top tables: distance tables between the highest ranks per frequent closed mask, their sizes,
//! budget and build, and how a search keeps and earns them.

use super::query::ChSearch;
use super::{Hierarchy, GATED};

/// Top ranks with distance tables: at most this many. The sea graph's top is dense: its 1,000
/// highest ranks held half of a long route's settles and most of its edge scans. Natively, over
/// the bench's port pairs: 1,000 ranks cut the search by a third, 1,500 by 45%, 2,000 by half
/// (32 MB a table).
pub const TOP_RANKS: u32 = 1500;
/// Table cells kept per search, all masks together: four tables of `TOP_RANKS` (72 MB). The least
/// recently used tables go first.
const TABLE_BUDGET_TOPS: usize = 4;
/// A closed mask gets its table on its this-many-th query. An earned table covers the top
/// two thirds of `TOP_RANKS` (1,000 ranks, 8 MB): a third of the build time of a full one (25-30
/// ms natively, about 30 ms in router.wasm) and of its memory, for most of its gain. An alternative's
/// closure on the sea graph settles 444 nodes without a table, 300 with a 1,000-rank one and 219
/// with a full one (natively 112, 68 and 42-57 µs a query, bench/router.ts's closures), so the
/// passages alternatives close every day (Malacca, Panama, Bab-el-Mandeb, Dover, Gibraltar) each
/// earn one while a caller's one-off set of avoided passages never pays for one. The router
/// builds the default mask's table, a full one, at load (`ChSearch::prepare`).
pub const TABLE_AFTER: u32 = 500;
/// Closed masks counted towards `TABLE_AFTER` (the counts start over past it).
const MAX_COUNTED: usize = 64;

/// The top size for a graph of `n` nodes: `TOP_RANKS`, or an eighth of a small graph (tests then
/// walk both the search and the tables).
pub fn top_size(n: usize) -> u32 {
    TOP_RANKS.min((n / 8) as u32)
}

/// The top size of a table a mask earned (see `TABLE_AFTER`) when full ones cover `top` ranks.
pub fn earned_top_size(top: u32) -> u32 {
    top * 2 / 3
}

/// Shortest distances between the top ranks for one closed mask.
pub(super) struct TopTable {
    closed: u32,
    /// The hierarchy's top size it was built under (`Hierarchy::top`): tables of another are
    /// dropped, not read (tests change it between queries).
    top: u32,
    /// Each top index's (rank - first top rank) slot in `dist`: top nodes along a Hilbert curve,
    /// so the few a query reaches near one end share cache lines of a row.
    pub(super) slot: Vec<u32>,
    /// The top index of each slot.
    pub(super) index: Vec<u32>,
    /// Row `slot[a]`, column `slot[b]`: metres from top index `a` to `b`; symmetric.
    pub(super) dist: Vec<f64>,
}

impl TopTable {
    /// From the highest rank down: a shortest route from `v` to a higher `w` has an up-down form
    /// (open edges only, for any closed mask: see the module comment) that leaves `v` upwards, so
    /// its length is the least of an open upward edge `v`-`u` plus the distance `u`-`w`, both ends
    /// higher than `v` and known already. One pass over the top's upward edges per row: 70 ms
    /// natively, 70-110 ms in router.wasm, where a Dijkstra from every top node took half a
    /// second. The edge each route starts with is not kept (2 MB more per table): unpacking finds
    /// it again (`TopTable::first_edge`).
    fn build(h: &Hierarchy, closed: u32, k: u32) -> TopTable {
        let n = h.order.len();
        let k = k as usize;
        let base = n - k;
        let mut dist = vec![f64::INFINITY; k * k];
        for v in (0..k).rev() {
            dist[v * k + v] = 0.0;
            let r = base + v;
            let edges = h.q_start[r] as usize..h.q_start[r + 1] as usize;
            for e in edges {
                if h.q_head[e] & GATED != 0 && h.q_mask[e] & closed != 0 {
                    continue;
                }
                let u = (h.q_head[e] & !GATED) as usize - base;
                let len = h.q_len[e];
                let (row, rest) = dist.split_at_mut((v + 1) * k);
                let row = &mut row[v * k + v + 1..];
                let via = &rest[(u - v - 1) * k + v + 1..(u - v) * k];
                relax_row(row, via, len);
            }
            for w in v + 1..k {
                dist[w * k + v] = dist[v * k + w];
            }
        }
        let key = |i: usize| {
            let p = &h.q_xyz[base + i];
            let lat = p[2].clamp(-1.0, 1.0).asin().to_degrees();
            let lng = p[1].atan2(p[0]).to_degrees();
            hilbert(
                ((lng + 180.0) * 180.0) as u32,
                ((lat + 90.0) * 360.0) as u32,
            )
        };
        let mut index: Vec<u32> = (0..k as u32).collect();
        index.sort_by_key(|&i| key(i as usize));
        let mut slot = vec![0u32; k];
        for (s, &i) in index.iter().enumerate() {
            slot[i as usize] = s as u32;
        }
        // In place: a second matrix would double the build's memory peak (and WebAssembly memory
        // never shrinks). Each row's columns through a scratch row, then the rows along their
        // cycles (position j takes the row of index[j]).
        let mut scratch = vec![0.0; k];
        for row in dist.chunks_exact_mut(k) {
            for (b, &d) in row.iter().enumerate() {
                scratch[slot[b] as usize] = d;
            }
            row.copy_from_slice(&scratch);
        }
        let mut placed = vec![false; k];
        for start in 0..k {
            if placed[start] {
                continue;
            }
            scratch.copy_from_slice(&dist[start * k..(start + 1) * k]);
            let mut j = start;
            loop {
                placed[j] = true;
                let from = index[j] as usize;
                if from == start {
                    dist[j * k..(j + 1) * k].copy_from_slice(&scratch);
                    break;
                }
                dist.copy_within(from * k..(from + 1) * k, j * k);
                j = from;
            }
        }
        TopTable {
            closed,
            top: h.top,
            slot,
            index,
            dist,
        }
    }

    /// The first rank the table covers.
    pub(super) fn base(&self, h: &Hierarchy) -> u32 {
        (h.order.len() - self.index.len()) as u32
    }

    /// Metres between top ranks `a` and `b` (`base`: the first top rank).
    fn get(&self, base: u32, a: u32, b: u32) -> f64 {
        let k = self.index.len();
        let (a, b) = (
            self.slot[(a - base) as usize],
            self.slot[(b - base) as usize],
        );
        self.dist[a as usize * k + b as usize]
    }

    /// The upward edge (`q_head` index) a shortest route from top rank `lo` to a higher `hi`
    /// starts with: the first open one whose length plus the table's distance from its head is
    /// the table's distance, the very sum `build` kept (so the same edge it would have recorded).
    pub(super) fn first_edge(&self, h: &Hierarchy, lo: u32, hi: u32) -> usize {
        let base = self.base(h);
        let want = self.get(base, lo, hi);
        (h.q_start[lo as usize] as usize..h.q_start[lo as usize + 1] as usize)
            .find(|&e| {
                let open = h.q_head[e] & GATED == 0 || h.q_mask[e] & self.closed == 0;
                open && h.q_len[e] + self.get(base, h.q_head[e] & !GATED, hi) == want
            })
            .expect("a table route starts with an upward edge")
    }
}

/// `row[i] = min(row[i], len + via[i])`: the table build's inner loop (it reads a whole row
/// of another top node per upward edge: bound by memory reads, about 40 million of them).
fn relax_row(row: &mut [f64], via: &[f64], len: f64) {
    for (d, &du) in row.iter_mut().zip(via) {
        let c = len + du;
        if c < *d {
            *d = c;
        }
    }
}

/// Position of cell (x, y) of a 2^16 x 2^16 grid along a Hilbert curve.
fn hilbert(mut x: u32, mut y: u32) -> u64 {
    let n = 1u32 << 16;
    let (mut d, mut s) = (0u64, n / 2);
    while s > 0 {
        let (rx, ry) = (u32::from(x & s != 0), u32::from(y & s != 0));
        d += u64::from(s) * u64::from(s) * u64::from((3 * rx) ^ ry);
        if ry == 0 {
            if rx == 1 {
                x = n - 1 - x;
                y = n - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        s /= 2;
    }
    d
}

impl ChSearch {
    /// Builds a full top table for `closed` now unless it has one (a smaller one it earned is
    /// replaced).
    pub fn prepare(&mut self, h: &Hierarchy, closed: u32) {
        self.add_table(h, closed, h.top);
    }

    /// Adds a table of the top `k` ranks for `closed` unless it has one as large, dropping the
    /// least recently used ones until all fit in `TABLE_BUDGET_TOPS` full tables' cells.
    fn add_table(&mut self, h: &Hierarchy, closed: u32, k: u32) {
        self.tables.retain(|t| t.top == h.top);
        if let Some(i) = self.tables.iter().position(|t| t.closed == closed) {
            if self.tables[i].index.len() >= k as usize {
                return;
            }
            self.tables.remove(i);
        }
        if k == 0 {
            return;
        }
        let cells = |k: usize| k * k;
        let budget = TABLE_BUDGET_TOPS * cells(h.top as usize);
        let mut used: usize = self.tables.iter().map(|t| cells(t.index.len())).sum();
        while !self.tables.is_empty() && used + cells(k as usize) > budget {
            used -= cells(self.tables.remove(0).index.len());
        }
        self.tables.push(TopTable::build(h, closed, k));
    }

    /// The closed masks with a top table and the ranks each covers, the most recently used last.
    pub fn tables(&self) -> Vec<(u32, u32)> {
        self.tables
            .iter()
            .map(|t| (t.closed, t.index.len() as u32))
            .collect()
    }

    /// The top table for `closed` (the last one), if it has one or has now earned one.
    pub(super) fn table(&mut self, h: &Hierarchy, closed: u32) -> bool {
        self.tables.retain(|t| t.top == h.top);
        if let Some(i) = self.tables.iter().position(|t| t.closed == closed) {
            let t = self.tables.remove(i);
            self.tables.push(t);
            return true;
        }
        let count = match self.counts.iter_mut().find(|c| c.0 == closed) {
            Some(c) => c,
            None => {
                if self.counts.len() == MAX_COUNTED {
                    self.counts.clear();
                }
                self.counts.push((closed, 0));
                self.counts.last_mut().expect("just pushed")
            }
        };
        count.1 += 1;
        if count.1 < TABLE_AFTER {
            return false;
        }
        self.counts.retain(|c| c.0 != closed);
        self.add_table(h, closed, earned_top_size(h.top));
        self.tables.last().map_or(false, |t| t.closed == closed)
    }
}
