//! Tile sets (`halasi.md`, "Components"): YAML files naming each territory tile, whether
//! it is a market, and its 24 markings in index order. Parsing is pure: the ruleset layer
//! finds and reads the file (`SET.yaml` in a `halasi/` folder of the search path) and
//! hands its text here.
//!
//! ```yaml
//! name: standard
//! tiles:
//!   - name: M1
//!     market: true
//!     markings: "I O F X S M  Q U R S U P 9 # Y T M K I F Y 4 Q R"   # 24, index order
//! ```

use std::fmt;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::geometry::TRIANGLES;
use crate::notation::halasi::{Label, Marking};

/// One territory tile of a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tile {
    /// `M1`, `T3`: a capital letter, then letters and digits, at most 8 in all.
    pub name: Label,
    pub market: bool,
    /// The marking printed at each index, at rotation 0.
    pub markings: [Marking; TRIANGLES],
}

/// A tile set: every seat uses the same one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSet {
    pub name: String,
    pub tiles: Vec<Tile>,
}

/// The most tiles a set may hold (a layout of six seats' sets stays small).
pub const MAX_TILES: usize = 16;
/// The longest tile name: a label is the seat's letter and the name.
pub const MAX_NAME: usize = Label::MAX - 1;

impl TileSet {
    /// The tile named `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.tiles.iter().position(|t| t.name.as_str() == name)
    }

    /// The market tiles' names, in set order.
    pub fn markets(&self) -> impl Iterator<Item = &Tile> {
        self.tiles.iter().filter(|t| t.market)
    }
}

/// What is wrong with a tile set, and where (1-based line and column; 0 when unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSetError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for TileSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A tile's name, checked as it is read.
struct Name(Label);

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        let text = String::deserialize(d)?;
        if text.len() > MAX_NAME {
            return Err(de::Error::custom(format!(
                "the tile name `{text}` is too long: at most {MAX_NAME} characters (a \
                 territory's label is its seat's letter and the name)"
            )));
        }
        Label::new(&text).map(Name).ok_or_else(|| {
            de::Error::custom(format!(
                "`{text}` is not a tile name: a capital letter, then ASCII letters and \
                 digits (`M1`, `T3`)"
            ))
        })
    }
}

/// 24 markings, checked as they are read.
struct Markings([Marking; TRIANGLES]);

impl<'de> Deserialize<'de> for Markings {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Markings, D::Error> {
        let text = String::deserialize(d)?;
        let mut out = Vec::with_capacity(TRIANGLES);
        for word in text.split_whitespace() {
            let mut chars = word.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(de::Error::custom(format!(
                    "`{word}` is not a marking: markings are single symbols separated by \
                     spaces ({})",
                    symbols()
                )));
            };
            match Marking::from_symbol(c) {
                Some(m) => out.push(m),
                None => {
                    return Err(de::Error::custom(format!(
                        "unknown symbol `{c}`: the markings are {}",
                        symbols()
                    )))
                }
            }
        }
        let n = out.len();
        out.try_into().map(Markings).map_err(|_| {
            de::Error::custom(format!(
                "{n} markings; a tile has {TRIANGLES}, one for each triangle in index order"
            ))
        })
    }
}

fn symbols() -> String {
    Marking::SYMBOLS
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    name: Name,
    #[serde(default)]
    market: bool,
    markings: Markings,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    name: String,
    tiles: Vec<RawTile>,
}

/// The line (1-based) of the `n`-th line of `text` matching `pred`, or 0.
fn line_where(text: &str, n: usize, pred: impl Fn(&str) -> bool) -> u32 {
    text.lines()
        .enumerate()
        .filter(|(_, l)| pred(l))
        .nth(n)
        .map(|(i, _)| i as u32 + 1)
        .unwrap_or(0)
}

/// The most `[` and `{` a tile set may hold. The YAML parser takes time quadratic in how
/// deep flow collections nest (20 KB of `[` took 1.7 s, 200 KB over a minute), and a
/// tile set nests no deeper than a flow list in a flow map; counting every bracket, in
/// strings and comments too, bounds the depth with no way around it.
pub const MAX_BRACKETS: usize = 256;

/// Parses and checks the tile set `name` (its file's stem) from the text of its file.
pub fn parse(name: &str, text: &str) -> Result<TileSet, TileSetError> {
    if let Some((n, offset)) = text
        .bytes()
        .enumerate()
        .filter(|(_, b)| matches!(b, b'[' | b'{'))
        .map(|(i, _)| i)
        .enumerate()
        .nth(MAX_BRACKETS)
    {
        let line = text[..offset].matches('\n').count() as u32 + 1;
        let column = text[..offset]
            .rsplit('\n')
            .next()
            .map_or(0, |l| l.chars().count()) as u32
            + 1;
        return Err(TileSetError {
            line,
            column,
            message: format!(
                "more than {MAX_BRACKETS} `[` and `{{` in a tile set (this is bracket {}): \
                 write its tiles as a block list",
                n + 1
            ),
        });
    }
    let raw: RawSet = serde_yaml::from_str(text).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line() as u32, l.column() as u32))
            .unwrap_or((0, 0));
        // The library's message ends with its own "at line L column C"; the caller
        // places the error, so keep the message alone.
        let message = e.to_string();
        let message = match message.find(" at line ") {
            Some(i) => message[..i].to_string(),
            None => message,
        };
        // `tiles[0]: …` → `tile 1: …`, and a marking error points at its `markings:`
        // line rather than the tile's first.
        let (message, line) = match message
            .strip_prefix("tiles[")
            .and_then(|m| m.split_once("]: "))
            .and_then(|(n, rest)| Some((n.parse::<usize>().ok()?, rest)))
        {
            Some((n, rest)) => {
                let line = if rest.starts_with("unknown symbol")
                    || rest.contains("is not a marking")
                    || rest.contains(" markings; a tile has")
                {
                    text.lines()
                        .enumerate()
                        .skip(line.saturating_sub(1) as usize)
                        .find(|(_, l)| l.contains("markings:"))
                        .map_or(line, |(i, _)| i as u32 + 1)
                } else {
                    line
                };
                (format!("tile {}: {rest}", n + 1), line)
            }
            None => (message, line),
        };
        TileSetError {
            line,
            column,
            message,
        }
    })?;
    let at = |line: u32, message: String| TileSetError {
        line,
        column: 1,
        message,
    };
    if raw.name != name {
        let line = line_where(text, 0, |l| l.trim_start().starts_with("name:"));
        return Err(at(
            line,
            format!(
                "the tile set is named `{}` but its file is `{name}.yaml`; the names must \
                 match",
                raw.name
            ),
        ));
    }
    let tiles_line = line_where(text, 0, |l| l.trim_start().starts_with("tiles:"));
    if raw.tiles.is_empty() || raw.tiles.len() > MAX_TILES {
        return Err(at(
            tiles_line,
            format!("{} tiles; a set has 1 to {MAX_TILES}", raw.tiles.len()),
        ));
    }
    let mut tiles: Vec<Tile> = Vec::with_capacity(raw.tiles.len());
    for (i, t) in raw.tiles.into_iter().enumerate() {
        if tiles.iter().any(|u| u.name == t.name.0) {
            let named = |l: &str| {
                let l = l.trim_start().trim_start_matches("- ").trim_start();
                l.strip_prefix("name:")
                    .map(|v| v.trim().trim_matches('"').trim_matches('\'') == t.name.0.as_str())
                    .unwrap_or(false)
            };
            return Err(at(
                line_where(text, 1, named),
                format!(
                    "tile {} is named `{}` like an earlier one; every tile needs its own name",
                    i + 1,
                    t.name.0
                ),
            ));
        }
        tiles.push(Tile {
            name: t.name.0,
            market: t.market,
            markings: t.markings.0,
        });
    }
    if !tiles.iter().any(|t| t.market) {
        return Err(at(
            tiles_line,
            "no market tile: a set needs at least one (`market: true`), for homes and routes"
                .to_string(),
        ));
    }
    Ok(TileSet {
        name: raw.name,
        tiles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "name: test
tiles:
  - name: M1
    market: true
    markings: \"I O F X S M  Q U R S U P 9 # Y T M K I F Y 4 Q R\"
  - name: T1
    markings: \"I O F X S M  Q U R S U P 9 # Y T M K I F Y 4 Q R\"
";

    fn err(text: &str) -> TileSetError {
        parse("test", text).expect_err("broken")
    }

    #[test]
    fn brackets_past_the_most_are_refused_where_the_first_too_many_is() {
        let deep = format!(
            "name: deep\ntiles: {}{}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let e = parse("deep", &deep).unwrap_err();
        assert_eq!((e.line, e.column), (2, 8 + MAX_BRACKETS as u32));
        assert!(e.message.contains("bracket 257"), "{}", e.message);
        // Up to the most, the YAML is read (and this one is refused for what it holds).
        let ok = format!(
            "name: deep\ntiles: {}{}\n",
            "[".repeat(MAX_BRACKETS),
            "]".repeat(MAX_BRACKETS)
        );
        let e = parse("deep", &ok).unwrap_err();
        assert!(!e.message.contains("bracket"), "{}", e.message);
    }

    #[test]
    fn a_good_set_parses() {
        let set = parse("test", GOOD).unwrap();
        assert_eq!(set.tiles.len(), 2);
        assert!(set.tiles[0].market && !set.tiles[1].market);
        assert_eq!(set.tiles[0].markings[8].symbol(), 'R');
        assert_eq!(set.index_of("T1"), Some(1));
    }

    #[test]
    fn broken_sets_say_what_and_where() {
        let e = err(&GOOD.replacen("Y 4 Q R\"", "Y 4 Q\"", 1));
        assert_eq!(
            (e.line, e.message.as_str()),
            (
                5,
                "tile 1: 23 markings; a tile has 24, one for each triangle in index order"
            )
        );
        let e = err(&GOOD.replacen("I O F X", "I Z F X", 1));
        assert_eq!(e.line, 5);
        assert!(
            e.message.starts_with("tile 1: unknown symbol `Z`"),
            "{}",
            e.message
        );
        let e = err(&GOOD.replace("name: T1", "name: M1"));
        assert_eq!(e.line, 6);
        assert!(
            e.message.contains("named `M1` like an earlier one"),
            "{}",
            e.message
        );
        let e = err(&GOOD.replace("market: true", "market: false"));
        assert_eq!(e.line, 2);
        assert!(e.message.starts_with("no market tile"));
        let e = err(&GOOD.replace("name: T1", "name: t1"));
        assert_eq!(e.line, 6);
        assert!(e.message.contains("not a tile name"), "{}", e.message);
        let e = err(&GOOD.replace("name: test", "name: other"));
        assert_eq!(e.line, 1);
        let e = err(&GOOD.replace("market: true", "markt: true"));
        assert_eq!(e.line, 4);
        assert!(e.message.contains("markt"), "{}", e.message);
        let e = err("name: test\ntiles: [");
        assert!(e.line >= 2, "a YAML syntax error is placed: {e:?}");
        let e = err(&GOOD.replace("name: T1", "name: TOOLONGNAME"));
        assert!(e.message.contains("too long"));
    }

    #[test]
    fn nothing_panics_on_odd_yaml() {
        for text in [
            "",
            "name: test",
            "tiles: 3",
            "- a",
            "name: test\ntiles: []",
            ":::",
            "name: test\ntiles:\n  - name: M1\n    markings: 5\n",
        ] {
            assert!(parse("test", text).is_err(), "{text:?}");
        }
    }
}

#[cfg(test)]
mod standard {
    use super::*;
    use crate::games::halasi::markings::Relation;

    const TEXT: &str = include_str!("../../../rulesets/halasi/standard.yaml");

    fn sigma(m: Marking) -> Marking {
        Marking::from_number(m.number() ^ 1).unwrap()
    }

    #[test]
    fn the_standard_set_is_as_the_issue_asks() {
        let set = parse("standard", TEXT).unwrap();
        let names: Vec<&str> = set.tiles.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["M1", "M2", "T1", "T2", "T3", "T4"]);
        assert_eq!(set.markets().count(), 2);
        assert!(set.tiles[0].market && set.tiles[1].market);
        let mut count = [0; 16];
        for t in &set.tiles {
            for m in t.markings {
                count[m.number() as usize] += 1;
            }
        }
        assert_eq!(count, [9; 16], "every marking is used, nine times each");
    }

    /// The fairness argument of `docs/decisions.md`: sigma keeps every relation, and maps
    /// M1 to M2, T1 to T2, T3 to T4 (and back).
    #[test]
    fn sigma_keeps_relations_and_maps_the_set_onto_itself() {
        for a in Marking::ALL {
            for b in Marking::ALL {
                assert_eq!(Relation::of(sigma(a), sigma(b)), Relation::of(a, b));
            }
        }
        let set = parse("standard", TEXT).unwrap();
        for (x, y) in [(0, 1), (2, 3), (4, 5)] {
            let mapped = set.tiles[x].markings.map(sigma);
            assert_eq!(mapped, set.tiles[y].markings, "{}", set.tiles[y].name);
        }
    }
}
