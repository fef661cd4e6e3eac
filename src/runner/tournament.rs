//! A match played: the schedule's games run a few at a time, each finished game written
//! at once (its record to `--out`, its result to `--state`), a killed run resumed
//! without losing or repeating a game, and the results summed up.
//!
//! Crash safety: each game's record is appended to the output file and flushed, then
//! its result line (with the output file's length after it) to the state file. A run
//! that starts on an existing state file replays its results, cuts the output file back
//! to the length the last result names (a record written after it, by a run killed
//! before its result line, is played again), and plays the games that are left. A last
//! state line cut short by a kill is not a result, and is dropped.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use serde::{Deserialize, Serialize};

use crate::games::Game;

use super::game::{self, GameSpec, Played, Table};
pub use super::report::{ForfeitNote, GameResult, Tally};
use super::schedule::{self, Schedule, Slot};

/// How a match is played, beyond what every game shares ([`Table`]).
#[derive(Clone, Debug)]
pub struct Plan {
    /// Games for each encounter (rounded up to whole pairs).
    pub games: usize,
    pub gauntlet: bool,
    /// The seed of the whole schedule: every game's dice and opening derive from it.
    pub seed: String,
    /// Openings: pair `p` opens with the `p mod len`-th (none: the game's start).
    pub openings: Vec<game::Opening>,
    /// Random turns that open each pair (after its opening).
    pub random_turns: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// This run plays the `k`-th of `n` shards.
    pub shard: Option<(usize, usize)>,
    pub out: Option<PathBuf>,
    pub state: Option<PathBuf>,
}

/// The first line of a state file: what match it belongs to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StateHead {
    /// The state file's format.
    pub referee_match: u32,
    /// Everything that fixes the schedule and the games (not the shard, the concurrency
    /// or the files): a run on a state file of another match is refused.
    pub fingerprint: String,
    pub bots: Vec<String>,
    pub ruleset: String,
    /// Games in the whole schedule.
    pub scheduled: usize,
    /// The output file's length when the match started.
    pub out_start: u64,
}

/// Is the schedule's `index`-th game this run's: in its shard (every game without one)?
pub fn is_mine(schedule: &Schedule, plan: &Plan, index: usize) -> bool {
    match plan.shard {
        Some((k, n)) => schedule::in_shard(schedule.pair(index), k, n),
        None => true,
    }
}

/// Reads a state file: its head and the results of the games it records. A last line
/// cut short (no newline, or not JSON) is dropped.
pub fn read_state(path: &Path) -> Result<Option<(StateHead, Vec<GameResult>)>, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut lines = Vec::new();
    let mut reader = BufReader::new(file);
    loop {
        let mut l = String::new();
        match reader.read_line(&mut l) {
            Ok(0) => break,
            Ok(_) if l.ends_with('\n') => lines.push(l),
            // A line the kill cut short.
            Ok(_) => break,
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        }
    }
    let Some(first) = lines.first() else {
        return Ok(None);
    };
    let head: StateHead = serde_json::from_str(first)
        .map_err(|e| format!("{}:1: not the state file of a match: {e}", path.display()))?;
    let mut results = Vec::new();
    for (i, l) in lines.iter().enumerate().skip(1) {
        match serde_json::from_str::<GameResult>(l) {
            Ok(r) => results.push(r),
            Err(e) if i + 1 == lines.len() => {
                // The last line, written whole but garbled: dropped like a cut one.
                let _ = e;
            }
            Err(e) => {
                return Err(format!(
                    "{}:{}: not a game's result: {e}",
                    path.display(),
                    i + 1
                ))
            }
        }
    }
    Ok(Some((head, results)))
}

/// The files a run writes, held for appending.
struct Files {
    out: Option<File>,
    state: Option<File>,
    out_len: u64,
}

impl Files {
    fn open(
        plan: &Plan,
        head: &StateHead,
        resumed: Option<&[GameResult]>,
    ) -> Result<Files, String> {
        let open_append = |p: &Path| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot write {}: {e}", p.display()))
        };
        let mut out_len = 0;
        let out = match &plan.out {
            None => None,
            Some(p) => {
                if let Some(done) = resumed {
                    // Back to where the last recorded game left it.
                    let end = done
                        .iter()
                        .map(|r| r.out_end)
                        .max()
                        .unwrap_or(head.out_start);
                    let f = OpenOptions::new()
                        .write(true)
                        .create(true)
                        .truncate(false)
                        .open(p)
                        .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
                    if len > end {
                        f.set_len(end)
                            .map_err(|e| format!("cannot cut {}: {e}", p.display()))?;
                    }
                }
                let mut f = open_append(p)?;
                out_len = f
                    .seek(SeekFrom::End(0))
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                Some(f)
            }
        };
        let state = match &plan.state {
            None => None,
            Some(p) => {
                let fresh = resumed.is_none();
                if fresh {
                    let mut f = File::create(p)
                        .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                    let mut head = head.clone();
                    head.out_start = out_len;
                    writeln!(f, "{}", serde_json::to_string(&head).expect("serializes"))
                        .and_then(|()| f.sync_data())
                        .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                } else {
                    // A line cut short by a kill is cut off before appending.
                    cut_partial_line(p)?;
                }
                Some(open_append(p)?)
            }
        };
        Ok(Files {
            out,
            state,
            out_len,
        })
    }

    /// Writes one finished game: the record, then its result.
    fn write(
        &mut self,
        played: &Played,
        result: &mut GameResult,
        plan: &Plan,
    ) -> Result<(), String> {
        if let (Some(f), Some(p)) = (self.out.as_mut(), &plan.out) {
            f.write_all(played.record.as_bytes())
                .and_then(|()| f.flush())
                .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            self.out_len += played.record.len() as u64;
            result.out_end = self.out_len;
        }
        if let (Some(f), Some(p)) = (self.state.as_mut(), &plan.state) {
            if let Some(o) = self.out.as_mut() {
                o.sync_data()
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            }
            writeln!(f, "{}", serde_json::to_string(result).expect("serializes"))
                .and_then(|()| f.sync_data())
                .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        Ok(())
    }
}

/// Cuts a file back to its last newline.
fn cut_partial_line(p: &Path) -> Result<(), String> {
    let bytes = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if keep < bytes.len() {
        let f = OpenOptions::new()
            .write(true)
            .open(p)
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        f.set_len(keep as u64)
            .map_err(|e| format!("cannot cut {}: {e}", p.display()))?;
    }
    Ok(())
}

/// The result of a finished game, for the state file and the summary.
pub fn result_of(played: &Played, slot: &Slot) -> GameResult {
    GameResult {
        index: slot.index,
        pair: slot.pair,
        seating: slot.seating.clone(),
        result: played.result.clone(),
        termination: played.termination.clone(),
        reason: played.reason.clone(),
        turns: played.turns,
        winners: played.winners.clone(),
        forfeits: played
            .forfeits
            .iter()
            .map(|f| ForfeitNote {
                seat: f.seat,
                bot: slot.seating[f.seat],
                kind: f.kind.as_str().to_string(),
                rule: f.rule.map(str::to_string),
                message: f.message.clone(),
            })
            .collect(),
        out_end: 0,
    }
}

/// What the caller hears while the match is played.
pub trait Listener {
    /// A game finished (after it was written and counted in `tally`). Returning `true`
    /// stops the match: no new game starts (an SPRT decided).
    fn finished(&mut self, result: &GameResult, tally: &Tally) -> bool;
}

/// Plays the match: the games of `slots` left to play, `concurrency` at once, each
/// counted in `tally` as it finishes (those of an earlier run resumed from `--state`
/// first). Nothing is kept of a game but its place in the tally, so a match of any
/// length runs in the same memory.
pub fn run<G: Game>(
    table: &Table,
    plan: &Plan,
    schedule: &Schedule,
    head: &StateHead,
    tally: &mut Tally,
    listener: &mut dyn Listener,
) -> Result<(), String> {
    let resumed = match &plan.state {
        Some(p) => match read_state(p)? {
            Some((h, done)) => {
                if h.fingerprint != head.fingerprint {
                    return Err(format!(
                        "{} is the state of another match (other bots, ruleset, games, seed or \
                         limits): give a new --state file, or the same options as that match",
                        p.display()
                    ));
                }
                Some(done)
            }
            None => None,
        },
        None => None,
    };
    let mut files = Files::open(plan, head, resumed.as_deref())?;
    let done: std::collections::HashSet<usize> = resumed
        .unwrap_or_default()
        .iter()
        .map(|r| {
            tally.add(r);
            r.index
        })
        .collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(Slot, Result<Played, String>)>();
    let workers = plan.concurrency.max(1);
    let mut failure: Option<String> = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, done) = (&next, &stop, &done);
            scope.spawn(move || loop {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= schedule.len() {
                    return;
                }
                if !is_mine(schedule, plan, i) || done.contains(&i) {
                    continue;
                }
                let slot = schedule.slot(i);
                let opening = match plan.openings.len() {
                    0 => None,
                    n => Some(&plan.openings[slot.pair % n]),
                };
                let spec = GameSpec {
                    index: slot.index,
                    seating: slot.seating.clone(),
                    seed: opening
                        .and_then(|o| o.seed.clone())
                        .unwrap_or_else(|| slot.seed.clone()),
                    opening: opening.map(|o| o.turns.clone()).unwrap_or_default(),
                    random_turns: plan.random_turns,
                };
                let played = game::play::<G>(table, &spec);
                if tx.send((slot, played)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        for (slot, played) in rx {
            let played = match played {
                Ok(p) => p,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            let mut result = result_of(&played, &slot);
            if let Err(e) = files.write(&played, &mut result, plan) {
                stop.store(true, Ordering::SeqCst);
                failure.get_or_insert(e);
                continue;
            }
            tally.add(&result);
            if listener.finished(&result, tally) {
                stop.store(true, Ordering::SeqCst);
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Combines the states of a match's shards into one tally (a game recorded twice counts
/// once); the shards must be of the same match.
pub fn merge(paths: &[PathBuf]) -> Result<(StateHead, Tally), String> {
    let mut head: Option<StateHead> = None;
    let mut by_index: BTreeMap<usize, GameResult> = BTreeMap::new();
    let mut tally: Option<Tally> = None;
    let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for p in paths {
        let (h, results) =
            read_state(p)?.ok_or_else(|| format!("{} holds no match", p.display()))?;
        match &head {
            None => head = Some(h),
            Some(first) if first.fingerprint != h.fingerprint => {
                return Err(format!(
                    "{} is the state of another match than {}",
                    p.display(),
                    paths[0].display()
                ))
            }
            Some(_) => {}
        }
        for r in results {
            by_index.entry(r.index).or_insert(r);
        }
        // Counted shard by shard: a tally is a few numbers, a shard's results are not.
        let h = head.as_ref().expect("set above");
        let t = tally.get_or_insert_with(|| Tally::new(&h.bots, h.scheduled));
        for r in std::mem::take(&mut by_index).into_values() {
            if seen.insert(r.index) {
                t.add(&r);
            }
        }
    }
    let head = head.ok_or("no state file given")?;
    let tally = tally.unwrap_or_else(|| Tally::new(&head.bots, head.scheduled));
    Ok((head, tally))
}
