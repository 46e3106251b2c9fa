//! Contraction hierarchy with gate masks, for distance queries with per-query closures
//! (docs/routing-speed.md). Every node is contracted; every overlay edge (original edge or
//! shortcut) carries the OR of the gate bits of the edges it stands for. Contracting v, the path
//! u-v-w (mask M) needs a shortcut unless a witness path no longer than it uses only gates in M:
//! so for any closed set C, every open path keeps an open representation and the hierarchy is
//! exact for all closure masks, no core needed. A query skips overlay edges whose mask meets the
//! closed mask and runs two upward searches with stall-on-demand, pruned by a great-circle bound
//! to the other end.
//! Built by the data build (data-build/stages/sea-hierarchy.ts, through `pr_hierarchy_build`).

use crate::container;
use crate::graph::{chord, chord_bound_m, Graph};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

pub const KIND: &str = "sea-hierarchy";
pub const FORMAT_VERSION: u32 = 1;
/// `ov_edge` of a shortcut.
const SHORTCUT: u32 = u32::MAX;
/// Distance queries first run A* with this many settles, then the hierarchy. 0 (the default): the
/// hierarchy answers every query: with goal pruning it beats A* on the median too, and A* loses
/// the mean and the tail, which batch jobs and alternatives pay (docs/routing-speed.md);
/// `pr_hierarchy_astar_first` sets it per graph.
pub const ASTAR_FIRST_SETTLES: u32 = 0;
/// Witness searches give up after this many settles (a missed witness only adds a shortcut).
const WITNESS_SETTLES: usize = 400;

/// Overlay edges (original edges and shortcuts, undirected) and the upward adjacency.
#[derive(Default)]
pub struct Hierarchy {
    /// `Graph::topology_checksum` of the graph it was built on.
    pub checksum: u64,
    pub ov_a: Vec<u32>,
    pub ov_b: Vec<u32>,
    pub ov_len: Vec<f64>,
    /// Original edge id, or `SHORTCUT`.
    pub ov_edge: Vec<u32>,
    /// A shortcut's two halves (overlay ids, both lower than its own), each joining the
    /// contracted middle node to one end.
    pub ov_c1: Vec<u32>,
    pub ov_c2: Vec<u32>,
    /// Per node, overlay edges to higher-ranked nodes.
    pub up_start: Vec<u32>,
    pub up_ov: Vec<u32>,
    /// Contraction order of each node (0 = first contracted).
    pub rank: Vec<u32>,
    /// A* settles a distance query tries before the hierarchy (`ASTAR_FIRST_SETTLES`; 0 = none).
    pub astar_first: u32,
    // Derived at load, for the query's inner loop: the upward lists indexed by rank, so the
    // upper levels every query walks sit together in memory.
    order: Vec<u32>,
    q_start: Vec<u32>,
    /// Per upward edge, in separate arrays so the query's scan reads 12 bytes per edge: the
    /// head's rank (| `GATED` when the edge has a gate bit), metres, the gate bits.
    q_head: Vec<u32>,
    q_len: Vec<f64>,
    q_mask: Vec<u32>,
    /// Per upward edge: its overlay id and the rank it leaves from (path unpacking only).
    q_ov: Vec<u32>,
    q_tail: Vec<u32>,
    /// Per overlay edge that is an original edge: its graph arc leaving `ov_a` and leaving `ov_b`.
    ov_arc: Vec<[u32; 2]>,
}

/// Flag on `q_head`: the edge has gate bits (`q_mask`), so a closed mask may skip it.
const GATED: u32 = 1 << 31;

/// An overlay edge while contracting.
struct Work {
    a: u32,
    b: u32,
    len: f64,
    mask: u32,
    edge: u32,
    c1: u32,
    c2: u32,
}

#[inline]
fn other(w: &Work, v: u32) -> u32 {
    if w.a == v {
        w.b
    } else {
        w.a
    }
}

/// Closed-mask bit of a gate code (0 = no gate).
#[inline]
fn gate_mask(gate: u8) -> u32 {
    if gate == 0 {
        0
    } else {
        1 << (gate - 1)
    }
}

/// Witness search buffers, reused across searches.
struct Scratch {
    dist: Vec<f64>,
    touched: Vec<u32>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Search id per target node, and the current search's id.
    want: Vec<u32>,
    search: u32,
}

/// A shortcut to add: ends, length, mask, the halves (overlay ids) to u and to w.
type Shortcut = (u32, u32, f64, u32, u32, u32);

struct Contraction {
    ov: Vec<Work>,
    adj: Vec<Vec<u32>>,
    done: Vec<bool>,
    scratch: Scratch,
}

impl Contraction {
    /// Bounded Dijkstra from `s` over uncontracted nodes other than `skip`, on overlay edges whose
    /// mask lies within `allowed`: afterwards `scratch.dist` holds what it settled within `limit`.
    /// It stops early once every node of `targets` is settled.
    fn witness(
        &mut self,
        allowed: u32,
        s: u32,
        skip: u32,
        limit: f64,
        targets: impl Iterator<Item = u32>,
    ) {
        let sc = &mut self.scratch;
        sc.search = sc.search.wrapping_add(1);
        let mut left = 0usize;
        for t in targets {
            if sc.want[t as usize] != sc.search {
                sc.want[t as usize] = sc.search;
                left += 1;
            }
        }
        for &v in sc.touched.iter() {
            sc.dist[v as usize] = f64::INFINITY;
        }
        sc.touched.clear();
        sc.heap.clear();
        sc.dist[s as usize] = 0.0;
        sc.touched.push(s);
        sc.heap.push(Reverse((0u64, s)));
        let mut settled = 0;
        while let Some(Reverse((bits, u))) = sc.heap.pop() {
            let du = f64::from_bits(bits);
            if du > sc.dist[u as usize] {
                continue;
            }
            if du > limit || settled >= WITNESS_SETTLES {
                break;
            }
            settled += 1;
            if sc.want[u as usize] == sc.search {
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            for &i in &self.adj[u as usize] {
                let w = &self.ov[i as usize];
                if w.mask & !allowed != 0 {
                    continue;
                }
                let v = other(w, u);
                if v == skip || self.done[v as usize] {
                    continue;
                }
                let dv = du + w.len;
                if dv < sc.dist[v as usize] {
                    if sc.dist[v as usize].is_infinite() {
                        sc.touched.push(v);
                    }
                    sc.dist[v as usize] = dv;
                    sc.heap.push(Reverse((dv.to_bits(), v)));
                }
            }
        }
    }

    /// Shortcuts contracting `v` needs, and its remaining degree.
    fn shortcuts(&mut self, v: u32) -> (Vec<Shortcut>, usize) {
        // The shortest edge to each remaining neighbour per mask (a gated edge and an ungated one
        // to the same neighbour are both needed: closures tell them apart).
        let mut nb: Vec<(u32, u32, f64, u32)> = Vec::new();
        for &i in &self.adj[v as usize] {
            let w = &self.ov[i as usize];
            let u = other(w, v);
            if self.done[u as usize] || u == v {
                continue;
            }
            match nb.iter_mut().find(|x| x.0 == u && x.3 == w.mask) {
                Some(x) if w.len < x.2 => *x = (u, i, w.len, w.mask),
                Some(_) => {}
                None => nb.push((u, i, w.len, w.mask)),
            }
        }
        let mut out = Vec::new();
        // Pairs (index into nb, length, mask) no witness has ruled out yet.
        let mut open: Vec<(usize, f64, u32)> = Vec::new();
        let mut masks: Vec<u32> = Vec::new();
        for k in 0..nb.len() {
            let (u, iu, lu, mu) = nb[k];
            if k + 1 == nb.len() {
                break;
            }
            let limit = nb[k + 1..].iter().map(|x| lu + x.2).fold(0.0, f64::max);
            // Ungated witnesses first: their mask is within every pair's.
            self.witness(0, u, v, limit, nb[k + 1..].iter().map(|x| x.0));
            open.clear();
            for (j, &(w, _, lw, mw)) in nb.iter().enumerate().skip(k + 1) {
                let len = lu + lw;
                if u != w && self.scratch.dist[w as usize] > len {
                    open.push((j, len, mu | mw));
                }
            }
            // Gated pairs may have a witness through their own gates: one search per mask.
            masks.clear();
            for &(_, _, m) in &open {
                if m != 0 && !masks.contains(&m) {
                    masks.push(m);
                }
            }
            for &m in &masks {
                let limit = open
                    .iter()
                    .filter(|x| x.2 == m)
                    .map(|x| x.1)
                    .fold(0.0, f64::max);
                let targets: Vec<u32> = open
                    .iter()
                    .filter(|x| x.2 == m)
                    .map(|x| nb[x.0].0)
                    .collect();
                self.witness(m, u, v, limit, targets.into_iter());
                let dist = &self.scratch.dist;
                open.retain(|&(j, len, mask)| mask != m || dist[nb[j].0 as usize] > len);
            }
            for &(j, len, mask) in &open {
                let (w, iw, _, _) = nb[j];
                out.push((u, w, len, mask, iu, iw));
            }
        }
        (out, nb.len())
    }
}

impl Hierarchy {
    /// Contracts every node, cheapest first by edge difference, contracted neighbours and depth,
    /// priorities updated lazily.
    pub fn build(g: &Graph) -> Hierarchy {
        let n = g.node_count();
        let mut c = Contraction {
            ov: Vec::new(),
            adj: vec![Vec::new(); n],
            done: vec![false; n],
            scratch: Scratch {
                dist: vec![f64::INFINITY; n],
                touched: Vec::new(),
                heap: BinaryHeap::new(),
                want: vec![0; n],
                search: 0,
            },
        };
        for e in 0..g.edge_len.len() {
            let (a, b) = (g.edge_from[e], g.edge_to[e]);
            if a == b {
                continue;
            }
            let id = c.ov.len() as u32;
            c.ov.push(Work {
                a,
                b,
                len: g.edge_len[e],
                mask: gate_mask(g.edge_gate[e]),
                edge: e as u32,
                c1: 0,
                c2: 0,
            });
            c.adj[a as usize].push(id);
            c.adj[b as usize].push(id);
        }
        let mut deleted = vec![0i64; n];
        let mut level = vec![0i64; n];
        // Edge difference, contracted neighbours and depth (the last keeps the hierarchy shallow).
        let priority = |added: usize, degree: usize, deleted: i64, level: i64| -> i64 {
            2 * (added as i64 - degree as i64) + deleted + level
        };
        let mut heap = BinaryHeap::new();
        for v in 0..n as u32 {
            let (added, degree) = c.shortcuts(v);
            heap.push(Reverse((priority(added.len(), degree, 0, 0), v)));
        }
        let mut up: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut rank = vec![0u32; n];
        let mut next_rank = 0u32;
        while let Some(Reverse((p, v))) = heap.pop() {
            if c.done[v as usize] {
                continue;
            }
            // Lazy update: contract only if still no worse than the next candidate.
            let (added, degree) = c.shortcuts(v);
            let now = priority(added.len(), degree, deleted[v as usize], level[v as usize]);
            if now > p && heap.peek().map_or(false, |Reverse((q, _))| now > *q) {
                heap.push(Reverse((now, v)));
                continue;
            }
            // v's remaining edges all lead to uncontracted (higher) nodes: its upward list. They
            // leave the working graph, so witness searches never walk them again.
            let ups = std::mem::take(&mut c.adj[v as usize]);
            c.done[v as usize] = true;
            for &i in &ups {
                let u = other(&c.ov[i as usize], v);
                c.adj[u as usize].retain(|&j| j != i);
                deleted[u as usize] += 1;
                level[u as usize] = level[u as usize].max(level[v as usize] + 1);
            }
            up[v as usize] = ups;
            rank[v as usize] = next_rank;
            next_rank += 1;
            for (u, w, len, mask, iu, iw) in added {
                let id = c.ov.len() as u32;
                c.ov.push(Work {
                    a: u,
                    b: w,
                    len,
                    mask,
                    edge: SHORTCUT,
                    c1: iu,
                    c2: iw,
                });
                // A parallel edge no shorter, usable by fewer queries, is dominated: drop it.
                let ov = &c.ov;
                let dominated = |j: u32| {
                    let x = &ov[j as usize];
                    ((x.a == u && x.b == w) || (x.a == w && x.b == u))
                        && x.len >= len
                        && x.mask & mask == mask
                };
                c.adj[u as usize].retain(|&j| !dominated(j));
                c.adj[w as usize].retain(|&j| !dominated(j));
                c.adj[u as usize].push(id);
                c.adj[w as usize].push(id);
            }
        }
        let mut up_start = vec![0u32; n + 1];
        let mut up_ov = Vec::new();
        for v in 0..n {
            up_ov.extend_from_slice(&up[v]);
            up_start[v + 1] = up_ov.len() as u32;
        }
        let ov = c.ov;
        let mut h = Hierarchy {
            checksum: g.topology_checksum(),
            ov_a: ov.iter().map(|w| w.a).collect(),
            ov_b: ov.iter().map(|w| w.b).collect(),
            ov_len: ov.iter().map(|w| w.len).collect(),
            ov_edge: ov.iter().map(|w| w.edge).collect(),
            ov_c1: ov.iter().map(|w| w.c1).collect(),
            ov_c2: ov.iter().map(|w| w.c2).collect(),
            up_start,
            up_ov,
            rank,
            astar_first: ASTAR_FIRST_SETTLES,
            // The query's arrays: filled by `derive` once the stored fields are in.
            ..Hierarchy::default()
        };
        h.derive(g);
        h
    }

    /// Number of overlay edges (original edges + shortcuts).
    pub fn overlay_count(&self) -> usize {
        self.ov_a.len()
    }

    fn derive(&mut self, g: &Graph) {
        let n = self.up_start.len() - 1;
        // Halves come before their shortcut, so one pass fills every mask.
        let mut mask = vec![0u32; self.ov_a.len()];
        for i in 0..mask.len() {
            mask[i] = match self.ov_edge[i] {
                SHORTCUT => mask[self.ov_c1[i] as usize] | mask[self.ov_c2[i] as usize],
                e => gate_mask(g.edge_gate[e as usize]),
            };
        }
        self.order = vec![0; n];
        for (v, &r) in self.rank.iter().enumerate() {
            self.order[r as usize] = v as u32;
        }
        self.q_start = Vec::with_capacity(n + 1);
        self.q_start.push(0);
        assert!(n < GATED as usize, "too many nodes for a hierarchy");
        let m = self.up_ov.len();
        self.q_head = Vec::with_capacity(m);
        self.q_len = Vec::with_capacity(m);
        self.q_mask = Vec::with_capacity(m);
        self.q_ov = Vec::with_capacity(m);
        self.q_tail = Vec::with_capacity(m);
        for (r, &v) in self.order.iter().enumerate() {
            let v = v as usize;
            for k in self.up_start[v] as usize..self.up_start[v + 1] as usize {
                let i = self.up_ov[k];
                let head = self.rank[self.across(i, v as u32) as usize];
                let m = mask[i as usize];
                self.q_head.push(if m == 0 { head } else { head | GATED });
                self.q_len.push(self.ov_len[i as usize]);
                self.q_mask.push(m);
                self.q_ov.push(i);
                self.q_tail.push(r as u32);
            }
            self.q_start.push(self.q_head.len() as u32);
        }
        // The first arc of the edge leaving each end (what a scan of the end's arcs finds).
        let arc_from = |x: u32, e: u32| {
            let x = x as usize;
            (g.arc_start[x]..g.arc_start[x + 1])
                .find(|&a| g.arc_edge[a as usize] >> 1 == e)
                .expect("edge leaves its endpoint")
        };
        self.ov_arc = (0..self.ov_a.len())
            .map(|i| match self.ov_edge[i] {
                SHORTCUT => [0, 0],
                e => [arc_from(self.ov_a[i], e), arc_from(self.ov_b[i], e)],
            })
            .collect();
    }

    /// The artifact (`KIND`, docs/routing-speed.md): the graph's checksum, overlay edges and
    /// upward lists.
    pub fn encode(&self, build_id: &str) -> Vec<u8> {
        fn le<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
            v.iter().flat_map(|&x| f(x)).collect()
        }
        let sections: Vec<(&str, Vec<u8>)> = vec![
            ("ch_meta", self.checksum.to_le_bytes().to_vec()),
            ("ov_a", le(&self.ov_a, u32::to_le_bytes)),
            ("ov_b", le(&self.ov_b, u32::to_le_bytes)),
            ("ov_len", le(&self.ov_len, f64::to_le_bytes)),
            ("ov_edge", le(&self.ov_edge, u32::to_le_bytes)),
            ("ov_c1", le(&self.ov_c1, u32::to_le_bytes)),
            ("ov_c2", le(&self.ov_c2, u32::to_le_bytes)),
            ("up_start", le(&self.up_start, u32::to_le_bytes)),
            ("up_ov", le(&self.up_ov, u32::to_le_bytes)),
            ("rank", le(&self.rank, u32::to_le_bytes)),
        ];
        let refs: Vec<(&str, &[u8])> = sections.iter().map(|(n, b)| (*n, b.as_slice())).collect();
        container::encode(KIND, FORMAT_VERSION, build_id, &refs)
    }

    /// Reads a hierarchy artifact for `g`: refused when built for another graph (checksum) or
    /// when its indices do not fit.
    pub fn decode(g: &Graph, bytes: &[u8], path: &str) -> Result<Hierarchy, String> {
        let a = container::decode(bytes, KIND, FORMAT_VERSION, path)?;
        let fail = |why: &str| {
            format!(
                "artifact {}: {}; run `npm run build` (or `bun run data-build/main.ts`) to rebuild the artifacts",
                path, why
            )
        };
        fn words<const N: usize>(b: &[u8]) -> Option<Vec<[u8; N]>> {
            if b.len() % N != 0 {
                return None;
            }
            Some(
                b.chunks_exact(N)
                    .map(|c| {
                        let mut w = [0u8; N];
                        w.copy_from_slice(c);
                        w
                    })
                    .collect(),
            )
        }
        let u32s = |name: &str| -> Result<Vec<u32>, String> {
            let w = words::<4>(a.section(name)?).ok_or_else(|| fail("bad section size"))?;
            Ok(w.into_iter().map(u32::from_le_bytes).collect())
        };
        let meta = words::<8>(a.section("ch_meta")?).ok_or_else(|| fail("bad ch_meta"))?;
        let checksum = meta.first().map_or(0, |&w| u64::from_le_bytes(w));
        let own = g.topology_checksum();
        if checksum != own {
            return Err(fail(&format!(
                "hierarchy built for another sea graph (checksum {:016x}, this graph {:016x})",
                checksum, own
            )));
        }
        let mut h = Hierarchy {
            checksum,
            ov_a: u32s("ov_a")?,
            ov_b: u32s("ov_b")?,
            ov_len: words::<8>(a.section("ov_len")?)
                .ok_or_else(|| fail("bad ov_len"))?
                .into_iter()
                .map(f64::from_le_bytes)
                .collect(),
            ov_edge: u32s("ov_edge")?,
            ov_c1: u32s("ov_c1")?,
            ov_c2: u32s("ov_c2")?,
            up_start: u32s("up_start")?,
            up_ov: u32s("up_ov")?,
            rank: u32s("rank")?,
            astar_first: ASTAR_FIRST_SETTLES,
            // The query's arrays: filled by `derive` once the stored fields are in.
            ..Hierarchy::default()
        };
        let (n, m, edges) = (g.node_count(), h.ov_a.len(), g.edge_len.len() as u32);
        let fits = [&h.ov_b, &h.ov_edge, &h.ov_c1, &h.ov_c2]
            .iter()
            .all(|v| v.len() == m)
            && h.ov_len.len() == m
            && h.ov_len.iter().all(|l| *l >= 0.0)
            && h.up_start.len() == n + 1
            && h.up_start[0] == 0
            && h.up_start.windows(2).all(|w| w[0] <= w[1])
            && h.up_start[n] as usize == h.up_ov.len()
            && h.up_ov.iter().all(|&i| (i as usize) < m)
            && h.rank.len() == n
            && {
                // A permutation of 0..n, with every upward edge going up.
                let mut seen = vec![false; n];
                h.rank
                    .iter()
                    .all(|&r| (r as usize) < n && !std::mem::replace(&mut seen[r as usize], true))
            }
            && (0..n).all(|v| {
                (h.up_start[v]..h.up_start[v + 1]).all(|k| {
                    let i = h.up_ov[k as usize] as usize;
                    let (a, b) = (h.ov_a[i] as usize, h.ov_b[i] as usize);
                    (a == v || b == v) && h.rank[a + b - v] > h.rank[v]
                })
            })
            && (0..m).all(|i| {
                (h.ov_a[i] as usize) < n
                    && (h.ov_b[i] as usize) < n
                    && if h.ov_edge[i] == SHORTCUT {
                        (h.ov_c1[i] as usize) < i && (h.ov_c2[i] as usize) < i
                    } else {
                        // An original edge joins its graph edge's ends (its arcs are found
                        // at load).
                        let e = h.ov_edge[i] as usize;
                        e < edges as usize && {
                            let (a, b) = (g.edge_from[e], g.edge_to[e]);
                            (h.ov_a[i], h.ov_b[i]) == (a, b) || (h.ov_a[i], h.ov_b[i]) == (b, a)
                        }
                    }
            });
        if !fits {
            return Err(fail("hierarchy does not fit the graph"));
        }
        h.derive(g);
        Ok(h)
    }

    /// Appends the graph arcs (CSR arc indices) of overlay edge `i` walked from node `x`;
    /// `stack` is scratch (pending halves and the node each is walked from).
    fn unpack(&self, i: u32, x: u32, stack: &mut Vec<(u32, u32)>, out: &mut Vec<u32>) {
        stack.clear();
        stack.push((i, x));
        while let Some((i, x)) = stack.pop() {
            let i = i as usize;
            if self.ov_edge[i] != SHORTCUT {
                out.push(self.ov_arc[i][usize::from(self.ov_a[i] != x)]);
                continue;
            }
            let (c1, c2) = (self.ov_c1[i], self.ov_c2[i]);
            // The half touching x goes first; the middle node is its other end.
            let touches = |c: u32| self.ov_a[c as usize] == x || self.ov_b[c as usize] == x;
            let (first, second) = if touches(c1) { (c1, c2) } else { (c2, c1) };
            stack.push((second, self.across(first, x)));
            stack.push((first, x));
        }
    }

    #[inline]
    fn across(&self, i: u32, v: u32) -> u32 {
        let i = i as usize;
        if self.ov_a[i] == v {
            self.ov_b[i]
        } else {
            self.ov_a[i]
        }
    }
}

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

/// Both directions' state, kept between queries.
pub struct ChSearch {
    fwd: Side,
    bwd: Side,
    /// Upward edges (`q_edge` indices) that improve their head, while a node is scanned.
    relax: Vec<u32>,
}

impl ChSearch {
    pub fn new(n: usize) -> ChSearch {
        ChSearch {
            fwd: Side::new(n),
            bwd: Side::new(n),
            relax: Vec::new(),
        }
    }

    /// Shortest distance route between seeded link nodes (`(node, link metres)` per anchor link),
    /// beating `best` (a route along one edge, or infinity). `ends`: the snap points of the source
    /// and target anchors, for goal pruning.
    #[allow(clippy::too_many_arguments)]
    pub fn route(
        &mut self,
        g: &Graph,
        h: &Hierarchy,
        from: &[(u32, f64)],
        to: &[(u32, f64)],
        ends: [&[f64; 3]; 2],
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
        let mut meet: Option<u32> = None;
        // Nodes are ranks from here on (see `Hierarchy::derive`).
        for (i, &(v, c)) in from.iter().enumerate() {
            self.fwd.set(h.rank[v as usize], c, SOURCE - i as u32);
        }
        for (i, &(v, c)) in to.iter().enumerate() {
            let v = h.rank[v as usize];
            if self.bwd.set(v, c, SOURCE - i as u32) {
                let f = self.fwd.dist[v as usize];
                if f + c < best {
                    best = f + c;
                    meet = Some(v);
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
            let goal = ends[usize::from(forward)];
            if du + chord_bound_m(chord(&g.xyz[h.order[ui] as usize], goal)) >= best {
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
                if dv + chord_bound_m(chord(&g.xyz[h.order[head as usize] as usize], goal)) >= best
                {
                    continue;
                }
                if side.set(head, dv, k) {
                    let total = dv + other.dist[head as usize];
                    if total < best {
                        best = total;
                        meet = Some(head);
                    }
                }
            }
        }
        out.settled = settled;
        out.best = best;
        if let Some(m) = meet {
            out.path = Some(self.unpack(h, m));
        }
        out
    }

    /// The arcs from the source link node through `m` (a rank) to the target link node, and
    /// the links.
    fn unpack(&self, h: &Hierarchy, m: u32) -> (Vec<u32>, usize, usize) {
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
        let mut stack = Vec::new();
        for &k in chain.iter().rev() {
            h.unpack(
                h.q_ov[k as usize],
                h.order[h.q_tail[k as usize] as usize],
                &mut stack,
                &mut arcs,
            );
        }
        let mut v = m;
        while self.bwd.parent[v as usize] < SOURCE - 1 {
            let k = self.bwd.parent[v as usize];
            h.unpack(
                h.q_ov[k as usize],
                h.order[v as usize],
                &mut stack,
                &mut arcs,
            );
            v = h.q_tail[k as usize];
        }
        let to_link = (SOURCE - self.bwd.parent[v as usize]) as usize;
        (arcs, from_link, to_link)
    }
}
