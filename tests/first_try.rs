//! A newcomer's first try of every command: `new` then every command for every shipped
//! ruleset, usage errors said once, turns named as the record numbers them, and records
//! that keep their line endings.

mod common;

use common::run;

/// A scratch directory under the target directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = common::root()
        .join("target")
        .join("tmp")
        .join("first_try")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn move_keeps_the_line_endings() {
    let dir = scratch("line_endings");
    for (name, eol) in [("crlf", "\r\n"), ("cr", "\r"), ("lf", "\n")] {
        let path = dir.join(format!("{name}.game"));
        let text = format!("[Game \"halatafl\"]{eol}[Result \"*\"]{eol}{eol}1. e3-d4{eol}");
        std::fs::write(&path, &text).expect("write");
        let p = path.to_str().expect("utf-8 path");
        let (code, out, err) = run(&["move", p, "c5xe3xg1=K"]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let after = std::fs::read_to_string(&path).expect("read");
        assert_eq!(after, format!("{text}1... c5xe3xg1=K{eol}"), "{name}");
        let (code, out, err) = run(&["check", p]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        // A record without a line break at its end gets one of its own kind first.
        let text = format!("[Game \"halatafl\"]{eol}{eol}1. e3-d4");
        std::fs::write(&path, &text).expect("write");
        let (code, out, err) = run(&["move", p, "c5xe3xg1=K"]);
        assert_eq!(code, 0, "{name}: {out}{err}");
        let after = std::fs::read_to_string(&path).expect("read");
        assert_eq!(after, format!("{text}{eol}1... c5xe3xg1=K{eol}"), "{name}");
    }
}
