//! A match summed up from its games' results: each bot's wins, draws and losses; for two
//! bots the pentanomial counts of the pairs, the Elo difference with its 95 % interval,
//! the normalized Elo, the likelihood of superiority and the SPRT; for more bots a
//! crosstable and maximum-likelihood ratings. The JSON field names are part of the
//! interface (`docs/guide/bots.md`).
//!
//! A game's result between two bots: a bot that holds a winning seat, where the other
//! holds none, won it; where both or neither do (a draw, a game nobody won, a win
//! shared across both bots' seats) it is a draw between them. A game of more than two
//! bots counts once for each two of them.

use serde::{Deserialize, Serialize};

use super::ratings::{self, Cluster, ClusterMoments, Rating};
use super::stats::{self, EloEstimate, Pentanomial, Sprt, SprtResult, Wdl};

/// A finished game's result, as the state file keeps it (one JSON object a line).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub index: usize,
    pub pair: usize,
    /// The bot at each seat.
    pub seating: Vec<usize>,
    pub result: String,
    pub termination: String,
    pub reason: Option<String>,
    pub turns: usize,
    /// The seats that won.
    pub winners: Vec<usize>,
    pub forfeits: Vec<ForfeitNote>,
    /// The output file's length after this game's record (0 without `--out`).
    #[serde(default)]
    pub out_end: u64,
}

/// A forfeit, as the state file and the JSON lines keep it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForfeitNote {
    pub seat: usize,
    pub bot: usize,
    pub kind: String,
    pub rule: Option<String>,
    pub message: String,
}

/// One bot's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BotLine {
    pub name: String,
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// (wins + draws / 2) / games; 0 without games.
    pub score: f64,
    /// Games it forfeited, by kind (`time`, `crash`, `protocol`, `illegal`, `startup`).
    pub forfeits: std::collections::BTreeMap<String, u64>,
    /// Its rating among more than two bots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<Rating>,
}

/// The summary of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games played (of `scheduled`).
    pub games: usize,
    pub scheduled: usize,
    pub bots: Vec<BotLine>,
    /// Two bots: the pairs by the first bot's points in them, 0 to 2 by halves (worst
    /// first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pentanomial: Option<[u64; 5]>,
    /// Two bots: the first bot's Elo over the second, from the pairs (from the games
    /// while no pair is complete).
    #[serde(flatten)]
    pub estimate: Option<EloEstimate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
    /// More than two bots: points[i][j], what bot `i` scored against bot `j`, and the
    /// games they met in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crosstable: Option<Vec<Vec<Cell>>>,
}

/// A crosstable's cell.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub points: f64,
    pub games: u64,
}

/// The SPRT's state and its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    #[serde(flatten)]
    pub result: SprtResult,
    pub test: Sprt,
}

/// Every two bots of a game with the first's score against the second.
pub fn pairwise(r: &GameResult) -> Vec<(usize, usize, f64)> {
    let mut bots: Vec<usize> = r.seating.clone();
    bots.sort_unstable();
    bots.dedup();
    let won = |b: usize| {
        r.winners
            .iter()
            .any(|&seat| r.seating.get(seat) == Some(&b))
    };
    let ranks: Vec<(usize, u32)> = bots.iter().map(|&b| (b, u32::from(!won(b)))).collect();
    ratings::pairwise_from_ranking(&ranks)
}

/// The running totals of a match, added to game by game: what the summary needs and no
/// more, so a match of any length holds the same few numbers (a pair's first game waits
/// for its second; a crosstable's cells stand for the games between two bots).
///
/// More than two bots: the games of a pair (a rotation) wait in a [`Cluster`] until all
/// of them are in — as many games as the pair has bots, the bots of a game's seating
/// (the schedule rotates the encounter's bots through the seats, one game for each) —
/// and are then added to the [`ClusterMoments`] the ratings' intervals come from. A pair
/// still open when the summary is made (a match stopped or cut short) counts with the
/// games it has.
#[derive(Clone, Debug)]
pub struct Tally {
    names: Vec<String>,
    scheduled: usize,
    games: usize,
    wdl: Vec<Wdl>,
    forfeits: Vec<std::collections::BTreeMap<String, u64>>,
    cells: Vec<Vec<Cell>>,
    /// Two bots: the complete pairs, and the first bot's score in the pairs still open.
    penta: Pentanomial,
    open: std::collections::HashMap<usize, f64>,
    /// More bots: the pairs complete, and the pairs still open with their games so far.
    moments: ClusterMoments,
    open_clusters: std::collections::HashMap<usize, (usize, Cluster)>,
}

impl Tally {
    pub fn new(names: &[String], scheduled: usize) -> Tally {
        let n = names.len();
        Tally {
            names: names.to_vec(),
            scheduled,
            games: 0,
            wdl: vec![Wdl::default(); n],
            forfeits: vec![std::collections::BTreeMap::new(); n],
            cells: vec![
                vec![
                    Cell {
                        points: 0.0,
                        games: 0
                    };
                    n
                ];
                n
            ],
            penta: Pentanomial::default(),
            open: std::collections::HashMap::new(),
            moments: ClusterMoments::default(),
            open_clusters: std::collections::HashMap::new(),
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameResult) {
        let n = self.names.len();
        let pairs = pairwise(r);
        // Each bot's result in this game: its score against every other bot, averaged.
        let mut sum = vec![(0.0, 0u32); n];
        for &(i, j, s) in &pairs {
            sum[i].0 += s;
            sum[i].1 += 1;
            sum[j].0 += 1.0 - s;
            sum[j].1 += 1;
            self.cells[i][j].points += s;
            self.cells[i][j].games += 1;
            self.cells[j][i].points += 1.0 - s;
            self.cells[j][i].games += 1;
        }
        for (b, (points, count)) in sum.iter().enumerate() {
            if *count > 0 {
                self.wdl[b].record(points / f64::from(*count));
            }
        }
        for f in &r.forfeits {
            *self.forfeits[f.bot].entry(f.kind.clone()).or_insert(0) += 1;
        }
        if n > 2 {
            let mut bots = r.seating.clone();
            bots.sort_unstable();
            bots.dedup();
            let (seen, cluster) = self.open_clusters.entry(r.pair).or_default();
            *seen += 1;
            pairs.iter().for_each(|&(i, j, s)| cluster.add(i, j, s));
            if *seen >= bots.len() {
                if let Some((_, cluster)) = self.open_clusters.remove(&r.pair) {
                    self.moments.add(&cluster);
                }
            }
        }
        if n == 2 {
            let first = pairs.iter().find_map(|&(i, j, s)| match (i, j) {
                (0, 1) => Some(s),
                (1, 0) => Some(1.0 - s),
                _ => None,
            });
            if let Some(s) = first {
                match self.open.remove(&r.pair) {
                    Some(earlier) => self.penta.record_pair(earlier, s),
                    None => {
                        self.open.insert(r.pair, s);
                    }
                }
            }
        }
        self.games += 1;
    }

    pub fn games(&self) -> usize {
        self.games
    }

    /// The summary so far.
    pub fn summary(&self, sprt: Option<&Sprt>) -> Summary {
        let n = self.names.len();
        // The ratings' likelihood is linear in each game's score, so the games between
        // two bots count as that many games at their mean score.
        let ratings = (n > 2).then(|| {
            let mut entries = Vec::new();
            for i in 0..n {
                for j in (i + 1)..n {
                    let c = self.cells[i][j];
                    if c.games > 0 {
                        let mean = c.points / c.games as f64;
                        entries.extend((0..c.games).map(|_| (i, j, mean)));
                    }
                }
            }
            let mut moments = self.moments.clone();
            self.open_clusters
                .values()
                .for_each(|(_, cluster)| moments.add(cluster));
            ratings::clustered_ratings(&entries, n, &moments)
        });
        let bots = self
            .names
            .iter()
            .enumerate()
            .map(|(b, name)| {
                let w = self.wdl[b];
                let games = w.games();
                BotLine {
                    name: name.clone(),
                    games,
                    wins: w.wins,
                    draws: w.draws,
                    losses: w.losses,
                    score: match games {
                        0 => 0.0,
                        g => (w.wins as f64 + w.draws as f64 / 2.0) / g as f64,
                    },
                    forfeits: self.forfeits[b].clone(),
                    rating: ratings.as_ref().map(|r| r[b]),
                }
            })
            .collect();
        let (pentanomial, estimate, sprt) = if n == 2 {
            let penta = self.penta;
            let mut estimate = match penta.pairs() {
                0 => stats::from_wdl(&self.wdl[0]),
                _ => stats::from_pentanomial(&penta),
            };
            // An even match is Elo 0, not -0 (JSON prints the sign).
            if let Some(e) = estimate.as_mut() {
                e.elo += 0.0;
            }
            let sprt = sprt.map(|t| SprtReport {
                result: t.result_pentanomial(&penta),
                test: *t,
            });
            (Some(penta.0), estimate, sprt)
        } else {
            (None, None, None)
        };
        Summary {
            games: self.games,
            scheduled: self.scheduled,
            bots,
            pentanomial,
            estimate,
            sprt,
            crosstable: (n > 2).then(|| self.cells.clone()),
        }
    }
}

/// The summary of `results` among `names` bots.
pub fn summarize(
    names: &[String],
    scheduled: usize,
    results: &[GameResult],
    sprt: Option<&Sprt>,
) -> Summary {
    let mut tally = Tally::new(names, scheduled);
    for r in results {
        tally.add(r);
    }
    tally.summary(sprt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, pair: usize, seating: Vec<usize>, winners: Vec<usize>) -> GameResult {
        GameResult {
            index,
            pair,
            seating,
            result: String::new(),
            termination: "normal".into(),
            reason: None,
            turns: 10,
            winners,
            forfeits: Vec::new(),
            out_end: 0,
        }
    }

    #[test]
    fn two_bots_are_counted_by_game_and_by_pair() {
        // Pair 0: bot 0 wins from both seats. Pair 1: each wins from the first seat.
        // Pair 2: a draw, then bot 1 wins. Pair 3: only one game played.
        let results = vec![
            game(0, 0, vec![0, 1], vec![0]),
            game(1, 0, vec![1, 0], vec![1]),
            game(2, 1, vec![0, 1], vec![0]),
            game(3, 1, vec![1, 0], vec![0]),
            game(4, 2, vec![0, 1], vec![]),
            game(5, 2, vec![1, 0], vec![0]),
            game(6, 3, vec![0, 1], vec![1]),
        ];
        let names = vec!["a".to_string(), "b".to_string()];
        let s = summarize(&names, 8, &results, None);
        assert_eq!(s.games, 7);
        assert_eq!(
            (s.bots[0].wins, s.bots[0].draws, s.bots[0].losses),
            (3, 1, 3)
        );
        assert_eq!(
            (s.bots[1].wins, s.bots[1].draws, s.bots[1].losses),
            (3, 1, 3)
        );
        assert_eq!(s.bots[0].score, 0.5);
        // Pair 0: 2 points; pair 1: 1; pair 2: 0.5. The unfinished pair 3 is left out.
        assert_eq!(s.pentanomial, Some([0, 1, 1, 0, 1]));
        assert!(s.crosstable.is_none());
    }

    #[test]
    fn more_bots_get_a_crosstable_and_ratings() {
        let results = vec![
            game(0, 0, vec![0, 1, 2], vec![0]),
            game(1, 0, vec![1, 2, 0], vec![2]),
            game(2, 0, vec![2, 0, 1], vec![1]),
        ];
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let s = summarize(&names, 3, &results, None);
        let t = s.crosstable.as_ref().unwrap();
        // Bot 0 holds the winning seat of every game: seat 0, then seat 2, then seat 1.
        assert_eq!(t[0][1].points, 3.0);
        assert_eq!(t[1][0].points, 0.0);
        assert_eq!(t[1][2].points, 1.5);
        assert_eq!(t[0][1].games, 3);
        assert_eq!((s.bots[0].wins, s.bots[0].losses), (3, 0));
        let r: Vec<f64> = s.bots.iter().map(|b| b.rating.unwrap().elo).collect();
        assert!(r[0] > r[1] && (r[1] - r[2]).abs() < 1e-6, "{r:?}");
        assert!(s.pentanomial.is_none() && s.estimate.is_none());
    }

    #[test]
    fn the_ratings_from_the_crosstable_are_those_of_the_games_one_by_one() {
        // Games in another order, some drawn between two bots, counted game by game.
        let results = vec![
            game(0, 0, vec![0, 1, 2], vec![0]),
            game(1, 0, vec![1, 2, 0], vec![0]),
            game(2, 0, vec![2, 0, 1], vec![]),
            game(3, 1, vec![0, 1, 2], vec![1]),
            game(4, 1, vec![1, 2, 0], vec![1, 2]),
            game(5, 1, vec![2, 0, 1], vec![2]),
        ];
        let raw: Vec<(usize, usize, f64)> = results.iter().flat_map(pairwise).collect();
        let moments = moments_by_pair(&results, 2);
        let direct = ratings::clustered_ratings(&raw, 3, &moments);
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let s = summarize(&names, 6, &results, None);
        for (b, want) in s.bots.iter().zip(&direct) {
            let got = b.rating.unwrap();
            assert!((got.elo - want.elo).abs() < 1e-6, "{got:?} {want:?}");
            assert!((got.elo_interval[0] - want.elo_interval[0]).abs() < 1e-6);
        }
        // Added in another order, the tally is the same.
        let mut t = Tally::new(&names, 6);
        for r in results.iter().rev() {
            t.add(r);
        }
        assert_eq!(t.summary(None).crosstable, s.crosstable);
    }

    /// The cluster moments of `results`, pair by pair (pairs `0..pairs`), built directly.
    fn moments_by_pair(results: &[GameResult], pairs: usize) -> ClusterMoments {
        let mut moments = ClusterMoments::default();
        for pair in 0..pairs {
            let mut cluster = Cluster::default();
            for r in results.iter().filter(|r| r.pair == pair) {
                pairwise(r)
                    .iter()
                    .for_each(|&(i, j, s)| cluster.add(i, j, s));
            }
            moments.add(&cluster);
        }
        moments
    }

    /// Three bots at three seats: `pairs` rotations; game `r` of pair `p` won by bot
    /// `p mod 3` (from whatever seat the rotation gives it) where `(p · r) mod 4` is 0,
    /// else nobody's.
    fn rotations(pairs: usize) -> Vec<GameResult> {
        (0..pairs * 3)
            .map(|index| {
                let (p, r) = (index / 3, index % 3);
                let seating: Vec<usize> = (0..3).map(|s| (s + r) % 3).collect();
                let winners = match (p * r) % 4 {
                    0 => vec![(3 - r + p % 3) % 3],
                    _ => vec![],
                };
                game(index, p, seating, winners)
            })
            .collect()
    }

    #[test]
    fn shards_counted_in_any_order_give_exactly_the_whole_summary() {
        let results = rotations(7);
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let whole = summarize(&names, 21, &results, None);
        // Three shards of whole pairs, each replayed in turn (as --merge does), the
        // last in reverse.
        let mut merged = Tally::new(&names, 21);
        for k in [2, 0, 1] {
            let mut part: Vec<&GameResult> = results.iter().filter(|r| r.pair % 3 == k).collect();
            if k == 1 {
                part.reverse();
            }
            part.into_iter().for_each(|r| merged.add(r));
        }
        assert_eq!(merged.summary(None), whole);
        // Games of different pairs interleaved, as a run with several games at once
        // finishes them.
        let mut interleaved = Tally::new(&names, 21);
        for i in [0, 3, 1, 4, 6, 2, 5, 9, 7, 8] {
            interleaved.add(&results[i]);
        }
        results[10..].iter().for_each(|r| interleaved.add(r));
        assert_eq!(interleaved.summary(None), whole);
    }

    #[test]
    fn a_pair_still_open_counts_with_the_games_it_has() {
        let results = rotations(5);
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        // The last pair has one game of three.
        let played = &results[..13];
        let s = summarize(&names, 15, played, None);
        let raw: Vec<(usize, usize, f64)> = played.iter().flat_map(pairwise).collect();
        let moments = moments_by_pair(played, 5);
        assert_eq!(moments.clusters(), 5);
        let want = ratings::clustered_ratings(&raw, 3, &moments);
        for (b, want) in s.bots.iter().zip(&want) {
            let got = b.rating.unwrap();
            assert!((got.elo - want.elo).abs() < 1e-6, "{got:?} {want:?}");
            assert!((got.elo_interval[1] - want.elo_interval[1]).abs() < 1e-6);
        }
    }

    #[test]
    fn a_shared_win_across_both_bots_is_a_draw_between_them() {
        // Four seats, two bots: seats 0 and 1 share the win, one of each bot.
        let g = game(0, 0, vec![0, 1, 0, 1], vec![0, 1]);
        assert_eq!(pairwise(&g), vec![(0, 1, 0.5)]);
        let g = game(0, 0, vec![0, 1, 0, 1], vec![2]);
        assert_eq!(pairwise(&g), vec![(0, 1, 1.0)]);
    }
}
