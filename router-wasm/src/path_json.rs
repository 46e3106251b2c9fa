//! A path's JSON text, `[[lat,lng],...]`, written by the router: byte for byte what
//! `JSON.stringify` writes for the same numbers. Each graph point's text is made the first time a
//! path passes it and copied from then on, so a route's text costs a copy per point; a caller
//! building the same text from hundreds of strings pays far more to join them (a JavaScript rope
//! of a long route took about 30 us to flatten, docs/routing-speed.md).

use std::io::Write;

/// Each graph point's text (path point ids, `search::point_id_count`), made on first use.
#[derive(Default)]
pub struct PointTexts {
    /// Per point, `,[lat,lng]` in the first bytes and its length in the last (0: not made yet,
    /// `LONG`: longer than a slot, written afresh each time). A slot is copied whole, a constant
    /// width that compiles to a few word moves; copying only the text's bytes called memcpy per
    /// point, about a tenth of a route with path (docs/routing-speed.md).
    slots: Vec<[u8; SLOT]>,
}

/// Bytes per slot: a path coordinate has at most 5 decimals (`search::round_coord`), so a
/// point's text with its comma, `,[-89.99999,-179.99999]`, takes at most 23.
const SLOT: usize = 24;
const LONG: u8 = u8::MAX;

impl PointTexts {
    /// Appends `[` + each point's `[lat,lng]` joined by `,` + `]` to `out`: point `ids[k]` at
    /// `points[2 * id]` (`graph::Rounded::points`), each `search::NO_POINT` taking the next pair of
    /// `ends` (the query's own ends, in path order).
    pub fn write_path(&mut self, points: &[f64], ids: &[u32], ends: &[f64], out: &mut Vec<u8>) {
        if self.slots.len() != points.len() / 2 {
            self.slots = vec![[0; SLOT]; points.len() / 2];
        }
        let open = out.len();
        out.reserve(ids.len() * SLOT + 2);
        let mut end = ends.chunks_exact(2);
        for &id in ids {
            let i = id as usize;
            let slot = match self.slots.get_mut(i) {
                Some(slot) => slot,
                None => {
                    let pair = end.next().expect("a path's own ends are in `ends`");
                    out.push(b',');
                    write_pair(pair[0], pair[1], out);
                    continue;
                }
            };
            if slot[SLOT - 1] == 0 {
                let mut text = vec![b','];
                write_pair(points[2 * i], points[2 * i + 1], &mut text);
                if text.len() < SLOT {
                    slot[..text.len()].copy_from_slice(&text);
                    slot[SLOT - 1] = text.len() as u8;
                } else {
                    slot[SLOT - 1] = LONG;
                }
            }
            let len = slot[SLOT - 1];
            if len == LONG {
                out.push(b',');
                write_pair(points[2 * i], points[2 * i + 1], out);
            } else {
                let at = out.len();
                out.extend_from_slice(slot);
                out.truncate(at + len as usize);
            }
        }
        // Every point went in after a comma: the path's opening bracket takes the first one's.
        if out.len() == open {
            out.push(b'[');
        } else {
            out[open] = b'[';
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
