//! Drawing a Halasi layout (`halasi.md`, "Geometry"): an SVG picture and a text listing.
//!
//! The picture draws each territory's 24 triangles with their markings in their suit's
//! colour (Hard gold, Soft blue, Plant green, Animal red), each triangle's layout index
//! small in a corner so that addresses `LABEL.N` can be read off (on layouts too large
//! for that, in each triangle's tooltip), the territory's label beside it where nothing
//! is drawn, and the dominos over the triangles as inset rhombi in their seat's colour,
//! the last turn's on a gold halo. Above the layout a panel tells the state of the game. The geometry is mathematical (north up); SVG's y points down, so every point
//! is flipped once, in [`px`].
//!
//! The text has no picture: a drawing of triangles in characters would not read, so it
//! lists each territory's triangles by index, then the dominos in placing order.

use std::fmt::Write;

use crate::games::halasi::geometry::{centre, centroid, corners};
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

/// What a picture tells beside its layout: lines under the title (purses, hands, the
/// bank, whose turn, the result), and the turn whose dominos are marked as the last.
#[derive(Clone, Debug, Default)]
pub(crate) struct Panel {
    pub lines: Vec<String>,
    pub last_turn: Option<u32>,
}

/// The width, in screen pixels, a picture must read at: text outside the layout (title,
/// panel, legend, labels) is scaled so that it keeps its size there.
const READ_AT: f64 = 800.0;
/// Up to this many layout units per screen pixel at [`READ_AT`], each triangle's index
/// is printed; past it the indices would be specks, and each triangle's tooltip gives
/// its address instead.
const INDEX_SCALE_MAX: f64 = 1.6;
/// Territory labels' size in screen pixels at [`READ_AT`].
const LABEL_PX: f64 = 14.0;
/// The gold halo of the last turn's dominos.
const LAST: &str = "#f2b600";

/// A label's box in layout pixels: centre and half sizes.
#[derive(Copy, Clone)]
struct LabelBox {
    x: f64,
    y: f64,
    hw: f64,
    hh: f64,
}

impl LabelBox {
    fn overlaps(&self, o: &LabelBox) -> bool {
        (self.x - o.x).abs() < self.hw + o.hw && (self.y - o.y).abs() < self.hh + o.hh
    }
}

/// Where each territory's label goes: just outside one of its edges that no territory
/// lies beyond (north or south first: labels are wide), where no other label is; a
/// territory closed in on every side keeps its label on its centre, on a plate.
fn label_boxes(layout: &Layout, size: f64) -> Vec<(LabelBox, bool)> {
    const SIDES: [(i16, i16); 6] = [(0, -1), (0, 1), (1, -1), (-1, 0), (1, 0), (-1, 1)];
    let taken = |p: Pos| layout.territories.iter().any(|t| t.at == p);
    let mut placed: Vec<LabelBox> = Vec::new();
    let mut out = Vec::with_capacity(layout.territories.len());
    for t in &layout.territories {
        let hw = size * 0.62 * t.label.as_str().len().max(1) as f64 / 2.0 + size * 0.3;
        let hh = size * 0.7;
        let (cx, cy) = px(centre(t.at));
        let mut chosen = None;
        for (dq, dr) in SIDES {
            let next = Pos {
                q: t.at.q + dq,
                r: t.at.r + dr,
            };
            if taken(next) {
                continue;
            }
            // Beyond the shared edge (the hexagon's apothem is √3 sides), clear of it.
            let (nx, ny) = px(centre(next));
            let (dx, dy) = (nx - cx, ny - cy);
            let len = dx.hypot(dy);
            let reach = 3f64.sqrt() * UNIT + hh.max(hw * (dx / len).abs()) + 6.0;
            let b = LabelBox {
                x: cx + dx / len * reach,
                y: cy + dy / len * reach,
                hw,
                hh,
            };
            if placed.iter().all(|o| !o.overlaps(&b)) {
                chosen = Some(b);
                break;
            }
        }
        let (b, outside) = match chosen {
            Some(b) => (b, true),
            None => (
                LabelBox {
                    x: cx,
                    y: cy,
                    hw,
                    hh,
                },
                false,
            ),
        };
        placed.push(b);
        out.push((b, outside));
    }
    out
}

/// A complete, standalone SVG picture of the layout, `title` and the panel's lines
/// above it, the legend below. It reads at [`READ_AT`] pixels wide whatever the size
/// of the layout: the text around the layout is scaled with it.
pub(crate) fn layout_svg(layout: &Layout, title: &str, panel: &Panel) -> String {
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
    // Layout pixels per screen pixel when the picture is shown READ_AT wide.
    let k = ((x1 - x0 + 2.0 * MARGIN) / READ_AT).max(1.0);
    let labels = label_boxes(layout, LABEL_PX * k);
    for (b, _) in &labels {
        x0 = x0.min(b.x - b.hw);
        x1 = x1.max(b.x + b.hw);
        y0 = y0.min(b.y - b.hh);
        y1 = y1.max(b.y + b.hh);
    }
    let header = (HEADER + 20.0 * panel.lines.len() as f64) * k;
    let footer = FOOTER * k;
    let mut vx = x0 - MARGIN;
    let mut w = x1 - x0 + 2.0 * MARGIN;
    let min_width = MIN_WIDTH * k;
    if w < min_width {
        vx -= (min_width - w) / 2.0;
        w = min_width;
    }
    let vy = y0 - MARGIN - header;
    let h = y1 - y0 + 2.0 * MARGIN + header + footer;
    let indices = k <= INDEX_SCALE_MAX;

    let mut s = String::new();
    let (sw, sh) = (w / k, h / k);
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{vx:.1} {vy:.1} {w:.1} {h:.1}" width="{sw:.0}" height="{sh:.0}" font-family="{TEXT_FONT}">"##
    );
    let _ = writeln!(s, "<title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        r##"<rect x="{vx:.1}" y="{vy:.1}" width="{w:.1}" height="{h:.1}" fill="#f0efe9"/>"##
    );
    // Title and panel in screen pixels, scaled to the layout.
    let _ = writeln!(
        s,
        r##"<g id="header" transform="translate({vx:.1} {vy:.1}) scale({k:.4})">"##
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="28" text-anchor="middle" font-size="18" font-weight="bold" fill="#222">{}</text>"##,
        sw / 2.0,
        escape(title)
    );
    // North is up: say so.
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="26" text-anchor="end" font-size="13" fill="#555">N ↑</text>"##,
        sw - 12.0
    );
    for (i, line) in panel.lines.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text class="panel" x="16" y="{:.1}" font-size="14" fill="#222">{}</text>"##,
            54.0 + 20.0 * i as f64,
            escape(line)
        );
    }
    s.push_str("</g>\n");
    if layout.territories.is_empty() {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{:.1}" fill="#555">(no territories on the layout)</text>"##,
            vx + w / 2.0,
            (y0 + y1) / 2.0,
            15.0 * k
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

    // The dominos, over the triangles, in placing order; the last turn's on a halo.
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
        let last = panel.last_turn == Some(d.turn);
        let summary = format!(
            "{}@{}/{} · seat {seat}, turn {}{}",
            domino_text(d),
            layout.address(d.halves[0]),
            layout.address(d.halves[1]),
            d.turn,
            if last { " (the last turn)" } else { "" }
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
        let class = if last { "domino last" } else { "domino" };
        let _ = write!(
            s,
            r##"<g class="{class}"><title>{}</title>"##,
            escape(&summary)
        );
        if last {
            let _ = write!(
                s,
                r##"<polygon class="halo" points="{}" fill="none" stroke="{LAST}" stroke-width="12" stroke-linejoin="round"/>"##,
                points(&rhombus)
            );
        }
        let _ = write!(
            s,
            r##"<polygon class="domino" points="{}" fill="{fill}" stroke="{stroke}" stroke-width="3.5" stroke-linejoin="round"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="1.2" stroke-opacity="0.6"/>"##,
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

    // Indices over everything but the labels, so covered triangles keep their address;
    // on a layout too large to read them, the tooltips carry the addresses.
    if indices {
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
    }

    // Labels last: beside their territory where nothing is drawn, else on a plate over
    // its centre.
    let size = LABEL_PX * k;
    s.push_str(
        "<g id=\"labels\" text-anchor=\"middle\" font-weight=\"bold\" pointer-events=\"none\">\n",
    );
    for (t, (b, outside)) in layout.territories.iter().zip(&labels) {
        let _ = writeln!(
            s,
            r##"<rect class="plate" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="{:.1}" fill="#ffffff" fill-opacity="{}" stroke="#3a3a3a" stroke-width="{:.1}"/><text class="label" x="{:.1}" y="{:.1}" font-family="{LABEL_FONT}" font-size="{size:.1}" fill="#111">{}</text>"##,
            b.x - b.hw,
            b.y - b.hh,
            2.0 * b.hw,
            2.0 * b.hh,
            b.hh * 0.5,
            if *outside { "1" } else { "0.9" },
            1.5 * k.sqrt(),
            b.x,
            baseline(b.y, size),
            escape(t.label.as_str())
        );
    }
    s.push_str("</g>\n");

    let _ = writeln!(
        s,
        r##"<g transform="translate({vx:.1} {:.1}) scale({k:.4})">"##,
        y1 + MARGIN
    );
    legend(&mut s, layout, indices, panel.last_turn.is_some());
    s.push_str("</g>\n</svg>\n");
    s
}

/// A small domino rhombus for the legend, as on the layout, its left corner at `x` and
/// standing on the text line `y`.
fn legend_rhombus(x: f64, y: f64) -> [(f64, f64); 4] {
    [
        (x, y - 5.0),
        (x + 9.0, y - 14.0),
        (x + 18.0, y - 5.0),
        (x + 9.0, y + 4.0),
    ]
}

/// The legend below the layout, in screen pixels from its top left corner: the seats'
/// dominos, the last turn's mark, the market centre, the suits, and how to read an
/// address (`indices`: from the small numbers, else from the tooltips).
fn legend(s: &mut String, layout: &Layout, indices: bool, last: bool) {
    let x = 16.0;
    let y = 18.0;
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
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="{fill}" stroke="{stroke}" stroke-width="2.5"/><text x="{:.1}" y="{y:.1}">seat {}</text>"##,
            points(&legend_rhombus(cx, y)),
            cx + 24.0,
            seat_name(seat)
        );
        cx += 80.0;
    }
    if last {
        let _ = write!(
            s,
            r##"<polygon points="{}" fill="#ffffff" stroke="{LAST}" stroke-width="4"/><text x="{:.1}" y="{y:.1}">the last turn</text>"##,
            points(&legend_rhombus(cx, y)),
            cx + 24.0
        );
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
        r##"<rect x="{x:.1}" y="{:.1}" width="18" height="14" fill="{MARKET}" stroke="{MARKET_RING}" stroke-width="2" stroke-dasharray="4 2"/><text x="{:.1}" y="{y:.1}">market centre · {}</text>"##,
        y - 12.0,
        x + 24.0,
        if indices {
            "small numbers: triangle index N of address LABEL.N"
        } else {
            "point at a triangle for its address LABEL.N"
        }
    );
    s.push_str("</g>\n");
}

mod text;

pub(crate) use text::layout_text;

#[cfg(test)]
mod tests;
