//! Hierarchy queries: two upward searches with stall-on-demand and goal pruning, meeting at a
//! node or through a top table, and the unpacking of the route into graph arcs.

use super::tables::TopTable;
use super::{Hierarchy, GATED};
use crate::graph::{chord, chord_bound_m};

/// Parent marker of an anchor's link node (`SOURCE - link`).
const SOURCE: u32 = u32::MAX;
/// Heap position of a node not in the queue.
const NOT_QUEUED: u32 = u32::MAX;

/// State of one direction of a hierarchy query. Distances are one array of 8 bytes per node
/// (reset through `touched` between queries) so the labels a query reads stay in cache. The
/// queue is a 4-ary heap with decrease-key (a node is queued at most once), ordered by
/// (distance, rank) as a heap of stale entries would pop them: the same settle order, without
/// the stale pops.
struct Side {
    dist: Vec<f64>,
    /// Goal-pruning bound of each queued node (metres to the other end's snap point, at least),
    /// computed when it is queued, read again when it is settled.
    bound: Vec<f64>,
    /// Index into `q_head` of the upward edge into the node, or `SOURCE - link` for an anchor's
    /// link node.
    parent: Vec<u32>,
    /// Heap slot of each queued node (`NOT_QUEUED` otherwise).
    pos: Vec<u32>,
    touched: Vec<u32>,
    heap: Vec<(u64, u32)>,
}

impl Side {
    fn new(n: usize) -> Side {
        Side {
            dist: vec![f64::INFINITY; n],
            bound: vec![0.0; n],
            parent: vec![SOURCE; n],
            pos: vec![NOT_QUEUED; n],
            touched: Vec::new(),
            heap: Vec::new(),
        }
    }

    fn reset(&mut self) {
        for &v in &self.touched {
            self.dist[v as usize] = f64::INFINITY;
            self.pos[v as usize] = NOT_QUEUED;
        }
        self.touched.clear();
        self.heap.clear();
    }

    #[inline]
    fn set(&mut self, v: u32, d: f64, parent: u32) -> bool {
        let vi = v as usize;
        let old = self.dist[vi];
        if d < old {
            self.dist[vi] = d;
            self.parent[vi] = parent;
            let slot = if self.pos[vi] == NOT_QUEUED {
                if old == f64::INFINITY {
                    self.touched.push(v);
                }
                self.heap.push((d.to_bits(), v));
                self.heap.len() - 1
            } else {
                self.pos[vi] as usize
            };
            self.sift_up(slot, (d.to_bits(), v));
            true
        } else {
            false
        }
    }

    fn sift_up(&mut self, mut i: usize, x: (u64, u32)) {
        while i > 0 {
            let p = (i - 1) / 4;
            let y = self.heap[p];
            if y <= x {
                break;
            }
            self.heap[i] = y;
            self.pos[y.1 as usize] = i as u32;
            i = p;
        }
        self.heap[i] = x;
        self.pos[x.1 as usize] = i as u32;
    }

    /// Removes the queue minimum: (distance bits, node).
    fn pop(&mut self) -> Option<(u64, u32)> {
        let top = *self.heap.first()?;
        self.pos[top.1 as usize] = NOT_QUEUED;
        let last = self.heap.pop().expect("non-empty");
        let n = self.heap.len();
        if n > 0 {
            let mut i = 0;
            loop {
                let c = 4 * i + 1;
                if c >= n {
                    break;
                }
                let mut m = c;
                for k in c + 1..(c + 4).min(n) {
                    if self.heap[k] < self.heap[m] {
                        m = k;
                    }
                }
                if self.heap[m] >= last {
                    break;
                }
                self.heap[i] = self.heap[m];
                self.pos[self.heap[i].1 as usize] = i as u32;
                i = m;
            }
            self.heap[i] = last;
            self.pos[last.1 as usize] = i as u32;
        }
        Some(top)
    }

    #[inline]
    fn top(&self) -> f64 {
        self.heap
            .first()
            .map_or(f64::INFINITY, |&(b, _)| f64::from_bits(b))
    }
}

/// What a hierarchy query found: the cost, and when the graph route beat `best` as given, the
/// arcs and the anchor links it uses.
pub struct ChRoute {
    pub best: f64,
    /// `(arcs, from_link, to_link)` when a graph route beat the given best.
    pub path: Option<(Vec<u32>, usize, usize)>,
    pub settled: u32,
    pub budget_exhausted: bool,
}

/// Where the two searches meet: at a node (a rank), or at two top nodes (table slots) joined by
/// the table.
#[derive(Clone, Copy)]
enum Meet {
    Node(u32),
    Top(u32, u32),
}

/// Both directions' state, kept between queries.
pub struct ChSearch {
    fwd: Side,
    bwd: Side,
    /// Upward edges (`q_edge` indices) that improve their head, while a node is scanned.
    relax: Vec<u32>,
    /// Top nodes (table slots) each side settled, with their labels (forward, backward).
    entries: [Vec<(u32, f64)>; 2],
    /// Most recently used last.
    pub(super) tables: Vec<TopTable>,
    /// Queries per closed mask without a table yet.
    pub(super) counts: Vec<(u32, u32)>,
}

impl ChSearch {
    pub fn new(n: usize) -> ChSearch {
        ChSearch {
            fwd: Side::new(n),
            bwd: Side::new(n),
            relax: Vec::new(),
            entries: [Vec::new(), Vec::new()],
            tables: Vec::new(),
            counts: Vec::new(),
        }
    }

    /// Cheapest route between seeded link nodes (`(node, link cost)` per anchor link), beating
    /// `best` (a route along one edge, or infinity). `ends`: the snap points of the source and
    /// target anchors, for goal pruning; `scale`: the least cost of a metre in the hierarchy's
    /// metric (1 for distance).
    #[allow(clippy::too_many_arguments)]
    pub fn route(
        &mut self,
        h: &Hierarchy,
        from: &[(u32, f64)],
        to: &[(u32, f64)],
        ends: [&[f64; 3]; 2],
        scale: f64,
        closed: u32,
        max_settled: u32,
        mut best: f64,
    ) -> ChRoute {
        assert!(
            self.fwd.dist.len() == h.order.len(),
            "search built for another graph"
        );
        self.fwd.reset();
        self.bwd.reset();
        self.entries[0].clear();
        self.entries[1].clear();
        let table = if h.top > 0 && self.table(h, closed) {
            self.tables.last()
        } else {
            None
        };
        // The ranks the table covers are the top: joined by it, never scanned.
        let (k, base) = table.map_or((0, u32::MAX), |t| (t.index.len() as u32, t.base(h)));
        let mut meet: Option<Meet> = None;
        // Nodes are ranks from here on (see `Hierarchy::derive`).
        // A side's bound is to the other side's end.
        let bound =
            |r: u32, goal: &[f64; 3]| chord_bound_m(chord(&h.q_xyz[r as usize], goal)) * scale;
        for (i, &(v, c)) in from.iter().enumerate() {
            let v = h.rank[v as usize];
            self.fwd.bound[v as usize] = bound(v, ends[1]);
            self.fwd.set(v, c, SOURCE - i as u32);
        }
        for (i, &(v, c)) in to.iter().enumerate() {
            let v = h.rank[v as usize];
            self.bwd.bound[v as usize] = bound(v, ends[0]);
            if self.bwd.set(v, c, SOURCE - i as u32) {
                let f = self.fwd.dist[v as usize];
                if f + c < best {
                    best = f + c;
                    meet = Some(Meet::Node(v));
                }
            }
        }
        let mut out = ChRoute {
            best,
            path: None,
            settled: 0,
            budget_exhausted: false,
        };
        let mut settled = 0u32;
        loop {
            let (tf, tb) = (self.fwd.top(), self.bwd.top());
            // Each side stops once its queue minimum reaches the best meeting.
            let forward = if tf < best && (tf <= tb || tb >= best) {
                true
            } else if tb < best {
                false
            } else {
                break;
            };
            let (side, other) = if forward {
                (&mut self.fwd, &self.bwd)
            } else {
                (&mut self.bwd, &self.fwd)
            };
            let (bits, u) = side.pop().expect("finite top");
            let ui = u as usize;
            let du = f64::from_bits(bits);
            settled += 1;
            if max_settled != 0 && settled > max_settled {
                out.settled = settled;
                out.budget_exhausted = true;
                return out;
            }
            // Goal pruning: every route on from u is at least u's label plus the great circle to
            // the other end's snap point (the bound A* uses), so when that reaches the best
            // route, u cannot lead to a shorter one (best only falls). Exact: the answer is the
            // same route, with a fraction of the settles.
            if du + side.bound[ui] >= best {
                continue;
            }
            if let Some(t) = table.filter(|_| u >= base) {
                // A top rank: not scanned; the table joins it to every top rank the other side
                // reached (a shortest route through the top enters it once on each side).
                let a = t.slot[(u - base) as usize];
                let row = &t.dist[a as usize * k as usize..(a as usize + 1) * k as usize];
                let side_i = usize::from(!forward);
                for &(b, db) in &self.entries[1 - side_i] {
                    let total = du + row[b as usize] + db;
                    if total < best {
                        best = total;
                        meet = Some(if forward {
                            Meet::Top(a, b)
                        } else {
                            Meet::Top(b, a)
                        });
                    }
                }
                self.entries[side_i].push((a, du));
                continue;
            }
            let (first, end) = (h.q_start[ui] as usize, h.q_start[ui + 1] as usize);
            // One pass reads each head's label once: stall on demand (a higher neighbour already
            // reached u cheaper, so no shortest route continues upwards from u's label), else
            // the improvements to apply.
            self.relax.clear();
            let mut stalled = false;
            let edges = h.q_head[first..end].iter().zip(&h.q_len[first..end]);
            for (k, (&head, &len)) in (first as u32..).zip(edges) {
                if head & GATED != 0 && h.q_mask[k as usize] & closed != 0 {
                    continue;
                }
                let dh = side.dist[(head & !GATED) as usize];
                if dh + len < du {
                    stalled = true;
                    break;
                }
                if du + len < dh {
                    self.relax.push(k);
                }
            }
            if stalled {
                continue;
            }
            for &k in &self.relax {
                let head = h.q_head[k as usize] & !GATED;
                let dv = du + h.q_len[k as usize];
                // The same pruning before queueing: a meeting at head would not beat best either.
                let b = bound(head, ends[usize::from(forward)]);
                if dv + b >= best {
                    continue;
                }
                side.bound[head as usize] = b;
                if side.set(head, dv, k) {
                    let total = dv + other.dist[head as usize];
                    if total < best {
                        best = total;
                        meet = Some(Meet::Node(head));
                    }
                }
            }
        }
        out.settled = settled;
        out.best = best;
        if let Some(m) = meet {
            out.path = Some(self.unpack(h, table, m));
        }
        out
    }

    /// The arcs from the source link node through the meeting to the target link node, and
    /// the links.
    fn unpack(&self, h: &Hierarchy, table: Option<&TopTable>, m: Meet) -> (Vec<u32>, usize, usize) {
        let (m, m2) = match m {
            Meet::Node(v) => (v, v),
            Meet::Top(a, b) => {
                let t = table.expect("a top meeting has a table");
                let base = t.base(h);
                (base + t.index[a as usize], base + t.index[b as usize])
            }
        };
        // Parents are upward-edge indices; `q_tail` gives the rank they leave from.
        let mut chain = Vec::new();
        let mut v = m;
        while self.fwd.parent[v as usize] < SOURCE - 1 {
            let k = self.fwd.parent[v as usize];
            chain.push(k);
            v = h.q_tail[k as usize];
        }
        let from_link = (SOURCE - self.fwd.parent[v as usize]) as usize;
        let mut arcs = Vec::new();
        for &k in chain.iter().rev() {
            arcs.extend_from_slice(
                h.arcs(h.q_ov[k as usize], h.order[h.q_tail[k as usize] as usize]),
            );
        }
        if m != m2 {
            // Through the top: first edges from the lower end of what is left, towards the other.
            let t = table.expect("a top meeting has a table");
            let (mut x, mut y) = (m, m2);
            let mut back = Vec::new();
            while x != y {
                let (lo, hi) = if x < y { (x, y) } else { (y, x) };
                let e = t.first_edge(h, lo, hi);
                let up = h.q_head[e] & !GATED;
                if lo == x {
                    arcs.extend_from_slice(h.arcs(h.q_ov[e], h.order[x as usize]));
                    x = up;
                } else {
                    // Walked from `up` down to y, after the rest.
                    back.push((e, up));
                    y = up;
                }
            }
            for &(e, from) in back.iter().rev() {
                arcs.extend_from_slice(h.arcs(h.q_ov[e], h.order[from as usize]));
            }
        }
        let mut v = m2;
        while self.bwd.parent[v as usize] < SOURCE - 1 {
            let k = self.bwd.parent[v as usize];
            arcs.extend_from_slice(h.arcs(h.q_ov[k as usize], h.order[v as usize]));
            v = h.q_tail[k as usize];
        }
        let to_link = (SOURCE - self.bwd.parent[v as usize]) as usize;
        (arcs, from_link, to_link)
    }
}
