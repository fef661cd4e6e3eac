//! [`most`](super::most::most) against the search it replaced, on random positions
//! (moved pieces, twins, declarations, bear-offs) and random mixed series.

use super::board::{HAND, KEEP, OFF, OPPOSITE};
use super::own::Own;
use super::search::Search;
use super::series::Unused;
use super::settings::Settings;

/// A random seat mid-turn: pieces anywhere (hand, off, keep, the opposite palace
/// likely), some moved, maybe a pair of twins.
fn random_own(dice: &mut crate::dice::Dice) -> Own {
    let mut own = Own {
        pos: [0; 4],
        twinned: 0,
        moved: 0,
    };
    for i in 0..4 {
        own.pos[i] = match dice.uniform(8) {
            0 => HAND,
            1 => OFF,
            2 => KEEP,
            3 | 4 => OPPOSITE,
            5 => KEEP - 1 - dice.uniform(4) as u8,
            _ => dice.uniform(25) as u8,
        };
        let on = own.pos[i] <= KEEP;
        if on && dice.uniform(4) == 0 {
            own.moved |= 1 << i;
        }
    }
    if dice.uniform(3) == 0 {
        let p = [OPPOSITE, 12, 20, 2][dice.uniform(4) as usize];
        own.pos[0] = p;
        own.pos[1] = p;
        own.twinned = 0b11;
        own.moved = (own.moved & !0b11) | if dice.uniform(4) == 0 { 0b11 } else { 0 };
    }
    own
}

fn random_throws(dice: &mut crate::dice::Dice, faces: &[u8], n: u32) -> Unused {
    let mut counts = [0u16; 9];
    for _ in 0..n {
        counts[faces[dice.uniform(faces.len() as u32) as usize] as usize] += 1;
    }
    Unused::of(&counts)
}

#[test]
fn most_agrees_with_the_search_it_replaced() {
    let mut dice = crate::dice::Dice::from_seed("most-check");
    let faces: [&[u8]; 4] = [
        &[1, 2, 3, 4, 8],
        &[1, 2, 3, 4],
        &[1, 1, 2, 8],
        &[1, 2, 3, 4, 5, 6, 8],
    ];
    for round in 0..6000 {
        let s = Settings {
            combine: round % 4 != 0,
            twins: round % 5 != 0,
            ..Settings::default()
        };
        let own = random_own(&mut dice);
        let n = 1 + dice.uniform(if s.combine { 10 } else { 14 });
        let throws = random_throws(&mut dice, faces[round % 4], n);
        let new = Search::default().best(&s, own, throws);
        let old = Search::default().best_walked(&s, own, throws);
        assert_eq!(new, old, "round {round}: {own:?} {throws:?} {s:?}");
    }
}

/// Where throws are never combined, `most` alone (which the search asks from three
/// throws on) against the walk, on short series as well as long ones.
#[test]
fn uncombined_most_agrees_with_the_walk() {
    let mut dice = crate::dice::Dice::from_seed("most-uncombined");
    let faces: [&[u8]; 3] = [&[1, 2, 3, 4, 8], &[1, 1, 2, 8], &[1, 2, 3, 4, 5, 6, 8]];
    for round in 0..6000 {
        let s = Settings {
            combine: false,
            twins: round % 5 != 0,
            ..Settings::default()
        };
        let own = random_own(&mut dice);
        let n = 1 + dice.uniform(9);
        let throws = random_throws(&mut dice, faces[round % 3], n);
        let new = super::most::most(&s, &own, throws);
        let old = Search::default().best_walked(&s, own, throws);
        assert_eq!(new, old, "round {round}: {own:?} {throws:?} {s:?}");
    }
    // Every placing of a pair of twins and two singles, with short series: the 1s a
    // turn can use go to singles, never to twins.
    let s = Settings {
        combine: false,
        ..Settings::default()
    };
    let series: [&[u8]; 4] = [&[8, 1, 1], &[2, 1, 1], &[4, 2, 1], &[3, 1, 1, 1]];
    for t in 1..KEEP {
        for a in (0..KEEP).step_by(3) {
            for b in [a, HAND, OFF, KEEP] {
                let own = Own {
                    pos: [t, t, a, b],
                    twinned: 0b11,
                    moved: 0,
                };
                for throws in series {
                    let mut counts = [0u16; 9];
                    for &v in throws {
                        counts[usize::from(v)] += 1;
                    }
                    let throws = Unused::of(&counts);
                    let new = super::most::most(&s, &own, throws);
                    let old = Search::default().best_walked(&s, own, throws);
                    assert_eq!(new, old, "{own:?} {throws:?}");
                }
            }
        }
    }
}

/// Bear-offs: all pieces in the keep or close to it, many 1s.
#[test]
fn most_agrees_on_bearing_off() {
    let mut dice = crate::dice::Dice::from_seed("most-off");
    for round in 0..3000 {
        let s = Settings {
            combine: round % 3 != 0,
            ..Settings::default()
        };
        let mut own = Own {
            pos: [0; 4],
            twinned: 0,
            moved: 0,
        };
        for i in 0..4 {
            own.pos[i] = match dice.uniform(5) {
                0 => OFF,
                1 | 2 => KEEP,
                3 => HAND,
                _ => KEEP - 1 - dice.uniform(6) as u8,
            };
        }
        if round % 4 == 1 {
            own.pos[0] = KEEP - 2;
            own.pos[1] = KEEP - 2;
            own.twinned = 0b11;
        }
        let faces: &[u8] = if round % 2 == 0 {
            &[1, 1, 1, 2, 3]
        } else {
            &[1, 2, 3, 4, 8]
        };
        let n = 1 + dice.uniform(12);
        let throws = random_throws(&mut dice, faces, n);
        let new = Search::default().best(&s, own, throws);
        let old = Search::default().best_walked(&s, own, throws);
        assert_eq!(new, old, "round {round}: {own:?} {throws:?}");
    }
}
