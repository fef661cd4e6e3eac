//! Drawing Halves positions: a staggered text diagram of the flat-topped hexes (letters
//! W, B, R, so colour is never needed) and an SVG picture with every cell's coordinates
//! written in its hex.

use std::fmt::Write;

use super::Picture;
use crate::games::halves::{violation::colour_name, Halves, Settings, State};
use crate::games::Seat;

fn letter(seat: Seat) -> char {
    match seat.0 {
        0 => 'W',
        1 => 'B',
        _ => 'R',
    }
}

/// What the text and the picture say of a contract that swapped colours.
const SWAPPED: &str = "the players swapped colours in the contract";

/// The phase, the colour swap and each seat's tiles: what the diagram adds to the
/// status line the command prints under it (`white to move`, `black wins (first-out)`).
fn counts_line(settings: &Settings, state: &State) -> String {
    let mut s = String::new();
    if state.end.is_none() {
        let _ = write!(s, "{} phase", state.phase.word());
    }
    if state.swapped {
        if !s.is_empty() {
            s.push_str("; ");
        }
        s.push_str(SWAPPED);
    }
    let counts: Vec<String> = settings
        .seats
        .iter()
        .map(|&seat| {
            let hand = state.hand[seat.0 as usize % 3];
            let mut t = format!(
                "{} {}: {}",
                colour_name(seat),
                letter(seat),
                state.tiles.count(seat)
            );
            if hand > 0 {
                let _ = write!(t, " (+{hand} in hand)");
            }
            t
        })
        .collect();
    if s.is_empty() {
        format!("{}\n", counts.join(" · "))
    } else {
        format!("{s}\n{}\n", counts.join(" · "))
    }
}

/// The picture's title: who is to move and in which phase, or who won and why.
fn title(settings: &Settings, state: &State) -> String {
    match state.end {
        Some(_) => super::result_title::<Halves>(settings, state),
        None => format!(
            "{} to move, {} phase",
            colour_name(state.to_move),
            state.phase.word()
        ),
    }
}

impl Picture for Halves {
    /// Column `q` is drawn 4 characters right of column `q-1`; each line is one step of
    /// `2r + q`, so a cell's north and south neighbours are two lines above and below,
    /// and its other neighbours one line up or down in the next column — the hexes'
    /// own layout. Each tile is its letter and its cell: `W(0,0)`.
    fn diagram(settings: &Settings, state: &State) -> String {
        let tiles: Vec<_> = state.tiles.iter().collect();
        let mut s = String::new();
        if tiles.is_empty() {
            s.push_str("(no tiles on the table)\n");
            s.push_str(&counts_line(settings, state));
            return s;
        }
        let qmin = tiles.iter().map(|(c, _)| c.q as i32).min().unwrap_or(0);
        let qmax = tiles.iter().map(|(c, _)| c.q as i32).max().unwrap_or(0);
        let y = |q: i32, r: i32| 2 * r + q;
        let ymin = tiles
            .iter()
            .map(|(c, _)| y(c.q as i32, c.r as i32))
            .min()
            .unwrap_or(0);
        let ymax = tiles
            .iter()
            .map(|(c, _)| y(c.q as i32, c.r as i32))
            .max()
            .unwrap_or(0);
        const W: usize = 10;
        let width = (qmax - qmin + 1) as usize * W;
        for line in ymin..=ymax {
            let mut row = vec![' '; width];
            for &(c, seat) in &tiles {
                let (q, r) = (c.q as i32, c.r as i32);
                if y(q, r) != line {
                    continue;
                }
                let text = format!("{}{}", letter(seat), c);
                let at = (q - qmin) as usize * W;
                for (k, ch) in text.chars().enumerate() {
                    if at + k < row.len() {
                        row[at + k] = ch;
                    }
                }
            }
            let text: String = row.into_iter().collect();
            let _ = writeln!(s, "{}", text.trim_end());
        }
        s.push_str(&counts_line(settings, state));
        s
    }

    fn svg(settings: &Settings, state: &State, before: Option<&State>) -> Option<String> {
        const SIZE: f64 = 34.0;
        let h3 = 3f64.sqrt();
        let centre = |q: i16, r: i16| {
            let (q, r) = (f64::from(q), f64::from(r));
            (1.5 * SIZE * q, h3 * SIZE * (r + q / 2.0))
        };
        let tiles: Vec<_> = state.tiles.iter().collect();
        let pts: Vec<(f64, f64)> = tiles.iter().map(|(c, _)| centre(c.q, c.r)).collect();
        let (mut x0, mut y0, mut x1, mut y1) = (0f64, 0f64, 0f64, 0f64);
        for &(x, y) in &pts {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        let pad = SIZE * 1.5;
        let (vx, vy) = (x0 - pad, y0 - pad - 30.0);
        let (mut w, h) = (x1 - x0 + 2.0 * pad, y1 - y0 + 2.0 * pad + 30.0);
        let mut vx = vx;
        if w < 480.0 {
            vx -= (480.0 - w) / 2.0;
            w = 480.0;
        }
        let mut s = String::new();
        let _ = writeln!(
            s,
            r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vx:.1} {vy:.1} {w:.1} {h:.1}" width="{w:.0}" height="{h:.0}" font-family="sans-serif">"##
        );
        let _ = writeln!(
            s,
            r##"<rect x="{vx:.1}" y="{vy:.1}" width="{w:.1}" height="{h:.1}" fill="#d9e4d0"/>"##
        );
        for (&(cell, seat), &(x, y)) in tiles.iter().zip(&pts) {
            let mut poly = String::new();
            for k in 0..6 {
                let a = std::f64::consts::PI / 3.0 * f64::from(k);
                let _ = write!(poly, "{:.1},{:.1} ", x + SIZE * a.cos(), y + SIZE * a.sin());
            }
            let (fill, ink) = match seat.0 {
                0 => ("#fbfbf5", "#222"),
                1 => ("#262626", "#f4f4f4"),
                _ => ("#b3262b", "#fff"),
            };
            let _ = writeln!(
                s,
                r##"<polygon points="{}" fill="{fill}" stroke="#555" stroke-width="2"><title>{} tile on {cell}</title></polygon>"##,
                poly.trim_end(),
                colour_name(seat)
            );
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="15" font-weight="bold" fill="{ink}">{}</text>"##,
                y - 3.0,
                letter(seat)
            );
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" font-size="12" fill="{ink}">{cell}</text>"##,
                y + 14.0
            );
        }
        // What the last turn changed: a tile placed (ringed) or removed (its cell
        // outlined where it was).
        if let Some(b) = before {
            let now: Vec<_> = state.tiles.iter().collect();
            let was: Vec<_> = b.tiles.iter().collect();
            let changed = now
                .iter()
                .filter(|t| !was.contains(t))
                .chain(was.iter().filter(|t| !now.contains(t)));
            for &(cell, _) in changed {
                let (x, y) = centre(cell.q, cell.r);
                let mut poly = String::new();
                for k in 0..6 {
                    let a = std::f64::consts::PI / 3.0 * f64::from(k);
                    let _ = write!(
                        poly,
                        "{:.1},{:.1} ",
                        x + (SIZE - 4.0) * a.cos(),
                        y + (SIZE - 4.0) * a.sin()
                    );
                }
                let _ = writeln!(
                    s,
                    r##"<polygon class="last" points="{}" fill="none" stroke="{}" stroke-width="5" stroke-dasharray="{}"/>"##,
                    poly.trim_end(),
                    super::LAST_TURN,
                    if now.iter().any(|t| t.0 == cell) {
                        "none"
                    } else {
                        "8 5"
                    }
                );
            }
        }
        let title = title(settings, state);
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="14">{}</text>"##,
            vx + w / 2.0,
            vy + 20.0,
            title
        );
        // Seat labels and rules speak of colours: after a swap, each player plays the
        // other colour, as the text says under its diagram.
        if state.swapped {
            let _ = writeln!(
                s,
                r##"<text class="swap" x="{:.1}" y="{:.1}" text-anchor="middle" font-size="12" fill="#444">{SWAPPED}</text>"##,
                vx + w / 2.0,
                vy + 38.0
            );
        }
        s.push_str("</svg>\n");
        Some(s)
    }
}
