//! Drawing a Halasi layout (`halasi.md`, "Geometry"): an SVG picture and a text listing.
//!
//! The picture draws each territory's 24 triangles with their markings in their suit's
//! colour (Hard gold, Soft blue, Plant green, Animal red), each triangle's layout index
//! small in a corner so that addresses `LABEL.N` can be read off, the territory's label
//! over its centre, and the dominos over the triangles as inset rhombi in their seat's
//! colour. The geometry is mathematical (north up); SVG's y points down, so every point
//! is flipped once, in [`px`].
//!
//! The text has no picture: a drawing of triangles in characters would not read, so it
//! lists each territory's triangles by index, then the dominos in placing order.

use std::fmt::Write;

use crate::games::halasi::geometry::{centre, centroid, corners, TRIANGLES};
use crate::games::halasi::layout::{Layout, Placed, Tri};
use crate::games::halasi::markings::Suit;
use crate::games::halasi::violation::seat_name;
use crate::games::Seat;
use crate::notation::halasi::{Marking, Pos};

/// Pixels per unit triangle side.
const UNIT: f64 = 60.0;
/// Space around the layout's bounding box.
const MARGIN: f64 = 24.0;
/// Room for the title above the layout.
const HEADER: f64 = 44.0;
/// Room for the legend below it.
const FOOTER: f64 = 68.0;
/// The narrowest picture (so the legend fits).
const MIN_WIDTH: f64 = 640.0;
/// A domino's rhombus is scaled by this about its centre, so dominos side by side
/// stay apart.
const DOMINO_SCALE: f64 = 0.86;

const SYMBOL_FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
const LABEL_FONT: &str = "DejaVu Sans Condensed, Arial Narrow, sans-serif";
const TEXT_FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
/// The paper of an uncovered triangle, and of a market's centre.
const PAPER: &str = "#fbf7ec";
const MARKET: &str = "#ddd6ea";
const MARKET_RING: &str = "#5b4a86";

/// A point of the layout (side-1 triangles, y up) in SVG pixels (y down).
fn px((x, y): (f64, f64)) -> (f64, f64) {
    (x * UNIT, -y * UNIT)
}

fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Hard => "Hard",
        Suit::Soft => "Soft",
        Suit::Plant => "Plant",
        Suit::Animal => "Animal",
    }
}

/// The ink of a suit: gold, blue, green, red (`seeds/README.md`), dark enough to read
/// on the paper and on every seat's tint.
fn suit_colour(s: Suit) -> &'static str {
    match s {
        Suit::Hard => "#a77a00",
        Suit::Soft => "#1f56b8",
        Suit::Plant => "#237a2b",
        Suit::Animal => "#c4202a",
    }
}

/// A seat's outline and fill: colours kept apart from the four suits' inks.
fn seat_colours(seat: Seat) -> (&'static str, &'static str) {
    const COLOURS: [(&str, &str); 6] = [
        ("#1b1b1b", "#ffffff"), // a: black on white
        ("#8a2be2", "#efe2fb"), // b: violet
        ("#8d5a2b", "#f3e6d8"), // c: brown
        ("#00838f", "#dcf2f3"), // d: teal
        ("#e0610e", "#fde8d7"), // e: orange
        ("#5f6b75", "#e4e8ec"), // f: slate
    ];
    COLOURS[seat.0 as usize % COLOURS.len()]
}

/// Text safe inside an XML element or a double-quoted attribute.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

fn points(ps: &[(f64, f64)]) -> String {
    ps.iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn lerp(a: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t)
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// A triangle's place on the layout.
fn pos_index(layout: &Layout, t: Tri) -> (Pos, u8) {
    (layout.territories[t.slot()].at, t.index())
}

/// A triangle's corners and centroid in pixels.
fn tri_px(layout: &Layout, t: Tri) -> ([(f64, f64); 3], (f64, f64)) {
    let (pos, i) = pos_index(layout, t);
    (corners(pos, i).map(px), px(centroid(pos, i)))
}

/// Where a triangle's marking and its index go. Every triangle of the lattice has one
/// horizontal edge; the marking sits a little off the centroid, towards the corner
/// opposite that edge, and the index in the corner of the horizontal edge farther from the
/// territory's centre (away from the label drawn there).
fn anchors(layout: &Layout, t: Tri) -> ((f64, f64), (f64, f64)) {
    let (c, g) = tri_px(layout, t);
    let hub = px(centre(layout.territories[t.slot()].at));
    // The apex: the corner whose y differs from the other two.
    let apex = (0..3)
        .find(|&k| {
            let (a, b) = (c[(k + 1) % 3], c[(k + 2) % 3]);
            (a.1 - b.1).abs() < 1e-6
        })
        .unwrap_or(0);
    let (a, b) = (c[(apex + 1) % 3], c[(apex + 2) % 3]);
    let far = if dist(b, hub) > dist(a, hub) + 1e-6 {
        b
    } else {
        a
    };
    let symbol = lerp(g, c[apex], 0.1);
    let index = lerp(g, far, 0.52);
    (symbol, index)
}

/// Where the marking and the index of a domino half go: the marking towards the
/// domino's end (its half's far corner), the index beside the edge the halves share
/// (its midpoint `mid`), where the rhombus is widest: the corners of an inset rhombus
/// are too narrow for a number.
fn half_anchors(layout: &Layout, t: Tri, mid: (f64, f64)) -> ((f64, f64), (f64, f64)) {
    let (c, g) = tri_px(layout, t);
    let apex = c
        .into_iter()
        .max_by(|a, b| dist(*a, mid).total_cmp(&dist(*b, mid)))
        .unwrap_or(g);
    (lerp(g, apex, 0.12), lerp(g, mid, 0.6))
}

/// The midpoint of the edge a covered triangle shares with its domino's other half.
fn domino_mid(layout: &Layout, t: Tri) -> Option<(f64, f64)> {
    let (d, h) = layout.cover(t)?;
    let other = layout.dominos[d].halves[1 - h];
    let (a, _) = tri_px(layout, t);
    let (b, _) = tri_px(layout, other);
    let shared: Vec<(f64, f64)> = a
        .into_iter()
        .filter(|&p| b.iter().any(|&q| dist(p, q) < 1e-6))
        .collect();
    (shared.len() == 2).then(|| lerp(shared[0], shared[1], 0.5))
}

/// The y of a baseline that centres a line of text of size `size` on `y`.
fn baseline(y: f64, size: f64) -> f64 {
    y + 0.36 * size
}

/// A marking as a word: `R (Animal)`.
fn marking_word(m: Marking) -> String {
    format!("{m} ({})", suit_name(Suit::of(m)))
}

fn domino_text(d: &Placed) -> String {
    format!("{}{}", d.marks[0], d.marks[1])
}

/// The tooltip of a triangle: `AM1.7 · U (Hard) · covered by half U of IU, seat a,
/// turn 5`.
fn tri_title(layout: &Layout, t: Tri) -> String {
    let mut s = format!(
        "{} · {}",
        layout.address(t),
        marking_word(layout.foundation(t))
    );
    if layout.territories[t.slot()].market && t.is_centre() {
        s.push_str(" · market centre");
    }
    match layout.cover(t) {
        Some((d, h)) => {
            let p = &layout.dominos[d];
            let _ = write!(
                s,
                " · covered by half {} of {}, seat {}, turn {}",
                p.marks[h],
                domino_text(p),
                seat_name(p.seat),
                p.turn
            );
        }
        None => s.push_str(" · uncovered"),
    }
    s
}

/// The seats that have dominos on the layout, in seat order.
fn seats_on(layout: &Layout) -> Vec<Seat> {
    let mut seats: Vec<Seat> = layout.dominos.iter().map(|d| d.seat).collect();
    seats.sort();
    seats.dedup();
    seats
}

/// A complete, standalone SVG picture of the layout, `title` above it.
pub(crate) fn layout_svg(layout: &Layout, title: &str) -> String {
    let hex = |pos: Pos, radius: f64| -> Vec<(f64, f64)> {
        let (cx, cy) = centre(pos);
        (0..6)
            .map(|k| {
                let a = std::f64::consts::FRAC_PI_3 * f64::from(k);
                px((cx + radius * a.cos(), cy + radius * a.sin()))
            })
            .collect()
    };

    // The bounding box of every hexagon.
    let (mut x0, mut y0, mut x1, mut y1) = (0f64, 0f64, 0f64, 0f64);
    let mut first = true;
    for t in &layout.territories {
        for (x, y) in hex(t.at, 2.0) {
            if first {
                (x0, y0, x1, y1) = (x, y, x, y);
                first = false;
            }
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
    }
    if first {
        // No territory: room for a line of text.
        (x0, y0, x1, y1) = (-120.0, -30.0, 120.0, 30.0);
    }
    let mut vx = x0 - MARGIN;
    let mut w = x1 - x0 + 2.0 * MARGIN;
    if w < MIN_WIDTH {
        vx -= (MIN_WIDTH - w) / 2.0;
        w = MIN_WIDTH;
    }
    let vy = y0 - MARGIN - HEADER;
    let h = y1 - y0 + 2.0 * MARGIN + HEADER + FOOTER;
    let mid = vx + w / 2.0;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vx:.1} {vy:.1} {w:.1} {h:.1}" width="{w:.0}" height="{h:.0}" font-family="{TEXT_FONT}">"##
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"<rect x="{vx:.1}" y="{vy:.1}" width="{w:.1}" height="{h:.1}" fill="#f0efe9"/>"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{mid:.1}" y="{:.1}" text-anchor="middle" font-size="18" font-weight="bold" fill="#222">{}</text>"##,
        vy + 28.0,
        escape(title)
    );
    // North is up: say so.
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" font-size="13" fill="#555">N ↑</text>"##,
        vx + w - 12.0,
        vy + 26.0
    );
    if layout.territories.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{mid:.1}" y="{:.1}" text-anchor="middle" font-size="15" fill="#555">(no territories on the layout)</text>"##,
            (y0 + y1) / 2.0
        );
    }

    // The triangles: paper, marking, tooltip.
    s.push_str("<g id=\"triangles\" stroke=\"#b9b2a0\" stroke-width=\"1\">\n");
    for t in (0..layout.len()).map(|n| Tri(n as u16)) {
        let (c, _) = tri_px(layout, t);
        let (symbol, _) = anchors(layout, t);
        let market = layout.territories[t.slot()].market && t.is_centre();
        let m = layout.foundation(t);
        let _ = writeln!(
            s,
            r##"<g><title>{}</title><polygon class="tri" data-address="{}" points="{}" fill="{}"/><text x="{:.1}" y="{:.1}" text-anchor="middle" font-family="{SYMBOL_FONT}" font-size="22" font-weight="bold" stroke="none" fill="{}">{}</text></g>"##,
            escape(&tri_title(layout, t)),
            layout.address(t),
            points(&c),
            if market { MARKET } else { PAPER },
            symbol.0,
            baseline(symbol.1, 22.0),
            suit_colour(Suit::of(m)),
            escape(&m.to_string()),
        );
    }
    s.push_str("</g>\n");

    // Territory outlines, and each market's centre ring.
    s.push_str("<g id=\"territories\" fill=\"none\" pointer-events=\"none\">\n");
    for t in &layout.territories {
        if t.market {
            let _ = writeln!(
                s,
                r##"<polygon class="market" points="{}" stroke="{MARKET_RING}" stroke-width="3" stroke-dasharray="7 4"/>"##,
                points(&hex(t.at, 1.0))
            );
        }
        let _ = writeln!(
            s,
            r##"<polygon class="hex" points="{}" stroke="#3a3a3a" stroke-width="3" stroke-linejoin="round"/>"##,
            points(&hex(t.at, 2.0))
        );
    }
    s.push_str("</g>\n");

    // The dominos, over the triangles, in placing order.
    s.push_str("<g id=\"dominos\">\n");
    for d in &layout.dominos {
        let (ca, ga) = tri_px(layout, d.halves[0]);
        let (cb, gb) = tri_px(layout, d.halves[1]);
        let shared: Vec<(f64, f64)> = ca
            .iter()
            .copied()
            .filter(|&p| cb.iter().any(|&q| dist(p, q) < 1e-6))
            .collect();
        let apex = |c: [(f64, f64); 3]| {
            c.into_iter()
                .find(|&p| shared.iter().all(|&q| dist(p, q) > 1e-6))
                .unwrap_or(c[0])
        };
        let (stroke, fill) = seat_colours(d.seat);
        let seat = seat_name(d.seat);
        let summary = format!(
            "{}@{}/{} · seat {seat}, turn {}",
            domino_text(d),
            layout.address(d.halves[0]),
            layout.address(d.halves[1]),
            d.turn
        );
        if shared.len() != 2 {
            // Not two edge-adjacent triangles (the layout never holds such a domino):
            // mark both halves rather than draw a shape that is not there.
            for (g, m) in [(ga, d.marks[0]), (gb, d.marks[1])] {
                let _ = writeln!(
                    s,
                    r##"<g><title>{}</title><circle cx="{:.1}" cy="{:.1}" r="16" fill="{fill}" stroke="{stroke}" stroke-width="3"/><text x="{:.1}" y="{:.1}" text-anchor="middle" font-family="{SYMBOL_FONT}" font-size="22" font-weight="bold" fill="{}">{}</text></g>"##,
                    escape(&summary),
                    g.0,
                    g.1,
                    g.0,
                    baseline(g.1, 22.0),
                    suit_colour(Suit::of(m)),
                    escape(&m.to_string())
                );
            }
            continue;
        }
        let shared_mid = lerp(shared[0], shared[1], 0.5);
        let inset = |p: (f64, f64)| lerp(shared_mid, p, DOMINO_SCALE);
        let rhombus = [apex(ca), shared[0], apex(cb), shared[1]].map(inset);
        let _ = write!(
            s,
            r##"<g class="domino"><title>{}</title><polygon class="domino" points="{}" fill="{fill}" stroke="{stroke}" stroke-width="3.5" stroke-linejoin="round"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="1.2" stroke-opacity="0.6"/>"##,
            escape(&summary),
            points(&rhombus),
            rhombus[1].0,
            rhombus[1].1,
            rhombus[3].0,
            rhombus[3].1,
        );
        for (half, &t) in d.halves.iter().enumerate() {
            let m = d.marks[half];
            let (symbol, _) = half_anchors(layout, t, shared_mid);
            let (c, _) = tri_px(layout, t);
            let _ = write!(
                s,
                r##"<g><title>{}</title><polygon class="half" points="{}" fill="none" stroke="none" pointer-events="all"/><text x="{:.1}" y="{:.1}" text-anchor="middle" font-family="{SYMBOL_FONT}" font-size="20" font-weight="bold" fill="{}">{}</text></g>"##,
                escape(&tri_title(layout, t)),
                points(&c.map(inset)),
                symbol.0,
                baseline(symbol.1, 20.0),
                suit_colour(Suit::of(m)),
                escape(&m.to_string())
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("</g>\n");

    // Indices over everything but the labels, so covered triangles keep their address.
    s.push_str(
        "<g id=\"indices\" font-size=\"11\" fill=\"#5a5548\" text-anchor=\"middle\" pointer-events=\"none\">\n",
    );
    for t in (0..layout.len()).map(|n| Tri(n as u16)) {
        let at = match domino_mid(layout, t) {
            Some(mid) => half_anchors(layout, t, mid).1,
            None => anchors(layout, t).1,
        };
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}">{}</text>"##,
            at.0,
            baseline(at.1, 11.0),
            t.index()
        );
    }
    s.push_str("</g>\n");

    // Labels last, on a halo, over the centre vertex of each territory.
    s.push_str(
        "<g id=\"labels\" text-anchor=\"middle\" font-weight=\"bold\" pointer-events=\"none\">\n",
    );
    for t in &layout.territories {
        let (x, y) = px(centre(t.at));
        let label = t.label.as_str();
        // Along the horizontal line through the centre vertex the markings leave a band
        // about 18 px high and 76 px wide free: a long label gets a smaller font.
        let size = (19.0f64).min(76.0 / (label.len().max(1) as f64 * 0.62));
        let _ = writeln!(
            s,
            r##"<text class="label" x="{x:.1}" y="{:.1}" font-family="{LABEL_FONT}" font-size="{size:.1}" fill="#111" stroke="#ffffff" stroke-width="4.5" stroke-linejoin="round" paint-order="stroke">{}</text>"##,
            baseline(y, size),
            escape(label)
        );
    }
    s.push_str("</g>\n");

    legend(&mut s, layout, vx, y1 + 8.0);
    s.push_str("</svg>\n");
    s
}

/// The legend below the layout: the seats' dominos, the market centre, the suits.
fn legend(s: &mut String, layout: &Layout, vx: f64, top: f64) {
    let x = vx + 16.0;
    let y = top + 22.0;
    let _ = writeln!(
        s,
        r##"<g id="legend" font-size="13" fill="#333"><text x="{x:.1}" y="{y:.1}">dominos:</text>"##
    );
    let mut cx = x + 66.0;
    let seats = seats_on(layout);
    if seats.is_empty() {
        let _ = write!(s, r##"<text x="{cx:.1}" y="{y:.1}">none yet</text>"##);
        cx += 70.0;
    }
    for seat in seats {
        let (stroke, fill) = seat_colours(seat);
        // A small rhombus, as on the layout.
        let r = [
            (cx, y - 5.0),
            (cx + 9.0, y - 14.0),
            (cx + 18.0, y - 5.0),
            (cx + 9.0, y + 4.0),
        ];
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="2.5"/><text x="{:.1}" y="{y:.1}">seat {}</text>"##,
            points(&r),
            cx + 24.0,
            seat_name(seat)
        );
        cx += 80.0;
    }
    s.push('\n');
    let y = y + 22.0;
    let _ = write!(s, r##"<text x="{x:.1}" y="{y:.1}">suits:</text>"##);
    let mut cx = x + 66.0;
    for suit in [Suit::Hard, Suit::Soft, Suit::Plant, Suit::Animal] {
        let symbols: String = Marking::ALL
            .iter()
            .filter(|&&m| Suit::of(m) == suit)
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let _ = write!(
            s,
            r##"<text x="{cx:.1}" y="{y:.1}" fill="{}"><tspan font-weight="bold">{}</tspan> <tspan font-family="{SYMBOL_FONT}" font-weight="bold" font-size="15">{}</tspan></text>"##,
            suit_colour(suit),
            suit_name(suit),
            escape(&symbols)
        );
        cx += 140.0;
    }
    let y = y + 22.0;
    let _ = writeln!(
        s,
        r##"<rect x="{x:.1}" y="{:.1}" width="18" height="14" fill="{MARKET}" stroke="{MARKET_RING}" stroke-width="2" stroke-dasharray="4 2"/><text x="{:.1}" y="{y:.1}">market centre · small numbers: triangle index N of address LABEL.N</text>"##,
        y - 12.0,
        x + 24.0
    );
    s.push_str("</g>\n");
}

/// A text listing of the layout, readable without colour: per territory its label,
/// position, rotation and whether it is a market, then its triangles by index (centre
/// ring, then outer ring), each `index:marking`, with `[H s]` where the half `H` of a
/// domino of seat `s` covers it; then the dominos in placing order. Ends with a newline.
pub(crate) fn layout_text(layout: &Layout) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "layout: {} {}, {} {}",
        layout.territories.len(),
        if layout.territories.len() == 1 {
            "territory"
        } else {
            "territories"
        },
        layout.dominos.len(),
        if layout.dominos.len() == 1 {
            "domino"
        } else {
            "dominos"
        }
    );
    if layout.territories.is_empty() {
        return s;
    }
    s.push_str("(N:F triangle N printed F; N:F[H s] covered by half H of a domino of seat s)\n");
    for (slot, t) in layout.territories.iter().enumerate() {
        let _ = writeln!(
            s,
            "{} {} r{} {}",
            t.label,
            t.at,
            t.rotation,
            if t.market { "market" } else { "not a market" }
        );
        let entry = |i: usize| {
            let tri = Tri((slot * TRIANGLES + i) as u16);
            let mut e = format!("{i}:{}", layout.foundation(tri));
            if let Some((d, h)) = layout.cover(tri) {
                let p = &layout.dominos[d];
                let _ = write!(e, "[{} {}]", p.marks[h], seat_name(p.seat));
            }
            e
        };
        let centre: Vec<String> = (0..6).map(entry).collect();
        let outer: Vec<String> = (6..TRIANGLES).map(entry).collect();
        let _ = writeln!(s, "  centre {}", centre.join(" "));
        let _ = writeln!(s, "  outer  {}", outer.join(" "));
    }
    if layout.dominos.is_empty() {
        s.push_str("dominos: none\n");
    } else {
        s.push_str("dominos, in placing order:\n");
        for d in &layout.dominos {
            let _ = writeln!(
                s,
                "  {}@{}/{} {} t{}",
                domino_text(d),
                layout.address(d.halves[0]),
                layout.address(d.halves[1]),
                seat_name(d.seat),
                d.turn
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::halasi::layout::Territory;
    use crate::games::halasi::settings::STANDARD;
    use crate::games::halasi::tiles::TileSet;
    use crate::notation::halasi::{Address, Label};

    fn set() -> TileSet {
        STANDARD.as_ref().clone()
    }

    /// Lays `(label, owner seat, tile name, q, r, rotation)` in order.
    fn territories(list: &[(&str, u8, &str, i16, i16, u8)]) -> Layout {
        let set = set();
        let mut lay = Layout::default();
        for &(label, owner, tile, q, r, rotation) in list {
            let at = Pos { q, r };
            lay.check_territory(at)
                .expect("a free position next to the layout");
            let tile = set.index_of(tile).expect("a tile of the set");
            lay.add_territory(
                Territory {
                    label: Label::new(label).expect("a label"),
                    owner: Seat(owner),
                    tile: tile as u8,
                    market: set.tiles[tile].market,
                    at,
                    rotation,
                },
                &set,
            );
        }
        lay
    }

    fn address(lay: &Layout, text: &str) -> Tri {
        let (label, index) = text.split_once('.').expect("LABEL.N");
        lay.tri(Address {
            label: Label::new(label).expect("a label"),
            index: index.parse().expect("an index"),
        })
        .expect("a triangle of the layout")
    }

    /// Places `RX@AM1.0/AM1.7` for `seat` in `turn`, on two uncovered neighbours.
    fn place(lay: &mut Layout, text: &str, seat: u8, turn: u32) {
        let (domino, at) = text.split_once('@').expect("DOMINO@A/B");
        let (a, b) = at.split_once('/').expect("A/B");
        let marks: Vec<Marking> = domino
            .chars()
            .map(|c| Marking::from_symbol(c).expect("a marking"))
            .collect();
        let halves = [address(lay, a), address(lay, b)];
        assert!(lay.adjacent(halves[0], halves[1]), "{text}: not adjacent");
        assert!(
            halves.iter().all(|&t| lay.cover(t).is_none()),
            "{text}: covered"
        );
        lay.place(Placed {
            halves,
            marks: [marks[0], marks[1]],
            seat: Seat(seat),
            turn,
        });
    }

    /// M1 at (0,0) r0 (seat a's home), T1 at (1,0) r3 (bought by a), M2 at (0,1) r0
    /// (seat b's home), and seven dominos of seats a and b, each half on its own
    /// marking, two of them across territories.
    fn sample() -> Layout {
        let mut lay = territories(&[
            ("AM1", 0, "M1", 0, 0, 0),
            ("AT1", 0, "T1", 1, 0, 3),
            ("BM2", 1, "M2", 0, 1, 0),
        ]);
        for (text, seat, turn) in [
            ("IU@AM1.0/AM1.7", 0, 5),
            ("OS@BM2.0/BM2.7", 1, 6),
            ("RQ@AM1.23/AM1.6", 0, 7),
            ("#T@AT1.12/AT1.13", 0, 7),
            ("QP@AT1.15/BM2.8", 1, 8),
            ("UY@BM2.9/AM1.20", 1, 8),
            ("94@AT1.14/AM1.21", 0, 9),
        ] {
            place(&mut lay, text, seat, turn);
        }
        lay
    }

    #[test]
    fn text_lists_every_triangle_and_domino() {
        let lay = sample();
        let text = layout_text(&lay);
        assert!(text.ends_with('\n'));
        insta::assert_snapshot!("halasi_sample_layout_text", text);
    }

    #[test]
    fn text_of_an_empty_layout() {
        assert_eq!(
            layout_text(&Layout::default()),
            "layout: 0 territories, 0 dominos\n"
        );
    }

    /// The points of the polygon of the triangle at `address`.
    fn polygon(svg: &str, address: &str) -> Vec<(f64, f64)> {
        let key = format!("data-address=\"{address}\" points=\"");
        let at = svg.find(&key).expect("the triangle is drawn") + key.len();
        let end = at + svg[at..].find('"').expect("closed attribute");
        svg[at..end]
            .split(' ')
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect()
    }

    fn svg_centroid(svg: &str, address: &str) -> (f64, f64) {
        let p = polygon(svg, address);
        assert_eq!(p.len(), 3);
        (
            p.iter().map(|q| q.0).sum::<f64>() / 3.0,
            p.iter().map(|q| q.1).sum::<f64>() / 3.0,
        )
    }

    /// Tags open and close in order (a light well-formedness check).
    fn balanced(svg: &str) -> Result<(), String> {
        let mut stack: Vec<&str> = Vec::new();
        let mut rest = svg;
        while let Some(open) = rest.find('<') {
            let close = rest[open..].find('>').ok_or("an unclosed tag")? + open;
            let tag = &rest[open + 1..close];
            rest = &rest[close + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match stack.pop() {
                    Some(top) if top == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
            } else if !tag.ends_with('/') {
                let name = tag.split_whitespace().next().ok_or("an empty tag")?;
                stack.push(name);
            }
        }
        if stack.is_empty() {
            Ok(())
        } else {
            Err(format!("unclosed {stack:?}"))
        }
    }

    #[test]
    fn svg_draws_every_triangle_domino_and_label() {
        let lay = sample();
        let svg = layout_svg(&lay, "sample & <layout>");
        assert!(svg.starts_with("<svg "), "{}", &svg[..40]);
        assert!(svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<svg").count(), 1);
        balanced(&svg).unwrap();
        assert!(svg.contains("<title>sample &amp; &lt;layout&gt;</title>"));
        assert_eq!(svg.matches("<polygon class=\"tri\"").count(), lay.len());
        assert_eq!(lay.len(), 72);
        assert_eq!(svg.matches("<polygon class=\"domino\"").count(), 7);
        assert_eq!(svg.matches("<polygon class=\"hex\"").count(), 3);
        assert_eq!(svg.matches("<polygon class=\"market\"").count(), 2);
        assert_eq!(svg.matches("class=\"label\"").count(), 3);
        for label in ["AM1", "AT1", "BM2"] {
            assert!(svg.contains(&format!(">{label}</text>")), "{label}");
        }
        assert!(svg
            .contains("<title>AM1.7 · U (Hard) · covered by half U of IU, seat a, turn 5</title>"));
        assert!(svg.contains("<title>AM1.8 · R (Animal) · uncovered</title>"));
        assert!(svg.contains("<title>BM2.0 · O (Hard) · market centre · covered by half O of OS, seat b, turn 6</title>"));
        assert!(svg.contains(">seat a</text>") && svg.contains(">seat b</text>"));
        // Every marking is in its suit's colour: AM1.8 is R, Animal, red.
        let i = svg.find("data-address=\"AM1.8\"").unwrap();
        assert!(svg[i..i + 300].contains(&format!("fill=\"{}\">R<", suit_colour(Suit::Animal))));
    }

    /// M1 at (0,0); T1 north of it at (0,-1); T2 south-east at (1,0); M2 south at
    /// (0,1); a long label north-west at (-1,0).
    fn compass() -> Layout {
        let mut lay = territories(&[
            ("AM1", 0, "M1", 0, 0, 0),
            ("AT1", 0, "T1", 0, -1, 0),
            ("AT2", 0, "T2", 1, 0, 0),
            ("AM2", 0, "M2", 0, 1, 0),
            ("FT3LONGER", 5, "T3", -1, 0, 1),
        ]);
        // A domino of each seat, a to f.
        for (seat, text) in [
            "##@AT1.0/AT1.1",
            "TK@AT1.2/AT1.3",
            "K4@AT1.4/AT1.5",
            "QQ@AT1.6/AT1.7",
            "PR@AT1.8/AT1.9",
            "RI@AT1.10/AT1.11",
        ]
        .into_iter()
        .enumerate()
        {
            place(&mut lay, text, seat as u8, 10 + seat as u32);
        }
        lay
    }

    #[test]
    fn svg_has_north_up() {
        let svg = layout_svg(&compass(), "north");
        balanced(&svg).unwrap();
        let here = svg_centroid(&svg, "AM1.1");
        let north = svg_centroid(&svg, "AT1.1");
        let south_east = svg_centroid(&svg, "AT2.1");
        let south = svg_centroid(&svg, "AM2.1");
        assert!(north.1 < here.1, "north above: {north:?} {here:?}");
        assert!((north.0 - here.0).abs() < 1e-6);
        assert!(south.1 > here.1, "south below");
        assert!(south_east.0 > here.0 && south_east.1 > here.1, "south-east");
        // Within a territory: triangle 1 (at 90°) above triangle 4 (at 270°), triangle
        // 0 (30°) right of triangle 2 (150°).
        assert!(svg_centroid(&svg, "AM1.1").1 < svg_centroid(&svg, "AM1.4").1);
        assert!(svg_centroid(&svg, "AM1.0").0 > svg_centroid(&svg, "AM1.2").0);
        // The join north 9↔20: AM1.9 and AT1.20 share an edge in the picture too.
        let a = polygon(&svg, "AM1.9");
        let b = polygon(&svg, "AT1.20");
        let shared = a
            .iter()
            .filter(|p| b.iter().any(|q| dist(**p, *q) < 0.2))
            .count();
        assert_eq!(shared, 2, "{a:?} {b:?}");
    }

    #[test]
    fn svg_of_an_empty_layout_is_still_a_picture() {
        let svg = layout_svg(&Layout::default(), "empty");
        balanced(&svg).unwrap();
        assert!(svg.contains("no territories"));
        assert!(svg.contains("none yet"));
    }

    /// With `HALASI_SVG_DIR` set, writes the pictures there, to look at them.
    #[test]
    fn pictures_to_look_at() {
        let Some(dir) = std::env::var_os("HALASI_SVG_DIR") else {
            return;
        };
        let dir = std::path::PathBuf::from(dir);
        let write = |name: &str, svg: String| std::fs::write(dir.join(name), svg).unwrap();
        write(
            "halasi-sample.svg",
            layout_svg(&sample(), "Halasi sample: AM1, AT1, BM2"),
        );
        write("halasi-north.svg", layout_svg(&compass(), "north up"));
        write("halasi-empty.svg", layout_svg(&Layout::default(), "empty"));
    }
}
