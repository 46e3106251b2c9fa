//! The hierarchy artifact: encoding a [`Hierarchy`] and decoding (and checking) one against its
//! graph.

use super::{Hierarchy, ASTAR_FIRST_SETTLES, FORMAT_VERSION, MAX_UNPACKED_PER_EDGE, SHORTCUT};
use crate::container;
use crate::graph::Graph;
use crate::metric::Metric;

impl Hierarchy {
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
}
