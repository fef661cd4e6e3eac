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
        }
    }

    /// One iteration: select and expand through the tree, play out, back up.
    pub fn iterate(&mut self) {
        let s = &self.settings;
        let mut state = self.root.clone();
        G::determinize(s, &mut state, &mut self.rng);
        self.path.clear();
        let mut node = 0u32;
        let mut depth = 0usize;
        let reward = loop {
            let to_move = match G::status(s, &state) {
                Status::Over(end) => break stats::of_end::<G>(s, &end),
                Status::Playing { to_move } => to_move,
            };
            let chance = match (&self.root_chance, depth) {
                (Some(c), 0) => Some(c.clone()),
                _ => G::draw_chance(s, &mut state, &mut self.rng),
            };
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
            self.keys.clear();
            self.keys.extend(self.legal.iter().map(G::decision));
            for (i, t) in self.keys.iter().enumerate() {
                match n.index.get(t) {
                    Some(&c) => {
                        let ch = &mut n.children[c as usize];
                        ch.avail += 1;
                        if self.fresh.is_empty() {
                            let v = ch.value / f64::from(ch.visits)
                                + EXPLORATION
                                    * (f64::from(ch.avail).ln() / f64::from(ch.visits)).sqrt();
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
            if !self.fresh.is_empty() {
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
            let (_, c) = best;
            let ch = &self.nodes[node as usize].children[c as usize];
            G::apply_legal(s, &mut state, chance.as_ref(), &self.legal[chosen]);
            self.turns += 1;
            self.path.push((node, c));
            node = ch.node;
        };
        for &(n, c) in &self.path {
            let ch = &mut self.nodes[n as usize].children[c as usize];
            ch.visits += 1;
            ch.value += reward[ch.mover as usize];
        }
        for st in G::standings(s, &state) {
            self.standings[st.seat.0 as usize] += st.value as f64;
        }
        for (sum, r) in self.reward.iter_mut().zip(reward) {
            *sum += r;
        }
        self.iterations += 1;
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
