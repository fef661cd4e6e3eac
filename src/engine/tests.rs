//! The engine's own tests: reproducibility, hidden order dealt afresh, the merge.

use super::*;
use crate::dice::Dice;
use crate::games::halasi::Halasi;
use crate::games::halatafl::Halatafl;
use crate::games::Game;
use crate::notation::record::Header;
use crate::ruleset::Library;

fn settings<G: Game>(name: &str) -> G::Settings {
    let rs = Library::new(Vec::new())
        .load(name, crate::referee::schemas())
        .expect("shipped ruleset");
    G::settings(&rs)
}

/// The position after `turns` random turns, and the chance then in force.
fn position<G: Game>(s: &G::Settings, seed: &str, turns: usize) -> (G::State, Option<G::Chance>) {
    let mut dice = Dice::from_seed(seed);
    let mut chooser = Dice::from_seed("chooser");
    let mut scratch = Vec::new();
    let mut st = G::start(s, None, &Header::default(), Some(&mut dice)).expect("start");
    let mut chance = G::draw_chance(s, &mut st, &mut dice);
    for _ in 0..turns {
        let t = G::random_turn(s, &st, chance.as_ref(), &mut chooser, &mut scratch).unwrap();
        G::apply_legal(s, &mut st, chance.as_ref(), &t);
        chance = G::draw_chance(s, &mut st, &mut dice);
    }
    (st, chance)
}

fn summary<G: Game>(a: &Analysis<G>) -> (Vec<(String, u64)>, Vec<String>, Vec<f64>) {
    (
        a.choices
            .iter()
            .map(|c| (c.turn.to_string(), c.visits))
            .collect(),
        a.line.iter().map(|t| t.to_string()).collect(),
        a.seats.iter().map(|e| e.mean).collect(),
    )
}

fn config(playouts: u64, seed: &str, threads: usize) -> Config {
    Config {
        budget: Budget::Playouts(playouts),
        seed: seed.into(),
        threads,
    }
}

#[test]
fn the_same_seed_and_playouts_give_the_same_analysis() {
    let s = settings::<Halatafl>("halatafl");
    let (st, _) = position::<Halatafl>(&s, "p", 8);
    let a = search::<Halatafl>(&s, &st, None, &config(400, "x", 3)).unwrap();
    let b = search::<Halatafl>(&s, &st, None, &config(400, "x", 3)).unwrap();
    assert_eq!(a.iterations, 400);
    assert_eq!(summary(&a), summary(&b));
    let visits: u64 = a.choices.iter().map(|c| c.visits).sum();
    assert_eq!(visits, 400, "every iteration passes through one root turn");
    let c = search::<Halatafl>(&s, &st, None, &config(400, "y", 3)).unwrap();
    assert_ne!(summary(&a), summary(&c));
}

#[test]
fn a_won_position_is_reported_without_search() {
    let s = settings::<Halatafl>("halatafl");
    let mut st = position::<Halatafl>(&s, "p", 0).0;
    Halatafl::resign(&s, &mut st).unwrap();
    let a = search::<Halatafl>(&s, &st, None, &config(100, "x", 1)).unwrap();
    assert_eq!(a.iterations, 0);
    assert!(a.to_move.is_none());
    assert_eq!(a.seats[1].mean, 1.0);
}

/// Two Halasi positions that differ only in the order of the pools (what a record's seed
/// decides and no seat has seen) get the same analysis.
#[test]
fn halasi_pool_order_does_not_show_through() {
    let s = settings::<Halasi>("halasi");
    let (st, _) = position::<Halasi>(&s, "h", 8);
    assert!(st.dominos.len() > 4);
    let mut other = st.clone();
    other.dominos.reverse();
    other.tiles.reverse();
    assert_ne!(st, other);
    let a = search::<Halasi>(&s, &st, None, &config(60, "x", 2)).unwrap();
    let b = search::<Halasi>(&s, &other, None, &config(60, "x", 2)).unwrap();
    assert_eq!(summary(&a), summary(&b));
}

/// With the roll seen (play, `moves --best`) the engine's choice is a legal turn.
#[test]
fn with_the_outcome_seen_the_choice_is_legal() {
    let s = settings::<Halasi>("halasi");
    let (st, chance) = position::<Halasi>(&s, "h", 8);
    let a = search::<Halasi>(&s, &st, chance.as_ref(), &config(60, "x", 1)).unwrap();
    let mut legal = Vec::new();
    Halasi::legal_turns(&s, &st, chance.as_ref(), &mut legal);
    let best = a.best_of(&legal).unwrap();
    assert!(legal.contains(&best));
    let mut after = st.clone();
    assert!(Halasi::play(&s, &mut after, chance.as_ref(), &best).is_ok());
}

/// Progressive widening: with the roll seen, Halasi's root holds at most `width(n)`
/// turns after `n` iterations (its tree turns are a fresh sample at every visit, so
/// without widening nearly every iteration made a turn of its own), and the turn it
/// names best is visited enough to mean something.
#[test]
fn halasi_widens_progressively() {
    let s = settings::<Halasi>("halasi");
    let (st, chance) = position::<Halasi>(&s, "h", 8);
    let n = 600;
    let a = search::<Halasi>(&s, &st, chance.as_ref(), &config(n, "x", 1)).unwrap();
    assert!(
        a.choices.len() <= tree::width(n as u32),
        "{} root turns after {n} iterations",
        a.choices.len()
    );
    assert!(a.choices.len() > tree::WIDEN_FROM, "{}", a.choices.len());
    assert!(a.choices[0].visits >= FEW_VISITS, "{:?}", a.choices[0]);
    assert!(!a.choices[0].few_visits());
    let again = search::<Halasi>(&s, &st, chance.as_ref(), &config(n, "x", 1)).unwrap();
    assert_eq!(summary(&a), summary(&again));
}

#[test]
fn width_is_the_widening_schedule() {
    assert_eq!(tree::width(0), tree::WIDEN_FROM);
    assert_eq!(tree::width(100), tree::WIDEN_FROM);
    assert_eq!(tree::width(400), 30);
    assert_eq!(tree::width(10_000), 150);
}

#[test]
fn few_visits_is_below_the_threshold() {
    let c = |visits| Choice {
        turn: (),
        visits,
        value: 1.0,
    };
    assert!(c(1).few_visits());
    assert!(c(FEW_VISITS - 1).few_visits());
    assert!(!c(FEW_VISITS).few_visits());
}

/// With the throw seen every root turn is under it and no outcome is listed; drawn
/// afresh, the root counts the throws by outcome, each turn under the throw it names.
#[test]
fn thaayam_root_turns_by_outcome() {
    use crate::games::thaayam::Thaayam;
    let s = settings::<Thaayam>("thaayam");
    let (st, chance) = position::<Thaayam>(&s, "t", 6);
    let chance = chance.unwrap();
    let seen = search::<Thaayam>(&s, &st, Some(&chance), &config(300, "x", 2)).unwrap();
    assert!(seen.outcomes.is_empty());
    assert_eq!(seen.outcome.as_ref(), Some(&chance));
    for c in &seen.choices {
        assert_eq!(Thaayam::written_chance(&c.turn).as_deref(), Some(&chance));
    }
    let drawn = search::<Thaayam>(&s, &st, None, &config(300, "x", 2)).unwrap();
    assert!(drawn.outcome.is_none());
    assert!(drawn.outcomes.len() > 1);
    let total: u64 = drawn.outcomes.iter().map(|o| o.drawn).sum();
    assert_eq!(total, 300);
    let p: f64 = drawn.outcomes.iter().map(|o| o.probability).sum();
    assert!((p - 1.0).abs() < 1e-9);
    for w in drawn.outcomes.windows(2) {
        assert!(w[0].drawn >= w[1].drawn);
    }
    for o in &drawn.outcomes {
        for c in &o.choices {
            let written = Thaayam::written_chance(&c.turn).unwrap();
            assert_eq!(written.to_string(), o.label);
        }
    }
    // The line starts with the best choice under the throw drawn most.
    assert_eq!(drawn.line.first(), Some(&drawn.outcomes[0].choices[0].turn));
}

/// Halasi groups its outcomes by the roll.
#[test]
fn halasi_outcomes_are_grouped_by_roll() {
    let s = settings::<Halasi>("halasi");
    let (st, _) = position::<Halasi>(&s, "h", 8);
    let a = search::<Halasi>(&s, &st, None, &config(120, "x", 1)).unwrap();
    assert!(
        !a.outcomes.is_empty() && a.outcomes.len() <= 6,
        "{:?}",
        a.outcomes
    );
    for o in &a.outcomes {
        assert!(o.label.starts_with("roll "), "{}", o.label);
    }
}
