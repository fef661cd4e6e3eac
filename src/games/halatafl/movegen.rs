//! Legal-turn generation: the capture chains of each piece, the other moves, and the
//! questions the end checks and judging ask of them (who can capture, is there a move).
//!
//! Everything works on bitboards and fixed-size [`Path`]s; nothing here allocates except
//! by pushing into the caller's `out`.

use std::ops::Range;

use super::board::{Board, FailedStep, Rank, State, StepCounts, UNKNOWN};
use super::geometry::{
    back, sq, Bits, Geometry, ALL_DIRS, BLACK_MAN, DELTA, FULL, MAN_THRONE_DIRS, THRONES, WHITE_MAN,
};
use super::settings::{Capture, Settings};
use super::win::wins;
use crate::notation::halatafl::{Move, Path, Promotion, Square, Turn, MAX_PATH};

/// `$f::<D>(args)` for each of the 8 directions `D`, combined with `|`: the shifts by
/// `DELTA[D]` are then constants.
macro_rules! each_dir {
    ($f:ident($($arg:expr),*)) => {
        $f::<0>($($arg),*)
            | $f::<1>($($arg),*)
            | $f::<2>($($arg),*)
            | $f::<3>($($arg),*)
            | $f::<4>($($arg),*)
            | $f::<5>($($arg),*)
            | $f::<6>($($arg),*)
            | $f::<7>($($arg),*)
    };
}

/// `$f::<D, MASK>(args)` for each of the 8 directions `D`, combined with `|`.
macro_rules! each_dir_in {
    ($m:expr, $f:ident($($arg:expr),*)) => {
        $f::<0, { $m }>($($arg),*)
            | $f::<1, { $m }>($($arg),*)
            | $f::<2, { $m }>($($arg),*)
            | $f::<3, { $m }>($($arg),*)
            | $f::<4, { $m }>($($arg),*)
            | $f::<5, { $m }>($($arg),*)
            | $f::<6, { $m }>($($arg),*)
            | $f::<7, { $m }>($($arg),*)
    };
}

/// One piece about to jump: what it may jump, where it may land and stop, and what
/// landing promotes it. A piece keeps its rank for the whole turn, so this is fixed for
/// the turn.
pub(crate) struct Jumper {
    pub(super) g: &'static Geometry,
    /// Directions it may jump in (mask over `DIRS`).
    pub(super) dirs: u8,
    /// The enemy pieces (jumped ones included: they stay until the turn ends).
    pub(super) enemy: u64,
    /// Every piece but the jumper itself: its starting point counts as empty.
    pub(super) occ: u64,
    /// Points where it may not end its turn (a man's own thrones).
    pub(crate) no_stop: u64,
    /// Points whose landing promotes it (also in passing).
    pub(crate) promo_at: u64,
    /// What that promotion makes.
    pub(crate) promo: Option<Promotion>,
}

impl Jumper {
    pub(crate) fn new(s: &Settings, b: &Board, side: usize, from: usize) -> Jumper {
        let g = s.geo();
        let (dirs, no_stop, promo_at, promo) = match b.rank_at(from) {
            Rank::Man => (
                g.man_dirs[side],
                THRONES[side],
                if s.promotion { THRONES[1 - side] } else { 0 },
                Some(Promotion::King),
            ),
            Rank::King => (
                ALL_DIRS,
                0,
                if s.emperor { THRONES[side] } else { 0 },
                Some(Promotion::Emperor),
            ),
            Rank::Emperor => (ALL_DIRS, 0, 0, None),
        };
        Jumper {
            g,
            dirs,
            enemy: b.side[1 - side],
            occ: b.occ() & !(1u64 << from),
            no_stop,
            promo_at,
            promo,
        }
    }

    /// The directions (mask over `DIRS`) of the legal short jumps from `pos` with
    /// `jumped` already taken, computed without a branch per direction. The jump in
    /// direction `d` goes over `pos + DELTA[d]` and lands on `pos + 2 * DELTA[d]`.
    #[inline(always)]
    fn hop_dirs(&self, pos: usize, jumped: u64) -> u8 {
        self.hop_dirs_in::<ALL_DIRS>(pos, jumped)
    }

    /// [`Jumper::hop_dirs`] for a jumper whose directions are among those of `DIRS` (a
    /// mask over `DIRS`): the others are not looked at.
    #[inline(always)]
    fn hop_dirs_in<const DIRS: u8>(&self, pos: usize, jumped: u64) -> u8 {
        /// Bit `D` set when `around` (a bitboard rotated so that `pos` is bit 0) has the
        /// point `pos + DELTA[D]` and `beyond` the point `pos + 2 * DELTA[D]`, when `D`
        /// is in `MASK`.
        #[inline(always)]
        fn dir<const D: usize, const MASK: u8>(around: u64, beyond: u64) -> u8 {
            if MASK & (1 << D) == 0 {
                return 0;
            }
            let k = DELTA[D] as i32;
            let hit = (around >> (k & 63)) & (beyond >> ((2 * k) & 63)) & 1;
            (hit as u8) << D
        }
        // Rotated, the points around `pos` are at constant bit offsets (mod 64); the
        // offsets that wrap around the board are masked off by `jump_dirs`.
        let takeable = (self.enemy & !jumped).rotate_right(pos as u32);
        let free = (!self.occ).rotate_right(pos as u32);
        let m = each_dir_in!(DIRS, dir(takeable, free));
        m & self.g.jump_dirs[pos] & self.dirs
    }

    /// Can the piece, standing on `pos` with `jumped` already taken, make a jump that
    /// counts? A jump onto a point where it may not stop (a man's own throne) counts only
    /// if it can jump on from there.
    pub(crate) fn can_continue(&self, pos: usize, jumped: u64) -> bool {
        for d in Bits(self.hop_dirs(pos, jumped) as u64) {
            let (o, l) = hop_points(pos, d);
            if self.no_stop & (1u64 << l) == 0 || self.can_continue(l, jumped | (1u64 << o)) {
                return true;
            }
        }
        false
    }

    /// The jumps that count from `pos`, as (jumped point, landing), in direction order.
    pub(crate) fn continuations(
        &self,
        pos: usize,
        jumped: u64,
    ) -> impl Iterator<Item = (usize, usize)> + '_ {
        Bits(self.hop_dirs(pos, jumped) as u64).filter_map(move |d| {
            let (o, l) = hop_points(pos, d);
            (self.no_stop & (1u64 << l) == 0 || self.can_continue(l, jumped | (1u64 << o)))
                .then_some((o, l))
        })
    }
}

/// The jumped point and the landing of a short jump from `pos` in direction `d`, known
/// to run along a line.
#[inline]
fn hop_points(pos: usize, d: usize) -> (usize, usize) {
    let k = DELTA[d] as isize;
    ((pos as isize + k) as usize, (pos as isize + 2 * k) as usize)
}

/// Appends every legal chain of one piece, depth first in direction order. With
/// `may_stop` every chain ending on a point where it may stop is legal (written before
/// its extensions); otherwise only chains that cannot go on. The piece's directions are
/// among those of `DIRS` (a mask over `DIRS`).
struct Chains<'a, const DIRS: u8> {
    j: Jumper,
    may_stop: bool,
    huff: Option<Square>,
    out: &'a mut Vec<Turn>,
}

impl<const DIRS: u8> Chains<'_, DIRS> {
    fn emit(&mut self, path: &Path, promoted: bool) {
        self.out.push(Turn {
            huff: self.huff,
            mv: Some(Move::Jump(*path)),
            promotion: if promoted { self.j.promo } else { None },
        });
    }

    /// Returns whether a jump that counts goes on from `pos`.
    fn walk(&mut self, pos: usize, jumped: u64, path: &mut Path, promoted: bool) -> bool {
        let stop_ok = path.hops() > 0 && self.j.no_stop & (1u64 << pos) == 0;
        if self.may_stop && stop_ok {
            self.emit(path, promoted);
        }
        let mut more = false;
        for d in Bits(self.j.hop_dirs_in::<DIRS>(pos, jumped) as u64) {
            let (o, l) = hop_points(pos, d);
            if !path.push(sq(l)) {
                continue;
            }
            let promo = promoted || self.j.promo_at & (1u64 << l) != 0;
            let onward = self.walk(l, jumped | (1u64 << o), path, promo);
            path.pop();
            if self.j.no_stop & (1u64 << l) == 0 || onward {
                more = true;
            }
        }
        if !self.may_stop && stop_ok && !more {
            self.emit(path, promoted);
        }
        more
    }
}

/// Appends the legal chains of the piece on `from`.
pub(crate) fn chains_from(
    s: &Settings,
    b: &Board,
    side: usize,
    from: usize,
    huff: Option<Square>,
    out: &mut Vec<Turn>,
) {
    /// The walk for a piece whose directions are among those of `DIRS`.
    fn walk_in<const DIRS: u8>(
        j: Jumper,
        from: usize,
        may_stop: bool,
        huff: Option<Square>,
        out: &mut Vec<Turn>,
    ) {
        let mut path = Path::new(sq(from));
        let mut gen = Chains::<DIRS> {
            j,
            may_stop,
            huff,
            out,
        };
        gen.walk(from, 0, &mut path, false);
    }
    let j = Jumper::new(s, b, side, from);
    let may_stop = s.chains_may_stop();
    // Men use five directions of eight unless they may move any way: the shifts of the
    // other three are left out.
    match j.dirs {
        WHITE_MAN => walk_in::<WHITE_MAN>(j, from, may_stop, huff, out),
        BLACK_MAN => walk_in::<BLACK_MAN>(j, from, may_stop, huff, out),
        _ => walk_in::<ALL_DIRS>(j, from, may_stop, huff, out),
    }
}

/// Counts the legal chains [`chains_from`] appends, without building them: the same
/// walk, without the path, the promotion or the turns.
struct ChainCount<const DIRS: u8> {
    j: Jumper,
    may_stop: bool,
    n: u32,
}

impl<const DIRS: u8> ChainCount<DIRS> {
    /// Returns whether a jump that counts goes on from `pos`, reached after `hops` jumps
    /// (as [`Chains::walk`]).
    fn walk(&mut self, pos: usize, jumped: u64, hops: usize) -> bool {
        let stop_ok = hops > 0 && self.j.no_stop & (1u64 << pos) == 0;
        if self.may_stop && stop_ok {
            self.n += 1;
        }
        let mut more = false;
        for d in Bits(self.j.hop_dirs_in::<DIRS>(pos, jumped) as u64) {
            // Where the path is full, `Chains::walk` goes no further.
            if hops + 1 >= MAX_PATH {
                continue;
            }
            let (o, l) = hop_points(pos, d);
            let jumped = jumped | (1u64 << o);
            let stop_here = self.j.no_stop & (1u64 << l) == 0;
            // Most landings end the chain: counted here, without a call.
            let onward = if hops + 2 >= MAX_PATH || self.j.hop_dirs_in::<DIRS>(l, jumped) == 0 {
                self.n += stop_here as u32;
                false
            } else {
                self.walk(l, jumped, hops + 1)
            };
            if stop_here || onward {
                more = true;
            }
        }
        if !self.may_stop && stop_ok && !more {
            self.n += 1;
        }
        more
    }
}

/// How many chains [`captures`] would append for the pieces of `jumpers`.
pub(crate) fn count_captures(s: &Settings, b: &Board, side: usize, jumpers: u64) -> u32 {
    fn count_in<const DIRS: u8>(j: Jumper, from: usize, may_stop: bool) -> u32 {
        let mut c = ChainCount::<DIRS> { j, may_stop, n: 0 };
        c.walk(from, 0, 0);
        c.n
    }
    let may_stop = s.chains_may_stop();
    let mut n = 0;
    for from in Bits(jumpers) {
        let j = Jumper::new(s, b, side, from);
        n += match j.dirs {
            WHITE_MAN => count_in::<WHITE_MAN>(j, from, may_stop),
            BLACK_MAN => count_in::<BLACK_MAN>(j, from, may_stop),
            _ => count_in::<ALL_DIRS>(j, from, may_stop),
        };
    }
    n
}

/// The points an emperor on `i` may slide to.
pub(super) fn slides(g: &Geometry, i: usize, occ: u64) -> u64 {
    let mut m = 0;
    for d in 0..8 {
        let mut p = i;
        while let Some(n) = g.step(p, d) {
            if occ & (1u64 << n) != 0 {
                break;
            }
            m |= 1u64 << n;
            p = n;
        }
    }
    m
}

/// The men of `side` that have a step onto a point of `to`, for all men at once.
#[inline]
pub(super) fn man_steppers(g: &Geometry, men: u64, side: usize, to: u64) -> u64 {
    #[inline(always)]
    fn dir<const D: usize>(from: &[u64; 8], to: u64) -> u64 {
        from[D] & back(to, DELTA[D])
    }
    men & each_dir!(dir(&g.man_step_from[side], to))
}

/// Appends every non-capturing move of `side`, pieces in point order, targets in point
/// order.
fn steps(s: &Settings, b: &Board, side: usize, huff: Option<Square>, out: &mut Vec<Turn>) {
    let g = s.geo();
    let occ = b.occ();
    let empty = !occ & FULL;
    let mine = b.side[side];
    let big = mine & (b.kings | b.emperors);
    // A man never stops on its own thrones.
    let man_to = empty & !THRONES[side];
    let man_promo_at = if s.promotion { THRONES[1 - side] } else { 0 };
    // Only men with a step, and the kings and emperors, have anything to list.
    let men = man_steppers(g, mine & !big, side, man_to);
    if big == 0 {
        // Men only, the usual case: no test of each piece's rank.
        for i in Bits(men) {
            let targets = g.man_step[side][i] & man_to;
            push_steps(out, huff, sq(i), targets, man_promo_at, Promotion::King);
        }
        return;
    }
    for i in Bits(men | big) {
        if big & (1u64 << i) == 0 {
            let targets = g.man_step[side][i] & man_to;
            push_steps(out, huff, sq(i), targets, man_promo_at, Promotion::King);
        } else if b.emperors & (1u64 << i) == 0 {
            let promo_at = if s.emperor { THRONES[side] } else { 0 };
            let targets = g.king_step[i] & empty;
            push_steps(out, huff, sq(i), targets, promo_at, Promotion::Emperor);
        } else {
            push_steps(out, huff, sq(i), slides(g, i, occ), 0, Promotion::Emperor);
        }
    }
}

/// Appends the steps from `from` to each point of `targets`, in point order; a step onto
/// a point of `promo_at` makes `promo`.
#[inline(always)]
fn push_steps(
    out: &mut Vec<Turn>,
    huff: Option<Square>,
    from: Square,
    targets: u64,
    promo_at: u64,
    promo: Promotion,
) {
    for t in Bits(targets) {
        out.push(Turn {
            huff,
            mv: Some(Move::Step { from, to: sq(t) }),
            promotion: (promo_at & (1u64 << t) != 0).then_some(promo),
        });
    }
}

/// The pieces of `side` that have a first short jump, found for all pieces at once with
/// bitboard shifts: `(sure, throne)`. `sure`: pieces with a jump onto a point where they
/// may stop (a jump that counts). `throne`: men with a jump onto one of their own
/// thrones, which counts only if they can jump on from there. Every piece with any
/// jump is in one of the two.
#[inline]
pub(super) fn hop_sources(g: &Geometry, b: &Board, side: usize) -> (u64, u64) {
    // The directions men use are known per setting and seat: the shifts of the others
    // (whose tables are empty) are left out.
    match (g.man_dirs[side], side) {
        (WHITE_MAN, _) => hop_sources_in::<WHITE_MAN, { MAN_THRONE_DIRS[0][0] }>(g, b, side),
        (BLACK_MAN, _) => hop_sources_in::<BLACK_MAN, { MAN_THRONE_DIRS[0][1] }>(g, b, side),
        (_, 0) => hop_sources_in::<ALL_DIRS, { MAN_THRONE_DIRS[1][0] }>(g, b, side),
        _ => hop_sources_in::<ALL_DIRS, { MAN_THRONE_DIRS[1][1] }>(g, b, side),
    }
}

/// [`hop_sources`] for men that jump in the directions of `MEN` and onto their own
/// thrones only in those of `THRONE` (masks over `DIRS`): the tables of the other
/// directions are empty. Which kinds of piece the seat has left picks one of three
/// loops, each shifting the enemy and the empty points once a direction for all of
/// them.
#[inline(always)]
fn hop_sources_in<const MEN: u8, const THRONE: u8>(
    g: &Geometry,
    b: &Board,
    side: usize,
) -> (u64, u64) {
    let men = b.men(side);
    let big = b.side[side] & !men;
    // Games end with kings only (a third of the turns of a typical record): the men's
    // tables are left out then, as the kings' are where there are none.
    match (men != 0, big != 0) {
        (true, true) => hop_sources_of::<MEN, THRONE, true, true>(g, b, side, men, big),
        (true, false) => hop_sources_of::<MEN, THRONE, true, false>(g, b, side, men, big),
        (false, true) => hop_sources_of::<MEN, THRONE, false, true>(g, b, side, men, big),
        (false, false) => (0, 0),
    }
}

/// [`hop_sources_in`] for a seat with men (`MEN_LEFT`) and kings or emperors
/// (`BIG_LEFT`), as said.
#[inline(always)]
fn hop_sources_of<const MEN: u8, const THRONE: u8, const MEN_LEFT: bool, const BIG_LEFT: bool>(
    g: &Geometry,
    b: &Board,
    side: usize,
    men: u64,
    big: u64,
) -> (u64, u64) {
    /// Adds the points from which a jump in direction `D` goes over an enemy piece to
    /// an empty point: for men where `D` is in `MEN` (onto a throne of theirs where it
    /// is in `THRONE`), and for kings and emperors, which jump every way.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn dir<const D: usize, const MEN: u8, const THRONE: u8, const ML: bool, const BL: bool>(
        g: &Geometry,
        side: usize,
        enemy: u64,
        empty: u64,
        men_sure: &mut u64,
        men_throne: &mut u64,
        big_sure: &mut u64,
    ) {
        let men_way = ML && MEN & (1 << D) != 0;
        let throne_way = ML && THRONE & (1 << D) != 0;
        if !(men_way || throne_way || BL) {
            return;
        }
        let k = DELTA[D];
        let over = back(enemy, k) & back(empty, 2 * k);
        if men_way {
            *men_sure |= g.man_jump_from[side][D] & over;
        }
        if throne_way {
            *men_throne |= g.man_jump_throne[side][D] & over;
        }
        if BL {
            *big_sure |= g.jump_from[D] & over;
        }
    }
    let enemy = b.side[1 - side];
    let empty = !b.occ() & FULL;
    let (mut ms, mut mt, mut bs) = (0, 0, 0);
    macro_rules! each {
        ($($d:literal)*) => {
            $(dir::<$d, MEN, THRONE, MEN_LEFT, BIG_LEFT>(
                g, side, enemy, empty, &mut ms, &mut mt, &mut bs,
            );)*
        };
    }
    each!(0 1 2 3 4 5 6 7);
    let sure = (men & ms) | (big & bs);
    (sure, men & mt & !sure)
}

/// Appends the capture chains of `side` on `b` (after `huff`, already removed from `b`)
/// from the pieces of `jumpers` (among them every piece with a capture); true if it
/// listed any.
pub(super) fn captures(
    s: &Settings,
    b: &Board,
    side: usize,
    huff: Option<Square>,
    jumpers: u64,
    out: &mut Vec<Turn>,
) -> bool {
    let before = out.len();
    for i in Bits(jumpers) {
        chains_from(s, b, side, i, huff, out);
    }
    out.len() > before
}

/// The step `from`-`to` of a listed step turn (the key the steps are sorted by).
fn step_points(t: &Turn) -> (usize, usize) {
    match t.mv {
        Some(Move::Step { from, to }) => (from.index(), to.index()),
        _ => unreachable!("a step turn is listed: {t}"),
    }
}

/// Appends the steps of `side` on `b` once the enemy piece on `h` is huffed, given the
/// steps without the huff, listed in `out[base]`: the same steps and the steps onto the
/// point the huff empties, in the same order (piece, then target), each with the huff.
/// Copying beats listing them again; only an emperor, whose slides may pass through `h`,
/// needs [`steps`] instead.
fn steps_after_huff(
    s: &Settings,
    b: &Board,
    side: usize,
    h: Square,
    base: Range<usize>,
    out: &mut Vec<Turn>,
) {
    let g = s.geo();
    let mine = b.side[side];
    let men_onto = man_steppers(g, b.men(side), side, h.bit() & !THRONES[side]);
    let kings_onto = mine & b.kings & g.king_step[h.index()];
    let start = out.len();
    let mut copied = base.start;
    for i in Bits(men_onto | kings_onto) {
        let at =
            copied + out[copied..base.end].partition_point(|t| step_points(t) < (i, h.index()));
        out.extend_from_within(copied..at);
        copied = at;
        let promotion = if men_onto & (1u64 << i) != 0 {
            (s.promotion && THRONES[1 - side] & h.bit() != 0).then_some(Promotion::King)
        } else {
            (s.emperor && THRONES[side] & h.bit() != 0).then_some(Promotion::Emperor)
        };
        out.push(Turn {
            huff: None,
            mv: Some(Move::Step { from: sq(i), to: h }),
            promotion,
        });
    }
    out.extend_from_within(copied..base.end);
    for t in &mut out[start..] {
        t.huff = Some(h);
    }
}

/// Every legal turn of the seat to move: plain moves, then for each huffable point (by
/// name) the huff alone if it wins, else the huff followed by each legal move. Each list
/// of moves is the captures first, then, unless a capture is compulsory and possible,
/// the other moves.
pub(crate) fn legal_turns(s: &Settings, st: &State, out: &mut Vec<Turn>) {
    if st.end.is_some() {
        return;
    }
    let side = st.to_move as usize;
    let compulsory = s.capture == Capture::Compulsory;
    // Where the steps without a huff are, if they were listed.
    let mut base = None;
    if !(captures(s, &st.board, side, None, st.capturers_of(s), out) && compulsory) {
        let before = out.len();
        steps(s, &st.board, side, None, out);
        base = Some(before..out.len());
    }
    let huffable = st.huffable(s);
    if huffable == 0 {
        return;
    }
    let emperors = st.board.side[side] & st.board.emperors != 0;
    for h in super::board::by_name(huffable) {
        let mut b = st.board;
        b.clear(h.bit());
        if wins(s, &b, side).is_some() {
            out.push(Turn {
                huff: Some(h),
                mv: None,
                promotion: None,
            });
            continue;
        }
        // Only pieces with a first jump have chains.
        let (sure, throne) = hop_sources(s.geo(), &b, side);
        if captures(s, &b, side, Some(h), sure | throne, out) && compulsory {
            continue;
        }
        match &base {
            Some(base) if !emperors => steps_after_huff(s, &b, side, h, base.clone(), out),
            _ => steps(s, &b, side, Some(h), out),
        }
    }
}

/// What may be huffed after the step `from`-`to` that failed to capture: the pieces
/// that could have captured (`caps`), followed to where they moved.
#[inline(always)]
pub(super) fn followed(caps: u64, from: Square, to: Square) -> u64 {
    if caps & from.bit() != 0 {
        (caps & !from.bit()) | to.bit()
    } else {
        caps
    }
}

impl State {
    /// Bitboard of the pieces the seat to move may huff this turn: [`State::huffable`],
    /// worked out where the position left it unknown (`State::huffable_after_step`).
    /// (Asked before every listed or random turn: inlined.)
    #[inline]
    pub fn huffable(&self, s: &Settings) -> u64 {
        match self.failed {
            Some(step) if self.huffable == UNKNOWN => self.huffable_after_step(s, step),
            _ => self.huffable,
        }
    }

    /// What may be huffed after `step`, the position's [`State::failed`]: the mover's
    /// capturers on the board before it, which the step is taken back to find, followed.
    #[inline(never)]
    fn huffable_after_step(&self, s: &Settings, step: FailedStep) -> u64 {
        let mover = 1 - self.to_move as usize;
        let mut before = self.board;
        before.clear(step.to.bit());
        before.put(step.from.index(), mover, step.rank);
        followed(capturers(s, &before, mover, false), step.from, step.to)
    }

    /// The points the seat to move may huff, sorted by name (file, then rank).
    pub fn huffable_squares(&self, s: &Settings) -> impl Iterator<Item = Square> {
        super::board::by_name(self.huffable(s))
    }

    /// The pieces of the seat to move that have a capture when it huffs nothing:
    /// [`State::capturers`], worked out here where the position left it unknown.
    #[inline]
    pub(crate) fn capturers_of(&self, s: &Settings) -> u64 {
        self.derived(s).0
    }

    /// [`State::capturers`] and [`State::steps`], worked out here where the position
    /// left them unknown.
    #[inline]
    pub(crate) fn derived(&self, s: &Settings) -> (u64, StepCounts) {
        if self.capturers == UNKNOWN {
            derive(s, &self.board, self.to_move as usize)
        } else {
            (self.capturers, self.steps)
        }
    }
}

/// The steps of `side` on `b` ([`StepCounts`]): the men's counted a direction at a time
/// (the men with a step that way are a shift of the targets against the men), kings'
/// and emperors' a piece at a time.
pub(crate) fn count_steps(s: &Settings, b: &Board, side: usize) -> StepCounts {
    // As in `hop_sources`: only the directions men use are shifted.
    let g = s.geo();
    match g.man_dirs[side] {
        WHITE_MAN => count_steps_in::<WHITE_MAN>(g, b, side),
        BLACK_MAN => count_steps_in::<BLACK_MAN>(g, b, side),
        _ => count_steps_in::<ALL_DIRS>(g, b, side),
    }
}

/// [`count_steps`] for men that step in the directions of `MEN` (a mask over `DIRS`).
#[inline(always)]
fn count_steps_in<const MEN: u8>(g: &Geometry, b: &Board, side: usize) -> StepCounts {
    /// The men of `men` with a step in direction `D` onto a point of `to`, when `D` is
    /// in `MASK`.
    #[inline(always)]
    fn dir<const D: usize, const MASK: u8>(from: &[u64; 8], men: u64, to: u64) -> u64 {
        if MASK & (1 << D) == 0 {
            return 0;
        }
        from[D] & men & back(to, DELTA[D])
    }
    let occ = b.occ();
    let empty = !occ & FULL;
    let mine = b.side[side];
    let big = mine & (b.kings | b.emperors);
    let men = mine & !big;
    // A man never stops on its own thrones.
    let to = empty & !THRONES[side];
    let from = &g.man_step_from[side];
    let mut n = byte_counts([
        dir::<0, MEN>(from, men, to),
        dir::<1, MEN>(from, men, to),
        dir::<2, MEN>(from, men, to),
        dir::<3, MEN>(from, men, to),
        dir::<4, MEN>(from, men, to),
        dir::<5, MEN>(from, men, to),
        dir::<6, MEN>(from, men, to),
        dir::<7, MEN>(from, men, to),
    ]);
    for i in Bits(big) {
        let targets = if b.emperors & (1u64 << i) == 0 {
            g.king_step[i] & empty
        } else {
            slides(g, i, occ)
        };
        n += u64::from(targets.count_ones()) << (8 * (i / 8));
    }
    StepCounts(n)
}

/// The set bits of eight bitboards together, by byte (at most 64 a byte), without a
/// popcount instruction (not in the baseline x86-64 target): each board's bits summed
/// in 4-bit fields (at most 4 each, so three boards' sums still fit), then in bytes.
#[inline(always)]
pub(crate) fn byte_counts(x: [u64; 8]) -> u64 {
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    #[inline(always)]
    fn nibbles(x: u64) -> u64 {
        let x = x - ((x >> 1) & M1);
        (x & M2) + ((x >> 2) & M2)
    }
    #[inline(always)]
    fn bytes(x: u64) -> u64 {
        (x & M4) + ((x >> 4) & M4)
    }
    let a = bytes(nibbles(x[0]) + nibbles(x[1]) + nibbles(x[2]));
    let b = bytes(nibbles(x[3]) + nibbles(x[4]) + nibbles(x[5]));
    let c = bytes(nibbles(x[6]) + nibbles(x[7]));
    a + b + c
}

/// What a position keeps of its seat to move ([`State::capturers`] and
/// [`State::steps`]): the pieces of `side` that have a capture, and its steps counted by
/// byte. The same as [`capturers`] and [`count_steps`], worked out together: the board's
/// sets and the choice of directions are made once.
pub(crate) fn derive(s: &Settings, b: &Board, side: usize) -> (u64, StepCounts) {
    let g = s.geo();
    let ((sure, throne), counts) = match (g.man_dirs[side], side) {
        (WHITE_MAN, _) => (
            hop_sources_in::<WHITE_MAN, { MAN_THRONE_DIRS[0][0] }>(g, b, side),
            count_steps_in::<WHITE_MAN>(g, b, side),
        ),
        (BLACK_MAN, _) => (
            hop_sources_in::<BLACK_MAN, { MAN_THRONE_DIRS[0][1] }>(g, b, side),
            count_steps_in::<BLACK_MAN>(g, b, side),
        ),
        (_, 0) => (
            hop_sources_in::<ALL_DIRS, { MAN_THRONE_DIRS[1][0] }>(g, b, side),
            count_steps_in::<ALL_DIRS>(g, b, side),
        ),
        _ => (
            hop_sources_in::<ALL_DIRS, { MAN_THRONE_DIRS[1][1] }>(g, b, side),
            count_steps_in::<ALL_DIRS>(g, b, side),
        ),
    };
    (sure | throne_capturers(s, b, side, throne, false), counts)
}

/// The men of `throne` (men of `side` with a jump onto one of their own thrones and no
/// other jump that counts) that can jump on from there. With `first_only` the search
/// may stop once one is found.
#[inline]
fn throne_capturers(s: &Settings, b: &Board, side: usize, throne: u64, first_only: bool) -> u64 {
    let mut m = 0;
    for i in Bits(throne) {
        if Jumper::new(s, b, side, i).can_continue(i, 0) {
            m |= 1u64 << i;
            if first_only {
                return m;
            }
        }
    }
    m
}

/// The pieces of `side` that have a capture (a jump that counts). With `first_only` the
/// search may stop once one is found: the result is then only right about being empty.
pub(crate) fn capturers(s: &Settings, b: &Board, side: usize, first_only: bool) -> u64 {
    let (m, throne) = hop_sources(s.geo(), b, side);
    if first_only && m != 0 {
        return m;
    }
    m | throne_capturers(s, b, side, throne, first_only)
}

/// Does a man of `side` have a step on `b`? The end checks ask this after every turn
/// and the answer is almost always yes, found in the first direction tried: the
/// directions are tried one at a time, forward first, where [`man_steppers`] would
/// shift all eight.
#[inline(always)]
fn man_can_step(g: &Geometry, b: &Board, side: usize) -> bool {
    #[inline(always)]
    fn dir<const D: usize>(from: &[u64; 8], men: u64, to: u64) -> bool {
        from[D] & men & back(to, DELTA[D]) != 0
    }
    // A man never stops on its own thrones.
    let to = !b.occ() & FULL & !THRONES[side];
    let (f, m, t) = (&g.man_step_from[side], b.men(side), to);
    // Forward first (N for white, S for black), then its diagonals, sideways, back.
    if side == 0 {
        dir::<0>(f, m, t)
            || dir::<4>(f, m, t)
            || dir::<5>(f, m, t)
            || dir::<2>(f, m, t)
            || dir::<3>(f, m, t)
            || dir::<1>(f, m, t)
            || dir::<6>(f, m, t)
            || dir::<7>(f, m, t)
    } else {
        dir::<1>(f, m, t)
            || dir::<6>(f, m, t)
            || dir::<7>(f, m, t)
            || dir::<2>(f, m, t)
            || dir::<3>(f, m, t)
            || dir::<0>(f, m, t)
            || dir::<4>(f, m, t)
            || dir::<5>(f, m, t)
    }
}

/// Does a piece of `side` have a step on `b` (a move that captures nothing)? The men
/// are asked first, then the kings and emperors one by one (an emperor that can slide
/// can step).
#[inline(always)]
pub(super) fn has_step(g: &Geometry, b: &Board, side: usize) -> bool {
    if man_can_step(g, b, side) {
        return true;
    }
    let empty = !b.occ() & FULL;
    Bits(b.side[side] & (b.kings | b.emperors)).any(|i| g.king_step[i] & empty != 0)
}

/// Does `side` have any legal move on `b` (no huff)? Any step or any capture will do:
/// whatever the settings, one of them is legal when it exists.
pub(crate) fn has_move(s: &Settings, b: &Board, side: usize) -> bool {
    has_step(s.geo(), b, side) || capturers(s, b, side, true) != 0
}

/// Does `side`, to move with these huffable points, have a legal turn?
pub(crate) fn has_turn(s: &Settings, b: &Board, side: usize, huffable: u64) -> bool {
    if has_move(s, b, side) {
        return true;
    }
    Bits(huffable).any(|h| {
        let mut after = *b;
        after.clear(1u64 << h);
        wins(s, &after, side).is_some() || has_move(s, &after, side)
    })
}
