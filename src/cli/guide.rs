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
        "play",
        "the play protocol: every command and every field of its answers",
        include_str!("../../docs/guide/play.md"),
    ),
    (
        "bots",
        "writing a bot: the bot protocol, matches between bots, forfeits, the Elo report",
        include_str!("../../docs/guide/bots.md"),
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

/// The page `topic` (none: the index, which lists the topics) on `out`, as a reader
/// sees it.
pub fn print(topic: Option<&str>, out: &mut dyn Write) -> Outcome {
    let text = page(topic.unwrap_or("index")).unwrap_or_default();
    out.write_all(for_readers(text).as_bytes())?;
    Ok(())
}

/// A page as a reader sees it: without its HTML comments (notes for the maintainers of
/// the guide, as the index's on how the tests read its fences), and without the blank
/// lines they leave at the top.
pub fn for_readers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        out.push_str(&rest[..start]);
        rest = match rest[start..].find("-->") {
            Some(end) => rest[start + end + 3..].trim_start_matches(['\n', '\r']),
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// The page `topic` as a manual page `referee-guide-TOPIC(1)`, typeset from its Markdown
/// ([`super::roff::body`]): headings as sections, tables as tables, code in bold.
pub fn roff(topic: &str) -> Option<String> {
    let (name, what, text) = TOPICS.iter().find(|(n, _, _)| *n == topic)?;
    let mut out = String::from("'\\\" t\n");
    out.push_str(&format!(
        ".TH referee-guide-{name} 1 \"\" \"referee {}\" \"referee guide\"\n",
        env!("CARGO_PKG_VERSION")
    ));
    out.push_str(&format!(
        ".SH NAME\nreferee\\-guide\\-{name} \\- {}\n",
        super::roff::escape(what).replace('-', "\\-")
    ));
    out.push_str(&super::roff::body(text));
    Some(super::roff::ascii(&out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_shows_readers_no_comment_and_its_topics_once() {
        let mut out = Vec::new();
        print(None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("# The referee guide\n"), "{text}");
        assert!(!text.contains("<!--"), "{text}");
        assert_eq!(text.matches("## Topics").count(), 1, "{text}");
        assert_eq!(text.matches("`referee guide records`").count(), 1, "{text}");
    }

    #[test]
    fn every_topic_has_a_page_and_a_man_page() {
        for name in names() {
            let text = page(name).unwrap();
            assert!(text.starts_with("# "), "{name}: a title first");
            let roff = roff(name).unwrap();
            assert!(roff.starts_with("'\\\" t\n.TH "), "{name}");
            // No Markdown mark is left outside the unfilled blocks.
            let mut unfilled = false;
            for line in roff.lines() {
                match line {
                    ".nf" => unfilled = true,
                    ".fi" => unfilled = false,
                    _ if unfilled => {}
                    _ => {
                        assert!(!line.contains('`'), "{name}: {line}");
                        assert!(!line.contains("**"), "{name}: {line}");
                        assert!(!line.starts_with('|'), "{name}: {line}");
                        assert!(!line.contains("<!--"), "{name}: {line}");
                    }
                }
            }
            assert_eq!(
                roff.matches(".nf").count(),
                roff.matches(".fi").count(),
                "{name}"
            );
        }
    }
}
