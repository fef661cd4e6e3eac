//! A `Ruleset` tag, an `extends` line or a `tile-set` name never reaches outside the
//! ruleset search path (issue 9, "Security"): no path is built from anything but a bare
//! name, and a file of a ruleset directory that leads outside it (a link) is refused.

use crate::common;

use std::path::Path;

use common::referee;
use serde_json::Value;

/// Runs `check --format json` on `record` with extra arguments; returns the exit code
/// and the first record's report.
fn check(dir: &Path, record: &str, extra: &[&str]) -> (i32, Value) {
    let path = dir.join("r.game");
    std::fs::write(&path, record).unwrap();
    let out = referee()
        .args(["check", "--format", "json"])
        .args(extra)
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first = stdout.lines().next().unwrap_or_else(|| {
        panic!("no report: {}", String::from_utf8_lossy(&out.stderr));
    });
    (
        out.status.code().unwrap(),
        serde_json::from_str(first).unwrap(),
    )
}

/// A Halatafl variant named `name`, valid.
fn variant(name: &str) -> String {
    format!("ruleset {name}\nextends halatafl\nset win = reduce-to(5)\n")
}

/// A temporary tree: `rules/` (the search directory) and, beside it, `outside/` holding
/// a valid ruleset `evil` and a tile set `evil` that must never be reachable.
fn tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let rules = t.path().join("rules");
    let outside = t.path().join("outside");
    std::fs::create_dir_all(rules.join("halasi")).unwrap();
    std::fs::create_dir_all(outside.join("halasi")).unwrap();
    std::fs::write(outside.join("evil.rules"), variant("evil")).unwrap();
    let standard =
        std::fs::read_to_string(common::root().join("rulesets/halasi/standard.yaml")).unwrap();
    let named = |name: &str| standard.replace("name: standard", &format!("name: {name}"));
    std::fs::write(outside.join("halasi/evil.yaml"), named("evil")).unwrap();
    std::fs::write(rules.join("club.rules"), variant("club")).unwrap();
    std::fs::write(rules.join("halasi/club.yaml"), named("club")).unwrap();
    t
}

fn halatafl(ruleset: &str) -> String {
    format!("[Game \"halatafl\"]\n[Ruleset \"{ruleset}\"]\n[Result \"*\"]\n\n1. e3-d4\n")
}

fn halasi(options: &str) -> String {
    format!(
        "[Game \"halasi\"]\n[Ruleset \"halasi-solitaire\"]\n[Options \"{options}\"]\n\
         [Seed \"w2\"]\n[Result \"*\"]\n\n1. home M1\n"
    )
}

/// The record is refused (a `ruleset` error, or the tag's own syntax); the message.
fn refused(dir: &Path, record: &str, extra: &[&str]) -> String {
    let (code, report) = check(dir, record, extra);
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["valid"], false, "{report}");
    let e = &report["errors"][0];
    assert!(
        ["ruleset", "header", "syntax"].contains(&e["kind"].as_str().unwrap()),
        "{report}"
    );
    e["message"].as_str().unwrap().to_string()
}

#[test]
fn the_search_directory_itself_works() {
    let t = tree();
    let rules = t.path().join("rules");
    let r = rules.to_str().unwrap();
    let (code, report) = check(t.path(), &halatafl("club"), &["--rulesets", r]);
    assert_eq!(code, 0, "{report}");
    let (code, report) = check(t.path(), &halasi("tile-set=club"), &["--rulesets", r]);
    assert_eq!(code, 0, "{report}");
    // And through REFEREE_RULESETS.
    let out = referee()
        .env("REFEREE_RULESETS", &rules)
        .args(["rules", "club"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_ruleset_tag_is_a_name_never_a_path() {
    let t = tree();
    let rules = t.path().join("rules");
    let r = rules.to_str().unwrap();
    let long = "a".repeat(5000);
    let nul = "ev\0il";
    for name in [
        "../outside/evil",
        "..",
        "/etc/passwd",
        &format!("{}/outside/evil", t.path().display()),
        "club/../../outside/evil",
        "a/../../x",
        "..\\\\outside\\\\evil",
        "evil\\\\",
        nul,
        "",
        " club",
        "club.rules",
        "./club",
        "CLUB",
        &long,
    ] {
        let message = refused(t.path(), &halatafl(name), &["--rulesets", r]);
        assert!(message.chars().count() < 200, "{message}");
    }
    // The same through REFEREE_RULESETS.
    let path = t.path().join("r.game");
    std::fs::write(&path, halatafl("../outside/evil")).unwrap();
    let out = referee()
        .env("REFEREE_RULESETS", &rules)
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("is a path"));
}

#[test]
fn a_tile_set_is_a_name_never_a_path() {
    let t = tree();
    let r = t.path().join("rules");
    let r = r.to_str().unwrap();
    let abs = format!("{}/outside/halasi/evil", t.path().display());
    for value in [
        "tile-set=\\\"../../outside/halasi/evil\\\"".to_string(),
        format!("tile-set=\\\"{abs}\\\""),
        "tile-set=\\\"..\\\\\\\\evil\\\"".to_string(),
        "tile-set=../evil".to_string(),
        "tile-set=\\\"\\\"".to_string(),
        "tile-set=EVIL".to_string(),
        format!("tile-set={}", "e".repeat(5000)),
    ] {
        refused(t.path(), &halasi(&value), &["--rulesets", r]);
    }
    // From the command line (a usage error, before any record) and from a ruleset file.
    for opt in [
        "tile-set=../outside/halasi/evil",
        &format!("tile-set=\"{abs}\""),
    ] {
        let path = t.path().join("r.game");
        std::fs::write(&path, halasi("")).unwrap();
        let out = referee()
            .args(["check", "--rulesets", r, "--option", opt])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{opt}");
        assert!(out.stdout.is_empty(), "{opt}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("tile-set"), "{err}");
    }
    std::fs::write(
        t.path().join("rules/sneaky.rules"),
        "ruleset sneaky\nextends halasi-solitaire\nset tile-set = \"../outside/halasi/evil\"\n",
    )
    .unwrap();
    let record = halasi("").replace("halasi-solitaire", "sneaky");
    let message = refused(t.path(), &record, &["--rulesets", r]);
    assert!(message.contains("is a path"), "{message}");
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_search_directory_is_refused() {
    use std::os::unix::fs::symlink;
    let t = tree();
    let rules = t.path().join("rules");
    let outside = t.path().join("outside");
    let r = rules.to_str().unwrap();
    symlink(outside.join("evil.rules"), rules.join("evil.rules")).unwrap();
    let message = refused(t.path(), &halatafl("evil"), &["--rulesets", r]);
    assert!(
        message.contains("outside its ruleset directory"),
        "{message}"
    );
    // `extends` follows the same road.
    std::fs::write(rules.join("child.rules"), "ruleset child\nextends evil\n").unwrap();
    let message = refused(t.path(), &halatafl("child"), &["--rulesets", r]);
    assert!(
        message.contains("outside its ruleset directory"),
        "{message}"
    );
    // A tile set linked from outside, or a data folder that is a link out.
    symlink(
        outside.join("halasi/evil.yaml"),
        rules.join("halasi/evil.yaml"),
    )
    .unwrap();
    let message = refused(t.path(), &halasi("tile-set=evil"), &["--rulesets", r]);
    assert!(
        message.contains("outside its ruleset directory"),
        "{message}"
    );
    let linked = t.path().join("linked");
    std::fs::create_dir_all(&linked).unwrap();
    symlink(outside.join("halasi"), linked.join("halasi")).unwrap();
    let l = linked.to_str().unwrap();
    let message = refused(t.path(), &halasi("tile-set=evil"), &["--rulesets", l]);
    assert!(
        message.contains("outside its ruleset directory"),
        "{message}"
    );
    // `rules --check` reports the link.
    let out = referee()
        .args(["rules", "--check", "--rulesets", r])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("outside its ruleset directory"), "{all}");
}

#[cfg(unix)]
#[test]
fn links_that_stay_inside_are_followed() {
    use std::os::unix::fs::symlink;
    let t = tree();
    let rules = t.path().join("rules");
    // A ruleset kept in a subfolder and linked by its name; a tile set likewise.
    std::fs::create_dir_all(rules.join("store")).unwrap();
    std::fs::write(rules.join("store/kept.rules"), variant("kept")).unwrap();
    symlink(rules.join("store/kept.rules"), rules.join("kept.rules")).unwrap();
    let club = std::fs::read_to_string(rules.join("halasi/club.yaml")).unwrap();
    std::fs::write(
        rules.join("store/kept.yaml"),
        club.replace("name: club", "name: kept"),
    )
    .unwrap();
    symlink(
        rules.join("store/kept.yaml"),
        rules.join("halasi/kept.yaml"),
    )
    .unwrap();
    // The search directory may itself be reached through a link.
    let door = t.path().join("door");
    symlink(&rules, &door).unwrap();
    for dir in [&rules, &door] {
        let d = dir.to_str().unwrap();
        let (code, report) = check(t.path(), &halatafl("kept"), &["--rulesets", d]);
        assert_eq!(code, 0, "{report}");
        let (code, report) = check(t.path(), &halasi("tile-set=kept"), &["--rulesets", d]);
        assert_eq!(code, 0, "{report}");
    }
}
