//! A path's JSON text, `[[lat,lng],...]`, written by the router: byte for byte what
//! `JSON.stringify` writes for the same numbers. Each graph point's text is made the first time a
//! path passes it and copied from then on, so a route's text costs a copy per point; a caller
//! building the same text from hundreds of strings pays far more to join them (a JavaScript rope
//! of a long route took about 30 us to flatten, docs/routing-speed.md).

use std::io::Write;

/// Each graph point's `[lat,lng]` text (path point ids, `search::point_id_count`), made on first
/// use.
#[derive(Default)]
pub struct PointTexts {
    /// Offset of each id's text in `arena`, or `UNMADE`.
    start: Vec<u32>,
    len: Vec<u8>,
    arena: Vec<u8>,
}

const UNMADE: u32 = u32::MAX;

impl PointTexts {
    /// Appends `[` + each point's `[lat,lng]` joined by `,` + `]` to `out`: point `ids[k]` at
    /// `points[2 * id]` (`graph::Rounded::points`), each `search::NO_POINT` taking the next pair of
    /// `ends` (the query's own ends, in path order).
    pub fn write_path(&mut self, points: &[f64], ids: &[u32], ends: &[f64], out: &mut Vec<u8>) {
        if self.start.len() != points.len() / 2 {
            *self = PointTexts {
                start: vec![UNMADE; points.len() / 2],
                len: vec![0; points.len() / 2],
                arena: Vec::new(),
            };
        }
        out.push(b'[');
        let mut end = ends.chunks_exact(2);
        for (k, &id) in ids.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            let i = id as usize;
            if i >= self.start.len() {
                let pair = end.next().expect("a path's own ends are in `ends`");
                write_pair(pair[0], pair[1], out);
                continue;
            }
            if self.start[i] == UNMADE {
                let at = self.arena.len();
                write_pair(points[2 * i], points[2 * i + 1], &mut self.arena);
                self.start[i] = at as u32;
                self.len[i] = (self.arena.len() - at) as u8;
            }
            let at = self.start[i] as usize;
            out.extend_from_slice(&self.arena[at..at + self.len[i] as usize]);
        }
        out.push(b']');
    }
}

/// `[lat,lng]` as JSON.stringify writes two numbers (at most 51 bytes: two 24-byte numbers).
fn write_pair(lat: f64, lng: f64, out: &mut Vec<u8>) {
    out.push(b'[');
    js_number(lat, out);
    out.push(b',');
    js_number(lng, out);
    out.push(b']');
}

/// What JavaScript's `JSON.stringify` writes for `v`: the shortest decimal that reads back as
/// `v` (Rust's `Display` finds the same digits), in plain notation from 1e-6 up to 1e21 and with
/// an exponent (`1e-7`, `1.5e+21`) outside it; `0` for -0, `null` for what is not finite.
pub fn js_number(v: f64, out: &mut Vec<u8>) {
    if v == 0.0 {
        out.push(b'0');
    } else if !v.is_finite() {
        out.extend_from_slice(b"null");
    } else if (1e-6..1e21).contains(&v.abs()) {
        write!(out, "{}", v).expect("writing to a Vec");
    } else {
        let text = format!("{:e}", v);
        // Rust writes `1.5e21` and `1e-7`; JavaScript signs a positive exponent.
        let (digits, power) = text.split_at(text.find('e').expect("an exponent") + 1);
        out.extend_from_slice(digits.as_bytes());
        if !power.starts_with('-') {
            out.push(b'+');
        }
        out.extend_from_slice(power.as_bytes());
    }
}
