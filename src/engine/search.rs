//! A search: several trees, one per thread (root parallelism), merged at the root.
//!
//! With a budget of playouts the split is fixed — tree `i` of `T` runs `N / T` playouts
//! (the first `N % T` one more) from its own generator, seeded `"{seed}/{i}"` — so
//! `seed`, playouts and threads give the same answer however the threads are scheduled.
//! With a budget of time every tree runs until the deadline.

use std::time::{Duration, Instant};

use super::stats::{self, MAX_SEATS};
use super::tree::{RootTurn, Tree};
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

/// A turn of the root, merged over the trees.
#[derive(Clone, Debug)]
pub struct Choice<T> {
    pub turn: T,
    pub visits: u64,
    /// The mean share of the win it gave the seat to move.
    pub value: f64,
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
    /// tree 0's order).
    pub choices: Vec<Choice<G::Turn>>,
    /// The expected line of play, starting with the best choice.
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
    let mut choices: Vec<Choice<G::Turn>> = merged
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
    // A stable sort: ties keep the merge order.
    choices.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(
            b.value
                .partial_cmp(&a.value)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    // The line: from the tree that visited the best turn most.
    let line = match choices.first() {
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
        line,
        standings: Vec::new(),
        iterations,
        turns,
        elapsed,
        threads,
    }
}
