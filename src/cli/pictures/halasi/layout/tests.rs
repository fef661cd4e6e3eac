//! Tests of the Halasi layout picture and listing.

use super::*;
use crate::games::halasi::layout::Territory;
use crate::games::halasi::settings::STANDARD;
use crate::games::halasi::tiles::TileSet;
use crate::notation::halasi::{Address, Label};

fn set() -> TileSet {
    STANDARD.as_ref().clone()
}

/// Lays `(label, owner seat, tile name, q, r, rotation)` in order.
fn territories(list: &[(&str, u8, &str, i16, i16, u8)]) -> Layout {
    let set = set();
    let mut lay = Layout::default();
    for &(label, owner, tile, q, r, rotation) in list {
        let at = Pos { q, r };
        lay.check_territory(at)
            .expect("a free position next to the layout");
        let tile = set.index_of(tile).expect("a tile of the set");
        lay.add_territory(
            Territory {
                label: Label::new(label).expect("a label"),
                owner: Seat(owner),
                tile: tile as u8,
                market: set.tiles[tile].market,
                at,
                rotation,
            },
            &set,
        );
    }
    lay
}

fn address(lay: &Layout, text: &str) -> Tri {
    let (label, index) = text.split_once('.').expect("LABEL.N");
    lay.tri(&Address {
        label: Label::new(label).expect("a label"),
        index: index.parse().expect("an index"),
    })
    .expect("a triangle of the layout")
}

/// Places `RX@AM1.0/AM1.7` for `seat` in `turn`, on two uncovered neighbours.
fn place(lay: &mut Layout, text: &str, seat: u8, turn: u32) {
    let (domino, at) = text.split_once('@').expect("DOMINO@A/B");
    let (a, b) = at.split_once('/').expect("A/B");
    let marks: Vec<Marking> = domino
        .chars()
        .map(|c| Marking::from_symbol(c).expect("a marking"))
        .collect();
    let halves = [address(lay, a), address(lay, b)];
    assert!(lay.adjacent(halves[0], halves[1]), "{text}: not adjacent");
    assert!(
        halves.iter().all(|&t| lay.cover(t).is_none()),
        "{text}: covered"
    );
    lay.place(Placed {
        halves,
        marks: [marks[0], marks[1]],
        seat: Seat(seat),
        turn,
    });
}

/// M1 at (0,0) r0 (seat a's home), T1 at (1,0) r3 (bought by a), M2 at (0,1) r0
/// (seat b's home), and seven dominos of seats a and b, each half on its own
/// marking, two of them across territories.
fn sample() -> Layout {
    let mut lay = territories(&[
        ("AM1", 0, "M1", 0, 0, 0),
        ("AT1", 0, "T1", 1, 0, 3),
        ("BM2", 1, "M2", 0, 1, 0),
    ]);
    for (text, seat, turn) in [
        ("IU@AM1.0/AM1.7", 0, 5),
        ("OS@BM2.0/BM2.7", 1, 6),
        ("RQ@AM1.23/AM1.6", 0, 7),
        ("#T@AT1.12/AT1.13", 0, 7),
        ("QP@AT1.15/BM2.8", 1, 8),
        ("UY@BM2.9/AM1.20", 1, 8),
        ("94@AT1.14/AM1.21", 0, 9),
    ] {
        place(&mut lay, text, seat, turn);
    }
    lay
}

#[test]
fn text_lists_every_triangle_and_domino() {
    let lay = sample();
    let text = layout_text(&lay);
    assert!(text.ends_with('\n'));
    insta::assert_snapshot!("halasi_sample_layout_text", text);
}

#[test]
fn text_of_an_empty_layout() {
    assert_eq!(
        layout_text(&Layout::default()),
        "layout: 0 territories, 0 dominos\n"
    );
}

/// The points of the polygon of the triangle at `address`.
fn polygon(svg: &str, address: &str) -> Vec<(f64, f64)> {
    let key = format!("data-address=\"{address}\" points=\"");
    let at = svg.find(&key).expect("the triangle is drawn") + key.len();
    let end = at + svg[at..].find('"').expect("closed attribute");
    svg[at..end]
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').expect("x,y");
            (x.parse().expect("x"), y.parse().expect("y"))
        })
        .collect()
}

fn svg_centroid(svg: &str, address: &str) -> (f64, f64) {
    let p = polygon(svg, address);
    assert_eq!(p.len(), 3);
    (
        p.iter().map(|q| q.0).sum::<f64>() / 3.0,
        p.iter().map(|q| q.1).sum::<f64>() / 3.0,
    )
}

/// Tags open and close in order (a light well-formedness check).
fn balanced(svg: &str) -> Result<(), String> {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find('<') {
        let close = rest[open..].find('>').ok_or("an unclosed tag")? + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            match stack.pop() {
                Some(top) if top == name => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().ok_or("an empty tag")?;
            stack.push(name);
        }
    }
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed {stack:?}"))
    }
}

#[test]
fn svg_draws_every_triangle_domino_and_label() {
    let lay = sample();
    let svg = layout_svg(&lay, "sample & <layout>", &Panel::default());
    assert!(svg.starts_with("<svg "), "{}", &svg[..40]);
    assert!(svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<svg").count(), 1);
    balanced(&svg).unwrap();
    assert!(svg.contains("<title>sample &amp; &lt;layout&gt;</title>"));
    assert_eq!(svg.matches("<polygon class=\"tri\"").count(), lay.len());
    assert_eq!(lay.len(), 72);
    assert_eq!(svg.matches("<polygon class=\"domino\"").count(), 7);
    assert_eq!(svg.matches("<polygon class=\"hex\"").count(), 3);
    assert_eq!(svg.matches("<polygon class=\"market\"").count(), 2);
    assert_eq!(svg.matches("class=\"label\"").count(), 3);
    for label in ["AM1", "AT1", "BM2"] {
        assert!(svg.contains(&format!(">{label}</text>")), "{label}");
    }
    assert!(
        svg.contains("<title>AM1.7 · U (Hard) · covered by half U of IU, seat a, turn 5</title>")
    );
    assert!(svg.contains("<title>AM1.8 · R (Animal) · uncovered</title>"));
    assert!(svg.contains(
        "<title>BM2.0 · O (Hard) · market centre · covered by half O of OS, seat b, turn 6</title>"
    ));
    assert!(svg.contains(">seat a</text>") && svg.contains(">seat b</text>"));
    // Every marking is in its suit's colour: AM1.8 is R, Animal, red.
    let i = svg.find("data-address=\"AM1.8\"").unwrap();
    assert!(svg[i..i + 300].contains(&format!("fill=\"{}\">R<", suit_colour(Suit::Animal))));
}

/// M1 at (0,0); T1 north of it at (0,-1); T2 south-east at (1,0); M2 south at
/// (0,1); a long label north-west at (-1,0).
fn compass() -> Layout {
    let mut lay = territories(&[
        ("AM1", 0, "M1", 0, 0, 0),
        ("AT1", 0, "T1", 0, -1, 0),
        ("AT2", 0, "T2", 1, 0, 0),
        ("AM2", 0, "M2", 0, 1, 0),
        ("FT3LONGER", 5, "T3", -1, 0, 1),
    ]);
    // A domino of each seat, a to f.
    for (seat, text) in [
        "##@AT1.0/AT1.1",
        "TK@AT1.2/AT1.3",
        "K4@AT1.4/AT1.5",
        "QQ@AT1.6/AT1.7",
        "PR@AT1.8/AT1.9",
        "RI@AT1.10/AT1.11",
    ]
    .into_iter()
    .enumerate()
    {
        place(&mut lay, text, seat as u8, 10 + seat as u32);
    }
    lay
}

#[test]
fn svg_has_north_up() {
    let svg = layout_svg(&compass(), "north", &Panel::default());
    balanced(&svg).unwrap();
    let here = svg_centroid(&svg, "AM1.1");
    let north = svg_centroid(&svg, "AT1.1");
    let south_east = svg_centroid(&svg, "AT2.1");
    let south = svg_centroid(&svg, "AM2.1");
    assert!(north.1 < here.1, "north above: {north:?} {here:?}");
    assert!((north.0 - here.0).abs() < 1e-6);
    assert!(south.1 > here.1, "south below");
    assert!(south_east.0 > here.0 && south_east.1 > here.1, "south-east");
    // Within a territory: triangle 1 (at 90°) above triangle 4 (at 270°), triangle
    // 0 (30°) right of triangle 2 (150°).
    assert!(svg_centroid(&svg, "AM1.1").1 < svg_centroid(&svg, "AM1.4").1);
    assert!(svg_centroid(&svg, "AM1.0").0 > svg_centroid(&svg, "AM1.2").0);
    // The join north 9↔20: AM1.9 and AT1.20 share an edge in the picture too.
    let a = polygon(&svg, "AM1.9");
    let b = polygon(&svg, "AT1.20");
    let shared = a
        .iter()
        .filter(|p| b.iter().any(|q| dist(**p, *q) < 0.2))
        .count();
    assert_eq!(shared, 2, "{a:?} {b:?}");
}

#[test]
fn svg_of_an_empty_layout_is_still_a_picture() {
    let svg = layout_svg(&Layout::default(), "empty", &Panel::default());
    balanced(&svg).unwrap();
    assert!(svg.contains("no territories"));
    assert!(svg.contains("none yet"));
}

/// With `HALASI_SVG_DIR` set, writes the pictures there, to look at them.
#[test]
fn pictures_to_look_at() {
    let Some(dir) = std::env::var_os("HALASI_SVG_DIR") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let write = |name: &str, svg: String| std::fs::write(dir.join(name), svg).unwrap();
    write(
        "halasi-sample.svg",
        layout_svg(&sample(), "Halasi sample: AM1, AT1, BM2", &Panel::default()),
    );
    write(
        "halasi-north.svg",
        layout_svg(&compass(), "north up", &Panel::default()),
    );
    write(
        "halasi-empty.svg",
        layout_svg(&Layout::default(), "empty", &Panel::default()),
    );
}
