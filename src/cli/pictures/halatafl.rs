//! Drawing Halatafl positions: a 7×7 text diagram (letters, so colour is never needed)
//! and an SVG picture of the board as white sees it.

use std::fmt::Write;

use super::Picture;
use crate::games::halatafl::{is_throne, Halatafl, Rank, Settings, State};
use crate::games::{seat_name, Game, Seat};
use crate::notation::halatafl::Square;

/// The ring round a piece that may be huffed.
const HUFF: &str = "#c4202a";

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

/// A pending huff in words (`black may huff c3 or e5`), as the text and the picture
/// say it.
fn huff_line(settings: &Settings, state: &State) -> Option<String> {
    let huff: Vec<String> = state
        .huffable_squares(settings)
        .map(|q| q.to_string())
        .collect();
    (!huff.is_empty()).then(|| {
        format!(
            "{} may huff {}",
            seat_name::<Halatafl>(state.to_move()),
            huff.join(" or ")
        )
    })
}

/// What the last turn did to a point.
enum Change {
    /// The mover's piece started its move here.
    Left,
    /// The mover's piece ended its move here.
    Reached,
    /// A piece of the other seat was captured or huffed here.
    Taken,
}

/// What the turn from `before` to `state` did to `sq`, if anything.
fn change(before: &State, state: &State, sq: Square) -> Option<Change> {
    let (was, now) = (before.piece_at(sq), state.piece_at(sq));
    let mover = before.to_move();
    match (was, now) {
        _ if was == now => None,
        (Some(p), None) if p.seat == mover => Some(Change::Left),
        (_, Some(p)) if p.seat == mover => Some(Change::Reached),
        _ => Some(Change::Taken),
    }
}

impl Picture for Halatafl {
    fn diagram(settings: &Settings, state: &State) -> String {
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
        if let Some(huff) = huff_line(settings, state) {
            let _ = writeln!(s, "{huff}");
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
        let huffable = state.huffable(settings);
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
            // What the last turn changed: the point the move started from (a dashed
            // ring round a gold dot), the point it ended on and the points taken (a
            // solid ring).
            match before.and_then(|b| change(b, state, sq)) {
                Some(Change::Left) => {
                    let _ = writeln!(
                        s,
                        r##"<g class="last from"><title>{sq}: the last move started here</title><circle cx="{x}" cy="{y}" r="26" fill="none" stroke="{gold}" stroke-width="4" stroke-dasharray="7 5"/><circle cx="{x}" cy="{y}" r="7" fill="{gold}"/></g>"##,
                        gold = super::LAST_TURN
                    );
                }
                Some(change) => {
                    let _ = writeln!(
                        s,
                        r##"<circle class="last" cx="{x}" cy="{y}" r="26" fill="none" stroke="{}" stroke-width="5"><title>{sq}: {}</title></circle>"##,
                        super::LAST_TURN,
                        match change {
                            Change::Reached => "the last move ended here",
                            _ => "taken by the last turn",
                        }
                    );
                }
                None => {}
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
            // A piece the seat to move may huff: a red dashed ring over it.
            if huffable >> i & 1 == 1 {
                let _ = writeln!(
                    s,
                    r##"<circle class="huff" cx="{x}" cy="{y}" r="23" fill="none" stroke="{HUFF}" stroke-width="3" stroke-dasharray="5 3"><title>{} may huff {sq}</title></circle>"##,
                    seat_name::<Halatafl>(state.to_move())
                );
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
        // The title: who is to move or who won, and a pending huff as the text says it.
        let mut title = super::result_title::<Halatafl>(settings, state);
        if let Some(huff) = huff_line(settings, state) {
            title = format!("{title}; {huff}");
        }
        let _ = writeln!(
            s,
            r##"<text x="240" y="24" text-anchor="middle" font-size="14">{title}</text>"##
        );
        s.push_str("</svg>\n");
        let _ = Halatafl::NAME;
        Some(s)
    }
}
