//! Choosing a uniformly random legal turn without listing every turn (random playouts,
//! `selfplay`): the turns are counted, the index is drawn as `legal_turns` followed by
//! `rng.uniform(len)` would draw it, and only the chosen turn is built.
//!
//! [`super::movegen::legal_turns`] lists sections, in order: the turns without a huff,
//! then for each huffable point, by name, the turns that begin with huffing it. A section
//! is a winning huff alone, or its capture chains (pieces in point order, each piece's
//! chains depth first) followed, unless a capture is compulsory and there is one, by its
//! steps (pieces in point order, targets in point order). Chains are counted by the
//! same walk as `legal_turns` makes, without building them, and a section's chains are
//! listed only where one of them is chosen; steps, most of the turns, are counted by
//! bitboards, and the chosen step is found by counting each piece's targets in the same
//! order.

use smallvec::SmallVec;

use super::board::{by_name, Board, State, StepCounts};
use super::geometry::{sq, Bits, FULL, THRONES};
use super::movegen::{captures, count_captures, count_steps, hop_sources, man_steppers, slides};
use super::settings::{Capture, Settings};
use super::win::wins;
use crate::dice::Dice;
use crate::notation::halatafl::{Move, Promotion, Square, Turn};

/// One section of the list: `listed` chains of the pieces of `jumpers` (or, for a
/// winning huff, the huff alone), then `steps` steps (`counts` by byte, where they are
/// listed).
#[derive(Copy, Clone)]
struct Section {
    huff: Option<Square>,
    wins: bool,
    jumpers: u64,
    listed: u32,
    steps: u32,
    counts: StepCounts,
}

impl Section {
    /// The `k`-th turn of the section (from 0), on `b` (before the huff); `k` is below
    /// `listed + steps`. A chain is listed, with the others of the section, into
    /// `scratch`.
    fn nth(&self, s: &Settings, b: &Board, side: usize, k: u32, scratch: &mut Vec<Turn>) -> Turn {
        if self.wins {
            return Turn {
                huff: self.huff,
                mv: None,
                promotion: None,
            };
        }
        let mut b = *b;
        if let Some(h) = self.huff {
            b.clear(h.bit());
        }
        if k < self.listed {
            scratch.clear();
            captures(s, &b, side, self.huff, self.jumpers, scratch);
            debug_assert_eq!(scratch.len(), self.listed as usize);
            return scratch[k as usize];
        }
        nth_step(s, &b, side, self.huff, k - self.listed, self.counts)
    }
}

/// The turn `legal_turns(st)[rng.uniform(len)]` is, drawn the same way; `None` (and no
/// draw) when there is none. The chains are counted, and listed into `scratch` only
/// where one is chosen.
pub(crate) fn random_turn(
    s: &Settings,
    st: &State,
    rng: &mut Dice,
    scratch: &mut Vec<Turn>,
) -> Option<Turn> {
    if st.end.is_some() {
        return None;
    }
    let side = st.to_move as usize;
    let compulsory = s.capture == Capture::Compulsory;
    let (capturers, counts) = st.derived(s);
    let chains = if capturers == 0 {
        0
    } else {
        count_captures(s, &st.board, side, capturers)
    };
    let steps = if chains > 0 && compulsory {
        0
    } else {
        counts.total()
    };
    let plain = Section {
        huff: None,
        wins: false,
        jumpers: capturers,
        listed: chains,
        steps,
        counts,
    };
    let huffable = st.huffable(s);
    if huffable == 0 {
        let total = chains + steps;
        if total == 0 {
            return None;
        }
        let k = rng.uniform(total);
        return Some(plain.nth(s, &st.board, side, k, scratch));
    }
    let mut sections: SmallVec<[Section; 8]> = SmallVec::new();
    sections.push(plain);
    let mut total = chains + steps;
    let emperors = st.board.side[side] & st.board.emperors != 0;
    for h in by_name(huffable) {
        let mut b = st.board;
        b.clear(h.bit());
        let sec = if wins(s, &b, side).is_some() {
            Section {
                huff: Some(h),
                wins: true,
                jumpers: 0,
                listed: 1,
                steps: 0,
                counts: StepCounts(0),
            }
        } else {
            let (sure, throne) = hop_sources(s.geo(), &b, side);
            let jumpers = sure | throne;
            let chains = if jumpers == 0 {
                0
            } else {
                count_captures(s, &b, side, jumpers)
            };
            let counts = if chains > 0 && compulsory {
                StepCounts(0)
            } else if emperors {
                count_steps(s, &b, side)
            } else {
                counts_after_huff(s, &b, side, h, counts)
            };
            Section {
                huff: Some(h),
                wins: false,
                jumpers,
                listed: chains,
                steps: counts.total(),
                counts,
            }
        };
        total += sec.listed + sec.steps;
        sections.push(sec);
    }
    if total == 0 {
        return None;
    }
    let mut k = rng.uniform(total);
    for sec in &sections {
        if k < sec.listed + sec.steps {
            return Some(sec.nth(s, &st.board, side, k, scratch));
        }
        k -= sec.listed + sec.steps;
    }
    unreachable!("the drawn index {k} is beyond the turns counted")
}

/// The steps of `side` on `b`, where the enemy piece on `h` was just huffed, given
/// `counts`, its steps before the huff ([`StepCounts`]): the same steps and one more for
/// each man or king with a step onto `h`, which the huff emptied (as `legal_turns` copies
/// the steps without the huff, and for the same reason). Not with an emperor of `side`,
/// whose slides may pass through `h`.
pub(super) fn counts_after_huff(
    s: &Settings,
    b: &Board,
    side: usize,
    h: Square,
    counts: StepCounts,
) -> StepCounts {
    let g = s.geo();
    let onto = man_steppers(g, b.men(side), side, h.bit() & !THRONES[side])
        | (b.side[side] & b.kings & g.king_step[h.index()]);
    let mut n = counts.0;
    for i in Bits(onto) {
        n += 1 << (8 * (i / 8));
    }
    StepCounts(n)
}

/// The `k`-th step (from 0) of `side` on `b` in the order `steps` lists them (pieces in
/// point order, each one's targets in point order), each with `huff`; `counts` are the
/// steps' [`StepCounts`] and `k` is below their total. The counts by byte lead straight
/// to the eight points where the piece stands; only those are looked at one by one.
fn nth_step(
    s: &Settings,
    b: &Board,
    side: usize,
    huff: Option<Square>,
    k: u32,
    counts: StepCounts,
) -> Turn {
    let g = s.geo();
    let occ = b.occ();
    let empty = !occ & FULL;
    let mine = b.side[side];
    let big = mine & (b.kings | b.emperors);
    let man_to = empty & !THRONES[side];
    let (pieces, mut k) = match counts.locate(k) {
        Some((byte, k)) => (mine & (0xFFu64 << (8 * byte)), k),
        None => (mine, k),
    };
    for i in Bits(pieces) {
        let bit = 1u64 << i;
        let (targets, promo_at, promo) = if big & bit == 0 {
            let promo_at = if s.promotion { THRONES[1 - side] } else { 0 };
            (g.man_step[side][i] & man_to, promo_at, Promotion::King)
        } else if b.emperors & bit == 0 {
            let promo_at = if s.emperor { THRONES[side] } else { 0 };
            (g.king_step[i] & empty, promo_at, Promotion::Emperor)
        } else {
            (slides(g, i, occ), 0, Promotion::Emperor)
        };
        let n = targets.count_ones();
        if k < n {
            let t = nth_bit(targets, k);
            return Turn {
                huff,
                mv: Some(Move::Step {
                    from: sq(i),
                    to: sq(t),
                }),
                promotion: (promo_at & (1u64 << t) != 0).then_some(promo),
            };
        }
        k -= n;
    }
    unreachable!("step {k} is beyond the steps counted")
}

/// The index of the `k`-th set bit (from 0, lowest first) of `x`, which has more.
#[inline]
fn nth_bit(mut x: u64, k: u32) -> usize {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros() as usize
}
