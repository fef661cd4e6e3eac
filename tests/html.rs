//! `show --format svg` for Thaayam and `show --format html`: the picture of a position,
//! and the page that steps through a record (structure, the ruling of a disputed
//! record, escaping, no outside references).

use crate::common;

use common::{examples, rel, run};
use serde_json::Value;

/// Writes `text` as a record file in a new temporary directory.
fn record(text: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("g.game");
    std::fs::write(&p, text).unwrap();
    let p = p.to_str().unwrap().to_string();
    (dir, p)
}

/// Three seats: twins, pieces of several seats sharing a palace, pieces in the keep,
/// in hand and borne off; west to move.
const THAAYAM_SETUP: &str = "[Game \"thaayam\"]\n[Ruleset \"thaayam-bell\"]\n\
[Seats \"south west east\"]\n\
[Setup \"south: Tc5 c5 c3; west: c5 hand=1 off=2; east: Tb3 c3 hand=1; to-move: west\"]\n\n";

#[test]
fn thaayam_svg() {
    let (_dir, p) = record(THAAYAM_SETUP);
    let (code, out, err) = run(&["show", &p, "--format", "svg"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!("thaayam-svg", out);
}

/// The page's data: the table of lines, each position's runs into it, the captions.
fn page_data(page: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"positions\">";
    let at = page.find(open).expect("the positions element") + open.len();
    let end = at + page[at..].find("</script>").expect("its end");
    serde_json::from_str(&page[at..end]).expect("JSON")
}

/// Position `k`'s picture, rebuilt from its runs as the page's script does.
fn picture(data: &Value, k: usize) -> String {
    let lines = data["lines"].as_array().unwrap();
    let runs: Vec<usize> = data["runs"][k]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect();
    let mut s = String::new();
    for pair in runs.chunks(2) {
        for line in &lines[pair[0]..pair[0] + pair[1]] {
            s.push_str(line.as_str().unwrap());
            s.push('\n');
        }
    }
    s
}

/// The page refers to nothing outside itself: no URL but the SVG namespace, no `src`,
/// no stylesheet link, no `url(…)`.
fn assert_self_contained(page: &str, what: &str) {
    // The namespace as markup, and inside the data's JSON strings.
    let without_ns = page
        .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace("xmlns=\\\"http://www.w3.org/2000/svg\\\"", "");
    for bad in [
        "http://", "https://", "src=", "<link", "url(", "@import", "//cdn",
    ] {
        assert!(!without_ns.contains(bad), "{what}: the page holds `{bad}`");
    }
}

/// The `<li>` elements of the turn list, each as its opening tag.
fn list_items(page: &str) -> Vec<&str> {
    let at = page.find("<ol id=\"turns\">").expect("the turn list");
    let end = at + page[at..].find("</ol>").unwrap();
    page[at..end]
        .match_indices("<li")
        .map(|(i, _)| {
            let rest = &page[at + i..end];
            &rest[..rest.find('>').unwrap() + 1]
        })
        .collect()
}

#[test]
fn html_pages_for_every_example() {
    let mut checked = 0;
    for game in ["halatafl", "thaayam", "halves", "halasi"] {
        for path in examples(game) {
            let p = rel(&path);
            let (code, page, err) = run(&["show", &p, "--format", "html"]);
            assert!(code == 0 || code == 1, "{p}: {err}");
            assert!(page.starts_with("<!DOCTYPE html>\n"), "{p}");
            assert!(page.ends_with("</html>\n"), "{p}");
            assert_self_contained(&page, &p);
            assert_eq!(
                page.matches("<script").count(),
                2,
                "{p}: the data and the script"
            );
            let (_, ruling, _) = run(&["adjudicate", &p, "--format", "json"]);
            let ruling: Value = serde_json::from_str(ruling.trim()).unwrap();
            let (_, shown, _) = run(&["show", &p, "--format", "json"]);
            let played = serde_json::from_str::<Value>(shown.trim()).unwrap()["turn"]
                .as_u64()
                .unwrap() as usize;
            let valid = ruling["valid"].as_bool().unwrap();
            assert_eq!(
                code,
                if valid { 0 } else { 1 },
                "{p}: as `check` would exit"
            );
            // One position for the start and one a turn played; one caption a step.
            let data = page_data(&page);
            let positions = data["runs"].as_array().unwrap().len();
            assert_eq!(positions, played + 1, "{p}");
            let steps = positions + usize::from(!valid);
            assert_eq!(data["captions"].as_array().unwrap().len(), steps, "{p}");
            // It opens where the record ends: its last step, the last position written
            // out as markup (issue 34).
            assert!(
                page.contains(&format!("<body data-step=\"{}\">", steps - 1)),
                "{p}"
            );
            let open = "<div id=\"view\">\n";
            let view = &page[page.find(open).unwrap() + open.len()..];
            assert!(view.starts_with(&picture(&data, played)), "{p}");
            // The last position is the one `show --format svg` draws, line for line.
            let (_, svg, _) = run(&["show", &p, "--format", "svg"]);
            assert_eq!(picture(&data, played), svg, "{p}: the last position");
            // The list: the start, every turn of the record, a ruling item for an error
            // that is no turn's.
            let items = list_items(&page);
            let turns = ruling["turns"].as_u64().unwrap() as usize;
            let turn_items = items.iter().filter(|li| li.contains("data-turn=")).count();
            assert_eq!(turn_items, turns, "{p}");
            let illegal: Vec<&&str> = items.iter().filter(|li| li.contains("illegal")).collect();
            if valid {
                assert!(illegal.is_empty(), "{p}");
                assert!(!page.contains("id=\"ruling\""), "{p}");
                continue;
            }
            // Invalid: the ruling says what adjudicate says, and one item is marked.
            assert_eq!(illegal.len(), 1, "{p}: {illegal:?}");
            assert!(
                illegal[0].contains(&format!("data-step=\"{positions}\"")),
                "{p}"
            );
            match ruling["violation"]["turn"].as_u64() {
                Some(t) => {
                    assert!(illegal[0].contains(&format!("data-turn=\"{t}\"")), "{p}");
                    assert_eq!(t as usize, played + 1, "{p}");
                }
                None => assert!(!illegal[0].contains("data-turn="), "{p}"),
            }
            for e in ruling["errors"].as_array().unwrap() {
                let message = code_spans(e["message"].as_str().unwrap());
                assert!(page.contains(&message), "{p}: {message}");
                if let Some(rule) = e["rule"].as_str() {
                    assert!(
                        page.contains(&format!("<span class=\"rule\">{rule}</span>")),
                        "{p}"
                    );
                }
                if let Some(hint) = e["hint"].as_str() {
                    assert!(page.contains(&format!("hint: {}", code_spans(hint))), "{p}");
                }
            }
            if let Some(text) = ruling["violation"]["rule_text"].as_str() {
                assert!(page.contains(&code_spans(text)), "{p}: the rule's text");
            }
            // No Markdown backtick is left in the ruling's prose: only the record's own
            // text, in the excerpt, is written as it is.
            let at = page.find("<section id=\"ruling\"").unwrap();
            let section = &page[at..at + page[at..].find("</section>").unwrap()];
            let prose = section
                .split("<pre>")
                .map(|part| part.split_once("</pre>").map_or(part, |(_, after)| after))
                .collect::<String>();
            assert!(!prose.contains('`'), "{p}: {prose}");
            checked += 1;
        }
    }
    assert!(checked >= 30, "disputed records checked: {checked}");
}

/// A referee text as the page writes it: escaped, each Markdown code span (a backtick
/// to the next) as `<code>`, a lone backtick left as it is. Written out independently
/// of the referee's.
fn code_spans(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        match (i % 2, i + 1 < parts.len()) {
            (1, true) => out.push_str(&format!("<code>{}</code>", escape(part))),
            (1, false) => out.push_str(&format!("`{}", escape(part))),
            _ => out.push_str(&escape(part)),
        }
    }
    out
}

/// The escaping the page needs, written out independently of the referee's.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[test]
fn html_escapes_record_text() {
    let (_dir, p) = record(
        "[Game \"halatafl\"]\n[Event \"<script>alert('tag')</script>\"]\n\
         [White \"A & B \\\"quoted\\\"\"]\n[Result \"*\"]\n\n\
         1. e3-d4 { </script><img src=x onerror=alert(1)> } c5xe3xg1=K\n",
    );
    let (code, page, err) = run(&["show", &p, "--format", "html"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        page.matches("<script").count(),
        2,
        "only the page's own scripts"
    );
    assert!(!page.contains("<img"), "a comment must not make an element");
    assert!(page.contains("<td>&lt;script&gt;alert(&#39;tag&#39;)&lt;/script&gt;</td>"));
    assert!(page.contains("<td>A &amp; B &quot;quoted&quot;</td>"));
    assert!(page.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
    // The captions hold turn texts too; in the data they cannot close its element.
    let data = page_data(&page);
    assert_eq!(data["runs"].as_array().unwrap().len(), 3);
    assert_self_contained(&page.replace("src=x", ""), "the escaping record");
}

#[test]
fn html_starts_at_the_turn_asked() {
    let p = "games/halatafl/opening.game";
    let (code, page, _) = run(&["show", p, "--format", "html", "--turn", "3"]);
    assert_eq!(code, 0);
    assert!(page.contains("<body data-step=\"3\">"));
    let items = list_items(&page);
    let current: Vec<&&str> = items.iter().filter(|li| li.contains("current")).collect();
    assert_eq!(current.len(), 1);
    assert!(current[0].contains("data-step=\"3\""), "{current:?}");
    // The picture written out is position 3's.
    let data = page_data(&page);
    assert!(page.contains(&picture(&data, 3)));
    let (_, svg3, _) = run(&["show", p, "--format", "svg", "--turn", "3"]);
    assert_eq!(picture(&data, 3), svg3);
    // By default and past the end, the last step (here the last position).
    let (_, page, _) = run(&["show", p, "--format", "html"]);
    assert!(page.contains("<body data-step=\"6\">"));
    // Past the end is a usage error, as in every command.
    let (code, page, err) = run(&["show", p, "--format", "html", "--turn", "99"]);
    assert_eq!(code, 2);
    assert!(err.contains("--turn 99 is past the end"), "{err}");
    assert!(page.is_empty());
}

#[test]
fn html_of_a_disputed_thaayam_record() {
    let p = "games/thaayam/disputed-missing-extra-turn.game";
    let (code, page, err) = run(&["show", p, "--format", "html"]);
    assert_eq!(code, 1, "an invalid record exits 1, as in every command");
    assert!(err.contains("the record is invalid"), "{err}");
    let items = list_items(&page);
    assert_eq!(
        items,
        [
            "<li data-step=\"0\">",
            "<li data-step=\"1\" data-turn=\"1\">",
            "<li data-step=\"2\" class=\"illegal current\" data-turn=\"2\">",
        ]
    );
    // Each comment with the turn it follows.
    assert!(page.contains("[2] c1+2x<span class=\"c\">{ captures north on e1 }</span></li>"));
    assert!(page.contains(
        "(extra-turn)</span><span class=\"c\">{ but south plays again first }</span></li>"
    ));
    // The illegal turn as written (its label is the dispute), then the ruling.
    assert!(page.contains(
        "<span class=\"seat\">north:</span> [1 2] enter, c5+2 <span class=\"why\">illegal (extra-turn)</span>"
    ));
    assert!(page.contains("<span class=\"rule\">extra-turn</span>"));
    assert!(page.contains(
        "the turn is labelled <code>north:</code>, but south captured on its last turn and plays again"
    ));
    assert!(
        page.contains("disputed-missing-extra-turn.game:8:4"),
        "the rendered ruling"
    );
    let data = page_data(&page);
    assert_eq!(
        data["captions"][2],
        "Turn 2 (north: [1 2] enter, c5+2) is illegal (extra-turn): the position before it"
    );
    // The ruling step shows the position before the illegal turn; the page opens on it.
    assert_eq!(data["runs"].as_array().unwrap().len(), 2);
    assert!(page.contains("<section id=\"ruling\" class=\"active\">"));
    assert!(page.contains("<span id=\"counter\">ruling</span>"));
}

/// The rule texts, messages, hints and captions on the page are the referee's texts,
/// whose Markdown code spans are written as code, escaped (issue 34); the record's own
/// text is written as it is.
#[test]
fn html_writes_code_spans_as_code() {
    let (_dir, p) = record("[Game \"halatafl\"]\n[Event \"`tag`\"]\n\n1. e3-d4=K { `comment` }\n");
    let (code, page, err) = run(&["show", &p, "--format", "html"]);
    assert_eq!(code, 1, "an invalid record: {err}");
    assert!(page.contains("<p class=\"message\">=K is wrong: this turn promotes nobody</p>"));
    assert!(
        page.contains("A turn may mark the promotion with <code>=K</code>; a wrong marker"),
        "the rule's text"
    );
    assert!(page.contains("<span class=\"where\">(rulesets/halatafl.rules:"));
    assert!(page.contains("<p class=\"setting\">it applies because promotion = true"));
    // The record's text: its line in the excerpt, a tag and a comment, as written.
    assert!(page.contains("<pre>  --&gt; "), "the excerpt");
    assert!(page.contains("1. e3-d4=K { `comment` }\n"));
    assert!(page.contains("<td>`tag`</td>"));
    // Code spans that quote the record are escaped inside the code, in the ruling and
    // in the caption (as markup, and in the data the script writes it from).
    let (_dir, p) = record("[Game \"halatafl\"]\n\n1. e3-d4 <b>\n");
    let (code, page, err) = run(&["show", &p, "--format", "html"]);
    assert_eq!(code, 1, "an invalid record: {err}");
    assert!(!page.contains("<b>"), "{page}");
    let found = "or a huff such as <code>huff c3</code>, found <code>&lt;</code>";
    assert!(
        page.contains(&format!("<p class=\"message\">expected a move such as <code>e3-d4</code> or <code>c5xe3</code>, {found}</p>")),
        "the message"
    );
    assert!(page.contains(&format!("<div id=\"caption\">The ruling: expected a move such as <code>e3-d4</code> or <code>c5xe3</code>, {found}</div>")));
    let data = page_data(&page);
    let caption = data["captions"].as_array().unwrap().last().unwrap();
    assert!(caption.as_str().unwrap().ends_with(found), "{caption}");
}

#[test]
fn html_of_a_syntax_error_has_a_ruling_item() {
    let p = "games/halatafl/disputed-syntax-error.game";
    let (code, page, _) = run(&["show", p, "--format", "html"]);
    assert_eq!(code, 1);
    let items = list_items(&page);
    assert_eq!(
        items.last().copied(),
        Some("<li data-step=\"4\" class=\"illegal current\">")
    );
    assert!(page.contains("<section id=\"ruling\" class=\"active\">"));
    assert!(page.contains("unexpected <code>+</code> after the turn <code>e5-e3</code>"));
}

#[test]
fn other_commands_refuse_html() {
    let (code, _, err) = run(&["moves", "games/halatafl/opening.game", "--format", "html"]);
    assert_eq!(code, 2);
    // Only `show` offers html: the others take text or json.
    assert!(
        err.contains("invalid value 'html'") && err.contains("text, json"),
        "{err}"
    );
}

#[test]
fn thaayam_svg_of_a_seat_that_left() {
    let (_dir, p) = record(
        "[Game \"thaayam\"]\n[Seats \"south west north\"]\n\
         [Setup \"south: c1 hand=3; west: a3 hand=3; north: c5 hand=3; to-move: west\"]\n\n\
         1. west: resign\n",
    );
    let (code, before, _) = run(&["show", &p, "--format", "svg", "--turn", "0"]);
    assert_eq!(code, 0);
    assert!(before.contains("<title>west's route</title>"));
    assert!(before.contains("<title>a3: west 1 piece</title>"));
    let (code, after, _) = run(&["show", &p, "--format", "svg"]);
    assert_eq!(code, 0);
    assert!(after.contains("<title>west: left the game</title>"));
    assert!(
        !after.contains("west's route"),
        "no route for a seat that left"
    );
    assert!(!after.contains("a3: west"), "its pieces are off the board");
    assert!(after.contains(">north to move</text>"));
}

#[test]
fn html_of_a_record_that_cannot_start() {
    let (_dir, p) = record("[Game \"halatafl\"]\n[Ruleset \"halatafl-nonesuch\"]\n\n1. e3-d4\n");
    let (code, out, _) = run(&["show", &p, "--format", "html"]);
    assert_eq!(code, 1, "as `show`: the diagnostics, exit 1");
    assert!(!out.contains("<!DOCTYPE"), "{out}");
    assert!(out.contains("halatafl-nonesuch"), "{out}");
}
