//! The fuzz entry points (issue 9): one function a target, each taking arbitrary bytes
//! and driving one input surface of the referee the way the command line does. The
//! cargo-fuzz targets in `fuzz/` call them, and `tests/fuzz_regressions.rs` replays every
//! finding kept under `tests/fuzz-regressions/<target>/` through the same function.
//!
//! Each entry point panics only on a bug: the referee panicking on its input, or one of
//! the cheap cross-checks below failing (the fast movetext reader against the token by
//! token one, a turn's written form against its parse, a position's setup string against
//! its parse). Running out of time or stack is the fuzzer's to catch.

use std::io::{BufRead, Cursor, Write};
use std::sync::LazyLock;

use crate::games::{self, Game};
use crate::notation::record::{self, Action, Chunks, Limits, Span};
use crate::notation::TurnParse;
use crate::referee::{self, judge, Env, JudgeOptions, Session};
use crate::ruleset::Library;

/// The targets, by the name of their fuzz target and regression folder.
pub const TARGETS: &[&str] = &[
    "record", "halatafl", "thaayam", "halves", "halasi", "ruleset", "options", "setup", "tiles",
    "play",
];

/// Runs the entry point of `target` on `data`; `false` for an unknown target.
pub fn run(target: &str, data: &[u8]) -> bool {
    match target {
        "record" => record(data),
        "halatafl" => movetext::<games::halatafl::Halatafl>(data),
        "thaayam" => movetext::<games::thaayam::Thaayam>(data),
        "halves" => movetext::<games::halves::Halves>(data),
        "halasi" => movetext::<games::halasi::Halasi>(data),
        "ruleset" => ruleset(data),
        "options" => tag_value("Options", data),
        "setup" => tag_value("Setup", data),
        "tiles" => tiles(data),
        "play" => drop(play(data)),
        _ => return false,
    }
    true
}

/// The environment every target judges in: the shipped rulesets only, default limits.
fn env() -> &'static Env {
    static ENV: LazyLock<Env> = LazyLock::new(|| Env::new(Library::new(Vec::new())));
    &ENV
}

/// Input as text: invalid UTF-8 is replaced, so every input reaches the parsers.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The record frame and every game: a whole file judged as `check` judges it, both from
/// its text and as a stream of bytes cut into records. Where the input is UTF-8 and no
/// record is over the size limit, the two agree: the same records, verdicts, turns and
/// errors, each error at the same place of the file (finding record/stream-lines: the
/// stream's messages counted lines from the record, not the file).
pub fn record(data: &[u8]) {
    let env = env();
    let text = text(data);
    let (text, bom) = record::strip_bom(&text);
    let reports = referee::check_text(env, "fuzz", text);
    assert!(!reports.is_empty(), "check_text gives at least one report");
    for r in &reports {
        for e in &r.errors {
            if let Some(s) = e.span {
                assert!(
                    s.start <= s.end && s.end <= text.len(),
                    "span {s:?} out of the text"
                );
            }
        }
    }
    let mut streamed = Vec::new();
    let mut comparable = std::str::from_utf8(data).is_ok();
    for chunk in Chunks::new(data, env.limits).flatten() {
        comparable &= matches!(chunk.text, record::ChunkText::Text(_));
        let shift = chunk.offset - bom;
        // The seed hashed as `check` hashes a batch's seeds, beside the whole text's,
        // hashed one at a time.
        let key = referee::chunk_seed(&chunk).map(|seed| {
            let mut key = [[0u8; 32]];
            crate::dice::seed_keys(&[seed.as_bytes()], &mut key);
            key[0]
        });
        for r in referee::check_chunk(env, "fuzz", &chunk, key) {
            streamed.push(ruling(&r, shift));
        }
    }
    if comparable {
        let whole: Vec<String> = reports.iter().map(|r| ruling(r, 0)).collect();
        assert_eq!(whole, streamed, "the stream and the whole text disagree");
    }
}

/// What a report says, its errors placed in the file (`shift`: where its text starts).
fn ruling(r: &referee::Report, shift: usize) -> String {
    let errors: Vec<String> = r
        .errors
        .iter()
        .map(|e| {
            let at = e.span.map(|s| (s.start + shift, s.end + shift));
            format!(
                "{:?} {:?} {:?} {:?} {}",
                e.kind, e.rule, e.turn, at, e.message
            )
        })
        .collect();
    format!(
        "{} {} {:?} {:?} {} {errors:?}",
        r.valid,
        r.turns,
        r.game,
        r.ruleset,
        r.status.is_some()
    )
}

/// One game's movetext: `[Game "NAME"]` and then the input, which may add more tags
/// (`Ruleset`, `Setup`, `Seed`) before its movetext. Judged in full detail (the ruling
/// `adjudicate` gives), with the cross-checks on the movetext and its turns.
pub fn movetext<G: Game>(data: &[u8]) {
    let text = format!("[Game \"{}\"]\n{}", G::NAME, text(data));
    judge_text::<G>(&text);
}

/// Judges every record of `text` as game `G` with every detail, and cross-checks the
/// movetext readers; where the record stops, the setup round trip and near misses of the
/// legal turns judged against the listing.
fn judge_text<G: Game>(text: &str) {
    let env = env();
    let file = record::split(text, &env.limits);
    for (index, raw) in file.records.iter().enumerate() {
        movetext_agrees::<G>(text, raw.movetext, &env.limits);
        if referee::game_of(raw) != Ok(G::NAME) {
            continue;
        }
        let options = JudgeOptions {
            detail: true,
            stop_after: None,
            breakdowns: true,
            first_line: 0,
        };
        let j = judge::<G>(env, "fuzz", text, raw, index, options);
        // A seat that resigned has left the game; Thaayam's setup notation says so with
        // `west: out` (finding thaayam/resigned-seat), Halves' with `red: resigned`, and in
        // the two-seat games a resignation ends the game.
        if let Some(s) = &j.session {
            setup_round_trips(s);
            judged_turns_are_listed(s, &mut crate::dice::Dice::from_seed("fuzz"), 8);
        }
    }
}

/// The fast movetext reader gives what the token by token reader gives, and every turn's
/// written form parses back to the same turn.
fn movetext_agrees<G: Game>(text: &str, span: Span, limits: &Limits) {
    let fast = G::parse_movetext(text, span, limits);
    let slow = record::parse_movetext(text, span, limits, G::parse_turn);
    assert_eq!(fast, slow, "the fast movetext reader disagrees");
    for entry in &fast.entries {
        if let Action::Play(turn) = &entry.action {
            let written = turn.to_string();
            match G::parse_turn(&written) {
                TurnParse::Turn(back, len) => {
                    assert_eq!(len, written.len(), "`{written}` is not read whole");
                    assert_eq!(&back, turn, "`{written}` reads back as another turn");
                }
                other => panic!("`{written}`, a turn's written form, does not parse: {other:?}"),
            }
        }
    }
}

/// The setup round trip (`setup_round_trips`) at every position of `games` random games
/// of the shipped ruleset `ruleset` (uniformly random legal turns, as `selfplay` plays
/// them, from `seed`): the fuzzers' check, on positions that play reaches often rather
/// than those mutation finds; and at each, turns near the listed ones judged
/// (`judged_turns_are_listed`). Returns how many positions were checked and how many
/// accepted turns were not written as listed ones.
pub fn selfplay_round_trips<G: Game>(ruleset: &str, games: usize, seed: &str) -> (usize, usize) {
    let rs = env().ruleset(Some(ruleset)).expect("a shipped ruleset");
    let mut chooser = crate::dice::Dice::from_seed(seed);
    let mut scratch = Vec::new();
    let (mut checked, mut unlisted) = (0, 0);
    for g in 0..games {
        let game_seed = format!("{seed}-{g}");
        let tags = record::Header::default();
        let mut s = Session::<G>::start(rs.clone(), None, &tags, Some(&game_seed))
            .unwrap_or_else(|_| panic!("{ruleset} starts"));
        while s.to_move().is_some() && s.turns < 2_000 {
            setup_round_trips(&s);
            unlisted += judged_turns_are_listed(&s, &mut chooser, 6);
            checked += 1;
            let turn = G::random_turn(
                &s.settings,
                &s.state,
                s.chance.as_ref(),
                &mut chooser,
                &mut scratch,
            )
            .unwrap_or_else(|| panic!("{ruleset}: no legal turn in a game not over"));
            if s.play(&Action::Play(turn), "").is_err() {
                panic!("{ruleset}: a listed turn was refused");
            }
        }
    }
    (checked, unlisted)
}

/// Every turn the judge accepts leads where a listed turn leads: `tries` near misses of
/// the listed turns (one cut short, two spliced, a character changed or left out), each
/// judged; one accepted must leave a position (its setup string) that a listed turn
/// leaves. Returns how many accepted near misses were not written as a listed turn.
/// The other way (every listed turn is accepted) is checked wherever turns are listed
/// and played. Not Halasi (its setup string is not the whole position), nor a
/// listing cut at its limit.
fn judged_turns_are_listed<G: Game>(
    s: &Session<G>,
    rng: &mut crate::dice::Dice,
    tries: usize,
) -> usize {
    if G::NAME == "halasi" || s.to_move().is_none() {
        return 0;
    }
    let mut listed = Vec::new();
    s.legal_turns(&mut listed);
    if listed.is_empty() || listed.len() >= 500 {
        return 0;
    }
    let written: std::collections::HashSet<String> =
        listed.iter().map(ToString::to_string).collect();
    let mut unlisted = 0;
    let after = |turn: &G::Turn| {
        let mut st = s.state.clone();
        G::play(&s.settings, &mut st, s.chance.as_ref(), turn)
            .ok()
            .map(|()| G::setup_string(&s.settings, &st))
    };
    let reached: std::collections::HashSet<String> = listed.iter().filter_map(after).collect();
    let pick = |rng: &mut crate::dice::Dice| -> Vec<char> {
        listed[rng.uniform(listed.len() as u32) as usize]
            .to_string()
            .chars()
            .collect()
    };
    for _ in 0..tries {
        let (a, b) = (pick(rng), pick(rng));
        let at = |rng: &mut crate::dice::Dice, v: &[char]| rng.uniform(v.len() as u32) as usize;
        let (i, j) = (at(rng, &a), at(rng, &b));
        let near: String = match rng.uniform(4) {
            0 => a[..=i].iter().collect(),
            1 => a[..i].iter().chain(&b[j..]).collect(),
            2 => {
                let mut c = a.clone();
                c[i] = b[j];
                c.into_iter().collect()
            }
            _ => a[..i].iter().chain(&a[i + 1..]).collect(),
        };
        let TurnParse::Turn(turn, len) = G::parse_turn(&near) else {
            continue;
        };
        if len != near.len() {
            continue;
        }
        if let Some(setup) = after(&turn) {
            assert!(
                reached.contains(&setup),
                "`{near}` is accepted in `{}` and leaves `{setup}`, where no listed turn leads",
                G::setup_string(&s.settings, &s.state)
            );
            unlisted += usize::from(!written.contains(&turn.to_string()));
        }
    }
    unlisted
}

/// A position still in play: its setup string starts the same position. (A finished
/// game's cannot start one: a `Setup` may not be over already. Halasi's setup notation
/// holds solitaire's layout only, so its table game is left out.)
fn setup_round_trips<G: Game>(s: &Session<G>) {
    if G::NAME == "halasi" || !matches!(s.status(), games::Status::Playing { .. }) {
        return;
    }
    let setup = G::setup_string(&s.settings, &s.state);
    match G::parse_setup(&s.settings, &setup) {
        Ok(back) => {
            let again = G::setup_string(&s.settings, &back);
            assert_eq!(
                again, setup,
                "the setup string `{setup}` does not round-trip"
            );
            // The same position plays the same: as many legal turns (how each is written
            // may follow which piece is which: a setup numbers Thaayam's pieces in route
            // order), and the first few of them taken alike, to the same positions (what
            // the notation leaves out, such as a seat that has left or a pass just made,
            // shows there).
            let mut read = s.clone();
            read.state = back;
            let (mut turns, mut turns_read) = (Vec::new(), Vec::new());
            s.legal_turns(&mut turns);
            read.legal_turns(&mut turns_read);
            assert_eq!(
                turns.len(),
                turns_read.len(),
                "`{setup}` read back has another number of legal turns"
            );
            for turn in turns.into_iter().take(4) {
                plays_alike(s.clone(), read.clone(), turn, &setup);
            }
        }
        Err(v) => panic!("the setup string `{setup}` of a position is refused: {v:?}"),
    }
}

/// Plays `turn` on both sessions, then the first legal turn of each position after it,
/// up to four turns in all (so that a turn reaches every seat of up to four): both must
/// take the same turns to the same positions.
fn plays_alike<G: Game>(mut a: Session<G>, mut b: Session<G>, turn: G::Turn, setup: &str) {
    let mut next = Some(turn);
    let mut turns = Vec::new();
    for _ in 0..4 {
        let Some(turn) = next.take() else { return };
        let written = turn.to_string();
        let action = Action::Play(turn);
        let played = a.play(&action, "").is_ok();
        assert_eq!(
            played,
            b.play(&action, "").is_ok(),
            "`{setup}` read back does not take {written} as it was"
        );
        if !played {
            return;
        }
        assert_eq!(
            G::setup_string(&a.settings, &a.state),
            G::setup_string(&b.settings, &b.state),
            "`{setup}` read back plays on differently after {written}"
        );
        turns.clear();
        a.legal_turns(&mut turns);
        next = turns.first().cloned();
    }
}

/// A tag value of one game: the input is `GAME`, a newline, the value, a newline and a
/// movetext (`halves\n(0,0)…\n+(1,0)`). The value is written into an `Options` or `Setup`
/// tag (escaped as a tag value is) of a record of that game, judged in full detail.
pub fn tag_value(tag: &str, data: &[u8]) {
    let text = text(data);
    let (game, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let (value, moves) = rest.split_once('\n').unwrap_or((rest, ""));
    let game = game.trim();
    let record = format!(
        "[Game \"{game}\"]\n[{tag} \"{}\"]\n\n{moves}",
        record::escape(value)
    );
    match game {
        "thaayam" => judge_text::<games::thaayam::Thaayam>(&record),
        "halves" => judge_text::<games::halves::Halves>(&record),
        "halasi" => judge_text::<games::halasi::Halasi>(&record),
        _ => judge_text::<games::halatafl::Halatafl>(&record),
    }
}

/// The ruleset language: the input is a `.rules` file, loaded (parsed, resolved through
/// its `extends` chain among the shipped rulesets, checked against its game's schema)
/// and, when it loads, used to judge an empty record of its game.
pub fn ruleset(data: &[u8]) {
    let text = text(data);
    // The file's stem must be the name its `ruleset` line gives; take that name when it
    // is a valid one that a file can have (255 bytes at most on common file systems:
    // a longer name cannot be a ruleset file, and `fuzz` then tries the mismatch), so
    // inputs get past that check.
    let name = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("ruleset "))
        .map(str::trim)
        .filter(|n| crate::ruleset::load::check_name(n).is_ok() && n.len() + ".rules".len() <= 255)
        .unwrap_or("fuzz");
    let dir = scratch_dir();
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text.as_bytes()).expect("the scratch directory is writable");
    let mut env = Env::new(Library::new(vec![dir.to_path_buf()]));
    env.ruleset_file = Some(path.clone());
    let loaded = env.ruleset(None);
    if let Ok(rs) = loaded {
        let record = format!("[Game \"{}\"]\n\n*\n", rs.game);
        referee::check_text(&env, "fuzz", &record);
    }
    let _ = std::fs::remove_file(&path);
}

/// A scratch directory of this process for files an entry point must write.
fn scratch_dir() -> &'static std::path::Path {
    static DIR: LazyLock<tempfile::TempDir> =
        LazyLock::new(|| tempfile::tempdir().expect("a scratch directory"));
    DIR.path()
}

/// Halasi's tile-set YAML.
pub fn tiles(data: &[u8]) {
    let text = text(data);
    let _ = games::halasi::tiles::parse("fuzz", &text);
}

/// The stdin protocol: the input's first line names a shipped ruleset (`play`'s
/// argument; an unknown name falls back to `halatafl`), the rest is what is typed, one
/// turn or `:command` a line, answered in JSON. Returns the answers.
pub fn play(data: &[u8]) -> String {
    let (first, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let first = String::from_utf8_lossy(first);
    let name = first.trim();
    let name = if crate::ruleset::shipped::get(name).is_some() {
        name
    } else {
        "halatafl"
    };
    let mut input = Cursor::new(rest);
    let mut out = Vec::new();
    play_on(name, &mut input, &mut out);
    String::from_utf8(out).expect("the answers are UTF-8")
}

/// `referee play NAME --format json` reading `input`.
fn play_on(name: &str, input: &mut dyn BufRead, out: &mut dyn Write) {
    use clap::Parser;
    let cli = crate::cli::Cli::try_parse_from(["referee", "play", name, "--format", "json"])
        .expect("the arguments parse");
    let ctx = crate::cli::Ctx {
        env: Env::new(Library::new(Vec::new())),
        global: cli.command.global(),
        color: false,
    };
    // A refused turn is an answer, not an error; reading invalid UTF-8 ends the game
    // with a usage error (exit 2), as it does from a terminal.
    let _ = crate::cli::play_from(
        &ctx,
        None,
        name,
        &crate::cli::NewSeed::Written,
        &[],
        None,
        input,
        out,
    );
}
