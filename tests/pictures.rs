//! The pictures a player reads (issue 21): Halasi layouts of two, four and six seats and
//! of solitaire, as `show --format svg` draws them. Each picture was rendered to PNG at
//! 800 pixels wide and looked at; the snapshots keep what a player reads off it (the
//! title, the panel, the labels and where they lie, the legend), not every triangle.

use crate::common;

use common::run;

/// The text of every element with `class="NAME"` (or in the element opened by `id`).
fn texts(svg: &str, class: &str) -> Vec<String> {
    let mut out = Vec::new();
    let key = format!("class=\"{class}\"");
    let mut rest = svg;
    while let Some(i) = rest.find(&key) {
        rest = &rest[i + key.len()..];
        let open = rest.find('>').unwrap();
        let close = rest[open..].find('<').unwrap();
        out.push(rest[open + 1..open + close].to_string());
    }
    out
}

/// A number attribute of the first element after `from`.
fn attr(svg: &str, from: usize, name: &str) -> f64 {
    let key = format!(" {name}=\"");
    let i = svg[from..].find(&key).unwrap() + from + key.len();
    let j = svg[i..].find('"').unwrap() + i;
    svg[i..j].parse().unwrap()
}

/// What a player reads off a picture, one fact a line.
fn summary(svg: &str) -> String {
    let mut out = String::new();
    let title = &svg[svg.find("<title>").unwrap() + 7..svg.find("</title>").unwrap()];
    out.push_str(&format!("title: {title}\n"));
    out.push_str(&format!(
        "shown at: {} x {} px\n",
        attr(svg, 0, "width"),
        attr(svg, 0, "height")
    ));
    for line in texts(svg, "panel") {
        out.push_str(&format!("panel: {line}\n"));
    }
    let labels = texts(svg, "label");
    let mut plates = Vec::new();
    let mut from = 0;
    while let Some(i) = svg[from..].find("class=\"plate\"") {
        let at = from + i;
        let (x, y) = (attr(svg, at, "x"), attr(svg, at, "y"));
        let (w, h) = (attr(svg, at, "width"), attr(svg, at, "height"));
        let outside = attr(svg, at, "fill-opacity") == 1.0;
        plates.push((x, y, w, h, outside));
        from = at + 10;
    }
    assert_eq!(labels.len(), plates.len());
    let outside = plates.iter().filter(|p| p.4).count();
    out.push_str(&format!(
        "labels: {} ({} beside their territory, {} on a plate over its centre)\n",
        labels.len(),
        outside,
        labels.len() - outside
    ));
    out.push_str(&format!(
        "  beside: {}\n",
        labels
            .iter()
            .zip(&plates)
            .filter(|(_, p)| p.4)
            .map(|(l, _)| l.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    ));
    // No two labels lie over each other.
    for (i, a) in plates.iter().enumerate() {
        for b in &plates[i + 1..] {
            let apart =
                a.0 + a.2 <= b.0 || b.0 + b.2 <= a.0 || a.1 + a.3 <= b.1 || b.1 + b.3 <= a.1;
            assert!(apart, "labels overlap: {a:?} {b:?}");
        }
    }
    out.push_str(&format!(
        "last turn's dominos on a halo: {}\n",
        svg.matches("class=\"halo\"").count()
    ));
    out.push_str(&format!(
        "triangle indices printed: {}\n",
        svg.contains("id=\"indices\"")
    ));
    let legend_at = svg.find("dominos:</text>").unwrap();
    let legend: Vec<&str> = svg[legend_at..]
        .split('>')
        .filter_map(|t| t.split('<').next())
        .filter(|t| !t.trim().is_empty())
        .collect();
    out.push_str(&format!("legend: dominos: {}\n", legend.join(" | ")));
    out
}

#[test]
fn halasi_pictures_a_player_can_read() {
    for (name, seats) in [
        ("table-2-seats", 2),
        ("table-4-seats", 4),
        ("table-6-seats", 6),
        ("solitaire-win", 1),
    ] {
        let file = format!("games/halasi/{name}.game");
        let (code, svg, err) = run(&["show", &file, "--format", "svg"]);
        assert_eq!(code, 0, "{file}: {err}");
        // Read at 800 pixels: a large layout is shown at that width, its text scaled.
        assert!(attr(&svg, 0, "width") <= 820.0, "{file}");
        let s = summary(&svg);
        if seats > 1 {
            assert_eq!(s.matches(" (hand ").count(), seats, "{s}");
        }
        insta::assert_snapshot!(format!("halasi-picture-{name}"), s);
    }
}

/// The HTML page of a long table game opens on the layout the record reached, not on
/// the empty table before the homes are placed (issue 34).
#[test]
fn halasi_html_opens_on_the_last_layout() {
    let (code, html, err) = run(&[
        "show",
        "games/halasi/table-3-seats.game",
        "--format",
        "html",
    ]);
    assert_eq!(code, 0, "{err}");
    // The counter names the turn just played, out of the last.
    assert!(
        html.contains("<span id=\"counter\">177 / 177</span>"),
        "{}",
        &html[..200]
    );
}

/// Every game's picture of a finished game says who won and why, and marks in gold
/// what the last turn changed (issue 22).
#[test]
fn every_picture_tells_the_result_and_marks_the_last_turn() {
    for (file, result) in [
        (
            "games/halatafl/complete-default.game",
            "black wins (capture-all)",
        ),
        ("games/halves/complete-3p.game", "black wins (first-out)"),
        ("games/thaayam/two-seats.game", "south wins (bore-off-all)"),
        (
            "games/halasi/solitaire-win.game",
            "Halasi: a wins: the score reached the target",
        ),
    ] {
        let (code, svg, err) = run(&["show", file, "--format", "svg"]);
        assert_eq!(code, 0, "{file}: {err}");
        assert!(
            svg.contains(&format!(">{result}<")),
            "{file}: no {result:?}"
        );
        assert!(
            !svg.contains(" to move<"),
            "{file}: a finished game has no seat to move"
        );
        assert!(
            svg.contains("class=\"last\"") || svg.contains("class=\"domino last\""),
            "{file}: the last turn is not marked"
        );
    }
    // At the start nothing is marked.
    let (_, svg, _) = run(&[
        "show",
        "games/halatafl/complete-default.game",
        "--turn",
        "0",
        "--format",
        "svg",
    ]);
    assert!(!svg.contains("class=\"last\""));
}

/// The tooltips of the marks of `class` in a picture, in the picture's order.
fn marks(svg: &str, class: &str) -> Vec<String> {
    svg.lines()
        .filter(|l| l.contains(&format!("class=\"{class}\"")))
        .map(|l| l[l.find("<title>").unwrap() + 7..l.find("</title>").unwrap()].to_string())
        .collect()
}

/// The Halatafl picture says what the text says of a pending huff, rings the pieces
/// that may be huffed, and marks the point the last move started from apart from the
/// point it ended on (issue 34).
#[test]
fn halatafl_picture_shows_a_pending_huff_and_where_the_last_move_started() {
    let file = "games/halatafl/complete-default.game";
    let show = |turn: &str, format: &str| {
        let (code, out, err) = run(&["show", file, "--turn", turn, "--format", format]);
        assert_eq!(code, 0, "{err}");
        out
    };
    // Turn 3, `2. c3-d4`, fails to capture: black may huff f4.
    let text = show("3", "text");
    assert!(text.contains("\nblack may huff f4\n"), "{text}");
    let svg = show("3", "svg");
    assert!(
        svg.contains(">black to move; black may huff f4</text>"),
        "{svg}"
    );
    let huffs: Vec<&str> = svg
        .lines()
        .filter(|l| l.contains("class=\"huff\""))
        .collect();
    assert_eq!(huffs.len(), 1, "{svg}");
    // f4: file 5, rank 4 (60 px apart, rank 7 at the top).
    assert!(huffs[0].contains("cx=\"360\" cy=\"240\""), "{}", huffs[0]);
    assert_eq!(marks(&svg, "last from"), ["c3: the last move started here"]);
    assert_eq!(marks(&svg, "last"), ["d4: the last move ended here"]);
    // Turn 8, `4... e5xc3xa3`: the chain's two captures are taken, and white may huff
    // the piece that stopped on a3.
    let svg = show("8", "svg");
    assert!(svg.contains("; white may huff a3</text>"), "{svg}");
    assert_eq!(marks(&svg, "last from"), ["e5: the last move started here"]);
    assert_eq!(
        marks(&svg, "last"),
        [
            "a3: the last move ended here",
            "b3: taken by the last turn",
            "d4: taken by the last turn"
        ]
    );
    // At the start nothing is pending.
    let svg = show("0", "svg");
    assert!(!svg.contains("class=\"huff\"") && !svg.contains("may huff"));
}

/// The Halves picture says, as the text does, that the contract swapped colours
/// (issue 34); before the contract it says nothing of a swap.
#[test]
fn halves_picture_mentions_the_contracts_swap() {
    let file = "games/halves/disputed-remove-enemy.game";
    let swapped = "the players swapped colours in the contract";
    let show = |turn: &str, format: &str| {
        let (code, out, err) = run(&["show", file, "--turn", turn, "--format", format]);
        assert_eq!(code, 0, "{err}");
        out
    };
    // Turn 1 is `swap`.
    assert!(show("1", "text").contains(swapped));
    let svg = show("1", "svg");
    assert!(
        svg.contains("class=\"swap\"") && svg.contains(&format!(">{swapped}</text>")),
        "{svg}"
    );
    assert!(!show("0", "text").contains(swapped));
    assert!(!show("0", "svg").contains("swapped"));
}
