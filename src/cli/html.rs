//! `show --format html`: one self-contained page that steps through a record — the
//! picture of each position, the list of turns with the current one highlighted, and for
//! an invalid record the ruling where the replay stops, the illegal turn marked.
//!
//! The page has inline CSS and one small inline script, and nothing from elsewhere. The
//! pictures are stored once as a table of distinct SVG lines, each position a list of
//! runs into it (consecutive positions share almost every line), so a record of hundreds
//! of turns makes a page of a few megabytes at most rather than one picture a turn; the
//! script builds the picture of the current position from its runs. The first position
//! shown is also written out as markup, so the page shows it without scripts.
//!
//! The referee's own texts (messages, rule texts, hints, captions) mark code Markdown's
//! way, with backticks; [`markup`] writes those spans as `<code>`. The record's text is
//! only ever escaped.

use std::fmt::Write;

use indexmap::IndexSet;

/// Every position's picture, as runs into a table of distinct lines.
#[derive(Default)]
pub struct Positions {
    lines: IndexSet<String>,
    /// Per position: `start, length` pairs into `lines`.
    runs: Vec<Vec<u32>>,
}

impl Positions {
    /// Adds the picture of the next position.
    pub fn push(&mut self, svg: &str) {
        let mut runs: Vec<u32> = Vec::new();
        for line in svg.lines() {
            let i = match self.lines.get_index_of(line) {
                Some(i) => i,
                None => self.lines.insert_full(line.to_string()).0,
            } as u32;
            match runs.len() {
                n if n >= 2 && runs[n - 2] + runs[n - 1] == i => runs[n - 1] += 1,
                _ => runs.extend([i, 1]),
            }
        }
        self.runs.push(runs);
    }

    pub fn len(&self) -> usize {
        self.runs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The picture of position `k`, rebuilt from its runs (as the page's script does).
    pub fn svg(&self, k: usize) -> String {
        let mut s = String::new();
        for pair in self.runs[k].chunks(2) {
            for i in pair[0]..pair[0] + pair[1] {
                s.push_str(&self.lines[i as usize]);
                s.push('\n');
            }
        }
        s
    }
}

/// What became of a turn of the record.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Fate {
    Played,
    /// The turn where the replay stopped.
    Illegal,
    /// After the illegal turn: not judged.
    NotJudged,
}

/// One turn of the list.
pub struct TurnRow {
    /// Its number as the record numbers it (`2...`; `3.`), where known: the replay's
    /// for played and illegal turns, else the number written.
    pub number: Option<String>,
    /// The seat that played it (played and illegal turns), else the label written.
    pub seat: Option<String>,
    /// The turn as written.
    pub text: String,
    /// Comments written after it (before the next turn).
    pub comments: Vec<String>,
    pub fate: Fate,
}

/// One error of the ruling: what `adjudicate` says about it. The texts are the
/// referee's, Markdown code spans (`` `=K` ``) included; the page writes those as code.
pub struct RulingError {
    pub rule: Option<String>,
    /// The rule's text and where it is written (`rulesets/halatafl.rules:40`).
    pub rule_text: Option<(String, String)>,
    pub message: String,
    /// Why the rule applies: the setting behind it and where it was set.
    pub setting: Option<String>,
    pub hint: Option<String>,
    /// Where the error is in the record, as `adjudicate` shows it (file:line:column, the
    /// line, the turn underlined): record text, written as it is. Empty when the error is
    /// not in the record.
    pub excerpt: String,
}

/// The ruling on an invalid record.
pub struct Ruling {
    /// The illegal turn (1-based), when an error is a turn's.
    pub turn: Option<usize>,
    /// The illegal turn named as the record numbers it (`move 2, black`).
    pub name: Option<String>,
    /// Where the replay stopped, in words (`north to move`).
    pub status: String,
    pub errors: Vec<RulingError>,
}

/// Everything the page shows.
pub struct Page {
    /// The record file's name as given.
    pub file: String,
    pub game: &'static str,
    pub tags: Vec<(String, String)>,
    pub turns: Vec<TurnRow>,
    /// Comments written before the first turn.
    pub opening: Vec<String>,
    /// The start, then the position after each turn played.
    pub positions: Positions,
    /// One caption a step: each position, then the ruling's.
    pub captions: Vec<String>,
    /// What the counter says at each step: `start`, the number of the turn just played
    /// as the record numbers it out of the last (`2... / 38.`), `ruling`.
    pub counters: Vec<String>,
    pub ruling: Option<Ruling>,
    /// The step shown first.
    pub start: usize,
}

impl Page {
    /// Steps: one a position, and one for the ruling.
    pub fn steps(&self) -> usize {
        self.positions.len() + usize::from(self.ruling.is_some())
    }
}

/// `text` escaped for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` escaped for HTML, its Markdown code spans written as `<code>`: a backtick
/// opens a span and the next one closes it (`` `=K` `` → `<code>=K</code>`); a
/// backtick left without a partner stays a backtick.
pub fn markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some((before, after)) = rest.split_once('`') {
        let Some((code, after)) = after.split_once('`') else {
            break;
        };
        out.push_str(&escape(before));
        out.push_str("<code>");
        out.push_str(&escape(code));
        out.push_str("</code>");
        rest = after;
    }
    out.push_str(&escape(rest));
    out
}

/// JSON for a `<script type="application/json">` element: `<` (and `>`, `&`) written as
/// escapes, so no text can close the element; JSON has them only inside strings.
fn script_json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

const STYLE: &str = r##"
:root { font-family: system-ui, sans-serif; color: #222; background: #f6f3ea; }
body { margin: 0 1.5rem 1.5rem; }
header h1 { font-size: 1.3rem; margin: 1rem 0 .3rem; }
table.tags { font-size: .85rem; border-collapse: collapse; margin-bottom: .8rem; }
table.tags th { text-align: left; font-weight: normal; color: #666; padding: 0 .8rem 0 0; }
table.tags td { padding: 0; }
main { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }
#board { flex: 1 1 32rem; min-width: 20rem; }
#view svg { display: block; max-width: 100%; max-height: 75vh; width: auto; height: auto; }
#caption { font-weight: 600; margin: .2rem 0 .5rem; min-height: 1.3em; }
nav { display: flex; gap: .4rem; align-items: center; margin: .6rem 0; }
nav button { font-size: 1rem; min-width: 2.4rem; padding: .15rem .5rem; }
nav .keys { color: #666; font-size: .85rem; margin-left: .6rem; }
#turns { position: relative; flex: 0 1 24rem; max-height: 85vh; overflow-y: auto; margin: 0; padding: .3rem 0;
  list-style: none; background: #fff; border: 1px solid #d8d2c0; font-size: .9rem; }
#turns li { padding: .15rem .6rem; border-left: 4px solid transparent; }
#turns li[data-step] { cursor: pointer; }
#turns li[data-step]:hover { background: #f1ecdf; }
#turns li.current { background: #ffe9a8; border-left-color: #b8860b; }
#turns li.illegal { color: #a4161a; font-weight: 600; }
#turns li.illegal.current { background: #f9c9c9; border-left-color: #a4161a; }
#turns li.not-judged { color: #999; }
#turns .n { display: inline-block; min-width: 2.6em; color: #777; }
#turns .seat { color: #555; }
#turns .c { display: block; margin-left: 2.6em; color: #777; font-style: italic; font-size: .8rem; }
#turns .why { font-weight: normal; font-size: .8rem; }
#ruling { margin-top: 1rem; padding: .6rem .9rem; border: 2px solid #d9a0a0; background: #fff6f6; }
#ruling.active { border-color: #a4161a; box-shadow: 0 0 0 3px #f3c4c4; }
#ruling h2 { font-size: 1.05rem; margin: 0 0 .4rem; color: #a4161a; }
#ruling .rule { font-family: ui-monospace, monospace; font-weight: 600; }
#ruling pre { background: #fff; border: 1px solid #eee; padding: .4rem; overflow-x: auto; font-size: .8rem; }
#ruling .where { color: #777; font-size: .85rem; }
#caption code, #ruling p code { font-family: ui-monospace, monospace; font-size: .9em; background: #efe9d8;
  padding: 0 .2em; border-radius: 3px; }
"##;

/// Steps with ←/→, Home/End and the buttons; a click on a turn jumps to it.
const SCRIPT: &str = r##"
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("positions").textContent);
  var view = document.getElementById("view");
  var caption = document.getElementById("caption");
  var ruling = document.getElementById("ruling");
  var counter = document.getElementById("counter");
  var positions = data.runs.length;
  var steps = positions + (ruling ? 1 : 0);
  var list = document.getElementById("turns");
  var items = [];
  document.querySelectorAll("#turns li[data-step]").forEach(function (li) {
    items[Number(li.getAttribute("data-step"))] = li;
    li.addEventListener("click", function () { go(Number(li.getAttribute("data-step"))); });
  });
  function picture(k) {
    var runs = data.runs[k], out = [];
    for (var j = 0; j < runs.length; j += 2) {
      for (var i = runs[j]; i < runs[j] + runs[j + 1]; i++) out.push(data.lines[i]);
    }
    return out.join("\n");
  }
  var current = Number(document.body.getAttribute("data-step"));
  var shown = Math.min(current, positions - 1);
  function go(n) {
    n = Math.max(0, Math.min(steps - 1, n));
    var p = Math.min(n, positions - 1);
    if (p !== shown) { view.innerHTML = picture(p); shown = p; }
    if (items[current]) items[current].classList.remove("current");
    var li = items[n];
    if (li) {
      li.classList.add("current");
      // Into view within the list only: the page itself does not scroll.
      if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
      else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
    }
    if (ruling) ruling.classList.toggle("active", n === positions);
    caption.innerHTML = data.captions[n];
    counter.textContent = data.counters[n];
    current = n;
    document.body.setAttribute("data-step", String(n));
  }
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var to = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: steps - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(steps - 1); });
  go(current);
})();
"##;

/// The page.
pub fn page(p: &Page) -> String {
    let steps = p.steps();
    let start = p.start.min(steps.saturating_sub(1));
    let shown = start.min(p.positions.len().saturating_sub(1));
    let ruling_step = p.ruling.as_ref().map(|_| p.positions.len());
    let mut s = String::new();
    let title = format!("{} — {}", p.file, p.game);
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body data-step=\"{start}\">\n",
        escape(&title)
    );
    let _ = writeln!(s, "<header><h1>{}</h1>", escape(&title));
    if !p.tags.is_empty() {
        s.push_str("<table class=\"tags\">\n");
        for (name, value) in &p.tags {
            let _ = writeln!(
                s,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(name),
                escape(value)
            );
        }
        s.push_str("</table>\n");
    }
    s.push_str("</header>\n<main>\n<section id=\"board\">\n");
    let _ = writeln!(
        s,
        "<div id=\"caption\">{}</div>",
        markup(p.captions.get(start).map(String::as_str).unwrap_or(""))
    );
    s.push_str("<div id=\"view\">\n");
    if !p.positions.is_empty() {
        s.push_str(&p.positions.svg(shown));
    }
    s.push_str("</div>\n");
    let _ = writeln!(
        s,
        "<nav><button id=\"first\" title=\"the start (Home)\">«</button>\
         <button id=\"prev\" title=\"back a turn (←)\">←</button>\
         <span id=\"counter\">{}</span>\
         <button id=\"next\" title=\"forward a turn (→)\">→</button>\
         <button id=\"last\" title=\"the end (End)\">»</button>\
         <span class=\"keys\">keys ← → Home End; click a turn</span></nav>",
        escape(p.counters.get(start).map(String::as_str).unwrap_or(""))
    );
    if let Some(r) = &p.ruling {
        ruling_html(&mut s, r, ruling_step == Some(start));
    }
    s.push_str("</section>\n");
    turn_list(&mut s, p, start, ruling_step);
    s.push_str("</main>\n");
    let data = serde_json::json!({
        "lines": p.positions.lines.iter().collect::<Vec<_>>(),
        "runs": p.positions.runs,
        // As markup: the script writes a caption's HTML, each made here by `markup`.
        "captions": p.captions.iter().map(|c| markup(c)).collect::<Vec<_>>(),
        "counters": p.counters,
    });
    let _ = write!(
        s,
        "<script type=\"application/json\" id=\"positions\">{}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>\n",
        script_json(&data)
    );
    s
}

fn ruling_html(s: &mut String, r: &Ruling, active: bool) {
    let _ = writeln!(
        s,
        "<section id=\"ruling\"{}>",
        if active { " class=\"active\"" } else { "" }
    );
    let n = r.errors.len();
    let stop = match (&r.name, r.turn) {
        (Some(name), _) => format!("; the replay stops before {name} ({})", r.status),
        (None, Some(t)) => format!("; the replay stops before turn {t} ({})", r.status),
        (None, None) => format!(" ({})", r.status),
    };
    let _ = writeln!(
        s,
        "<h2>Ruling: invalid, {n} error{}{}</h2>",
        if n == 1 { "" } else { "s" },
        escape(&stop)
    );
    // As `adjudicate` has it: the message, where in the record, the rule's text, the
    // setting, the hint.
    for e in &r.errors {
        s.push_str("<div class=\"error\">\n");
        let _ = writeln!(s, "<p class=\"message\">{}</p>", markup(&e.message));
        if !e.excerpt.trim().is_empty() {
            let _ = writeln!(s, "<pre>{}</pre>", escape(e.excerpt.trim_end()));
        }
        if let Some(rule) = &e.rule {
            let _ = write!(s, "<p>rule <span class=\"rule\">{}</span>", escape(rule));
            if let Some((text, at)) = &e.rule_text {
                let _ = write!(
                    s,
                    ": {} <span class=\"where\">({})</span>",
                    markup(text),
                    escape(at)
                );
            }
            s.push_str("</p>\n");
        }
        if let Some(setting) = &e.setting {
            let _ = writeln!(s, "<p class=\"setting\">{}</p>", markup(setting));
        }
        if let Some(hint) = &e.hint {
            let _ = writeln!(s, "<p class=\"hint\">hint: {}</p>", markup(hint));
        }
        s.push_str("</div>\n");
    }
    s.push_str("</section>\n");
}

fn turn_list(s: &mut String, p: &Page, start: usize, ruling_step: Option<usize>) {
    s.push_str("<ol id=\"turns\">\n");
    let class = |step: usize, extra: &str| {
        let mut c = extra.to_string();
        if step == start {
            if !c.is_empty() {
                c.push(' ');
            }
            c.push_str("current");
        }
        if c.is_empty() {
            String::new()
        } else {
            format!(" class=\"{c}\"")
        }
    };
    let _ = write!(
        s,
        "<li data-step=\"0\"{}><span class=\"n\"></span>start",
        class(0, "")
    );
    comments(s, &p.opening);
    s.push_str("</li>\n");
    let rule_of = p
        .ruling
        .as_ref()
        .and_then(|r| r.errors.iter().find_map(|e| e.rule.clone()));
    for (i, row) in p.turns.iter().enumerate() {
        let t = i + 1;
        let (step, extra) = match row.fate {
            Fate::Played => (Some(t), ""),
            Fate::Illegal => (ruling_step, "illegal"),
            Fate::NotJudged => (None, "not-judged"),
        };
        let attrs = match step {
            Some(k) => format!(" data-step=\"{k}\"{}", class(k, extra)),
            None => format!(" class=\"{extra}\""),
        };
        let _ = write!(
            s,
            "<li{attrs} data-turn=\"{t}\"><span class=\"n\">{}</span>",
            escape(row.number.as_deref().unwrap_or(""))
        );
        if let Some(seat) = &row.seat {
            let _ = write!(s, "<span class=\"seat\">{}:</span> ", escape(seat));
        }
        s.push_str(&escape(&row.text));
        match row.fate {
            Fate::Illegal => {
                let _ = write!(
                    s,
                    " <span class=\"why\">illegal{}</span>",
                    rule_of
                        .as_deref()
                        .map(|r| format!(" ({})", escape(r)))
                        .unwrap_or_default()
                );
            }
            Fate::NotJudged => s.push_str(" <span class=\"why\">not judged</span>"),
            Fate::Played => {}
        }
        comments(s, &row.comments);
        s.push_str("</li>\n");
    }
    // An error that is no turn's (a syntax error, a wrong result): the ruling after the
    // last turn played.
    if let (Some(r), Some(k)) = (&p.ruling, ruling_step) {
        if r.turn.is_none() {
            let _ = writeln!(
                s,
                "<li data-step=\"{k}\"{}><span class=\"n\"></span>ruling</li>",
                class(k, "illegal")
            );
        }
    }
    s.push_str("</ol>\n");
}

fn comments(s: &mut String, comments: &[String]) {
    for c in comments {
        let _ = write!(s, "<span class=\"c\">{}</span>", escape(c));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_share_lines_and_rebuild_exactly() {
        let mut p = Positions::default();
        p.push("<svg>\na\nb\nc\n</svg>\n");
        p.push("<svg>\na\nx\nc\n</svg>\n");
        p.push("<svg>\na\nb\nc\n</svg>\n");
        assert_eq!(p.svg(0), "<svg>\na\nb\nc\n</svg>\n");
        assert_eq!(p.svg(1), "<svg>\na\nx\nc\n</svg>\n");
        assert_eq!(p.svg(2), p.svg(0));
        assert_eq!(p.lines.len(), 6);
        assert_eq!(p.runs[0], vec![0, 5]);
        assert_eq!(p.runs[1], vec![0, 2, 5, 1, 3, 2]);
    }

    #[test]
    fn code_spans_become_code_escaped() {
        assert_eq!(
            markup("mark it `=K`; `a<b` & `"),
            "mark it <code>=K</code>; <code>a&lt;b</code> &amp; `"
        );
        assert_eq!(markup("no code"), "no code");
        assert_eq!(markup("``"), "<code></code>");
        assert_eq!(markup("`x` `y`"), "<code>x</code> <code>y</code>");
    }

    #[test]
    fn escapes_markup_and_script_json() {
        assert_eq!(
            escape(r#"<script>alert("x")</script> & 'y'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"
        );
        let j = script_json(&serde_json::json!(["</script><b>&"]));
        assert!(
            !j.contains('<') && !j.contains('>') && !j.contains('&'),
            "{j}"
        );
        let back: Vec<String> = serde_json::from_str(&j).unwrap();
        assert_eq!(back, vec!["</script><b>&".to_string()]);
    }
}
