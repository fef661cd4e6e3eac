//! The engine as a bot searches what its seat knows (issue 33): Halasi's homes, setup
//! rounds and first play round, seen as a record without a seed writes them.

use super::*;
use crate::engine::{Budget, Config};
use crate::games::halasi::state::Phase;
use crate::games::halasi::Halasi;
use crate::notation::record::Header;
use crate::ruleset::Library;

use super::view;

fn ruleset(name: &str) -> Arc<Ruleset> {
    Arc::new(
        Library::new(Vec::new())
            .load(name, crate::referee::schemas())
            .expect("shipped ruleset"),
    )
}

/// Plays a seeded game of `seats` seats as the runner does, and at every turn of its
/// homes, setup rounds and first play round asks the engine, on the position the bot
/// rebuilds from the turns it is sent, for the seat's turn. Every turn the engine
/// considers at the root is one of those offered (the homes and setup placements: the
/// seat's home and the territory the seed dealt it), and in the first play round,
/// whose order is not yet written, the engine's choice is one of them. Returns the
/// turns asked about.
fn engine_turns_are_offered(seats: &str, seed: &str) -> usize {
    let option = crate::ruleset::Override::from_option(&format!("seats={seats}")).expect("option");
    let rs = crate::ruleset::apply_overrides(&ruleset("halasi"), Halasi::schema(), &[option])
        .expect("seats");
    let rs = Arc::new(rs);
    let limits = Limits::default();
    let mut game =
        Session::<Halasi>::start(rs.clone(), None, &Header::default(), Some(seed)).expect("start");
    let mut chooser = Dice::from_seed("chooser");
    let mut seen: Vec<String> = Vec::new();
    let mut asked = 0;
    let config = Config {
        budget: Budget::Playouts(60),
        seed: "bot".into(),
        threads: 1,
    };
    let mut play_turns = 0;
    while let Some(seat) = game.to_move() {
        let phase = game.state.phase;
        if phase == Phase::Play {
            play_turns += 1;
            if play_turns > game.settings.seats.len() {
                break;
            }
        }
        let mut legal = Vec::new();
        game.legal_turns(&mut legal);
        let offered: Vec<_> = legal
            .iter()
            .map(|t| match &game.chance {
                Some(c) => Halasi::with_outcome(t, c),
                None => t.clone(),
            })
            .collect();
        let decisions: Vec<_> = offered.iter().map(Halasi::decision).collect();
        let mut view = view::rebuild::<Halasi>(rs.clone(), None, &seen, &limits).expect("view");
        view.chance = offered
            .iter()
            .find_map(|t| Halasi::written_chance(t).map(|c| c.into_owned()));
        let name = crate::games::seat_name::<Halasi>(seat);
        let state = known_position(&view, name, &offered);
        assert_eq!(state.to_move, seat, "{seed}: the bot's seat moves");
        let analysis =
            engine::search::<Halasi>(&view.settings, &state, view.chance.as_ref(), &config)
                .expect("the engine searches what the seat knows");
        asked += 1;
        if phase == Phase::Play {
            assert!(
                analysis.choices.iter().any(|c| decisions.contains(&c.turn)),
                "{seed}, turn {}: no choice of the engine is offered",
                seen.len() + 1
            );
        } else {
            for c in &analysis.choices {
                assert!(
                    decisions.contains(&c.turn),
                    "{seed}, turn {}: the engine considers {}, which is not offered",
                    seen.len() + 1,
                    c.turn
                );
            }
        }
        let turn = Halasi::random_turn(
            &game.settings,
            &game.state,
            game.chance.as_ref(),
            &mut chooser,
            &mut legal,
        )
        .expect("a legal turn");
        let action = Action::Play(turn);
        seen.push(view::seen_turn::<Halasi>(seat, &action, game.chance.as_ref()).expect("seen"));
        assert!(game.play(&action, "").is_ok(), "a legal turn");
    }
    asked
}

#[test]
fn the_engine_searches_halasis_setup_and_open_rounds_as_the_seat_knows_them() {
    for (seats, seed) in [("[a b]", "s1"), ("[a b c]", "s2"), ("[a b c d]", "s3")] {
        let n: usize = seats.split(' ').count();
        // The home, two setup placements and the first play round: four turns a seat.
        assert_eq!(engine_turns_are_offered(seats, seed), 4 * n, "{seats}");
    }
}
