//! Drawing Thaayam positions: a 5×5 text diagram readable without colour, and the
//! picture: the 5×5 board with its marked squares (palaces and keep crossed), the route
//! of every seat still playing faint underneath, the pieces on the board in their seat's
//! colour (twins as a joined pair), and beside each seat's edge of the board its pieces
//! in hand and borne off. Every piece carries its seat's initial, so colour is never
//! needed to read it.

use std::fmt::Write;

use super::Picture;
use crate::games::thaayam::board::{is_safe, square, KEEP};
use crate::games::thaayam::{Settings, State, Thaayam, SEAT_NAMES};
use crate::games::Seat;
use crate::notation::thaayam::Square;

/// Pixels per square.
const SQ: i32 = 72;
/// The board's top-left corner.
const X0: i32 = 140;
const Y0: i32 = 96;
const WIDTH: i32 = 640;
const HEIGHT: i32 = 540;
/// The picture's background, the board's squares, its ink (Halatafl's wood).
const WOOD: &str = "#e8d4a8";
const SQUARE: &str = "#f3e6c6";
const MARKED: &str = "#e2c48e";
const INK: &str = "#5a3d1e";
const INITIALS: [char; 4] = ['S', 'W', 'N', 'E'];

/// A square's contents: `+` for a marked square, then each seat's singles by initial
/// and twins in brackets (`+S(NN)`), `.` for an empty plain square.
fn cell(state: &State, sq: Square) -> String {
    let mut s = String::new();
    if is_safe(sq) {
        s.push('+');
    }
    for (i, (singles, twinned)) in state.at(sq).iter().enumerate() {
        for _ in 0..*singles {
            s.push(INITIALS[i]);
        }
        for _ in 0..twinned / 2 {
            s.push('(');
            s.push(INITIALS[i]);
            s.push(INITIALS[i]);
            s.push(')');
        }
    }
    if s.is_empty() {
        s.push('.');
    }
    s
}

impl Picture for Thaayam {
    fn diagram(settings: &Settings, state: &State) -> String {
        let cells: Vec<String> = (0..25u8)
            .map(|i| cell(state, Square::from_index(i).expect("on the board")))
            .collect();
        let width = cells.iter().map(String::len).max().unwrap_or(1).max(4) + 1;
        let mut s = String::from("    ");
        for f in 0..5u8 {
            let _ = write!(s, "{:<width$}", (b'a' + f) as char);
        }
        s = s.trim_end().to_string();
        s.push('\n');
        for rank in (0..5u8).rev() {
            let _ = write!(s, " {}  ", rank + 1);
            for file in 0..5u8 {
                let sq = Square::new(file, rank).expect("on the board");
                let _ = write!(s, "{:<width$}", cells[sq.index()]);
            }
            let _ = writeln!(s, "{}", rank + 1);
        }
        s.push_str("+ marked square (palace or keep) · S W N E a single piece · (SS) twins\n");
        for &seat in settings.seats() {
            let name = SEAT_NAMES[seat.0 as usize];
            if state.is_playing(seat) {
                let _ = writeln!(
                    s,
                    "{name} ({}): in hand {}, borne off {}",
                    INITIALS[seat.0 as usize],
                    state.hand(seat),
                    state.off(seat)
                );
            } else {
                let _ = writeln!(s, "{name}: left the game");
            }
        }
        // Who is to move is the status line every caller prints after the diagram.
        s
    }

    fn svg(settings: &Settings, state: &State, before: Option<&State>) -> Option<String> {
        Some(svg(settings, state, before))
    }
}

/// A seat's colour, by seat index (south, west, north, east): Halasi's suit inks, dark
/// enough for a white letter.
fn colour(seat: usize) -> &'static str {
    ["#c4202a", "#237a2b", "#a77a00", "#1f56b8"][seat & 3]
}

/// The centre of a square in pixels (rank 5 at the top).
fn centre(sq: Square) -> (i32, i32) {
    (
        X0 + SQ / 2 + SQ * sq.file() as i32,
        Y0 + SQ / 2 + SQ * (4 - sq.rank() as i32),
    )
}

/// What a marked square is, for its tooltip.
fn marked_name(sq: Square) -> String {
    if sq == square(Seat(0), KEEP) {
        return "the keep".into();
    }
    // A palace is position 0 of its seat's route.
    let owner = (0..4u8).find(|&s| square(Seat(s), 0) == sq).unwrap_or(0);
    format!("{}'s palace", SEAT_NAMES[owner as usize])
}

/// The picture of a position; the squares whose pieces the last turn changed (from
/// `before`) marked in gold.
fn svg(settings: &Settings, state: &State, before: Option<&State>) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif">"##
    );
    let _ = writeln!(
        s,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="{WOOD}"/>"##
    );
    board(&mut s);
    for &seat in settings.seats() {
        if state.is_playing(seat) {
            route(&mut s, seat);
        }
    }
    for i in 0..25u8 {
        let sq = Square::from_index(i).expect("on the board");
        if before.is_some_and(|b| b.at(sq) != state.at(sq)) {
            let (cx, cy) = centre(sq);
            let _ = writeln!(
                s,
                r##"<rect class="last" x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{}" stroke-width="5"/>"##,
                cx - SQ / 2 + 3,
                cy - SQ / 2 + 3,
                SQ - 6,
                SQ - 6,
                super::LAST_TURN
            );
        }
        pieces(&mut s, state, sq);
    }
    for &seat in settings.seats() {
        tray(&mut s, state, seat);
    }
    let title = super::result_title::<Thaayam>(settings, state);
    let _ = writeln!(
        s,
        r##"<text x="{}" y="24" text-anchor="middle" font-size="14">{title}</text>"##,
        WIDTH / 2
    );
    s.push_str("</svg>\n");
    s
}

/// The squares, the crosses of the marked ones, the coordinates.
fn board(s: &mut String) {
    for i in 0..25u8 {
        let sq = Square::from_index(i).expect("on the board");
        let (cx, cy) = centre(sq);
        let (x, y) = (cx - SQ / 2, cy - SQ / 2);
        if is_safe(sq) {
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{MARKED}" stroke="{INK}" stroke-width="2"><title>{sq}, {} (safe)</title></rect>"##,
                marked_name(sq)
            );
            let _ = writeln!(
                s,
                r##"<path d="M{x} {y}l{SQ} {SQ}M{} {y}l-{SQ} {SQ}" stroke="{INK}" stroke-width="1.5"/>"##,
                x + SQ
            );
        } else {
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{SQ}" height="{SQ}" fill="{SQUARE}" stroke="{INK}" stroke-width="2"/>"##
            );
        }
    }
    for f in 0..5 {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="14">{}</text>"##,
            X0 + SQ / 2 + SQ * f,
            Y0 + 5 * SQ + 18,
            (b'a' + f as u8) as char
        );
    }
    for r in 0..5 {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="middle" font-size="14">{}</text>"##,
            X0 - 12,
            Y0 + SQ / 2 + SQ * (4 - r) + 5,
            r + 1
        );
    }
}

/// A seat's route, faint: a line through its 25 squares (shifted a little per seat so
/// that routes over the same squares stay apart), an arrowhead halfway along each step,
/// a dot on its palace.
fn route(s: &mut String, seat: Seat) {
    let si = seat.0 as usize & 3;
    let shift = [-9, -3, 3, 9][si];
    let at = |p: u8| {
        let (x, y) = centre(square(seat, p));
        (x + shift, y + shift)
    };
    let mut points = String::new();
    for p in 0..=KEEP {
        let (x, y) = at(p);
        let _ = write!(points, "{x},{y} ");
    }
    let c = colour(si);
    let _ = writeln!(
        s,
        r##"<g opacity="0.3" fill="{c}"><title>{}'s route</title>"##,
        SEAT_NAMES[si]
    );
    let _ = writeln!(
        s,
        r##"<polyline points="{}" fill="none" stroke="{c}" stroke-width="2.5" stroke-linejoin="round"/>"##,
        points.trim_end()
    );
    let (px, py) = at(0);
    let _ = writeln!(s, r##"<circle cx="{px}" cy="{py}" r="4"/>"##);
    for p in 0..KEEP {
        let ((x1, y1), (x2, y2)) = (at(p), at(p + 1));
        // Steps are between neighbouring squares: one of dx, dy is 0, the other ±SQ.
        let (dx, dy) = ((x2 - x1).signum(), (y2 - y1).signum());
        let (mx, my) = ((x1 + x2) / 2, (y1 + y2) / 2);
        let (tip, back, side) = (6, 4, 5);
        let _ = writeln!(
            s,
            r##"<polygon points="{},{} {},{} {},{}"/>"##,
            mx + dx * tip,
            my + dy * tip,
            mx - dx * back - dy * side,
            my - dy * back + dx * side,
            mx - dx * back + dy * side,
            my - dy * back - dx * side
        );
    }
    s.push_str("</g>\n");
}

/// One piece, or a pair of twins (two discs joined), with the seat's initial; a count
/// beside it when the seat has more than one such on the square.
fn token(s: &mut String, (x, y): (i32, i32), r: i32, seat: usize, twins: bool, count: u8) {
    let c = colour(seat);
    let letter = INITIALS[seat];
    if twins {
        let d = r / 2;
        for dx in [-d, d] {
            let _ = writeln!(
                s,
                r##"<circle cx="{}" cy="{y}" r="{}" fill="{c}" stroke="#111" stroke-width="1.5"/>"##,
                x + dx,
                r * 4 / 5
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{x}" y="{}" text-anchor="middle" font-size="{}" font-weight="bold" fill="#fff">{letter}{letter}</text>"##,
            y + r * 2 / 5,
            r
        );
    } else {
        let _ = writeln!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="{r}" fill="{c}" stroke="#111" stroke-width="1.5"/>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="{x}" y="{}" text-anchor="middle" font-size="{}" font-weight="bold" fill="#fff">{letter}</text>"##,
            y + r * 2 / 5,
            r * 6 / 5
        );
    }
    if count > 1 {
        let (bx, by) = (x + r, y - r * 4 / 5);
        let _ = writeln!(
            s,
            r##"<circle cx="{bx}" cy="{by}" r="7" fill="#fff" stroke="{c}" stroke-width="1.5"/>"##
        );
        let _ = writeln!(
            s,
            r##"<text x="{bx}" y="{}" text-anchor="middle" font-size="10" font-weight="bold" fill="#111">{count}</text>"##,
            by + 4
        );
    }
}

/// The pieces on a square: one token a seat and kind (singles, twins), laid out by how
/// many tokens share the square.
fn pieces(s: &mut String, state: &State, sq: Square) {
    // At most 8 tokens: 4 seats, singles and twins.
    let mut tokens: [(usize, bool, u8); 8] = [(0, false, 0); 8];
    let mut n = 0;
    for (seat, (singles, twinned)) in state.at(sq).into_iter().enumerate() {
        if singles > 0 {
            tokens[n] = (seat, false, singles);
            n += 1;
        }
        if twinned > 0 {
            tokens[n] = (seat, true, twinned / 2);
            n += 1;
        }
    }
    if n == 0 {
        return;
    }
    let (cx, cy) = centre(sq);
    let (r, slots): (i32, &[(i32, i32)]) = match n {
        1 => (20, &[(0, 0)]),
        2 => (13, &[(-17, 0), (17, 0)]),
        3 | 4 => (12, &[(-17, -17), (17, -17), (-17, 17), (17, 17)]),
        5 | 6 => (
            9,
            &[
                (-23, -12),
                (0, -12),
                (23, -12),
                (-23, 12),
                (0, 12),
                (23, 12),
            ],
        ),
        _ => (
            9,
            &[
                (-23, -23),
                (0, -23),
                (23, -23),
                (-23, 0),
                (0, 0),
                (23, 0),
                (-23, 23),
                (0, 23),
                (23, 23),
            ],
        ),
    };
    let mut what = String::new();
    for &(seat, twins, count) in &tokens[..n] {
        if !what.is_empty() {
            what.push_str("; ");
        }
        let _ = write!(
            what,
            "{} {}",
            SEAT_NAMES[seat],
            match (twins, count) {
                (false, 1) => "1 piece".to_string(),
                (false, k) => format!("{k} pieces"),
                (true, 1) => "twins".to_string(),
                (true, k) => format!("{k} pairs of twins"),
            }
        );
    }
    let _ = writeln!(s, "<g><title>{sq}: {what}</title>");
    for (&(seat, twins, count), &(dx, dy)) in tokens[..n].iter().zip(slots) {
        token(s, (cx + dx, cy + dy), r, seat, twins, count);
    }
    s.push_str("</g>\n");
}

/// A seat's name beside its edge of the board, a mark when it is to move, and its
/// pieces in hand and borne off as small discs.
fn tray(s: &mut String, state: &State, seat: Seat) {
    let si = seat.0 as usize & 3;
    let c = colour(si);
    let name = SEAT_NAMES[si];
    let to_move = state.end.is_none() && state.to_move == seat;
    let playing = state.is_playing(seat);
    // South and north: one line under or over the board; west and east: a column.
    let horizontal = si.is_multiple_of(2);
    let mid = |a: i32| a + 5 * SQ / 2;
    let (nx, ny) = match si {
        0 => (X0 + 10, Y0 + 5 * SQ + 56),
        2 => (X0 + 10, Y0 - 32),
        1 => (X0 / 2 - 8, mid(Y0) - 60),
        _ => (X0 + 5 * SQ + X0 / 2 + 8, mid(Y0) - 60),
    };
    let anchor = if horizontal { "start" } else { "middle" };
    let _ = writeln!(s, r##"<g><title>{name}: {}</title>"##, {
        if playing {
            format!(
                "{} in hand, {} borne off{}",
                state.hand(seat),
                state.off(seat),
                if to_move { ", to move" } else { "" }
            )
        } else {
            "left the game".into()
        }
    });
    let _ = writeln!(
        s,
        r##"<text x="{nx}" y="{ny}" text-anchor="{anchor}" font-size="15" font-weight="bold" fill="{c}">{name}</text>"##
    );
    if to_move {
        // A triangle pointing at the name.
        let (tx, ty) = if horizontal {
            (nx - 6, ny - 5)
        } else {
            (nx - 36, ny - 5)
        };
        let _ = writeln!(
            s,
            r##"<polygon points="{},{} {},{} {tx},{ty}" fill="{c}"/>"##,
            tx - 10,
            ty - 6,
            tx - 10,
            ty + 6
        );
    }
    if !playing {
        let (lx, ly) = if horizontal {
            (nx + 70, ny)
        } else {
            (nx, ny + 24)
        };
        let _ = writeln!(
            s,
            r##"<text x="{lx}" y="{ly}" text-anchor="{anchor}" font-size="12" fill="#555">left the game</text>"##
        );
        s.push_str("</g>\n");
        return;
    }
    let rows = [
        ("in hand", state.hand(seat)),
        ("borne off", state.off(seat)),
    ];
    for (k, (label, count)) in rows.into_iter().enumerate() {
        // The label's place, and the first disc's centre.
        let (lx, ly, dx, dy) = if horizontal {
            let x = nx + 70 + 160 * k as i32;
            (x, ny, x + 68, ny - 4)
        } else {
            let y = ny + 26 + 52 * k as i32;
            (nx, y, nx - 30, y + 18)
        };
        let _ = writeln!(
            s,
            r##"<text x="{lx}" y="{ly}" text-anchor="{anchor}" font-size="12" fill="#333">{label}</text>"##
        );
        if count == 0 {
            let x = if horizontal { dx } else { nx };
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{}" text-anchor="middle" font-size="12" fill="#333">–</text>"##,
                dy + 4
            );
        }
        for i in 0..count as i32 {
            let x = dx + 20 * i;
            let _ = writeln!(
                s,
                r##"<circle cx="{x}" cy="{dy}" r="8" fill="{c}" stroke="#111" stroke-width="1"/>"##
            );
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{}" text-anchor="middle" font-size="10" font-weight="bold" fill="#fff">{}</text>"##,
                dy + 4,
                INITIALS[si]
            );
        }
    }
    s.push_str("</g>\n");
}
