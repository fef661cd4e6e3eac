//! Drawing Halatafl positions: a 7×7 text diagram (letters, so colour is never needed)
//! and an SVG picture of the board as white sees it.

use std::fmt::Write;

use super::Picture;
use crate::games::halatafl::{is_throne, Halatafl, Rank, Settings, State};
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

impl Picture for Halatafl {
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
