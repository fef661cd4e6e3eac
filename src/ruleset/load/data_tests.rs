//! Tests of data settings: Halasi tile sets found on the ruleset search path. Halasi is
//! not a registered game yet, so these load rulesets against a resolver that adds its
//! schema to the registered ones.

use std::fs;
use std::path::Path;
use std::sync::Arc;

use tempfile::TempDir;

use super::*;
use crate::games::halasi::settings::{Settings, STANDARD};
use crate::games::halasi::tiles::TileSet;
use crate::ruleset::testing::schemas;
use crate::ruleset::{apply_overrides, shipped, Override, Ruleset, RulesetError};

/// The registered games and Halasi.
fn with_halasi() -> Vec<&'static Schema> {
    let mut all = schemas().to_vec();
    if !all.iter().any(|s| s.game == "halasi") {
        all.push(&crate::games::halasi::SCHEMA);
    }
    all
}

fn halasi() -> &'static Schema {
    &crate::games::halasi::SCHEMA
}

const CLUB: &str = "name: club
tiles:
  - name: M1
    market: true
    markings: \"I O F X S M  Q U R S U P 9 # Y T M K I F Y 4 Q R\"
  - name: T1
    markings: \"# # T K K 4  Q Q P R R I I O F X X S U Y M # T 9\"
";

/// A complete Halasi base ruleset named `name`, with `extra` lines after `game`.
fn halasi_base(name: &str, extra: &str) -> String {
    let mut s = format!("ruleset {name}\ngame halasi\n{extra}");
    for id in halasi().rules {
        s.push_str(&format!("rule {id} \"The text of {id}.\"\n"));
    }
    s
}

/// A directory holding `NAME.rules` files and `halasi/NAME.yaml` tile sets.
fn dir_with(rules: &[(&str, &str)], sets: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in rules {
        fs::write(dir.path().join(format!("{name}.rules")), text).expect("write");
    }
    if !sets.is_empty() {
        fs::create_dir(dir.path().join("halasi")).expect("mkdir");
    }
    for (name, text) in sets {
        fs::write(dir.path().join("halasi").join(format!("{name}.yaml")), text).expect("write");
    }
    dir
}

fn yaml(dir: &Path, name: &str) -> String {
    dir.join("halasi")
        .join(format!("{name}.yaml"))
        .display()
        .to_string()
}

fn load(lib: &Library, name: &str) -> Result<Ruleset, Vec<RulesetError>> {
    lib.load_all_errors(name, &with_halasi())
}

fn tiles(rs: &Ruleset) -> Arc<TileSet> {
    Settings::from_ruleset(rs).tiles
}

#[test]
fn the_shipped_standard_set_is_the_default() {
    let dir = dir_with(&[("h", &halasi_base("h", ""))], &[]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let rs = load(&lib, "h").unwrap();
    let data = &rs.data["tile-set"];
    assert_eq!(
        (data.name.as_str(), data.file.as_str()),
        ("standard", "rulesets/halasi/standard.yaml")
    );
    assert_eq!(*tiles(&rs), **STANDARD);
    // The shipped file is checked with the rulesets, and is fine.
    assert_eq!(lib.check_all(&with_halasi()), vec![]);
    // A ruleset of another game has no data.
    assert!(lib.load("halatafl", schemas()).unwrap().data.is_empty());
}

#[test]
fn a_tile_set_in_a_directory_is_found_and_shadows_nothing_else() {
    let dir = dir_with(
        &[
            ("club-h", &halasi_base("club-h", "set tile-set = club\n")),
            ("plain-h", &halasi_base("plain-h", "")),
        ],
        &[("club", CLUB)],
    );
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let rs = load(&lib, "club-h").unwrap();
    assert_eq!(rs.data["tile-set"].file, yaml(dir.path(), "club"));
    let set = tiles(&rs);
    assert_eq!(set.name, "club");
    let names: Vec<&str> = set.tiles.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["M1", "T1"]);
    // The standard set is still the shipped one.
    let plain = load(&lib, "plain-h").unwrap();
    assert_eq!(plain.data["tile-set"].file, "rulesets/halasi/standard.yaml");
    assert_eq!(*tiles(&plain), **STANDARD);
    // A data folder adds no ruleset.
    let mut expected: Vec<String> = shipped::names().map(str::to_string).collect();
    expected.extend(["club-h".to_string(), "plain-h".to_string()]);
    expected.sort();
    assert_eq!(lib.names(), expected);
    assert_eq!(lib.check_all(&with_halasi()), vec![]);
    // A directory searched earlier shadows a later one's set of the same name.
    let other = CLUB.replace("  - name: T1\n", "  - name: T9\n");
    let first = dir_with(&[], &[("club", &other)]);
    let lib = Library::new(vec![first.path().to_path_buf(), dir.path().to_path_buf()]);
    let rs = load(&lib, "club-h").unwrap();
    assert_eq!(rs.data["tile-set"].file, yaml(first.path(), "club"));
    assert_eq!(tiles(&rs).tiles[1].name.as_str(), "T9");
}

#[test]
fn a_broken_tile_set_is_an_error_naming_its_file_line_and_column() {
    let broken = CLUB.replace("Y 4 Q R\"", "Y 4 Q\"");
    let dir = dir_with(
        &[("b", &halasi_base("b", "set tile-set = broken\n"))],
        &[("broken", &broken), ("unused", "name: unused\ntiles: [\n")],
    );
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let errors = load(&lib, "b").unwrap_err();
    let file = yaml(dir.path(), "broken");
    assert_eq!(
        errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        vec![format!(
            "{file}:5:5: tile 1: 23 markings; a tile has 24, one for each triangle in \
             index order"
        )]
    );
    // The check reports each broken file once, used or not.
    let all = lib.check_all(&with_halasi());
    assert_eq!(all.len(), 2, "{all:#?}");
    assert_eq!(all[0], errors[0]);
    assert_eq!(all[1].file, yaml(dir.path(), "unused"));
    assert!(all[1].line >= 2, "{:?}", all[1]);
    // Markings, names and markets: the parser's message, placed in the file.
    for (text, line, message) in [
        (
            CLUB.replacen("I O F X", "I Z F X", 1),
            5,
            "tile 1: unknown symbol `Z`",
        ),
        (
            CLUB.replace("name: T1", "name: M1"),
            6,
            "tile 2 is named `M1` like an earlier one",
        ),
        (
            CLUB.replace("market: true", "market: false"),
            2,
            "no market tile",
        ),
    ] {
        let text = text.replace("name: club", "name: broken");
        fs::write(yaml(dir.path(), "broken"), text).unwrap();
        // A fresh library: the last one keeps what it parsed.
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let e = load(&lib, "b").unwrap_err().remove(0);
        assert_eq!((e.file.as_str(), e.line), (file.as_str(), line), "{e}");
        assert!(e.message.starts_with(message), "{e}");
    }
}

#[test]
fn a_tile_set_name_that_is_a_path_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(
        outside.path().join("evil.yaml"),
        CLUB.replace("club", "evil"),
    )
    .unwrap();
    let evil = outside.path().join("evil").display().to_string();
    for (value, column) in [
        ("\"../evil\"", 16),
        ("\"halasi/../../evil\"", 16),
        ("\"a\\\\b\"", 16),
        (&format!("{evil:?}"), 16),
    ] {
        let dir = dir_with(
            &[("p", &halasi_base("p", &format!("set tile-set = {value}\n")))],
            &[("club", CLUB)],
        );
        let lib = Library::new(vec![dir.path().to_path_buf()]);
        let e = load(&lib, "p").unwrap_err().remove(0);
        assert_eq!((e.line, e.column), (3, column), "{value}: {e}");
        assert!(
            e.message.contains("is a path") && e.message.contains("like `standard`"),
            "{value}: {e}"
        );
    }
    // The same check for an override: `--option` and the record's Options tag.
    let lib = Library::new(vec![]);
    let base = {
        let dir = dir_with(&[("q", &halasi_base("q", ""))], &[]);
        Library::new(vec![dir.path().to_path_buf()])
            .load("q", &with_halasi())
            .unwrap()
    };
    let tag = Override::from_options_tag("tile-set=\"../evil\"", "game.txt", 4, 11).unwrap();
    let e = apply_overrides(&base, halasi(), &tag)
        .unwrap_err()
        .remove(0);
    assert_eq!(
        (e.file.as_str(), e.line, e.column),
        ("game.txt", 4, 20),
        "{e}"
    );
    assert!(e.message.contains("is a path"), "{e}");
    let o = Override::from_option("tile-set=../evil").unwrap();
    assert!(apply_overrides(&base, halasi(), &[o]).is_err());
    // And the library never builds a path from a value that is not a bare name.
    let mut forged = base.clone();
    forged.settings.get_mut("tile-set").unwrap().value =
        crate::ruleset::Value::Str("../evil".into());
    let e = lib.load_data(&mut forged, halasi()).unwrap_err().remove(0);
    assert!(e.message.contains("bare name"), "{e}");
}

#[test]
fn an_unknown_tile_set_gets_a_suggestion() {
    let dir = dir_with(
        &[
            ("u", &halasi_base("u", "set tile-set = standerd\n")),
            ("v", &halasi_base("v", "set tile-set = clab\n")),
            ("w", &halasi_base("w", "set tile-set = nothing-like-it\n")),
        ],
        &[("club", CLUB)],
    );
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let f = dir.path().join("u.rules").display().to_string();
    let e = load(&lib, "u").unwrap_err().remove(0);
    assert_eq!(
        e.to_string(),
        format!(
            "{f}:3:16: `tile-set` names `standerd`, but there is no `halasi/standerd.yaml` \
             on the ruleset search path; did you mean `standard`?"
        )
    );
    let e = load(&lib, "v").unwrap_err().remove(0);
    assert_eq!(e.suggestion.as_deref(), Some("club"));
    let e = load(&lib, "w").unwrap_err().remove(0);
    assert_eq!(e.suggestion, None);
}

#[test]
fn overrides_name_another_set_which_load_data_finds() {
    let dir = dir_with(&[("h", &halasi_base("h", ""))], &[("club", CLUB)]);
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let base = load(&lib, "h").unwrap();
    let o = Override::from_option("tile-set=club").unwrap();
    let mut rs = apply_overrides(&base, halasi(), &[o]).unwrap();
    assert!(
        !rs.data.contains_key("tile-set"),
        "the override drops the old file"
    );
    lib.load_data(&mut rs, halasi()).unwrap();
    assert_eq!(tiles(&rs).name, "club");
    // An unknown name from the command line is placed at `--option`, from a record's
    // Options tag at the tag.
    let o = Override::from_option("tile-set=clubs").unwrap();
    let mut rs = apply_overrides(&base, halasi(), &[o]).unwrap();
    let e = lib.load_data(&mut rs, halasi()).unwrap_err().remove(0);
    assert_eq!((e.file.as_str(), e.line, e.column), ("--option", 1, 1));
    assert_eq!(e.suggestion.as_deref(), Some("club"));
    let tag = Override::from_options_tag("tile-set = nope", "game.txt", 4, 11).unwrap();
    let mut rs = apply_overrides(&base, halasi(), &tag).unwrap();
    let e = lib.load_data(&mut rs, halasi()).unwrap_err().remove(0);
    assert_eq!((e.file.as_str(), e.line, e.column), ("game.txt", 4, 11));
    // Loading what is loaded already does nothing.
    let mut same = base.clone();
    lib.load_data(&mut same, halasi()).unwrap();
    assert!(Arc::ptr_eq(
        &same.data["tile-set"].value,
        &base.data["tile-set"].value
    ));
}

#[test]
fn each_file_is_parsed_once_per_library() {
    let dir = dir_with(
        &[
            ("one", &halasi_base("one", "set tile-set = club\n")),
            ("two", &halasi_base("two", "set tile-set = club\n")),
        ],
        &[("club", CLUB)],
    );
    let lib = Library::new(vec![dir.path().to_path_buf()]);
    let one = load(&lib, "one").unwrap();
    // Parsed already: the file is not read again.
    fs::write(yaml(dir.path(), "club"), "not: a tile set").unwrap();
    let two = load(&lib, "two").unwrap();
    assert!(Arc::ptr_eq(
        &one.data["tile-set"].value,
        &two.data["tile-set"].value
    ));
    // A clone shares what was parsed; a new library reads the file again.
    assert!(load(&lib.clone(), "two").is_ok());
    assert!(load(&Library::new(vec![dir.path().to_path_buf()]), "two").is_err());
}
