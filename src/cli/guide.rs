//! `referee guide [TOPIC]`: the guide in `docs/guide/`, built into the binary, printed
//! as it is written (Markdown reads as plain text), and the same pages as roff for
//! `referee man --out`.

use std::io::Write;

use super::Outcome;

/// Every topic: its name, a line on what it holds, and its text.
pub const TOPICS: &[(&str, &str, &str)] = &[
    (
        "index",
        "where to start: the commands, a first game, the other topics",
        include_str!("../../docs/guide/index.md"),
    ),
    (
        "records",
        "the record format: tags, turn numbers, comments, seeds and commitments, results",
        include_str!("../../docs/guide/records.md"),
    ),
    (
        "rulesets",
        "the ruleset language: settings, rule texts, variants, where rulesets are found",
        include_str!("../../docs/guide/rulesets.md"),
    ),
    (
        "halatafl",
        "Halatafl: the board, steps, jumps, huffs, promotion, every rule",
        include_str!("../../docs/guide/halatafl.md"),
    ),
    (
        "thaayam",
        "Thaayam: the board and routes, throws, entering, moves, twins, bearing off",
        include_str!("../../docs/guide/thaayam.md"),
    ),
    (
        "halves",
        "Halves: hex cells, placing, the contract, removing, splits",
        include_str!("../../docs/guide/halves.md"),
    ),
    (
        "halasi",
        "Halasi: territories, triangle addresses, dominos, scoring, routes, the table game and solitaire",
        include_str!("../../docs/guide/halasi.md"),
    ),
];

/// The topic names, in guide order.
pub fn names() -> Vec<&'static str> {
    TOPICS.iter().map(|(n, _, _)| *n).collect()
}

/// The text of a topic.
pub fn page(topic: &str) -> Option<&'static str> {
    TOPICS.iter().find(|(n, _, _)| *n == topic).map(|t| t.2)
}

/// The page `topic` (none: the index, with the list of topics) on `out`.
pub fn print(topic: Option<&str>, out: &mut dyn Write) -> Outcome {
    let text = page(topic.unwrap_or("index")).unwrap_or_default();
    out.write_all(text.as_bytes())?;
    if topic.is_none() {
        writeln!(out, "\nTopics (`referee guide TOPIC`):")?;
        for (name, what, _) in TOPICS {
            writeln!(out, "  {name:<10} {what}")?;
        }
    }
    Ok(())
}

/// Text for roff: backslashes doubled, a leading `.` or `'` protected.
fn escape(line: &str) -> String {
    let s = line.replace('\\', "\\e");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// The page `topic` as a manual page `referee-guide-TOPIC(1)`: headings become sections,
/// fenced blocks and tables are shown as written, the rest is filled text; Markdown's marks stay
/// (they read as they do in the terminal). HTML comments are left out.
pub fn roff(topic: &str) -> Option<String> {
    let (name, what, text) = TOPICS.iter().find(|(n, _, _)| *n == topic)?;
    let mut out = String::new();
    out.push_str(&format!(
        ".TH referee-guide-{name} 1 \"\" \"referee {}\" \"referee guide\"\n",
        env!("CARGO_PKG_VERSION")
    ));
    out.push_str(&format!(
        ".SH NAME\nreferee\\-guide\\-{name} \\- {}\n",
        escape(what).replace('-', "\\-")
    ));
    let mut in_code = false;
    let mut in_comment = false;
    let mut para = false;
    let mut in_table = false;
    for line in text.lines() {
        if in_comment {
            if line.contains("-->") {
                in_comment = false;
            }
            continue;
        }
        if !in_code && line.trim_start().starts_with("<!--") {
            in_comment = !line.contains("-->");
            continue;
        }
        if in_table && !line.trim_start().starts_with('|') && !in_code {
            out.push_str(".fi\n");
            in_table = false;
            para = false;
        }
        if line.trim_start().starts_with("```") {
            if in_code {
                out.push_str(".fi\n.RE\n");
            } else {
                out.push_str(".PP\n.RS 4\n.nf\n");
            }
            in_code = !in_code;
            para = false;
            continue;
        }
        if in_code {
            out.push_str(&escape(line));
            out.push('\n');
            continue;
        }
        if let Some(h) = line.strip_prefix("# ") {
            // The page title: the NAME section already says it.
            let _ = h;
            para = false;
            continue;
        }
        if let Some(h) = line.strip_prefix("## ") {
            out.push_str(&format!(".SH \"{}\"\n", escape(h).to_uppercase()));
            para = false;
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            out.push_str(&format!(".SS \"{}\"\n", escape(h)));
            para = false;
            continue;
        }
        if line.trim().is_empty() {
            para = false;
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with('|') {
            // A table: shown as written, one row a line.
            if !in_table {
                out.push_str(".PP\n.nf\n");
                in_table = true;
            }
            out.push_str(&escape(trimmed));
            out.push('\n');
            continue;
        }
        let item = trimmed.starts_with("- ");
        if !para || item {
            out.push_str(if item && para { ".br\n" } else { ".PP\n" });
            para = true;
        }
        out.push_str(&escape(line.trim_start()));
        out.push('\n');
    }
    if in_code {
        out.push_str(".fi\n.RE\n");
    }
    if in_table {
        out.push_str(".fi\n");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_has_a_page_and_a_man_page() {
        for name in names() {
            let text = page(name).unwrap();
            assert!(text.starts_with("# "), "{name}: a title first");
            let roff = roff(name).unwrap();
            assert!(roff.starts_with(".TH "), "{name}");
            assert_eq!(
                roff.matches(".nf").count(),
                roff.matches(".fi").count(),
                "{name}"
            );
        }
    }
}
