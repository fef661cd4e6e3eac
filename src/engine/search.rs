//! A search: several trees, one per thread (root parallelism), merged at the root.
//!
//! With a budget of playouts the split is fixed — tree `i` of `T` runs `N / T` playouts
//! (the first `N % T` one more) from its own generator, seeded `"{seed}/{i}"` — so
//! `seed`, playouts and threads give the same answer however the threads are scheduled.
//! With a budget of time every tree runs until the deadline.

use std::time::{Duration, Instant};

use super::stats::{self, MAX_SEATS};
use super::tree::{RootOutcome, RootTurn, Tree};
use crate::dice::Dice;
use crate::games::{Game, Seat, Status};

/// How long a search thinks.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Budget {
    /// This many iterations in all (each ends in one playout).
    Playouts(u64),
    /// Until this much time has passed (at least one iteration a tree).
    Time(Duration),
}

/// What a search is asked.
#[derive(Clone, Debug)]
pub struct Config {
    pub budget: Budget,
    /// The seed of the engine's own generator (never a record's seed).
    pub seed: String,
    /// Trees, each on its own thread.
    pub threads: usize,
}

impl Config {
    pub fn new(budget: Budget, seed: &str) -> Config {
        Config {
            budget,
            seed: seed.to_string(),
            threads: default_threads(),
        }
    }
}

/// The machine's cores (at most 16).
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(16)
}

/// A turn visited fewer times than this means little: its value is a handful of
/// playouts (below 30 the 95 % interval on a share is wider than ±0.18). `analyse` marks
/// such turns "few visits".
pub const FEW_VISITS: u64 = 30;

/// A turn of the root, merged over the trees.
#[derive(Clone, Debug)]
pub struct Choice<T> {
    pub turn: T,
    pub visits: u64,
    /// The mean share of the win it gave the seat to move.
    pub value: f64,
}

impl<T> Choice<T> {
    /// Too few visits for its value to mean anything ([`FEW_VISITS`]).
    pub fn few_visits(&self) -> bool {
        self.visits < FEW_VISITS
    }
}

/// One group of outcomes ([`Game::outcome_group`]) that may open the turn, when the
/// seat to move has not seen it: how often the search drew it, the seat's chance under
/// it and its best choice there.
#[derive(Clone, Debug)]
pub struct OutcomeChoice<T> {
    pub label: String,
    /// Iterations that drew it.
    pub drawn: u64,
    /// Its share of the iterations: the engine's estimate of its probability.
    pub probability: f64,
    /// The mean share of the win of the seat to move under it.
    pub value: f64,
    /// The seat's turns under it, most visited first (ties: higher value, then first
    /// taken); empty when it has no turn under it.
    pub choices: Vec<Choice<T>>,
}

/// A seat's estimated share of the win, with its 95 % interval.
#[derive(Clone, Debug)]
pub struct SeatEstimate {
    pub seat: Seat,
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

/// A seat's expected standing where the game ends ([`Game::standings`]: Halasi's purse).
#[derive(Clone, Debug)]
pub struct ExpectedStanding {
    pub seat: Seat,
    pub mean: f64,
    pub unit: &'static str,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Analysis<G: Game> {
    /// The seat to move (`None`: the game is over).
    pub to_move: Option<Seat>,
    /// Every seat that plays.
    pub seats: Vec<SeatEstimate>,
    /// The root's turns, most visited first (ties: higher value, then first tried in
    /// tree 0's order). When the outcome opening the turn was drawn afresh these span
    /// every outcome: [`Analysis::outcomes`] tells them apart.
    pub choices: Vec<Choice<G::Turn>>,
    /// The outcome opening the turn, when the seat to move has seen it (the search kept
    /// it: every choice is under it).
    pub outcome: Option<G::Chance>,
    /// When the outcome opening the turn was drawn afresh: the seat's chances by
    /// outcome group, most drawn first (ties: by label). Empty otherwise.
    pub outcomes: Vec<OutcomeChoice<G::Turn>>,
    /// The expected line of play, starting with the best choice (when the outcome was
    /// drawn afresh: the best choice under the outcome drawn most).
    pub line: Vec<G::Turn>,
    /// The mean standings where the playouts ended.
    pub standings: Vec<ExpectedStanding>,
    pub iterations: u64,
    /// Turns played in the tree and playouts.
    pub turns: u64,
    pub elapsed: Duration,
    pub threads: usize,
}

impl<G: Game> Analysis<G> {
    /// The engine's choice: the most visited root turn (a decision, [`Game::decision`]).
    pub fn best(&self) -> Option<&G::Turn> {
        self.choices.first().map(|c| &c.turn)
    }

    /// The engine's choice among `legal` (the turns listed for the outcome the seat has
    /// seen): the legal turn whose decision was visited most; the first legal turn if
    /// the search tried none of them.
    pub fn best_of(&self, legal: &[G::Turn]) -> Option<G::Turn> {
        let decisions: Vec<G::Turn> = legal.iter().map(G::decision).collect();
        self.choices
            .iter()
            .find_map(|c| decisions.iter().position(|d| *d == c.turn))
            .or((!legal.is_empty()).then_some(0))
            .map(|i| legal[i].clone())
    }
}

/// Searches the position `state` of `settings`. `chance` is the random outcome opening
/// the turn when the seat to move has seen it (it is then kept), `None` to draw it afresh
/// in every iteration. The position's own future random events are never read from a
/// record: only from `config.seed`.
pub fn search<G: Game>(
    settings: &G::Settings,
    state: &G::State,
    chance: Option<&G::Chance>,
    config: &Config,
) -> Result<Analysis<G>, String> {
    G::engine_ready(settings, state)?;
    let t0 = Instant::now();
    let seats: Vec<Seat> = G::seats(settings).to_vec();
    let to_move = match G::status(settings, state) {
        Status::Playing { to_move } => Some(to_move),
        Status::Over(_) => None,
    };
    if to_move.is_none() {
        let r = stats::of_position::<G>(settings, state);
        return Ok(Analysis {
            to_move,
            seats: seats
                .iter()
                .map(|&seat| SeatEstimate {
                    seat,
                    mean: r[seat.0 as usize],
                    low: r[seat.0 as usize],
                    high: r[seat.0 as usize],
                })
                .collect(),
            choices: Vec::new(),
            outcome: None,
            outcomes: Vec::new(),
            line: Vec::new(),
            standings: G::standings(settings, state)
                .into_iter()
                .map(|s| ExpectedStanding {
                    seat: s.seat,
                    mean: s.value as f64,
                    unit: s.unit,
                })
                .collect(),
            iterations: 0,
            turns: 0,
            elapsed: t0.elapsed(),
            threads: 0,
        });
    }
    let threads = config.threads.max(1);
    let deadline = match config.budget {
        Budget::Time(d) => Some(t0 + d),
        Budget::Playouts(_) => None,
    };
    let share = |i: usize| match config.budget {
        Budget::Playouts(n) => {
            let t = threads as u64;
            n / t + u64::from((i as u64) < n % t)
        }
        Budget::Time(_) => u64::MAX,
    };
    let run = |i: usize| {
        let rng = Dice::from_seed(&format!("{}/{i}", config.seed));
        let mut tree = Tree::<G>::new(settings.clone(), state.clone(), chance.cloned(), rng);
        let n = share(i);
        while tree.iterations < n {
            if let Some(d) = deadline {
                if tree.iterations > 0 && Instant::now() >= d {
                    break;
                }
            }
            tree.iterate();
        }
        tree
    };
    let trees: Vec<Tree<G>> = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(threads);
            for i in 0..threads {
                // The system may refuse a thread (memory, a process limit): an error, not
                // a panic; the threads already started finish their share first.
                match std::thread::Builder::new().spawn_scoped(scope, move || run(i)) {
                    Ok(h) => handles.push(h),
                    Err(e) => {
                        return Err(format!(
                            "the system refused search thread {} of {threads}: {e}",
                            i + 1
                        ))
                    }
                }
            }
            Ok(handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect())
        })?
    };
    let mut a = merge(&seats, to_move, &trees, threads, t0.elapsed());
    a.outcome = chance.cloned();
    let n = a.iterations.max(1) as f64;
    a.standings = G::standings(settings, state)
        .into_iter()
        .map(|s| ExpectedStanding {
            seat: s.seat,
            mean: trees
                .iter()
                .map(|t| t.standings[s.seat.0 as usize])
                .sum::<f64>()
                / n,
            unit: s.unit,
        })
        .collect();
    Ok(a)
}

/// Merges the trees' root statistics, in tree order (so the merge does not depend on
/// which thread finished first).
fn merge<G: Game>(
    seats: &[Seat],
    to_move: Option<Seat>,
    trees: &[Tree<G>],
    threads: usize,
    elapsed: Duration,
) -> Analysis<G> {
    let mut reward = [0.0; MAX_SEATS];
    let (mut iterations, mut turns) = (0u64, 0u64);
    let mut merged: Vec<RootTurn<G::Turn>> = Vec::new();
    let mut index = super::tree::TurnMap::default();
    for tree in trees {
        iterations += tree.iterations;
        turns += tree.turns;
        for (s, r) in reward.iter_mut().zip(tree.reward) {
            *s += r;
        }
        for rt in tree.root_turns() {
            match index.get(&rt.turn) {
                Some(&i) => {
                    let m: &mut RootTurn<G::Turn> = &mut merged[i];
                    m.visits += rt.visits;
                    m.value += rt.value;
                }
                None => {
                    index.insert(rt.turn.clone(), merged.len());
                    merged.push(rt);
                }
            }
        }
    }
    let choices = ranked(merged);
    let outcomes = merge_outcomes(trees, iterations);
    // The line: from the tree that visited the best turn most (the best under the
    // outcome drawn most, when the outcome was drawn afresh).
    let first = match outcomes.first() {
        Some(o) => o.choices.first(),
        None => choices.first(),
    };
    let line = match first {
        Some(best) => {
            let visits = |t: &Tree<G>| {
                t.root_turns()
                    .into_iter()
                    .find(|r| r.turn == best.turn)
                    .map_or(0, |r| r.visits)
            };
            let mut pick = 0;
            for (i, t) in trees.iter().enumerate() {
                if visits(t) > visits(&trees[pick]) {
                    pick = i;
                }
            }
            trees[pick].line_after(&best.turn, 2, 12)
        }
        None => Vec::new(),
    };
    let n = iterations.max(1) as f64;
    let seats = seats
        .iter()
        .map(|&seat| {
            let mean = reward[seat.0 as usize] / n;
            let (low, high) = stats::wilson(mean, iterations);
            SeatEstimate {
                seat,
                mean,
                low,
                high,
            }
        })
        .collect();
    Analysis {
        to_move,
        seats,
        choices,
        outcome: None,
        outcomes,
        line,
        standings: Vec::new(),
        iterations,
        turns,
        elapsed,
        threads,
    }
}

/// Root turns as choices, most visited first (ties: higher value, then the order given:
/// a stable sort).
fn ranked<T>(turns: Vec<RootTurn<T>>) -> Vec<Choice<T>> {
    let mut choices: Vec<Choice<T>> = turns
        .into_iter()
        .map(|m| Choice {
            value: if m.visits > 0 {
                m.value / m.visits as f64
            } else {
                0.0
            },
            turn: m.turn,
            visits: m.visits,
        })
        .collect();
    choices.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(
            b.value
                .partial_cmp(&a.value)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    choices
}

/// Merges the trees' root outcome groups, in tree order: most drawn first, ties by label.
fn merge_outcomes<G: Game>(trees: &[Tree<G>], iterations: u64) -> Vec<OutcomeChoice<G::Turn>> {
    let mut merged: Vec<RootOutcome<G::Turn>> = Vec::new();
    for tree in trees {
        for o in tree.root_outcomes() {
            match merged.iter_mut().find(|m| m.label == o.label) {
                Some(m) => {
                    m.drawn += o.drawn;
                    m.value += o.value;
                    for t in o.turns {
                        match m.turns.iter_mut().find(|u| u.turn == t.turn) {
                            Some(u) => {
                                u.visits += t.visits;
                                u.value += t.value;
                            }
                            None => m.turns.push(t),
                        }
                    }
                }
                None => merged.push(o),
            }
        }
    }
    let n = iterations.max(1) as f64;
    let mut out: Vec<OutcomeChoice<G::Turn>> = merged
        .into_iter()
        .map(|o| OutcomeChoice {
            probability: o.drawn as f64 / n,
            value: o.value / o.drawn.max(1) as f64,
            drawn: o.drawn,
            label: o.label,
            choices: ranked(o.turns),
        })
        .collect();
    out.sort_by(|a, b| b.drawn.cmp(&a.drawn).then_with(|| a.label.cmp(&b.label)));
    out
}
