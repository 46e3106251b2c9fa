//! The river table: each query over the hand-made river map and what it answers.

use crate::search::{Searcher, Status};
use crate::tests::legs;
use crate::tests_river::{river_map, river_run, river_s, ICE, LOW_WATER, MAIN_CLOSED, SPUR_CLOSED};

struct RiverCase {
    name: &'static str,
    from: (f64, f64),
    to: (f64, f64),
    avoid: f64,
    /// (rule, factor) set on top of all 1.
    rules: &'static [(usize, f64)],
    /// None = no route.
    want: Option<RiverWant>,
}

struct RiverWant {
    /// Nodes or points passed, for the metres.
    via: &'static [(f64, f64)],
    /// (metres of the listed legs, over-ground km/h, rule factor) per stretch.
    legs: &'static [(usize, f64, f64)],
    lock_s: f64,
    locks: f64,
}

#[test]
fn river_table() {
    let (_, g) = river_map();
    let mut s = Searcher::new(g.node_count());
    let main_bend: &[(f64, f64)] = &[(0.0, 1.0), (0.15, 1.25), (0.0, 1.5)];
    let cases = [
        RiverCase {
            name: "downstream 1 -> 0 at 12.5 + 4 km/h",
            from: (0.0, 0.5),
            to: (0.0, 0.0),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 0.5), (0.0, 0.0)],
                legs: &[(1, 16.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "upstream 0 -> 1 at 12.5 - 4 km/h",
            from: (0.0, 0.0),
            to: (0.0, 0.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 0.0), (0.0, 0.5)],
                legs: &[(1, 8.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "down the rapids at 12.5 + 11 km/h",
            from: (0.0, 0.0),
            to: (0.0, -0.3),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 0.0), (0.0, -0.3)],
                legs: &[(1, 23.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "up the rapids: never below 3 km/h over ground",
            from: (0.0, -0.3),
            to: (0.0, 0.0),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, -0.3), (0.0, 0.0)],
                legs: &[(1, 3.0, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "main river closed: the canal with its flight of three locks",
            from: (0.0, 0.5),
            to: (0.0, 1.0),
            avoid: 4.0,
            rules: &[(MAIN_CLOSED, 0.0)],
            want: Some(RiverWant {
                via: &[(0.0, 0.5), (0.3, 0.75), (0.0, 1.0)],
                legs: &[(2, 10.0, 1.0)],
                lock_s: 3.0 * 2700.0,
                locks: 3.0,
            }),
        },
        RiverCase {
            name: "two locks of 1.25 h (North America)",
            from: (0.0, 1.5),
            to: (0.0, 2.0),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.5), (0.0, 2.0)],
                legs: &[(1, 12.5, 1.0)],
                lock_s: 2.0 * 4500.0,
                locks: 2.0,
            }),
        },
        RiverCase {
            name: "class III side arm avoided: the longer class Va bend, upstream",
            from: (0.0, 1.0),
            to: (0.0, 1.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: main_bend,
                legs: &[(2, 10.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "no avoidance: the class III side arm is quicker",
            from: (0.0, 1.0),
            to: (0.0, 1.5),
            avoid: 1.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.0), (0.0, 1.5)],
                legs: &[(1, 12.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "class II spur used when it is the only way, real time reported",
            from: (0.0, 1.5),
            to: (0.3, 1.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.5), (0.3, 1.5)],
                legs: &[(1, 10.0, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "spur closed: no route",
            from: (0.0, 1.5),
            to: (0.3, 1.5),
            avoid: 4.0,
            rules: &[(SPUR_CLOSED, 0.0)],
            want: None,
        },
        RiverCase {
            name: "ice on 0-1 doubles its time only",
            from: (0.0, 1.0),
            to: (0.0, 0.0),
            avoid: 4.0,
            rules: &[(ICE, 2.0)],
            want: Some(RiverWant {
                via: &[(0.0, 1.0), (0.0, 0.5), (0.0, 0.0)],
                legs: &[(1, 16.5, 1.0), (1, 16.5, 2.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "low water on the bend: x1.5 there, and the bend still beats the side arm x4",
            from: (0.0, 1.0),
            to: (0.0, 1.5),
            avoid: 4.0,
            rules: &[(LOW_WATER, 1.5)],
            want: Some(RiverWant {
                via: main_bend,
                legs: &[(2, 10.5, 1.5)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from a point on the bend down to 2 (downstream, pro rata)",
            from: (0.16, 1.25),
            to: (0.0, 1.0),
            avoid: 4.0,
            rules: &[(LOW_WATER, 1.5)],
            want: Some(RiverWant {
                via: &[(0.15, 1.25), (0.0, 1.0)],
                legs: &[(1, 14.5, 1.5)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from a point on the bend up to 3 (upstream, pro rata)",
            from: (0.16, 1.25),
            to: (0.0, 1.5),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.15, 1.25), (0.0, 1.5)],
                legs: &[(1, 10.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from 3 down to a point on the bend (pro rata)",
            from: (0.0, 1.5),
            to: (0.16, 1.25),
            avoid: 4.0,
            rules: &[],
            want: Some(RiverWant {
                via: &[(0.0, 1.5), (0.15, 1.25)],
                legs: &[(1, 14.5, 1.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
        RiverCase {
            name: "from 2 up to a point on the bend (pro rata)",
            from: (0.0, 1.0),
            to: (0.16, 1.25),
            avoid: 4.0,
            rules: &[(LOW_WATER, 2.0)],
            want: Some(RiverWant {
                via: &[(0.0, 1.0), (0.15, 1.25)],
                legs: &[(1, 10.5, 2.0)],
                lock_s: 0.0,
                locks: 0.0,
            }),
        },
    ];
    for c in &cases {
        let mut factors = vec![1.0; 4];
        for &(r, f) in c.rules {
            factors[r] = f;
        }
        let run = river_run(&g, &mut s, c.from, c.to, c.avoid, &factors);
        let want = match &c.want {
            None => {
                assert_eq!(run.status, Status::NoRoute, "{}", c.name);
                continue;
            }
            Some(w) => w,
        };
        assert_eq!(run.status, Status::Found, "{}", c.name);
        let metres = legs(want.via);
        assert!(
            (run.route.metres - metres).abs() < 1.0,
            "{}: {} m, want {} m",
            c.name,
            run.route.metres,
            metres
        );
        // Split the listed points into the stretches of `legs`, each with its own speed.
        let mut at = 0;
        let mut seconds = want.lock_s;
        for &(n, kmh, factor) in want.legs {
            seconds += river_s(legs(&want.via[at..=at + n]), kmh) * factor;
            at += n;
        }
        assert!(
            (run.sum.seconds - seconds).abs() < 1e-6 * seconds,
            "{}: {} s, want {} s",
            c.name,
            run.sum.seconds,
            seconds
        );
        assert!(
            (run.sum.lock_seconds - want.lock_s).abs() < 1e-6,
            "{}",
            c.name
        );
        assert!((run.sum.locks - want.locks).abs() < 1e-9, "{}", c.name);
        let by_current = run.sum.downstream_m + run.sum.upstream_m + run.sum.slack_m;
        let by_waterway: f64 = run.sum.waterway_m.iter().sum();
        for (what, m) in [("current", by_current), ("waterways", by_waterway)] {
            assert!(
                (m - run.route.metres).abs() < 1e-6,
                "{}: {} metres {} vs {}",
                c.name,
                what,
                m,
                run.route.metres
            );
        }
        // The search cost carries the avoid factor on class < 4 edges, the duration does not.
        assert!(
            run.route.cost >= run.sum.seconds * (1.0 - 1e-12),
            "{}",
            c.name
        );
    }
}
