//! The engine's Halasi: a playout policy that picks a turn without listing every run,
//! and the deal afresh of what no seat has seen.
//!
//! Listing the legal turns scores every placement of every domino in hand (and searches
//! routes for many), which made random play 23 games a second. The policy instead
//! gathers the placements of one domino that pass the cheap checks of
//! [`legal::single_placements`] (free pair, first domino on the home's centre, adjoins,
//! can meet the match rule), drawn at random rather than all listed, scores three and
//! plays the best;
//! now and then it buys the top territory when the purse allows. It never leaves.
//! Setup and home turns are drawn from the full listing (they are few).

use super::chance::Chance;
use super::layout::{Layout, Placed, Tri};
use super::legal::{self, bit};
use super::routes::{Found, RouteCheck};
use super::score;
use super::settings::{Mode, Settings, OPENING};
use super::state::{Phase, State};
use crate::dice::Dice;
use crate::notation::halasi::{Action, Domino, DominoAt, Marking, Route, TerritoryAt, Turn};

/// Placements scored a turn; the best is played.
const SAMPLES: usize = 3;
/// One turn in this many buys a territory where the purse allows.
const TERRITORY_ODDS: u32 = 8;

/// A placement that passed the cheap checks.
#[derive(Copy, Clone)]
struct Candidate {
    a: Tri,
    b: Tri,
    x: Marking,
    y: Marking,
}

/// The turn being built: the outcome it writes and the mover's purse after the buy.
struct Ctx<'a> {
    s: &'a Settings,
    st: &'a State,
    opening: &'a Option<crate::notation::halasi::Dominos>,
    draw: &'a crate::notation::halasi::Draw,
    purse: i64,
}

impl Ctx<'_> {
    fn turn(&self, action: Action, routes: Vec<Route>, claim: Option<i64>) -> Turn {
        Turn::Play {
            opening: self.opening.clone(),
            draw: Some(self.draw.clone()),
            action,
            routes,
            claim,
        }
    }

    /// A territory bought from the top of the pool, laid at a random free position.
    fn territory(&self, rng: &mut Dice) -> Option<Turn> {
        let (s, st) = (self.s, self.st);
        if s.mode != Mode::Table || self.purse < s.territory_fee {
            return None;
        }
        let top = st.tiles.first()?;
        let free = st.layout.free_positions();
        if free.is_empty() {
            return None;
        }
        let at = free[rng.uniform(free.len() as u32) as usize];
        let rotation = rng.uniform(u32::from(TerritoryAt::ROTATIONS)) as u8;
        Some(self.turn(
            Action::Territory(TerritoryAt {
                label: top.label(s),
                at,
                rotation,
            }),
            Vec::new(),
            None,
        ))
    }

    /// The turn when no domino can be placed.
    fn stuck(&self) -> Turn {
        match self.s.mode {
            Mode::Table => self.turn(Action::Leave, Vec::new(), None),
            Mode::Solitaire => self.turn(Action::Nothing, Vec::new(), None),
        }
    }

    /// A placement scored as `legal_turns` scores it: its total and the routes it
    /// completes. `work` is a copy of the layout, `routes` its [`RouteCheck`].
    fn score(&self, work: &mut Layout, routes: &mut RouteCheck, c: Candidate) -> (i64, Vec<Found>) {
        let (s, st) = (self.s, self.st);
        let lay = &st.layout;
        let n = lay.dominos.len();
        work.place(Placed {
            halves: [c.a, c.b],
            marks: [c.x, c.y],
            seat: st.to_move,
            turn: st.turns + 1,
        });
        let dominos = score::run_points(work, n, &s.score);
        let found = if routes.may_complete(lay, c.a, c.b) {
            routes.completed(work)
        } else {
            Vec::new()
        };
        work.unplace();
        let path = score::path_points(&found, st.home_slot(st.to_move), &s.route);
        (dominos + path.total, found)
    }

    /// The turn placing a scored candidate: every route it completes announced, its
    /// exact score claimed.
    fn run_turn(&self, c: Candidate, total: i64, found: &[Found]) -> Turn {
        let lay = &self.st.layout;
        let label = |slot: usize| lay.territories[slot].label;
        let announced = found
            .iter()
            .map(|r| Route(label(r.a), label(r.b)))
            .collect();
        let placed = DominoAt {
            domino: Domino(c.x, c.y),
            first: lay.address(c.a),
            second: lay.address(c.b),
        };
        self.turn(
            Action::Run(smallvec::smallvec![placed]),
            announced,
            Some(total),
        )
    }
}

/// The regular turn's context, or `None` where the full listing is used (homes, setup,
/// a game played without a seed).
fn context<'a>(
    s: &'a Settings,
    st: &'a State,
    chance: Option<&'a Chance>,
) -> Option<(Ctx<'a>, Vec<Domino>)> {
    let (
        Phase::Play,
        true,
        Some(Chance::Roll {
            opening,
            draw: Some(draw),
        }),
    ) = (st.phase, st.seeded, chance)
    else {
        return None;
    };
    let seat = st.seat(st.to_move);
    let mut hand = seat.hand.to_vec();
    hand.extend_from_slice(&draw.dominos);
    let purse = seat.purse - s.domino_fee * draw.dominos.len() as i64;
    Some((
        Ctx {
            s,
            st,
            opening,
            draw,
            purse,
        },
        hand,
    ))
}

fn listed(
    s: &Settings,
    st: &State,
    chance: Option<&Chance>,
    rng: &mut Dice,
    scratch: &mut Vec<Turn>,
) -> Option<Turn> {
    scratch.clear();
    legal::legal_turns(s, st, chance, scratch);
    if scratch.is_empty() {
        return None;
    }
    let i = rng.uniform(scratch.len() as u32) as usize;
    Some(scratch.swap_remove(i))
}

pub fn playout_turn(
    s: &Settings,
    st: &State,
    chance: Option<&Chance>,
    rng: &mut Dice,
    scratch: &mut Vec<Turn>,
) -> Option<Turn> {
    if st.end.is_some() {
        return None;
    }
    let Some((cx, hand)) = context(s, st, chance) else {
        return listed(s, st, chance, rng, scratch);
    };
    if rng.uniform(TERRITORY_ODDS) == 0 {
        if let Some(t) = cx.territory(rng) {
            return Some(t);
        }
    }
    let cands = candidates(s, st, &hand, rng, SAMPLES, 8 * SAMPLES);
    if cands.is_empty() {
        return cx.territory(rng).or_else(|| Some(cx.stuck()));
    }
    let mut work = st.layout.clone();
    let mut routes = RouteCheck::new(&st.layout);
    // The first of the highest scores; only its turn is written out.
    let mut best: Option<(i64, Vec<Found>, Candidate)> = None;
    for &c in &cands {
        let (total, found) = cx.score(&mut work, &mut routes, c);
        if best.as_ref().is_none_or(|(b, _, _)| total > *b) {
            best = Some((total, found, c));
        }
    }
    best.map(|(total, found, c)| cx.run_turn(c, total, &found))
}

/// The turns the engine's tree considers at a regular turn: up to `TREE_RUNS`
/// placements of one domino drawn at random (each scored; doubles drawn twice as one), two territories where the
/// purse allows, and `leave` — a sample of the legal turns, so a node costs a few
/// scorings instead of all of them. Elsewhere, every legal turn.
pub fn tree_turns(
    s: &Settings,
    st: &State,
    chance: Option<&Chance>,
    rng: &mut Dice,
    out: &mut Vec<Turn>,
) {
    let Some((cx, hand)) = context(s, st, chance).filter(|_| st.end.is_none()) else {
        legal::legal_turns(s, st, chance, out);
        return;
    };
    let cands = candidates(s, st, &hand, rng, TREE_RUNS, 8 * TREE_RUNS);
    let mut work = st.layout.clone();
    let mut routes = RouteCheck::new(&st.layout);
    for &c in &cands {
        let (total, found) = cx.score(&mut work, &mut routes, c);
        let t = cx.run_turn(c, total, &found);
        if !out.contains(&t) {
            out.push(t);
        }
    }
    for _ in 0..2 {
        if let Some(t) = cx.territory(rng) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    if s.mode == Mode::Table || out.is_empty() {
        out.push(cx.stuck());
    }
}

/// Placements the tree scores at a node.
const TREE_RUNS: usize = 12;

/// Placements of one domino of `hand` that pass the checks made before anything is laid
/// (as [`legal::single_placements`] makes them), drawn at random: a free pair next to
/// the dominos (or any, for a first domino), a domino kind of the hand and a way round,
/// tried up to `tries` times until `want` pass. When none passes, every placement is
/// gathered and `want` drawn from them (so a placement is found whenever there is one).
fn candidates(
    s: &Settings,
    st: &State,
    hand: &[Domino],
    rng: &mut Dice,
    want: usize,
    tries: usize,
) -> Vec<Candidate> {
    let mover = st.to_move;
    let first = !st.seat(mover).placed_domino;
    let home = st.home_slot(mover);
    let kinds = legal::kinds(hand);
    let mut out = Vec::new();
    if kinds.is_empty() {
        return out;
    }
    let lay = &st.layout;
    let mut pairs = Vec::new();
    if first {
        lay.free_pairs(&mut pairs);
    } else {
        lay.free_pairs_near(&mut pairs);
    }
    if pairs.is_empty() {
        return out;
    }
    let on_home_centre = |t: Tri, mark| legal::on_home_centre(lay, home, t, mark);
    // `ma` and `mb`: the markings that meet the match rule on `a` and on `b`.
    let passes = |a: Tri, b: Tri, x: Marking, y: Marking, ma: u16, mb: u16| {
        (!first || on_home_centre(a, x) || on_home_centre(b, y))
            && (ma & bit(x) != 0 || mb & bit(y) != 0)
    };
    let mask = |t: Tri| legal::match_mask(s, lay, t);
    for _ in 0..tries {
        let (a, b) = pairs[rng.uniform(pairs.len() as u32) as usize];
        let d = kinds[rng.uniform(kinds.len() as u32) as usize];
        let (x, y) = if rng.uniform(2) == 1 {
            (d.1, d.0)
        } else {
            (d.0, d.1)
        };
        if passes(a, b, x, y, mask(a), mask(b)) {
            out.push(Candidate { a, b, x, y });
            if out.len() >= want {
                return out;
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    let mut all = Vec::new();
    for &(a, b) in &pairs {
        let (ma, mb) = (mask(a), mask(b));
        for d in &kinds {
            for (x, y) in [(d.0, d.1), (d.1, d.0)] {
                if passes(a, b, x, y, ma, mb) {
                    all.push(Candidate { a, b, x, y });
                }
            }
        }
    }
    for _ in 0..want.min(all.len()) {
        out.push(all[rng.uniform(all.len() as u32) as usize]);
    }
    out
}

/// Deals afresh what no seat has seen: the order of the domino pool and of the
/// territory pool. Each is put in a fixed order first, so the deal depends on the pools'
/// contents and `rng` only, never on the order a record's seed left them in.
pub fn determinize(st: &mut State, rng: &mut Dice) {
    st.dominos.sort_by_key(|d| d.key());
    rng.shuffle(&mut st.dominos);
    st.tiles.sort_by_key(|t| (t.owner, t.tile));
    rng.shuffle(&mut st.tiles);
}

/// The engine plays a seeded game, a table game without a seed (what its record has
/// not yet written is drawn by [`assume_unwritten`]), and solitaire without a seed once
/// its opening four are written (its layout is the `Setup`'s; the draws are the
/// engine's).
pub fn ready(s: &Settings, st: &State) -> Result<(), String> {
    if st.seeded || st.end.is_some() || s.mode == Mode::Table || st.drawn > 0 {
        return Ok(());
    }
    Err(
        "solitaire without a seed, before its opening four are written: the engine \
         does not invent the opening hand the record will write"
            .into(),
    )
}

/// Makes a game without a seed ([`ready`]) one the engine plays on as seeded: what its
/// record has not yet written is drawn as a seed draws it, from the pools as
/// [`determinize`] dealt them. Each seat not yet bought in buys the top territory and
/// the top four dominos (the seat to move, the four it has `seen`, and the territory
/// it holds, where [`learn_from_offered`] found it); a seat bought in whose territory
/// the record names only when it lays it gets the top one; an open round's order is
/// the seats that moved, the seat to move, then the others in a random order. Later
/// orders are rolled as a seed rolls them.
pub fn assume_unwritten(s: &Settings, st: &mut State, seen: Option<&Chance>, rng: &mut Dice) {
    if st.seeded {
        return;
    }
    if st.phase != Phase::Homes && s.mode == Mode::Table {
        buy_in_unwritten(s, st, seen);
        if let Some(open) = st.open(s) {
            let mover = st.to_move;
            let mut rest: Vec<_> = open.iter().filter(|&x| x != mover).collect();
            rng.shuffle(&mut rest);
            if open.contains(mover) {
                st.order.push(mover);
            }
            st.order.extend(rest);
            st.cursor = st.order.iter().position(|&x| x == mover).unwrap_or(0);
        }
    }
    st.seeded = true;
}

/// The buy-ins [`assume_unwritten`] deals, and the territories bought it names.
fn buy_in_unwritten(s: &Settings, st: &mut State, seen: Option<&Chance>) {
    let mover = st.to_move;
    let seats: Vec<_> = st.active(s).collect();
    for x in seats {
        let (bought_in, bought, bought_placed) = {
            let seat = st.seat(x);
            (seat.bought_in, seat.bought, seat.bought_placed)
        };
        if bought_in {
            if bought.is_none() && !bought_placed {
                let tile = super::chance::top_tile(st);
                let seat = st.seat_mut(x);
                seat.bought = tile;
                seat.bought_placed = tile.is_none();
            }
            continue;
        }
        let dominos: Vec<Domino> = match seen {
            Some(Chance::BuyIn(d)) if x == mover => d.0.to_vec(),
            _ => st.dominos[..OPENING.min(st.dominos.len())].to_vec(),
        };
        if !super::chance::take(&mut st.dominos, &dominos) {
            // A buy-in the pool cannot give was refused when it was written.
            continue;
        }
        let tile = bought.or_else(|| super::chance::top_tile(st));
        super::chance::buy_in(s, st, x, tile, dominos);
    }
}

/// Without a seed, the seat to move's first `place` may lay any territory of the pool;
/// where the turns it is offered all lay one territory of the pool besides its home,
/// a seed dealt it that one: it is taken from the pool as the territory the seat holds.
pub fn learn_from_offered(s: &Settings, st: &mut State, offered: &[Turn]) {
    if st.seeded || !matches!(st.phase, Phase::Setup { .. }) {
        return;
    }
    let mover = st.to_move;
    let seat = st.seat(mover);
    if seat.bought.is_some() || seat.bought_placed {
        return;
    }
    let home = seat.home.filter(|_| !seat.home_placed).map(|h| h.label(s));
    let mut named = offered.iter().filter_map(|t| match t {
        Turn::Place { territory, .. } if Some(territory.label) != home => Some(territory.label),
        _ => None,
    });
    let Some(label) = named.next() else { return };
    if named.any(|l| l != label) {
        return;
    }
    if let Some(i) = st.pool_index(s, label) {
        let tile = st.tiles.remove(i);
        st.seat_mut(mover).bought = Some(tile);
    }
}
