//! Bytes (issue 9, "Security"): a NUL, a CR, a LF, a CRLF, a byte-order mark and
//! invalid UTF-8 (a stray continuation byte, a lead byte cut short, a byte that is never
//! UTF-8) inserted at every byte offset of a small record. `check` on the file and on
//! stdin, text and JSON, never panics, exits 0 or 1, and names a line and column for
//! every error, the same in text and JSON, from the file and from stdin; invalid UTF-8
//! is reported exactly where the first bad byte is. `adjudicate` and `move` are run on
//! every third offset (exit 2 when there is no record to work on, the place on stderr).

use crate::common;

use common::{referee, run_with_input};
use serde_json::Value;

const RECORD: &str =
    "[Game \"halatafl\"]\n[Result \"*\"]\n\n1. e3-d4 {é中} c5xe3xg1=K\n2. c3xc5xa7=K *\n";

/// The 1-based line and column (in characters) of byte `offset` of `text`, lines ending
/// at `\n`, `\r\n` or a lone `\r`.
fn line_col(text: &str, offset: usize) -> (u64, u64) {
    let b = text.as_bytes();
    let (mut line, mut start) = (1, 0);
    for i in 0..offset {
        if b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
            line += 1;
            start = i + 1;
        }
    }
    (line, text[start..offset].chars().count() as u64 + 1)
}

fn run(dir: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = referee().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every error's (line, column) in `check --format json` output.
fn json_places(what: &str, out: &str) -> Vec<(u64, u64)> {
    out.lines()
        .flat_map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {e}"));
            v["errors"].as_array().cloned().unwrap_or_default()
        })
        .map(|e| {
            let place = (e["line"].as_u64(), e["column"].as_u64());
            match place {
                (Some(l), Some(c)) => (l, c),
                _ => panic!("{what}: an error without a place: {e}"),
            }
        })
        .collect()
}

/// The places of the `-->` lines of text output.
fn text_places(out: &str) -> Vec<(u64, u64)> {
    out.lines()
        .filter_map(|l| l.trim_start().strip_prefix("--> "))
        .map(|at| {
            let mut p = at.rsplitn(3, ':');
            let c = p.next().unwrap().parse().unwrap();
            let l = p.next().unwrap().parse().unwrap();
            (l, c)
        })
        .collect()
}

fn insert_everywhere(what: &str, insert: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let base = RECORD.as_bytes();
    for at in 0..=base.len() {
        let mut bytes = base[..at].to_vec();
        bytes.extend_from_slice(insert);
        bytes.extend_from_slice(&base[at..]);
        let case = format!("{what} at {at}");
        std::fs::write(dir.path().join("r.game"), &bytes).unwrap();

        let (code, text, err) = run(dir.path(), &["check", "r.game"]);
        assert!(code == 0 || code == 1, "{case}: exit {code}: {err}");
        assert!(!err.contains("panicked"), "{case}: {err}");
        for line in text.lines() {
            assert!(line.chars().count() <= 200, "{case}: {line}");
        }
        let (jcode, json, _) = run(dir.path(), &["check", "--format", "json", "r.game"]);
        assert_eq!(code, jcode, "{case}");
        let places = json_places(&case, &json);
        assert_eq!(code == 1, !places.is_empty(), "{case}: {json}");
        assert_eq!(
            text_places(&text),
            places,
            "{case}: text and JSON\n{text}\n{json}"
        );

        // From stdin: the same errors at the same places.
        let (scode, sjson, serr) = run_with_input(&["check", "--format", "json", "-"], &bytes);
        assert_eq!(code, scode, "{case}: stdin: {serr}");
        assert_eq!(
            places,
            json_places(&case, &sjson),
            "{case}: stdin\n{json}\n{sjson}"
        );

        // Invalid UTF-8: exactly where the first bad byte is.
        if let Err(e) = std::str::from_utf8(&bytes) {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap();
            let bom = usize::from(valid.starts_with('\u{feff}')) * 3;
            let expected = line_col(&valid[bom..], e.valid_up_to() - bom);
            assert_eq!(code, 1, "{case}");
            assert_eq!(places.first(), Some(&expected), "{case}: {text}");
        }

        if at % 3 == 0 {
            let (code, out, err) = run(dir.path(), &["adjudicate", "r.game"]);
            assert!((0..=2).contains(&code), "{case}: adjudicate {code}: {err}");
            assert!(!err.contains("panicked"), "{case}: {err}");
            if code == 1 {
                assert!(!text_places(&out).is_empty(), "{case}: adjudicate: {out}");
            }
            let (code, out, err) =
                run(dir.path(), &["move", "--format", "json", "r.game", "d4-d5"]);
            assert!(!err.contains("panicked"), "{case}: {err}");
            if code == 2 {
                // No record to move in: said on stderr, with the place.
                assert!(
                    err.contains("-->") || err.contains("(line "),
                    "{case}: {err}"
                );
                continue;
            }
            assert!(code == 0 || code == 1, "{case}: move {code}: {out}{err}");
            let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{case}: {e}"));
            assert_eq!(v["ok"], code == 0, "{case}: {out}");
        }
    }
}

#[test]
fn nul() {
    insert_everywhere("NUL", b"\0");
}

#[test]
fn cr() {
    insert_everywhere("CR", b"\r");
}

#[test]
fn lf() {
    insert_everywhere("LF", b"\n");
}

#[test]
fn crlf() {
    insert_everywhere("CRLF", b"\r\n");
}

#[test]
fn byte_order_mark() {
    insert_everywhere("BOM", "\u{feff}".as_bytes());
}

#[test]
fn never_utf8() {
    insert_everywhere("0xFF", b"\xff");
}

#[test]
fn cut_lead_byte() {
    insert_everywhere("0xE4", b"\xe4");
}

#[test]
fn stray_continuation() {
    insert_everywhere("0x80", b"\x80");
}
