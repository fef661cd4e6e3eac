//! Legal Halasi turns for the seat to move. A run may hold any number of dominos, so the
//! list of runs is not finite in practice: like `referee moves`, it lists **runs of one
//! domino**, each with the routes it completes announced and its exact score claimed.
//! Homes, setup placements, territories (every free position, every rotation) and
//! `leave` are listed in full.

use super::chance::Chance;
use super::layout::Placed;
use super::layout::{Layout, Tri};
use super::routes;
use super::run::RunScore;
use super::score;
use super::settings::{MatchRequired, Mode, Settings};
use super::state::{Phase, State};
use crate::games::Seat;
use crate::notation::halasi::{
    Action, Domino, DominoAt, Label, Marking, Pos, Route, TerritoryAt, Turn,
};

/// The kinds of domino in `hand` ([`Domino::key`]), each as it is first found there.
pub fn kinds(hand: &[Domino]) -> Vec<Domino> {
    let mut seen = [0u64; Domino::KINDS.div_ceil(64)];
    let mut out = Vec::with_capacity(hand.len());
    for d in hand {
        let k = d.key() as usize;
        if seen[k / 64] & (1 << (k % 64)) == 0 {
            seen[k / 64] |= 1 << (k % 64);
            out.push(*d);
        }
    }
    out
}

/// The markings (bit `n` for marking number `n`, [`bit`]) a half on `t` may have and
/// meet the match rule through its foundation or a covered neighbour: the placement
/// check of `self-match`, before the run is laid, for all sixteen at once.
pub fn match_mask(s: &Settings, lay: &Layout, t: Tri) -> u16 {
    let mut m = meeting(s.match_required, lay.foundation(t));
    for nb in lay.neighbours(t) {
        if let Some(o) = lay.half_marking(nb) {
            m |= meeting(s.match_required, o);
        }
    }
    m
}

/// The marking's bit in a [`match_mask`].
#[inline]
pub fn bit(mark: Marking) -> u16 {
    1 << mark.number()
}

/// The markings whose relation to `other` meets the requirement
/// ([`MatchRequired::met_by`] of [`Relation::of`](super::markings::Relation::of)): the
/// same symbol; the same suit (the number modulo 4) for kin; every one for any.
fn meeting(req: MatchRequired, other: Marking) -> u16 {
    match req {
        MatchRequired::Same => bit(other),
        MatchRequired::Kin => 0x1111 << (other.number() % 4),
        MatchRequired::Any => 0xFFFF,
    }
}

/// Is `t` a centre triangle of the seat's home (`home`, its slot) printed `mark`: where a
/// seat's first domino must lie (`first-domino`)?
pub fn on_home_centre(lay: &Layout, home: Option<usize>, t: Tri, mark: Marking) -> bool {
    Some(t.slot()) == home && t.is_centre() && lay.foundation(t) == mark
}

/// Calls `f` with every legal placement of one domino of `hand` and what it scores
/// (routes unannounced); stops when `f` returns `false`.
///
/// For one domino the placement rules come down to checks made here before anything is
/// laid: the two triangles are a free pair (`not-adjacent`, `covered`), the domino is in
/// hand, a first domino self-matches its home's centre, any other one touches the layout
/// (`adjoin`), and a half meets the match rule with its foundation or a covered neighbour
/// (`self-match`). Each placement is then scored on a copy with the walk the referee
/// scores with; routes are searched only where the domino can join two markets' groups.
/// A test checks every placement listed against the full judgement of a run.
pub fn single_placements(
    s: &Settings,
    st: &State,
    mover: Seat,
    hand: &[Domino],
    f: &mut dyn FnMut(DominoAt, &RunScore) -> bool,
) {
    let seat = st.seat(mover);
    let first = !seat.placed_domino;
    let home = st.home_slot(mover);
    let kinds = kinds(hand);
    if kinds.is_empty() {
        return;
    }
    let lay = &st.layout;
    let mut pairs = Vec::new();
    if first {
        lay.free_pairs(&mut pairs);
    } else {
        lay.free_pairs_near(&mut pairs);
    }
    let n = lay.dominos.len();
    let mut routes = routes::RouteCheck::new(lay);
    let mut scratch = lay.clone();
    let on_home_centre = |t: Tri, mark| on_home_centre(lay, home, t, mark);
    for &(a, b) in &pairs {
        // Could this pair complete a route, whatever domino lies on it?
        let may_route = routes.may_complete(lay, a, b);
        let (ma, mb) = (match_mask(s, lay, a), match_mask(s, lay, b));
        for d in &kinds {
            let flips: &[bool] = if d.is_double() {
                &[false]
            } else {
                &[false, true]
            };
            for &flip in flips {
                let (x, y) = if flip { (d.1, d.0) } else { (d.0, d.1) };
                if first && !on_home_centre(a, x) && !on_home_centre(b, y) {
                    continue;
                }
                if ma & bit(x) == 0 && mb & bit(y) == 0 {
                    continue;
                }
                scratch.place(Placed {
                    halves: [a, b],
                    marks: [x, y],
                    seat: mover,
                    turn: st.turns + 1,
                });
                let dominos = score::run_points(&scratch, n, &s.score);
                let unannounced = if may_route {
                    routes.completed(&scratch)
                } else {
                    Vec::new()
                };
                scratch.unplace();
                let scored = RunScore {
                    first: n,
                    dominos,
                    routes: Vec::new(),
                    path: score::path_points(&[], home, &s.route),
                    unannounced,
                    total: dominos,
                };
                let placed = DominoAt {
                    domino: Domino(x, y),
                    first: lay.address(a),
                    second: lay.address(b),
                };
                if !f(placed, &scored) {
                    return;
                }
            }
        }
    }
}

/// The positions a territory may take, every rotation.
fn territory_spots(st: &State, label: Label, out: &mut Vec<TerritoryAt>) {
    let positions = if st.layout.is_empty() {
        vec![Pos { q: 0, r: 0 }]
    } else {
        st.layout.free_positions()
    };
    for at in positions {
        for rotation in 0..TerritoryAt::ROTATIONS {
            out.push(TerritoryAt {
                label,
                at,
                rotation,
            });
        }
    }
}

/// Every legal turn (runs of one domino) for the seat to move.
pub fn legal_turns(s: &Settings, st: &State, chance: Option<&Chance>, out: &mut Vec<Turn>) {
    if st.end.is_some() {
        return;
    }
    let mover = st.to_move;
    let seat = st.seat(mover);
    let mut spots = Vec::new();
    match st.phase {
        Phase::Homes => {
            for t in s.tiles.markets() {
                out.push(Turn::Home { tile: t.name });
            }
        }
        Phase::Setup { .. } => {
            let first = !seat.home_placed && !seat.bought_placed;
            let buy_in = match chance {
                Some(Chance::BuyIn(d)) if first => Some(d.clone()),
                _ => None,
            };
            if first && !st.seeded && buy_in.is_none() {
                return; // the buy-in is not known until it is written
            }
            let mut labels: Vec<Label> = Vec::new();
            if let (Some(h), false) = (seat.home, seat.home_placed) {
                labels.push(h.label(s));
            }
            if let (Some(b), false) = (seat.bought, seat.bought_placed) {
                labels.push(b.label(s));
            } else if !st.seeded && seat.bought.is_none() && !seat.bought_placed {
                for t in &st.tiles {
                    let l = t.label(s);
                    if !labels.contains(&l) {
                        labels.push(l);
                    }
                }
            }
            for l in labels {
                territory_spots(st, l, &mut spots);
            }
            out.extend(spots.into_iter().map(|territory| Turn::Place {
                buy_in: buy_in.clone(),
                territory,
            }));
        }
        Phase::Play => {
            let Some(Chance::Roll { opening, draw }) = chance else {
                return; // the roll is not known until it is written
            };
            let Some(draw) = draw else { return };
            let mut hand = seat.hand.to_vec();
            if !st.seeded {
                if let Some(o) = opening {
                    hand.extend_from_slice(&o.0);
                }
            }
            hand.extend_from_slice(&draw.dominos);
            let turn = |action: Action, routes: Vec<Route>, claim: Option<i64>| Turn::Play {
                opening: opening.clone(),
                draw: Some(draw.clone()),
                action,
                routes,
                claim,
            };
            if s.mode == Mode::Table {
                let purse = seat.purse - s.domino_fee * draw.dominos.len() as i64;
                if purse >= s.territory_fee {
                    let mut labels: Vec<Label> = Vec::new();
                    for t in st.tiles.iter().take(if st.seeded { 1 } else { usize::MAX }) {
                        let l = t.label(s);
                        if !labels.contains(&l) {
                            labels.push(l);
                        }
                    }
                    for l in labels {
                        territory_spots(st, l, &mut spots);
                    }
                    out.extend(
                        spots
                            .drain(..)
                            .map(|t| turn(Action::Territory(t), Vec::new(), None)),
                    );
                }
            }
            let before = out.len();
            let home = st.home_slot(mover);
            single_placements(s, st, mover, &hand, &mut |d, score| {
                let routes: Vec<Route> = score
                    .unannounced
                    .iter()
                    .map(|r| {
                        let label = |slot: usize| st.layout.territories[slot].label;
                        Route(label(r.a), label(r.b))
                    })
                    .collect();
                let path = score::path_points(&score.unannounced, home, &s.route);
                out.push(turn(
                    Action::Run(smallvec::smallvec![d]),
                    routes,
                    Some(score.dominos + path.total),
                ));
                true
            });
            match s.mode {
                Mode::Table => out.push(turn(Action::Leave, Vec::new(), None)),
                Mode::Solitaire if out.len() == before => {
                    out.push(turn(Action::Nothing, Vec::new(), None))
                }
                Mode::Solitaire => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::markings::Relation;
    use super::*;

    #[test]
    fn the_markings_meeting_a_requirement_are_those_whose_relation_meets_it() {
        for req in [MatchRequired::Same, MatchRequired::Kin, MatchRequired::Any] {
            for other in Marking::ALL {
                for mark in Marking::ALL {
                    assert_eq!(
                        meeting(req, other) & bit(mark) != 0,
                        req.met_by(Relation::of(mark, other)),
                        "{req:?} {mark:?} {other:?}"
                    );
                }
            }
        }
    }
}
