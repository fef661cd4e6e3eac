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

use serde::Serialize;

use super::stats::{self, EloEstimate, Pentanomial, Rating, Sprt, SprtResult, Wdl};
use super::tournament::GameResult;

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
    stats::pairwise_from_ranking(&ranks)
}

/// The summary of `results` among `names` bots.
pub fn summarize(
    names: &[String],
    scheduled: usize,
    results: &[GameResult],
    sprt: Option<&Sprt>,
) -> Summary {
    let n = names.len();
    let mut wdl = vec![Wdl::default(); n];
    let mut forfeits = vec![std::collections::BTreeMap::new(); n];
    let mut cells = vec![
        vec![
            Cell {
                points: 0.0,
                games: 0
            };
            n
        ];
        n
    ];
    let mut all_pairs = Vec::new();
    for r in results {
        let pairs = pairwise(r);
        // Each bot's result in this game: its score against every other bot, averaged.
        let mut sum = vec![(0.0, 0u32); n];
        for &(i, j, s) in &pairs {
            sum[i].0 += s;
            sum[i].1 += 1;
            sum[j].0 += 1.0 - s;
            sum[j].1 += 1;
            cells[i][j].points += s;
            cells[i][j].games += 1;
            cells[j][i].points += 1.0 - s;
            cells[j][i].games += 1;
        }
        for (b, (points, count)) in sum.iter().enumerate() {
            if *count > 0 {
                wdl[b].record(points / f64::from(*count));
            }
        }
        for f in &r.forfeits {
            *forfeits[f.bot].entry(f.kind.clone()).or_insert(0) += 1;
        }
        all_pairs.extend(pairs);
    }
    let ratings = (n > 2).then(|| stats::ratings(&all_pairs, n));
    let bots = names
        .iter()
        .enumerate()
        .map(|(b, name)| {
            let w = wdl[b];
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
                forfeits: forfeits[b].clone(),
                rating: ratings.as_ref().map(|r| r[b]),
            }
        })
        .collect();
    let (pentanomial, estimate, sprt) = if n == 2 {
        let penta = pentanomial_of(results);
        let mut estimate = match penta.pairs() {
            0 => stats::from_wdl(&wdl[0]),
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
        games: results.len(),
        scheduled,
        bots,
        pentanomial,
        estimate,
        sprt,
        crosstable: (n > 2).then_some(cells),
    }
}

/// The pentanomial counts of two bots' complete pairs, from the first bot's side.
pub fn pentanomial_of(results: &[GameResult]) -> Pentanomial {
    let mut by_pair: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for r in results {
        let first = pairwise(r).iter().find_map(|&(i, j, s)| match (i, j) {
            (0, 1) => Some(s),
            (1, 0) => Some(1.0 - s),
            _ => None,
        });
        if let Some(s) = first {
            by_pair.entry(r.pair).or_default().push(s);
        }
    }
    let mut penta = Pentanomial::default();
    for scores in by_pair.values() {
        if let [a, b] = scores[..] {
            penta.record_pair(a, b);
        }
    }
    penta
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
    fn a_shared_win_across_both_bots_is_a_draw_between_them() {
        // Four seats, two bots: seats 0 and 1 share the win, one of each bot.
        let g = game(0, 0, vec![0, 1, 0, 1], vec![0, 1]);
        assert_eq!(pairwise(&g), vec![(0, 1, 0.5)]);
        let g = game(0, 0, vec![0, 1, 0, 1], vec![2]);
        assert_eq!(pairwise(&g), vec![(0, 1, 1.0)]);
    }
}
