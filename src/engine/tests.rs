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
