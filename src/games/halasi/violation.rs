//! Illegal Halasi turns, each naming the rule it breaks. The `Display` is the ruling's
//! message.

use std::fmt;

use super::layout::PlaceFault;
use crate::games::{RuleId, Seat};
use crate::notation::halasi::{Address, Domino, DominoAt, Dominos, Label, Pos, Route};

/// A seat's name (`a`…`f`).
pub fn seat_name(seat: Seat) -> &'static str {
    super::settings::SEAT_NAMES
        .get(seat.0 as usize)
        .copied()
        .unwrap_or("?")
}

/// What each phase takes, for a turn of the wrong kind (rule `phase`).
pub const EXPECT_HOME: &str = "each seat first names its home: `home M1`";
pub const EXPECT_PLACE: &str = "in the setup each seat places a territory: `place AM1 @0,0 r0`";
pub const EXPECT_PLAY: &str =
    "it is a regular turn, of the form `[3: RX KK SS] RX@AM1.0/AM1.7`, or `territory …` or `leave`";
pub const EXPECT_SOLITAIRE: &str =
    "a solitaire turn places a run (the bracket alone when no domino can be placed)";

/// Why a roll, a buy-in or the dominos bought cannot be as written (rule
/// `roll-and-buy`).
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum BuyFault {
    /// A buy-in on a `place` after the seat's first.
    BuyInAgain,
    /// Without a seed the seat's first `place` writes its buy-in.
    BuyInMissing,
    BuyInCount {
        written: usize,
        due: usize,
    },
    /// Dominos the pool does not hold.
    NotInPool(Dominos),
    /// Without a seed solitaire's first regular turn writes the opening four.
    OpeningMissing,
    OpeningCount {
        written: usize,
        due: usize,
    },
    OpeningNotDue,
    /// Without a seed a regular turn writes its roll and the dominos bought.
    DrawMissing,
    /// A roll the die cannot show.
    Roll(u8),
    DrawCount {
        roll: u8,
        written: usize,
        due: usize,
        /// The purse that limits the purchase; `None` in solitaire, which draws without
        /// paying.
        purse: Option<i64>,
        pool: usize,
    },
}

/// Why a home cannot be named (rule `home`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum HomeFault {
    /// The set has no tile of that name.
    Unknown,
    /// The tile is not a market.
    NotMarket,
}

/// Why a territory cannot be bought (rule `territory-buy`).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum BuyTileFault {
    PoolEmpty,
    /// The purse (after the turn's dominos) is below the fee.
    Purse {
        purse: i64,
        fee: i64,
    },
    /// With a seed the top of the pool is known, and it is another tile.
    NotTop {
        top: Label,
    },
    /// Without a seed: the pool holds no tile with that label.
    NotInPool,
}

/// An illegal Halasi turn or setup.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Violation {
    // -- phase
    /// A turn of the wrong kind for the phase: `expected` says what the phase takes.
    Phase {
        expected: &'static str,
    },
    // -- home
    Home {
        tile: Label,
        why: HomeFault,
    },
    // -- setup-place
    SetupPlace {
        seat: Seat,
        label: Label,
        holds: Vec<Label>,
        /// Without a seed: it may also place a territory of the pool (the one it bought).
        from_pool: bool,
    },
    // -- territory-buy
    TerritoryBuy {
        label: Label,
        why: BuyTileFault,
    },
    // -- roll-and-buy
    Buy {
        seat: Seat,
        why: BuyFault,
    },
    /// A table turn with no action after its roll.
    NoAction,
    // -- leave
    /// A `leave` or `resign` on a home or setup turn: both belong to the play rounds.
    LeaveBeforePlay {
        resign: bool,
    },
    /// A `leave` in solitaire, which has no leaving (`resign` ends it lost).
    LeaveInSolitaire,
    // -- solitaire-end
    /// The bracket alone, while a domino could be placed.
    CanPlace {
        example: DominoAt,
    },
    // -- the setting `seats` (no rule: an error of the settings)
    /// The table game given fewer than two seats.
    TableSeats,
    /// Solitaire given seats other than `a` (as the setting was written).
    SolitaireSeats {
        named: String,
    },
    // -- setup
    /// A `Setup` that cannot be: the table game starts from its homes; a solitaire
    /// layout of tiles that are not in the pool or do not join.
    Setup {
        message: String,
    },
    // -- address
    /// A triangle of a territory that is not on the layout.
    NoSuchTerritory {
        address: Address,
    },
    // -- not-adjacent
    NotAdjacent {
        domino: DominoAt,
    },
    // -- covered
    Covered {
        domino: DominoAt,
        at: Address,
    },
    /// Two dominos of the run on one triangle.
    TwiceInRun {
        at: Address,
    },
    // -- from-hand
    NotInHand {
        seat: Seat,
        domino: Domino,
        hand: Vec<Domino>,
    },
    // -- first-domino
    FirstDomino {
        seat: Seat,
        domino: DominoAt,
        home: Label,
    },
    // -- one-run
    NotOneRun {
        apart: DominoAt,
    },
    // -- adjoin
    NoAdjoin,
    // -- self-match
    NoMatch {
        domino: DominoAt,
        required: &'static str,
    },
    // -- route
    RouteNotMarket {
        route: Route,
        label: Label,
    },
    RouteNotLinked {
        route: Route,
    },
    RouteTwice {
        route: Route,
    },
    /// A route announced on a turn that places no domino.
    RouteOffRun {
        route: Route,
    },
    // -- route-new
    RouteNotNew {
        route: Route,
    },
    // -- claim
    Claim {
        claimed: i64,
        scored: i64,
    },
    // -- territory-adjacent
    Territory {
        label: Label,
        at: Pos,
        fault: PlaceFault,
    },
}

impl crate::games::Violation for Violation {
    fn rule(&self) -> RuleId {
        match self {
            Violation::Phase { .. } => "phase",
            Violation::Home { .. } => "home",
            Violation::SetupPlace { .. } => "setup-place",
            Violation::TerritoryBuy { .. } => "territory-buy",
            Violation::Buy { .. } | Violation::NoAction => "roll-and-buy",
            Violation::LeaveBeforePlay { .. } | Violation::LeaveInSolitaire => "leave",
            Violation::CanPlace { .. } => "solitaire-end",
            // (Never cited: `setting` names what refuses these.)
            Violation::Setup { .. } | Violation::TableSeats | Violation::SolitaireSeats { .. } => {
                "setup"
            }
            Violation::NoSuchTerritory { .. } => "address",
            Violation::NotAdjacent { .. } => "not-adjacent",
            Violation::Covered { .. } | Violation::TwiceInRun { .. } => "covered",
            Violation::NotInHand { .. } => "from-hand",
            Violation::FirstDomino { .. } => "first-domino",
            Violation::NotOneRun { .. } => "one-run",
            Violation::NoAdjoin => "adjoin",
            Violation::NoMatch { .. } => "self-match",
            Violation::RouteNotMarket { .. }
            | Violation::RouteNotLinked { .. }
            | Violation::RouteTwice { .. }
            | Violation::RouteOffRun { .. } => "route",
            Violation::RouteNotNew { .. } => "route-new",
            Violation::Claim { .. } => "claim",
            Violation::Territory { .. } => "territory-adjacent",
        }
    }

    fn setting(&self) -> Option<&'static str> {
        matches!(
            self,
            Violation::TableSeats | Violation::SolitaireSeats { .. }
        )
        .then_some("seats")
    }
}

fn list(ds: &[Domino]) -> String {
    if ds.is_empty() {
        return "nothing".into();
    }
    ds.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for BuyFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuyFault::BuyInAgain => {
                f.write_str("the buy-in is written on the seat's first `place` only")
            }
            BuyFault::BuyInMissing => f.write_str(
                "without a seed the seat's first `place` writes its buy-in: `[RX SS IO QQ] place …`",
            ),
            BuyFault::BuyInCount { written, due } => {
                write!(f, "the buy-in is {due} dominos, not {written}")
            }
            BuyFault::NotInPool(d) => write!(f, "the domino pool does not hold {d}"),
            BuyFault::OpeningMissing => f.write_str(
                "without a seed solitaire's first regular turn writes the opening four: `[RX SS IO QQ] [3: …] …`",
            ),
            BuyFault::OpeningCount { written, due } => {
                write!(f, "the opening draw is {due} dominos, not {written}")
            }
            BuyFault::OpeningNotDue => {
                f.write_str("only solitaire's first regular turn draws the opening four")
            }
            BuyFault::DrawMissing => f.write_str(
                "without a seed a regular turn writes its roll and the dominos bought: `[3: RX KK SS] …`",
            ),
            BuyFault::Roll(r) => write!(f, "a die of six faces cannot roll {r}"),
            BuyFault::DrawCount {
                roll,
                written,
                due,
                purse,
                pool,
            } => {
                let plural = if *due == 1 { "" } else { "s" };
                match purse {
                    Some(purse) => write!(
                        f,
                        "a roll of {roll} buys {due} domino{plural} (purse {purse}, {pool} in the pool), not {written}"
                    ),
                    None => write!(
                        f,
                        "a roll of {roll} draws {due} domino{plural} ({pool} in the pool), not {written}"
                    ),
                }
            }
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Phase { expected } => write!(f, "a turn of the wrong kind: {expected}"),
            Violation::Home { tile, why } => match why {
                HomeFault::Unknown => write!(f, "the tile set has no tile `{tile}`"),
                HomeFault::NotMarket => {
                    write!(f, "{tile} is not a market tile: a home is a market")
                }
            },
            Violation::SetupPlace {
                seat,
                label,
                holds,
                from_pool,
            } => {
                let mut can: Vec<String> = holds.iter().map(|l| l.to_string()).collect();
                if *from_pool {
                    can.push("the territory it bought from the pool".into());
                }
                write!(
                    f,
                    "{} does not hold {label} (it holds {})",
                    seat_name(*seat),
                    if can.is_empty() {
                        "no territory to place".to_string()
                    } else {
                        can.join(" and ")
                    }
                )
            }
            Violation::TerritoryBuy { label, why } => match why {
                BuyTileFault::PoolEmpty => {
                    write!(f, "territory {label}: the territory pool is empty")
                }
                BuyTileFault::Purse { purse, fee } => write!(
                    f,
                    "territory {label}: it costs {fee} and the purse holds {purse}"
                ),
                BuyTileFault::NotTop { top } => write!(
                    f,
                    "territory {label}: the top of the territory pool is {top}, and a seat buys the top"
                ),
                BuyTileFault::NotInPool => {
                    write!(f, "territory {label}: the territory pool holds no {label}")
                }
            },
            Violation::Buy { seat, why } => write!(f, "{}: {why}", seat_name(*seat)),
            Violation::NoAction => f.write_str(
                "after the roll a seat does exactly one of: buy a territory, place a run, leave",
            ),
            Violation::LeaveInSolitaire => f.write_str(
                "there is no leaving in solitaire: a turn places a run (the bracket alone when \
                 no domino can be placed), or `resign` ends the game lost",
            ),
            Violation::LeaveBeforePlay { resign } => write!(
                f,
                "a seat {} only in the play rounds, on its turn after the setup; a home or \
                 setup turn names a home or places a territory",
                if *resign { "resigns" } else { "leaves" }
            ),
            Violation::CanPlace { example } => write!(
                f,
                "the turn places nothing, but a domino can be placed ({example}): only a turn \
                 where no domino can be placed ends solitaire"
            ),
            Violation::Setup { message } => f.write_str(message),
            Violation::TableSeats => f.write_str(
                "the table game is for two to six seats (solitaire is `mode = solitaire`, the \
                 ruleset halasi-solitaire)",
            ),
            Violation::SolitaireSeats { named } => write!(
                f,
                "solitaire is played by one seat, a, not {named} (the table game is the \
                 ruleset halasi)"
            ),
            Violation::RouteOffRun { route } => {
                write!(f, "{route}: routes are announced on a turn that places dominos")
            }
            Violation::NoSuchTerritory { address } => write!(
                f,
                "`{address}`: no territory labelled `{}` is on the layout",
                address.label
            ),
            Violation::NotAdjacent { domino } => write!(
                f,
                "{domino}: {} and {} do not share an edge, so no domino covers both",
                domino.first, domino.second
            ),
            Violation::Covered { domino, at } => {
                write!(f, "{domino}: {at} is covered already")
            }
            Violation::TwiceInRun { at } => {
                write!(f, "two dominos of the run cover {at}")
            }
            Violation::NotInHand { seat, domino, hand } => write!(
                f,
                "{domino} is not in {}'s hand (it holds {})",
                seat_name(*seat),
                list(hand)
            ),
            Violation::FirstDomino { seat, domino, home } => write!(
                f,
                "{domino} is {}'s first domino: one of its halves must lie on a centre \
                 triangle of its home {home} ({home}.0-{home}.5) with the same marking",
                seat_name(*seat)
            ),
            Violation::NotOneRun { apart } => write!(
                f,
                "{apart} shares no edge with the rest of the run: the dominos of a turn form \
                 one group"
            ),
            Violation::NoAdjoin => {
                f.write_str("the run shares no edge with a domino already on the layout")
            }
            Violation::NoMatch { domino, required } => write!(
                f,
                "{domino} has no {required} match between a half and its foundation or an \
                 adjoining half"
            ),
            Violation::RouteNotMarket { route, label } => {
                write!(f, "{route}: `{label}` is not a market on the layout")
            }
            Violation::RouteNotLinked { route } => write!(
                f,
                "{route}: no chain of dominos links {} and {}",
                route.0, route.1
            ),
            Violation::RouteTwice { route } => {
                write!(f, "{route} is announced twice")
            }
            Violation::RouteNotNew { route } => write!(
                f,
                "{route}: {} and {} were linked before this turn, so it is no new route",
                route.0, route.1
            ),
            Violation::Claim { claimed, scored } => {
                write!(f, "the turn scores {scored}, not the {claimed} claimed")
            }
            Violation::Territory { label, at, fault } => match fault {
                PlaceFault::FirstAtOrigin => write!(
                    f,
                    "{label} {at}: the first territory of the layout lies at @0,0"
                ),
                PlaceFault::Taken(by) => {
                    write!(f, "{label} {at}: {by} lies there already")
                }
                PlaceFault::NotAdjacent => write!(
                    f,
                    "{label} {at}: no territory of the layout is next to that position"
                ),
            },
        }
    }
}
