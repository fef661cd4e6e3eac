//! The text listing of a Halasi layout: each territory's triangles by index, then the
//! dominos in placing order.

use std::fmt::Write;

use super::domino_text;
use crate::games::halasi::geometry::TRIANGLES;
use crate::games::halasi::layout::{Layout, Tri};
use crate::games::halasi::violation::seat_name;

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
