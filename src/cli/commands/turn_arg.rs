//! `--turn`'s record numbers ([`TurnArg::Number`]: `2.`, `2...`) turned into a count of
//! turns by replaying the record.

use super::OneRecord;
use crate::cli::args::TurnArg;
use crate::cli::{Ctx, Failure, Render};
use crate::referee::{judge, JudgeOptions};

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

/// Refuses a `--turn N` past the record's end (a usage error, exit 2, as a record number
/// that is not in the record is): the record has `turns` turns.
pub(super) fn within(turn: Option<usize>, turns: usize) -> Result<(), Failure> {
    match turn {
        Some(n) if n > turns => {
            let s = if turns == 1 { "" } else { "s" };
            Err(Failure::Usage(format!(
                "--turn {n} is past the end: the record has {turns} turn{s}"
            )))
        }
        _ => Ok(()),
    }
}
