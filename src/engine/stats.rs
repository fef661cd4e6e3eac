//! The bottom of the engine: what a finished (or cut) playout is worth to each seat, and
//! the interval around a mean.

use crate::games::{End, Game, Status};

/// Seats a game may have ([`crate::games::SeatSet`] holds eight).
pub const MAX_SEATS: usize = 8;

/// What one playout is worth to each seat, by seat index: the winners share 1, a draw is
/// split among the seats that play, a game nobody wins is worth 0 to all.
pub type Reward = [f64; MAX_SEATS];

/// The reward of a game that ended.
pub fn of_end<G: Game>(settings: &G::Settings, end: &End) -> Reward {
    let mut r = [0.0; MAX_SEATS];
    if end.draw {
        let seats = G::seats(settings);
        for s in seats {
            r[s.0 as usize] = 1.0 / seats.len() as f64;
        }
    } else if !end.winners.is_empty() {
        let share = 1.0 / end.winners.len() as f64;
        for s in end.winners.iter() {
            r[s.0 as usize] = share;
        }
    }
    r
}

/// The reward of a position: its end if it is over, else the game's estimate of a
/// position a playout was cut at ([`Game::cut_shares`]).
pub fn of_position<G: Game>(settings: &G::Settings, state: &G::State) -> Reward {
    match G::status(settings, state) {
        Status::Over(end) => of_end::<G>(settings, &end),
        Status::Playing { .. } => {
            let mut r = [0.0; MAX_SEATS];
            G::cut_shares(settings, state, &mut r);
            r
        }
    }
}

/// The 95 % Wilson score interval of a proportion `p` observed over `n` trials.
pub fn wilson(p: f64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = p.clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_brackets_the_mean_and_narrows_with_trials() {
        let (lo, hi) = wilson(0.5, 100);
        assert!(lo < 0.5 && hi > 0.5);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        let (lo2, hi2) = wilson(0.5, 10_000);
        assert!(hi2 - lo2 < hi - lo);
        let (lo, hi) = wilson(0.0, 20);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.1 && hi < 0.2);
        assert_eq!(wilson(0.3, 0), (0.0, 1.0));
    }
}
