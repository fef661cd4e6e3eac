//! Playing one Halasi turn (`halasi.md`, "The table game", "Solitaire"): a home, a setup
//! placement, or a regular turn — the roll and the dominos bought, then a territory, a
//! run or `leave` (solitaire: a run, or the bracket alone when nothing can be placed) —
//! with its payments and the end of the game. Every rule is checked before anything
//! changes, so a refused turn leaves the state as it was.

use super::chance::{self, Chance};
use super::layout::PlaceFault;
use super::run::{self, Held, Mover, RunScore};
use super::settings::{Mode, Settings};
use super::state::{Ledger, Phase, State, TileRef};
use super::violation::{
    BuyFault, BuyTileFault, HomeFault, Violation, EXPECT_HOME, EXPECT_PLACE, EXPECT_PLAY,
    EXPECT_SOLITAIRE,
};
use crate::games::{End, Seat, SeatSet};
use crate::notation::halasi::{Action, Domino, DominoAt, Label, Pos, TerritoryAt, Turn};

/// What a legal turn scored: a run's breakdown, or nothing (every other turn scores 0).
pub type Scored = Option<RunScore>;

/// Judges `turn` and, when legal, plays it and writes what it scored to `scored`
/// (where the caller keeps it, as [`run::play_run_into`] does). `claims`: check a
/// claimed score (the breakdown of a wrong claim plays the turn with its claim ignored).
pub fn play_into(
    s: &Settings,
    st: &mut State,
    chance: Option<&Chance>,
    turn: &Turn,
    claims: bool,
    scored: &mut Scored,
) -> Result<(), Violation> {
    let mover = st.to_move;
    check_kind(s, st, turn)?;
    match turn {
        Turn::Home { tile } => home(s, st, mover, *tile)?,
        Turn::Place { territory, .. } => place(s, st, mover, chance, territory)?,
        Turn::Play {
            action,
            routes,
            claim,
            ..
        } => {
            let claim = if claims { *claim } else { None };
            regular(s, st, mover, chance, action, routes, claim, scored)?
        }
    }
    st.turns += 1;
    st.deal_paid.clear();
    st.advance(s, mover);
    Ok(())
}

/// [`play_into`], what the turn scored returned.
pub fn play(
    s: &Settings,
    st: &mut State,
    chance: Option<&Chance>,
    turn: &Turn,
    claims: bool,
) -> Result<Scored, Violation> {
    let mut scored = None;
    play_into(s, st, chance, turn, claims, &mut scored).map(|()| scored)
}

fn phase(expected: &'static str) -> Violation {
    Violation::Phase { expected }
}

/// Is the turn of the kind its phase takes: a home, a setup `place`, or a regular turn?
/// A `leave` on a home or setup turn is refused by rule `leave` (it belongs to the play
/// rounds), any other turn of the wrong kind by rule `phase`.
pub fn check_kind(s: &Settings, st: &State, turn: &Turn) -> Result<(), Violation> {
    let table = s.mode == Mode::Table;
    match (st.phase, turn) {
        (Phase::Homes, Turn::Home { .. })
        | (Phase::Setup { .. }, Turn::Place { .. })
        | (Phase::Play, Turn::Play { .. }) => Ok(()),
        (
            Phase::Homes | Phase::Setup { .. },
            Turn::Play {
                action: Action::Leave,
                ..
            },
        ) if table => Err(Violation::LeaveBeforePlay { resign: false }),
        (Phase::Homes, _) => Err(phase(EXPECT_HOME)),
        (Phase::Setup { .. }, _) => Err(phase(EXPECT_PLACE)),
        (Phase::Play, _) if table => Err(phase(EXPECT_PLAY)),
        (Phase::Play, _) => Err(phase(EXPECT_SOLITAIRE)),
    }
}

/// `home M1`.
fn home(s: &Settings, st: &mut State, mover: Seat, name: Label) -> Result<(), Violation> {
    // Solitaire's home is of the first copy; a seat's, of its own set.
    let owner = if s.mode == Mode::Solitaire {
        Seat(0)
    } else {
        mover
    };
    let tile = State::tile_named(s, owner, name).ok_or_else(|| Violation::Home {
        tile: name,
        why: HomeFault::Unknown,
    })?;
    if !tile.is_market(s) {
        return Err(Violation::Home {
            tile: name,
            why: HomeFault::NotMarket,
        });
    }
    let others = (0..s.tiles.tiles.len() as u8).filter(|&t| t != tile.tile);
    match s.mode {
        Mode::Table => {
            st.tiles.extend(others.map(|t| TileRef { owner, tile: t }));
            st.dominos.reserve(Domino::KINDS * s.domino_sets as usize);
            for _ in 0..s.domino_sets {
                st.dominos.extend_from_slice(&Domino::SET);
            }
            st.ledger = Ledger {
                home_fee: s.territory_fee,
                ..Ledger::default()
            };
            st.bank += s.territory_fee;
            let seat = st.seat_mut(mover);
            seat.purse -= s.territory_fee;
            seat.home = Some(tile);
        }
        Mode::Solitaire => {
            // The preset layout (a `Setup`) must be of the tiles left once the home is
            // chosen, each next to the layout.
            let mut pool: Vec<TileRef> = others.map(|t| TileRef { owner, tile: t }).collect();
            pool.extend((0..s.tiles.tiles.len() as u8).map(|t| TileRef {
                owner: Seat(1),
                tile: t,
            }));
            let mut layout = st.layout.clone();
            layout.add_territory(tile.at(s, Pos { q: 0, r: 0 }, 0), &s.tiles);
            for t in st.preset.iter().flatten() {
                let Some(i) = pool.iter().position(|p| p.label(s) == t.label) else {
                    return Err(Violation::Setup {
                        message: format!(
                            "the Setup lays {}, which is not a tile of the pool once {} is the home",
                            t.label,
                            tile.label(s)
                        ),
                    });
                };
                if let Err(fault) = layout.check_territory(t.at) {
                    return Err(Violation::Territory {
                        label: t.label,
                        at: t.at,
                        fault,
                    });
                }
                let p = pool.remove(i);
                layout.add_territory(p.at(s, t.at, t.rotation), &s.tiles);
            }
            st.layout = layout;
            st.tiles = pool;
            for _ in 0..s.domino_sets.max(1) {
                st.dominos.extend_from_slice(&Domino::SET);
            }
            let seat = st.seat_mut(Seat(0));
            seat.home = Some(tile);
            seat.home_placed = true;
        }
    }
    Ok(())
}

/// The territories a seat may place in the setup.
fn holds(s: &Settings, st: &State, mover: Seat) -> Vec<Label> {
    let seat = st.seat(mover);
    let mut out = Vec::new();
    if let (Some(h), false) = (seat.home, seat.home_placed) {
        out.push(h.label(s));
    }
    if let (Some(b), false) = (seat.bought, seat.bought_placed) {
        out.push(b.label(s));
    }
    out
}

/// `[RX SS IO QQ] place AM1 @0,0 r0`.
fn place(
    s: &Settings,
    st: &mut State,
    mover: Seat,
    chance: Option<&Chance>,
    t: &TerritoryAt,
) -> Result<(), Violation> {
    let seat = st.seat(mover);
    let first = !seat.home_placed && !seat.bought_placed;
    // Without a seed the first `place` writes the buy-in, and only it.
    let buy_in = match chance {
        Some(Chance::BuyIn(d)) if !st.seeded => {
            chance::check_written(s, st, &Chance::BuyIn(d.clone()))?;
            Some(d.0.clone())
        }
        Some(Chance::BuyIn(_)) => None,
        _ if !st.seeded && first => {
            return Err(Violation::Buy {
                seat: mover,
                why: BuyFault::BuyInMissing,
            })
        }
        _ => None,
    };
    if !first && buy_in.is_some() {
        return Err(Violation::Buy {
            seat: mover,
            why: BuyFault::BuyInAgain,
        });
    }
    let bought_in = seat.bought_in || buy_in.is_some();
    // Which territory: the home, the one bought, or (no seed) the pool's tile it names.
    enum Which {
        Home,
        Bought,
        FromPool(usize),
    }
    let which = if seat.home.is_some_and(|h| h.label(s) == t.label) && !seat.home_placed {
        Which::Home
    } else if seat.bought.is_some_and(|b| b.label(s) == t.label) && !seat.bought_placed {
        Which::Bought
    } else if let (false, true, None, false, Some(i)) = (
        st.seeded,
        bought_in,
        seat.bought,
        seat.bought_placed,
        st.pool_index(s, t.label),
    ) {
        Which::FromPool(i)
    } else {
        return Err(Violation::SetupPlace {
            seat: mover,
            label: t.label,
            holds: holds(s, st, mover),
            from_pool: !st.seeded && seat.bought.is_none() && !seat.bought_placed,
        });
    };
    st.layout
        .check_territory(t.at)
        .map_err(|fault| territory_fault(t, fault))?;
    // Legal: pay, lay, mark.
    st.ledger = Ledger::default();
    if let Some(dominos) = buy_in {
        // The top territory is bought with the dominos, when the pool has one.
        let has_tile = !st.tiles.is_empty();
        let tile_fee = if has_tile { s.territory_fee } else { 0 };
        let cost = tile_fee + s.domino_fee * dominos.len() as i64;
        chance::take(&mut st.dominos, &dominos);
        st.bank += cost;
        st.ledger.buy_in = cost;
        let seat = st.seat_mut(mover);
        seat.purse -= cost;
        seat.bought_in = true;
        seat.bought_placed = !has_tile;
        seat.hand.extend(&dominos);
    }
    let tile = match which {
        Which::Home => {
            st.seat_mut(mover).home_placed = true;
            st.seat(mover).home.expect("checked")
        }
        Which::Bought => {
            st.seat_mut(mover).bought_placed = true;
            st.seat(mover).bought.expect("checked")
        }
        Which::FromPool(i) => {
            let tile = st.tiles.remove(i);
            let seat = st.seat_mut(mover);
            seat.bought = Some(tile);
            seat.bought_placed = true;
            tile
        }
    };
    chance::lay(s, st, tile, t.at, t.rotation);
    Ok(())
}

fn territory_fault(t: &TerritoryAt, fault: PlaceFault) -> Violation {
    Violation::Territory {
        label: t.label,
        at: t.at,
        fault,
    }
}

/// The dominos a regular turn adds to the hand: the opening four (solitaire's first,
/// without a seed) and the dominos bought; checked when written without a seed.
fn acquired<'c>(
    s: &Settings,
    st: &State,
    mover: Seat,
    chance: Option<&'c Chance>,
) -> Result<(&'c [Domino], &'c [Domino]), Violation> {
    match chance {
        Some(c @ Chance::Roll { opening, draw }) => {
            if !st.seeded {
                chance::check_written(s, st, c)?;
            }
            // With a seed the opening four are in hand already.
            let opening = match (st.seeded, opening) {
                (false, Some(o)) => &o.0[..],
                _ => &[],
            };
            let bought = draw.as_ref().map_or(&[][..], |d| &d.dominos[..]);
            Ok((opening, bought))
        }
        _ if st.seeded => Ok((&[], &[])),
        _ => Err(Violation::Buy {
            seat: mover,
            why: if s.mode == Mode::Solitaire && st.drawn == 0 {
                BuyFault::OpeningMissing
            } else {
                BuyFault::DrawMissing
            },
        }),
    }
}

/// A regular turn: the roll and the dominos bought, then the action. A run's score is
/// written to `scored`.
#[allow(clippy::too_many_arguments)]
fn regular(
    s: &Settings,
    st: &mut State,
    mover: Seat,
    chance: Option<&Chance>,
    action: &Action,
    routes: &[crate::notation::halasi::Route],
    claim: Option<i64>,
    scored: &mut Scored,
) -> Result<(), Violation> {
    let (opening, bought) = acquired(s, st, mover, chance)?;
    let dominos_fee = match s.mode {
        Mode::Table => s.domino_fee * bought.len() as i64,
        Mode::Solitaire => 0,
    };
    let purse = st.seat(mover).purse - dominos_fee;
    // Routes and claims belong to runs; any other action scores 0.
    if !matches!(action, Action::Run(_)) {
        if let Some(r) = routes.first() {
            return Err(Violation::RouteOffRun { route: *r });
        }
        if let Some(c) = claim.filter(|&c| c != 0) {
            return Err(Violation::Claim {
                claimed: c,
                scored: 0,
            });
        }
    }
    let solitaire = s.mode == Mode::Solitaire;
    let mut tile = None;
    match action {
        Action::Territory(_) if solitaire => return Err(phase(EXPECT_SOLITAIRE)),
        Action::Leave if solitaire => return Err(Violation::LeaveInSolitaire),
        Action::Nothing if !solitaire => return Err(Violation::NoAction),
        Action::Territory(t) => {
            let fault = |why| Violation::TerritoryBuy {
                label: t.label,
                why,
            };
            let i = match (st.seeded, st.tiles.first()) {
                (_, None) => return Err(fault(BuyTileFault::PoolEmpty)),
                (true, Some(top)) if top.label(s) != t.label => {
                    return Err(fault(BuyTileFault::NotTop { top: top.label(s) }))
                }
                (true, Some(_)) => 0,
                (false, Some(_)) => st
                    .pool_index(s, t.label)
                    .ok_or_else(|| fault(BuyTileFault::NotInPool))?,
            };
            if purse < s.territory_fee {
                return Err(fault(BuyTileFault::Purse {
                    purse,
                    fee: s.territory_fee,
                }));
            }
            st.layout
                .check_territory(t.at)
                .map_err(|f| territory_fault(t, f))?;
            tile = Some((i, t));
        }
        Action::Run(dominos) => {
            let home = st.home_slot(mover);
            // The seat and the layout, borrowed apart.
            let seat = &st.seats[mover.0 as usize];
            let m = Mover {
                seat: mover,
                home,
                first: (!seat.placed_domino).then(|| {
                    seat.home
                        .map(|h| h.label(s))
                        .unwrap_or(Label::new("A").expect("a label"))
                }),
                hand: Held {
                    hand: &seat.hand,
                    acquired: [opening, bought],
                },
                turn: st.turns + 1,
            };
            run::play_run_into(
                &mut st.layout,
                s,
                &m,
                dominos,
                routes,
                claim,
                scored.insert(RunScore::default()),
            )?;
        }
        Action::Leave => {}
        Action::Nothing => {
            let held = Held {
                hand: &st.seat(mover).hand,
                acquired: [opening, bought],
            };
            if let Some(example) = placeable(s, st, mover, &held.to_vec()) {
                return Err(Violation::CanPlace { example });
            }
        }
    }
    // Legal: the dominos acquired, then the action's effects.
    st.ledger = Ledger::default();
    chance::take(&mut st.dominos, opening);
    chance::take(&mut st.dominos, bought);
    st.drawn += (opening.len() + bought.len()) as u32;
    st.ledger.dominos_bought = bought.len() as u8;
    st.ledger.dominos_fee = dominos_fee;
    st.bank += dominos_fee;
    {
        let seat = st.seat_mut(mover);
        seat.purse -= dominos_fee;
        seat.hand.extend(opening);
        seat.hand.extend(bought);
    }
    match action {
        Action::Territory(_) => {
            let (i, t) = tile.expect("checked above");
            let tr = st.tiles.remove(i);
            st.bank += s.territory_fee;
            st.seat_mut(mover).purse -= s.territory_fee;
            st.ledger.territory_fee = s.territory_fee;
            chance::lay(s, st, tr, t.at, t.rotation);
        }
        Action::Run(dominos) => {
            let seat = st.seat_mut(mover);
            seat.placed_domino = true;
            // In hand, as `from-hand` checked: each from its first occurrence, as
            // `chance::take` would take them.
            seat.hand.take(dominos.iter().map(|d| d.domino));
            let total = scored.as_ref().map_or(0, |r: &RunScore| r.total);
            match s.mode {
                Mode::Table => pay(s, st, mover, total),
                Mode::Solitaire => {
                    st.score += total;
                    if st.score >= st.target(s) {
                        st.end = Some(End {
                            winners: SeatSet::only(mover),
                            draw: false,
                            reason: "target",
                            rule: Some("solitaire-end"),
                        });
                    }
                }
            }
        }
        Action::Leave => leave(s, st, mover),
        Action::Nothing => {
            st.end = Some(End {
                winners: SeatSet::EMPTY,
                draw: false,
                reason: "no-placement",
                rule: Some("solitaire-end"),
            });
        }
    }
    Ok(())
}

/// The bank pays the turn's score to the mover; a negative score the mover pays to the
/// bank. A bank that cannot pay in full, or that a payment empties, ends the game
/// (`bank-broken = end`).
fn pay(s: &Settings, st: &mut State, mover: Seat, total: i64) {
    let paid = if total >= 0 {
        total.min(st.bank)
    } else {
        total
    };
    st.bank -= paid;
    st.seat_mut(mover).purse += paid;
    st.ledger.score_paid = paid;
    if total > 0 && (paid < total || st.bank == 0) {
        finish(s, st, "bank-broken", Some("bank-broken"));
    }
}

/// The game ends: the largest purse wins, ties share.
fn finish(s: &Settings, st: &mut State, reason: &'static str, rule: Option<&'static str>) {
    let best = s.seats.iter().map(|&x| st.seat(x).purse).max().unwrap_or(0);
    let mut winners = SeatSet::EMPTY;
    for &x in &s.seats {
        if st.seat(x).purse == best {
            winners = winners.with(x);
        }
    }
    st.end = Some(End {
        winners,
        draw: false,
        reason,
        rule,
    });
}

/// The mover leaves: it pays half the total fee of the dominos in hand, rounded down
/// once (`n × domino-fee / 2`), returns them to the bottom of the pool in the order
/// acquired, and leaves. Every leave shuffles the pool before the next roll, also one
/// with an empty hand. When one seat is left it takes the bank, and the game ends.
pub fn leave(s: &Settings, st: &mut State, mover: Seat) {
    let seat = st.seat_mut(mover);
    let fee = leave_fee(s, seat.hand.len());
    seat.purse -= fee;
    seat.left = true;
    let hand = seat.hand.take_all();
    st.bank += fee;
    st.ledger.leave_fee = fee;
    st.dominos.extend(hand);
    st.reshuffle_pending = st.seeded;
    let active: Vec<Seat> = st.active(s).collect();
    if active.len() == 1 {
        let last = active[0];
        st.ledger.bank_share = st.bank;
        st.seat_mut(last).purse += st.bank;
        st.bank = 0;
        finish(s, st, "one-seat-left", Some("leave"));
    }
}

/// What a seat leaving with `held` dominos in hand pays: half their total fee, rounded
/// down once (3 dominos at fee 1 pay 1).
pub fn leave_fee(s: &Settings, held: usize) -> i64 {
    s.domino_fee * held as i64 / 2
}

/// A single domino of `hand` that can legally be placed, if any (solitaire's end).
pub fn placeable(s: &Settings, st: &State, mover: Seat, hand: &[Domino]) -> Option<DominoAt> {
    let mut out = None;
    super::legal::single_placements(s, st, mover, hand, &mut |d, _| {
        out = Some(d);
        false
    });
    out
}

/// The seat to move resigns: a `leave` (solitaire: the game is lost). In the table game
/// a resignation, as a leave, belongs to the play rounds: on a home or setup turn it is
/// refused (rule `leave`) and the state is unchanged.
pub fn resign(s: &Settings, st: &mut State) -> Result<(), Violation> {
    if s.mode == Mode::Table && st.phase != Phase::Play {
        return Err(Violation::LeaveBeforePlay { resign: true });
    }
    let mover = st.to_move;
    st.ledger = Ledger::default();
    match s.mode {
        Mode::Table => leave(s, st, mover),
        Mode::Solitaire => {
            st.end = Some(End {
                winners: SeatSet::EMPTY,
                draw: false,
                reason: "resignation",
                rule: None,
            })
        }
    }
    st.turns += 1;
    st.deal_paid.clear();
    st.advance(s, mover);
    Ok(())
}
