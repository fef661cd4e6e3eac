//! `referee play`: the stdin protocol. One input line, one answer; with `--format json`
//! every answer is one JSON object on one line. Nothing else goes to stdout.

use std::sync::Arc;

use std::io::{self, BufRead, Write};
use std::path::Path;

use serde_json::{json, Value as Json};

use super::args::EngineArgs;
use super::commands::think;
use super::commands::{
    apply_cli_options, fresh_seed, header_with, load_ruleset, options_tag, parse_single,
    refusal_json, wait_limit, written_chance_note, LockError, NewSeed, RecordLock,
};
use super::play_input::{read_line_bounded, Line, LINE_SLACK};
use super::{dispatch, Ctx, Failure, Format, Outcome, Render, Visitor};
use crate::engine::Config;
use crate::games::{seat_name, Game, SeatSet};
use crate::notation::record::{self, Action, Termination};
use crate::quote::quote;
use crate::referee::{self, judge, Finish, JudgeOptions, Refusal, Session};
use crate::ruleset::Ruleset;

/// The game as played so far: the session history (for `:undo`) and the record text.
struct Game_<G: Game> {
    /// Sessions before each accepted turn; the last is the current game.
    history: Vec<Session<G>>,
    /// The file's text before this record (earlier records), kept when it is rewritten.
    prefix: String,
    /// The record's header text.
    header: String,
    /// The numbered turns, one a line.
    lines: Vec<String>,
}

impl<G: Game> Game_<G> {
    fn current(&self) -> &Session<G> {
        self.history.last().expect("the history is never empty")
    }
    fn file_text(&self) -> String {
        format!("{}{}", self.prefix, self.record())
    }
    /// The record as written: a finished game's header says who won and how.
    fn record(&self) -> String {
        let now = self.current();
        let mut s = match Finish::of::<G>(&now.settings, &now.status()) {
            Some(f) => with_finish_tags(&self.header, &f),
            None => self.header.clone(),
        };
        s.push('\n');
        for l in &self.lines {
            s.push_str(l);
            s.push('\n');
        }
        s
    }
}

/// The seats the engine plays, and how it thinks.
pub struct EnginePlay<'a> {
    /// Seat names, as given to `--engine`.
    pub seats: &'a [String],
    pub seed: &'a str,
    pub args: &'a EngineArgs,
}

struct PlayVisit<'a> {
    engine: Option<EnginePlay<'a>>,
    ctx: &'a Ctx,
    rs: &'a Ruleset,
    seed: Option<&'a str>,
    /// Without a seed, draw a fresh one where the game cannot start without one.
    fresh: bool,
    seats_tag: bool,
    record: Option<&'a Path>,
    input: &'a mut dyn BufRead,
    out: &'a mut dyn Write,
}

/// The `:commands`, each with what it answers.
const COMMANDS: &[(&str, &str)] = &[
    (":help", "this list, and how to write a turn"),
    (":show", "the position"),
    (":moves", "every legal turn for the seat to move"),
    (":undo", "take back the last turn"),
    (":record", "the game so far as a record"),
    (
        ":status",
        "whose turn it is, what it must do, the result once over",
    ),
    (":quit", "end the game"),
];

/// How a turn of `game` is written, in one line.
fn turn_help(game: &str) -> &'static str {
    match game {
        "halatafl" => {
            "a step `e3-d4`, a jump `c5xe3` or a chain `c5xe3xg1` (every landing point), \
             a huff first `huff c3 e5-e4`; or `resign`, `draw`"
        }
        "thaayam" => {
            "the throws in brackets, then the actions separated by commas: \
             `[1 4 2] enter, c1+4+2`, `[2] -` for none, `twin c5`, `Tc5+8+3`, `off` \
             (with a seed the brackets may be left out); or `resign`, `draw`"
        }
        "halves" => {
            "`+(q,r)` places a tile, `x(q,r)` removes one (`x(q,r)/(q,r)` keeps the \
             group holding the second cell), `keep` or `swap` the contract, `pass`; or \
             `resign`, `draw`"
        }
        "halasi" => {
            "`home M1`, `place AM1 @0,0 r0`, a run `RX@AM1.0/AM1.7, SS@AM1.8/AM1.9` with \
             `route AM1~BM2` and a claim `=17`, `territory BT2 @1,0 r3`, `leave`; the \
             roll and draw `[3: RX KK SS]` first (optional with a seed); or `resign`"
        }
        _ => "see `referee guide`",
    }
}

fn random_json<G: Game>(s: &Session<G>) -> Json {
    match &s.chance {
        Some(c) => json!({"seat": s.to_move().map(seat_name::<G>), "outcome": c.to_string()}),
        None => Json::Null,
    }
}

impl Visitor for PlayVisit<'_> {
    type Out = Outcome;
    fn visit<G: Render>(self) -> Outcome {
        let PlayVisit {
            engine,
            ctx,
            rs,
            seed,
            fresh,
            seats_tag,
            record,
            input,
            out,
        } = self;
        let json = ctx.global.format == Format::Json;
        let limits = ctx.env.limits;
        let options = options_tag(ctx);
        let no_tags = record::Header::default();
        // A game that cannot start without a seed (a random layout) gets a fresh one.
        let drawn = match seed {
            None if fresh
                && Session::<G>::start(Arc::new(rs.clone()), None, &no_tags, None).is_err() =>
            {
                Some(fresh_seed()?)
            }
            _ => None,
        };
        let commit = drawn.is_none();
        let seed = seed.or(drawn.as_deref());
        let new_game = || -> Result<Game_<G>, Failure> {
            let session = Session::<G>::start(Arc::new(rs.clone()), None, &no_tags, seed)
                .map_err(|v| Failure::Usage(format!("the game cannot start: {v}")))?;
            let header = header_with::<G>(
                rs,
                &session.settings,
                seed,
                commit,
                seats_tag,
                None,
                options.as_deref(),
            );
            Ok(Game_ {
                history: vec![session],
                prefix: String::new(),
                header,
                lines: Vec::new(),
            })
        };
        // Start, or resume the record file, which is then held (locked) to the end.
        let (mut game, mut lock) = match record {
            None => (new_game()?, None),
            Some(path) => {
                let (game, lock) = hold_record::<G>(ctx, path, new_game)?;
                (game, Some(lock))
            }
        };
        // The engine's seats and config, checked before any turn.
        let engine = match engine {
            None => None,
            Some(e) => {
                let settings = &game.current().settings;
                let mut seats = SeatSet::EMPTY;
                for name in e.seats {
                    let seat = G::seats(settings)
                        .iter()
                        .copied()
                        .find(|&x| seat_name::<G>(x) == name.as_str())
                        .ok_or_else(|| {
                            Failure::Usage(format!(
                                "--engine {}: not a seat of this game (its seats: {})",
                                quote(name),
                                G::seats(settings)
                                    .iter()
                                    .map(|&x| seat_name::<G>(x))
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            ))
                        })?;
                    seats = seats.with(seat);
                }
                // Without a seed the players write the random outcomes (Thaayam's
                // throws): the engine could never know its own, so it is refused now, not
                // at its first turn.
                if G::has_chance(settings) && game.current().dice.is_none() {
                    return Err(Failure::Usage(format!(
                        "--engine: {} has random events and this game has no seed, so the \
                         engine could not know the outcome opening its turn (give --seed)",
                        G::NAME
                    )));
                }
                Some((seats, e.args.config(e.seed)?))
            }
        };
        if let Some((seats, config)) = &engine {
            engine_turns(&mut game, *seats, config, &mut lock, record, json, out)?;
        }
        // A line may hold a turn of the longest size with its number and some spaces;
        // a longer one is answered without being held whole in memory.
        let cap = limits.max_turn_bytes.saturating_add(LINE_SLACK);
        let mut buf = Vec::new();
        loop {
            let line = match read_line_bounded(input, cap, &mut buf)
                .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?
            {
                None => break,
                Some(Line::Text(line)) => line,
                Some(Line::TooLong(n)) => {
                    let message = format!(
                        "a line of {n} bytes is over the limit of {cap} bytes \
                         (a turn is at most {} bytes)",
                        limits.max_turn_bytes
                    );
                    emit(out, json, &Answer::err(None, message, None))?;
                    continue;
                }
                Some(Line::NotUtf8 { at, byte }) => {
                    let message = format!(
                        "the line is not UTF-8 text: byte {} (0x{byte:02x}) is not a character",
                        at + 1
                    );
                    emit(out, json, &Answer::err(None, message, None))?;
                    continue;
                }
            };
            let input = line.trim();
            let answer: Answer = match input {
                ":quit" => {
                    emit(
                        out,
                        json,
                        &Answer::ok(json!({"ok": true, "quit": true}), "bye".into()),
                    )?;
                    return Ok(());
                }
                ":show" => {
                    let s = game.current();
                    let status = s.status_report();
                    Answer::ok(
                        json!({"ok": true, "position": G::position_json(&s.settings, &s.state),
                               "setup": G::setup_string(&s.settings, &s.state), "status": status}),
                        format!("{}{}", G::diagram(&s.settings, &s.state), status.describe()),
                    )
                }
                ":moves" => {
                    let s = game.current();
                    let mut turns = Vec::new();
                    s.legal_turns(&mut turns);
                    let mut legal: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
                    legal.sort();
                    let note = match legal.is_empty() {
                        true => written_chance_note(s),
                        false => None,
                    };
                    let text = match (&note, legal.is_empty()) {
                        (Some(note), _) => note.clone(),
                        (None, true) => "(none)".to_string(),
                        (None, false) => legal.join(" "),
                    };
                    let mut doc = json!({"ok": true, "moves": legal});
                    if let Some(note) = note {
                        doc["note"] = json!(note);
                    }
                    Answer::ok(doc, text)
                }
                ":help" => {
                    let s = game.current();
                    let mut turns = Vec::new();
                    s.legal_turns(&mut turns);
                    let mut legal: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
                    legal.sort();
                    let example = legal.first().cloned();
                    let how = turn_help(G::NAME);
                    let mut text = format!(
                        "commands: {}; a turn is one line in the game's notation: {how}",
                        COMMANDS
                            .iter()
                            .map(|(c, _)| *c)
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                    if let Some(e) = &example {
                        text.push_str(&format!("; one legal now: {e}"));
                    }
                    text.push_str(&format!(
                        " (`referee guide {}` explains every kind of turn)",
                        G::NAME
                    ));
                    let commands: serde_json::Map<String, Json> = COMMANDS
                        .iter()
                        .map(|(c, what)| (c.to_string(), Json::from(*what)))
                        .collect();
                    Answer::ok(
                        json!({"ok": true, "commands": commands, "notation": how,
                               "example": example, "guide": format!("referee guide {}", G::NAME)}),
                        text,
                    )
                }
                ":status" => {
                    let s = game.current();
                    let status = s.status_report();
                    let next_turn = (!status.over).then_some(s.turns + 1);
                    Answer::ok(
                        json!({"ok": true, "turn": s.turns, "next_turn": next_turn, "next": status.to_move, "status": status, "random": random_json(s)}),
                        standing(s.turns, &status),
                    )
                }
                ":record" => {
                    let r = game.record();
                    Answer::ok(json!({"ok": true, "record": r}), r.trim_end().to_string())
                }
                ":undo" => {
                    // The engine's turns since the last of another seat go too.
                    let engine_moves = |g: &Game_<G>| {
                        engine.as_ref().is_some_and(|(seats, _)| {
                            g.current().to_move().is_some_and(|m| seats.contains(m))
                        })
                    };
                    if game.history.len() <= 1 {
                        Answer::err(None, "nothing to undo".into(), None)
                    } else {
                        game.history.pop();
                        game.lines.pop();
                        while game.history.len() > 1 && engine_moves(&game) {
                            game.history.pop();
                            game.lines.pop();
                        }
                        if let Some(lock) = &mut lock {
                            lock.replace(&game.file_text()).map_err(|e| {
                                Failure::Usage(format!("cannot write {}: {e}", lock_name(record)))
                            })?;
                        }
                        let s = game.current();
                        let status = s.status_report();
                        Answer::ok(
                            json!({"ok": true, "turn": s.turns, "next": status.to_move, "status": status, "random": random_json(s)}),
                            format!("undone; {}", standing(s.turns, &status)),
                        )
                    }
                }
                "" => Answer::err(
                    None,
                    "an empty line: write a turn or a :command".into(),
                    None,
                ),
                cmd if cmd.starts_with(':') => Answer::err(
                    None,
                    format!(
                        "unknown command `{}`: use :help :show :moves :undo :record :status :quit",
                        quote(cmd)
                    ),
                    None,
                ),
                turn_text => {
                    let s = game.current();
                    match parse_single(turn_text, &limits, G::parse_turn) {
                        Err(m) => Answer::err(
                            None,
                            format!("`{}` is not a turn: {m}", quote(turn_text)),
                            None,
                        ),
                        Ok(entry) => {
                            let mut next = s.clone();
                            let number = next.expected_number();
                            let bad = match &entry.action {
                                Action::BadAddress(sp) => turn_text[sp.start..sp.end].to_string(),
                                _ => String::new(),
                            };
                            let played = next
                                .check_frame(
                                    entry.number.map(|(n, _)| n),
                                    entry.label().map(|(l, _)| l.as_str()),
                                )
                                .and_then(|()| next.play(&entry.action, &bad));
                            match played {
                                Err(r) => {
                                    let hint = match &*r {
                                        Refusal::Rule(v) => G::hint(&s.settings, &s.state, v),
                                        _ => None,
                                    };
                                    Answer::err(r.rule(), r.to_string(), hint)
                                }
                                Ok(()) => {
                                    let written = entry.action.written().expect("refused by play");
                                    let label = entry
                                        .label()
                                        .map(|(l, _)| format!("{l}: "))
                                        .unwrap_or_default();
                                    game.lines.push(format!("{number} {label}{written}"));
                                    let status = next.status_report();
                                    let doc = json!({"ok": true, "turn": next.turns, "next": status.to_move,
                                                     "status": status, "random": random_json(&next)});
                                    let text = format!("ok {}: {}", next.turns, status.describe());
                                    game.history.push(next);
                                    save_turn(&game, &mut lock, record)?;
                                    emit(out, json, &Answer::ok(doc, text))?;
                                    if let Some((seats, config)) = &engine {
                                        engine_turns(
                                            &mut game, *seats, config, &mut lock, record, json, out,
                                        )?;
                                    }
                                    continue;
                                }
                            }
                        }
                    }
                }
            };
            emit(out, json, &answer)?;
        }
        Ok(())
    }
}

/// The engine plays while one of its seats is to move: each turn is written as the
/// record writes it, appended to the record, and answered on its own line
/// (`engine black: 13... c5-b4; ok 26: white to move`, or JSON with `"engine"`).
fn engine_turns<G: Render>(
    game: &mut Game_<G>,
    seats: SeatSet,
    config: &Config,
    lock: &mut Option<RecordLock>,
    record: Option<&Path>,
    json: bool,
    out: &mut dyn Write,
) -> Outcome {
    loop {
        let s = game.current();
        let Some(seat) = s.to_move().filter(|&m| seats.contains(m)) else {
            return Ok(());
        };
        let mut legal = Vec::new();
        s.legal_turns(&mut legal);
        // A seat to move always has a listed turn here: a game with random events and
        // no seed, where the players write the outcomes, is refused before play starts.
        if legal.is_empty() {
            return Err(Failure::Usage(format!(
                "internal error: the engine plays {} but no legal turn is listed",
                seat_name::<G>(seat)
            )));
        }
        // Each turn's search has its own seed, so a game replays from the same options.
        let mut turn_config = config.clone();
        turn_config.seed = format!("{}/{}", config.seed, s.turns + 1);
        let a = think(s, &turn_config)?;
        let turn = a.best_of(&legal).expect("legal turns");
        let mut next = s.clone();
        let number = next.expected_number();
        next.play(&Action::Play(turn.clone()), "").map_err(|r| {
            Failure::Usage(format!(
                "internal error: the engine's turn was refused: {r}"
            ))
        })?;
        let line = format!("{number} {turn}");
        game.lines.push(line.clone());
        let status = next.status_report();
        let win = a
            .seats
            .iter()
            .find(|e| e.seat == seat)
            .map_or(0.0, |e| e.mean);
        let doc = json!({"ok": true, "engine": seat_name::<G>(seat), "played": line,
                         "estimate": (win * 1000.0).round() / 1000.0,
                         "turn": next.turns, "next": status.to_move, "status": status,
                         "random": random_json(&next)});
        let text = format!(
            "engine {}: {line}; ok {}: {}",
            seat_name::<G>(seat),
            next.turns,
            status.describe()
        );
        game.history.push(next);
        save_turn(game, lock, record)?;
        emit(out, json, &Answer::ok(doc, text))?;
    }
}

/// Where the game stands, in words: the turns played (what `turn` counts in every
/// answer), then the next turn's number and who plays it, or how the game ended.
fn standing(played: usize, status: &crate::referee::StatusReport) -> String {
    let s = if played == 1 { "" } else { "s" };
    if status.over {
        format!("{played} turn{s} played; {}", status.describe())
    } else {
        format!(
            "{played} turn{s} played; turn {}: {}",
            played + 1,
            status.describe()
        )
    }
}

/// Writes the turn just accepted (the last line of `game`) to the record file, appended;
/// when it ended the game, the file's header then says who won and how, its tags set in
/// the text as written, so the comments and layout of the turns before are kept.
fn save_turn<G: Game>(
    game: &Game_<G>,
    lock: &mut Option<RecordLock>,
    record: Option<&Path>,
) -> Result<(), Failure> {
    let Some(lock) = lock else {
        return Ok(());
    };
    let cannot = |e: io::Error| Failure::Usage(format!("cannot write {}: {e}", lock_name(record)));
    lock.append(game.lines.last().expect("a turn was accepted"))
        .map_err(cannot)?;
    let now = game.current();
    let Some(f) = Finish::of::<G>(&now.settings, &now.status()) else {
        return Ok(());
    };
    let text = lock
        .read(None)
        .map_err(cannot)
        .map(|b| String::from_utf8_lossy(&b).into_owned())?;
    // A byte order mark stays where it is, outside the records that are read.
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let bom = &text[..text.len() - body.len()];
    lock.replace(&format!("{bom}{}", with_finish_tags(body, &f)))
        .map_err(cannot)
}

/// `text` (records, the last of them this game's) with the last record's header saying
/// how the game ended, the rest kept as written.
fn with_finish_tags(text: &str, f: &Finish) -> String {
    let split = record::split(text, &record::Limits::default());
    match split.records.last() {
        Some(raw) => record::set_tags(text, &raw.header, &f.tags(), "\n"),
        None => text.to_string(),
    }
}

struct Answer {
    json: Json,
    text: String,
}

impl Answer {
    fn ok(json: Json, text: String) -> Answer {
        Answer { json, text }
    }
    fn err(rule: Option<&str>, message: String, hint: Option<String>) -> Answer {
        let text = match (rule, &hint) {
            (Some(r), Some(h)) => format!("refused ({r}): {message}; hint: {h}"),
            (Some(r), None) => format!("refused ({r}): {message}"),
            (None, _) => format!("refused: {message}"),
        };
        Answer {
            json: refusal_json(rule, &message, hint.as_deref()),
            text,
        }
    }
}

fn emit(out: &mut dyn Write, json: bool, a: &Answer) -> Outcome {
    if json {
        writeln!(out, "{}", a.json)?;
    } else {
        writeln!(out, "{}", a.text)?;
    }
    out.flush()?;
    Ok(())
}

fn lock_name(record: Option<&Path>) -> String {
    record.map(|p| p.display().to_string()).unwrap_or_default()
}

/// Why a new record file could not be made, in the user's terms: the temporary file it
/// is written through is not theirs to hear of.
fn cannot_create(name: &dyn std::fmt::Display, path: &Path, e: io::Error) -> Failure {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Failure::Usage(format!(
            "cannot write {name}: the directory {} does not exist",
            parent.display()
        ));
    }
    Failure::Usage(format!(
        "cannot write {name}: {}",
        io::Error::from(e.kind())
    ))
}

/// Locks the record file for the session: resumes it if it exists, else creates it with
/// the header of `new_game`. Another referee holding it past the wait is an error.
fn hold_record<G: Render>(
    ctx: &Ctx,
    path: &Path,
    new_game: impl Fn() -> Result<Game_<G>, Failure>,
) -> Result<(Game_<G>, RecordLock), Failure> {
    super::commands::not_a_directory(&path.to_string_lossy())?;
    let name = path.display();
    let wait = wait_limit().map_err(Failure::Usage)?;
    loop {
        match RecordLock::acquire(path, true, wait) {
            Ok(mut lock) => return Ok((resume::<G>(ctx, path, &mut lock)?, lock)),
            Err(LockError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {
                let game = new_game()?;
                match RecordLock::create(path, &game.file_text()) {
                    Ok(lock) => return Ok((game, lock)),
                    // Another referee created it meanwhile: lock and resume that one.
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(cannot_create(&name, path, e)),
                }
            }
            Err(LockError::Io(e)) => {
                return Err(Failure::Usage(format!("cannot open {name}: {e}")))
            }
            Err(LockError::Busy(waited)) => {
                return Err(Failure::Usage(format!(
                    "{name} is held by another referee (another `play --record` session?) \
                     and was not free after {waited:?}; {} sets the wait in seconds",
                    super::commands::LOCK_WAIT_VAR
                )))
            }
        }
    }
}

/// Resumes a record file held under `lock`: replays its last record, which must be valid
/// and not closed by a result's marker. Turns are appended to the file, so a `*` marker
/// is taken out of it and a last line without its line end is ended first.
fn resume<G: Render>(ctx: &Ctx, path: &Path, lock: &mut RecordLock) -> Result<Game_<G>, Failure> {
    let name = path.to_string_lossy().to_string();
    let text = lock
        .read(None)
        .map_err(|e| Failure::Usage(format!("cannot read {name}: {e}")))
        .and_then(|b| {
            String::from_utf8(b)
                .map_err(|e| Failure::Usage(format!("cannot read {name}: {}", e.utf8_error())))
        })?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
    let split = record::split(&text, &ctx.env.limits);
    let Some(raw) = split.records.last() else {
        return Err(Failure::Usage(format!("{name} holds no record to resume")));
    };
    let game =
        referee::game_of(raw).map_err(|d| Failure::Usage(format!("{name}: {}", d.message)))?;
    if game != G::NAME {
        return Err(Failure::Usage(format!(
            "{name} is a game of {game}, not {}",
            G::NAME
        )));
    }
    let index = split.records.len() - 1;
    let j = judge::<G>(&ctx.env, &name, &text, raw, index, JudgeOptions::default());
    if !j.report.valid {
        let e = &j.report.errors[0];
        return Err(Failure::Usage(format!(
            "{name} cannot be resumed: {}",
            e.message
        )));
    }
    let marker = j.movetext.as_ref().and_then(|m| m.termination);
    if let Some((m, _)) = marker.filter(|(m, _)| *m != Termination::Unknown) {
        return Err(Failure::Usage(format!(
            "{name} ends with the marker `{m}`: the game is closed"
        )));
    }
    // Rebuild the history turn by turn, so `:undo` works on resumed turns too.
    let mut session = {
        let o = JudgeOptions {
            detail: false,
            stop_after: Some(0),
            breakdowns: false,
            first_line: 0,
        };
        judge::<G>(&ctx.env, &name, &text, raw, index, o)
            .session
            .expect("a valid record starts")
    };
    let mut history = vec![session.clone()];
    let mut lines = Vec::new();
    for entry in &j.movetext.as_ref().expect("judged").entries {
        let number = session.expected_number();
        let written = entry.action.written().expect("the record is valid");
        session
            .play(&entry.action, "")
            .map_err(|r| Failure::Usage(format!("internal error: {r}")))?;
        lines.push(format!("{number} {written}"));
        history.push(session.clone());
    }
    let header = text[raw.span.start..raw.movetext.start]
        .trim_end()
        .to_string()
        + "\n";
    let prefix = text[..raw.span.start].to_string();
    let mut open = text.clone();
    if let Some((_, span)) = marker {
        let kept = open[..span.start].trim_end_matches([' ', '\t']).len();
        open.replace_range(kept..span.end, "");
    }
    if !open.is_empty() && !open.ends_with('\n') {
        open.push('\n');
    }
    if open != text {
        lock.replace(&open)
            .map_err(|e| Failure::Usage(format!("cannot write {name}: {e}")))?;
    }
    Ok(Game_ {
        history,
        prefix,
        header,
        lines,
    })
}

pub fn play(
    ctx: &Ctx,
    engine: Option<EnginePlay<'_>>,
    name: &str,
    seed: Option<&str>,
    seats: &[String],
    record: Option<&Path>,
    out: &mut dyn Write,
) -> Outcome {
    let seed = match seed {
        Some(s) => NewSeed::Given(s.to_string()),
        None => NewSeed::Fresh,
    };
    play_from(
        ctx,
        engine,
        name,
        &seed,
        seats,
        record,
        &mut io::stdin().lock(),
        out,
    )
}

/// `play` reading its lines from `input` (the fuzz target drives it in process).
#[allow(clippy::too_many_arguments)]
pub fn play_from(
    ctx: &Ctx,
    engine: Option<EnginePlay<'_>>,
    name: &str,
    seed: &NewSeed,
    seats: &[String],
    record: Option<&Path>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Outcome {
    match ctx.global.format {
        Format::Text | Format::Json => {}
        f => {
            return Err(Failure::Usage(
                format!("play answers in text or json, not {f:?}").to_lowercase(),
            ))
        }
    }
    let rs = load_ruleset(ctx, name)?;
    let rs = apply_cli_options(ctx, &rs, seats)?;
    let game = rs.game.clone();
    dispatch(
        &game,
        PlayVisit {
            engine,
            ctx,
            rs: &rs,
            seed: match seed {
                NewSeed::Given(s) => Some(s.as_str()),
                _ => None,
            },
            fresh: matches!(seed, NewSeed::Fresh),
            seats_tag: !seats.is_empty(),
            record,
            input,
            out,
        },
    )
    .unwrap_or_else(|| Err(Failure::Usage(format!("unknown game {game}"))))
}
