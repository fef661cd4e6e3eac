//! Drawing positions: a text diagram readable without colour, a JSON position, and
//! (where the game has one) an SVG picture. Rendering is the CLI's business; the game
//! modules only expose their state.

use serde_json::Value as Json;

use crate::games::Game;

/// How the CLI shows a game's positions.
pub trait Render: Game {
    /// A text diagram of a position, ending with a newline.
    fn diagram(settings: &Self::Settings, state: &Self::State) -> String;
    /// The position as JSON (`:show`, `show --format json`).
    fn position_json(settings: &Self::Settings, state: &Self::State) -> Json;
    /// Is the picture of this position empty (Halasi before its first territory)? The
    /// HTML page opens on the first position that is not.
    fn empty_picture(_settings: &Self::Settings, _state: &Self::State) -> bool {
        false
    }
    /// An SVG picture, where the game has one; `before`, the position before the last
    /// turn, where known, so that the picture marks what that turn changed.
    fn svg(
        _settings: &Self::Settings,
        _state: &Self::State,
        _before: Option<&Self::State>,
    ) -> Option<String> {
        None
    }
    /// A turn's score breakdown as a table for people (`score`, `adjudicate`), each line
    /// indented and ended by a newline; empty for a game without scores. A turn that
    /// was refused (`counted` false) is shown as it would score, without the money,
    /// purses or running score after it: it moved none.
    fn breakdown_text(_breakdown: &Self::Breakdown, _counted: bool) -> String {
        String::new()
    }
    /// A turn's score against its claim in a few words, for a ruling's list of turns
    /// (`scores 17, as claimed`); `None` where there is nothing to say.
    fn score_line(_breakdown: &Self::Breakdown) -> Option<String> {
        None
    }
    /// What `moves` lists when it is not every legal turn (Halasi: runs of one domino).
    const MOVES_NOTE: Option<&'static str> = None;
}

/// The gold that marks what the last turn changed, in every game's picture.
pub(crate) const LAST_TURN: &str = "#f2b600";

/// A finished game's status as the pictures title it: who won and why.
pub(crate) fn result_title<G: crate::games::Game>(
    settings: &G::Settings,
    state: &G::State,
) -> String {
    crate::referee::StatusReport::of::<G>(&G::status(settings, state)).describe()
}

// ---------------------------------------------------------------------------------
// Halatafl

mod halatafl {
    use std::fmt::Write;

    use serde_json::{json, Value as Json};

    use super::Render;
    use crate::games::halatafl::{by_name, is_throne, Halatafl, Rank, Settings, State};
    use crate::games::{seat_name, Game, Seat};
    use crate::notation::halatafl::Square;

    /// `M K E` white man, king, emperor; `m k e` black; `.` an empty point; `#` an
    /// empty throne.
    fn letter(state: &State, sq: Square) -> char {
        match state.piece_at(sq) {
            Some(p) => {
                let c = match p.rank {
                    Rank::Man => 'm',
                    Rank::King => 'k',
                    Rank::Emperor => 'e',
                };
                if p.seat == Seat(0) {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            }
            None if is_throne(sq) => '#',
            None => '.',
        }
    }

    impl Render for Halatafl {
        fn diagram(_settings: &Settings, state: &State) -> String {
            let mut s = String::from("    a b c d e f g\n");
            for rank in (0..7u8).rev() {
                let _ = write!(s, " {}  ", rank + 1);
                for file in 0..7u8 {
                    let sq = Square::new(file, rank).expect("on the board");
                    s.push(letter(state, sq));
                    s.push(' ');
                }
                let _ = writeln!(s, " {}", rank + 1);
            }
            s.push_str("    a b c d e f g\n");
            let _ = writeln!(
                s,
                "white M K E: {} · black m k e: {} · # empty throne",
                state.count(Seat(0)),
                state.count(Seat(1))
            );
            let huff: Vec<String> = state.huffable_squares().map(|q| q.to_string()).collect();
            if !huff.is_empty() {
                let _ = writeln!(
                    s,
                    "{} may huff {}",
                    seat_name::<Halatafl>(state.to_move()),
                    huff.join(" or ")
                );
            }
            s
        }

        fn position_json(_settings: &Settings, state: &State) -> Json {
            let mut points = serde_json::Map::new();
            for i in 0..49u8 {
                let sq = Square::from_index(i).expect("on the board");
                if let Some(p) = state.piece_at(sq) {
                    points.insert(
                        sq.to_string(),
                        json!({"seat": seat_name::<Halatafl>(p.seat), "rank": p.rank.name()}),
                    );
                }
            }
            json!({
                "to_move": seat_name::<Halatafl>(state.to_move()),
                "pieces": points,
                "huffable": by_name(state.huffable()).map(|q| q.to_string()).collect::<Vec<_>>(),
                "quiet": state.quiet(),
            })
        }

        fn svg(settings: &Settings, state: &State, before: Option<&State>) -> Option<String> {
            // 7×7 points, 60 px apart; rank 7 at the top, as white sees the board.
            let at = |sq: Square| (60 + 60 * sq.file() as i32, 60 + 60 * (6 - sq.rank() as i32));
            let mut s = String::new();
            let _ = writeln!(
                s,
                r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 480" width="480" height="480" font-family="sans-serif">"##
            );
            let _ = writeln!(s, r##"<rect width="480" height="480" fill="#e8d4a8"/>"##);
            for (a, b) in settings.lines() {
                let ((x1, y1), (x2, y2)) = (at(a), at(b));
                let _ = writeln!(
                    s,
                    r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5a3d1e" stroke-width="2"/>"##
                );
            }
            for i in 0..49u8 {
                let sq = Square::from_index(i).expect("on the board");
                let (x, y) = at(sq);
                if is_throne(sq) {
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{x}" cy="{y}" r="24" fill="none" stroke="#5a3d1e" stroke-width="2"/>"##
                    );
                }
                let _ = writeln!(s, r##"<circle cx="{x}" cy="{y}" r="4" fill="#5a3d1e"/>"##);
                // What the last turn changed: a point left, reached or taken.
                if before.is_some_and(|b| b.piece_at(sq) != state.piece_at(sq)) {
                    let _ = writeln!(
                        s,
                        r##"<circle class="last" cx="{x}" cy="{y}" r="26" fill="none" stroke="{}" stroke-width="5"/>"##,
                        super::LAST_TURN
                    );
                }
                if let Some(p) = state.piece_at(sq) {
                    let (fill, ink) = if p.seat == Seat(0) {
                        ("#fbfbf5", "#222")
                    } else {
                        ("#222", "#fbfbf5")
                    };
                    let _ = writeln!(
                        s,
                        r##"<circle cx="{x}" cy="{y}" r="20" fill="{fill}" stroke="#111" stroke-width="2"><title>{} {} on {sq}</title></circle>"##,
                        seat_name::<Halatafl>(p.seat),
                        p.rank.name()
                    );
                    let mark = match p.rank {
                        Rank::Man => "",
                        Rank::King => "K",
                        Rank::Emperor => "E",
                    };
                    if !mark.is_empty() {
                        let _ = writeln!(
                            s,
                            r##"<text x="{x}" y="{}" text-anchor="middle" font-size="20" font-weight="bold" fill="{ink}">{mark}</text>"##,
                            y + 7
                        );
                    }
                }
            }
            for f in 0..7u8 {
                let x = 60 + 60 * f as i32;
                let _ = writeln!(
                    s,
                    r##"<text x="{x}" y="468" text-anchor="middle" font-size="14">{}</text>"##,
                    (b'a' + f) as char
                );
            }
            for r in 0..7u8 {
                let y = 60 + 60 * (6 - r as i32) + 5;
                let _ = writeln!(
                    s,
                    r##"<text x="16" y="{y}" text-anchor="middle" font-size="14">{}</text>"##,
                    r + 1
                );
            }
            let _ = writeln!(
                s,
                r##"<text x="240" y="24" text-anchor="middle" font-size="14">{}</text>"##,
                super::result_title::<Halatafl>(settings, state)
            );
            s.push_str("</svg>\n");
            let _ = Halatafl::NAME;
            Some(s)
        }
    }
}
