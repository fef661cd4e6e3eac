//! What a seat may know of a game, and the game rebuilt from it.
//!
//! A bot never learns the seed: the dice to come stay with the runner. What it gets is
//! what a record without a seed holds: the start position where the seed drew it (a
//! Halves layout, Thaayam's first seat), and every turn written in full with its seat
//! label and the random outcome it opened with. [`rebuild`] replays exactly that, as
//! `referee bot` does, so a bot that trusts the referee needs no rules of its own.

use std::sync::Arc;

use crate::games::{seat_name, Game, Seat};
use crate::notation::record::{parse_single, Action, Limits};
use crate::notation::Tags;
use crate::referee::Session;
use crate::ruleset::Ruleset;

/// The start position a seat is told: the setup string of the game's start where the
/// seed drew it (the start without a seed fails or differs) and the string is a whole
/// position a record can start from. `None`: the game's normal start.
pub fn start_setup<G: Game>(seeded: &Session<G>, tags: &dyn Tags) -> Option<String> {
    if G::setup_note(&seeded.settings).is_some() {
        return None;
    }
    let plain = G::start(&seeded.settings, None, tags, None);
    match plain {
        Ok(state) if state == seeded.state => None,
        _ => Some(G::setup_string(&seeded.settings, &seeded.state)),
    }
}

/// A turn as every seat sees it: `seat: turn`, the turn written in full with the
/// outcome it opened with (`chance`, drawn from the seed before it was played). `None`
/// for an action no game accepts (an address that does not exist).
pub fn seen_turn<G: Game>(
    seat: Seat,
    action: &Action<G::Turn>,
    chance: Option<&G::Chance>,
) -> Option<String> {
    let seat = seat_name::<G>(seat);
    Some(match (action, chance) {
        (Action::Play(turn), Some(c)) => format!("{seat}: {}", G::with_outcome(turn, c)),
        (Action::Play(turn), None) => format!("{seat}: {turn}"),
        (Action::Resign, _) => format!("{seat}: resign"),
        (Action::Draw, _) => format!("{seat}: draw"),
        (Action::BadAddress(_), _) => return None,
    })
}

/// The game rebuilt from what a seat knows: the ruleset (settings applied), the start
/// position, and the turns so far (each `seat: turn`), with no seed. The random outcome
/// opening the turn now due, where there is one, is not known from these: the caller
/// sets [`Session::chance`] from the `play` request.
pub fn rebuild<G: Game>(
    ruleset: Arc<Ruleset>,
    setup: Option<&str>,
    turns: &[String],
    limits: &Limits,
) -> Result<Session<G>, String> {
    let no_tags = crate::notation::record::Header::default();
    let settings = G::settings(&ruleset);
    let start = match setup {
        None => None,
        Some(s) => Some(
            G::parse_setup(&settings, s).map_err(|v| format!("the setup `{s}` is refused: {v}"))?,
        ),
    };
    let numbering = crate::referee::Numbering::of(&ruleset);
    let mut session = Session::<G>::start_with(ruleset, numbering, settings, start, &no_tags, None)
        .map_err(|v| format!("the game cannot start: {v}"))?;
    rebuild_on(&mut session, turns, 0, limits)?;
    Ok(session)
}

/// Plays `turns` (each `seat: turn`) on `session`; `before` turns were played already
/// (for the turns' numbers in messages).
pub fn rebuild_on<G: Game>(
    session: &mut Session<G>,
    turns: &[String],
    before: usize,
    limits: &Limits,
) -> Result<(), String> {
    for (i, text) in turns.iter().enumerate() {
        let n = before + i + 1;
        let entry = parse_single(text, limits, G::parse_turn)
            .map_err(|m| format!("turn {n} `{text}` is not a turn: {m}"))?;
        let bad = match &entry.action {
            Action::BadAddress(sp) => text[sp.start..sp.end].to_string(),
            _ => String::new(),
        };
        session
            .check_frame(
                entry.number.map(|(n, _)| n),
                entry.label().map(|(l, _)| l.as_str()),
            )
            .and_then(|()| session.play(&entry.action, &bad))
            .map_err(|r| format!("turn {n} `{text}` is refused: {r}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::halasi::Halasi;
    use crate::games::thaayam::Thaayam;

    /// The turn and the outcome a written turn holds.
    fn written<G: Game>(text: &str) -> (Action<G::Turn>, Option<G::Chance>) {
        let entry = parse_single(text, &Limits::default(), G::parse_turn).expect(text);
        let chance = match &entry.action {
            Action::Play(t) => G::written_chance(t).map(|c| c.into_owned()),
            _ => None,
        };
        (entry.action, chance)
    }

    #[test]
    fn a_turn_is_seen_with_the_outcome_it_opened_with() {
        let (_, throws) = written::<Thaayam>("[1 4] -");
        let (bare, _) = written::<Thaayam>("enter, c1+4");
        assert_eq!(
            seen_turn::<Thaayam>(Seat(0), &bare, throws.as_ref()).as_deref(),
            Some("south: [1 4] enter, c1+4")
        );
        // An outcome already written stays as written.
        let (full, _) = written::<Thaayam>("[1 4] enter, c1+4");
        assert_eq!(
            seen_turn::<Thaayam>(Seat(0), &full, throws.as_ref()).as_deref(),
            Some("south: [1 4] enter, c1+4")
        );
        let (_, buy_in) = written::<Halasi>("[RX SS IO QQ] place AM1 @0,0 r0");
        let (place, _) = written::<Halasi>("place AM1 @0,0 r0");
        assert_eq!(
            seen_turn::<Halasi>(Seat(1), &place, buy_in.as_ref()).as_deref(),
            Some("b: [RX SS IO QQ] place AM1 @0,0 r0")
        );
        assert_eq!(
            seen_turn::<Thaayam>(Seat(2), &Action::Resign, None).as_deref(),
            Some("north: resign")
        );
    }
}
