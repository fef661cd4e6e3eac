//! A playout: from a position, turns of the game's playout policy
//! ([`Game::playout_turn`]) to the end, or to [`Game::PLAYOUT_CAP`] turns where the
//! position is scored by [`Game::cut_shares`]. Every random event comes from the engine's
//! generator through [`Game::draw_chance`].

use super::stats::{self, Reward};
use crate::dice::Dice;
use crate::games::{Game, Status};

/// Plays `state` out; returns the reward and the turns played.
pub fn playout<G: Game>(
    settings: &G::Settings,
    state: &mut G::State,
    rng: &mut Dice,
    scratch: &mut Vec<G::Turn>,
) -> (Reward, usize) {
    for n in 0..G::PLAYOUT_CAP {
        if let Status::Over(end) = G::status(settings, state) {
            return (stats::of_end::<G>(settings, &end), n);
        }
        let chance = G::draw_chance(settings, state, rng);
        match G::playout_turn(settings, state, chance.as_ref(), rng, scratch) {
            Some(turn) => G::apply_legal(settings, state, chance.as_ref(), &turn),
            None => return (stats::of_position::<G>(settings, state), n),
        }
    }
    (stats::of_position::<G>(settings, state), G::PLAYOUT_CAP)
}
