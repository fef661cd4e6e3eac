//! The match statistics: which bot is stronger, and how sure that is.
//!
//! Pure functions over counts, no I/O. The formulas are those of fastchess
//! (`elo_wdl.cpp`, `elo_pentanomial.cpp`, `sprt.cpp`) and fishtest
//! (`stat_util.py`, `LLRcalc.py`), written out in each item's documentation:
//!
//! - [`Wdl`] and [`Pentanomial`] — the counts a match keeps;
//! - [`from_wdl`] and [`from_pentanomial`] — Elo, normalized Elo and the likelihood of
//!   superiority, with 95 % intervals ([`EloEstimate`]);
//! - [`Sprt`] — the sequential probability ratio test (generalized, as fishtest runs it).
//!
//! The ratings of more than two bots are in [`super::ratings`].
//!
//! A score is always the first bot's, per game, in `[0, 1]`: a win 1, a draw ½, a loss 0.

use std::f64::consts::{LN_10, PI};

use serde::Serialize;

/// The two-sided 95 % quantile of the standard normal distribution, Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t-value (mean over standard deviation): 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// Natural-log odds per Elo point: ln 10 / 400 (the logistic model's scale).
pub const LOGIT_PER_ELO: f64 = LN_10 / 400.0;

/// A match's games counted from the first bot's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games the first bot won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the first bot lost.
    pub losses: u64,
}

impl Wdl {
    /// All games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The same games counted from the second bot's side.
    pub fn swapped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Counts one game by the first bot's score: 1 a win, ½ a draw, 0 a loss (a score
    /// between is rounded to the nearest of these).
    pub fn record(&mut self, score: f64) {
        match (score * 2.0).round() as i64 {
            i64::MIN..=0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }
}

/// A match's game pairs counted by the first bot's points over the pair: index 0 holds
/// the pairs it lost both games of (0 points), 1 → ½, 2 → 1 (a win and a loss, or two
/// draws), 3 → 1½, 4 → 2 (won both). A pair is two games with the same seed and
/// opening, seats swapped. Serialized as the array of five counts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// All pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The same pairs counted from the second bot's side (the counts reversed).
    pub fn swapped(&self) -> Pentanomial {
        let mut c = self.0;
        c.reverse();
        Pentanomial(c)
    }

    /// Counts one pair by the first bot's scores in its two games (each 1, ½ or 0; the
    /// sum is rounded to the nearest half point).
    pub fn record_pair(&mut self, first: f64, second: f64) {
        let index = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[index] += 1;
    }
}

/// The Elo difference a mean score stands for in the logistic model:
/// `elo = −400 · log10(1/s − 1)`. Infinite at `s` = 0 or 1, NaN outside `[0, 1]`.
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference in the logistic model, the inverse of
/// [`elo_of_score`]: `s = 1 / (1 + 10^(−elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The complementary error function, `erfc(x) = 1 − erf(x)`, to about 1e-14 (relative in
/// the upper tail). Below |x| = 2.5 from the series
/// `erf(x) = (2/√π) · e^(−x²) · Σₙ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))` (all terms positive);
/// beyond, the continued fraction
/// `erfc(x) = e^(−x²)/√π · 1/(x + (1/2)/(x + (2/2)/(x + (3/2)/(x + …))))`, 100 terms deep;
/// `erfc(−x) = 2 − erfc(x)`.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.5 {
        let two_x2 = 2.0 * x * x;
        let (mut term, mut sum) = (x, x);
        let mut n = 1.0;
        while term > 1e-17 * sum {
            term *= two_x2 / (2.0 * n + 1.0);
            sum += term;
            n += 1.0;
        }
        return 1.0 - 2.0 / PI.sqrt() * (-x * x).exp() * sum;
    }
    let mut f = x;
    for k in (1..=100).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    (-x * x).exp() / (PI.sqrt() * f)
}

/// The error function, `erf(x) = 1 − erfc(x)` (see [`erfc`]).
pub fn erf(x: f64) -> f64 {
    1.0 - erfc(x)
}

/// The standard normal distribution function, `Φ(z) = ½ · erfc(−z/√2)`.
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// What a match says about the first bot against the second. Every figure is a number
/// or `None` (JSON `null`), never infinite or NaN.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The mean score per game, `mu` (for pentanomial counts: points over games).
    pub score: f64,
    /// The Elo difference, `elo_of_score(mu)`. When every game went the first bot's way
    /// (`mu` = 1) or every game the other's (`mu` = 0) that is infinite, so the score is
    /// then taken as if one more game had been drawn: `(points + ½) / (games + 1)` — the
    /// same one-virtual-draw prior the ratings use, so the two agree.
    pub elo: f64,
    /// The 95 % interval of the Elo difference:
    /// `[elo_of_score(mu − Z95·σ), elo_of_score(mu + Z95·σ)]` with `σ = √(var / N)`. An
    /// end is `None` when it is unbounded: the score bound falls outside (0, 1), or
    /// `var` = 0 (every game — every pair — scored the same, so the normal
    /// approximation has no spread to go on).
    pub elo_interval: [Option<f64>; 2],
    /// The normalized Elo, `(mu − ½) / σ₁ · 800 / ln 10` with `σ₁` the standard deviation
    /// of one game's score; `None` when `var` = 0.
    pub nelo: Option<f64>,
    /// The 95 % interval of the normalized Elo, the same formula at `mu ∓ Z95·σ`; `None`
    /// when `var` = 0.
    pub nelo_interval: Option<[f64; 2]>,
    /// The likelihood of superiority: the probability that the first bot is the stronger,
    /// ½ when the counts say nothing either way.
    pub los: f64,
}

/// The estimate from win/draw/loss counts, one game the unit (fastchess `EloWDL`):
/// `mu = (W + D/2) / N`, `var = [W(1 − mu)² + D(½ − mu)² + L·mu²] / N` (the variance of
/// one game's score), `σ = √(var / N)`; `nelo = (mu − ½) / √var · 800/ln 10`; the LOS
/// is cutechess's, `½ · (1 + erf((W − L) / √(2(W + L))))`, ½ without decisive games.
/// See [`EloEstimate`] for the degenerate cases. `None` when no game was played.
pub fn from_wdl(wdl: &Wdl) -> Option<EloEstimate> {
    let counts = [wdl.losses, wdl.draws, wdl.wins];
    let decisive = (wdl.wins + wdl.losses) as f64;
    let los = if decisive == 0.0 {
        0.5
    } else {
        0.5 * (1.0 + erf((wdl.wins as f64 - wdl.losses as f64) / (2.0 * decisive).sqrt()))
    };
    estimate(&counts, 1, |_, _| los)
}

/// The estimate from pentanomial counts, one pair the unit (fastchess `EloPentanomial`,
/// fishtest's `stats` of a five-point results list): a pair's score is its points / 2,
/// in {0, ¼, ½, ¾, 1}; `mu` and `var` are the mean and variance of that per-pair score,
/// `σ = √(var / pairs)`. A game's standard deviation is taken as `√(2·var)` (a pair
/// averages two games), so `nelo = (mu − ½) / √(2·var) · 800/ln 10` — fastchess's
/// `scoreToNeloDiff`. `LOS = Φ((mu − ½) / σ)` (1 or 0 when `var` = 0 and `mu` ≠ ½).
/// See [`EloEstimate`] for the degenerate cases. `None` when no pair was played.
pub fn from_pentanomial(penta: &Pentanomial) -> Option<EloEstimate> {
    estimate(&penta.0, 2, |mu, sigma| {
        if sigma > 0.0 {
            normal_cdf((mu - 0.5) / sigma)
        } else if mu == 0.5 {
            0.5
        } else if mu > 0.5 {
            1.0
        } else {
            0.0
        }
    })
}

/// The estimate from counts of units (games, or pairs of `games_per_unit` games) whose
/// scores are spread evenly over [0, 1]: `counts[i]` units scored `i / (len − 1)`.
/// `los(mu, σ)` gives the likelihood of superiority.
fn estimate(
    counts: &[u64],
    games_per_unit: u64,
    los: impl Fn(f64, f64) -> f64,
) -> Option<EloEstimate> {
    let (n, mu, var) = moments(counts)?;
    let sigma = (var / n).sqrt();
    let elo = if mu > 0.0 && mu < 1.0 {
        elo_of_score(mu)
    } else {
        let games = n * games_per_unit as f64;
        elo_of_score((mu * games + 0.5) / (games + 1.0))
    };
    let bounded = |s: f64| (var > 0.0 && s > 0.0 && s < 1.0).then(|| elo_of_score(s));
    let game_sd = (games_per_unit as f64 * var).sqrt();
    let nelo = |s: f64| (s - 0.5) / game_sd * NELO_PER_T;
    Some(EloEstimate {
        score: mu,
        elo,
        elo_interval: [bounded(mu - Z95 * sigma), bounded(mu + Z95 * sigma)],
        nelo: (var > 0.0).then(|| nelo(mu)),
        nelo_interval: (var > 0.0).then(|| [nelo(mu - Z95 * sigma), nelo(mu + Z95 * sigma)]),
        los: los(mu, sigma),
    })
}

/// The number of units, the mean and the variance of their score, from `counts[i]`
/// units scoring `i / (len − 1)`; `None` without units.
fn moments(counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n = counts.iter().sum::<u64>() as f64;
    if n == 0.0 {
        return None;
    }
    let top = (counts.len() - 1) as f64;
    let mean_of = |f: &dyn Fn(f64) -> f64| {
        counts
            .iter()
            .enumerate()
            .map(|(i, &c)| c as f64 * f(i as f64 / top))
            .sum::<f64>()
            / n
    };
    let mu = mean_of(&|a| a);
    let var = mean_of(&|a| (a - mu) * (a - mu));
    Some((n, mu, var))
}

/// How [`Sprt`]'s Elo bounds are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalized Elo: the hypotheses fix the t-value `(mu − ½)/σ₁` of the score at
    /// `nelo / (800/ln 10)`, `σ₁` one game's standard deviation (fishtest's and
    /// fastchess's default).
    Normalized,
    /// Logistic Elo: the hypotheses fix the expected score at `score_of_elo(elo)`.
    Logistic,
}

/// Why [`Sprt::new`] refused its parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtError {
    /// `elo0` must be below `elo1`.
    BoundsOrder,
    /// `alpha` and `beta` must each lie in (0, 1) and add up to less than 1.
    ErrorRates,
    /// The Elo bounds must be finite.
    NotFinite,
}

impl std::fmt::Display for SprtError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SprtError::BoundsOrder => "the SPRT's elo0 must be below its elo1",
            SprtError::ErrorRates => {
                "the SPRT's alpha and beta must each be between 0 and 1, their sum below 1"
            }
            SprtError::NotFinite => "the SPRT's Elo bounds must be finite numbers",
        })
    }
}

impl std::error::Error for SprtError {}

/// A sequential probability ratio test of H0 "the first bot is `elo0` stronger" against
/// H1 "it is `elo1` stronger", with false-positive rate `alpha` and false-negative rate
/// `beta`. Serialized with its five parameters.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: SprtModel,
}

/// What an SPRT says so far; serialized as `"H0"`, `"H1"` or `"continue"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum SprtVerdict {
    /// The log-likelihood ratio fell to the lower bound: H0 accepted.
    H0,
    /// The log-likelihood ratio rose to the upper bound: H1 accepted.
    H1,
    /// Between the bounds: play on.
    #[serde(rename = "continue")]
    Continue,
}

/// The state of an SPRT: the log-likelihood ratio, its bounds and the verdict.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct SprtResult {
    /// The generalized log-likelihood ratio of H1 over H0.
    pub llr: f64,
    /// The bound at or below which H0 is accepted.
    pub lower: f64,
    /// The bound at or above which H1 is accepted.
    pub upper: f64,
    /// Where `llr` stands against the bounds.
    pub verdict: SprtVerdict,
}

impl Sprt {
    /// A test; refused unless `elo0 < elo1` (both finite), `alpha` and `beta` in (0, 1)
    /// and `alpha + beta < 1`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, SprtError> {
        if !elo0.is_finite() || !elo1.is_finite() {
            return Err(SprtError::NotFinite);
        }
        if elo0 >= elo1 {
            return Err(SprtError::BoundsOrder);
        }
        let rate = |r: f64| r > 0.0 && r < 1.0;
        if !rate(alpha) || !rate(beta) || alpha + beta >= 1.0 {
            return Err(SprtError::ErrorRates);
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Wald's bounds on the log-likelihood ratio: `(ln(β / (1 − α)), ln((1 − β) / α))`.
    pub fn bounds(&self) -> (f64, f64) {
        let (a, b) = (self.alpha, self.beta);
        ((b / (1.0 - a)).ln(), ((1.0 - b) / a).ln())
    }

    /// The verdict of a log-likelihood ratio: H1 at or above the upper bound, H0 at or
    /// below the lower one, else continue.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The generalized log-likelihood ratio of win/draw/loss counts, one game the unit:
    /// see [`Sprt::llr_pentanomial`] (here the scores are {0, ½, 1} and the t-value
    /// bounds `nelo / (800/ln 10)`).
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr(&[wdl.losses, wdl.draws, wdl.wins], 1.0)
    }

    /// The generalized log-likelihood ratio of pentanomial counts, one pair the unit,
    /// computed exactly as fishtest's `LLR_logistic` / `LLR_normalized` and fastchess's
    /// `getLLR` do: zero counts are replaced by 1e-3 (regularization); `p̂` is the
    /// observed distribution over the pair scores {0, ¼, ½, ¾, 1}; for each hypothesis
    /// the maximum-likelihood distribution `p` on those scores satisfying it is found
    /// (van den Bergh's `p_i = p̂_i / (1 + θ·φ_i)`, θ the root of
    /// `Σ p̂_i φ_i / (1 + θ φ_i) = 0`, with `φ_i = a_i − s` for the logistic model's
    /// expected score `s`; for the normalized one, whose t-value bound is
    /// `√2 · nelo / (800/ln 10)` per pair, `φ_i = a_i − ½ − t·σ·(1 + ((a_i − mu)/σ)²)/2`
    /// iterated to a fixed point from the uniform distribution); then
    /// `LLR = N · Σ p̂_i · ln(p1_i / p0_i)`. Should a hypothesis have no such
    /// distribution (a normalized bound so far out that the iteration cannot start,
    /// beyond ±200 nElo), the Brownian approximation is used instead:
    /// `LLR ≈ N · (s1 − s0)(2·mu − s0 − s1) / (2·var)`, with `s = ½ + t·σ` in the
    /// normalized model. 0 when no pair was played.
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> f64 {
        self.llr(&penta.0, std::f64::consts::SQRT_2)
    }

    /// The state of the test after win/draw/loss counts.
    pub fn result_wdl(&self, wdl: &Wdl) -> SprtResult {
        self.result(self.llr_wdl(wdl))
    }

    /// The state of the test after pentanomial counts.
    pub fn result_pentanomial(&self, penta: &Pentanomial) -> SprtResult {
        self.result(self.llr_pentanomial(penta))
    }

    fn result(&self, llr: f64) -> SprtResult {
        let (lower, upper) = self.bounds();
        SprtResult {
            llr,
            lower,
            upper,
            verdict: self.verdict(llr),
        }
    }

    /// The LLR of `counts` (units scoring `i / (len − 1)`); `t_scale` turns a game's
    /// t-value into a unit's (√2 for a pair).
    fn llr(&self, counts: &[u64], t_scale: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let top = (counts.len() - 1) as f64;
        let a: Vec<f64> = (0..counts.len()).map(|i| i as f64 / top).collect();
        let regular: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let n: f64 = regular.iter().sum();
        let p_hat: Vec<f64> = regular.iter().map(|c| c / n).collect();
        let (t0, t1) = (
            self.elo0 / NELO_PER_T * t_scale,
            self.elo1 / NELO_PER_T * t_scale,
        );
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let fitted = match self.model {
            SprtModel::Logistic => mle_expected(&a, &p_hat, s0).zip(mle_expected(&a, &p_hat, s1)),
            SprtModel::Normalized => mle_t_value(&a, &p_hat, t0).zip(mle_t_value(&a, &p_hat, t1)),
        };
        if let Some((p0, p1)) = fitted {
            return n
                * (0..a.len())
                    .map(|i| p_hat[i] * (p1[i] / p0[i]).ln())
                    .sum::<f64>();
        }
        let (mu, var) = mean_var(&a, &p_hat);
        let (s0, s1) = match self.model {
            SprtModel::Logistic => (s0, s1),
            SprtModel::Normalized => (0.5 + t0 * var.sqrt(), 0.5 + t1 * var.sqrt()),
        };
        n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
    }
}

/// The mean and variance of the distribution `p` on the points `a`.
fn mean_var(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
    (
        mu,
        a.iter().zip(p).map(|(a, p)| p * (a - mu) * (a - mu)).sum(),
    )
}

/// The root θ of the secular equation `Σ p_i φ_i / (1 + θ φ_i) = 0` (decreasing in θ on
/// `(−1/max φ, −1/min φ)`), by bisection to the last bit; `None` unless `φ` takes both
/// signs (and every `p_i` > 0, which regularization ensures).
fn secular(phi: &[f64], p: &[f64]) -> Option<f64> {
    let lo_phi = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_phi = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_phi < 0.0 && hi_phi > 0.0) {
        return None;
    }
    let f = |x: f64| {
        phi.iter()
            .zip(p)
            .map(|(f, p)| p * f / (1.0 + x * f))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = (-1.0 / hi_phi, -1.0 / lo_phi);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The most likely distribution on `a` with expectation `s`, given the observed `p_hat`
/// (van den Bergh, "Support for the MLE of a multinomial", proposition 1.1).
fn mle_expected(a: &[f64], p_hat: &[f64], s: f64) -> Option<Vec<f64>> {
    let phi: Vec<f64> = a.iter().map(|a| a - s).collect();
    let theta = secular(&phi, p_hat)?;
    Some(
        p_hat
            .iter()
            .zip(&phi)
            .map(|(p, f)| p / (1.0 + theta * f))
            .collect(),
    )
}

/// The most likely distribution on `a` with t-value `(mu − ½)/σ = t`, given the observed
/// `p_hat` (van den Bergh, "Comments on normalized Elo", section 4.1): a fixed-point
/// iteration from the uniform distribution, at most 100 rounds, until no probability
/// moves by 1e-13.
fn mle_t_value(a: &[f64], p_hat: &[f64], t: f64) -> Option<Vec<f64>> {
    let mut p = vec![1.0 / a.len() as f64; a.len()];
    for _ in 0..100 {
        let (mu, var) = mean_var(a, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = a
            .iter()
            .map(|&ai| ai - 0.5 - t * sigma * (1.0 + ((ai - mu) / sigma).powi(2)) / 2.0)
            .collect();
        let theta = secular(&phi, p_hat)?;
        let next: Vec<f64> = p_hat
            .iter()
            .zip(&phi)
            .map(|(p, f)| p / (1.0 + theta * f))
            .collect();
        let moved = next
            .iter()
            .zip(&p)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        p = next;
        if moved < 1e-13 {
            break;
        }
    }
    Some(p)
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
