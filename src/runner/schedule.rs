//! Which bots play which seats with which seed, game by game: the whole schedule of a
//! match, the same on every machine for the same options, so that a shard plays exactly
//! its part of it.
//!
//! - An **encounter** is a set of bots that meet: with no more bots than seats, all of
//!   them; with more, every set of as many bots as there are seats (a round robin), or
//!   with `gauntlet` every such set that holds the first bot.
//! - A **pair** (for two bots; a rotation for more) is as many games as the encounter
//!   has bots, all with the same seed and the same opening, the bots rotated through the
//!   seats: in rotation `r`, seat `s` gets the encounter's bot `(s + r) mod m`. Where
//!   there are fewer bots than seats, the seats are filled by cycling through the bots
//!   in seat order (two bots on four seats: A B A B, then B A B A). Luck is shared: each
//!   bot meets the same dice from each seat.
//! - The games are ordered pair by pair, the encounters interleaved (the first pair of
//!   every encounter, then the second of each, …), so a match stopped early is balanced.

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The game's index in the schedule (0-based).
    pub index: usize,
    /// The pair (rotation) it belongs to; its games share the seed and opening.
    pub pair: usize,
    /// The bot at each seat, in the game's seat order.
    pub seating: Vec<usize>,
    /// The seed of the game's dice, and of its random opening.
    pub seed: String,
}

/// The encounters of `bots` bots at a game of `seats` seats.
pub fn encounters(bots: usize, seats: usize, gauntlet: bool) -> Vec<Vec<usize>> {
    if bots <= seats {
        return vec![(0..bots).collect()];
    }
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(seats);
    combinations(0, bots, seats, &mut pick, &mut out);
    if gauntlet {
        out.retain(|e| e.contains(&0));
    }
    out
}

fn combinations(from: usize, n: usize, k: usize, pick: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    if pick.len() == k {
        out.push(pick.clone());
        return;
    }
    for i in from..n {
        if n - i < k - pick.len() {
            break;
        }
        pick.push(i);
        combinations(i + 1, n, k, pick, out);
        pick.pop();
    }
}

/// A match's schedule, game by game, made on demand: the `i`-th game is computed from
/// `i`, so a schedule of any length takes the same memory. Every encounter has as many
/// bots (the bots, or the seats where there are more bots), so each round of pairs
/// holds every encounter once.
#[derive(Clone, Debug)]
pub struct Schedule {
    encounters: Vec<Vec<usize>>,
    /// Bots in each encounter: the games of a pair.
    m: usize,
    /// Pairs for each encounter.
    rounds: usize,
    seats: usize,
    seed: String,
}

impl Schedule {
    /// `games` games at least for each encounter, rounded up to whole pairs; seeds
    /// `SEED/PAIR` (the pair's number from 1).
    pub fn new(bots: usize, seats: usize, games: usize, gauntlet: bool, seed: &str) -> Schedule {
        let encounters = encounters(bots, seats, gauntlet);
        let m = encounters.first().map_or(1, Vec::len).max(1);
        Schedule {
            rounds: games.div_ceil(m),
            encounters,
            m,
            seats,
            seed: seed.to_string(),
        }
    }

    /// Games in the whole schedule.
    pub fn len(&self) -> usize {
        self.rounds * self.encounters.len() * self.m
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `index`-th game (`index < len()`).
    pub fn slot(&self, index: usize) -> Slot {
        let per_round = self.encounters.len() * self.m;
        let (round, within) = (index / per_round, index % per_round);
        let (e, r) = (within / self.m, within % self.m);
        let pair = round * self.encounters.len() + e;
        let bots = &self.encounters[e];
        Slot {
            index,
            pair,
            seating: (0..self.seats).map(|s| bots[(s + r) % self.m]).collect(),
            seed: format!("{}/{}", self.seed, pair + 1),
        }
    }

    /// The pair of the `index`-th game.
    pub fn pair(&self, index: usize) -> usize {
        index / self.m
    }
}

/// A game of shard `k` of `n` (1-based): every `n`-th pair from the `k`-th, so shards
/// are disjoint, cover the schedule together, and keep pairs whole.
pub fn in_shard(pair: usize, k: usize, n: usize) -> bool {
    pair % n == k - 1
}

/// The whole schedule as a list (for a short one).
pub fn schedule(bots: usize, seats: usize, games: usize, gauntlet: bool, seed: &str) -> Vec<Slot> {
    let s = Schedule::new(bots, seats, games, gauntlet, seed);
    (0..s.len()).map(|i| s.slot(i)).collect()
}

/// A shard of a schedule: `k` of `n` (1-based), see [`in_shard`].
pub fn shard(slots: Vec<Slot>, k: usize, n: usize) -> Vec<Slot> {
    slots
        .into_iter()
        .filter(|s| in_shard(s.pair, k, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_bots_play_pairs_with_the_seats_swapped_and_one_seed() {
        let s = schedule(2, 2, 4, false, "m");
        let seatings: Vec<_> = s.iter().map(|x| x.seating.clone()).collect();
        assert_eq!(
            seatings,
            vec![vec![0, 1], vec![1, 0], vec![0, 1], vec![1, 0]]
        );
        let seeds: Vec<_> = s.iter().map(|x| x.seed.as_str()).collect();
        assert_eq!(seeds, vec!["m/1", "m/1", "m/2", "m/2"]);
        assert_eq!(
            s.iter().map(|x| x.pair).collect::<Vec<_>>(),
            vec![0, 0, 1, 1]
        );
        // An odd number of games is rounded up to whole pairs.
        assert_eq!(schedule(2, 2, 3, false, "m").len(), 4);
    }

    #[test]
    fn fewer_bots_than_seats_cycle_through_the_seats() {
        let s = schedule(2, 4, 2, false, "m");
        assert_eq!(s[0].seating, vec![0, 1, 0, 1]);
        assert_eq!(s[1].seating, vec![1, 0, 1, 0]);
        let s = schedule(3, 3, 3, false, "m");
        assert_eq!(
            s.iter().map(|x| x.seating.clone()).collect::<Vec<_>>(),
            vec![vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]
        );
    }

    #[test]
    fn more_bots_than_seats_meet_in_every_set_or_a_gauntlet() {
        assert_eq!(
            encounters(4, 2, false),
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        assert_eq!(
            encounters(4, 2, true),
            vec![vec![0, 1], vec![0, 2], vec![0, 3]]
        );
        assert_eq!(encounters(4, 3, false).len(), 4);
        // Encounters are interleaved pair by pair.
        let s = schedule(3, 2, 4, false, "m");
        let firsts: Vec<_> = s.iter().step_by(2).map(|x| x.seating.clone()).collect();
        assert_eq!(
            firsts,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![1, 2],
                vec![0, 1],
                vec![0, 2],
                vec![1, 2]
            ]
        );
    }

    #[test]
    fn a_game_made_on_demand_is_the_game_of_the_list() {
        for (bots, seats, games, gauntlet) in [
            (2, 2, 7, false),
            (3, 2, 4, false),
            (4, 3, 5, true),
            (2, 4, 2, false),
        ] {
            let s = Schedule::new(bots, seats, games, gauntlet, "m");
            let list = schedule(bots, seats, games, gauntlet, "m");
            assert_eq!(s.len(), list.len());
            for (i, slot) in list.iter().enumerate() {
                assert_eq!(&s.slot(i), slot);
                assert_eq!(s.pair(i), slot.pair);
            }
        }
    }

    #[test]
    fn shards_are_disjoint_whole_pairs_covering_the_schedule() {
        let all = schedule(2, 2, 10, false, "m");
        let mut joined: Vec<Slot> = (1..=3).flat_map(|k| shard(all.clone(), k, 3)).collect();
        joined.sort_by_key(|s| s.index);
        assert_eq!(joined, all);
        for k in 1..=3 {
            let part = shard(all.clone(), k, 3);
            for p in part.iter().map(|s| s.pair) {
                assert_eq!(part.iter().filter(|s| s.pair == p).count(), 2);
            }
        }
    }
}
