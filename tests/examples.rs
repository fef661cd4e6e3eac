//! The shipped example records: `check` and `adjudicate` rulings as insta snapshots.
//! Every snapshot was read and checked by hand against the spec; a changed ruling must
//! be read again before it is accepted.

mod common;

use common::{examples, rel, run};

#[test]
fn halatafl_rulings() {
    let files = examples("halatafl");
    assert!(files.len() >= 12, "at least 12 Halatafl examples");
    for file in files {
        let name = rel(&file);
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let (code, text, err) = run(&["adjudicate", &name, "--color", "never"]);
        assert!(code == 0 || code == 1, "{name}: exit {code}: {err}");
        // Disputed examples may be ruled either way (the snapshot holds the ruling);
        // every other example is a valid record.
        let disputed = stem.starts_with("disputed-");
        if !disputed {
            assert_eq!(code, 0, "{name} must be valid:\n{text}");
        }
        insta::assert_snapshot!(format!("halatafl-{stem}-text"), text);
        if disputed {
            let (_, json, _) = run(&["adjudicate", &name, "--format", "json"]);
            let v: serde_json::Value =
                serde_json::from_str(json.trim()).expect("one JSON document");
            insta::assert_json_snapshot!(format!("halatafl-{stem}-json"), v);
        }
    }
}

#[test]
fn thaayam_rulings() {
    let files = examples("thaayam");
    assert!(files.len() >= 10, "at least 10 Thaayam examples");
    for file in files {
        let name = rel(&file);
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let (code, text, err) = run(&["adjudicate", &name, "--color", "never"]);
        assert!(code == 0 || code == 1, "{name}: exit {code}: {err}");
        // Disputed examples may be ruled either way (the snapshot holds the ruling);
        // every other example is a valid record.
        let disputed = stem.starts_with("disputed-");
        if !disputed {
            assert_eq!(code, 0, "{name} must be valid:\n{text}");
        }
        insta::assert_snapshot!(format!("thaayam-{stem}-text"), text);
        if disputed {
            let (_, json, _) = run(&["adjudicate", &name, "--format", "json"]);
            let v: serde_json::Value =
                serde_json::from_str(json.trim()).expect("one JSON document");
            insta::assert_json_snapshot!(format!("thaayam-{stem}-json"), v);
        }
    }
}

#[test]
fn check_all_examples_json_lines() {
    let files: Vec<String> = examples("halatafl").iter().map(|p| rel(p)).collect();
    let mut args = vec!["check", "--format", "json"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, _) = run(&args);
    assert_eq!(code, 1, "the disputed examples are invalid");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), files.len(), "one JSON line per record");
    for (line, file) in lines.iter().zip(&files) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["file"], file.as_str());
        for key in [
            "index", "game", "ruleset", "valid", "turns", "status", "errors",
        ] {
            assert!(v.get(key).is_some(), "{file}: missing {key}");
        }
    }
}
