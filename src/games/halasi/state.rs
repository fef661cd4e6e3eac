//! A Halasi position: the phase, the seats (homes, territories held, hands, purses), the
//! bank, the two pools, the layout, and whose turn it is.
//!
//! The table game runs through three phases: every seat names its home (`Homes`), two
//! rounds of setup placements (`Setup`), then regular turns (`Play`). Solitaire names its
//! home and goes straight to play. Orders come from die rolls with a seed; without one,
//! the first round of setup and of play is *open*: the turn's seat label says who moves,
//! and the order those seats move in becomes the order of the rounds that follow.

use super::hand::Hand;
use super::layout::{Layout, Territory};
use super::settings::{Mode, Settings, SEAT_NAMES};
use crate::games::{End, Seat, SeatSet};
use crate::notation::halasi::{Domino, Label, Pos, TerritoryAt};

/// A territory tile of some seat's set (in solitaire: of the first or second copy).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct TileRef {
    pub owner: Seat,
    /// The tile's index in the set.
    pub tile: u8,
}

impl TileRef {
    /// `AM1`: the owner's letter capitalised, then the tile's name.
    pub fn label(self, s: &Settings) -> Label {
        let name = s.tiles.tiles[self.tile as usize].name;
        let letter = SEAT_NAMES[self.owner.0 as usize]
            .chars()
            .next()
            .unwrap_or('a');
        Label::of(letter, name).unwrap_or(name)
    }

    pub fn is_market(self, s: &Settings) -> bool {
        s.tiles.tiles[self.tile as usize].market
    }

    /// The tile as a territory of the layout, at `at` turned by `rotation`.
    pub fn at(self, s: &Settings, at: Pos, rotation: u8) -> Territory {
        Territory {
            label: self.label(s),
            owner: self.owner,
            tile: self.tile,
            market: self.is_market(s),
            at,
            rotation,
        }
    }
}

/// Where the game stands.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Phase {
    /// Seats name their homes, in seat order.
    Homes,
    /// Setup placements; `round` 0 or 1.
    Setup { round: u8 },
    /// Regular turns.
    Play,
}

/// One seat.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct SeatState {
    pub home: Option<TileRef>,
    pub home_placed: bool,
    /// The buy-in is paid (with a seed at the deal, else on the seat's first `place`).
    pub bought_in: bool,
    /// The territory bought at the buy-in, when known (without a seed it is named by the
    /// `place` that lays it).
    pub bought: Option<TileRef>,
    pub bought_placed: bool,
    /// Dominos in hand, in the order acquired.
    pub hand: Hand,
    pub purse: i64,
    pub left: bool,
    /// It has placed a domino: its next run holds no first domino.
    pub placed_domino: bool,
}

impl SeatState {
    /// Does the seat hold a territory still to place in the setup?
    pub fn holds_territory(&self) -> bool {
        (self.home.is_some() && !self.home_placed) || (self.bought_in && !self.bought_placed)
    }
}

/// The money one turn moved, for the score breakdown. Positive amounts go to the bank,
/// except `score_paid` (the bank's payment to the mover; negative: the mover's to the
/// bank) and `bank_share` (what the last seat takes from the bank).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default)]
pub struct Ledger {
    pub home_fee: i64,
    pub buy_in: i64,
    pub dominos_bought: u8,
    pub dominos_fee: i64,
    pub territory_fee: i64,
    pub leave_fee: i64,
    pub score_paid: i64,
    pub bank_share: i64,
}

/// A Halasi position.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct State {
    /// Random events come from a seed (else they are written in the record).
    pub seeded: bool,
    pub phase: Phase,
    /// By seat index (`a` = 0); seats not playing stay empty.
    pub seats: [SeatState; 6],
    /// The order of the setup or play rounds; while a round is open (no seed), the seats
    /// that have moved in it so far.
    pub order: Vec<Seat>,
    /// The index in `order` of the seat to move.
    pub cursor: usize,
    pub to_move: Seat,
    /// With a seed: the pools are still to shuffle and the buy-ins to deal.
    pub deal_pending: bool,
    /// With a seed: the order of the phase is still to roll.
    pub order_pending: bool,
    /// A `leave` returned dominos: the domino pool is shuffled before the next roll.
    pub reshuffle_pending: bool,
    /// With a seed: what each seat paid for its buy-in at the deal, which happens
    /// between the last home turn and the first setup turn; the breakdown of that turn
    /// shows the payments. Emptied when a turn is played.
    pub deal_paid: Vec<(Seat, i64)>,
    pub bank: i64,
    /// The territory pool, top first.
    pub tiles: Vec<TileRef>,
    /// The domino pool, top first.
    pub dominos: Vec<Domino>,
    pub layout: Layout,
    /// Solitaire: the layout a `Setup` tag gives, laid after the home (its random
    /// layout is then not drawn).
    pub preset: Option<Vec<TerritoryAt>>,
    /// Turns played (setup turns included).
    pub turns: u32,
    pub end: Option<End>,
    /// The money the last turn moved.
    pub ledger: Ledger,
    /// Solitaire: points scored so far, and dominos drawn (the opening four included).
    pub score: i64,
    pub drawn: u32,
}

impl State {
    /// The position before the first turn.
    pub fn new(s: &Settings, seeded: bool) -> State {
        let mut seats: [SeatState; 6] = Default::default();
        for &seat in &s.seats {
            seats[seat.0 as usize].purse = if s.mode == Mode::Table { s.purse } else { 0 };
        }
        State {
            seeded,
            phase: Phase::Homes,
            seats,
            order: Vec::new(),
            cursor: 0,
            to_move: s.seats.first().copied().unwrap_or(Seat(0)),
            deal_pending: false,
            order_pending: false,
            reshuffle_pending: false,
            deal_paid: Vec::new(),
            bank: 0,
            tiles: Vec::new(),
            dominos: Vec::new(),
            layout: Layout::default(),
            preset: None,
            turns: 0,
            end: None,
            ledger: Ledger::default(),
            score: 0,
            drawn: 0,
        }
    }

    pub fn seat(&self, seat: Seat) -> &SeatState {
        &self.seats[seat.0 as usize]
    }

    pub fn seat_mut(&mut self, seat: Seat) -> &mut SeatState {
        &mut self.seats[seat.0 as usize]
    }

    /// The seats still in the game, in seat order.
    pub fn active<'a>(&'a self, s: &'a Settings) -> impl Iterator<Item = Seat> + 'a {
        s.seats.iter().copied().filter(|&x| !self.seat(x).left)
    }

    /// The first seat still in the game.
    fn first_active(&self, s: &Settings) -> Seat {
        let first = self.active(s).next();
        first.unwrap_or(s.seats[0])
    }

    /// The seats that must still move in an open round (no seed: its order is not
    /// rolled); `None` when the order is known.
    pub fn open(&self, s: &Settings) -> Option<SeatSet> {
        if self.seeded || s.mode == Mode::Solitaire {
            return None;
        }
        let open_round = match self.phase {
            Phase::Homes => false,
            Phase::Setup { round } => round == 0,
            Phase::Play => true,
        };
        if !open_round {
            return None;
        }
        let mut set = SeatSet::EMPTY;
        for x in self.active(s) {
            if !self.order.contains(&x) {
                set = set.with(x);
            }
        }
        (!set.is_empty()).then_some(set)
    }

    /// The layout slot of a seat's home, once laid.
    pub fn home_slot(&self, seat: Seat) -> Option<usize> {
        let home = self.seat(seat).home?;
        self.layout.slot_of_tile(home.owner, home.tile)
    }

    /// Solitaire's target: the territory fee for each territory of the layout and the
    /// domino fee for each domino drawn.
    pub fn target(&self, s: &Settings) -> i64 {
        s.territory_fee * self.layout.territories.len() as i64 + s.domino_fee * self.drawn as i64
    }

    /// Money in play: every purse and the bank (conserved in the table game).
    pub fn money(&self, s: &Settings) -> i64 {
        self.bank + s.seats.iter().map(|&x| self.seat(x).purse).sum::<i64>()
    }

    /// Moves to the next seat after a turn by `mover`, and to the next phase when a
    /// phase is done.
    pub fn advance(&mut self, s: &Settings, mover: Seat) {
        if self.end.is_some() {
            return;
        }
        match self.phase {
            Phase::Homes => {
                let next = self.active(s).find(|&x| self.seat(x).home.is_none());
                match next {
                    Some(x) => self.to_move = x,
                    None if s.mode == Mode::Solitaire => {
                        self.phase = Phase::Play;
                        self.deal_pending = self.seeded;
                        self.order = vec![s.seats[0]];
                        self.cursor = 0;
                        self.to_move = s.seats[0];
                    }
                    None => self.start_round(s, Phase::Setup { round: 0 }),
                }
            }
            Phase::Setup { round } => {
                if !self.seeded && round == 0 {
                    // An open round: the order is the order the seats move in.
                    self.order.push(mover);
                    if let Some(open) = self.open(s) {
                        self.to_move = open.iter().next().unwrap_or(mover);
                        return;
                    }
                    self.cursor = self.order.len();
                } else {
                    self.cursor += 1;
                }
                self.next_placer(s, round);
            }
            Phase::Play => {
                if !self.seeded && s.mode == Mode::Table && !self.order.contains(&mover) {
                    self.order.push(mover);
                    if let Some(open) = self.open(s) {
                        self.to_move = open.iter().next().unwrap_or(mover);
                        return;
                    }
                    self.cursor = self.order.len() - 1;
                }
                self.next_player(s);
            }
        }
    }

    /// Starts a round of setup or play: the order is rolled (seed) or open.
    fn start_round(&mut self, s: &Settings, phase: Phase) {
        self.phase = phase;
        self.order.clear();
        self.cursor = 0;
        if self.seeded {
            self.deal_pending = phase == (Phase::Setup { round: 0 });
            self.order_pending = true;
            self.to_move = self.first_active(s);
        } else {
            self.to_move = self
                .open(s)
                .and_then(|o| o.iter().next())
                .unwrap_or(s.seats[0]);
        }
    }

    /// The next seat of the setup order that holds a territory to place; a new round, or
    /// play, when the round is done.
    fn next_placer(&mut self, s: &Settings, mut round: u8) {
        loop {
            while self.cursor < self.order.len() {
                let x = self.order[self.cursor];
                if !self.seat(x).left && self.seat(x).holds_territory() {
                    self.to_move = x;
                    self.phase = Phase::Setup { round };
                    return;
                }
                self.cursor += 1;
            }
            round += 1;
            self.cursor = 0;
            let any = self.active(s).any(|x| self.seat(x).holds_territory());
            if round >= 2 || !any {
                self.start_round(s, Phase::Play);
                return;
            }
        }
    }

    /// The next seat of the play order still in the game.
    fn next_player(&mut self, s: &Settings) {
        let n = self.order.len();
        for step in 1..=n {
            let i = (self.cursor + step) % n;
            let x = self.order[i];
            if !self.seat(x).left {
                self.cursor = i;
                self.to_move = x;
                return;
            }
        }
        // Nobody left in the order (cannot happen while the game is on).
        self.to_move = self.first_active(s);
    }

    /// The seat a label chose in an open round moves.
    pub fn choose(&mut self, seat: Seat) {
        self.to_move = seat;
    }

    /// The tile of a seat's set named `name`.
    pub fn tile_named(s: &Settings, owner: Seat, name: Label) -> Option<TileRef> {
        s.tiles.index_of(name.as_str()).map(|t| TileRef {
            owner,
            tile: t as u8,
        })
    }

    /// The territory of the pool labelled `label`, by its index in the pool.
    pub fn pool_index(&self, s: &Settings, label: Label) -> Option<usize> {
        self.tiles.iter().position(|t| t.label(s) == label)
    }
}
