//! Parsing Halasi turns and setups: the pest pairs of `grammar/halasi.pest` made into
//! the typed AST of the parent module (nothing else touches the pairs).

use super::{
    Action, Address, Domino, DominoAt, DominoList, Dominos, Draw, Label, Marking, Pos, Route,
    TerritoryAt, Turn,
};

mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/record.pest"]
    #[grammar = "../grammar/halasi.pest"]
    #[grammar = "../grammar/movetext.pest"]
    pub(super) struct TurnParser;
}

use grammar::{Rule, TurnParser};
use pest::iterators::Pair;
use pest::Parser;

use crate::notation::TurnParse;

fn expected_text(rules: &[Rule]) -> String {
    let has = |r: Rule| rules.contains(&r);
    let text = if has(Rule::address) || has(Rule::index) {
        "a triangle such as `AM1.7`"
    } else if has(Rule::pos) || has(Rule::coord) {
        "a territory position such as `@1,-2`"
    } else if has(Rule::rotation) {
        "a rotation `r0`…`r5`"
    } else if has(Rule::roll) {
        "a roll and the dominos bought, such as `[3: RX KK SS]`"
    } else if has(Rule::label) {
        "a territory label such as `AM1` (a tile name such as `M1` after `home`)"
    } else if has(Rule::placed) || has(Rule::domino) {
        "a domino placed, such as `RX@AM1.0/AM1.7`"
    } else if has(Rule::points) {
        "a claimed score such as `=17` or `=-8`"
    } else {
        "a turn such as `home M1`, `place AM1 @0,0 r0`, `[3: RX KK SS] RR@AM1.0/AM1.7`, \
         `territory BT2 @1,0 r3` or `leave`"
    };
    text.to_string()
}

/// The label put where a turn names one that cannot exist: the turn is reported as
/// [`TurnParse::BadAddress`], so the value is never judged.
fn filler() -> Label {
    Label {
        len: 1,
        bytes: *b"X\0\0\0\0\0\0\0\0",
    }
}

/// The first element of a turn that does not exist: (byte offset, length).
type Bad = Option<(usize, usize)>;

fn flag(bad: &mut Bad, pair: &Pair<'_, Rule>) {
    if bad.is_none() {
        let span = pair.as_span();
        *bad = Some((span.start(), span.end() - span.start()));
    }
}

fn domino(pair: Pair<'_, Rule>) -> Domino {
    let mut cs = pair.as_str().chars().filter_map(Marking::from_symbol);
    let a = cs.next().unwrap_or(Marking(0));
    let b = cs.next().unwrap_or(a);
    Domino(a, b)
}

fn dominos(pair: Pair<'_, Rule>) -> DominoList {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::domino)
        .map(domino)
        .collect()
}

fn label(pair: Pair<'_, Rule>, bad: &mut Bad) -> Label {
    Label::new(pair.as_str()).unwrap_or_else(|| {
        flag(bad, &pair);
        filler()
    })
}

fn address(pair: Pair<'_, Rule>, bad: &mut Bad) -> Address {
    let whole = pair.clone();
    let mut inner = pair.into_inner();
    let l = inner.next().map(|p| label(p, bad));
    let index = inner.next().and_then(|p| p.as_str().parse::<u8>().ok());
    match (l, index) {
        (Some(label), Some(index)) if index < Address::TRIANGLES => Address { label, index },
        (l, _) => {
            flag(bad, &whole);
            Address {
                label: l.unwrap_or(filler()),
                index: 0,
            }
        }
    }
}

fn territory(pair: Pair<'_, Rule>, bad: &mut Bad) -> TerritoryAt {
    let mut out = TerritoryAt {
        label: filler(),
        at: Pos { q: 0, r: 0 },
        rotation: 0,
    };
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::label => out.label = label(p, bad),
            Rule::pos => {
                let coords: Vec<Option<i32>> = p
                    .clone()
                    .into_inner()
                    .map(|c| c.as_str().parse().ok())
                    .collect();
                match (
                    coords.first().copied().flatten(),
                    coords.get(1).copied().flatten(),
                ) {
                    (Some(q), Some(r)) if Pos::new(q, r).is_some() => {
                        out.at = Pos::new(q, r).expect("checked");
                    }
                    _ => flag(bad, &p),
                }
            }
            Rule::rotation => match p.as_str()[1..].parse::<u8>() {
                Ok(k) if k < TerritoryAt::ROTATIONS => out.rotation = k,
                _ => flag(bad, &p),
            },
            _ => {}
        }
    }
    out
}

fn placed(pair: Pair<'_, Rule>, bad: &mut Bad) -> DominoAt {
    let mut inner = pair.into_inner();
    let d = inner
        .next()
        .map(domino)
        .unwrap_or(Domino(Marking(0), Marking(0)));
    let first = inner.next().map(|p| address(p, bad));
    let second = inner.next().map(|p| address(p, bad));
    let none = Address {
        label: filler(),
        index: 0,
    };
    DominoAt {
        domino: d,
        first: first.unwrap_or(none),
        second: second.unwrap_or(none),
    }
}

/// Parses a `Setup` value: solitaire's layout, the territories laid after the home, in
/// order (`AT2 @1,0 r3, AM2 @0,1 r0`). An error says at which byte and why.
pub fn parse_setup(input: &str) -> Result<Vec<TerritoryAt>, (usize, String)> {
    let setup = TurnParser::parse(Rule::setup, input).map_err(|e| {
        let at = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((p, _)) => p,
        };
        (
            at,
            "a Halasi Setup lists territories: `AT2 @1,0 r3, AM2 @0,1 r0`".to_string(),
        )
    })?;
    let mut bad: Bad = None;
    let mut out = Vec::new();
    for p in setup.flatten().filter(|p| p.as_rule() == Rule::territory) {
        out.push(territory(p, &mut bad));
    }
    match bad {
        Some((at, len)) => Err((
            at,
            format!(
                "`{}` does not exist (a label of at most {} characters, a position within ±{}, a rotation r0-r5)",
                crate::quote::quote(&input[at..at + len]),
                Label::MAX,
                Pos::LIMIT
            ),
        )),
        None => Ok(out),
    }
}

/// Parses one Halasi turn at the start of `input`; what follows is the caller's.
pub fn parse_turn(input: &str) -> TurnParse<Turn> {
    match crate::notation::turn_pair(TurnParser::parse(Rule::turn, input), expected_text) {
        Ok(turn) => turn_of(turn),
        Err(no_turn) => no_turn,
    }
}

crate::notation::fast_movetext!(Turn, super::fast::fast_turn, turn_of, parse_turn);

/// The turn a `turn` pair holds; offsets count from the pair's start.
fn turn_of(turn: pest::iterators::Pair<'_, Rule>) -> TurnParse<Turn> {
    let base = turn.as_span().start();
    let len = turn.as_span().end() - base;
    let mut bad: Bad = None;
    let Some(part) = turn.into_inner().next() else {
        return TurnParse::NoTurn {
            at: 0,
            expected: expected_text(&[]),
        };
    };
    let out = match part.as_rule() {
        Rule::home => {
            let tile = part
                .into_inner()
                .find(|p| p.as_rule() == Rule::label)
                .map(|p| label(p, &mut bad))
                .unwrap_or(filler());
            Turn::Home { tile }
        }
        Rule::place => {
            let mut buy_in = None;
            let mut at = None;
            for p in part.into_inner() {
                match p.as_rule() {
                    Rule::dominos => buy_in = Some(Dominos(dominos(p))),
                    Rule::territory => at = Some(territory(p, &mut bad)),
                    _ => {}
                }
            }
            Turn::Place {
                buy_in,
                territory: at.unwrap_or(TerritoryAt {
                    label: filler(),
                    at: Pos { q: 0, r: 0 },
                    rotation: 0,
                }),
            }
        }
        _ => {
            let (mut opening, mut draw, mut action, mut routes, mut claim) =
                (None, None, Action::Nothing, Vec::new(), None);
            for p in part.into_inner() {
                match p.as_rule() {
                    Rule::dominos => opening = Some(Dominos(dominos(p))),
                    Rule::draw => {
                        let mut roll = 0;
                        let mut ds = DominoList::new();
                        for q in p.into_inner() {
                            match q.as_rule() {
                                Rule::roll => roll = q.as_str().parse().unwrap_or(0),
                                Rule::domino => ds.push(domino(q)),
                                _ => {}
                            }
                        }
                        draw = Some(Draw { roll, dominos: ds });
                    }
                    Rule::action => {
                        if let Some(a) = p.into_inner().next() {
                            action = match a.as_rule() {
                                Rule::buy => match a.into_inner().next() {
                                    Some(t) => Action::Territory(territory(t, &mut bad)),
                                    None => Action::Nothing,
                                },
                                Rule::leave => Action::Leave,
                                _ => Action::Run(
                                    a.into_inner()
                                        .filter(|q| q.as_rule() == Rule::placed)
                                        .map(|q| placed(q, &mut bad))
                                        .collect(),
                                ),
                            };
                        }
                    }
                    Rule::route => {
                        let mut ls = p.into_inner().map(|q| label(q, &mut bad));
                        let a = ls.next();
                        let b = ls.next();
                        if let (Some(a), Some(b)) = (a, b) {
                            routes.push(Route(a, b));
                        }
                    }
                    Rule::claim => {
                        let text = p.as_str()[1..].to_string();
                        match text.parse::<i64>() {
                            Ok(n) => claim = Some(n),
                            Err(_) => {
                                return TurnParse::NoTurn {
                                    at: p.as_span().start() - base,
                                    expected: "a claimed score that fits in 64 bits".into(),
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            Turn::Play {
                opening,
                draw,
                action,
                routes,
                claim,
            }
        }
    };
    TurnParse::finish(out, len, bad.map(|(at, n)| (at - base, n)))
}
