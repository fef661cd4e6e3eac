//! A Halasi turn's score breakdown as a table that reads at a glance (`referee score`,
//! and the ruling on a wrong claim): each domino's halves with every relation and its
//! points, the placement point, every route, the total against the claim, the money
//! moved and the purses after.

use std::fmt::Write;

use crate::games::halasi::breakdown::TurnScore;
use crate::games::halasi::score::{HalfScore, LinkScore};

/// The column where the points end.
const POINTS: usize = 62;

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// One line with `points` right-aligned at [`POINTS`].
fn line(out: &mut String, text: &str, points: i64) {
    let _ = writeln!(out, "{text:<w$}{:>6}", signed(points), w = POINTS - 6);
}

fn link_row(out: &mut String, first: &str, with: &str, l: &LinkScore) {
    let text = format!(
        "      {first:<11} {with:<11} {:<8} {:<3} {:<8}",
        l.at.as_deref().unwrap_or(""),
        l.marking,
        l.relation
    );
    line(out, &text, l.points);
}

fn half_rows(out: &mut String, h: &HalfScore) {
    let first = format!("{} {}", h.marking, h.at);
    link_row(out, &first, "foundation", &h.foundation);
    link_row(out, "", "partner", &h.partner);
    for a in &h.adjoining {
        link_row(
            out,
            "",
            if a.same_run {
                "adjoining*"
            } else {
                "adjoining"
            },
            a,
        );
    }
}

/// The breakdown of one turn; of a refused one (`counted` false) without the money,
/// purses and score after it.
pub fn text(b: &TurnScore, counted: bool) -> String {
    let mut out = String::new();
    if !b.opening.is_empty() {
        let _ = writeln!(
            out,
            "  {} draws the opening four: {}",
            b.seat,
            b.opening.join(" ")
        );
    }
    if let Some(roll) = b.roll {
        let _ = writeln!(
            out,
            "  {} rolls {roll} and takes {}",
            b.seat,
            if b.bought.is_empty() {
                "no domino".to_string()
            } else {
                b.bought.join(" ")
            }
        );
    }
    if !b.dominos.is_empty() {
        let _ = writeln!(
            out,
            "      {:<11} {:<11} {:<8} {:<3} {:<8}{:>w$}",
            "half on",
            "with",
            "at",
            "is",
            "relation",
            "points",
            w = POINTS - 6 - 45
        );
    }
    for d in &b.dominos {
        let _ = writeln!(out, "    {}", d.domino);
        for h in &d.halves {
            half_rows(&mut out, h);
        }
        line(&mut out, "      placement", d.placement);
        line(&mut out, &format!("      {} in all", d.domino), d.points);
    }
    let shared = b
        .dominos
        .iter()
        .flat_map(|d| &d.halves)
        .flat_map(|h| &h.adjoining)
        .any(|a| a.same_run);
    if shared {
        let _ = writeln!(
            out,
            "    * a half of another domino of this run: their edge counts from both sides"
        );
    }
    if b.dominos.len() > 1 {
        line(&mut out, "    the dominos in all", b.domino_points);
    }
    for r in &b.routes {
        line(
            &mut out,
            &format!(
                "    route {}~{}: shortest chain {} domino{}",
                r.markets[0],
                r.markets[1],
                r.chain,
                if r.chain == 1 { "" } else { "s" }
            ),
            r.points,
        );
    }
    if !b.routes.is_empty() {
        line(
            &mut out,
            &format!("    markets linked: {}", b.path.markets.join(" ")),
            b.path.market_points,
        );
        if let Some(home) = &b.path.home {
            line(
                &mut out,
                &format!("    home {home} among them"),
                b.path.home_points,
            );
        }
    }
    for r in &b.unannounced {
        let _ = writeln!(
            out,
            "    route {}~{} completed ({} dominos) but not announced: not paid",
            r.markets[0], r.markets[1], r.chain
        );
    }
    let verdict = match b.claim {
        None => "no claim written".to_string(),
        Some(c) if c == b.total => format!("claimed {c}: right"),
        Some(c) => format!("claimed {c}: WRONG (rule claim)"),
    };
    let _ = writeln!(out, "  total {} ({verdict})", b.total);
    if !counted {
        return out;
    }
    if !b.payments.is_empty() {
        let paid: Vec<String> = b
            .payments
            .iter()
            .map(|p| format!("{} → {} {} ({})", p.from, p.to, p.amount, p.what))
            .collect();
        let one_line = format!("  money: {}", paid.join("; "));
        if one_line.chars().count() <= 92 {
            let _ = writeln!(out, "{one_line}");
        } else {
            let _ = writeln!(out, "  money:");
            for p in &paid {
                let _ = writeln!(out, "    {p}");
            }
        }
    }
    if !b.purses.is_empty() {
        let purses: Vec<String> = b
            .purses
            .iter()
            .map(|p| {
                format!(
                    "{} {}{}",
                    p.seat,
                    p.purse,
                    if p.left { " (left)" } else { "" }
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "  purses after: {}; bank {}",
            purses.join(", "),
            b.bank.unwrap_or(0)
        );
    }
    if let Some(p) = &b.solitaire {
        let _ = write!(out, "  score after: {} of target {}", p.score, p.target);
        // The target grows with every domino drawn: its sum, and what it was before.
        if p.target != p.target_before {
            let _ = write!(
                out,
                " ({} territor{} × {} + {} domino{} drawn × {}; the target was {} before this turn drew its dominos)",
                p.territories,
                if p.territories == 1 { "y" } else { "ies" },
                p.territory_fee,
                p.drawn,
                if p.drawn == 1 { "" } else { "s" },
                p.domino_fee,
                p.target_before,
            );
        }
        out.push('\n');
    }
    out
}

/// A run's score against its claim, for a ruling's list of turns; `None` for a turn
/// that places no domino and claims nothing (it scores 0). A route completed but not
/// announced is the ruling's note on the turn, not repeated here.
pub fn summary(b: &TurnScore) -> Option<String> {
    if b.action != "run" && b.claim.is_none() {
        return None;
    }
    Some(match b.claim {
        None => format!("scores {} (no claim written)", b.total),
        Some(c) if c == b.total => format!("scores {}, as claimed", b.total),
        Some(c) => format!("scores {}, not the {c} claimed", b.total),
    })
}
