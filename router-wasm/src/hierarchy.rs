//! Contraction hierarchy with gate masks, for distance queries with per-query closures
//! (docs/routing-speed.md). Every node is contracted; every overlay edge (original edge or
//! shortcut) carries the OR of the gate bits of the edges it stands for. Contracting v, the path
//! u-v-w (mask M) needs a shortcut unless a witness path no longer than it uses only gates in M:
//! so for any closed set C, every open path keeps an open representation and the hierarchy is
//! exact for all closure masks, no core needed. A query skips overlay edges whose mask meets the
//! closed mask and runs two upward searches with stall-on-demand, pruned by a great-circle bound
//! to the other end; the highest ranks are not searched but joined through a distance table per
//! frequent closed mask (`TopTable`).
//! Built by the data build (data-build/stages/sea-hierarchy.ts, through `pr_hierarchy_build`).

use crate::container;
use crate::graph::{chord, chord_bound_m, Graph};
use crate::metric::Metric;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The sea graph's hierarchy kind; a graph of kind `x-graph` has hierarchies of kind
/// `x-hierarchy` (`road-hierarchy`, `rail-hierarchy`).
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
    /// `Metric::checksum` of the graph it was built on.
    pub checksum: u64,
    /// What `ov_len` counts: metres, or seconds at one default speed.
    pub metric: Metric,
    pub ov_a: Vec<u32>,
    pub ov_b: Vec<u32>,
    /// Cost in the hierarchy's metric.
    pub ov_len: Vec<f64>,
    /// Original edge id, or `SHORTCUT`.
    pub ov_edge: Vec<u32>,
    /// A shortcut's two halves (overlay ids, both lower than its own), joining the contracted
    /// middle node to `ov_a` and to `ov_b`.
    pub ov_c1: Vec<u32>,
    pub ov_c2: Vec<u32>,
    /// Per node, overlay edges to higher-ranked nodes.
    pub up_start: Vec<u32>,
    pub up_ov: Vec<u32>,
    /// Contraction order of each node (0 = first contracted).
    pub rank: Vec<u32>,
    /// A* settles a distance query tries before the hierarchy (`ASTAR_FIRST_SETTLES`; 0 = none).
    pub astar_first: u32,
    /// How many of the highest ranks form the top whose distance tables replace the search there
    /// (`top_size`; 0 = none).
    pub top: u32,
    // Derived at load, for the query's inner loop: the upward lists indexed by rank, so the
    // upper levels every query walks sit together in memory.
    order: Vec<u32>,
    /// Unit vector of each rank's node: the goal-pruning bound reads it in rank order instead of
    /// through `order` into `Graph::xyz` (two random reads per queued node).
    q_xyz: Vec<[f64; 3]>,
    q_start: Vec<u32>,
    /// Per upward edge, in separate arrays so the query's scan reads 12 bytes per edge: the
    /// head's rank (| `GATED` when the edge has a gate bit), metres, the gate bits.
    q_head: Vec<u32>,
    q_len: Vec<f64>,
    q_mask: Vec<u32>,
    /// Per upward edge: its overlay id and the rank it leaves from (path unpacking only).
    q_ov: Vec<u32>,
    q_tail: Vec<u32>,
    /// Per overlay edge `i`, its graph arcs (CSR arc indices) unpacked once at load:
    /// `arcs_from_a[arcs_start[i]..arcs_start[i + 1]]` walked from `ov_a`, the same slice of
    /// `arcs_from_b` from `ov_b`. A path copies slices instead of walking each shortcut's halves,
    /// one random read per half (606,929 arcs for the sea graph's 190,692 overlay edges: 5 MB).
    arcs_start: Vec<u32>,
    arcs_from_a: Vec<u32>,
    arcs_from_b: Vec<u32>,
}

/// Flag on `q_head`: the edge has gate bits (`q_mask`), so a closed mask may skip it.
const GATED: u32 = 1 << 31;

/// Unpacked arcs per overlay edge a loaded hierarchy may hold on average (the sea graph: 3.2).
const MAX_UNPACKED_PER_EDGE: u64 = 64;

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
    /// priorities updated lazily; edges weigh what `metric` says.
    pub fn build(g: &Graph, metric: Metric) -> Hierarchy {
        let n = g.node_count();
        let weight = metric.weights(g);
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
        for (e, &len) in weight.iter().enumerate() {
            let (a, b) = (g.edge_from[e], g.edge_to[e]);
            if a == b {
                continue;
            }
            let id = c.ov.len() as u32;
            c.ov.push(Work {
                a,
                b,
                len,
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
            checksum: metric.checksum(g),
            metric,
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
        self.q_xyz = self.order.iter().map(|&v| g.xyz[v as usize]).collect();
        self.top = top_size(n);
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
        // Halves come before their shortcut, so each shortcut copies its halves' slices.
        let m = self.ov_a.len();
        let mut start = Vec::with_capacity(m + 1);
        start.push(0u32);
        let (mut from_a, mut from_b) = (Vec::new(), Vec::new());
        for i in 0..m {
            let (a, b) = (self.ov_a[i], self.ov_b[i]);
            match self.ov_edge[i] {
                SHORTCUT => {
                    // `c1` joins the middle node to `a`, `c2` to `b`.
                    let (c1, c2) = (self.ov_c1[i], self.ov_c2[i]);
                    let mid = self.across(c1, a);
                    let half = |c: u32, x: u32| {
                        let c = c as usize;
                        (self.ov_a[c] == x, start[c] as usize..start[c + 1] as usize)
                    };
                    for (to_a, (src_a, r)) in [
                        (true, half(c1, a)),
                        (true, half(c2, mid)),
                        (false, half(c2, b)),
                        (false, half(c1, mid)),
                    ] {
                        match (to_a, src_a) {
                            (true, true) => from_a.extend_from_within(r),
                            (false, false) => from_b.extend_from_within(r),
                            (true, false) => from_a.extend_from_slice(&from_b[r]),
                            (false, true) => from_b.extend_from_slice(&from_a[r]),
                        }
                    }
                }
                e => {
                    from_a.push(arc_from(a, e));
                    from_b.push(arc_from(b, e));
                }
            }
            start.push(from_a.len() as u32);
        }
        self.arcs_start = start;
        self.arcs_from_a = from_a;
        self.arcs_from_b = from_b;
    }

    /// The artifact (`kind`, docs/routing-speed.md): the graph's checksum (and a time metric's
    /// default speed), overlay edges and upward lists.
    pub fn encode(&self, kind: &str, build_id: &str) -> Vec<u8> {
        fn le<T: Copy, const N: usize>(v: &[T], f: fn(T) -> [u8; N]) -> Vec<u8> {
            v.iter().flat_map(|&x| f(x)).collect()
        }
        let mut meta = self.checksum.to_le_bytes().to_vec();
        if let Metric::Time(kmh) = self.metric {
            meta.extend_from_slice(&kmh.to_le_bytes());
        }
        let sections: Vec<(&str, Vec<u8>)> = vec![
            ("ch_meta", meta),
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
        container::encode(kind, FORMAT_VERSION, build_id, &refs)
    }

    /// Reads a hierarchy artifact of `kind` for `g`: refused when built for another graph
    /// (checksum) or when its indices do not fit.
    pub fn decode(g: &Graph, bytes: &[u8], path: &str, kind: &str) -> Result<Hierarchy, String> {
        let a = container::decode(bytes, kind, FORMAT_VERSION, path)?;
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
        let metric = match meta.get(1) {
            None => Some(Metric::Distance),
            Some(&w) => Metric::from_kmh(f64::from_le_bytes(w)).filter(|m| *m != Metric::Distance),
        }
        .filter(|_| meta.len() <= 2)
        .ok_or_else(|| fail("bad ch_meta"))?;
        let own = metric.checksum(g);
        if checksum != own {
            let graph = kind.strip_suffix("-hierarchy").unwrap_or(kind);
            return Err(fail(&format!(
                "hierarchy built for another {} graph (checksum {:016x}, this graph {:016x})",
                graph, checksum, own
            )));
        }
        let mut h = Hierarchy {
            checksum,
            metric,
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
                        let (c1, c2) = (h.ov_c1[i] as usize, h.ov_c2[i] as usize);
                        // Each half joins the middle node to its end (unpacking relies on it).
                        c1 < i
                            && c2 < i
                            && (h.ov_a[c1] == h.ov_a[i] || h.ov_b[c1] == h.ov_a[i])
                            && (h.ov_a[c2] == h.ov_b[i] || h.ov_b[c2] == h.ov_b[i])
                            && h.across(c1 as u32, h.ov_a[i]) == h.across(c2 as u32, h.ov_b[i])
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
        // `derive` unpacks every overlay edge once; a shortcut's length is its halves' sum, so a
        // crafted chain could double it per level.
        let mut arcs = vec![0u64; m];
        for i in 0..m {
            arcs[i] = match h.ov_edge[i] {
                SHORTCUT => arcs[h.ov_c1[i] as usize] + arcs[h.ov_c2[i] as usize],
                _ => 1,
            }
            .min(u64::from(u32::MAX));
        }
        if arcs.iter().sum::<u64>() > MAX_UNPACKED_PER_EDGE * m as u64 {
            return Err(fail("hierarchy shortcuts unpack to too many arcs"));
        }
        h.derive(g);
        Ok(h)
    }

    /// The graph arcs (CSR arc indices) of overlay edge `i` walked from its end `x`.
    #[inline]
    fn arcs(&self, i: u32, x: u32) -> &[u32] {
        let (lo, hi) = (
            self.arcs_start[i as usize] as usize,
            self.arcs_start[i as usize + 1] as usize,
        );
        if self.ov_a[i as usize] == x {
            &self.arcs_from_a[lo..hi]
        } else {
            &self.arcs_from_b[lo..hi]
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
struct TopTable {
    closed: u32,
    /// The hierarchy's top size it was built under (`Hierarchy::top`): tables of another are
    /// dropped, not read (tests change it between queries).
    top: u32,
    /// Each top index's (rank - first top rank) slot in `dist`: top nodes along a Hilbert curve,
    /// so the few a query reaches near one end share cache lines of a row.
    slot: Vec<u32>,
    /// The top index of each slot.
    index: Vec<u32>,
    /// Row `slot[a]`, column `slot[b]`: metres from top index `a` to `b`; symmetric.
    dist: Vec<f64>,
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
    fn base(&self, h: &Hierarchy) -> u32 {
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
    fn first_edge(&self, h: &Hierarchy, lo: u32, hi: u32) -> usize {
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
    tables: Vec<TopTable>,
    /// Queries per closed mask without a table yet.
    counts: Vec<(u32, u32)>,
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
    fn table(&mut self, h: &Hierarchy, closed: u32) -> bool {
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
