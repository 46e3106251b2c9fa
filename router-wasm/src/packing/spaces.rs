//! Maximal free spaces with supported floors: each space is a box-free cuboid whose whole floor is
//! the unit's floor or the top of one placed block, and no space lies inside another. Placing a
//! block cuts every space it meets into the parts beside it (same floor, so still supported) and
//! the part above it, which keeps only the block's own top as floor (full support).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    pub lo: [i64; 3],
    pub hi: [i64; 3],
}

impl Space {
    pub fn size(&self, k: usize) -> i64 {
        self.hi[k] - self.lo[k]
    }

    pub fn volume(&self) -> i64 {
        self.size(0) * self.size(1) * self.size(2)
    }

    fn contains(&self, o: &Space) -> bool {
        (0..3).all(|k| self.lo[k] <= o.lo[k] && o.hi[k] <= self.hi[k])
    }

    fn meets(&self, lo: &[i64; 3], hi: &[i64; 3]) -> bool {
        (0..3).all(|k| self.lo[k] < hi[k] && lo[k] < self.hi[k])
    }
}

/// Cuts the cuboid `lo..hi` (a move just placed) out of `spaces`; the part above it keeps as floor
/// only `top` (x and y from, x and y to: the part of its top covered by boxes; None when nothing
/// may stand on it). Parts thinner than `min_dim` in any direction are dropped (nothing
/// left fits them). Returns the work done (spaces looked at).
pub fn cut(
    spaces: &mut Vec<Space>,
    lo: [i64; 3],
    hi: [i64; 3],
    top: Option<[i64; 4]>,
    min_dim: i64,
) -> u64 {
    let mut parts: Vec<Space> = Vec::new();
    let mut i = 0;
    let mut work = spaces.len() as u64;
    while i < spaces.len() {
        let s = spaces[i];
        if !s.meets(&lo, &hi) {
            i += 1;
            continue;
        }
        spaces.swap_remove(i);
        for k in 0..2 {
            if lo[k] > s.lo[k] {
                let mut p = s;
                p.hi[k] = lo[k];
                parts.push(p);
            }
            if hi[k] < s.hi[k] {
                let mut p = s;
                p.lo[k] = hi[k];
                parts.push(p);
            }
        }
        // Below the move cannot be free: its base is fully supported by tops at lo[2].
        if let Some(t) = top.filter(|_| hi[2] < s.hi[2]) {
            let p = Space {
                lo: [s.lo[0].max(t[0]), s.lo[1].max(t[1]), hi[2]],
                hi: [s.hi[0].min(t[2]), s.hi[1].min(t[3]), s.hi[2]],
            };
            if p.lo[0] < p.hi[0] && p.lo[1] < p.hi[1] {
                parts.push(p);
            }
        }
    }
    parts.retain(|p| (0..3).all(|k| p.size(k) >= min_dim));
    work += (parts.len() * (parts.len() + spaces.len())) as u64 / 4;
    // Drop parts inside another part or an untouched space (untouched spaces cannot lie inside a
    // part: parts lie inside spaces that were maximal). Equal parts keep the first.
    let mut keep = vec![true; parts.len()];
    for a in 0..parts.len() {
        if spaces.iter().any(|s| s.contains(&parts[a])) {
            keep[a] = false;
            continue;
        }
        for b in 0..parts.len() {
            if a != b && keep[b] && parts[b].contains(&parts[a]) && (parts[a] != parts[b] || b < a)
            {
                keep[a] = false;
                break;
            }
        }
    }
    spaces.extend(parts.iter().zip(&keep).filter(|(_, &k)| k).map(|(p, _)| *p));
    work
}
