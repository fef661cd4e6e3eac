//! The score breakdown of one turn (`referee score`, and the ruling on a wrong claim):
//! every domino placed, half by half — its foundation, its partner, its adjoining halves,
//! the relation and the points of each — the placement points, every route with its
//! chain and markets, the path score, the turn's total against its claim, the money the
//! turn moved and the purses after it. Its JSON field names are an interface.
//!
//! It is built by playing the turn on a copy of the position with any claim ignored, so
//! the breakdown of a wrong claim is the referee's own count, and it uses the very walk
//! the referee scores with ([`score::explain_run`]).

use serde::Serialize;

use super::chance::Chance;
use super::routes::Found;
use super::score::{self, DominoScore};
use super::settings::{Mode, Settings};
use super::state::State;
use super::turn;
use super::violation::seat_name;
use crate::notation::halasi::{Action, Turn};

/// A route, scored: its two markets and the dominos on its shortest chain.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct RouteScore {
    pub markets: [String; 2],
    /// Dominos on the shortest chain linking them.
    pub chain: usize,
    /// `route.domino` for each of them.
    pub points: i64,
}

/// The path score of the announced routes.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct PathPoints {
    /// Points for the dominos on the routes.
    pub domino_points: i64,
    /// The distinct markets the routes link.
    pub markets: Vec<String>,
    pub market_points: i64,
    /// The mover's home, when it is among them.
    pub home: Option<String>,
    pub home_points: i64,
    pub total: i64,
}

/// Money one turn moved.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct Payment {
    pub what: &'static str,
    pub from: String,
    pub to: String,
    pub amount: i64,
}

/// A seat's purse after the turn.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct Purse {
    pub seat: &'static str,
    pub purse: i64,
    pub left: bool,
}

/// Solitaire's running score against its target, after the turn, and how the target
/// is made: `territories × territory_fee + drawn × domino_fee`.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct Progress {
    pub score: i64,
    pub target: i64,
    /// The target before the turn (it grows with every domino drawn and territory laid).
    pub target_before: i64,
    pub territories: usize,
    pub territory_fee: i64,
    /// Dominos drawn so far, the opening four included.
    pub drawn: u32,
    pub domino_fee: i64,
}

/// One turn, explained.
#[derive(Clone, Eq, PartialEq, Debug, Serialize)]
pub struct TurnScore {
    pub seat: &'static str,
    /// `home`, `place`, `territory`, `run`, `leave` or `nothing`.
    pub action: &'static str,
    /// Solitaire's first regular turn: the opening four drawn before the roll.
    pub opening: Vec<String>,
    pub roll: Option<u8>,
    /// The dominos bought (or drawn) with the roll.
    pub bought: Vec<String>,
    pub dominos: Vec<DominoScore>,
    /// The dominos' points, placement included.
    pub domino_points: i64,
    pub routes: Vec<RouteScore>,
    pub path: PathPoints,
    /// Routes the turn completed but did not announce: not paid.
    pub unannounced: Vec<RouteScore>,
    /// The turn's score: what the bank owes, before any bank limit.
    pub total: i64,
    pub claim: Option<i64>,
    pub payments: Vec<Payment>,
    /// The table game: every seat's purse after the turn, and the bank.
    pub purses: Vec<Purse>,
    pub bank: Option<i64>,
    pub solitaire: Option<Progress>,
}

fn route_score(st: &State, s: &Settings, r: &Found) -> RouteScore {
    let label = |slot: usize| st.layout.territories[slot].label.to_string();
    RouteScore {
        markets: [label(r.a), label(r.b)],
        chain: r.chain,
        points: r.chain as i64 * s.route.domino,
    }
}

/// How `turn` scores from `before` (its claim ignored); `None` when it is illegal for
/// another reason.
pub fn breakdown(
    s: &Settings,
    before: &State,
    chance: Option<&Chance>,
    t: &Turn,
) -> Option<TurnScore> {
    let mover = before.to_move;
    let mut st = before.clone();
    let scored = turn::play(s, &mut st, chance, t, false).ok()?;
    let who = seat_name(mover).to_string();
    let names = |ds: &[crate::notation::halasi::Domino]| -> Vec<String> {
        ds.iter().map(|x| x.to_string()).collect()
    };
    let opening = match chance {
        Some(Chance::Roll {
            opening: Some(o), ..
        }) => names(&o.0),
        _ => Vec::new(),
    };
    let (action, roll, bought, claim) = match t {
        Turn::Home { .. } => ("home", None, Vec::new(), None),
        Turn::Place { .. } => ("place", None, Vec::new(), None),
        Turn::Play { action, claim, .. } => {
            let name = match action {
                Action::Territory(_) => "territory",
                Action::Run(_) => "run",
                Action::Leave => "leave",
                Action::Nothing => "nothing",
            };
            let draw = match chance {
                Some(Chance::Roll { draw: Some(d), .. }) => Some(d),
                _ => None,
            };
            (
                name,
                draw.map(|d| d.roll),
                draw.map(|d| names(&d.dominos)).unwrap_or_default(),
                *claim,
            )
        }
    };
    let home = before.home_slot(mover);
    let (dominos, domino_points, routes, unannounced, path) = match &scored {
        Some(r) => {
            let p = &r.path;
            let label = |slot: usize| st.layout.territories[slot].label.to_string();
            (
                score::explain_run(&st.layout, r.first, &s.score),
                r.dominos,
                r.routes.iter().map(|x| route_score(&st, s, x)).collect(),
                r.unannounced
                    .iter()
                    .map(|x| route_score(&st, s, x))
                    .collect(),
                PathPoints {
                    domino_points: p.domino_points,
                    markets: p.markets.iter().map(|&m| label(m)).collect(),
                    market_points: p.market_points,
                    home: home.filter(|_| p.home_linked).map(label),
                    home_points: p.home_points,
                    total: p.total,
                },
            )
        }
        None => (
            Vec::new(),
            0,
            Vec::new(),
            Vec::new(),
            PathPoints {
                domino_points: 0,
                markets: Vec::new(),
                market_points: 0,
                home: None,
                home_points: 0,
                total: 0,
            },
        ),
    };
    let total = scored.as_ref().map_or(0, |r| r.total);
    let l = st.ledger;
    let bank = "bank".to_string();
    let mut payments = Vec::new();
    let mut pay = |what, from: &String, to: &String, amount: i64| {
        if amount != 0 {
            payments.push(Payment {
                what,
                from: from.clone(),
                to: to.clone(),
                amount,
            });
        }
    };
    if s.mode == Mode::Table {
        for &(x, cost) in &before.deal_paid {
            pay(
                "buy-in at the deal: the top territory and four dominos",
                &seat_name(x).to_string(),
                &bank,
                cost,
            );
        }
        pay("home territory fee", &who, &bank, l.home_fee);
        pay("buy-in: a territory and dominos", &who, &bank, l.buy_in);
        pay("dominos bought", &who, &bank, l.dominos_fee);
        pay("territory bought", &who, &bank, l.territory_fee);
        pay(
            "leave: half the fee of the dominos in hand",
            &who,
            &bank,
            l.leave_fee,
        );
        if l.score_paid >= 0 {
            pay("the turn's score", &bank, &who, l.score_paid);
        } else {
            pay("the turn's score (negative)", &who, &bank, -l.score_paid);
        }
        if l.bank_share != 0 {
            let last = st
                .active(s)
                .next()
                .map(|x| seat_name(x).to_string())
                .unwrap_or_default();
            pay("the last seat takes the bank", &bank, &last, l.bank_share);
        }
    }
    let (purses, bank_after, solitaire) = match s.mode {
        Mode::Table => (
            s.seats
                .iter()
                .map(|&x| Purse {
                    seat: seat_name(x),
                    purse: st.seat(x).purse,
                    left: st.seat(x).left,
                })
                .collect(),
            Some(st.bank),
            None,
        ),
        // The target counts the layout and the dominos drawn, both known from the
        // first regular turn on (the home's turn precedes the random layout).
        Mode::Solitaire => (
            Vec::new(),
            None,
            matches!(t, Turn::Play { .. }).then(|| Progress {
                score: st.score,
                target: st.target(s),
                target_before: before.target(s),
                territories: st.layout.territories.len(),
                territory_fee: s.territory_fee,
                drawn: st.drawn,
                domino_fee: s.domino_fee,
            }),
        ),
    };
    Some(TurnScore {
        seat: seat_name(mover),
        action,
        opening,
        roll,
        bought,
        dominos,
        domino_points,
        routes,
        path,
        unannounced,
        total,
        claim,
        payments,
        purses,
        bank: bank_after,
        solitaire,
    })
}
