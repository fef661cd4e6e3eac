//! Tests of finding and loading rulesets.

use super::*;
use crate::ruleset::testing::{schemas, HALATAFL};
use crate::ruleset::{shipped, Location, Origin, Value};
use std::fs;
use tempfile::TempDir;

const SHIPPED_HALATAFL: &[&str] = &[
    "halatafl",
    "halatafl-emperor",
    "halatafl-free",
    "halatafl-orthogonal",
    "halatafl-short",
    "halatafl-thrones",
];

pub(super) fn shipped() -> Library {
    Library::new(vec![])
}

/// A directory holding the given `(name, text)` files as `NAME.rules`.
pub(super) fn dir_with(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        fs::write(dir.path().join(format!("{name}.rules")), text).expect("write");
    }
    dir
}

/// A complete base ruleset named `name`, with `extra` lines after `game`.
pub(super) fn base(name: &str, extra: &str) -> String {
    let mut s = format!("ruleset {name}\ngame halatafl\n{extra}");
    for id in HALATAFL.rules {
        s.push_str(&format!("rule {id} \"The text of {id}.\"\n"));
    }
    s
}

pub(super) fn errors_of(lib: &Library, name: &str) -> Vec<String> {
    lib.load_all_errors(name, schemas())
        .expect_err(name)
        .iter()
        .map(|e| e.to_string())
        .collect()
}

pub(super) fn loc(file: &str, line: u32, column: u32) -> Location {
    Location {
        file: file.into(),
        line,
        column,
    }
}

#[test]
fn every_shipped_ruleset_loads_and_the_check_is_clean() {
    let lib = shipped();
    assert_eq!(lib.check_all(schemas()), vec![]);
    for name in SHIPPED_HALATAFL {
        let r = lib.load(name, schemas()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.game, "halatafl");
        assert_eq!(r.file, format!("rulesets/{name}.rules"));
        assert_eq!(r.source.as_deref(), Some("halatafl.txt"));
        assert!(r.title.is_some());
        for id in HALATAFL.rules {
            assert!(
                r.rule(id).is_some_and(|t| !t.text.is_empty()),
                "{name}: {id}"
            );
        }
    }
    let listed: Vec<(String, Option<String>)> = lib
        .list()
        .into_iter()
        .filter(|i| i.name.starts_with("halatafl"))
        .map(|i| (i.name, i.game))
        .collect();
    let expected: Vec<(String, Option<String>)> = SHIPPED_HALATAFL
        .iter()
        .map(|n| (n.to_string(), Some("halatafl".to_string())))
        .collect();
    assert_eq!(listed, expected);
}

#[test]
fn the_base_halatafl_sets_every_setting_explicitly() {
    let r = shipped().load("halatafl", schemas()).unwrap();
    assert_eq!(r.chain, vec!["halatafl"]);
    for spec in crate::ruleset::testing::HALATAFL.settings {
        let s = &r.settings[spec.key];
        assert!(
            matches!(&s.origin, Origin::Ruleset(l) if l.file == "rulesets/halatafl.rules"),
            "{} is set in the file",
            spec.key
        );
        assert_eq!(
            s.value.to_string(),
            spec.default,
            "{} is the default",
            spec.key
        );
    }
}

#[test]
fn a_rule_cites_where_its_setting_was_set() {
    let r = shipped().load("halatafl-short", schemas()).unwrap();
    let schema = &crate::ruleset::testing::HALATAFL;
    let Some(Origin::Ruleset(l)) = r.rule_origin(schema, "win-reduce-to") else {
        panic!("win is set in a file")
    };
    assert_eq!(l.file, "rulesets/halatafl-short.rules");
    assert_eq!(
        l.to_string(),
        format!("rulesets/halatafl-short.rules:{}", l.line)
    );
    let Some(Origin::Ruleset(l)) = r.rule_origin(schema, "huff") else {
        panic!("capture is set in the base")
    };
    assert_eq!(l.file, "rulesets/halatafl.rules");
    assert_eq!(r.rule_origin(schema, "multi-jump"), None, "always applies");
}

#[test]
fn the_variants_set_what_the_spec_says() {
    let lib = shipped();
    let value = |name: &str, key: &str| {
        lib.load(name, schemas())
            .unwrap()
            .value(key)
            .unwrap()
            .to_string()
    };
    assert_eq!(value("halatafl-emperor", "emperor"), "true");
    assert_eq!(value("halatafl-short", "win"), "reduce-to(5)");
    assert_eq!(value("halatafl-thrones", "promotion"), "false");
    assert_eq!(value("halatafl-thrones", "win"), "thrones(1)");
    assert_eq!(value("halatafl-orthogonal", "diagonals"), "none");
    assert_eq!(value("halatafl-free", "men"), "any");
    assert_eq!(value("halatafl-free", "diagonals"), "main", "inherited");
}

#[test]
fn a_variant_overrides_settings_and_texts_with_their_origins() {
    let lib = shipped();
    let r = lib.load("halatafl-emperor", schemas()).unwrap();
    assert_eq!(r.name, "halatafl-emperor");
    assert_eq!(r.chain, vec!["halatafl-emperor", "halatafl"]);
    assert_eq!(r.title.as_deref(), Some("Halatafl with emperors"));
    assert_eq!(r.value("emperor"), Some(&Value::Bool(true)));
    let Some(Origin::Ruleset(l)) = r.origin("emperor") else {
        panic!("set in a file")
    };
    assert_eq!(l.file, "rulesets/halatafl-emperor.rules");
    let text = shipped::get("halatafl-emperor").unwrap();
    assert!(text
        .lines()
        .nth(l.line as usize - 1)
        .unwrap()
        .starts_with("set emperor = true"));
    let Some(Origin::Ruleset(l)) = r.origin("diagonals") else {
        panic!("set in the base")
    };
    assert_eq!(l.file, "rulesets/halatafl.rules");
    // The variant's setting chooses the base's text for it.
    let emperor_move = r.rule("emperor-move").unwrap();
    assert_eq!(emperor_move.location.file, "rulesets/halatafl.rules");
    assert!(
        emperor_move
            .text
            .starts_with("An emperor moves like a king"),
        "{}",
        emperor_move.text
    );
    // A variant's own conditional text.
    let short = lib.load("halatafl-short", schemas()).unwrap();
    assert_eq!(
        short.rule("win-reduce-to").unwrap().location.file,
        "rulesets/halatafl-short.rules"
    );
    assert_eq!(
        r.rule("step").unwrap().location.file,
        "rulesets/halatafl.rules"
    );

    // A chain of three in a directory, with exact positions.
    let dir = dir_with(&[
        ("house", &base("house", "set emperor = true\nset win = thrones(2)\n")),
        ("house-mid", "ruleset house-mid\nextends house\nset win = reduce-to(3)\nrule huff \"Mid huff.\"\ntitle \"Mid\"\n"),
        ("house-top", "# top\nruleset house-top\nextends house-mid\n  set emperor = false\nrule step \"Top step.\"\n"),
    ]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let r = lib.load("house-top", schemas()).unwrap();
    let file = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
    assert_eq!(r.file, file("house-top"));
    assert_eq!(r.chain, vec!["house-top", "house-mid", "house"]);
    assert_eq!(
        r.title.as_deref(),
        Some("Mid"),
        "inherited from the nearest"
    );
    assert_eq!(r.value("emperor"), Some(&Value::Bool(false)));
    assert_eq!(
        r.origin("emperor"),
        Some(&Origin::Ruleset(loc(&file("house-top"), 4, 3)))
    );
    assert_eq!(r.value("win").unwrap().to_string(), "reduce-to(3)");
    assert_eq!(
        r.origin("win"),
        Some(&Origin::Ruleset(loc(&file("house-mid"), 3, 1)))
    );
    assert_eq!(r.origin("men"), Some(&Origin::Default), "nobody sets it");
    assert_eq!(r.value("men").unwrap().to_string(), "forward-sideways");
    assert_eq!(r.rule("step").unwrap().text, "Top step.");
    assert_eq!(
        r.rule("step").unwrap().location,
        loc(&file("house-top"), 5, 11)
    );
    assert_eq!(r.rule("huff").unwrap().text, "Mid huff.");
    assert_eq!(
        r.rule("huff").unwrap().location,
        loc(&file("house-mid"), 4, 11)
    );
    assert_eq!(r.rule("jump").unwrap().text, "The text of jump.");
    assert_eq!(r.rule("jump").unwrap().location.file, file("house"));
}

#[test]
fn schema_errors_in_a_file() {
    let dir = dir_with(&[(
        "bad",
        &base(
            "bad",
            "set free-edge = 1\nset emperor = 3\nset quiet-limit = 20000\nset win = reduce-to(x)\n\
             set capture = compulsory-hufff\nset emperor = true\nrule huf \"x\"\n",
        ),
    )]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = dir.path().join("bad.rules").display().to_string();
    assert_eq!(
        errors_of(&lib, "bad"),
        vec![
            format!(
                "{f}:8:5: the setting `emperor` is set twice in this file (first at line \
                 4); a key is set once per file"
            ),
            format!("{f}:3:5: unknown setting `free-edge` for `halatafl`"),
            format!("{f}:4:15: `emperor` takes `true` or `false`, not `3`"),
            format!("{f}:5:19: `quiet-limit` must be from 0 to 10000, not 20000"),
            format!("{f}:6:21: `reduce-to` takes an integer from 0 to 21, not `x`"),
            format!(
                "{f}:7:15: unknown value `compulsory-hufff` for `capture`; expected \
                 `compulsory-huff`, `compulsory` or `optional`; did you mean \
                 `compulsory-huff`?"
            ),
            format!("{f}:9:6: unknown rule id `huf` for `halatafl`; did you mean `huff`?"),
        ]
    );
    // `load` gives the first of them.
    assert_eq!(
        lib.load("bad", schemas()).unwrap_err().to_string(),
        errors_of(&lib, "bad")[0]
    );
}

#[test]
fn an_unknown_key_gets_a_suggestion() {
    let dir = dir_with(&[("k", &base("k", "set diagonal = main\n"))]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let e = lib.load("k", schemas()).unwrap_err();
    assert_eq!((e.line, e.column), (3, 5));
    assert_eq!(e.message, "unknown setting `diagonal` for `halatafl`");
    assert_eq!(e.suggestion.as_deref(), Some("diagonals"));
}

#[test]
fn structure_errors() {
    let dir = dir_with(&[
        ("named", &base("other", "")),
        ("neither", "ruleset neither\ntitle \"x\"\n"),
        ("both", &base("both", "extends named\n")),
        ("late", "title \"x\"\nruleset late\nextends halatafl\n"),
        ("twice", "ruleset twice\nextends halatafl\ntitle \"a\"\ntitle \"b\"\nrule step \"a\"\nrule step \"b\"\n"),
        ("empty", "# nothing here\n"),
        ("game", &base("game", "").replace("game halatafl", "game halatafel")),
    ]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
    assert_eq!(
        errors_of(&lib, "named"),
        vec![format!(
            "{}:1:9: the file is named `named.rules` but says `ruleset other`; the name \
             must match the file name",
            f("named")
        )]
    );
    assert_eq!(
        errors_of(&lib, "neither"),
        vec![format!(
            "{}:1:1: a ruleset needs `game GAME` (a base ruleset) or `extends NAME` (a \
             variant)",
            f("neither")
        )]
    );
    assert_eq!(
        errors_of(&lib, "both"),
        vec![format!(
            "{}:3:1: a ruleset has `game` (a base) or `extends` (a variant), not both",
            f("both")
        )]
    );
    assert_eq!(
        errors_of(&lib, "late"),
        vec![
            format!(
                "{}:1:1: expected `ruleset late` as the first statement, found `title`",
                f("late")
            ),
            format!(
                "{}:2:1: `ruleset NAME` must be the first statement",
                f("late")
            ),
        ]
    );
    assert_eq!(
        errors_of(&lib, "twice"),
        vec![
            format!(
                "{}:4:1: `title` given twice in this file (first at line 3); a file gives \
                 it once",
                f("twice")
            ),
            format!(
                "{}:6:6: rule `step` has a text twice in this file (first at line 5)",
                f("twice")
            ),
        ]
    );
    assert_eq!(
        errors_of(&lib, "empty"),
        vec![format!(
            "{}:1:1: the file is empty; expected `ruleset empty`",
            f("empty")
        )]
    );
    assert_eq!(
        errors_of(&lib, "game"),
        vec![format!(
            "{}:2:6: unknown game `halatafel`; expected `halatafl`, `thaayam`, `halves` or `halasi`; did you mean `halatafl`?",
            f("game")
        )]
    );
}

#[test]
fn syntax_errors_are_reported_with_the_file() {
    let dir = dir_with(&[(
        "syn",
        "ruleset syn\nextends halatafl\nset win == 3\nset x = [a\n",
    )]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = dir.path().join("syn.rules").display().to_string();
    assert_eq!(
        errors_of(&lib, "syn"),
        vec![
            format!("{f}:3:10: expected a value, found `=`"),
            format!("{f}:4:11: expected `]`, found the end of the line"),
        ]
    );
}

#[test]
fn extends_cycles_and_missing_bases() {
    let dir = dir_with(&[
        ("a", "ruleset a\nextends b\n"),
        ("b", "ruleset b\nextends c\n"),
        ("c", "ruleset c\n  extends a\n"),
        ("me", "ruleset me\nextends me\n"),
        ("lost", "ruleset lost\nextends halatafl-emperer\n"),
        ("gone", "ruleset gone\nextends nowhere-at-all\n"),
    ]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = |n: &str| dir.path().join(format!("{n}.rules")).display().to_string();
    assert_eq!(
        errors_of(&lib, "a"),
        vec![format!(
            "{}:2:11: `extends a` makes a cycle: a → b → c → a; a chain must end at a base \
             ruleset (one with `game`)",
            f("c")
        )]
    );
    assert_eq!(
        errors_of(&lib, "me"),
        vec![format!(
            "{}:2:9: `extends me` makes a cycle: me → me; a chain must end at a base \
             ruleset (one with `game`)",
            f("me")
        )]
    );
    let e = lib.load("lost", schemas()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}:2:9: no ruleset named `halatafl-emperer` to extend; did you mean \
             `halatafl-emperor`?",
            f("lost")
        )
    );
    let e = lib.load("gone", schemas()).unwrap_err();
    assert_eq!(e.suggestion, None);
    assert_eq!(e.message, "no ruleset named `nowhere-at-all` to extend");
    // The check lists every broken ruleset of the directory, and the shipped ones
    // are fine.
    let all = lib.check_all(schemas());
    // The cycle is met from each of its three members, each time at another line.
    assert_eq!(all.len(), 6, "{all:#?}");
    assert!(all.iter().all(|e| !e.file.starts_with("rulesets/")));
}

#[test]
fn names_that_are_paths_are_refused() {
    for name in [
        "",
        "../halatafl",
        "rulesets/halatafl",
        "a\\b",
        "..",
        "x..y",
        "/etc/passwd",
    ] {
        let e = check_name(name).expect_err(name);
        assert_eq!((e.file.as_str(), e.line), ("", 0), "{name}: no location");
        let e = shipped().load(name, schemas()).expect_err(name);
        assert!(
            e.message.contains("is a path") || e.message.contains("empty"),
            "{name}: {e}"
        );
    }
    for name in ["Halatafl", "halatafl.rules", "a b", "-x", "x-"] {
        let e = check_name(name).expect_err(name);
        assert!(e.message.contains("not a ruleset name"), "{name}: {e}");
    }
    assert_eq!(check_name("halatafl-emperor"), Ok(()));
    assert_eq!(check_name("x2-3d"), Ok(()));
    let e = shipped().load("halatafl-emperer", schemas()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no ruleset named `halatafl-emperer`; did you mean `halatafl-emperor`?"
    );
    assert_eq!(
        e.at("game.txt", 3, 10).to_string(),
        "game.txt:3:10: no ruleset named `halatafl-emperer`; did you mean \
         `halatafl-emperor`?"
    );
}

#[test]
fn a_base_missing_a_rule_text_fails() {
    let text = base("thin", "").replace("rule huff \"The text of huff.\"\n", "");
    let dir = dir_with(&[
        ("thin", &text),
        ("thin-v", "ruleset thin-v\nextends thin\nrule huff \"x\"\n"),
    ]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = dir.path().join("thin.rules").display().to_string();
    let expected = format!(
        "{f}:2:6: the base ruleset `thin` gives no text for rule `huff`; a base ruleset \
         needs `rule huff \"…\"` for every rule of `halatafl`"
    );
    assert_eq!(errors_of(&lib, "thin"), vec![expected.clone()]);
    // A variant's text does not excuse its base.
    assert_eq!(errors_of(&lib, "thin-v"), vec![expected.clone()]);
    assert_eq!(
        lib.check_all(schemas()),
        vec![lib.load("thin", schemas()).unwrap_err()]
    );
}

#[test]
fn directories_come_first_and_shadow_shipped_rulesets() {
    let house = base(
        "halatafl",
        "title \"House Halatafl\"\nset quiet-limit = 50\n",
    );
    let first = dir_with(&[
        ("halatafl", &house),
        (
            "club",
            "ruleset club\nextends halatafl-emperor\ntitle \"Club\"\n",
        ),
    ]);
    let second = dir_with(&[
        ("club", "ruleset club\nextends nothing\n"),
        ("extra", "ruleset extra\nextends halatafl\n"),
    ]);
    let lib = Library::new(vec![
        first.path().to_path_buf(),
        second.path().to_path_buf(),
    ]);
    // The shipped variant extends the house base, found first.
    let r = lib.load("halatafl-emperor", schemas()).unwrap();
    assert_eq!(r.file, "rulesets/halatafl-emperor.rules");
    assert_eq!(r.value("quiet-limit"), Some(&Value::Int(50)));
    assert_eq!(r.title.as_deref(), Some("Halatafl with emperors"));
    let club = lib.load("club", schemas()).unwrap();
    assert_eq!(club.chain, vec!["club", "halatafl-emperor", "halatafl"]);
    assert_eq!(club.value("emperor"), Some(&Value::Bool(true)));
    let list = lib.list();
    let names: Vec<&str> = list.iter().map(|i| i.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(names, sorted, "sorted, each once");
    let info = |n: &str| list.iter().find(|i| i.name == n).unwrap().clone();
    assert_eq!(
        info("halatafl").file,
        first.path().join("halatafl.rules").display().to_string()
    );
    assert_eq!(info("halatafl").title.as_deref(), Some("House Halatafl"));
    assert!(!info("halatafl").shipped);
    assert_eq!(
        info("club").file,
        first.path().join("club.rules").display().to_string()
    );
    assert_eq!(info("club").game.as_deref(), Some("halatafl"));
    assert_eq!(info("club").extends.as_deref(), Some("halatafl-emperor"));
    assert_eq!(
        info("extra").title.as_deref(),
        Some("House Halatafl"),
        "inherited"
    );
    assert!(info("halatafl-short").shipped);
    assert_eq!(info("halatafl-short").file, "rulesets/halatafl-short.rules");
    assert_eq!(lib.check_all(schemas()), vec![]);
}

#[test]
fn a_file_by_path_extends_through_the_library() {
    let dir = dir_with(&[(
        "mine",
        "ruleset mine\nextends halatafl-short\nset numbering = turns\n",
    )]);
    let path = dir.path().join("mine.rules");
    let r = shipped().load_file(&path, schemas()).unwrap();
    assert_eq!(r.file, path.display().to_string());
    assert_eq!(r.chain, vec!["mine", "halatafl-short", "halatafl"]);
    assert_eq!(r.value("numbering").unwrap().to_string(), "turns");
    assert_eq!(r.value("win").unwrap().to_string(), "reduce-to(5)");
    let missing = dir.path().join("nope.rules");
    let e = shipped().load_file(&missing, schemas()).unwrap_err();
    assert!(e.message.starts_with("cannot read the file"), "{e}");
    assert_eq!(e.file, missing.display().to_string());
}

#[test]
fn from_env_searches_cli_dirs_then_the_variable() {
    let a = dir_with(&[("x", "ruleset x\nextends halatafl\ntitle \"from a\"\n")]);
    let b = dir_with(&[
        ("x", "ruleset x\nextends halatafl\ntitle \"from b\"\n"),
        ("y", "ruleset y\nextends halatafl\n"),
    ]);
    let c = dir_with(&[]);
    let joined = std::env::join_paths([b.path(), c.path()]).unwrap();
    // The only test that touches the variable.
    std::env::set_var(ENV_VAR, &joined);
    let lib = Library::from_env(vec![a.path().to_path_buf()]);
    std::env::remove_var(ENV_VAR);
    assert_eq!(
        lib.dirs(),
        &[
            a.path().to_path_buf(),
            b.path().to_path_buf(),
            c.path().to_path_buf()
        ]
    );
    assert_eq!(
        lib.load("x", schemas()).unwrap().title.as_deref(),
        Some("from a")
    );
    assert!(lib.load("y", schemas()).is_ok());
}
