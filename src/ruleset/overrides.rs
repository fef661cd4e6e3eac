//! Overrides on top of a loaded ruleset: `--option KEY=VALUE` on the command line and
//! the record's `Options` tag, each checked exactly as a `set` line is. Precedence is
//! the order they are applied in: the ruleset, then `--option`, then `Options`.

use super::check::check_value;
use super::error::{suggest, RulesetError};
use super::parse::parse_value_node;
use super::schema::Schema;
use super::{Location, Origin, Ruleset, Setting};
use crate::quote::quote;

/// One `key = value` assignment to apply on top of a ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Override {
    pub key: String,
    /// The value in ruleset syntax (`reduce-to(5)`).
    pub value: String,
    /// Recorded as the setting's origin ([`Origin::CommandLine`], [`Origin::Options`]).
    pub origin: Origin,
    /// For error messages: where the assignment was written (`--option` for the
    /// command line, else the record's display path), the line, and the column of the
    /// key.
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The column where the value starts (on `line`), so that an error inside the value
    /// points at the right character.
    pub value_column: u32,
}

impl Override {
    /// A command-line `--option KEY=VALUE`. Errors are placed at `--option:1:COLUMN`,
    /// the column counted in the argument.
    pub fn from_option(arg: &str) -> Result<Override, RulesetError> {
        let mut found = scan(arg).map_err(|(offset, message)| {
            RulesetError::new("--option", 1, column_at(arg, offset, 1), message)
        })?;
        match found.len() {
            1 => {
                let a = found.swap_remove(0);
                Ok(Override {
                    key: a.key,
                    value: a.value,
                    origin: Origin::CommandLine,
                    file: "--option".to_string(),
                    line: 1,
                    column: column_at(arg, a.key_offset, 1),
                    value_column: column_at(arg, a.value_offset, 1),
                })
            }
            0 => Err(RulesetError::new(
                "--option",
                1,
                1,
                "expected `KEY=VALUE` (like `win=reduce-to(5)`)",
            )),
            _ => Err(RulesetError::new(
                "--option",
                1,
                column_at(arg, found[1].key_offset, 1),
                "one `--option` sets one key; give `--option` again for the next",
            )),
        }
    }

    /// The assignments of a record's `Options` tag whose value text starts at `line`,
    /// `column` of `file`; each with origin [`Origin::Options`] at its key.
    pub fn from_options_tag(
        text: &str,
        file: &str,
        line: u32,
        column: u32,
    ) -> Result<Vec<Override>, RulesetError> {
        let found = scan(text).map_err(|(offset, message)| {
            RulesetError::new(file, line, column_at(text, offset, column), message)
        })?;
        Ok(found
            .into_iter()
            .map(|a| {
                let key_column = column_at(text, a.key_offset, column);
                Override {
                    key: a.key,
                    value: a.value,
                    origin: Origin::Options(Location {
                        file: file.to_string(),
                        line,
                        column: key_column,
                    }),
                    file: file.to_string(),
                    line,
                    column: key_column,
                    value_column: column_at(text, a.value_offset, column),
                }
            })
            .collect())
    }
}

/// The column of byte `offset` of `text`, when `text` starts at column `start`.
fn column_at(text: &str, offset: usize, start: u32) -> u32 {
    start + text[..offset.min(text.len())].chars().count() as u32
}

/// Applies `overrides` in order on top of `ruleset`, each checked against `schema` as a
/// `set` line is: the key must be a setting of the schema, the value of its kind. A key
/// may be given once per place (file and line); across places the later wins. Every
/// error is returned.
///
/// Pure: a data setting ([`Kind::Data`](super::Kind::Data)) it changes loses its loaded
/// file, which [`Library::load_data`](super::Library::load_data) then finds and loads.
/// Every rule's text in force is chosen again for the new settings
/// ([`Ruleset::choose_texts`]).
pub fn apply_overrides(
    ruleset: &Ruleset,
    schema: &Schema,
    overrides: &[Override],
) -> Result<Ruleset, Vec<RulesetError>> {
    let mut out = ruleset.clone();
    let mut errors = Vec::new();
    for (i, o) in overrides.iter().enumerate() {
        let earlier = overrides[..i]
            .iter()
            .find(|p| p.key == o.key && p.file == o.file && p.line == o.line);
        if let Some(first) = earlier {
            errors.push(RulesetError::new(
                &o.file,
                o.line,
                o.column,
                format!(
                    "the setting `{}` is set twice here (first at column {}); a key is set \
                     once",
                    quote(&o.key),
                    first.column
                ),
            ));
            continue;
        }
        let Some(spec) = schema.setting(&o.key) else {
            errors.push(
                RulesetError::new(
                    &o.file,
                    o.line,
                    o.column,
                    format!("unknown setting `{}` for `{}`", quote(&o.key), schema.game),
                )
                .with_suggestion(suggest(&o.key, schema.settings.iter().map(|s| s.key))),
            );
            continue;
        };
        let node = match parse_value_node(&o.value) {
            Ok(node) => node.shifted(o.line, o.value_column),
            Err(e) => {
                errors.push(
                    RulesetError::new(
                        &o.file,
                        o.line,
                        column_at(&o.value, e.offset, o.value_column),
                        e.message,
                    )
                    .with_suggestion(e.suggestion),
                );
                continue;
            }
        };
        if let Err(p) = check_value(spec, &node) {
            errors.push(p.into_error(&o.file));
            continue;
        }
        out.settings.insert(
            o.key.clone(),
            Setting {
                value: node.to_value(),
                origin: o.origin.clone(),
            },
        );
        // A data setting's file is the library's to find again for the new value
        // (`Library::load_data`).
        out.data.remove(&o.key);
    }
    if errors.is_empty() {
        // The rules' texts in force under the new settings, chosen once here.
        out.choose_texts();
        Ok(out)
    } else {
        Err(errors)
    }
}

/// One assignment found in an `Options` text.
struct Assignment {
    key: String,
    value: String,
    key_offset: usize,
    value_offset: usize,
}

/// One assignment of an `Options` tag: key, value text, byte offset of the key.
pub type OptionItem = (String, String, usize);

/// Splits a record's `Options` tag into `key = value` assignments, separated by
/// whitespace or `;` (`emperor=true win=reduce-to(5)`, `emperor = true; win = x`).
/// A value runs to the next whitespace or `;` outside brackets, braces, parentheses and
/// strings. Each item is `(key, value, byte offset of the key in text)`; an error is
/// `(byte offset, message)`. Keys and values are checked later, by [`apply_overrides`].
pub fn parse_options_tag(text: &str) -> Result<Vec<OptionItem>, (usize, String)> {
    Ok(scan(text)?
        .into_iter()
        .map(|a| (a.key, a.value, a.key_offset))
        .collect())
}

fn scan(text: &str) -> Result<Vec<Assignment>, (usize, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let skip_space = |mut i: usize| {
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        i
    };
    loop {
        while i < bytes.len() && (bytes[i].is_ascii_whitespace() || bytes[i] == b';') {
            i += 1;
        }
        if i >= bytes.len() {
            break;
        }
        let key_offset = i;
        while i < bytes.len()
            && !bytes[i].is_ascii_whitespace()
            && bytes[i] != b'='
            && bytes[i] != b';'
        {
            i += 1;
        }
        let key = &text[key_offset..i];
        if key.is_empty() {
            return Err((i, "expected a setting name before `=`".to_string()));
        }
        let valid = key.split('.').all(super::load::is_name);
        if !valid {
            return Err((
                key_offset,
                format!(
                    "`{}` is not a setting name; expected `key = value` with a kebab-case \
                     key (like `win = reduce-to(5)`)",
                    quote(key)
                ),
            ));
        }
        i = skip_space(i);
        if i >= bytes.len() || bytes[i] != b'=' {
            return Err((i, format!("expected `=` after `{}`", quote(key))));
        }
        i = skip_space(i + 1);
        let value_offset = i;
        let mut depth = 0usize;
        let mut in_string = false;
        while i < bytes.len() {
            let b = bytes[i];
            if in_string {
                match b {
                    b'\\' => i += 1,
                    b'"' => in_string = false,
                    _ => {}
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                    b';' if depth == 0 => break,
                    b if b.is_ascii_whitespace() && depth == 0 => break,
                    _ => {}
                }
            }
            i += 1;
        }
        let i_end = i.min(bytes.len());
        let value = &text[value_offset..i_end];
        if value.is_empty() {
            return Err((
                value_offset,
                format!("expected a value after `{} =`", quote(key)),
            ));
        }
        out.push(Assignment {
            key: key.to_string(),
            value: value.to_string(),
            key_offset,
            value_offset,
        });
        i = i_end;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::testing::{schemas, HALATAFL};
    use crate::ruleset::{Library, Value};

    fn tag(text: &str) -> Vec<(String, String, usize)> {
        parse_options_tag(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    fn kv(items: &[(&str, &str, usize)]) -> Vec<(String, String, usize)> {
        items
            .iter()
            .map(|(k, v, o)| (k.to_string(), v.to_string(), *o))
            .collect()
    }

    #[test]
    fn options_tag_splits_on_whitespace_and_semicolons() {
        assert_eq!(
            tag("emperor=true win=reduce-to(5)"),
            kv(&[("emperor", "true", 0), ("win", "reduce-to(5)", 13)])
        );
        assert_eq!(
            tag("emperor = true; win = reduce-to(5)"),
            kv(&[("emperor", "true", 0), ("win", "reduce-to(5)", 16)])
        );
        assert_eq!(
            tag(" seats = [black  white];x={a: 1, b: 2}  s=\"a; b c\" f=g(1, 2);"),
            kv(&[
                ("seats", "[black  white]", 1),
                ("x", "{a: 1, b: 2}", 24),
                ("s", "\"a; b c\"", 40),
                ("f", "g(1, 2)", 51),
            ])
        );
        assert_eq!(
            tag("score.adjoining={self: 3}"),
            kv(&[("score.adjoining", "{self: 3}", 0)])
        );
        assert_eq!(tag(""), vec![]);
        assert_eq!(tag(" ; ;"), vec![]);
    }

    #[test]
    fn options_tag_errors() {
        assert_eq!(
            parse_options_tag("emperor true"),
            Err((8, "expected `=` after `emperor`".to_string()))
        );
        assert_eq!(
            parse_options_tag("win="),
            Err((4, "expected a value after `win =`".to_string()))
        );
        assert_eq!(
            parse_options_tag("a=1 =2").map_err(|e| e.0),
            Err(4),
            "a value with no key"
        );
        assert_eq!(parse_options_tag("Win=3").map_err(|e| e.0), Err(0));
    }

    fn base() -> Ruleset {
        Library::new(vec![])
            .load("halatafl", schemas())
            .expect("halatafl loads")
    }

    #[test]
    fn overrides_apply_in_order_with_origins() {
        let base = base();
        let cli = Override::from_option("win=reduce-to(5)").unwrap();
        let cli2 = Override::from_option("emperor=true").unwrap();
        let tag = Override::from_options_tag("win = thrones(1); quiet-limit=40", "game.txt", 3, 11)
            .unwrap();
        assert_eq!(tag[0].column, 11);
        assert_eq!(tag[0].value_column, 17);
        assert_eq!(tag[1].column, 29);
        let mut all = vec![cli, cli2];
        all.extend(tag);
        let r = apply_overrides(&base, &HALATAFL, &all).expect("valid overrides");
        assert_eq!(
            r.value("win"),
            Some(&Value::Call {
                name: "thrones".into(),
                args: vec![Value::Int(1)]
            }),
            "the Options tag comes last and wins"
        );
        assert_eq!(
            r.origin("win"),
            Some(&Origin::Options(Location {
                file: "game.txt".into(),
                line: 3,
                column: 11
            }))
        );
        assert_eq!(r.value("emperor"), Some(&Value::Bool(true)));
        assert_eq!(r.origin("emperor"), Some(&Origin::CommandLine));
        assert_eq!(r.value("quiet-limit"), Some(&Value::Int(40)));
        // Untouched settings keep their ruleset origin; the input is not changed.
        assert_eq!(r.origin("diagonals"), base.origin("diagonals"));
        assert_eq!(base.value("emperor"), Some(&Value::Bool(false)));
    }

    #[test]
    fn override_errors_point_into_the_record() {
        let base = base();
        let tag = Override::from_options_tag(
            "emperer=true win=reduce-to(30) men=[any] diagonals=main; x=(",
            "game.txt",
            4,
            11,
        )
        .unwrap();
        let errors = apply_overrides(&base, &HALATAFL, &tag).expect_err("all bad");
        let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            shown,
            vec![
                "game.txt:4:11: unknown setting `emperer` for `halatafl`; did you mean \
                 `emperor`?",
                "game.txt:4:38: N in `reduce-to(N)` must be from 0 to 21, not 30",
                "game.txt:4:46: `men` takes `forward-sideways` or `any`, not the list `[any]`",
                "game.txt:4:68: unknown setting `x` for `halatafl`",
            ]
        );
        let dup = Override::from_options_tag("emperor=true emperor=false", "g.txt", 1, 1).unwrap();
        let errors = apply_overrides(&base, &HALATAFL, &dup).unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "g.txt:1:14: the setting `emperor` is set twice here (first at column 1); a key \
             is set once"
        );
        let bad_syntax = Override::from_option("win=reduce-to(5").unwrap();
        assert_eq!(
            apply_overrides(&base, &HALATAFL, &[bad_syntax]).unwrap_err()[0].to_string(),
            "--option:1:16: expected `,` or `)`, found the end of the value"
        );
    }

    #[test]
    fn command_line_option_shape() {
        let o = Override::from_option("win = reduce-to(5)").unwrap();
        assert_eq!((o.key.as_str(), o.value.as_str()), ("win", "reduce-to(5)"));
        assert_eq!((o.column, o.value_column), (1, 7));
        assert_eq!(
            Override::from_option("a=1 b=2").unwrap_err().to_string(),
            "--option:1:5: one `--option` sets one key; give `--option` again for the next"
        );
        assert_eq!(
            Override::from_option("emperor").unwrap_err().to_string(),
            "--option:1:8: expected `=` after `emperor`"
        );
        assert_eq!(
            Override::from_option("").unwrap_err().to_string(),
            "--option:1:1: expected `KEY=VALUE` (like `win=reduce-to(5)`)"
        );
    }
}
