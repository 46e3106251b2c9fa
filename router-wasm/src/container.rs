//! Reader for the Portolan artifact container (docs/artifact-format.md); the TypeScript writer
//! lives in formats/container.ts and both must change together.

pub const MAGIC: &[u8; 8] = b"PRTLART\0";
pub const CONTAINER_VERSION: u32 = 1;
const NAME_BYTES: usize = 24;
const BUILD_ID_BYTES: usize = 32;
const SECTION_BYTES: usize = NAME_BYTES + 24;

/// A verified container; sections borrow from the input bytes.
pub struct Artifact<'a> {
    pub kind: String,
    pub format_version: u32,
    pub build_id: String,
    pub sections: Vec<(String, &'a [u8])>,
}

impl<'a> Artifact<'a> {
    pub fn section(&self, name: &str) -> Result<&'a [u8], String> {
        self.sections
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| *b)
            .ok_or_else(|| format!("artifact {}: missing section {}", self.kind, name))
    }
}

/// FNV-1a 64, the container's checksum (cheap and dependency-free; sources use sha256 elsewhere).
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.write(bytes);
    h.finish()
}

/// Streaming FNV-1a 64 (the same hash over several slices as over their concatenation).
pub struct Fnv(u64);

impl Fnv {
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    #[inline]
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv::new()
    }
}

const fn pad8(n: usize) -> usize {
    (n + 7) & !7
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn name_at(b: &[u8], at: usize, width: usize) -> String {
    let raw = &b[at..at + width];
    let end = raw.iter().position(|&c| c == 0).unwrap_or(width);
    String::from_utf8_lossy(&raw[..end]).into_owned()
}

/// Reads and verifies a container, refusing a wrong magic, version, kind or checksum with a
/// message that names the file and how to rebuild it.
pub fn decode<'a>(
    bytes: &'a [u8],
    kind: &str,
    format_version: u32,
    path: &str,
) -> Result<Artifact<'a>, String> {
    let fail = |why: String| -> String {
        format!("artifact {}: {}; run `npm run build` (or `bun run data-build/main.ts`) to rebuild the artifacts", path, why)
    };
    if bytes.len() < 64 || &bytes[0..8] != MAGIC {
        return Err(fail("not a Portolan artifact".into()));
    }
    let container = u32_at(bytes, 8);
    if container != CONTAINER_VERSION {
        return Err(fail(format!(
            "container version {}, this build reads {}",
            container, CONTAINER_VERSION
        )));
    }
    let kind_len = u32_at(bytes, 12) as usize;
    let mut p = 16;
    if p + pad8(kind_len) + 8 + BUILD_ID_BYTES > bytes.len() {
        return Err(fail("truncated header".into()));
    }
    let found_kind = String::from_utf8_lossy(&bytes[p..p + kind_len]).into_owned();
    p += pad8(kind_len);
    let found_version = u32_at(bytes, p);
    let count = u32_at(bytes, p + 4) as usize;
    p += 8;
    let build_id = name_at(bytes, p, BUILD_ID_BYTES);
    p += BUILD_ID_BYTES;
    if found_kind != kind {
        return Err(fail(format!(
            "holds \"{}\", expected \"{}\"",
            found_kind, kind
        )));
    }
    if found_version != format_version {
        return Err(fail(format!(
            "format version {}, this build reads version {}",
            found_version, format_version
        )));
    }
    if p + count * SECTION_BYTES + 8 > bytes.len() {
        return Err(fail("truncated section table".into()));
    }
    let mut table = Vec::with_capacity(count);
    for _ in 0..count {
        table.push((
            name_at(bytes, p, NAME_BYTES),
            u64_at(bytes, p + NAME_BYTES) as usize,
            u64_at(bytes, p + NAME_BYTES + 8) as usize,
            u64_at(bytes, p + NAME_BYTES + 16),
        ));
        p += SECTION_BYTES;
    }
    if u64_at(bytes, p) != fnv1a64(&bytes[..p]) {
        return Err(fail("header checksum mismatch".into()));
    }
    let mut sections = Vec::with_capacity(count);
    for (name, offset, length, sum) in table {
        if offset
            .checked_add(length)
            .map_or(true, |end| end > bytes.len())
        {
            return Err(fail(format!("section {} truncated", name)));
        }
        let body = &bytes[offset..offset + length];
        if fnv1a64(body) != sum {
            return Err(fail(format!("section {} checksum mismatch", name)));
        }
        sections.push((name, body));
    }
    Ok(Artifact {
        kind: found_kind,
        format_version: found_version,
        build_id,
        sections,
    })
}

/// Writes a container the way formats/container.ts does (for tests and tools).
pub fn encode(
    kind: &str,
    format_version: u32,
    build_id: &str,
    sections: &[(&str, &[u8])],
) -> Vec<u8> {
    let header_len = pad8(
        8 + 4 + 4 + pad8(kind.len()) + 4 + 4 + BUILD_ID_BYTES + sections.len() * SECTION_BYTES + 8,
    );
    let mut out = vec![0u8; header_len];
    out[0..8].copy_from_slice(MAGIC);
    out[8..12].copy_from_slice(&CONTAINER_VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&(kind.len() as u32).to_le_bytes());
    let mut p = 16;
    out[p..p + kind.len()].copy_from_slice(kind.as_bytes());
    p += pad8(kind.len());
    out[p..p + 4].copy_from_slice(&format_version.to_le_bytes());
    out[p + 4..p + 8].copy_from_slice(&(sections.len() as u32).to_le_bytes());
    p += 8;
    out[p..p + build_id.len()].copy_from_slice(build_id.as_bytes());
    p += BUILD_ID_BYTES;
    for (name, body) in sections {
        let offset = out.len();
        out[p..p + name.len()].copy_from_slice(name.as_bytes());
        out[p + NAME_BYTES..p + NAME_BYTES + 8].copy_from_slice(&(offset as u64).to_le_bytes());
        out[p + NAME_BYTES + 8..p + NAME_BYTES + 16]
            .copy_from_slice(&(body.len() as u64).to_le_bytes());
        out[p + NAME_BYTES + 16..p + NAME_BYTES + 24].copy_from_slice(&fnv1a64(body).to_le_bytes());
        out.extend_from_slice(body);
        out.resize(pad8(out.len()), 0);
        p += SECTION_BYTES;
    }
    let sum = fnv1a64(&out[..p]);
    out[p..p + 8].copy_from_slice(&sum.to_le_bytes());
    out
}

/// A payload version held as decimal digits in a text file that the TypeScript side reads too
/// (formats/graph.version), read at compile time so the writer and the readers share one number.
pub const fn version_from_text(text: &str) -> u32 {
    let b = text.as_bytes();
    let mut i = 0;
    let mut n: u32 = 0;
    while i < b.len() && b[i] != b'\n' {
        assert!(b[i].is_ascii_digit(), "a version file holds decimal digits");
        n = n * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    assert!(i > 0, "a version file holds decimal digits");
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        encode(
            "sea-graph",
            1,
            "b1",
            &[("a", b"hello"), ("b", &[1, 2, 3, 4, 5, 6, 7, 8, 9])],
        )
    }

    #[test]
    fn fnv_matches_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn round_trip() {
        let bytes = sample();
        let a = decode(&bytes, "sea-graph", 1, "x").unwrap();
        assert_eq!(a.build_id, "b1");
        assert_eq!(a.section("a").unwrap(), b"hello");
        assert_eq!(a.section("b").unwrap().len(), 9);
        assert!(a.section("c").is_err());
    }

    #[test]
    fn refuses_mismatches_and_corruption() {
        let bytes = sample();
        let cases: Vec<(Vec<u8>, &str, u32, &str)> = vec![
            (
                b"nonsense".repeat(10),
                "sea-graph",
                1,
                "not a Portolan artifact",
            ),
            (bytes.clone(), "locations", 1, "expected \"locations\""),
            (bytes.clone(), "sea-graph", 2, "format version 1"),
            (
                {
                    let mut b = bytes.clone();
                    let last = b.len() - 8;
                    b[last] ^= 1;
                    b
                },
                "sea-graph",
                1,
                "section b checksum mismatch",
            ),
            (
                {
                    let mut b = bytes.clone();
                    b[40] ^= 1;
                    b
                },
                "sea-graph",
                1,
                "header checksum mismatch",
            ),
            (
                bytes[..bytes.len() - 10].to_vec(),
                "sea-graph",
                1,
                "truncated",
            ),
        ];
        for (input, kind, version, want) in cases {
            let err = decode(&input, kind, version, "data/build/x")
                .err()
                .expect(want);
            assert!(err.contains(want), "{} does not contain {}", err, want);
            assert!(err.contains("data/build/x") && err.contains("npm run build"));
        }
    }
}
