//! Spherical geometry: unit vectors, great-circle distances, chords and their bounds.

use super::EARTH_RADIUS_M;

pub fn unit(lat: f64, lng: f64) -> [f64; 3] {
    let (la, lo) = (lat.to_radians(), lng.to_radians());
    [la.cos() * lo.cos(), la.cos() * lo.sin(), la.sin()]
}

/// Great-circle distance in metres.
pub fn haversine_m(lat1: f64, lng1: f64, lat2: f64, lng2: f64) -> f64 {
    let d_lat = (lat2 - lat1).to_radians();
    let d_lng = (lng2 - lng1).to_radians();
    let a = (d_lat / 2.0).sin().powi(2)
        + lat1.to_radians().cos() * lat2.to_radians().cos() * (d_lng / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * a.sqrt().min(1.0).asin()
}

pub fn chord(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    let (x, y, z) = (a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    (x * x + y * y + z * z).sqrt()
}

/// Lower bound in metres of the great-circle distance for a chord of unit vectors:
/// asin(x) >= x + x^3/6 on [0, 1], so no transcendental call is needed.
#[inline]
pub fn chord_bound_m(c: f64) -> f64 {
    EARTH_RADIUS_M * (c + c * c * c / 24.0)
}

/// Arc angle from the chord of two unit vectors.
pub(super) fn chord_to_arc(c: f64) -> f64 {
    2.0 * (c / 2.0).min(1.0).asin()
}
