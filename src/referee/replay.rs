//! Judging one record: prepare its game (ruleset, overrides, seed, setup), replay every
//! turn, stop at the first violation, check the declared result.

use std::sync::Arc;

use crate::games::{seat_name, Game, SeatSet, Status};
use crate::notation::record::{self, Action, Movetext, RawRecord, Span, Termination};
use crate::quote::quote;
use crate::ruleset::{self, Location, Origin, Override, RuleText, Ruleset, Setting};

use super::session::{Numbering, Refusal, Session};
use super::{Diagnostic, Env, ErrorKind, Report, RulesetName};

/// How one turn was judged (for `adjudicate`).
#[derive(Clone, Debug)]
pub struct TurnVerdict {
    /// 1-based.
    pub turn: usize,
    /// As the record numbers it (`2...`) and named for people (`move 2, black`).
    pub number: String,
    pub name: String,
    pub seat: &'static str,
    /// The turn as written.
    pub text: String,
    pub span: Span,
    pub legal: bool,
    /// A remark on a legal turn ("white failed to capture; black may huff c3").
    pub note: Option<String>,
}

/// The first violation, with what a tournament director needs to rule on it.
#[derive(Debug)]
pub struct ViolationDetail<G: Game> {
    pub turn: usize,
    /// The turn named as the record numbers it (`move 2, black`, `turn 3`).
    pub name: String,
    pub span: Span,
    pub refusal: Refusal<G>,
    /// The game just before the illegal turn.
    pub before: Session<G>,
    /// The legal turns there, in the notation, sorted.
    pub legal: Vec<String>,
    /// How the illegal turn scores with its claim ignored (Halasi: the ruling on a
    /// wrong claim shows it).
    pub breakdown: Option<G::Breakdown>,
    pub rule_text: Option<RuleText>,
    /// The setting that made the rule apply, and where it was set.
    pub setting: Option<(String, Setting)>,
}

/// Everything known about a record after judging it.
#[derive(Debug)]
pub struct Judgement<G: Game> {
    pub report: Report,
    /// Every turn judged, in order (filled when `detail` is asked for).
    pub verdicts: Vec<TurnVerdict>,
    /// Each scored turn's breakdown, by turn (1-based; filled when `breakdowns` is asked
    /// for), legal turns and the illegal one alike.
    pub breakdowns: Vec<(usize, G::Breakdown)>,
    /// Boxed: the detail holds a whole session, and a judgement is moved whole on the way
    /// out of `judge`, for every record, where nearly none has a violation.
    pub violation: Option<Box<ViolationDetail<G>>>,
    /// The game where the replay stopped: after the last turn, after turn `stop_after`,
    /// or just before the first violation. `None` when it could not start.
    pub session: Option<Session<G>>,
    pub movetext: Option<Movetext<G::Turn>>,
}

/// Options for [`judge`].
#[derive(Copy, Clone, Debug, Default)]
pub struct JudgeOptions {
    /// Record verdicts and violation details (`adjudicate`).
    pub detail: bool,
    /// Stop after this many turns (`--turn N`).
    pub stop_after: Option<usize>,
    /// Explain each turn's score (`score`, `adjudicate`).
    pub breakdowns: bool,
    /// The line of the file (0-based) on which `text` starts: a record `check` reads
    /// from a stream is judged in its own text, and the places that messages name (an
    /// `Options` tag's setting) count the file's lines.
    pub first_line: usize,
}

/// Judges one record of game `G`. `file` is the record file's display name (cited by
/// rulings for the `Options` tag).
pub fn judge<G: Game>(
    env: &Env,
    file: &str,
    text: &str,
    raw: &RawRecord,
    index: usize,
    options: JudgeOptions,
) -> Judgement<G> {
    let mut errors: Vec<Diagnostic> = raw
        .header_errors
        .iter()
        .map(|e| Diagnostic::new(e.kind.into(), Some(e.span), e.message.clone()))
        .collect();
    let mut warnings = super::tags::near_misses::<G>(text, &raw.header);
    if env.strict {
        errors.append(&mut warnings);
    }
    let mut report = Report {
        index,
        game: Some(G::NAME.into()),
        ruleset: None,
        valid: false,
        turns: 0,
        status: None,
        errors: Vec::new(),
        warnings,
        span: raw.span,
    };
    let movetext = G::parse_movetext(text, raw.movetext, &env.limits);
    report.turns = movetext.entries.len();
    let mut judgement = Judgement {
        report,
        verdicts: Vec::new(),
        breakdowns: Vec::new(),
        violation: None,
        session: None,
        movetext: None,
    };

    let session = match prepare::<G>(env, file, text, raw, options.first_line, None) {
        Ok(s) => Some(s),
        Err(mut ds) => {
            errors.append(&mut ds);
            None
        }
    };
    if let Some(mut session) = session {
        judgement.report.ruleset = Some(RulesetName::Of(session.ruleset.clone()));
        let complete = replay(
            &mut session,
            text,
            &movetext,
            options,
            &mut judgement,
            &mut errors,
        );
        if complete && errors.is_empty() && movetext.error.is_none() {
            check_result::<G>(&session, raw, &movetext, &mut errors);
        }
        judgement.report.status = Some(session.status_report());
        judgement.session = Some(session);
    } else {
        let name = raw.header.value("Ruleset").unwrap_or(G::NAME);
        judgement.report.ruleset = Some(RulesetName::Written(name.to_string()));
    }
    if let Some(e) = &movetext.error {
        errors.push(Diagnostic::new(
            e.kind.into(),
            Some(e.span),
            e.message.clone(),
        ));
    }
    errors.sort_by_key(|d| d.span.map(|s| s.start).unwrap_or(0));
    judgement.report.valid = errors.is_empty();
    judgement.report.errors = errors;
    judgement.movetext = Some(movetext);
    judgement
}

/// Replays the movetext; returns whether every turn was played.
fn replay<G: Game>(
    session: &mut Session<G>,
    text: &str,
    movetext: &Movetext<G::Turn>,
    options: JudgeOptions,
    judgement: &mut Judgement<G>,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    for (i, entry) in movetext.entries.iter().enumerate() {
        if options.stop_after.is_some_and(|n| i >= n) {
            return false;
        }
        let turn_no = i + 1;
        let frame = session.check_frame(
            entry.number.map(|(n, _)| n),
            entry.label().map(|(l, _)| l.as_str()),
        );
        // What only a ruling needs (the turn's name, the game before it) is worked out
        // only for a ruling: `check` of a valid record formats and clones nothing.
        let before = options.detail.then(|| session.clone());
        let address = match &entry.action {
            Action::BadAddress(s) => &text[s.start..s.end],
            _ => "",
        };
        let breakdown = match (&frame, &entry.action) {
            (Ok(()), Action::Play(t)) if options.breakdowns => session.breakdown(t),
            _ => None,
        };
        if let Some(b) = &breakdown {
            judgement.breakdowns.push((turn_no, b.clone()));
        }
        let outcome = frame.and_then(|()| session.play(&entry.action, address));
        match outcome {
            Ok(()) => {
                if options.detail {
                    let before = before.expect("kept with detail");
                    // The seat that played: where the order was open, the label's.
                    let seat = session
                        .last_mover()
                        .or(before.to_move())
                        .map(seat_name::<G>)
                        .unwrap_or("-");
                    let (number, name) = before.turn_name();
                    let note = match &entry.action {
                        Action::Play(t) => {
                            G::note(&session.settings, &before.state, &session.state, t)
                        }
                        _ => None,
                    };
                    judgement.verdicts.push(TurnVerdict {
                        turn: turn_no,
                        number,
                        name,
                        seat,
                        text: text[entry.span.start..entry.span.end].to_string(),
                        span: entry.span,
                        legal: true,
                        note,
                    });
                }
            }
            Err(refusal) => {
                let refusal = *refusal;
                // A refused turn leaves the game as it was: it names the turn due.
                let seat = session.to_move().map(seat_name::<G>).unwrap_or("-");
                let (number, name) = session.turn_name();
                // Point at what is wrong: the number or label for turn-order, the bad
                // address for `address`, the turn otherwise.
                let span = match (&refusal, &entry.action) {
                    (Refusal::Number { .. }, _) => {
                        entry.number.map(|(_, s)| s).unwrap_or(entry.span)
                    }
                    (Refusal::Label { .. } | Refusal::LabelRule(_), _) => {
                        entry.label().map(|(_, s)| *s).unwrap_or(entry.span)
                    }
                    (Refusal::Address { .. }, Action::BadAddress(s)) => *s,
                    _ => entry.span,
                };
                let hint = match &refusal {
                    Refusal::Rule(v) => G::hint(&session.settings, &session.state, v),
                    Refusal::Number { expected, .. } => {
                        Some(format!("write `{expected}` or leave the number out"))
                    }
                    _ => None,
                };
                let rule = refusal.rule();
                let rule_text = rule.and_then(|r| session.ruleset.rule(r).cloned());
                let setting = rule
                    .and_then(|r| session.ruleset.cited_setting(G::schema(), r))
                    .and_then(|k| {
                        session
                            .ruleset
                            .settings
                            .get(k)
                            .map(|s| (k.to_string(), s.clone()))
                    });
                errors.push(Diagnostic {
                    kind: refusal.kind(),
                    turn: Some(turn_no),
                    number: Some(number.clone()),
                    name: Some(name.clone()),
                    span: Some(span),
                    rule: rule.map(str::to_string),
                    message: refusal.to_string(),
                    hint,
                    rule_text: rule_text.clone(),
                    setting: setting.clone(),
                });
                if options.detail {
                    judgement.verdicts.push(TurnVerdict {
                        turn: turn_no,
                        number,
                        name: name.clone(),
                        seat,
                        text: text[entry.span.start..entry.span.end].to_string(),
                        span: entry.span,
                        legal: false,
                        note: None,
                    });
                    let mut turns = Vec::new();
                    let written = match &entry.action {
                        Action::Play(turn) => G::written_chance(turn),
                        _ => None,
                    };
                    session.legal_turns_for(written.as_deref(), &mut turns);
                    let mut legal: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
                    legal.sort();
                    judgement.violation = Some(Box::new(ViolationDetail {
                        turn: turn_no,
                        name,
                        span,
                        refusal,
                        before: session.clone(),
                        legal,
                        breakdown,
                        rule_text,
                        setting,
                    }));
                }
                return false;
            }
        }
    }
    true
}

/// Loads the ruleset, applies overrides, checks the seed, parses the setup, starts.
/// `text` starts on line `first_line` (0-based) of `file`; `seed_key` is the SHA-256 of
/// its `Seed` where it was hashed already.
pub(super) fn prepare<G: Game>(
    env: &Env,
    file: &str,
    text: &str,
    raw: &RawRecord,
    first_line: usize,
    seed_key: Option<[u8; 32]>,
) -> Result<Session<G>, Vec<Diagnostic>> {
    let header = &raw.header;
    let ruleset_tag = header.get("Ruleset");
    let tag_span = ruleset_tag.map(|t| t.value_span);
    // The error's text names its file, line and column, and its did-you-mean; the place
    // once only: not again when the diagnostic points at it in this record.
    let ruleset_error = |e: ruleset::RulesetError, span: Option<Span>| {
        let message = if span.is_some() && e.file == file {
            e.what()
        } else {
            e.to_string()
        };
        Diagnostic::new(ErrorKind::Ruleset, span, message)
    };
    // 1. The ruleset: --ruleset FILE, else the tag's name, else the game's own.
    let loaded = match (&env.ruleset_file, ruleset_tag) {
        (Some(_), _) => env.load(None),
        (None, Some(tag)) => env.load_tagged(tag.value),
        (None, None) => env.load(Some(G::NAME)),
    };
    let loaded = loaded.map_err(|e| vec![ruleset_error(e, tag_span)])?;
    let base: &Arc<Ruleset> = &loaded.ruleset;
    if base.game != G::NAME {
        return Err(vec![Diagnostic::new(
            ErrorKind::Ruleset,
            tag_span.or(header.get("Game").map(|t| t.value_span)),
            format!(
                "the ruleset `{}` is for {}, but the record is a game of {}",
                base.name,
                base.game,
                G::NAME
            ),
        )]);
    }
    // 2. Overrides: the command line, then the Options tag, then the Seats tag.
    // Built only when a tag needs a location: a file of many records must not index
    // its whole text once per record.
    let lines = std::cell::OnceCell::new();
    let location = |offset: usize| {
        let (line, column) = lines
            .get_or_init(|| record::LineIndex::new(text))
            .line_col(text, offset);
        Location {
            file: file.to_string(),
            line: (first_line + line) as u32,
            column: column as u32,
        }
    };
    let mut overrides: Vec<Override> = env.cli_overrides_for(G::schema());
    let mut override_spans: Vec<Option<Span>> = vec![None; overrides.len()];
    if let Some(tag) = header.get("Options") {
        match ruleset::parse_options_tag(tag.value) {
            Ok(items) => {
                for (key, value, offset) in items {
                    // The tag's value has its escapes resolved; offsets map back exactly
                    // unless the value holds escapes, where they are close enough.
                    let at = (tag.value_span.start + offset).min(tag.value_span.end);
                    let loc = location(at);
                    overrides.push(Override {
                        key,
                        value,
                        origin: Origin::Options(loc.clone()),
                        file: loc.file.clone(),
                        line: loc.line,
                        column: loc.column,
                        value_column: loc.column,
                    });
                    override_spans.push(Some(Span::new(at, tag.value_span.end)));
                }
            }
            Err((offset, message)) => {
                let at = (tag.value_span.start + offset).min(tag.value_span.end);
                return Err(vec![Diagnostic::new(
                    ErrorKind::Ruleset,
                    Some(Span::new(at, tag.value_span.end)),
                    format!("in the Options tag: {message}"),
                )]);
            }
        }
    }
    if let Some(tag) = header.get("Seats") {
        let loc = location(tag.value_span.start);
        overrides.push(Override {
            key: "seats".into(),
            value: format!(
                "[{}]",
                tag.value.split_whitespace().collect::<Vec<_>>().join(" ")
            ),
            origin: Origin::SeatsTag(loc.clone()),
            file: loc.file.clone(),
            line: loc.line,
            column: loc.column,
            value_column: loc.column,
        });
        override_spans.push(Some(tag.value_span));
    }
    let ruleset = if overrides.is_empty() {
        None
    } else {
        let placed = |errs: Vec<ruleset::RulesetError>| {
            errs.into_iter()
                .map(|e| {
                    // The override the error is in: on its line, the last one that
                    // starts at or before the error's column.
                    let span = overrides
                        .iter()
                        .rposition(|o| o.file == e.file && o.line == e.line && o.column <= e.column)
                        .and_then(|i| override_spans[i]);
                    ruleset_error(e, span)
                })
                .collect::<Vec<_>>()
        };
        let mut ruleset =
            ruleset::apply_overrides(base, G::schema(), &overrides).map_err(placed)?;
        // A data setting the overrides changed (Halasi's `tile-set`) names another file.
        env.library
            .load_data(&mut ruleset, G::schema())
            .map_err(placed)?;
        Some(Arc::new(ruleset))
    };
    // 3. The seed and its commitment. The seed is hashed once (here, or with others
    // before): its key makes the dice.
    let key = header.value("Seed").map(|seed| {
        let key = seed_key.unwrap_or_else(|| crate::dice::seed_key(seed));
        debug_assert_eq!(key, crate::dice::seed_key(seed), "the key of another seed");
        key
    });
    // (Where the commitment is the key's hex, as it mostly is, it is well formed too.)
    let committed_to = |commit: &str| {
        key.as_ref()
            .is_some_and(|k| crate::dice::commits_to(commit, k))
    };
    if let Some(commit) = header.get("SeedCommit").filter(|c| !committed_to(c.value)) {
        let Some(committed) = crate::dice::commit_key(commit.value) else {
            return Err(vec![Diagnostic::new(
                ErrorKind::Header,
                Some(commit.value_span),
                "SeedCommit must be the lowercase hex SHA-256 of the seed (64 characters 0-9a-f)",
            )]);
        };
        if let Some(key) = &key {
            if committed != *key {
                let actual = crate::dice::key_hex(key);
                return Err(vec![Diagnostic::new(
                    ErrorKind::Dice,
                    header.get("Seed").map(|t| t.value_span),
                    format!("the Seed does not match the SeedCommit published before play: its SHA-256 is {actual}"),
                )]);
            }
        }
    }
    // 4. The setup, then the start. The loaded ruleset's settings are derived once and
    // shared; those of a ruleset the overrides made, afresh.
    let (ruleset, numbering, settings) = match ruleset {
        Some(r) => {
            let (numbering, settings) = (Numbering::of(&r), G::settings(&r));
            (r, numbering, settings)
        }
        None => (
            loaded.ruleset.clone(),
            loaded.numbering,
            loaded.settings::<G>(),
        ),
    };
    let setup = match header.get("Setup") {
        Some(tag) => match G::parse_setup(&settings, tag.value) {
            Ok(state) => Some(state),
            Err(v) => {
                let mut d = Diagnostic::new(ErrorKind::Setup, Some(tag.value_span), v.to_string());
                let rule = crate::games::Violation::rule(&v);
                d.rule_text = ruleset.rule(rule).cloned();
                d.rule = Some(rule.to_string());
                return Err(vec![d]);
            }
        },
        None => None,
    };
    let reading = Reading {
        header,
        last: std::cell::Cell::new(None),
    };
    let mut dice = key.map(crate::dice::Dice::from_key);
    // (The session is made last, as the answer: a few hundred bytes, not moved after.)
    match G::start(&settings, setup, &reading, dice.as_mut()) {
        Ok(state) => Ok(Session::started(ruleset, numbering, settings, state, dice)),
        Err(v) => Err(refused_start::<G>(
            v,
            &ruleset,
            header,
            &reading,
            &overrides,
            &override_spans,
            tag_span,
        )),
    }
}

/// The diagnostic of a start refused (`prepare`): a setting's error where the setting
/// was set, else the start's error at the setup.
#[cold]
fn refused_start<G: Game>(
    v: G::Violation,
    texts: &Ruleset,
    header: &record::Header,
    reading: &Reading<'_>,
    overrides: &[Override],
    override_spans: &[Option<Span>],
    tag_span: Option<Span>,
) -> Vec<Diagnostic> {
    use crate::games::Violation as _;
    if let Some(key) = v.setting() {
        // An error of the settings: where the setting was last set in the header
        // (the Seats or Options tag), else at the ruleset's name, else the Game tag.
        let set = overrides.iter().rposition(|o| o.key == key);
        let span = set
            .and_then(|i| override_spans[i])
            .or(tag_span)
            .or(header.get("Game").map(|t| t.value_span));
        let mut message = v.to_string();
        if set.is_some_and(|i| override_spans[i].is_none()) {
            message.push_str(&format!("; `{key}` was set by --option"));
        }
        return vec![Diagnostic::new(ErrorKind::Ruleset, span, message)];
    }
    // At the setup, else at the last tag the game read (Thaayam's `First`), else at
    // the record's `Game` tag: an error of the start always has a place.
    let span = header
        .get("Setup")
        .map(|t| t.value_span)
        .or(reading.last.get())
        .or(header.get("Game").map(|t| t.value_span));
    let mut d = Diagnostic::new(ErrorKind::Setup, span, v.to_string());
    let rule = v.rule();
    d.rule_text = texts.rule(rule).cloned();
    d.rule = Some(rule.to_string());
    vec![d]
}

/// A record's header as a game's start reads it, remembering where the last tag it asked
/// for (and found) is.
struct Reading<'a> {
    header: &'a record::Header,
    last: std::cell::Cell<Option<Span>>,
}

impl crate::notation::Tags for Reading<'_> {
    fn tag(&self, name: &str) -> Option<&str> {
        let tag = self.header.get(name)?;
        self.last.set(Some(tag.value_span));
        Some(tag.value)
    }
}

/// A declared result.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Declared {
    Unstated,
    Winners(SeatSet),
    Draw,
    Nobody,
}

fn describe<G: Game>(d: &Declared) -> String {
    match d {
        Declared::Unstated => "*".into(),
        Declared::Draw => "a draw".into(),
        Declared::Nobody => "that nobody won".into(),
        Declared::Winners(ws) => {
            let names: Vec<&str> = ws.iter().map(seat_name::<G>).collect();
            format!(
                "{} as winner{}",
                names.join(" and "),
                if names.len() > 1 { "s" } else { "" }
            )
        }
    }
}

/// Checks the `Result` tag and the termination marker against the replay.
pub(super) fn check_result<G: Game>(
    session: &Session<G>,
    raw: &RawRecord,
    movetext: &Movetext<G::Turn>,
    errors: &mut Vec<Diagnostic>,
) {
    let header = &raw.header;
    let seats = G::seats(&session.settings);
    let mut declared_tag = None;
    if let Some(tag) = header.get("Result") {
        let v = tag.value.trim();
        let d = match v {
            "*" => Some(Declared::Unstated),
            "draw" => Some(Declared::Draw),
            "none" => Some(Declared::Nobody),
            _ => {
                let mut set = SeatSet::EMPTY;
                let mut ok = !v.is_empty();
                let mut winner =
                    |word: &str| match seats.iter().find(|s| seat_name::<G>(**s) == word) {
                        Some(s) => set = set.with(*s),
                        None => ok = false,
                    };
                // Mostly one seat's name: a word of visible ASCII is one word as is.
                if v.bytes().all(|b| b.is_ascii_graphic()) {
                    winner(v);
                } else {
                    v.split_whitespace().for_each(winner);
                }
                ok.then_some(Declared::Winners(set))
            }
        };
        match d {
            Some(d) => declared_tag = Some((d, tag.value_span)),
            None => {
                let names: Vec<&str> = seats.iter().map(|s| seat_name::<G>(*s)).collect();
                errors.push(Diagnostic::new(
                    ErrorKind::Header,
                    Some(tag.value_span),
                    format!(
                        "`{}` is not a result: write `*`, `draw`, `none`, or the winning seats ({})",
                        quote(v),
                        names.join(", ")
                    ),
                ));
                return;
            }
        }
    }
    let termination_tag = header.get("Termination");
    if let Some(t) = termination_tag {
        if !matches!(
            t.value,
            "normal" | "resignation" | "agreement" | "abandoned" | "adjudication"
        ) {
            errors.push(Diagnostic::new(
                ErrorKind::Header,
                Some(t.value_span),
                format!("`{}` is not a termination: write normal, resignation, agreement, abandoned or adjudication", quote(t.value)),
            ));
            return;
        }
    }
    let declared_marker = match &movetext.termination {
        None => None,
        Some((t, span)) => {
            let d = match t {
                Termination::Unknown => Some(Declared::Unstated),
                _ if seats.len() != 2 => None,
                Termination::FirstWins => Some(Declared::Winners(SeatSet::only(seats[0]))),
                Termination::SecondWins => Some(Declared::Winners(SeatSet::only(seats[1]))),
                Termination::Draw => Some(Declared::Draw),
            };
            match d {
                Some(d) => Some((d, *span)),
                None => {
                    errors.push(Diagnostic::new(
                        ErrorKind::Syntax,
                        Some(*span),
                        format!("`{t}` is a two-seat marker; this game has {} seats: write `*` and a Result tag", seats.len()),
                    ));
                    return;
                }
            }
        }
    };
    if let (Some((tag, _)), Some((marker, mspan))) = (&declared_tag, &declared_marker) {
        if tag != marker {
            errors.push(Diagnostic::new(
                ErrorKind::Result,
                Some(*mspan),
                format!(
                    "the termination marker declares {} but the Result tag declares {}",
                    describe::<G>(marker),
                    describe::<G>(tag)
                ),
            ));
            return;
        }
    }
    let Some((declared, span)) = declared_tag.or(declared_marker) else {
        return;
    };
    let found = match session.status() {
        Status::Over(end) if end.draw => Declared::Draw,
        Status::Over(end) if end.winners.is_empty() => Declared::Nobody,
        Status::Over(end) => Declared::Winners(end.winners),
        Status::Playing { .. } => Declared::Unstated,
    };
    if declared == Declared::Unstated || declared == found {
        return;
    }
    let explained = termination_tag.is_some_and(|t| t.value != "normal");
    let message = match &found {
        Declared::Unstated if explained => return,
        Declared::Unstated => format!(
            "the record declares {} but the game is not over ({})",
            describe::<G>(&declared),
            session.status_report().describe()
        ),
        _ => format!(
            "the record declares {} but the replay shows {}",
            describe::<G>(&declared),
            session.status_report().describe()
        ),
    };
    let mut d = Diagnostic::new(ErrorKind::Result, Some(span), message);
    if matches!(found, Declared::Unstated) {
        d.hint = Some("a Termination tag (resignation, agreement, abandoned, adjudication) explains a result the moves do not reach".into());
    }
    errors.push(d);
}
