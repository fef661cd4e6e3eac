//! Pictures of positions: each game's text diagram (readable without colour) and its
//! SVG picture, side by side in that game's file or folder. This room draws from the
//! layers below the command line (`games`, `referee`, `notation`) and from its own
//! files only; the rest of `cli` calls into it (`Render` is a `Picture`), never the
//! other way.

mod halasi;
mod halatafl;
mod halves;
mod thaayam;

pub(crate) use halasi::phase as halasi_phase;

use crate::games::Game;

/// How a game's positions are drawn.
pub trait Picture: Game {
    /// A text diagram of a position, ending with a newline.
    fn diagram(settings: &Self::Settings, state: &Self::State) -> String;
    /// An SVG picture, where the game has one; `before`, the position before the last
    /// turn, where known, so that the picture marks what that turn changed.
    fn svg(
        _settings: &Self::Settings,
        _state: &Self::State,
        _before: Option<&Self::State>,
    ) -> Option<String> {
        None
    }
}

/// The gold that marks what the last turn changed, in every game's picture.
const LAST_TURN: &str = "#f2b600";

/// A finished game's status as the pictures title it: who won and why.
fn result_title<G: Game>(settings: &G::Settings, state: &G::State) -> String {
    crate::referee::StatusReport::of::<G>(&G::status(settings, state)).describe()
}
