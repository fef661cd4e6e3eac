//! `check`'s verdict on a record that is valid, reached as the record is read: each turn
//! is played as the movetext reader reads it, and nothing of it is kept (no list of
//! entries, no judgement). It answers only "valid, with nothing to report"; anything
//! else (a header error, a warning, a start refused, a turn refused, a syntax error, a
//! declared result that does not fit) leaves the record to
//! [`judge`](super::replay::judge), which reads it again and says what and where. Its
//! report is the one `judge` makes of a valid record, field for field.

use crate::games::Game;
use crate::notation::record::{Action, Entry, RawRecord};

use super::replay::{check_result, prepare};
use super::{Env, Report, RulesetName};

/// The report on a valid record with nothing to report; `None` for any other record.
pub(super) fn valid_record<G: Game>(
    env: &Env,
    file: &str,
    text: &str,
    raw: &RawRecord,
    index: usize,
    first_line: usize,
    seed_key: Option<[u8; 32]>,
) -> Option<Report> {
    if !raw.header_errors.is_empty() || !super::tags::near_misses::<G>(text, &raw.header).is_empty()
    {
        return None;
    }
    // (Played where `prepare` left it: a session is a few hundred bytes.)
    let mut prepared = prepare::<G>(env, file, text, raw, first_line, seed_key);
    let Ok(session) = &mut prepared else {
        return None;
    };
    let (mut turns, mut played) = (0, true);
    let mut play = |entry: &Entry<G::Turn>| {
        let address = match &entry.action {
            Action::BadAddress(s) => &text[s.start..s.end],
            _ => "",
        };
        let number = entry.number.map(|(n, _)| n);
        let label = entry.label().map(|(l, _)| l.as_str());
        played = session.check_frame(number, label).is_ok()
            && session.play(&entry.action, address).is_ok();
        turns += 1;
        played
    };
    let movetext = G::parse_movetext_into(text, raw.movetext, &env.limits, Some(&mut play));
    if !played || movetext.error.is_some() {
        return None;
    }
    let mut errors = Vec::new();
    check_result::<G>(session, raw, &movetext, &mut errors);
    errors.is_empty().then(|| Report {
        index,
        game: Some(G::NAME.into()),
        ruleset: Some(RulesetName::Of(session.ruleset.clone())),
        valid: true,
        turns,
        status: Some(session.status_report()),
        errors,
        warnings: Vec::new(),
        span: raw.span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::record::{split, Limits};
    use crate::referee::replay::{judge, JudgeOptions};
    use crate::ruleset::Library;

    /// Every record of the shipped examples, valid and disputed, and variants of each
    /// that must be judged (a misspelt tag, a repeated tag, a wrong result, a turn cut
    /// short, a garbled turn, annotations after a turn and before any): wherever the quick verdict answers, it is `judge`'s report,
    /// and it answers for every record `judge` finds valid with nothing to report.
    #[test]
    fn the_quick_verdict_is_the_judgements_and_answers_for_every_clean_valid_record() {
        let env = Env::new(Library::new(Vec::new()));
        let limits = Limits::default();
        let (mut answered, mut left) = (0, 0);
        let mut paths: Vec<_> = std::fs::read_dir("games")
            .unwrap()
            .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
            .map(|f| f.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "game"))
            .collect();
        paths.sort();
        for path in paths {
            let original = std::fs::read_to_string(&path).unwrap();
            let variants = [
                original.clone(),
                original.replacen("[Game ", "[Reslt \"x\"]\n[Game ", 1),
                original.replacen("[Game ", "[Round \"1\"]\n[Round \"2\"]\n[Game ", 1),
                original.replace("[Result \"", "[Result \"draw\"]\n[X \""),
                original[..original.len() * 3 / 4].to_string(),
                original.replacen(" 2. ", " 2. ?? ", 1),
                original.replacen(" 3. ", " 4. ", 1),
                original.replacen(" 2. ", " $1 2. ", 1),
                original.replacen("\n1. ", "\n$1 1. ", 1),
            ];
            for text in &variants {
                let file = split(text, &limits);
                for (index, raw) in file.records.iter().enumerate() {
                    let Ok(game) = crate::referee::game_of(raw) else {
                        continue;
                    };
                    macro_rules! both {
                        ($($g:ty),* $(,)?) => {
                            match game {
                                $(<$g as Game>::NAME => (
                                    valid_record::<$g>(&env, "f", text, raw, index, 0, None),
                                    judge::<$g>(&env, "f", text, raw, index, JudgeOptions::default())
                                        .report,
                                ),)*
                                _ => unreachable!(),
                            }
                        };
                    }
                    let (quick, judged) = crate::games::registry::for_each_game!(both);
                    let clean = judged.valid && judged.warnings.is_empty();
                    let at = format!("{} record {index}", path.display());
                    match quick {
                        Some(q) => {
                            assert_eq!(format!("{q:?}"), format!("{judged:?}"), "{at}");
                            answered += 1;
                        }
                        None => {
                            assert!(!clean, "{at}: valid, yet left to the judgement");
                            left += 1;
                        }
                    }
                }
            }
        }
        assert!(
            answered > 50 && left > 50,
            "{answered} answered, {left} left"
        );
    }
}
