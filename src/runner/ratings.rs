//! Bradley–Terry ratings of more than two bots, with 95 % intervals that count the
//! games of one pair (a rotation: the games that share a seed and an opening) as one
//! unit, a cluster. Pure functions over counts, no I/O.
//!
//! - [`pairwise_from_ranking`] — a game of several bots as pairwise results;
//! - [`Cluster`] and [`ClusterMoments`] — the results of one cluster, and the few sums
//!   over all clusters that the intervals need (as many numbers however many games);
//! - [`clustered_ratings`] — the ratings with cluster-robust intervals, the ones a
//!   match reports; [`ratings`] — the same ratings with the model's intervals, which
//!   take every pairwise result for an independent game.

use std::collections::BTreeMap;

use serde::Serialize;

use super::stats::{LOGIT_PER_ELO, Z95};

/// One bot's rating among several.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating in Elo, the mean of all bots' ratings being 0.
    pub elo: f64,
    /// Its 95 % interval, `elo ± Z95 · sd`.
    pub elo_interval: [f64; 2],
}

/// The most rounds of Newton's method [`ratings`] takes.
pub const RATING_ROUNDS: usize = 200;

/// [`ratings`] stops once no rating moves by more than this (in Elo) in a round.
pub const RATING_TOLERANCE: f64 = 1e-9;

/// Bradley–Terry (logistic Elo) ratings of `bots` bots from pairwise game scores: each
/// entry `(i, j, s)` is one game of bot `i` against bot `j` in which `i` scored `s`
/// (1, ½ or 0; a draw is half a win each way). The model:
/// `P(i beats j) = 1 / (1 + 10^(−(r_i − r_j)/400))`; the ratings maximize the likelihood
/// `Π p_ij^s · p_ji^(1−s)`, anchored so that their mean is 0.
///
/// A prior keeps them finite (a bot that won or lost every game has no finite maximum
/// otherwise) and links bots that never met: each bot is given one virtual draw, spread
/// evenly over the other bots — a draw weighing `1/(bots − 1)` game between every two
/// bots. With two bots, `r_0 − r_1 = elo_of_score((S + ½) / (n + 1))` for `n` games in
/// which bot 0 scored `S`.
///
/// Found by Newton's method on the log-likelihood (concave), each step solving
/// `(I + 11ᵀ/k) δ = g` — `I` the observed Fisher information, a Laplacian, `g` the
/// gradient, `k` the number of bots; a step is cut to at most 1 in log-odds (174 Elo) —
/// until no rating moves by [`RATING_TOLERANCE`] or after [`RATING_ROUNDS`] rounds.
///
/// The 95 % intervals here are the model's: from the observed information under the
/// anchor, the variances the diagonal of its pseudo-inverse `I⁺ = (I + 11ᵀ/k)⁻¹ − 11ᵀ/k`.
/// They hold if every entry is an independent game. The results of one game between
/// more than two bots ([`pairwise_from_ranking`]) are not, nor are the games of one pair
/// (same seed, same opening): [`clustered_ratings`] gives the intervals for those.
///
/// # Panics
/// If an entry names a bot `≥ bots`, names the same bot twice, or has a score outside
/// `[0, 1]`.
pub fn ratings(results: &[(usize, usize, f64)], bots: usize) -> Vec<Rating> {
    let (theta, pseudo_inverse) = fit(results, bots);
    rated(&theta, |i| pseudo_inverse[i][i])
}

/// The ratings of [`ratings`] with cluster-robust ("sandwich") intervals: `clusters`
/// holds the same games' results gathered by cluster (a pair, a rotation: the games
/// that share a seed and an opening, whose results go together).
///
/// With `θ̂` the ratings (in log-odds), `I⁺` the pseudo-inverse of the observed
/// information as in [`ratings`] (prior included), and for each cluster `c` its score
/// (gradient) `g_c[i] = Σ_j (S_c,ij − n_c,ij · p_ij(θ̂))` — `S_c,ij` the points `i`
/// scored against `j` in the cluster's games, `n_c,ij` their games, the prior left out —
/// the robust covariance is `V = I⁺ B I⁺` with `B = Σ_c g_c g_cᵀ` (computed from the
/// moment sums of [`ClusterMoments`]). The variances that the intervals are drawn from
/// are, bot by bot,
///
/// `max(I⁺_ii, C/(C − 1) · V_ii)` for `C` ≥ 2 clusters, `I⁺_ii` for fewer:
///
/// the sandwich is too small with few clusters (it sums `C` squared residuals about an
/// estimate fitted to them), so it takes the small-sample factor `C/(C − 1)` and is
/// never narrower than the model's interval — which is what independent games would
/// give. With one cluster or none there is nothing to estimate the spread from, and the
/// model's interval stands.
///
/// # Panics
/// As [`ratings`]; and if `clusters` names a bot `≥ bots`.
pub fn clustered_ratings(
    results: &[(usize, usize, f64)],
    bots: usize,
    clusters: &ClusterMoments,
) -> Vec<Rating> {
    let (theta, pseudo_inverse) = fit(results, bots);
    let c = clusters.clusters() as f64;
    if c < 2.0 {
        return rated(&theta, |i| pseudo_inverse[i][i]);
    }
    let b = clusters.score_outer(&theta);
    let k = theta.len();
    // (I⁺ B I⁺)_ii = Σ_a Σ_b I⁺_ia B_ab I⁺_bi.
    let sandwich = |i: usize| {
        (0..k)
            .map(|a| {
                pseudo_inverse[i][a] * (0..k).map(|x| b[a][x] * pseudo_inverse[x][i]).sum::<f64>()
            })
            .sum::<f64>()
    };
    rated(&theta, |i| {
        pseudo_inverse[i][i].max(c / (c - 1.0) * sandwich(i))
    })
}

/// Each bot's rating and interval from the ratings `theta` (log-odds) and the variance
/// of the `i`-th (log-odds², a negative one taken as 0).
fn rated(theta: &[f64], variance: impl Fn(usize) -> f64) -> Vec<Rating> {
    (0..theta.len())
        .map(|i| {
            let (elo, half) = (
                theta[i] / LOGIT_PER_ELO,
                Z95 * variance(i).max(0.0).sqrt() / LOGIT_PER_ELO,
            );
            Rating {
                elo,
                elo_interval: [elo - half, elo + half],
            }
        })
        .collect()
}

/// The maximum-likelihood ratings of [`ratings`] (log-odds, mean 0) and the
/// pseudo-inverse `(I + 11ᵀ/k)⁻¹ − 11ᵀ/k` of the observed information `I` there (all
/// zeros should it be singular, which the prior prevents).
fn fit(results: &[(usize, usize, f64)], bots: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    let k = bots;
    // games[i][j]: games between i and j; points[i][j]: what i scored in them.
    let mut games = vec![vec![0.0; k]; k];
    let mut points = vec![vec![0.0; k]; k];
    for &(i, j, s) in results {
        assert!(
            i < k && j < k && i != j,
            "a rated game names bots {i} and {j} of {k}"
        );
        assert!(
            (0.0..=1.0).contains(&s),
            "a rated game's score {s} is outside [0, 1]"
        );
        games[i][j] += 1.0;
        games[j][i] += 1.0;
        points[i][j] += s;
        points[j][i] += 1.0 - s;
    }
    if k >= 2 {
        let prior = 1.0 / (k - 1) as f64;
        for i in 0..k {
            for j in 0..k {
                if i != j {
                    games[i][j] += prior;
                    points[i][j] += prior / 2.0;
                }
            }
        }
    }
    // theta: ratings in natural log-odds units (Elo · ln 10 / 400).
    let mut theta = vec![0.0f64; k];
    let tolerance = RATING_TOLERANCE * LOGIT_PER_ELO;
    for _ in 0..RATING_ROUNDS {
        let mut gradient = vec![0.0; k];
        for i in 0..k {
            for j in 0..k {
                if i != j {
                    let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                    gradient[i] += points[i][j] - games[i][j] * p;
                }
            }
        }
        let Some(inverse) = anchored_inverse(&information(&theta, &games)) else {
            break;
        };
        let mut step: Vec<f64> = (0..k)
            .map(|i| (0..k).map(|j| inverse[i][j] * gradient[j]).sum())
            .collect();
        let largest = step.iter().fold(0.0, |m: f64, d| m.max(d.abs()));
        if largest > 1.0 {
            step.iter_mut().for_each(|d| *d /= largest);
        }
        theta.iter_mut().zip(&step).for_each(|(t, d)| *t += d);
        let mean = theta.iter().sum::<f64>() / k as f64;
        theta.iter_mut().for_each(|t| *t -= mean);
        if largest <= tolerance {
            break;
        }
    }
    let k = theta.len();
    let pseudo_inverse = match anchored_inverse(&information(&theta, &games)) {
        Some(inverse) => inverse
            .into_iter()
            .map(|row| row.into_iter().map(|x| x - 1.0 / k as f64).collect())
            .collect(),
        None => vec![vec![0.0; k]; k],
    };
    (theta, pseudo_inverse)
}

/// The observed Fisher information of the ratings `theta` (log-odds units): the
/// Laplacian with weights `games[i][j] · p_ij · (1 − p_ij)`.
fn information(theta: &[f64], games: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = theta.len();
    let mut m = vec![vec![0.0; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i != j {
                let p = 1.0 / (1.0 + (theta[j] - theta[i]).exp());
                let w = games[i][j] * p * (1.0 - p);
                m[i][j] -= w;
                m[i][i] += w;
            }
        }
    }
    m
}

/// `(m + 11ᵀ/k)⁻¹` by Gauss–Jordan elimination with partial pivoting; `None` if singular
/// (the bots fall apart into groups that never met — the prior prevents that).
fn anchored_inverse(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let k = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r: Vec<f64> = row.iter().map(|x| x + 1.0 / k as f64).collect();
            r.extend((0..k).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        let d = a[col][col];
        a[col].iter_mut().for_each(|x| *x /= d);
        let pivot_row = a[col].clone();
        for (r, row) in a.iter_mut().enumerate() {
            let f = row[col];
            if r != col && f != 0.0 {
                row.iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(x, p)| *x -= f * p);
            }
        }
    }
    Some(a.into_iter().map(|r| r[k..].to_vec()).collect())
}

/// The pairwise results of one cluster's games (see [`clustered_ratings`]), summed for
/// every two bots. A score is counted in half points, to the nearest (the scores are 1,
/// ½ and 0), so that sums of clusters are exact and the same in any order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cluster {
    /// `(i, j)` with `i < j` → (the half points `i` scored against `j`, their games).
    cells: BTreeMap<(usize, usize), (u64, u64)>,
}

impl Cluster {
    /// Counts a game of bot `i` against bot `j` in which `i` scored `s` (in `[0, 1]`).
    ///
    /// # Panics
    /// If `i` = `j`.
    pub fn add(&mut self, i: usize, j: usize, s: f64) {
        assert!(i != j, "a cluster's game names bot {i} twice");
        let half = (s * 2.0).round().clamp(0.0, 2.0) as u64;
        let (key, half) = if i < j {
            ((i, j), half)
        } else {
            ((j, i), 2 - half)
        };
        let cell = self.cells.entry(key).or_default();
        cell.0 += half;
        cell.1 += 1;
    }

    /// No game counted.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// What [`clustered_ratings`] needs of the clusters, summed over them: the number of
/// clusters, and for every two pairs of bots `u = (i, j)` and `v = (l, m)` (`i < j`,
/// `l < m`) the sums over clusters of `h_u·h_v`, `h_u·n_v`, `n_u·h_v` and `n_u·n_v`,
/// `h_u` the half points `i` scored against `j` in the cluster and `n_u` their games.
/// The score of a cluster, `g_c = A (h_c/2 − n_c ∘ p)` (`A` sending a pair's residual to
/// its first bot with `+` and its second with `−`), depends on the ratings, known only
/// once every game is in; its outer product expands into these sums, which do not. They
/// are integers, so any order of adding clusters gives the same sums; their number
/// grows with the bots (at most `(k(k − 1)/2)²` entries), never with the games.
/// Two pairs of bots, `((i, j), (l, m))`, each with `i < j`.
type PairOfPairs = ((usize, usize), (usize, usize));

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClusterMoments {
    clusters: u64,
    /// `(u, v)` → `[Σ h_u·h_v, Σ h_u·n_v, Σ n_u·h_v, Σ n_u·n_v]`.
    sums: BTreeMap<PairOfPairs, [u64; 4]>,
}

impl ClusterMoments {
    /// Counts one cluster (an empty one is no cluster).
    pub fn add(&mut self, cluster: &Cluster) {
        if cluster.is_empty() {
            return;
        }
        self.clusters += 1;
        for (&u, &(hu, nu)) in &cluster.cells {
            for (&v, &(hv, nv)) in &cluster.cells {
                let s = self.sums.entry((u, v)).or_default();
                s[0] += hu * hv;
                s[1] += hu * nv;
                s[2] += nu * hv;
                s[3] += nu * nv;
            }
        }
    }

    /// Clusters counted.
    pub fn clusters(&self) -> u64 {
        self.clusters
    }

    /// `B = Σ_c g_c g_cᵀ` at the ratings `theta` (log-odds; see [`clustered_ratings`]):
    /// with `p_u = P(i beats j)` and the residual `d_u = h_u/2 − n_u·p_u`,
    /// `Σ_c d_u d_v = Σ h_u h_v/4 − p_v Σ h_u n_v/2 − p_u Σ n_u h_v/2 + p_u p_v Σ n_u n_v`,
    /// added to `B[i][l]` and `B[j][m]` and taken from `B[i][m]` and `B[j][l]`.
    ///
    /// # Panics
    /// If a cluster names a bot beyond `theta`.
    pub fn score_outer(&self, theta: &[f64]) -> Vec<Vec<f64>> {
        let k = theta.len();
        let p = |(i, j): (usize, usize)| 1.0 / (1.0 + (theta[j] - theta[i]).exp());
        let mut b = vec![vec![0.0; k]; k];
        for (&(u, v), s) in &self.sums {
            let (pu, pv) = (p(u), p(v));
            let [hh, hn, nh, nn] = s.map(|x| x as f64);
            let d = hh / 4.0 - pv * hn / 2.0 - pu * nh / 2.0 + pu * pv * nn;
            b[u.0][v.0] += d;
            b[u.1][v.1] += d;
            b[u.0][v.1] -= d;
            b[u.1][v.0] -= d;
        }
        b
    }
}

/// The pairwise results of one game between several bots, for [`ratings`]: `ranks`
/// holds each bot's index and place (0 the best; tied bots share a place). Every two
/// bots, in the order given, make one entry `(a, b, s)`: `s` = 1 if `a` placed ahead of
/// `b`, ½ if they tied, 0 if behind. A game of `k` bots gives `k(k − 1)/2` entries; a
/// tournament's crosstable ratings are computed from these.
pub fn pairwise_from_ranking(ranks: &[(usize, u32)]) -> Vec<(usize, usize, f64)> {
    let mut out = Vec::with_capacity(ranks.len() * ranks.len().saturating_sub(1) / 2);
    for (x, &(a, ra)) in ranks.iter().enumerate() {
        for &(b, rb) in &ranks[x + 1..] {
            let s = match ra.cmp(&rb) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            out.push((a, b, s));
        }
    }
    out
}

#[cfg(test)]
#[path = "ratings_tests.rs"]
mod tests;
