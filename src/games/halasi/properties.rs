//! Properties of Halasi over random games (seeded, so every failure replays): every legal
//! turn the module lists plays; money is conserved in the table game (purses plus bank
//! = seats × purse, after every turn), also through leaves and resignations; a leave
//! pays half its hand's total fee rounded down once, returns the hand to the bottom of
//! the pool in the order acquired, and the pool is shuffled once before the next roll;
//! a run scores the same whatever order its dominos are written in; the layout's groups
//! of joined dominos are kept right through placing and taking off.

use super::chance::Chance;
use super::hand::Hand;
use super::layout::Placed;
use super::legal;
use super::run::{play_run, Held, Mover};
use super::score;
use super::settings::{Mode, Scores, Settings};
use super::state::{Phase, State};
use super::Halasi;
use crate::dice::Dice;
use crate::games::{Game, Status};
use crate::notation::halasi::{Action, Domino, DominoAt, Turn};
use crate::notation::Tags;
use crate::ruleset::{apply_overrides, Library, Origin, Override};

struct NoTags;
impl Tags for NoTags {
    fn tag(&self, _: &str) -> Option<&str> {
        None
    }
}

/// Plays a random game: `each` sees every position before a turn (with the chance that
/// opens it) and the turn chosen.
fn random_game(
    s: &Settings,
    seed: &str,
    max_turns: usize,
    mut each: impl FnMut(&State, Option<&Chance>, &Turn, &State),
) {
    let mut dice = Dice::from_seed(seed);
    let mut pick = Dice::from_seed(&format!("{seed}/choices"));
    let mut st = Halasi::start(s, None, &NoTags, Some(&mut dice)).expect("starts");
    let mut turns = Vec::new();
    for _ in 0..max_turns {
        if matches!(Halasi::status(s, &st), Status::Over(_)) {
            break;
        }
        let chance = Halasi::draw_chance(s, &mut st, &mut dice);
        turns.clear();
        Halasi::legal_turns(s, &st, chance.as_ref(), &mut turns);
        assert!(!turns.is_empty(), "{seed}: no legal turn in {:?}", st.phase);
        let turn = turns[pick.uniform(turns.len() as u32) as usize].clone();
        let before = st.clone();
        if let Err(v) = Halasi::play(s, &mut st, chance.as_ref(), &turn) {
            panic!("{seed}: the legal turn {turn} was refused: {v}");
        }
        each(&before, chance.as_ref(), &turn, &st);
    }
}

/// The shipped `halasi` ruleset with settings overridden.
fn with(set: &[(&str, &str)]) -> Settings {
    let base = Library::new(Vec::new())
        .load("halasi", crate::games::registry::schemas())
        .expect("the shipped ruleset loads");
    let overrides: Vec<Override> = set
        .iter()
        .map(|(k, v)| Override {
            key: k.to_string(),
            value: v.to_string(),
            origin: Origin::CommandLine,
            file: "--option".into(),
            line: 1,
            column: 1,
            value_column: 1,
        })
        .collect();
    let r = apply_overrides(&base, &super::SCHEMA, &overrides).expect("valid settings");
    Settings::from_ruleset(&r)
}

fn table(seats: &str, extra: &[(&str, &str)]) -> Settings {
    let mut set = vec![("seats", seats)];
    set.extend_from_slice(extra);
    with(&set)
}

#[test]
fn money_is_conserved_in_every_table_game() {
    let variants: [(&str, &[(&str, &str)]); 4] = [
        ("[a b]", &[]),
        ("[a b c]", &[("purse", "150")]),
        ("[a b c d]", &[("domino-fee", "7"), ("territory-fee", "30")]),
        ("[a b c d e f]", &[("domino-sets", "2"), ("purse", "90")]),
    ];
    for (seats, extra) in variants {
        let s = table(seats, extra);
        let total = s.purse * s.seats.len() as i64;
        for g in 0..3 {
            random_game(&s, &format!("money-{seats}-{g}"), 250, |_, _, t, after| {
                assert_eq!(after.money(&s), total, "{seats} game {g}, after {t}");
            });
        }
    }
}

/// The engine's view of a table game without a seed: at every turn of a random game
/// replayed as a record without a seed writes it, what the record has not yet written
/// is assumed (`policy::assume_unwritten`) so that the money is still all there, every
/// seat past the homes has bought in and holds its territory or has laid it, and an open
/// round's order holds every seat still playing once, with the seat to move at the
/// cursor.
#[test]
fn what_a_record_without_a_seed_has_not_written_is_assumed_whole() {
    for (seats, extra) in [("[a b]", &[][..]), ("[a b c d]", &[("purse", "150")][..])] {
        let s = table(seats, extra);
        let total = s.purse * s.seats.len() as i64;
        let mut plain = Halasi::start(&s, None, &NoTags, None).expect("starts");
        let mut rng = Dice::from_seed("engine");
        let mut checked = 0;
        random_game(
            &s,
            &format!("unwritten-{seats}"),
            60,
            |before, chance, turn, _| {
                if let Some(open) = plain.open(&s) {
                    assert!(open.contains(before.to_move), "{seats}: the seat may move");
                    plain.choose(before.to_move);
                }
                let seen = chance.filter(|_| before.phase != Phase::Homes);
                let mut assumed = plain.clone();
                Halasi::determinize(&s, &mut assumed, seen, &mut rng);
                assert!(assumed.seeded, "{seats}: played on as seeded");
                assert_eq!(assumed.money(&s), total, "{seats}: before {turn}");
                assert_eq!(assumed.to_move, before.to_move, "{seats}: before {turn}");
                if assumed.phase != Phase::Homes {
                    for x in assumed.active(&s) {
                        let seat = assumed.seat(x);
                        assert!(seat.bought_in, "{seats}: {x:?} bought in before {turn}");
                        assert!(
                            seat.bought.is_some() || seat.bought_placed,
                            "{seats}: {x:?}"
                        );
                    }
                    if plain.phase == Phase::Play || plain.phase == (Phase::Setup { round: 0 }) {
                        let mut order = assumed.order.clone();
                        assert_eq!(order[assumed.cursor], before.to_move, "{seats}: {turn}");
                        order.sort_by_key(|x| x.0);
                        assert_eq!(order, assumed.active(&s).collect::<Vec<_>>(), "{seats}");
                    }
                    checked += 1;
                }
                let written = match chance {
                    Some(c) => Halasi::with_outcome(turn, c),
                    None => turn.clone(),
                };
                let chance = Halasi::written_chance(&written).map(|c| c.into_owned());
                assert!(
                    Halasi::play(&s, &mut plain, chance.as_ref(), &written).is_ok(),
                    "{seats}: {written} replays without a seed"
                );
            },
        );
        assert!(
            checked > 2 * s.seats.len(),
            "{seats}: setup and play were checked"
        );
    }
}

/// How a seat left in a random game with many leaves: by a written `leave` or a `resign`.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum Exit {
    Leave,
    Resign,
}

/// Plays a random table game in which seats leave and resign often (a quarter of the
/// play turns where a leave is listed, and one in eight resigns). `each` sees every
/// leave or resignation: the state before it, the dominos the turn bought, the state
/// after it, and the pool as the next roll finds it (after the reshuffle), if the game
/// goes on, with the pool shuffled once from the dice as they stood. Money is checked
/// after every turn. Returns how many seats left.
fn game_with_leaves(
    s: &Settings,
    seed: &str,
    mut each: impl FnMut(Exit, &State, &[Domino], &State, Option<(&[Domino], &[Domino])>),
) -> usize {
    let total = s.purse * s.seats.len() as i64;
    let mut dice = Dice::from_seed(seed);
    let mut pick = Dice::from_seed(&format!("{seed}/choices"));
    let mut st = Halasi::start(s, None, &NoTags, Some(&mut dice)).expect("starts");
    let mut chance = Halasi::draw_chance(s, &mut st, &mut dice);
    let mut turns = Vec::new();
    let mut exits = 0;
    for _ in 0..600 {
        if matches!(Halasi::status(s, &st), Status::Over(_)) {
            break;
        }
        turns.clear();
        Halasi::legal_turns(s, &st, chance.as_ref(), &mut turns);
        let before = st.clone();
        let in_play = st.phase == Phase::Play;
        let exit = if in_play && pick.uniform(8) == 0 {
            Halasi::resign(s, &mut st).expect("a resignation in the play rounds");
            Some((Exit::Resign, Vec::new()))
        } else {
            let leave = turns.iter().position(|t| {
                matches!(
                    t,
                    Turn::Play {
                        action: Action::Leave,
                        ..
                    }
                )
            });
            let i = match leave {
                Some(i) if pick.uniform(4) == 0 => i,
                _ => pick.uniform(turns.len() as u32) as usize,
            };
            let turn = turns[i].clone();
            Halasi::play(s, &mut st, chance.as_ref(), &turn).expect("a listed turn plays");
            match (&turn, &chance) {
                (
                    Turn::Play {
                        action: Action::Leave,
                        ..
                    },
                    Some(Chance::Roll { draw: Some(d), .. }),
                ) => Some((Exit::Leave, d.dominos.to_vec())),
                _ => None,
            }
        };
        assert_eq!(
            st.money(s),
            total,
            "{seed}: money after turn {}",
            before.turns + 1
        );
        let after = st.clone();
        // The pool shuffled once with the dice as they stand: what the next roll must
        // find after a leave.
        let mut once = after.dominos.clone();
        dice.clone().shuffle(&mut once);
        chance = Halasi::draw_chance(s, &mut st, &mut dice);
        if let Some((how, bought)) = exit {
            exits += 1;
            let next = st.end.is_none().then_some((&st.dominos[..], &once[..]));
            each(how, &before, &bought, &after, next);
        }
    }
    exits
}

#[test]
fn leaves_and_resignations_pay_return_and_reshuffle_as_the_rules_say() {
    let variants: [(&str, &[(&str, &str)]); 6] = [
        ("[a b]", &[("domino-fee", "1")]),
        ("[a b c]", &[("domino-fee", "1"), ("purse", "70")]),
        ("[a b c d]", &[("domino-fee", "3"), ("territory-fee", "5")]),
        (
            "[a b c d e]",
            &[("domino-fee", "1"), ("purse", "60"), ("territory-fee", "7")],
        ),
        ("[a b c d e f]", &[("domino-sets", "2"), ("purse", "90")]),
        ("[a b c d e f]", &[("domino-fee", "5"), ("purse", "200")]),
    ];
    // Leaves, resignations, and exits with an empty hand.
    let mut exits = [0usize; 3];
    for (seats, extra) in variants {
        let s = table(seats, extra);
        for g in 0..6 {
            let seed = format!("leaves-{seats}-{extra:?}-{g}");
            game_with_leaves(&s, &seed, |how, before, bought, after, next| {
                exits[usize::from(how == Exit::Resign)] += 1;
                let mover = before.to_move;
                let held = before.seat(mover).hand.len() + bought.len();
                exits[2] += usize::from(held == 0);
                // The fee: half the hand's total, rounded down once.
                let fee = s.domino_fee * held as i64 / 2;
                assert_eq!(
                    after.ledger.leave_fee, fee,
                    "{seed}: {how:?} with {held} in hand"
                );
                assert!(after.seat(mover).left && after.seat(mover).hand.is_empty());
                // The pool: what was not bought, then the hand in the order acquired.
                let mut pool = before.dominos[bought.len()..].to_vec();
                pool.extend_from_slice(&before.seat(mover).hand);
                pool.extend_from_slice(bought);
                assert_eq!(after.dominos, pool, "{seed}: the pool after a {how:?}");
                assert!(after.reshuffle_pending, "{seed}: every leave reshuffles");
                // The next roll finds the pool shuffled once, also after an empty hand.
                if let Some((found, once)) = next {
                    assert_eq!(found, once, "{seed}: the pool at the roll after a {how:?}");
                }
            });
        }
    }
    assert!(
        exits[0] > 20 && exits[1] > 20 && exits[2] > 0,
        "leaves, resignations, empty hands: {exits:?}"
    );
}

#[test]
fn solitaire_games_play_their_legal_turns() {
    let s = with(&[
        ("mode", "solitaire"),
        ("seats", "[a]"),
        ("domino-sets", "2"),
    ]);
    for g in 0..5 {
        let mut over = false;
        random_game(&s, &format!("sol-{g}"), 400, |_, _, _, after| {
            over |= after.end.is_some();
        });
        assert!(over, "solitaire game {g} ends");
    }
}

/// Dominos of a run laid one by one on a copy, each a legal single placement after the
/// ones before it and touching one of them.
fn random_run(
    s: &Settings,
    st: &State,
    hand: &[crate::notation::halasi::Domino],
    pick: &mut Dice,
    len: usize,
) -> Vec<DominoAt> {
    let mover = st.to_move;
    let mut work = st.clone();
    let mut left = hand.to_vec();
    let mut run: Vec<DominoAt> = Vec::new();
    while run.len() < len {
        let mut options: Vec<DominoAt> = Vec::new();
        let layout = &work.layout;
        let first_new = st.layout.dominos.len();
        legal::single_placements(s, &work, mover, &left, &mut |d, _| {
            let touches_run = run.is_empty()
                || [d.first, d.second].iter().any(|a| {
                    let t = layout.tri(a).expect("on the layout");
                    layout
                        .neighbours(t)
                        .any(|n| layout.cover(n).is_some_and(|(e, _)| e >= first_new))
                });
            if touches_run {
                options.push(d);
            }
            true
        });
        if options.is_empty() {
            break;
        }
        let d = options[pick.uniform(options.len() as u32) as usize];
        let tris = [
            work.layout.tri(&d.first).expect("exists"),
            work.layout.tri(&d.second).expect("exists"),
        ];
        work.layout.place(Placed {
            halves: tris,
            marks: [d.domino.0, d.domino.1],
            seat: mover,
            turn: 0,
        });
        let k = d.domino.key();
        let i = left.iter().position(|h| h.key() == k).expect("in hand");
        left.remove(i);
        run.push(d);
    }
    run
}

/// A table game's regular turn by a seat that has placed a domino: its hand with the
/// dominos the roll bought (else `None`).
fn hand_to_play(s: &Settings, before: &State, chance: Option<&Chance>) -> Option<Hand> {
    let seat = before.seat(before.to_move);
    let Some(Chance::Roll { draw: Some(d), .. }) = chance else {
        return None;
    };
    if before.phase != Phase::Play || !seat.placed_domino || s.mode != Mode::Table {
        return None;
    }
    let mut hand = seat.hand.clone();
    hand.extend(&d.dominos);
    Some(hand)
}

/// The seat to move as the mover of a run from `hand` (not its first domino).
fn mover_of<'a>(before: &State, hand: &'a Hand) -> Mover<'a> {
    Mover {
        seat: before.to_move,
        home: before.home_slot(before.to_move),
        first: None,
        hand: Held::of(hand),
        turn: 1,
    }
}

#[test]
fn a_run_scores_the_same_in_any_written_order() {
    let s = table("[a b]", &[("purse", "100000")]);
    let mut pick = Dice::from_seed("orders");
    let mut checked = 0;
    for g in 0..12 {
        random_game(&s, &format!("order-{g}"), 300, |before, chance, _, _| {
            let Some(hand) = hand_to_play(&s, before, chance) else {
                return;
            };
            let run = random_run(&s, before, &hand, &mut pick, 3);
            if run.len() < 2 {
                return;
            }
            let m = mover_of(before, &hand);
            let score_of = |order: &[DominoAt]| {
                let mut layout = before.layout.clone();
                play_run(&mut layout, &s, &m, order, &[], None)
                    .map(|r| (r.dominos, r.total, r.unannounced.len()))
            };
            let written = score_of(&run).expect("a run of legal placements is legal");
            let mut reversed = run.clone();
            reversed.reverse();
            assert_eq!(score_of(&reversed), Ok(written), "{run:?}");
            let mut rotated = run.clone();
            rotated.rotate_left(1);
            assert_eq!(score_of(&rotated), Ok(written), "{run:?}");
            checked += 1;
        });
    }
    assert!(
        checked >= 50,
        "only {checked} runs of two or more dominos checked"
    );
}

#[test]
fn a_runs_total_is_the_sum_of_every_relation_counted() {
    // `run_points` sums by look-up what `each_count` walks one relation at a time (and
    // the breakdown explains): the same on runs of one to four dominos, with every
    // relation worth its own points.
    let s = table("[a b]", &[("purse", "100000")]);
    let odd = Scores {
        adjoining: [3, 5, 7, 11, 13],
        same_domino: [17, 19, 23, 29, 31],
        placement: 37,
    };
    let mut pick = Dice::from_seed("sums");
    let mut checked = [0; 5];
    for g in 0..8 {
        random_game(&s, &format!("sum-{g}"), 300, |before, chance, _, _| {
            let Some(hand) = hand_to_play(&s, before, chance) else {
                return;
            };
            let run = random_run(&s, before, &hand, &mut pick, 1 + g % 4);
            if run.is_empty() {
                return;
            }
            let m = mover_of(before, &hand);
            let mut layout = before.layout.clone();
            let Ok(r) = play_run(&mut layout, &s, &m, &run, &[], None) else {
                return;
            };
            let mut counted = odd.placement * run.len() as i64;
            score::each_count(&layout, r.first, &odd, |c| counted += c.points);
            assert_eq!(
                score::run_points(&layout, r.first, &odd),
                counted,
                "{run:?}"
            );
            checked[run.len()] += 1;
        });
    }
    assert!(checked[1..].iter().all(|&n| n >= 5), "{checked:?}");
}

#[test]
fn every_listed_run_carries_its_exact_claim() {
    // Legal turns claim their score; a claim one off is refused with rule `claim`.
    let s = table("[a b c]", &[]);
    let mut runs = 0;
    random_game(&s, "claims", 300, |before, chance, turn, _| {
        if let Turn::Play {
            action: Action::Run(_),
            claim: Some(c),
            ..
        } = turn
        {
            let mut wrong = turn.clone();
            if let Turn::Play { claim, .. } = &mut wrong {
                *claim = Some(c + 1);
            }
            let mut st = before.clone();
            let v = Halasi::play(&s, &mut st, chance, &wrong).expect_err("a wrong claim");
            assert_eq!(crate::games::Violation::rule(&v), "claim");
            assert_eq!(st, *before, "a refused turn changes nothing");
            runs += 1;
        }
    });
    assert!(runs > 10, "{runs}");
}

#[test]
fn single_placements_agree_with_the_full_judgement() {
    // Every free pair, every domino of the hand, both ways round, judged as a run of one
    // by `play_run` (routes announced as completed): exactly the placements listed, with
    // the same scores.
    let s = table("[a b c]", &[("purse", "100000")]);
    let mut compared = 0;
    // One game compares over a hundred rolls, early and late.
    random_game(&s, "singles-0", 120, |before, chance, _, _| {
        let Some(Chance::Roll { draw: Some(d), .. }) = chance else {
            return;
        };
        let mover = before.to_move;
        let seat = before.seat(mover);
        let mut hand = seat.hand.clone();
        hand.extend(&d.dominos);
        let mut listed: Vec<(String, i64)> = Vec::new();
        legal::single_placements(&s, before, mover, &hand, &mut |d, r| {
            let path = super::score::path_points(&r.unannounced, before.home_slot(mover), &s.route);
            listed.push((d.to_string(), r.dominos + path.total));
            true
        });
        let m = Mover {
            seat: mover,
            home: before.home_slot(mover),
            first: (!seat.placed_domino).then(|| seat.home.expect("a home").label(&s)),
            hand: Held::of(&hand),
            turn: 1,
        };
        let mut judged: Vec<(String, i64)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut pairs = Vec::new();
        before.layout.free_pairs(&mut pairs);
        // The pairs next to the dominos, as the policy and the listing take them.
        let lay = &before.layout;
        let covered_nb = |t| lay.neighbours(t).any(|n| lay.cover(n).is_some());
        let mut near = Vec::new();
        lay.free_pairs_near(&mut near);
        let filtered: Vec<_> = pairs
            .iter()
            .copied()
            .filter(|&(a, b)| covered_nb(a) || covered_nb(b))
            .collect();
        assert_eq!(near, filtered);
        let mut layout = before.layout.clone();
        for (a, b) in pairs {
            for h in hand.iter() {
                for (x, y) in [(h.0, h.1), (h.1, h.0)] {
                    let placed = DominoAt {
                        domino: crate::notation::halasi::Domino(x, y),
                        first: before.layout.address(a),
                        second: before.layout.address(b),
                    };
                    let text = placed.to_string();
                    if !seen.insert(text.clone()) {
                        continue;
                    }
                    if let Ok(r) = play_run(&mut layout, &s, &m, &[placed], &[], None) {
                        let path = super::score::path_points(&r.unannounced, m.home, &s.route);
                        judged.push((text, r.dominos + path.total));
                        layout.unplace();
                    }
                }
            }
        }
        listed.sort();
        judged.sort();
        assert_eq!(listed, judged);
        compared += 1;
    });
    assert!(compared > 30, "{compared}");
}

#[test]
fn the_layout_keeps_its_groups_through_place_and_unplace() {
    let s = table("[a b c]", &[("purse", "100000")]);
    let (mut checked, mut joins) = (0, 0);
    let distinct = |lay: &super::layout::Layout| {
        let mut g: Vec<usize> = (0..lay.dominos.len()).map(|d| lay.group(d)).collect();
        g.sort_unstable();
        g.dedup();
        g.len()
    };
    for g in 0..2 {
        random_game(&s, &format!("groups-{g}"), 150, |_, _, _, after| {
            let lay = &after.layout;
            let n = lay.dominos.len();
            if n == 0 {
                return;
            }
            // Each domino's neighbours, as the layout keeps them, are those its halves'
            // edges reach: one for each edge shared.
            for d in 0..n {
                let mut kept: Vec<usize> = lay.next_to(d).collect();
                let mut seen: Vec<usize> = lay.dominos[d]
                    .halves
                    .iter()
                    .flat_map(|&t| lay.neighbours(t))
                    .filter_map(|t| lay.cover(t))
                    .map(|(e, _)| e)
                    .filter(|&e| e != d)
                    .collect();
                kept.sort_unstable();
                seen.sort_unstable();
                assert_eq!(kept, seen, "domino {d} of {n}");
            }
            // Each domino's group is the lowest domino reached through shared edges.
            let mut touching = Vec::new();
            for d in 0..n {
                let mut seen = vec![false; n];
                let mut stack = vec![d];
                seen[d] = true;
                let mut low = d;
                while let Some(x) = stack.pop() {
                    low = low.min(x);
                    lay.touching(x, &mut touching);
                    for &e in &touching {
                        if !seen[e] {
                            seen[e] = true;
                            stack.push(e);
                        }
                    }
                }
                assert_eq!(lay.group(d), low, "domino {d} of {n}");
            }
            // A domino placed next to the layout and taken off again leaves it as it was.
            let mut pairs = Vec::new();
            lay.free_pairs_near(&mut pairs);
            let mut work = lay.clone();
            let groups = distinct(lay);
            for (a, b) in pairs {
                work.place(Placed {
                    halves: [a, b],
                    marks: lay.dominos[0].marks,
                    seat: after.to_move,
                    turn: after.turns + 1,
                });
                if distinct(&work) < groups {
                    joins += 1;
                }
                work.unplace();
                assert_eq!(&work, lay);
                checked += 1;
            }
        });
    }
    assert!(
        checked > 1000 && joins > 10,
        "{checked} placements, {joins} joining groups"
    );
}

#[test]
fn a_run_completes_the_routes_that_grouping_the_layout_again_finds() {
    // `completed_by_run` (the run's group, and the groups before it from the layout's
    // forest) against `completed` (every group of the layout before and after, grouped
    // afresh), for the runs played and random runs beside them.
    let mut pick = Dice::from_seed("routes");
    let (mut runs, mut completing) = (0, 0);
    let solitaire = with(&[
        ("mode", "solitaire"),
        ("seats", "[a]"),
        ("domino-sets", "2"),
    ]);
    let settings = [
        table("[a b]", &[("purse", "100000")]),
        table("[a b c d]", &[("purse", "100000")]),
        solitaire,
    ];
    for (v, s) in settings.iter().enumerate() {
        for g in 0..4 {
            random_game(
                s,
                &format!("routes-{v}-{g}"),
                300,
                |before, chance, turn, after| {
                    let first = before.layout.dominos.len();
                    let mut check = |layout: &super::layout::Layout| {
                        for d in 0..first {
                            assert_eq!(layout.group_before(d, first), before.layout.group(d));
                        }
                        let found = super::routes::completed_by_run(layout, first);
                        assert_eq!(found, super::routes::completed(layout, first));
                        runs += 1;
                        completing += usize::from(!found.is_empty());
                    };
                    if let Turn::Play {
                        action: Action::Run(_),
                        ..
                    } = turn
                    {
                        check(&after.layout);
                    }
                    let seat = before.seat(before.to_move);
                    let Some(Chance::Roll { draw: Some(d), .. }) = chance else {
                        return;
                    };
                    if before.phase != Phase::Play || !seat.placed_domino {
                        return;
                    }
                    let mut hand = seat.hand.clone();
                    hand.extend(&d.dominos);
                    for len in [2, 4] {
                        let run = random_run(s, before, &hand, &mut pick, len);
                        let mut layout = before.layout.clone();
                        for d in &run {
                            let halves = [
                                layout.tri(&d.first).expect("exists"),
                                layout.tri(&d.second).expect("exists"),
                            ];
                            layout.place(Placed {
                                halves,
                                marks: [d.domino.0, d.domino.1],
                                seat: before.to_move,
                                turn: 0,
                            });
                        }
                        if !run.is_empty() {
                            check(&layout);
                        }
                    }
                },
            );
        }
    }
    assert!(
        runs > 3000 && completing > 100,
        "{runs} runs, {completing} completing routes"
    );
}
