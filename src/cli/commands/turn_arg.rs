//! `--turn`: a position named by how many turns were played (`--turn 3`), or by the turn
//! the record numbers so (`--turn 2.`, `--turn 2...`: after white's and after black's
//! move 2 where turns are numbered by rounds; `--turn 7.` is turn 7 elsewhere).

use std::str::FromStr;

use super::OneRecord;
use crate::cli::{Ctx, Failure, Render};
use crate::notation::record::TurnNumber;
use crate::referee::{judge, JudgeOptions};

/// A position asked for with `--turn`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TurnArg {
    /// After this many turns, every turn of every seat counted (0: the start).
    Index(usize),
    /// After the turn the record numbers so.
    Number(TurnNumber),
}

impl FromStr for TurnArg {
    type Err = String;
    fn from_str(s: &str) -> Result<TurnArg, String> {
        let bad = || {
            format!(
                "`{s}` is no turn: write how many turns were played (`3`), or the turn as \
                 the record numbers it (`2.` or `2...`)"
            )
        };
        let (digits, ellipsis) = match s.strip_suffix("...") {
            Some(d) => (d, Some(true)),
            None => match s.strip_suffix('.') {
                Some(d) => (d, Some(false)),
                None => (s, None),
            },
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: usize = digits.parse().map_err(|_| bad())?;
        Ok(match ellipsis {
            None => TurnArg::Index(n),
            Some(ellipsis) => TurnArg::Number(TurnNumber {
                n: u32::try_from(n).map_err(|_| bad())?,
                ellipsis,
            }),
        })
    }
}

/// How many turns `arg` asks to be played: an index as it is; a number found by
/// replaying the record and asking, before each turn, the number it carries.
pub(super) fn resolve<G: Render>(
    ctx: &Ctx,
    rec: &OneRecord,
    arg: Option<TurnArg>,
) -> Result<Option<usize>, Failure> {
    let wanted = match arg {
        None => return Ok(None),
        Some(TurnArg::Index(n)) => return Ok(Some(n)),
        Some(TurnArg::Number(number)) => number,
    };
    let opts = JudgeOptions {
        detail: false,
        stop_after: Some(0),
        breakdowns: false,
        first_line: 0,
    };
    let j = judge::<G>(&ctx.env, &rec.name, &rec.text, &rec.raw, rec.index, opts);
    let not_found = || {
        Failure::Usage(format!(
            "the record has no turn numbered {wanted} that the replay reaches"
        ))
    };
    let (Some(mut session), Some(movetext)) = (j.session, j.movetext) else {
        return Err(not_found());
    };
    for (i, entry) in movetext.entries.iter().enumerate() {
        if session.expected_number() == wanted {
            return Ok(Some(i + 1));
        }
        let address = match &entry.action {
            crate::notation::record::Action::BadAddress(s) => &rec.text[s.start..s.end],
            _ => "",
        };
        let played = session
            .check_frame(
                entry.number.map(|(n, _)| n),
                entry.label().map(|(l, _)| l.as_str()),
            )
            .and_then(|()| session.play(&entry.action, address));
        if played.is_err() {
            break;
        }
    }
    Err(not_found())
}
