//! Tests of conditional rule texts (`rule ID when KEY = VALUE "…"`): which text is in
//! force under which settings, through a chain and after overrides, and the errors of
//! the statement.

use super::tests::{base, dir_with, errors_of, loc};
use super::*;
use crate::ruleset::testing::{schemas, HALATAFL};
use crate::ruleset::Schema;
use crate::ruleset::{apply_overrides, Override, Ruleset};

fn with(rs: &Ruleset, options: &[&str]) -> Ruleset {
    let overrides: Vec<Override> = options
        .iter()
        .map(|o| Override::from_option(o).expect("an option"))
        .collect();
    apply_overrides(rs, &HALATAFL, &overrides).expect("valid options")
}

fn text<'a>(rs: &'a Ruleset, id: &str) -> &'a str {
    &rs.rule(id).expect("a rule").text
}

const HOUSE: &str = "rule compulsory-capture when capture = compulsory \"Refused.\"\n\
                     rule compulsory-capture when capture = optional \"Optional.\"\n\
                     rule continue-jumps when continue-jumps = optional and capture = compulsory \"Both.\"\n\
                     rule continue-jumps when continue-jumps = optional \"May stop.\"\n\
                     rule win-reduce-to when win = reduce-to(5) \"Five.\"\n";

#[test]
fn the_text_in_force_follows_the_settings() {
    let dir = dir_with(&[("house", &base("house", HOUSE))]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let rs = lib.load("house", schemas()).unwrap();
    let file = dir.path().join("house.rules").display().to_string();
    // The defaults: the plain texts.
    assert_eq!(
        text(&rs, "compulsory-capture"),
        "The text of compulsory-capture."
    );
    assert_eq!(text(&rs, "continue-jumps"), "The text of continue-jumps.");
    let r = with(&rs, &["capture=compulsory"]);
    assert_eq!(text(&r, "compulsory-capture"), "Refused.");
    assert_eq!(
        r.rule("compulsory-capture").unwrap().location,
        loc(&file, 3, 51)
    );
    assert_eq!(text(&r, "continue-jumps"), "The text of continue-jumps.");
    assert_eq!(
        text(&with(&rs, &["capture=optional"]), "compulsory-capture"),
        "Optional."
    );
    // The first text whose tests all hold, in the order written.
    let r = with(&rs, &["continue-jumps=optional"]);
    assert_eq!(text(&r, "continue-jumps"), "May stop.");
    let r = with(&rs, &["continue-jumps=optional", "capture=compulsory"]);
    assert_eq!(text(&r, "continue-jumps"), "Both.");
    // A call is matched whole.
    assert_eq!(
        text(&with(&rs, &["win=reduce-to(5)"]), "win-reduce-to"),
        "Five."
    );
    assert_eq!(
        text(&with(&rs, &["win=reduce-to(4)"]), "win-reduce-to"),
        "The text of win-reduce-to."
    );
    // Overrides change it back as well as away.
    let back = with(
        &with(&rs, &["capture=compulsory"]),
        &["capture=compulsory-huff"],
    );
    assert_eq!(
        text(&back, "compulsory-capture"),
        "The text of compulsory-capture."
    );
    // Every text is kept, the nearest first.
    let all = &rs.texts["continue-jumps"];
    assert_eq!(all.plain.text, "The text of continue-jumps.");
    let conditions: Vec<String> = all.conditional.iter().map(|c| c.condition()).collect();
    assert_eq!(
        conditions,
        [
            "when continue-jumps = optional and capture = compulsory",
            "when continue-jumps = optional"
        ]
    );
}

#[test]
fn a_variant_replaces_either_text_and_its_own_are_tried_first() {
    let dir = dir_with(&[
        ("house", &base("house", HOUSE)),
        (
            "house-v",
            "ruleset house-v\nextends house\nset capture = compulsory\n\
             rule compulsory-capture \"Variant plain.\"\n\
             rule continue-jumps when capture = compulsory and continue-jumps = optional \"Variant both.\"\n\
             rule continue-jumps when capture = compulsory \"Variant refused.\"\n",
        ),
    ]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let rs = lib.load("house-v", schemas()).unwrap();
    let file = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
    // The base's conditional text still holds under the variant's setting.
    assert_eq!(text(&rs, "compulsory-capture"), "Refused.");
    assert_eq!(text(&rs, "continue-jumps"), "Variant refused.");
    let r = with(&rs, &["capture=compulsory-huff"]);
    assert_eq!(text(&r, "compulsory-capture"), "Variant plain.");
    assert_eq!(
        r.rule("compulsory-capture").unwrap().location.file,
        file("house-v")
    );
    // The same condition, its tests in another order: replaced.
    let r = with(&rs, &["continue-jumps=optional"]);
    assert_eq!(text(&r, "continue-jumps"), "Variant both.");
    let conditions: Vec<String> = rs.texts["continue-jumps"]
        .conditional
        .iter()
        .map(|c| format!("{} {}", c.condition(), c.text.location.file))
        .collect();
    assert_eq!(
        conditions,
        [
            format!(
                "when capture = compulsory and continue-jumps = optional {}",
                file("house-v")
            ),
            format!("when capture = compulsory {}", file("house-v")),
            format!("when continue-jumps = optional {}", file("house")),
        ]
    );
}

#[test]
fn conditions_are_checked_against_the_schema() {
    let dir = dir_with(&[(
        "bad",
        &base(
            "bad",
            "rule huff when captur = compulsory \"x\"\n\
             rule huff when capture = compulsary \"x\"\n\
             rule huf when capture = compulsory \"x\"\n\
             rule huff when win = reduce-to(99) \"x\"\n\
             rule huff when capture = optional \"x\"\n\
             rule huff when capture = optional \"again\"\n\
             rule step when men = any and diagonals = none \"x\"\n\
             rule step when diagonals = none and men = any \"again\"\n\
             rule jump when men = any and men = forward-sideways \"x\"\n\
             rule jump when men = any \"x\"\n\
             rule jump when men = any and diagonals = main \"never\"\n",
        ),
    )]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = dir.path().join("bad.rules").display().to_string();
    assert_eq!(
        errors_of(&lib, "bad"),
        vec![
            format!("{f}:8:6: rule `huff` has a text twice in this file when capture = optional (first at line 7)"),
            format!("{f}:10:6: rule `step` has a text twice in this file when diagonals = none and men = any (first at line 9)"),
            format!("{f}:11:30: `men` is tested twice in this condition; a setting has one value"),
            format!(
                "{f}:13:6: this text of rule `jump` is never in force: the text at line 12 \
                 (when men = any) comes first and holds whenever this one does; write the \
                 narrower condition first"
            ),
            format!(
                "{f}:3:16: unknown setting `captur` for `halatafl` in the condition of rule \
                 `huff`; did you mean `capture`?"
            ),
            format!(
                "{f}:4:26: unknown value `compulsary` for `capture`; expected \
                 `compulsory-huff`, `compulsory` or `optional`; did you mean `compulsory`?"
            ),
            format!("{f}:5:6: unknown rule id `huf` for `halatafl`; did you mean `huff`?"),
            format!("{f}:6:32: N in `reduce-to(N)` must be from 0 to 21, not 99"),
        ]
    );
}

#[test]
fn a_base_needs_a_plain_text_for_every_rule() {
    let full = base("cond", "");
    let only_conditional = full.replace(
        "rule huff \"The text of huff.\"",
        "rule huff when capture = compulsory-huff \"Huff.\"",
    );
    let dir = dir_with(&[("cond", &only_conditional)]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let errors = errors_of(&lib, "cond");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("gives no text for rule `huff`"),
        "{}",
        errors[0]
    );
}

/// A rule line of a shipped file, read plainly: its id, its condition's `(key, value)`
/// pairs as written, its text.
type RuleLine = (String, Vec<(String, String)>, String);

fn rule_lines(file: &str) -> Vec<RuleLine> {
    file.lines()
        .filter_map(|l| l.strip_prefix("rule "))
        .map(|l| {
            let (head, quoted) = l.split_at(l.find('"').expect("a text"));
            let text = quoted.trim_end().trim_matches('"').to_string();
            let mut words = head.trim().splitn(2, " when ");
            let id = words.next().unwrap().to_string();
            let tests = words
                .next()
                .map(|c| {
                    c.split(" and ")
                        .map(|t| {
                            let (k, v) = t.split_once(" = ").expect("KEY = VALUE");
                            (k.trim().to_string(), v.trim().to_string())
                        })
                        .collect()
                })
                .unwrap_or_default();
            (id, tests, text)
        })
        .collect()
}

/// What the files of `rs`'s chain say rule `id` reads under `rs`'s settings: the first
/// conditional text whose every value is the setting's, the nearest file first, else the
/// nearest plain text.
fn written_for(rs: &Ruleset, id: &str) -> String {
    let files: Vec<Vec<RuleLine>> = rs
        .chain
        .iter()
        .map(|n| rule_lines(crate::ruleset::shipped::get(n).expect("shipped")))
        .collect();
    let holds = |tests: &[(String, String)]| {
        tests
            .iter()
            .all(|(k, v)| rs.value(k).map(|x| x.to_string()).as_deref() == Some(v.as_str()))
    };
    let conditional = files
        .iter()
        .flatten()
        .find(|(i, tests, _)| i == id && !tests.is_empty() && holds(tests));
    let plain = files
        .iter()
        .flatten()
        .find(|(i, tests, _)| i == id && tests.is_empty());
    conditional.or(plain).expect("a text").2.clone()
}

/// Every value a setting can take that a test walks: a choice's words, `true` and
/// `false`, and every value a condition of `lines` tests it for.
fn values_of(key: &str, schema: &Schema, lines: &[RuleLine]) -> Vec<String> {
    let mut values: Vec<String> = match schema.setting(key).map(|s| s.kind) {
        Some(crate::ruleset::Kind::Bool) => vec!["true".into(), "false".into()],
        Some(crate::ruleset::Kind::Choice(alts)) => alts
            .iter()
            .filter_map(|a| match a {
                crate::ruleset::Alt::Word(w) => Some(w.to_string()),
                crate::ruleset::Alt::Call { .. } => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    for (_, tests, _) in lines {
        for (k, v) in tests {
            if k == key && !values.contains(v) {
                values.push(v.clone());
            }
        }
    }
    values
}

/// The acceptance test: every shipped ruleset, under every value (and every
/// pair of values) of the settings its rule texts are written for, given as `--option`,
/// cites for every rule the text its files write for those values.
#[test]
fn every_shipped_ruleset_cites_the_text_written_for_the_settings_in_force() {
    let lib = Library::new(vec![]);
    let mut walked = 0;
    let mut conditional_cited = 0;
    for name in crate::ruleset::shipped::names() {
        let rs = lib.load(name, schemas()).expect("a shipped ruleset");
        let schema = *schemas().iter().find(|s| s.game == rs.game).unwrap();
        let lines: Vec<RuleLine> = rs
            .chain
            .iter()
            .flat_map(|n| rule_lines(crate::ruleset::shipped::get(n).unwrap()))
            .collect();
        let mut keys: Vec<String> = lines
            .iter()
            .flat_map(|(_, tests, _)| tests.iter().map(|(k, _)| k.clone()))
            .collect();
        keys.sort();
        keys.dedup();
        let mut options: Vec<Vec<String>> = vec![Vec::new()];
        for (i, a) in keys.iter().enumerate() {
            for va in values_of(a, schema, &lines) {
                options.push(vec![format!("{a}={va}")]);
                for b in &keys[i + 1..] {
                    for vb in values_of(b, schema, &lines) {
                        options.push(vec![format!("{a}={va}"), format!("{b}={vb}")]);
                    }
                }
            }
        }
        for set in options {
            let overrides: Vec<Override> = set
                .iter()
                .map(|o| Override::from_option(o).expect("an option"))
                .collect();
            let r = apply_overrides(&rs, schema, &overrides).expect("valid options");
            for id in schema.rules {
                let cited = &r.rule(id).expect("every rule has a text").text;
                assert_eq!(*cited, written_for(&r, id), "{name} {set:?}: rule {id}");
                walked += 1;
                let conditional = rs.texts.get(*id).map_or(&[][..], |t| &t.conditional);
                if conditional.iter().any(|c| c.text.text == *cited) {
                    conditional_cited += 1;
                }
            }
        }
    }
    assert!(walked > 10_000, "{walked} citations walked");
    assert!(conditional_cited > 1_000, "{conditional_cited} conditional");
}
