//! Tests of the record frame.

use super::*;
use crate::notation::TurnParse;

/// A toy turn notation for frame tests: `xN-yM` or `huff xN yN-zM` (letters + digits).
fn toy(input: &str) -> TurnParse<String> {
    let b = input.as_bytes();
    let word = |i: usize| {
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'-') {
            j += 1;
        }
        j
    };
    if input.starts_with("huff ") {
        let j = word(5);
        let k = word(j + 1);
        return TurnParse::Turn(input[..k].to_string(), k);
    }
    let j = word(0);
    if j == 0 || !input[..j].contains('-') {
        return TurnParse::NoTurn {
            at: 0,
            expected: "a move".into(),
        };
    }
    if input.starts_with('z') {
        return TurnParse::BadAddress {
            len: j,
            at: 0,
            address_len: 2,
        };
    }
    TurnParse::Turn(input[..j].to_string(), j)
}

fn parse(text: &str) -> (File, Vec<Movetext<String>>) {
    let limits = Limits::default();
    let file = split(text, &limits);
    let mts = file
        .records
        .iter()
        .map(|r| parse_movetext(text, r.movetext, &limits, toy))
        .collect();
    (file, mts)
}

#[test]
fn header_and_movetext() {
    let text = "[Game \"halatafl\"]\n[White \"A \\\"the\\\" \\\\ B\"]\n\n1. e3-d4 c5-e3 {c} 2. f3-e3! $4 ; end\n*\n";
    let (file, mts) = parse(text);
    assert!(file.errors.is_empty());
    assert_eq!(file.records.len(), 1);
    let h = &file.records[0].header;
    assert_eq!(h.value("Game"), Some("halatafl"));
    assert_eq!(h.value("White"), Some("A \"the\" \\ B"));
    let mt = &mts[0];
    assert!(mt.error.is_none(), "{:?}", mt.error);
    assert_eq!(mt.entries.len(), 3);
    assert_eq!(
        mt.entries[0].number.unwrap().0,
        TurnNumber {
            n: 1,
            ellipsis: false
        }
    );
    assert_eq!(mt.entries[2].annotations(), ["!", "$4"]);
    assert_eq!(mt.entries[2].comments(), [Comment::Brace("c".into())]);
    assert_eq!(mt.trailing, vec![Comment::Line(" end".into())]);
    assert_eq!(mt.termination.unwrap().0, Termination::Unknown);
    assert_eq!(
        &text[mt.entries[1].span.start..mt.entries[1].span.end],
        "c5-e3"
    );
}

#[test]
fn several_records_and_bracket_lines_are_movetext() {
    let text =
        "\u{feff}[Game \"x\"]\r\n\r\n[4 1 2] a1-a2\r\n[Game \"y\"]\n[Round \"2\"]\na1-a2 resign\n";
    let (stripped, _) = strip_bom(text);
    let file = split(stripped, &Limits::default());
    assert_eq!(file.records.len(), 2);
    assert_eq!(file.records[1].header.value("Round"), Some("2"));
    let mt = parse_movetext(stripped, file.records[1].movetext, &Limits::default(), toy);
    assert_eq!(mt.entries.len(), 2);
    assert_eq!(mt.entries[1].action, Action::Resign);
    // `[4 1 2] …` is movetext of the first record, not a header.
    let mt0 = parse_movetext(stripped, file.records[0].movetext, &Limits::default(), toy);
    assert!(mt0.error.is_some());
}

/// Two headers are equal where their tags are (names, values and where they lie), the
/// text they lie in being the record's own (streamed) or their lines' (split).
#[test]
fn headers_are_equal_where_their_tags_are() {
    let header = |text: &str| split(text, &Limits::default()).records[0].header.clone();
    let one = "[Game \"halves\"]\n[Round \"1\"]\n\n1. keep\n";
    assert_eq!(header(one), header(one));
    assert!(!header(one).is_empty());
    assert!(Header::default().is_empty());
    assert_ne!(
        header(one),
        header("[Game \"halves\"]\n[Round \"2\"]\n\n1. keep\n")
    );
    assert_ne!(
        header(one),
        header("[Game \"halves\"]\n[Rounds \"1\"]\n\n1. keep\n")
    );
    assert_ne!(header(one), header("[Game \"halves\"]\n\n1. keep\n"));
    let streamed = Chunks::new(one.as_bytes(), Limits::default())
        .next()
        .and_then(Result::ok)
        .and_then(|c| c.record)
        .expect("a record read whole");
    assert_eq!(streamed.header, header(one));
}

#[test]
fn repeated_tag_is_a_header_error() {
    let (file, _) = parse("[Game \"x\"]\n[Game \"y\"]\n");
    assert_eq!(file.records[0].header_errors.len(), 1);
    assert_eq!(file.records[0].header_errors[0].kind, SyntaxKind::Header);
}

#[test]
fn text_before_the_header_is_an_error() {
    let (file, _) = parse("e3-d4\n[Game \"x\"]\n");
    assert_eq!(file.errors.len(), 1);
}

#[test]
fn syntax_error_keeps_the_turns_before_it() {
    let text = "[Game \"x\"]\n1. a1-a2 b2-b3 2. @@ c3-c4\n";
    let (_, mts) = parse(text);
    let mt = &mts[0];
    assert_eq!(mt.entries.len(), 2);
    let e = mt.error.as_ref().unwrap();
    assert_eq!(&text[e.span.start..e.span.start + 2], "@@");
}

#[test]
fn garbage_glued_to_a_turn_is_an_error() {
    let (_, mts) = parse("[Game \"x\"]\na1-a2}\n");
    assert!(mts[0]
        .error
        .as_ref()
        .unwrap()
        .message
        .contains("unexpected `}`"));
}

#[test]
fn only_comments_follow_the_termination_marker() {
    let (_, mts) = parse("[Game \"x\"]\na1-a2 1-0 {fine}\n");
    assert!(mts[0].error.is_none());
    assert_eq!(mts[0].termination.unwrap().0, Termination::FirstWins);
    let (_, mts) = parse("[Game \"x\"]\na1-a2 1-0 b1-b2\n");
    assert!(mts[0].error.is_some());
}

#[test]
fn dangling_number_or_label_is_an_error() {
    let (_, mts) = parse("[Game \"x\"]\na1-a2 2.\n");
    assert!(mts[0].error.is_some());
    let (_, mts) = parse("[Game \"x\"]\nwhite: 1-0\n");
    assert!(mts[0].error.is_some());
}

#[test]
fn unclosed_comment_is_reported() {
    let (_, mts) = parse("[Game \"x\"]\na1-a2 {never closed\n");
    assert!(mts[0]
        .error
        .as_ref()
        .unwrap()
        .message
        .contains("never closed"));
}

#[test]
fn bad_address_is_kept_as_an_action() {
    let (_, mts) = parse("[Game \"x\"]\nz9-a1\n");
    assert!(matches!(mts[0].entries[0].action, Action::BadAddress(_)));
}

#[test]
fn limits_are_enforced() {
    let limits = Limits {
        max_turns: 2,
        ..Limits::default()
    };
    let text = "[Game \"x\"]\na1-a2 a2-a3 a3-a4\n";
    let file = split(text, &limits);
    let mt = parse_movetext(text, file.records[0].movetext, &limits, toy);
    assert_eq!(mt.entries.len(), 2);
    assert_eq!(mt.error.unwrap().kind, SyntaxKind::Limit);
    let small = Limits {
        max_bytes: 4,
        ..Limits::default()
    };
    assert_eq!(split(text, &small).errors[0].kind, SyntaxKind::Limit);
}

#[test]
fn print_then_parse_is_the_same_record() {
    let text = "[Game \"x\"]\n[Event \"a \\\"b\\\"\"]\n\n{start} 1. a1-a2 ?! 1... white: b2-b3 $1 resign ; done\n0-1\n";
    let (file, mts) = parse(text);
    let printed = print(&file.records[0].header, &mts[0], text);
    let (file2, mts2) = parse(&printed);
    assert_eq!(
        file.records[0].header.tags().len(),
        file2.records[0].header.tags().len()
    );
    let strip = |m: &Movetext<String>| {
        m.entries
            .iter()
            .map(|e| {
                (
                    e.number.map(|n| n.0),
                    e.label().map(|l| l.0.clone()),
                    e.action.clone(),
                    e.annotations().to_vec(),
                    e.comments().to_vec(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&mts[0]), strip(&mts2[0]), "{printed}");
    assert_eq!(mts[0].trailing, mts2[0].trailing);
    assert_eq!(
        mts[0].termination.map(|t| t.0),
        mts2[0].termination.map(|t| t.0)
    );
}

/// The header's index by name hash: names of the same hash (`Gaae`, `Gbbe`: same length,
/// first and last byte) are each found, a lacking name of that hash is not, and a
/// repeat of the second is refused as a repeat of the first is.
#[test]
fn a_header_finds_each_tag_whatever_names_share_a_hash() {
    let text = "[Game \"g\"]\n[Gaae \"1\"]\n[Gbbe \"2\"]\n[Gbbe \"3\"]\n[Gaae \"4\"]\n\n1. a-b\n";
    let file = split(text, &Limits::default());
    let header = &file.records[0].header;
    assert_eq!(name_hash(b"Gaae"), name_hash(b"Gbbe"));
    // The tags the referee reads and the usual ones of every game's records have hashes
    // of their own: a look-up of one of them compares one name.
    let usual = [
        "Game",
        "Ruleset",
        "Seed",
        "SeedCommit",
        "Setup",
        "Options",
        "Seats",
        "Result",
        "Termination",
        "First",
        "Event",
        "Site",
        "Date",
        "Round",
        "Annotator",
        "White",
        "Black",
        "Red",
        "South",
        "West",
        "North",
        "East",
    ];
    let hashes: std::collections::HashSet<usize> =
        usual.iter().map(|n| name_hash(n.as_bytes())).collect();
    assert_eq!(hashes.len(), usual.len());
    assert_eq!(header.value("Game"), Some("g"));
    assert_eq!(header.value("Gaae"), Some("1"));
    assert_eq!(header.value("Gbbe"), Some("2"));
    assert_eq!(header.value("Gcce"), None);
    assert_eq!(header.value("Round"), None);
    assert_eq!(header.tags().len(), 3);
    let repeats: Vec<&str> = file.records[0]
        .header_errors
        .iter()
        .map(|e| &text[e.span.start..e.span.end])
        .collect();
    assert_eq!(repeats, ["[Gbbe \"3\"]", "[Gaae \"4\"]"]);
}

/// A header of more tags than its index reaches (255) still finds every tag, the
/// repeated ones too, and knows an absent one absent; its names and values are its
/// lines' (escapes resolved), and its spans the file's.
#[test]
fn a_header_past_its_index_finds_every_tag() {
    let limits = Limits::default();
    let mut text = String::from("junk\n\n");
    for i in 0..300 {
        text.push_str(&format!("[T{i} \"v{i}\"]\n"));
    }
    text.push_str(
        "[T7 \"again\"]\n [ Esc\t\"a \\\"b\\\" \\\\ c\" ] \n[T299 \"again\"]\n\n1. x *\n",
    );
    let file = split(&text, &limits);
    let header = &file.records[0].header;
    assert_eq!(header.len(), 301);
    for i in 0..300 {
        let tag = header.get(&format!("T{i}")).expect("every tag");
        assert_eq!(tag.value, format!("v{i}"));
        assert_eq!(&text[tag.value_span.start..tag.value_span.end], tag.value);
        assert_eq!(
            &text[tag.span.start..tag.span.end],
            format!("[T{i} \"v{i}\"]")
        );
    }
    let esc = header.get("Esc").expect("the escaped tag");
    assert_eq!(esc.value, "a \"b\" \\ c");
    assert_eq!(
        &text[esc.value_span.start..esc.value_span.end],
        "a \\\"b\\\" \\\\ c"
    );
    assert_eq!(header.tags().last().map(|t| t.name), Some("Esc"));
    for absent in ["T300", "T", "Game", "t1"] {
        assert_eq!(header.value(absent), None, "{absent}");
    }
    let repeats: Vec<&str> = file.records[0]
        .header_errors
        .iter()
        .map(|e| &text[e.span.start..e.span.end])
        .collect();
    assert_eq!(repeats, ["[T7 \"again\"]", "[T299 \"again\"]"]);
}

/// An annotation follows a turn; before the first turn it is an error, whether the
/// entries are kept or handed to a sink as they are read (`check`'s quick verdict),
/// and a sink sees every entry, in order, up to where it answers `false`.
#[test]
fn an_annotation_needs_a_turn_before_it_kept_or_handed_on() {
    use crate::notation::halves::parse_movetext_into;
    let limits = Limits::default();
    for (movetext, error) in [
        ("1. keep $1 2. x(0,0)", false),
        ("1. keep! 2. x(0,0) $2", false),
        ("1. keep ! 2. x(0,0)", true),
        ("$1 1. keep 2. x(0,0)", true),
        ("! 1. keep", true),
    ] {
        let text = format!("[Game \"halves\"]\n\n{movetext}\n");
        let span = split(&text, &limits).records[0].movetext;
        let kept = parse_movetext_into(&text, span, &limits, None);
        let mut seen = Vec::new();
        let mut sink = |e: &Entry<_>| {
            seen.push(e.action.clone());
            true
        };
        let handed = parse_movetext_into(&text, span, &limits, Some(&mut sink));
        assert_eq!(kept.error.is_some(), error, "{movetext}");
        assert_eq!(handed.error, kept.error, "{movetext}");
        assert!(handed.entries.is_empty());
        let actions: Vec<_> = kept.entries.iter().map(|e| e.action.clone()).collect();
        assert_eq!(seen, actions, "{movetext}");
    }
    // A sink that answers `false` stops the reading at that entry.
    let text = "[Game \"halves\"]\n\n1. keep 2. x(0,0) 3. x(1,0)\n";
    let span = split(text, &limits).records[0].movetext;
    let mut n = 0;
    let mut two = |_: &Entry<_>| {
        n += 1;
        n < 2
    };
    let read = parse_movetext_into(text, span, &limits, Some(&mut two));
    assert_eq!((n, read.error), (2, None));
}

/// A turn with no drop to run is let go without one; any other is dropped.
#[test]
fn a_turn_without_a_drop_is_heap_free() {
    use crate::notation::record::HeapFree;
    assert!(crate::notation::halves::Turn::Pass.heap_free());
    assert!(!String::new().heap_free());
}
