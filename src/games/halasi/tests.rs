//! Tests of the Halasi rules core: the acceptance figures, each placement rule, routes,
//! claims and the order independence of scores.

use super::hand::Hand;
use super::layout::{Layout, Placed, Territory};
use super::routes;
use super::run::{play_run, Held, Mover};
use super::score;
use super::settings::{MatchRequired, Settings, STANDARD};
use super::violation::Violation;
use crate::games::{Seat, Violation as _};
use crate::notation::halasi::{Address, Domino, DominoAt, Label, Marking, Pos, Route};

fn label(s: &str) -> Label {
    Label::new(s).unwrap()
}

fn addr(s: &str) -> Address {
    let (l, i) = s.split_once('.').unwrap();
    Address {
        label: label(l),
        index: i.parse().unwrap(),
    }
}

/// `XS@AM1.3/AM1.16`, parsed by hand (the notation's parser has its own tests).
fn dom(s: &str) -> DominoAt {
    let (d, rest) = s.split_once('@').unwrap();
    let (a, b) = rest.split_once('/').unwrap();
    let mut cs = d.chars();
    let m = |c: Option<char>| Marking::from_symbol(c.unwrap()).unwrap();
    DominoAt {
        domino: Domino(m(cs.next()), m(cs.next())),
        first: addr(a),
        second: addr(b),
    }
}

fn settings() -> Settings {
    Settings::default()
}

/// A layout of standard tiles: (label, tile index, q, r, rotation).
fn layout(tiles: &[(&str, u8, i16, i16, u8)]) -> Layout {
    let mut lay = Layout::default();
    for &(l, tile, q, r, rotation) in tiles {
        lay.add_territory(
            Territory {
                label: label(l),
                owner: Seat(0),
                tile,
                market: STANDARD.tiles[tile as usize].market,
                at: Pos { q, r },
                rotation,
            },
            &STANDARD,
        );
    }
    lay
}

/// Lays dominos directly, as earlier turns would have.
fn lay(layout: &mut Layout, dominos: &[&str]) {
    for d in dominos {
        let d = dom(d);
        let halves = [
            layout.tri(&d.first).unwrap(),
            layout.tri(&d.second).unwrap(),
        ];
        layout.place(Placed {
            halves,
            marks: [d.domino.0, d.domino.1],
            seat: Seat(0),
            turn: 1,
        });
    }
}

fn mover<'a>(hand: &'a Hand, first: bool, home: Option<usize>) -> Mover<'a> {
    Mover {
        seat: Seat(0),
        home,
        first: first.then(|| label("AM1")),
        hand: Held::of(hand),
        turn: 9,
    }
}

fn hand_of(run: &[DominoAt]) -> Vec<Domino> {
    run.iter().map(|d| d.domino).collect()
}

fn play(
    lay: &mut Layout,
    s: &Settings,
    run: &[&str],
    first: bool,
    routes: &[Route],
    claim: Option<i64>,
) -> Result<super::run::RunScore, Violation> {
    let run: Vec<DominoAt> = run.iter().map(|d| dom(d)).collect();
    let hand = Hand::from(&hand_of(&run)[..]);
    play_run(lay, s, &mover(&hand, first, Some(0)), &run, routes, claim)
}

// ---------------------------------------------------------------------------------
// The acceptance figures (halasi.md), on the standard set.

/// Figure 1: the maximum for one domino is 25: a double on two foundations of its own marking,
/// with four adjoining halves of its marking already on the layout: 6 + 12 + 6 + 1.
/// T1's centre triangles 0 and 1 both print `#`; their other neighbours are 5, 7, 2 and
/// 10.
#[test]
fn figure_1_the_maximum_is_25() {
    let s = settings();
    let mut l = layout(&[("AT1", 2, 0, 0, 0)]);
    lay(
        &mut l,
        &[
            "#K@AT1.5/AT1.4",
            "#O@AT1.2/AT1.13",
            "#P@AT1.7/AT1.8",
            "#R@AT1.10/AT1.9",
        ],
    );
    let r = play(&mut l, &s, &["##@AT1.0/AT1.1"], false, &[], Some(25)).unwrap();
    assert_eq!((r.dominos, r.total), (25, 25));
    let e = score::explain_run(&l, r.first, &s.score);
    for h in &e[0].halves {
        assert_eq!(h.foundation.relation, "self");
        assert_eq!(h.partner.points, 3);
        assert_eq!(h.adjoining.len(), 2);
        assert_eq!(h.points, 12);
    }
}

/// Figure 2: the minimum for a first domino on an empty board is 0: `X` self-matches M1's centre
/// triangle 3 (+3), `X` and `S` are opposed (−1, −1), `S` lies on `M` (opposed, −2),
/// plus the placement point.
#[test]
fn figure_2_the_first_domino_minimum_is_0() {
    let s = settings();
    let mut l = layout(&[("AM1", 0, 0, 0, 0)]);
    let r = play(&mut l, &s, &["XS@AM1.3/AM1.16"], true, &[], Some(0)).unwrap();
    assert_eq!(r.total, 0);
    let e = score::explain_run(&l, r.first, &s.score);
    assert_eq!(
        (e[0].halves[0].points, e[0].halves[1].points, e[0].placement),
        (2, -3, 1)
    );
}

/// Figure 3: the worst for one domino on a full board is −8: the same domino as figure 2, now
/// with halves opposed to it on all four other neighbours: +3 −2 −2×4 −2 +1.
#[test]
fn figure_3_the_worst_is_minus_8() {
    let s = settings();
    let mut l = layout(&[("AM1", 0, 0, 0, 0)]);
    lay(
        &mut l,
        &[
            "SM@AM1.4/AM1.5",
            "##@AM1.2/AM1.13",
            "KI@AM1.17/AM1.18",
            "RY@AM1.15/AM1.14",
        ],
    );
    let r = play(&mut l, &s, &["XS@AM1.3/AM1.16"], false, &[], Some(-8)).unwrap();
    assert_eq!(r.total, -8);
    let e = score::explain_run(&l, r.first, &s.score);
    let adj: Vec<&str> = e[0]
        .halves
        .iter()
        .flat_map(|h| h.adjoining.iter().map(|a| a.relation))
        .collect();
    assert_eq!(adj, ["opposed"; 4]);
}

// ---------------------------------------------------------------------------------
// Each placement rule, and the order they are cited in.

#[test]
fn rules_in_the_citation_order() {
    let s = settings();
    let base = || {
        let mut l = layout(&[("AM1", 0, 0, 0, 0), ("AT1", 2, 0, -1, 0)]);
        lay(&mut l, &["XS@AM1.3/AM1.16"]);
        l
    };
    let rule = |run: &[&str], first: bool| -> &'static str {
        play(&mut base(), &s, run, first, &[], None)
            .map(|_| "legal")
            .unwrap_or_else(|v| v.rule())
    };
    // address: a territory not on the layout (even with other faults after it).
    assert_eq!(rule(&["XS@BM1.3/AM1.2"], false), "address");
    // not-adjacent beats covered.
    assert_eq!(rule(&["XS@AM1.3/AM1.0"], false), "not-adjacent");
    assert_eq!(rule(&["XS@AM1.3/AM1.2"], false), "covered");
    assert_eq!(
        rule(&["FO@AM1.2/AM1.1", "OI@AM1.1/AM1.0"], false),
        "covered"
    );
    // first-domino: not on the home's centre, or not matching it.
    assert_eq!(rule(&["QQ@AM1.22/AM1.21"], true), "first-domino");
    assert_eq!(rule(&["OO@AM1.0/AM1.1"], true), "legal", "O matches AM1.1");
    assert_eq!(rule(&["RR@AM1.0/AM1.1"], true), "first-domino");
    // one-run: two dominos apart.
    assert_eq!(
        rule(&["FO@AM1.2/AM1.1", "YQ@AM1.21/AM1.22"], false),
        "one-run"
    );
    // adjoin: a run touching nothing old.
    assert_eq!(rule(&["QQ@AM1.22/AM1.21"], false), "adjoin");
    // self-match: `RR` touches the old domino but matches nothing.
    assert_eq!(rule(&["RR@AM1.4/AM1.5"], false), "self-match");
    // A match with an adjoining half counts: `SS` on 4/5 matches `S` on 16? No: 4 is not
    // next to 16, but it is next to 3 (`X`)... so `XX` on 4/19 matches X on 3.
    assert_eq!(rule(&["XX@AM1.4/AM1.19"], false), "legal");
    // The partner never counts: `MM` on 4/5 — 5 prints M, so it matches its foundation.
    assert_eq!(rule(&["MM@AM1.4/AM1.5"], false), "legal");
}

/// Plays `run` from `hand` (not the seat's first domino; no routes, no claim).
fn run_from_hand(
    lay: &mut Layout,
    s: &Settings,
    hand: &[Domino],
    run: &[DominoAt],
) -> Result<super::run::RunScore, Violation> {
    play_run(
        lay,
        s,
        &mover(&Hand::from(hand), false, Some(0)),
        run,
        &[],
        None,
    )
}

#[test]
fn from_hand_counts_the_hand_as_a_multiset() {
    let s = settings();
    let mut l = layout(&[("AM1", 0, 0, 0, 0)]);
    lay(&mut l, &["XS@AM1.3/AM1.16"]);
    let run = [dom("MM@AM1.4/AM1.5"), dom("FY@AM1.19/AM1.20")];
    let hand = [Domino(run[0].domino.0, run[0].domino.1)];
    let v = run_from_hand(&mut l, &s, &hand, &run).unwrap_err();
    assert_eq!(v.rule(), "from-hand");
    assert!(
        v.to_string()
            .contains("FY is not in a's hand (it holds MM)"),
        "{v}"
    );
    // RX and XR are the same domino in the hand.
    let hand = [Domino(run[1].domino.1, run[1].domino.0), run[0].domino];
    assert!(run_from_hand(&mut l, &s, &hand, &run).is_ok());
    assert_eq!(l.dominos.len(), 3);
    // A domino laid twice needs two in hand; the second is the one cited.
    let mut l = layout(&[("AM1", 0, 0, 0, 0)]);
    lay(&mut l, &["XS@AM1.3/AM1.16"]);
    let twice = [dom("MM@AM1.4/AM1.5"), dom("MM@AM1.19/AM1.20")];
    let one = [twice[0].domino, dom("FY@AM1.19/AM1.20").domino];
    let v = run_from_hand(&mut l, &s, &one, &twice).unwrap_err();
    assert!(v.to_string().contains("MM is not in a's hand"), "{v}");
    let two = [twice[0].domino, twice[0].domino];
    let v = run_from_hand(&mut l, &s, &two, &twice);
    assert!(v.map_or_else(|v| v.rule(), |_| "legal") != "from-hand");
}

#[test]
fn a_refused_run_leaves_the_layout_as_it_was() {
    let s = settings();
    let mut l = layout(&[("AM1", 0, 0, 0, 0)]);
    lay(&mut l, &["XS@AM1.3/AM1.16"]);
    let before = l.clone();
    assert!(play(&mut l, &s, &["MM@AM1.4/AM1.5"], false, &[], Some(99)).is_err());
    assert_eq!(l, before);
}

#[test]
fn match_required_kin_and_any() {
    let mut s = settings();
    let mut l = layout(&[("AM1", 0, 0, 0, 0)]);
    lay(&mut l, &["XS@AM1.3/AM1.16"]);
    // `RR` on 4 (S) / 5 (M): R–M are kin.
    let mut t = l.clone();
    assert_eq!(
        play(&mut t, &s, &["RR@AM1.4/AM1.5"], false, &[], None)
            .unwrap_err()
            .rule(),
        "self-match"
    );
    s.match_required = MatchRequired::Kin;
    let mut t = l.clone();
    assert!(play(&mut t, &s, &["RR@AM1.4/AM1.5"], false, &[], None).is_ok());
    // `YY` on 4 (S) / 5 (M): Y–S neutral, Y–M ally, Y–X (on 3) ally: only `any` allows it.
    let mut t = l.clone();
    assert!(play(&mut t, &s, &["YY@AM1.4/AM1.5"], false, &[], None).is_err());
    s.match_required = MatchRequired::Any;
    assert!(play(&mut l, &s, &["YY@AM1.4/AM1.5"], false, &[], None).is_ok());
}

// ---------------------------------------------------------------------------------
// Scores do not depend on the order a run is written in.

#[test]
fn a_run_scores_the_same_in_any_order() {
    let s = settings();
    let mut base = layout(&[("AM1", 0, 0, 0, 0)]);
    lay(&mut base, &["XS@AM1.3/AM1.16"]);
    let run = [
        "XX@AM1.4/AM1.19",
        "MM@AM1.5/AM1.22",
        "YY@AM1.20/AM1.21",
        "RQ@AM1.23/AM1.6",
    ];
    let mut totals = Vec::new();
    for perm in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]] {
        let mut l = base.clone();
        let written: Vec<&str> = perm.iter().map(|&i| run[i]).collect();
        totals.push(play(&mut l, &s, &written, false, &[], None).unwrap().total);
    }
    assert!(totals.windows(2).all(|w| w[0] == w[1]), "{totals:?}");
    // A relation between two new dominos counts from both sides; with an old one once.
    let mut l = base.clone();
    let r = play(&mut l, &s, &run, false, &[], None).unwrap();
    let mut by_hand = 0;
    score::each_count(&l, r.first, &s.score, |c| by_hand += c.points);
    assert_eq!(r.dominos, by_hand + 4 * s.score.placement);
}

// ---------------------------------------------------------------------------------
// Routes and claims.

/// Two markets side by side: M1 at (0,0) and M2 north of it at (0,-1). M1's 9 and 11
/// join M2's 20 and 18. A chain from M1's centre (triangle 1) out through 10, 9 to M2's
/// 20, 21, to its centre (triangle 4 via 19).
fn two_markets() -> Layout {
    layout(&[("AM1", 0, 0, 0, 0), ("AM2", 1, 0, -1, 0)])
}

#[test]
fn a_route_is_paid_when_announced_and_new() {
    let s = settings();
    let mut l = two_markets();
    // M1.1 prints O: `OU` on M1.1/M1.10 (U prints on 10) starts from M1's centre.
    lay(&mut l, &["OU@AM1.1/AM1.10"]);
    let m2_19 = l.foundation(l.tri(&addr("AM2.19")).unwrap());
    let m2_4 = l.foundation(l.tri(&addr("AM2.4")).unwrap());
    let m1_9 = l.foundation(l.tri(&addr("AM1.9")).unwrap());
    let m2_20 = l.foundation(l.tri(&addr("AM2.20")).unwrap());
    let d1 = format!("{m1_9}{m2_20}@AM1.9/AM2.20");
    let d2 = format!("{m2_19}{m2_4}@AM2.19/AM2.4");
    let route = Route(label("AM1"), label("AM2"));
    // Not announced: legal, not paid, listed.
    let mut t = l.clone();
    let r = play(&mut t, &s, &[&d1, &d2], false, &[], None).unwrap();
    assert_eq!(r.unannounced.len(), 1);
    assert_eq!(r.unannounced[0].chain, 3, "OU, then the two new dominos");
    assert_eq!(r.path.total, 0);
    // Announced: 3 dominos + 2 markets + home (AM1 is slot 0) = 6.
    let mut t = l.clone();
    let r = play(&mut t, &s, &[&d1, &d2], false, &[route], None).unwrap();
    assert_eq!(
        (
            r.path.domino_points,
            r.path.market_points,
            r.path.home_points
        ),
        (3, 2, 1)
    );
    assert_eq!(r.total, r.dominos + 6);
    let total = r.total;
    // The claim must be the total.
    let mut t = l.clone();
    let v = play(&mut t, &s, &[&d1, &d2], false, &[route], Some(total + 1)).unwrap_err();
    assert_eq!(v.rule(), "claim");
    // Announced twice; announced before it exists; announced again later (not new).
    let mut t = l.clone();
    let v = play(
        &mut t,
        &s,
        &[&d1, &d2],
        false,
        &[route, Route(route.1, route.0)],
        None,
    );
    assert_eq!(v.unwrap_err().rule(), "route");
    let mut t = l.clone();
    assert_eq!(
        play(&mut t, &s, &[&d1], false, &[route], None)
            .unwrap_err()
            .rule(),
        "route"
    );
    let mut t = l.clone();
    play(&mut t, &s, &[&d1, &d2], false, &[route], None).unwrap();
    let m2_5 = t.foundation(t.tri(&addr("AM2.5")).unwrap());
    let m2_22 = t.foundation(t.tri(&addr("AM2.22")).unwrap());
    let d3 = format!("{m2_5}{m2_22}@AM2.5/AM2.22");
    assert_eq!(
        play(&mut t, &s, &[&d3], false, &[route], None)
            .unwrap_err()
            .rule(),
        "route-new"
    );
    // A territory that is no market.
    let mut t = layout(&[("AM1", 0, 0, 0, 0), ("AT1", 2, 0, -1, 0)]);
    lay(&mut t, &["OU@AM1.1/AM1.10"]);
    let v = play(
        &mut t,
        &s,
        &["SM@AM1.9/AT1.20"],
        false,
        &[Route(label("AM1"), label("AT1"))],
        None,
    );
    assert_eq!(v.unwrap_err().rule(), "route");
}

#[test]
fn each_pair_of_markets_is_its_own_route() {
    // Three markets in a row linked by one chain through the middle one: AM1 (0,0),
    // AM2 (0,-1), BM1 (0,-2). Their pairs are three routes. The chain must be one:
    // two chains that only both touch AM2's centre do not link AM1 to BM1.
    let mut l = layout(&[
        ("AM1", 0, 0, 0, 0),
        ("AM2", 1, 0, -1, 0),
        ("BM1", 0, 0, -2, 0),
    ]);
    lay(
        &mut l,
        &[
            "OU@AM1.1/AM1.10",
            "SS@AM1.9/AM2.20",
            "SS@AM2.19/AM2.4",
            "SS@AM2.5/AM2.0",
            "II@AM2.1/AM2.10",
            "SS@AM2.9/BM1.20",
            "SS@BM1.19/BM1.4",
        ],
    );
    assert_eq!(routes::linked(&l, 3), vec![(0, 1)]);
    assert_eq!(routes::linked(&l, 7), vec![(0, 1), (0, 2), (1, 2)]);
    let done = routes::completed(&l, 3);
    let pairs: Vec<(usize, usize, usize)> = done.iter().map(|f| (f.a, f.b, f.chain)).collect();
    assert_eq!(pairs, vec![(0, 2, 7), (1, 2, 3)]);
    // Without the domino across AM2's centre, the two chains only touch it.
    let mut apart = l.clone();
    while apart.dominos.len() > 3 {
        apart.unplace();
    }
    lay(
        &mut apart,
        &["II@AM2.1/AM2.10", "SS@AM2.9/BM1.20", "SS@BM1.19/BM1.4"],
    );
    assert_eq!(routes::linked(&apart, 6), vec![(0, 1), (1, 2)]);
}

/// The shortest chain as a plain breadth-first walk over [`Layout::touching`] finds it.
fn chain_walked(layout: &Layout, a: usize, b: usize) -> Option<usize> {
    let on = |m: usize| -> Vec<usize> {
        Layout::centre(m)
            .filter_map(|t| layout.cover(t).map(|(d, _)| d))
            .collect()
    };
    let targets = on(b);
    let mut dist = vec![usize::MAX; layout.dominos.len()];
    let mut queue = std::collections::VecDeque::new();
    for d in on(a) {
        dist[d] = 1;
        queue.push_back(d);
    }
    let mut touching = Vec::new();
    while let Some(d) = queue.pop_front() {
        if targets.contains(&d) {
            return Some(dist[d]);
        }
        layout.touching(d, &mut touching);
        for &e in &touching {
            if dist[e] == usize::MAX {
                dist[e] = dist[d] + 1;
                queue.push_back(e);
            }
        }
    }
    None
}

#[test]
fn shortest_chains_are_a_plain_walks_on_layouts_of_tens_and_hundreds_of_dominos() {
    let mut tiles = Vec::new();
    for q in -3i16..=3 {
        for r in -3i16..=3 {
            if (q + r).abs() <= 3 {
                let n = tiles.len();
                tiles.push((
                    format!("T{n}"),
                    (n % STANDARD.tiles.len()) as u8,
                    q,
                    r,
                    (n % 6) as u8,
                ));
            }
        }
    }
    let spec: Vec<(&str, u8, i16, i16, u8)> = tiles
        .iter()
        .map(|(l, t, q, r, o)| (l.as_str(), *t, *q, *r, *o))
        .collect();
    let mut lay = layout(&spec);
    let markets: Vec<usize> = lay.markets().collect();
    assert!(markets.len() >= 4);
    // Dominos on free pairs, some left out so that chains wind; compared at a few sizes.
    let mut pairs = Vec::new();
    lay.free_pairs(&mut pairs);
    let mut seed = 7u32;
    let mut checked = 0;
    for (a, b) in pairs {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        if lay.cover(a).is_some() || lay.cover(b).is_some() || seed >> 28 < 4 {
            continue;
        }
        let m = lay.foundation(a);
        lay.place(Placed {
            halves: [a, b],
            marks: [m, m],
            seat: Seat(0),
            turn: 1,
        });
        if lay.dominos.len().is_multiple_of(50) || lay.dominos.len() == 257 {
            for &x in &markets {
                for &y in &markets {
                    assert_eq!(
                        routes::shortest_chain(&lay, x, y),
                        chain_walked(&lay, x, y),
                        "{x} {y} with {} dominos",
                        lay.dominos.len()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(lay.dominos.len() > 300, "{}", lay.dominos.len());
    assert!(checked > 0);
}
