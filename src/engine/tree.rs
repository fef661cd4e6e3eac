//! One search tree: open-loop Monte Carlo tree search.
//!
//! A node is reached by a sequence of turns, not a position: chance is drawn afresh on
//! every iteration (from the engine's generator), and hidden order is dealt afresh at the
//! root ([`Game::determinize`]). A node's children are keyed by turn; at each visit only
//! the children legal under this iteration's chance take part, and UCT counts a child's
//! *availability* (how often it was legal when its parent was visited) in place of the
//! parent's visits. Each child holds the value, for the seat that moved into it, of the
//! playouts through it; values are per-seat shares ([`Reward`]), so three to six seats
//! are searched as two.
//!
//! Progressive widening: a node visited `n` times takes a new child only while the
//! children legal now number fewer than [`width`]`(n)`; past that, UCT chooses among
//! those it holds. A game whose tree turns are a sample ([`Game::ENGINE_SAMPLES`]:
//! Halasi's hundreds of runs) counts every child it holds, and revisits one by checking
//! it again under this iteration's chance, so its visits gather on a few turns.
//!
//! When the outcome opening the root's turn is drawn afresh, the root also counts, by
//! outcome ([`Game::outcome_group`]), how often it was drawn, what the seat to move
//! scored under it and which turns it took.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

/// A map keyed by turns with a hasher of fixed keys: the keys are the game's own turns,
/// not input an attacker chooses, and a fixed hasher makes a search's work (and its
/// instruction count) the same on every run.
pub(super) type TurnMap<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

use super::playout::playout;
use super::stats::{self, Reward, MAX_SEATS};
use crate::dice::Dice;
use crate::games::{Game, Status};

/// The exploration constant of UCT (values lie in 0..1).
pub const EXPLORATION: f64 = 0.7;

/// Progressive widening: the fewest children a node may hold legal at once.
pub const WIDEN_FROM: usize = 24;

/// Progressive widening: `WIDEN_K · √n` children after `n` visits, past [`WIDEN_FROM`].
pub const WIDEN_K: f64 = 1.5;

/// How many children a sampling game's node checks, best by UCT first, before it falls
/// back to a new one from its sample.
pub const REVISIT_TRIES: usize = 4;

/// The children a node visited `n` times may hold legal at once (progressive widening):
/// `max(WIDEN_FROM, ⌈WIDEN_K · √n⌉)`.
pub fn width(n: u32) -> usize {
    ((WIDEN_K * f64::from(n).sqrt()).ceil() as usize).max(WIDEN_FROM)
}

/// The UCT value of a child: its mean value plus the exploration bonus, `parent` being
/// how often it could have been chosen.
fn uct(value: f64, visits: u32, parent: u32) -> f64 {
    let v = f64::from(visits.max(1));
    value / v + EXPLORATION * (f64::from(parent.max(1)).ln() / v).sqrt()
}

const NONE: u32 = u32::MAX;

struct Child<T> {
    turn: T,
    /// The seat that played `turn`.
    mover: u8,
    visits: u32,
    /// Visits of the parent at which this turn was legal.
    avail: u32,
    /// Sum of the mover's rewards.
    value: f64,
    node: u32,
}

struct Node<T> {
    children: Vec<Child<T>>,
    index: TurnMap<T, u32>,
}

impl<T> Node<T> {
    fn new() -> Node<T> {
        Node {
            children: Vec::new(),
            index: TurnMap::default(),
        }
    }
}

/// A root turn's statistics; `turn` is its decision ([`Game::decision`]).
#[derive(Clone, Debug)]
pub struct RootTurn<T> {
    pub turn: T,
    pub visits: u64,
    /// Sum of the mover's rewards.
    pub value: f64,
}

/// What the root saw under one group of outcomes ([`Game::outcome_group`]) when the
/// outcome opening its turn was drawn afresh on every iteration.
#[derive(Clone, Debug)]
pub struct RootOutcome<T> {
    pub label: String,
    /// Iterations that drew it.
    pub drawn: u64,
    /// Sum of the rewards of the seat to move over those iterations.
    pub value: f64,
    /// The root's turns taken under it (keyed by decision), in the order first taken.
    pub turns: Vec<RootTurn<T>>,
}

/// A [`RootOutcome`] as the tree counts it: its turns by child index.
struct OutcomeCount {
    label: String,
    drawn: u64,
    value: f64,
    /// (root child, visits, sum of the mover's rewards).
    turns: Vec<(u32, u32, f64)>,
}

/// One tree's search from a position.
pub struct Tree<G: Game> {
    settings: G::Settings,
    root: G::State,
    /// The chance opening the root's turn when the seat to move has seen it; else it is
    /// drawn on every iteration.
    root_chance: Option<G::Chance>,
    nodes: Vec<Node<G::Turn>>,
    rng: Dice,
    /// Iterations run.
    pub iterations: u64,
    /// Sum of the reward vectors of every iteration.
    pub reward: Reward,
    /// Turns played in playouts (and in the tree), for the speed figures.
    pub turns: u64,
    /// Sum of the standings ([`Game::standings`]) where the playouts ended, by seat.
    pub standings: [f64; MAX_SEATS],
    legal: Vec<G::Turn>,
    /// The decisions of `legal` ([`Game::decision`]), the children's keys.
    keys: Vec<G::Turn>,
    scratch: Vec<G::Turn>,
    fresh: Vec<usize>,
    path: Vec<(u32, u32)>,
    /// A sampling game's children in the order a revisit tries them.
    order: Vec<(f64, u32)>,
    /// By outcome group, when the root's outcome is drawn afresh.
    outcomes: Vec<OutcomeCount>,
}

impl<G: Game> Tree<G> {
    pub fn new(
        settings: G::Settings,
        root: G::State,
        root_chance: Option<G::Chance>,
        rng: Dice,
    ) -> Tree<G> {
        Tree {
            settings,
            root,
            root_chance,
            nodes: vec![Node::new()],
            rng,
            iterations: 0,
            reward: [0.0; MAX_SEATS],
            turns: 0,
            standings: [0.0; MAX_SEATS],
            legal: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
            fresh: Vec::new(),
            path: Vec::new(),
            order: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    /// One iteration: select and expand through the tree, play out, back up.
    pub fn iterate(&mut self) {
        let mut state = self.root.clone();
        G::determinize(
            &self.settings,
            &mut state,
            self.root_chance.as_ref(),
            &mut self.rng,
        );
        self.path.clear();
        let mut node = 0u32;
        // How often the node was visited before this iteration (the root: every time).
        let mut node_visits = u32::try_from(self.iterations).unwrap_or(u32::MAX);
        let mut depth = 0usize;
        // The root's mover and outcome group, when the root's outcome is drawn.
        let mut root_group: Option<(usize, u8)> = None;
        let reward = loop {
            let s = &self.settings;
            let to_move = match G::status(s, &state) {
                Status::Over(end) => break stats::of_end::<G>(s, &end),
                Status::Playing { to_move } => to_move,
            };
            let chance = match (&self.root_chance, depth) {
                (Some(c), 0) => Some(c.clone()),
                _ => G::draw_chance(s, &mut state, &mut self.rng),
            };
            if depth == 0 && self.root_chance.is_none() {
                if let Some(c) = &chance {
                    root_group = Some((self.outcome_index(c), to_move.0));
                }
            }
            let width = width(node_visits);
            if G::ENGINE_SAMPLES && self.nodes[node as usize].children.len() >= width {
                if let Some((c, next)) = self.revisit(node, node_visits, &state, chance.as_ref()) {
                    state = next;
                    depth += 1;
                    self.turns += 1;
                    self.path.push((node, c));
                    let ch = &self.nodes[node as usize].children[c as usize];
                    node_visits = ch.visits;
                    node = ch.node;
                    continue;
                }
            }
            let s = &self.settings;
            self.legal.clear();
            G::engine_turns(s, &state, chance.as_ref(), &mut self.rng, &mut self.legal);
            if self.legal.is_empty() {
                break stats::of_position::<G>(s, &state);
            }
            // The children legal now: mark them available, note those not yet made.
            self.fresh.clear();
            let n = &mut self.nodes[node as usize];
            let mut best = (f64::NEG_INFINITY, NONE);
            let mut chosen = 0;
            let mut legal_now = 0usize;
            self.keys.clear();
            self.keys.extend(self.legal.iter().map(G::decision));
            for (i, t) in self.keys.iter().enumerate() {
                match n.index.get(t) {
                    Some(&c) => {
                        let ch = &mut n.children[c as usize];
                        ch.avail += 1;
                        legal_now += 1;
                        if self.fresh.is_empty() {
                            let v = uct(ch.value, ch.visits, ch.avail);
                            if v > best.0 {
                                best = (v, c);
                                chosen = i;
                            }
                        }
                    }
                    None => self.fresh.push(i),
                }
            }
            depth += 1;
            // A sampling game at its width comes here when none of the children it
            // tried is legal now: it takes a new one only if none in its sample is old.
            let room = if G::ENGINE_SAMPLES {
                n.children.len() < width || legal_now == 0
            } else {
                legal_now < width
            };
            let expand = !self.fresh.is_empty() && room;
            if expand {
                // Expand one new child, then play out from it.
                let pick = self.fresh[self.rng.uniform(self.fresh.len() as u32) as usize];
                let turn = self.keys.swap_remove(pick);
                G::apply_legal(s, &mut state, chance.as_ref(), &self.legal[pick]);
                let child_node = self.nodes.len() as u32;
                let n = &mut self.nodes[node as usize];
                let c = n.children.len() as u32;
                n.index.insert(turn.clone(), c);
                n.children.push(Child {
                    turn,
                    mover: to_move.0,
                    visits: 0,
                    avail: 1,
                    value: 0.0,
                    node: child_node,
                });
                self.nodes.push(Node::new());
                self.path.push((node, c));
                let (r, turns) = playout::<G>(s, &mut state, &mut self.rng, &mut self.scratch);
                self.turns += turns as u64;
                break r;
            }
            if !self.fresh.is_empty() {
                // Widened to the full: UCT among every child legal now (the pass above
                // stopped weighing them at the first new turn).
                best = (f64::NEG_INFINITY, NONE);
                for (i, t) in self.keys.iter().enumerate() {
                    if let Some(&c) = n.index.get(t) {
                        let ch = &n.children[c as usize];
                        let v = uct(ch.value, ch.visits, ch.avail);
                        if v > best.0 {
                            best = (v, c);
                            chosen = i;
                        }
                    }
                }
            }
            let (_, c) = best;
            let ch = &self.nodes[node as usize].children[c as usize];
            G::apply_legal(s, &mut state, chance.as_ref(), &self.legal[chosen]);
            self.turns += 1;
            self.path.push((node, c));
            node_visits = ch.visits;
            node = ch.node;
        };
        let s = &self.settings;
        for &(n, c) in &self.path {
            let ch = &mut self.nodes[n as usize].children[c as usize];
            ch.visits += 1;
            ch.value += reward[ch.mover as usize];
        }
        if let Some((g, mover)) = root_group {
            let r = reward[mover as usize];
            let o = &mut self.outcomes[g];
            o.drawn += 1;
            o.value += r;
            if let Some(&(0, c)) = self.path.first() {
                match o.turns.iter_mut().find(|t| t.0 == c) {
                    Some(t) => {
                        t.1 += 1;
                        t.2 += r;
                    }
                    None => o.turns.push((c, 1, r)),
                }
            }
        }
        for st in G::standings(s, &state) {
            self.standings[st.seat.0 as usize] += st.value as f64;
        }
        for (sum, r) in self.reward.iter_mut().zip(reward) {
            *sum += r;
        }
        self.iterations += 1;
    }

    /// The index of the root's outcome group of `chance`, made if new.
    fn outcome_index(&mut self, chance: &G::Chance) -> usize {
        let label = G::outcome_group(chance);
        match self.outcomes.iter().position(|o| o.label == label) {
            Some(i) => i,
            None => {
                self.outcomes.push(OutcomeCount {
                    label,
                    drawn: 0,
                    value: 0.0,
                    turns: Vec::new(),
                });
                self.outcomes.len() - 1
            }
        }
    }

    /// A sampling game's node at its width: its children best by UCT first (`visits`
    /// the node's), each checked by [`Game::play`] under this iteration's chance; the
    /// first legal one and the position after it, or `None` when the first
    /// [`REVISIT_TRIES`] are not legal now.
    fn revisit(
        &mut self,
        node: u32,
        visits: u32,
        state: &G::State,
        chance: Option<&G::Chance>,
    ) -> Option<(u32, G::State)> {
        let n = &self.nodes[node as usize];
        self.order.clear();
        self.order.extend(
            n.children
                .iter()
                .enumerate()
                .map(|(i, ch)| (uct(ch.value, ch.visits, visits), i as u32)),
        );
        // Best first; ties in the order made (a stable sort).
        self.order
            .sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        for &(_, c) in self.order.iter().take(REVISIT_TRIES) {
            let ch = &n.children[c as usize];
            let mut next = state.clone();
            if G::play(&self.settings, &mut next, chance, &ch.turn).is_ok() {
                return Some((c, next));
            }
        }
        None
    }

    /// The root's turns with their statistics, in the order first tried.
    pub fn root_turns(&self) -> Vec<RootTurn<G::Turn>> {
        self.nodes[0]
            .children
            .iter()
            .map(|c| RootTurn {
                turn: c.turn.clone(),
                visits: u64::from(c.visits),
                value: c.value,
            })
            .collect()
    }

    /// The root's outcome groups, in the order first drawn (none when the outcome
    /// opening the root's turn is kept, or the game has none).
    pub fn root_outcomes(&self) -> Vec<RootOutcome<G::Turn>> {
        let root = &self.nodes[0];
        self.outcomes
            .iter()
            .map(|o| RootOutcome {
                label: o.label.clone(),
                drawn: o.drawn,
                value: o.value,
                turns: o
                    .turns
                    .iter()
                    .map(|&(c, visits, value)| RootTurn {
                        turn: root.children[c as usize].turn.clone(),
                        visits: u64::from(visits),
                        value,
                    })
                    .collect(),
            })
            .collect()
    }

    /// The line the tree expects from the root after `first`: each step the most visited
    /// child (ties: the one made first), while it has at least `min_visits` visits; at
    /// most `max` turns, `first` included.
    pub fn line_after(&self, first: &G::Turn, min_visits: u32, max: usize) -> Vec<G::Turn> {
        let mut line = Vec::new();
        let root = &self.nodes[0];
        let Some(&c) = root.index.get(first) else {
            return line;
        };
        let mut ch = &root.children[c as usize];
        loop {
            line.push(ch.turn.clone());
            if line.len() >= max {
                return line;
            }
            let node = &self.nodes[ch.node as usize];
            let next = node
                .children
                .iter()
                .filter(|c| c.visits >= min_visits)
                .fold(None::<&Child<G::Turn>>, |b, c| match b {
                    Some(b) if b.visits >= c.visits => Some(b),
                    _ => Some(c),
                });
            match next {
                Some(n) => ch = n,
                None => return line,
            }
        }
    }
}
