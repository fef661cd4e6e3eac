//! The setup notation: `1mmmmm1/mmmmmmm/mmmmmmm/mmm1MMM/MMMMMMM/MMMMMMM/1MMMMM1 w -`.
//!
//! Ranks 7 down to 1 separated by `/`, each from file a to g: `M K E` white man, king,
//! emperor, `m k e` black, a digit 1–7 for a run of empty points (one digit, never two in
//! a row: every position has exactly one spelling). Then a single space and the seat to
//! move (`w`, `b`), a single space and the huffable points sorted by name (file, then
//! rank), comma-separated, or `-`.

use super::board::{by_name, Board, Rank, State};
use super::rules::{end_at_start, position};
use super::settings::{Capture, Settings};
use super::violation::{SetupFault, Violation};
use crate::games::Seat;
use crate::notation::halatafl::Square;

fn fault(f: SetupFault) -> Violation {
    Violation::Setup(f)
}

/// Parses a setup string; a position already decided comes back with its end.
pub(crate) fn parse(s: &Settings, text: &str) -> Result<State, Violation> {
    let fields: Vec<&str> = text.split(' ').collect();
    let [ranks, seat, huffs] = fields[..] else {
        return Err(fault(SetupFault::Fields));
    };
    if ranks.is_empty() || seat.is_empty() || huffs.is_empty() {
        return Err(fault(SetupFault::Fields));
    }
    let rows: Vec<&str> = ranks.split('/').collect();
    if rows.len() != 7 {
        return Err(fault(SetupFault::RankCount { found: rows.len() }));
    }
    let mut board = Board::default();
    for (k, row) in rows.iter().enumerate() {
        let r = 6 - k as u8;
        let rank_no = r + 1;
        let mut file = 0usize;
        let mut last_digit = false;
        for ch in row.chars() {
            if let Some(n) = ch.to_digit(10) {
                if n == 0 || last_digit {
                    return Err(fault(SetupFault::BadRun { rank: rank_no }));
                }
                last_digit = true;
                file += n as usize;
                continue;
            }
            last_digit = false;
            let (side, piece) = match ch {
                'M' => (0, Rank::Man),
                'K' => (0, Rank::King),
                'E' => (0, Rank::Emperor),
                'm' => (1, Rank::Man),
                'k' => (1, Rank::King),
                'e' => (1, Rank::Emperor),
                _ => return Err(fault(SetupFault::BadChar { rank: rank_no, ch })),
            };
            if let Some(at) = Square::new(file as u8, r) {
                match piece {
                    Rank::King if !s.promotion => return Err(fault(SetupFault::NoKings { at })),
                    Rank::Emperor if !s.emperor => {
                        return Err(fault(SetupFault::NoEmperors { at }))
                    }
                    _ => {}
                }
                board.put(at.index(), side, piece);
            }
            file += 1;
        }
        if file != 7 {
            return Err(fault(SetupFault::RankLength {
                rank: rank_no,
                points: file,
            }));
        }
    }
    for side in 0..2 {
        let count = board.count(side);
        if count > 22 {
            return Err(fault(SetupFault::TooMany {
                seat: Seat(side as u8),
                count,
            }));
        }
    }
    if board.occ() == 0 {
        return Err(fault(SetupFault::Empty));
    }
    let to_move: u8 = match seat {
        "w" => 0,
        "b" => 1,
        _ => {
            return Err(fault(SetupFault::SeatToMove {
                found: seat.to_string(),
            }))
        }
    };
    let mut huffable = 0u64;
    if huffs != "-" {
        if s.capture != Capture::CompulsoryHuff {
            return Err(fault(SetupFault::HuffDisabled));
        }
        let not_to_move = 1 - to_move as usize;
        let mut last: Option<Square> = None;
        for item in huffs.split(',') {
            let Some(at) = Square::parse(item) else {
                return Err(fault(SetupFault::HuffPoint {
                    text: item.to_string(),
                }));
            };
            if board.side[not_to_move] & at.bit() == 0 {
                return Err(fault(SetupFault::HuffPiece {
                    at,
                    seat: Seat(not_to_move as u8),
                }));
            }
            if let Some(prev) = last {
                if (prev.file(), prev.rank()) >= (at.file(), at.rank()) {
                    return Err(fault(SetupFault::HuffOrder { at }));
                }
            }
            last = Some(at);
            huffable |= at.bit();
        }
    }
    let mut st = position(s, board, to_move, huffable, 0, None);
    st.end = end_at_start(s, &st);
    Ok(st)
}

/// The setup string of a position.
pub(crate) fn write(s: &Settings, st: &State) -> String {
    let mut out = String::with_capacity(72);
    for r in (0..7u8).rev() {
        let mut run = 0u8;
        for f in 0..7u8 {
            let piece = Square::new(f, r).and_then(|at| st.board.piece_at(at));
            match piece {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        out.push((b'0' + run) as char);
                        run = 0;
                    }
                    let c = match p.rank {
                        Rank::Man => 'M',
                        Rank::King => 'K',
                        Rank::Emperor => 'E',
                    };
                    out.push(if p.seat.0 == 0 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
            }
        }
        if run > 0 {
            out.push((b'0' + run) as char);
        }
        if r > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(if st.to_move == 0 { 'w' } else { 'b' });
    out.push(' ');
    let huffable = st.huffable(s);
    if huffable == 0 {
        out.push('-');
    } else {
        for (i, at) in by_name(huffable).enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&at.to_string());
        }
    }
    out
}
