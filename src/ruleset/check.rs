//! Checking one setting's value against the [`Kind`] its schema declares. The same check
//! serves a ruleset's `set` lines, `--option` and the record's `Options` tag.

use super::error::{all_of, one_of, suggest, RulesetError};
use super::parse::{Pos, ValueKind, ValueNode};
use super::schema::{Alt, Kind, SettingSpec};
use crate::quote::quote;

/// What is wrong with a value, and where in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub pos: Pos,
    pub message: String,
    pub suggestion: Option<String>,
}

impl Problem {
    fn new(pos: Pos, message: String) -> Problem {
        Problem {
            pos,
            message,
            suggestion: None,
        }
    }
    fn suggesting(mut self, s: Option<String>) -> Problem {
        self.suggestion = s;
        self
    }
    pub fn into_error(self, file: &str) -> RulesetError {
        RulesetError::new(file, self.pos.line, self.pos.column, self.message)
            .with_suggestion(self.suggestion)
    }
}

/// How a value is named in a message: scalars and calls as written, others by kind.
fn found(v: &ValueNode) -> String {
    match &v.kind {
        ValueKind::List(_) => format!("the list `{}`", quote(&v.to_value().to_string())),
        ValueKind::Map(_) => "a map".to_string(),
        ValueKind::Str(_) => "a string".to_string(),
        ValueKind::Range(..) => format!("the range `{}`", quote(&v.to_value().to_string())),
        _ => format!("`{}`", quote(&v.to_value().to_string())),
    }
}

/// The alternatives of a choice, for "expected" messages: `capture-all`,
/// `reduce-to(N)` with N from 0 to 21.
pub fn describe_alts(alts: &[Alt]) -> String {
    let items: Vec<String> = alts
        .iter()
        .map(|a| match a {
            Alt::Word(w) => format!("`{w}`"),
            Alt::Call { name, min, max } => format!("`{name}(N)` with N from {min} to {max}"),
        })
        .collect();
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

/// What a setting of this kind takes, as a phrase ("an integer from 0 to 10000").
pub fn describe_kind(kind: &Kind) -> String {
    match kind {
        Kind::Bool => "`true` or `false`".to_string(),
        Kind::Int { min, max } => format!("an integer from {min} to {max}"),
        Kind::Choice(alts) => describe_alts(alts),
        Kind::WordList { allowed, min, max } => format!(
            "a list of {} distinct words from {}",
            count(*min, *max),
            one_of(allowed.iter().copied())
        ),
        Kind::IntList { min, max } => format!("a list of integers from {min} to {max}"),
        Kind::IntMap { keys } => format!(
            "a map giving an integer for each of {}",
            one_of(keys.iter().copied())
        ),
        Kind::Str => "a string in double quotes".to_string(),
        Kind::Data { folder, ext, .. } => {
            format!("the name of a `{folder}/NAME.{ext}` file on the ruleset search path")
        }
    }
}

fn count(min: usize, max: usize) -> String {
    if min == max {
        format!("{min}")
    } else if max == usize::MAX {
        format!("at least {min}")
    } else {
        format!("{min} to {max}")
    }
}

/// Checks `value` for the setting `spec`.
pub fn check_value(spec: &SettingSpec, value: &ValueNode) -> Result<(), Problem> {
    let key = spec.key;
    let wrong = || {
        Problem::new(
            value.pos,
            format!(
                "`{key}` takes {}, not {}",
                describe_kind(&spec.kind),
                found(value)
            ),
        )
    };
    match (&spec.kind, &value.kind) {
        (Kind::Bool, ValueKind::Bool(_)) => Ok(()),
        (Kind::Bool, ValueKind::Word(w)) => Err(wrong().suggesting(suggest(w, ["true", "false"]))),
        (Kind::Bool, _) => Err(wrong()),

        (Kind::Int { min, max }, ValueKind::Int(n)) => {
            in_range(&format!("`{key}`"), *n, *min, *max, value.pos)
        }
        (Kind::Int { .. }, _) => Err(wrong()),

        (Kind::Choice(alts), ValueKind::Word(w)) => {
            if has_word(alts, w) {
                return Ok(());
            }
            if let Some(Alt::Call { name, min, max }) = find_call(alts, w) {
                return Err(Problem::new(
                    value.pos,
                    format!("`{name}` needs its argument: `{name}(N)` with N from {min} to {max}"),
                ));
            }
            Err(unknown_choice(key, w, alts, value.pos))
        }
        (Kind::Choice(alts), ValueKind::Call { name, args }) => {
            if let Some(Alt::Call { name, min, max }) = find_call(alts, name) {
                return match args.as_slice() {
                    [ValueNode {
                        kind: ValueKind::Int(n),
                        pos,
                    }] => in_range(&format!("N in `{name}(N)`"), *n, *min, *max, *pos),
                    [other] => Err(Problem::new(
                        other.pos,
                        format!(
                            "`{name}` takes an integer from {min} to {max}, not {}",
                            found(other)
                        ),
                    )),
                    _ => Err(Problem::new(
                        value.pos,
                        format!(
                            "`{name}` takes one argument, an integer from {min} to {max}; \
                             found {} arguments",
                            args.len()
                        ),
                    )),
                };
            }
            if has_word(alts, name) {
                return Err(Problem::new(
                    value.pos,
                    format!("`{name}` takes no argument; write `{name}`"),
                ));
            }
            Err(unknown_choice(key, name, alts, value.pos))
        }
        (Kind::Choice(_), _) => Err(wrong()),

        (Kind::WordList { allowed, min, max }, ValueKind::List(items)) => {
            let mut seen: Vec<&str> = Vec::new();
            for item in items {
                let ValueKind::Word(w) = &item.kind else {
                    return Err(Problem::new(
                        item.pos,
                        format!(
                            "`{key}` lists words from {}, not {}",
                            one_of(allowed.iter().copied()),
                            found(item)
                        ),
                    ));
                };
                if !allowed.contains(&w.as_str()) {
                    return Err(Problem::new(
                        item.pos,
                        format!(
                            "unknown word `{}` in `{key}`; expected {}",
                            quote(w),
                            one_of(allowed.iter().copied())
                        ),
                    )
                    .suggesting(suggest(w, allowed.iter().copied())));
                }
                if seen.contains(&w.as_str()) {
                    return Err(Problem::new(
                        item.pos,
                        format!(
                            "`{}` is listed twice in `{key}`; the words must be distinct",
                            quote(w)
                        ),
                    ));
                }
                seen.push(w);
            }
            if items.len() < *min || items.len() > *max {
                return Err(Problem::new(
                    value.pos,
                    format!(
                        "`{key}` lists {} words, found {}",
                        count(*min, *max),
                        items.len()
                    ),
                ));
            }
            Ok(())
        }
        (Kind::WordList { .. }, _) => Err(wrong()),

        (Kind::IntList { min, max }, ValueKind::List(items)) => {
            for item in items {
                match &item.kind {
                    ValueKind::Int(n) => in_range(&format!("`{key}`"), *n, *min, *max, item.pos)?,
                    _ => {
                        return Err(Problem::new(
                            item.pos,
                            format!(
                                "`{key}` lists integers from {min} to {max}, not {}",
                                found(item)
                            ),
                        ))
                    }
                }
            }
            Ok(())
        }
        (Kind::IntList { .. }, _) => Err(wrong()),

        (Kind::IntMap { keys }, ValueKind::Map(entries)) => {
            let mut seen: Vec<&str> = Vec::new();
            for (k, v) in entries {
                if !keys.contains(&k.node.as_str()) {
                    return Err(Problem::new(
                        k.pos,
                        format!(
                            "unknown key `{}` in `{key}`; expected {}",
                            quote(&k.node),
                            one_of(keys.iter().copied())
                        ),
                    )
                    .suggesting(suggest(&k.node, keys.iter().copied())));
                }
                if seen.contains(&k.node.as_str()) {
                    return Err(Problem::new(
                        k.pos,
                        format!("`{}` is given twice in `{key}`", quote(&k.node)),
                    ));
                }
                seen.push(&k.node);
                if !matches!(v.kind, ValueKind::Int(_)) {
                    return Err(Problem::new(
                        v.pos,
                        format!(
                            "`{key}` maps `{}` to an integer, not {}",
                            quote(&k.node),
                            found(v)
                        ),
                    ));
                }
            }
            let missing: Vec<&str> = keys.iter().copied().filter(|k| !seen.contains(k)).collect();
            if !missing.is_empty() {
                return Err(Problem::new(
                    value.pos,
                    format!(
                        "`{key}` must give every key; missing {}",
                        all_of(missing.iter().copied())
                    ),
                ));
            }
            Ok(())
        }
        (Kind::IntMap { .. }, _) => Err(wrong()),

        (Kind::Str, ValueKind::Str(_)) => Ok(()),
        (Kind::Str, _) => Err(wrong()),

        // A word is a bare kebab-case name by the grammar; a quoted path is refused with
        // its own message: a ruleset or a record names a file, never locates it.
        (Kind::Data { .. }, ValueKind::Word(_)) => Ok(()),
        (Kind::Data { folder, ext, .. }, ValueKind::Str(text))
            if text.contains('/') || text.contains('\\') || text.contains("..") =>
        {
            Err(Problem::new(
                value.pos,
                format!(
                    "`{}` is a path; `{key}` names a `{folder}/NAME.{ext}` file on the \
                     ruleset search path, it does not locate one (expected a bare name like \
                     `{}`, without `/`, `\\` or `..`)",
                    quote(text),
                    spec.default
                ),
            ))
        }
        (Kind::Data { .. }, _) => Err(wrong()),
    }
}

fn has_word(alts: &[Alt], word: &str) -> bool {
    alts.iter().any(|a| matches!(a, Alt::Word(w) if *w == word))
}

fn find_call<'a>(alts: &'a [Alt], name: &str) -> Option<&'a Alt> {
    alts.iter()
        .find(|a| matches!(a, Alt::Call { name: n, .. } if *n == name))
}

fn alt_name(a: &Alt) -> &'static str {
    match a {
        Alt::Word(w) => w,
        Alt::Call { name, .. } => name,
    }
}

fn unknown_choice(key: &str, word: &str, alts: &[Alt], pos: Pos) -> Problem {
    Problem::new(
        pos,
        format!(
            "unknown value `{}` for `{key}`; expected {}",
            quote(word),
            describe_alts(alts)
        ),
    )
    .suggesting(suggest(word, alts.iter().map(alt_name)))
}

fn in_range(what: &str, n: i64, min: i64, max: i64, pos: Pos) -> Result<(), Problem> {
    if n < min || n > max {
        Err(Problem::new(
            pos,
            format!("{what} must be from {min} to {max}, not {n}"),
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::parse::parse_value_node;
    use crate::ruleset::testing::HALATAFL;

    fn check(key: &str, text: &str) -> Result<(), Problem> {
        let spec = HALATAFL.setting(key).expect(key);
        check_value(spec, &parse_value_node(text).expect(text))
    }

    fn refused(key: &str, text: &str) -> (u32, String, Option<String>) {
        let p = check(key, text).expect_err(text);
        (p.pos.column, p.message, p.suggestion)
    }

    #[test]
    fn every_default_of_the_test_schema_passes() {
        for spec in HALATAFL.settings {
            check(spec.key, spec.default).unwrap_or_else(|p| panic!("{}: {p:?}", spec.key));
        }
    }

    #[test]
    fn good_values_pass() {
        for (k, v) in [
            ("emperor", "true"),
            ("quiet-limit", "10000"),
            ("capture", "optional"),
            ("win", "capture-all"),
            ("win", "reduce-to(0)"),
            ("win", "reduce-to(21)"),
            ("win", "thrones(2)"),
            ("seats", "[black white]"),
        ] {
            assert_eq!(check(k, v), Ok(()), "{k} = {v}");
        }
    }

    #[test]
    fn bool_and_int() {
        assert_eq!(
            refused("emperor", "ture"),
            (
                1,
                "`emperor` takes `true` or `false`, not `ture`".into(),
                Some("true".into())
            )
        );
        assert_eq!(
            refused("emperor", "1").1,
            "`emperor` takes `true` or `false`, not `1`"
        );
        assert_eq!(
            refused("quiet-limit", "10001").1,
            "`quiet-limit` must be from 0 to 10000, not 10001"
        );
        assert_eq!(
            refused("quiet-limit", "-1").1,
            "`quiet-limit` must be from 0 to 10000, not -1"
        );
        assert_eq!(
            refused("quiet-limit", "[1]").1,
            "`quiet-limit` takes an integer from 0 to 10000, not the list `[1]`"
        );
    }

    #[test]
    fn choices_words_and_calls() {
        assert_eq!(
            refused("capture", "compulsory-hufff"),
            (
                1,
                "unknown value `compulsory-hufff` for `capture`; expected `compulsory-huff`, \
                 `compulsory` or `optional`"
                    .into(),
                Some("compulsory-huff".into())
            )
        );
        assert_eq!(
            refused("win", "reduce-to"),
            (
                1,
                "`reduce-to` needs its argument: `reduce-to(N)` with N from 0 to 21".into(),
                None
            )
        );
        assert_eq!(
            refused("win", "reduce-to(22)"),
            (
                11,
                "N in `reduce-to(N)` must be from 0 to 21, not 22".into(),
                None
            )
        );
        assert_eq!(
            refused("win", "thrones(0)").1,
            "N in `thrones(N)` must be from 1 to 2, not 0"
        );
        assert_eq!(
            refused("win", "reduce-to(five)"),
            (
                11,
                "`reduce-to` takes an integer from 0 to 21, not `five`".into(),
                None
            )
        );
        assert_eq!(
            refused("win", "reduce-to(1..3)").1,
            "`reduce-to` takes an integer from 0 to 21, not the range `1..3`"
        );
        assert_eq!(
            refused("win", "reduce-to(1, 2)").1,
            "`reduce-to` takes one argument, an integer from 0 to 21; found 2 arguments"
        );
        assert_eq!(
            refused("win", "reduce-to()").1,
            "`reduce-to` takes one argument, an integer from 0 to 21; found 0 arguments"
        );
        assert_eq!(
            refused("win", "capture-all(3)").1,
            "`capture-all` takes no argument; write `capture-all`"
        );
        assert_eq!(
            refused("win", "rank(5)").2,
            None,
            "`rank` is not close enough to anything to guess"
        );
        assert_eq!(
            refused("win", "reduse-to(5)"),
            (
                1,
                "unknown value `reduse-to` for `win`; expected `capture-all`, `reduce-to(N)` \
                 with N from 0 to 21 or `thrones(N)` with N from 1 to 2"
                    .into(),
                Some("reduce-to".into())
            )
        );
        assert_eq!(
            refused("diagonals", "true").1,
            "`diagonals` takes `main`, `alquerque` or `none`, not `true`"
        );
    }

    #[test]
    fn word_lists() {
        assert_eq!(
            refused("seats", "[white blak]"),
            (
                8,
                "unknown word `blak` in `seats`; expected `white` or `black`".into(),
                Some("black".into())
            )
        );
        assert_eq!(
            refused("seats", "[white white]").1,
            "`white` is listed twice in `seats`; the words must be distinct"
        );
        assert_eq!(
            refused("seats", "[white]").1,
            "`seats` lists 2 words, found 1"
        );
        assert_eq!(
            refused("seats", "[white 2]"),
            (
                8,
                "`seats` lists words from `white` or `black`, not `2`".into(),
                None
            )
        );
        assert_eq!(
            refused("seats", "white").1,
            "`seats` takes a list of 2 distinct words from `white` or `black`, not `white`"
        );
    }

    #[test]
    fn int_lists_maps_and_strings() {
        const SPECS: &[SettingSpec] = &[
            SettingSpec {
                key: "extra-throws",
                kind: Kind::IntList { min: 1, max: 8 },
                default: "[1 4 8]",
                description: "",
            },
            SettingSpec {
                key: "score.adjoining",
                kind: Kind::IntMap {
                    keys: &["self", "kin", "opposed"],
                },
                default: "{self: 3, kin: 2, opposed: -2}",
                description: "",
            },
            SettingSpec {
                key: "motto",
                kind: Kind::Str,
                default: "\"\"",
                description: "",
            },
        ];
        let run = |i: usize, text: &str| check_value(&SPECS[i], &parse_value_node(text).unwrap());
        assert_eq!(run(0, "[1 4 8]"), Ok(()));
        assert_eq!(run(0, "[]"), Ok(()));
        let p = run(0, "[1 9]").unwrap_err();
        assert_eq!(
            (p.pos.column, p.message.as_str()),
            (4, "`extra-throws` must be from 1 to 8, not 9")
        );
        let p = run(0, "[1 x]").unwrap_err();
        assert_eq!(
            p.message,
            "`extra-throws` lists integers from 1 to 8, not `x`"
        );
        assert_eq!(run(1, "{opposed: -2, self: 3, kin: 2}"), Ok(()));
        let p = run(1, "{self: 3, kni: 2, opposed: 1}").unwrap_err();
        assert_eq!((p.pos.column, p.suggestion.as_deref()), (11, Some("kin")));
        assert_eq!(
            run(1, "{self: 3, self: 2}").unwrap_err().message,
            "`self` is given twice in `score.adjoining`"
        );
        assert_eq!(
            run(1, "{self: 3, kin: x, opposed: 1}").unwrap_err().message,
            "`score.adjoining` maps `kin` to an integer, not `x`"
        );
        assert_eq!(
            run(1, "{self: 3}").unwrap_err().message,
            "`score.adjoining` must give every key; missing `kin` and `opposed`"
        );
        assert_eq!(run(2, "\"hello\""), Ok(()));
        assert_eq!(
            run(2, "hello").unwrap_err().message,
            "`motto` takes a string in double quotes, not `hello`"
        );
    }
}
