//! The referee: replays a record against its ruleset and gives a ruling — every turn
//! judged, the first violation with its rule, the final status, the declared result
//! checked.
//!
//! [`Session`] is one game in progress (used by replay, `play`, `move` and `selfplay`);
//! `replay` judges a whole record; [`check_text`] judges every record of a file
//! whatever its game.

mod finish;
mod quick;
mod replay;
mod session;
mod tags;

pub use finish::Finish;
pub use replay::{judge, JudgeOptions, Judgement, TurnVerdict, ViolationDetail};
pub use session::{Numbering, Refusal, Refused, Session};

use std::any::Any;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;

use crate::games::{self, Game};
use crate::notation::record::{self, Chunk, ChunkText, Limits, RawRecord, Span, SyntaxKind};
use crate::quote::quote;
use crate::ruleset::{Library, RuleText, Ruleset, Setting};

/// What kind of problem an error is (`cli.md`, JSON output).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorKind {
    Syntax,
    Header,
    Ruleset,
    Setup,
    Rule,
    Dice,
    Result,
    Limit,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Header => "header",
            ErrorKind::Ruleset => "ruleset",
            ErrorKind::Setup => "setup",
            ErrorKind::Rule => "rule",
            ErrorKind::Dice => "dice",
            ErrorKind::Result => "result",
            ErrorKind::Limit => "limit",
        }
    }
}

impl From<SyntaxKind> for ErrorKind {
    fn from(k: SyntaxKind) -> ErrorKind {
        match k {
            SyntaxKind::Syntax => ErrorKind::Syntax,
            SyntaxKind::Header => ErrorKind::Header,
            SyntaxKind::Limit => ErrorKind::Limit,
        }
    }
}

/// One error of a record.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub kind: ErrorKind,
    /// The turn it is in (1-based, every turn of every seat counted); `None` outside the
    /// movetext.
    pub turn: Option<usize>,
    /// The turn as the record numbers it (`2...`), and its name for people (`move 2,
    /// black`; `turn 3` where every turn has its own number); see
    /// [`Session::turn_name`].
    pub number: Option<String>,
    pub name: Option<String>,
    /// Where in the record file; `None` when it is not in the record (a ruleset file).
    pub span: Option<Span>,
    pub rule: Option<String>,
    pub message: String,
    pub hint: Option<String>,
    /// The text of the rule cited and where it was written.
    pub rule_text: Option<RuleText>,
    /// The setting that made the rule apply, and where it was set.
    pub setting: Option<(String, Setting)>,
}

impl Diagnostic {
    pub fn new(kind: ErrorKind, span: Option<Span>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind,
            turn: None,
            number: None,
            name: None,
            span,
            rule: None,
            message: message.into(),
            hint: None,
            rule_text: None,
            setting: None,
        }
    }
}

/// Where play stood at the end of a replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StatusReport {
    pub over: bool,
    /// Inline: a report is made for every record `check` reads.
    pub winners: smallvec::SmallVec<[&'static str; 2]>,
    pub draw: bool,
    pub reason: Option<&'static str>,
    /// The seat to move, while the game goes on. Where the order of a round is open
    /// (`may_move`), the first of the seats that may move.
    pub to_move: Option<&'static str>,
    /// The seats any of which may take the turn now due, the turn's seat label choosing
    /// (Halasi's first rounds without a seed, whose order rolls are not written); absent
    /// where the seat to move is fixed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub may_move: Option<Vec<&'static str>>,
}

impl StatusReport {
    pub fn of<G: Game>(status: &games::Status) -> StatusReport {
        match status {
            games::Status::Playing { to_move } => StatusReport {
                over: false,
                winners: smallvec::SmallVec::new(),
                draw: false,
                reason: None,
                to_move: Some(games::seat_name::<G>(*to_move)),
                may_move: None,
            },
            games::Status::Over(end) => StatusReport {
                over: true,
                winners: end
                    .winners
                    .iter()
                    .map(|s| games::seat_name::<G>(s))
                    .collect(),
                draw: end.draw,
                reason: Some(end.reason),
                to_move: None,
                may_move: None,
            },
        }
    }

    /// Where play stands in a position: as [`StatusReport::of`], and where the order of
    /// the round is open ([`Game::open_movers`]) to more than one seat, the seats that
    /// may move.
    pub fn of_position<G: Game>(settings: &G::Settings, state: &G::State) -> StatusReport {
        let mut report = StatusReport::of::<G>(&G::status(settings, state));
        if report.over {
            return report;
        }
        if let Some(open) = G::open_movers(settings, state).filter(|o| o.len() > 1) {
            let names: Vec<&'static str> = open.iter().map(|s| games::seat_name::<G>(s)).collect();
            report.to_move = names.first().cloned();
            report.may_move = Some(names);
        }
        report
    }

    /// "white wins (capture-all)", "draw (agreement)", "black to move".
    pub fn describe(&self) -> String {
        if !self.over {
            return match (&self.may_move, &self.to_move) {
                (Some(open), _) => format!(
                    "the order of this round is not rolled: {} may move; label the turn with \
                     the seat that takes it (`{}:`)",
                    or_list(open),
                    open.first().copied().unwrap_or("a")
                ),
                (None, Some(s)) => format!("{s} to move"),
                (None, None) => "in play".into(),
            };
        }
        let reason = self.reason.unwrap_or("over");
        if self.draw {
            format!("draw ({reason})")
        } else if self.winners.is_empty() {
            format!("nobody wins ({reason})")
        } else if self.winners.len() == 1 {
            format!("{} wins ({reason})", self.winners[0])
        } else {
            format!("{} share the win ({reason})", self.winners.join(" and "))
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The name of the ruleset a report names: the ruleset's own, shared with the game that
/// was played under it (a report is made for every record `check` reads, and a valid
/// record's name is then never printed), or a name as a record writes it.
#[derive(Clone)]
pub enum RulesetName {
    Of(Arc<Ruleset>),
    Written(String),
}

impl std::ops::Deref for RulesetName {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            RulesetName::Of(r) => &r.name,
            RulesetName::Written(name) => name,
        }
    }
}

impl fmt::Debug for RulesetName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl serde::Serialize for RulesetName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

/// The ruling on one record, whatever its game: what `check` prints.
#[derive(Clone, Debug)]
pub struct Report {
    /// The record's index in its file (0-based).
    pub index: usize,
    /// The game the record names: a game the referee knows by its own name, with no
    /// copy (a report is made for every record `check` reads).
    pub game: Option<std::borrow::Cow<'static, str>>,
    pub ruleset: Option<RulesetName>,
    pub valid: bool,
    /// The number of turns the record holds.
    pub turns: usize,
    /// `None` when the game could not even start (unknown game, bad ruleset, bad setup).
    pub status: Option<StatusReport>,
    /// Errors in record order.
    pub errors: Vec<Diagnostic>,
    /// Warnings in record order: what is not wrong but likely not meant (a near-miss of
    /// a tag the referee reads). Under `--strict` they are errors instead.
    pub warnings: Vec<Diagnostic>,
    /// The whole record in its file.
    pub span: Span,
}

impl Report {
    /// A report on input where no game could be found (no record, no `Game` tag).
    fn without_game(index: usize, errors: Vec<Diagnostic>, span: Span) -> Report {
        Report {
            index,
            game: None,
            ruleset: None,
            valid: false,
            turns: 0,
            status: None,
            errors,
            warnings: Vec::new(),
            span,
        }
    }
}

/// Where rulesets come from and what the command line overrides.
#[derive(Debug)]
pub struct Env {
    pub library: Library,
    /// `--ruleset FILE`: used for every record instead of its `Ruleset` tag.
    pub ruleset_file: Option<PathBuf>,
    /// `--option KEY=VALUE`, in order.
    pub options: Vec<(String, String)>,
    pub limits: Limits,
    /// `--strict`: a warning (a near-miss of a tag the referee reads) is an error.
    pub strict: bool,
    /// Rulesets already loaded, by name (`None` key: the `--ruleset` file), so a file of
    /// many records parses its ruleset once. Failures are not cached. A run uses a few
    /// rulesets, so they are looked for in a list, by a name the record lends.
    loaded: Mutex<Vec<(Option<String>, Loaded)>>,
}

/// A ruleset the [`Env`] loaded, and what its game module derived from it
/// (`G::settings`), made once on first use: a file of many records shares both.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub ruleset: Arc<Ruleset>,
    /// The ruleset's `numbering`, read once.
    pub numbering: Numbering,
    settings: Arc<OnceLock<Box<dyn Any + Send + Sync>>>,
}

impl Loaded {
    /// The game module's settings of the ruleset, derived on first use and shared.
    pub fn settings<G: Game>(&self) -> G::Settings {
        let derived = self
            .settings
            .get_or_init(|| Box::new(G::settings(&self.ruleset)));
        match derived.downcast_ref::<G::Settings>() {
            Some(settings) => settings.clone(),
            // A ruleset is for one game, so this is only reached if a caller asks for
            // another game's settings of it; derive them rather than share a wrong type.
            None => G::settings(&self.ruleset),
        }
    }
}

impl Env {
    pub fn new(library: Library) -> Env {
        Env {
            library,
            ruleset_file: None,
            options: Vec::new(),
            limits: Limits::default(),
            strict: false,
            loaded: Mutex::new(Vec::new()),
        }
    }

    /// The command line's `--option KEY=VALUE` settings as overrides.
    pub fn cli_overrides(&self) -> Vec<crate::ruleset::Override> {
        self.options
            .iter()
            .map(|(k, v)| crate::ruleset::Override {
                key: k.clone(),
                value: v.clone(),
                origin: crate::ruleset::Origin::CommandLine,
                file: "--option".into(),
                line: 1,
                column: 1,
                value_column: 1,
            })
            .collect()
    }

    /// The `--option` settings a game declares, as overrides: a record of a game that
    /// lacks a key ignores it (one `check` over a mixed directory).
    pub fn cli_overrides_for(
        &self,
        schema: &crate::ruleset::Schema,
    ) -> Vec<crate::ruleset::Override> {
        let mut all = self.cli_overrides();
        all.retain(|o| schema.setting(&o.key).is_some());
        all
    }

    /// Loads a ruleset by name, or the `--ruleset` file when `name` is `None`, once.
    pub fn ruleset(
        &self,
        name: Option<&str>,
    ) -> Result<Arc<Ruleset>, crate::ruleset::RulesetError> {
        self.load(name).map(|l| l.ruleset)
    }

    /// The ruleset a record's `Ruleset` tag names, once: a name not loaded yet must be
    /// a bare name ([`crate::ruleset::check_name`]); one already loaded passed that check.
    pub fn load_tagged(&self, name: &str) -> Result<Loaded, crate::ruleset::RulesetError> {
        if let Some(l) = self.cached(Some(name)) {
            return Ok(l);
        }
        crate::ruleset::check_name(name)?;
        self.load(Some(name))
    }

    /// A ruleset already loaded.
    fn cached(&self, name: Option<&str>) -> Option<Loaded> {
        let m = self.loaded.lock().ok()?;
        m.iter()
            .find(|(k, _)| k.as_deref() == name)
            .map(|(_, l)| l.clone())
    }

    /// [`Env::ruleset`] with the memo of its settings.
    pub fn load(&self, name: Option<&str>) -> Result<Loaded, crate::ruleset::RulesetError> {
        if let Some(l) = self.cached(name) {
            return Ok(l);
        }
        let r = Arc::new(match (name, &self.ruleset_file) {
            (Some(name), _) => self.library.load(name, schemas())?,
            (None, Some(path)) => self.library.load_file(path, schemas())?,
            (None, None) => {
                return Err(crate::ruleset::RulesetError::general(
                    "no ruleset named and no --ruleset file given",
                ))
            }
        });
        let loaded = Loaded {
            numbering: Numbering::of(&r),
            ruleset: r,
            settings: Arc::default(),
        };
        if let Ok(mut m) = self.loaded.lock() {
            // Another thread may have loaded it meanwhile: the first one stays.
            match m.iter().find(|(k, _)| k.as_deref() == name) {
                Some((_, first)) => return Ok(first.clone()),
                None => m.push((name.map(str::to_string), loaded.clone())),
            }
        }
        Ok(loaded)
    }
}

/// The schema of a game module by name.
pub use crate::games::registry::schema_of;

/// The schema of every game this build referees: the resolver rulesets are loaded
/// against.
pub use crate::games::registry::schemas;

/// The games this build referees (from the registry, `games::registry`).
pub const GAMES: &[&str] = games::registry::NAMES;

/// The ruling on every record of a file's text (byte-order mark already stripped).
/// File-level problems (text before the first header, size limit) are errors of the
/// first record's report, or of a report with no game when there is no record.
pub fn check_text(env: &Env, file: &str, text: &str) -> Vec<Report> {
    check_text_at(env, file, text, 0)
}

/// [`check_text`] for a `text` that starts on line `first_line` (0-based) of `file`.
fn check_text_at(env: &Env, file: &str, text: &str, first_line: usize) -> Vec<Report> {
    let split = record::split(text, &env.limits);
    let file_errors: Vec<Diagnostic> = split
        .errors
        .iter()
        .map(|e| Diagnostic::new(e.kind.into(), Some(e.span), e.message.clone()))
        .collect();
    if split.records.is_empty() {
        let errors = if file_errors.is_empty() {
            vec![Diagnostic::new(
                ErrorKind::Syntax,
                Some(Span::new(0, 0)),
                "no record here: a record starts with a header such as `[Game \"halatafl\"]`",
            )]
        } else {
            file_errors
        };
        return vec![Report::without_game(0, errors, Span::new(0, text.len()))];
    }
    let mut reports: Vec<Report> = split
        .records
        .iter()
        .enumerate()
        .flat_map(|(index, raw)| check_record(env, file, text, raw, index, first_line, None))
        .collect();
    // Text before the first header belongs to the first record's report: it comes
    // first in the file, so it is that record's first error.
    if !file_errors.is_empty() {
        let first = &mut reports[0];
        let mut errors = file_errors;
        errors.append(&mut first.errors);
        first.errors = errors;
        first.valid = false;
    }
    reports
}

/// The rulings on a chunk: one, but for a chunk that holds text before its record.
/// Kept inline: `check` makes them for every record it reads.
pub type Reports = smallvec::SmallVec<[Report; 1]>;

/// The `Seed` of a chunk's record, where the stream read the record whole: the seed
/// [`check_chunk`] hashes, unless given its key.
pub fn chunk_seed(chunk: &Chunk) -> Option<&str> {
    chunk.record.as_ref()?.header.value("Seed")
}

/// The ruling on one record read from a stream ([`record::Chunks`]), or the "no record
/// here" report of a stream without a header. Spans count from the chunk's text.
/// `seed_key` is the SHA-256 of [`chunk_seed`], where hashed already.
pub fn check_chunk(env: &Env, file: &str, chunk: &Chunk, seed_key: Option<[u8; 32]>) -> Reports {
    let refused = |text: &str, kind: ErrorKind, at: usize, message: String| {
        // The text kept is bounded already (an over-limit record's header may be over a
        // small limit): read for its tags whatever its size.
        let whole = Limits {
            max_bytes: usize::MAX,
            ..env.limits
        };
        let file = record::split(text, &whole);
        let raw = file.records.first();
        let tag = |name: &str| raw.and_then(|r| r.header.value(name)).map(str::to_string);
        smallvec::smallvec![Report {
            index: chunk.index,
            game: tag("Game").map(Into::into),
            ruleset: tag("Ruleset").map(RulesetName::Written),
            valid: false,
            turns: 0,
            status: None,
            errors: vec![Diagnostic::new(kind, Some(Span::new(at, at)), message)],
            warnings: Vec::new(),
            span: Span::new(0, text.len()),
        }]
    };
    match &chunk.text {
        // A record the stream read whole is not cut again.
        ChunkText::Text(text) if chunk.record.is_some() => {
            let raw = chunk.record.as_ref().expect("a record read whole");
            check_record(env, file, text, raw, chunk.index, chunk.line, seed_key)
        }
        ChunkText::Text(text) => {
            let mut reports = check_text_at(env, file, text, chunk.line);
            for r in &mut reports {
                r.index = chunk.index;
            }
            Reports::from_vec(reports)
        }
        ChunkText::NotUtf8 { valid } => refused(
            valid,
            ErrorKind::Syntax,
            valid.len(),
            "the record is not UTF-8 text: this byte is not a character".into(),
        ),
        ChunkText::OverLimit { header } => {
            let start = record::split(header, &env.limits)
                .records
                .first()
                .map_or(0, |r| r.span.start);
            refused(
                header,
                ErrorKind::Limit,
                start,
                format!(
                    "the record is {} bytes, over the limit of {} bytes (--max-bytes)",
                    chunk.bytes, env.limits.max_bytes
                ),
            )
        }
    }
}

/// The ruling on one record of `text`, which starts on line `first_line` (0-based) of
/// `file`; `seed_key` is the SHA-256 of its `Seed`, where hashed already. (One report,
/// made in the list [`check_chunk`] answers with: a report is a few hundred bytes.)
fn check_record(
    env: &Env,
    file: &str,
    text: &str,
    raw: &RawRecord,
    index: usize,
    first_line: usize,
    seed_key: Option<[u8; 32]>,
) -> Reports {
    let game = match game_of(raw) {
        Ok(game) => game,
        Err(d) => {
            return smallvec::smallvec![Report {
                index,
                game: raw.header.value("Game").map(|g| g.to_string().into()),
                ruleset: raw
                    .header
                    .value("Ruleset")
                    .map(|n| RulesetName::Written(n.to_string())),
                valid: false,
                turns: 0,
                status: None,
                errors: vec![*d],
                warnings: Vec::new(),
                span: raw.span,
            }]
        }
    };
    macro_rules! judge_named {
        ($($g:ty),* $(,)?) => {
            match game {
                $(<$g as Game>::NAME => {
                    // A valid record is replayed as it is read; any other is judged.
                    if let Some(report) =
                        quick::valid_record::<$g>(env, file, text, raw, index, first_line, seed_key)
                    {
                        return smallvec::smallvec![report];
                    }
                    // (Judged, the record's seed is hashed again: few records are.)
                    let options = JudgeOptions {
                        first_line,
                        ..JudgeOptions::default()
                    };
                    smallvec::smallvec![judge::<$g>(env, file, text, raw, index, options).report]
                })*
                _ => unreachable!("game_of returns registered games only"),
            }
        };
    }
    games::registry::for_each_game!(judge_named)
}

/// The game a record names in its `Game` tag.
pub fn game_of(raw: &RawRecord) -> Result<&'static str, Box<Diagnostic>> {
    let Some(tag) = raw.header.get("Game") else {
        // A near-miss (`[game …]`, `[Gmae …]`) is pointed at: it is what was meant.
        let near = raw.header.tags().find(|t| {
            t.name.eq_ignore_ascii_case("Game")
                || crate::ruleset::error::suggest(t.name, ["Game"]).is_some()
        });
        let mut d = Diagnostic::new(
            ErrorKind::Header,
            near.or(raw.header.tags().next()).map(|t| t.span),
            "the header has no `Game` tag: every record names its game ([Game \"halatafl\"])",
        );
        if let Some(t) = near {
            d.hint = Some(format!(
                "tag names are matched exactly, case included: `{}` is not `Game`",
                quote(t.name)
            ));
        }
        return Err(Box::new(d));
    };
    match GAMES.iter().find(|g| **g == tag.value) {
        Some(g) => Ok(g),
        None => {
            let mut d = Diagnostic::new(
                ErrorKind::Header,
                Some(tag.value_span),
                format!("unknown game `{}`", quote(tag.value)),
            );
            d.hint = Some(
                match crate::ruleset::error::suggest(tag.value, GAMES.iter().copied()) {
                    Some(s) => format!(
                        "did you mean `{s}`? This build referees: {}",
                        GAMES.join(", ")
                    ),
                    None => format!("this build referees: {}", GAMES.join(", ")),
                },
            );
            Err(Box::new(d))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ruleset a record names is loaded once, its settings derived once, and a name
    /// that is not a bare name is refused however often it comes.
    #[test]
    fn a_named_ruleset_is_loaded_once_and_a_bad_name_always_refused() {
        let env = Env::new(Library::new(Vec::new()));
        let a = env.load_tagged("halves").expect("shipped");
        let b = env.load_tagged("halves").expect("shipped");
        assert!(Arc::ptr_eq(&a.ruleset, &b.ruleset));
        assert!(Arc::ptr_eq(&a.settings, &b.settings));
        assert!(Arc::ptr_eq(
            &a.ruleset,
            &env.ruleset(Some("halves")).unwrap()
        ));
        let s = a.settings::<crate::games::halves::Halves>();
        assert_eq!(
            format!("{s:?}"),
            format!("{:?}", b.settings::<crate::games::halves::Halves>())
        );
        assert!(b.settings.get().is_some());
        for bad in ["../halves", "halves/x", "Halves", "", "no-such-ruleset"] {
            for _ in 0..2 {
                let e = env.load_tagged(bad).expect_err(bad);
                let direct = match crate::ruleset::check_name(bad) {
                    Err(e) => e,
                    Ok(()) => env.library.load(bad, schemas()).expect_err(bad),
                };
                assert_eq!(e.to_string(), direct.to_string(), "{bad}");
            }
        }
    }
}
