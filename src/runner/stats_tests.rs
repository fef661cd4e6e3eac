//! Tests of the match statistics against worked examples. The expected figures were
//! computed apart from this code (by hand where the comments show it, the LLRs by a
//! transcription of fishtest's `LLRcalc.py` with bisection in place of scipy's brentq).

use super::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[track_caller]
fn assert_close(a: f64, b: f64, tol: f64) {
    assert!(close(a, b, tol), "{a} is not within {tol} of {b}");
}

#[track_caller]
fn assert_mirrored(e: &EloEstimate, m: &EloEstimate) {
    let tol = 1e-9;
    assert_close(e.score, 1.0 - m.score, tol);
    assert_close(e.elo, -m.elo, tol);
    for (x, y) in [
        (e.elo_interval[0], m.elo_interval[1]),
        (e.elo_interval[1], m.elo_interval[0]),
    ] {
        assert_eq!(x.is_some(), y.is_some());
        if let (Some(x), Some(y)) = (x, y) {
            assert_close(x, -y, tol);
        }
    }
    assert_eq!(e.nelo.is_some(), m.nelo.is_some());
    if let (Some(a), Some(b), Some(i), Some(j)) = (e.nelo, m.nelo, e.nelo_interval, m.nelo_interval)
    {
        assert_close(a, -b, tol);
        assert_close(i[0], -j[1], tol);
        assert_close(i[1], -j[0], tol);
    }
    assert_close(e.los, 1.0 - m.los, tol);
}

#[track_caller]
fn assert_inside(e: &EloEstimate) {
    let [lo, hi] = e.elo_interval;
    assert!(
        lo.is_none_or(|lo| lo <= e.elo) && hi.is_none_or(|hi| e.elo <= hi),
        "{e:?}"
    );
    if let (Some(n), Some([lo, hi])) = (e.nelo, e.nelo_interval) {
        assert!(lo <= n && n <= hi, "{e:?}");
    }
    for x in [e.score, e.elo, e.los]
        .into_iter()
        .chain(e.nelo)
        .chain(lo)
        .chain(hi)
    {
        assert!(x.is_finite(), "{e:?}");
    }
}

#[test]
fn erf_and_the_normal_distribution_match_tabulated_values() {
    // Values from a C library's erf/erfc (Python's math module).
    assert_close(erf(0.5), 0.520_499_877_813_046_5, 1e-15);
    assert_close(erf(1.0), 0.842_700_792_949_714_9, 1e-15);
    assert_close(erf(2.0), 0.995_322_265_018_952_7, 1e-15);
    assert_close(erf(-1.0), -0.842_700_792_949_714_9, 1e-15);
    assert_eq!(erf(0.0), 0.0);
    let rel = |x: f64, want: f64| assert_close(erfc(x) / want, 1.0, 1e-12);
    rel(2.4, 6.885_138_966_450_789e-4);
    rel(2.5, 4.069_520_174_449_59e-4);
    rel(3.0, 2.209_049_699_858_543_8e-5);
    rel(5.0, 1.537_459_794_428_035_1e-12);
    rel(10.0, 2.088_487_583_762_545e-45);
    assert_close(normal_cdf(0.0), 0.5, 1e-15);
    assert_close(normal_cdf(Z95), 0.975, 1e-15);
    assert_close(normal_cdf(-Z95), 0.025, 1e-15);
}

#[test]
fn elo_of_score_is_the_logistic_curve() {
    // 0.75 = 3 : 1 odds → 400 · log10 3.
    assert_close(elo_of_score(0.75), 400.0 * 3f64.log10(), 1e-12);
    assert_close(elo_of_score(0.75), 190.848_501_887_865, 1e-9);
    assert_close(elo_of_score(0.25), -190.848_501_887_865, 1e-9);
    assert_eq!(elo_of_score(0.5), 0.0);
    for elo in [-700.0, -35.0, 0.0, 12.5, 400.0] {
        assert_close(elo_of_score(score_of_elo(elo)), elo, 1e-9);
    }
}

#[test]
fn wdl_worked_example() {
    // 30 wins, 50 draws, 20 losses: mu = (30 + 25)/100 = 0.55;
    // var = 0.3·0.45² + 0.5·0.05² + 0.2·0.55² = 0.1225; σ = √(0.1225/100) = 0.035;
    // elo = 400·log10(0.55/0.45) = 34.860; interval at 0.55 ∓ 1.959964·0.035;
    // nelo = 0.05/0.35 · 347.4356 = 49.634; LOS = ½(1 + erf(10/√100)) = ½(1 + erf 1).
    let e = from_wdl(&Wdl {
        wins: 30,
        draws: 50,
        losses: 20,
    })
    .unwrap();
    assert_close(e.score, 0.55, 1e-12);
    assert_close(e.elo, 34.860_070_287_560_08, 1e-9);
    assert_close(e.elo_interval[0].unwrap(), -12.929_693_470_337_863, 1e-9);
    assert_close(e.elo_interval[1].unwrap(), 84.010_762_649_402_47, 1e-9);
    assert_close(e.nelo.unwrap(), 49.633_655_074_657_4, 1e-9);
    let [lo, hi] = e.nelo_interval.unwrap();
    assert_close(lo, -18.462_468_382_531_06, 1e-9);
    assert_close(hi, 117.729_778_531_845_8, 1e-9);
    assert_close(e.los, 0.5 * (1.0 + 0.842_700_792_949_714_9), 1e-12);
    assert_inside(&e);
}

#[test]
fn pentanomial_worked_examples() {
    // [10, 20, 40, 20, 10]: mu = (20·¼ + 40·½ + 20·¾ + 10)/100 = 0.5; var = (10·¼ + 20·¹⁄₁₆
    // + 20·¹⁄₁₆ + 10·¼)/100 = 0.075; σ = √(0.075/100) = 0.0273861; elo 0, interval
    // ±elo_of_score(0.5 + 1.959964σ) = ±37.442; nelo interval ±1.959964σ/√0.15·347.4356
    // = ±48.151; LOS Φ(0) = ½.
    let e = from_pentanomial(&Pentanomial([10, 20, 40, 20, 10])).unwrap();
    assert_close(e.score, 0.5, 1e-12);
    assert_close(e.elo, 0.0, 1e-12);
    assert_close(e.elo_interval[0].unwrap(), -37.442_059_735_357_54, 1e-9);
    assert_close(e.elo_interval[1].unwrap(), 37.442_059_735_357_54, 1e-9);
    assert_close(e.nelo.unwrap(), 0.0, 1e-12);
    assert_close(e.nelo_interval.unwrap()[1], 48.151_230_669_094_32, 1e-9);
    assert_close(e.los, 0.5, 1e-12);

    // [5, 10, 40, 30, 15]: mu = (2.5 + 20 + 22.5 + 15)/100 = 0.6; var = (5·0.36 +
    // 10·0.1225 + 40·0.01 + 30·0.0225 + 15·0.16)/100 = 0.065; σ = √(0.065/100) = 0.0254951;
    // elo = 400·log10 1.5 = 70.437; nelo = 0.1/√0.13 · 347.4356 = 96.361;
    // LOS = Φ(0.1/σ) = Φ(3.9223).
    let e = from_pentanomial(&Pentanomial([5, 10, 40, 30, 15])).unwrap();
    assert_close(e.score, 0.6, 1e-12);
    assert_close(e.elo, 400.0 * 1.5f64.log10(), 1e-9);
    assert_close(e.elo, 70.436_503_622_272_47, 1e-9);
    assert_close(e.elo_interval[0].unwrap(), 34.881_497_007_037_78, 1e-9);
    assert_close(e.elo_interval[1].unwrap(), 107.514_815_142_830_88, 1e-9);
    assert_close(e.nelo.unwrap(), 96.361_293_732_507_16, 1e-9);
    let [lo, hi] = e.nelo_interval.unwrap();
    assert_close(lo, 48.210_063_063_412_896, 1e-9);
    assert_close(hi, 144.512_524_401_601_44, 1e-9);
    assert_close(e.los, 0.999_956_150_288_122, 1e-12);
    assert_inside(&e);
}

#[test]
fn swapping_sides_mirrors_every_figure() {
    for w in [
        (30, 50, 20),
        (1, 0, 0),
        (9, 1, 0),
        (0, 4, 0),
        (3, 0, 7),
        (120, 7, 300),
    ] {
        let wdl = Wdl {
            wins: w.0,
            draws: w.1,
            losses: w.2,
        };
        let (e, m) = (from_wdl(&wdl).unwrap(), from_wdl(&wdl.swapped()).unwrap());
        assert_mirrored(&e, &m);
        assert_inside(&e);
    }
    for c in [
        [5, 10, 40, 30, 15],
        [0, 0, 0, 0, 7],
        [0, 0, 3, 0, 0],
        [1, 0, 0, 2, 9],
        [0, 1, 2, 3, 4],
    ] {
        let p = Pentanomial(c);
        let (e, m) = (
            from_pentanomial(&p).unwrap(),
            from_pentanomial(&p.swapped()).unwrap(),
        );
        assert_mirrored(&e, &m);
        assert_inside(&e);
    }
}

#[test]
fn a_better_result_never_lowers_the_estimate() {
    let mut last = from_wdl(&Wdl {
        wins: 0,
        draws: 0,
        losses: 12,
    })
    .unwrap();
    // Turn losses into draws, then draws into wins, one at a time.
    for step in 1..=24u64 {
        let (w, d) = if step <= 12 {
            (0, step)
        } else {
            (step - 12, 24 - step)
        };
        let e = from_wdl(&Wdl {
            wins: w,
            draws: d,
            losses: 12 - w - d,
        })
        .unwrap();
        assert!(
            e.elo > last.elo && e.los >= last.los && e.score > last.score,
            "{e:?}"
        );
        last = e;
    }
    let mut counts = [8, 0, 0, 0, 0];
    let mut last = from_pentanomial(&Pentanomial(counts)).unwrap();
    // Move one pair a half point up at a time, from the bottom.
    for _ in 0..32 {
        let i = counts
            .iter()
            .position(|&c| c > 0)
            .filter(|&i| i < 4)
            .unwrap();
        counts[i] -= 1;
        counts[i + 1] += 1;
        let e = from_pentanomial(&Pentanomial(counts)).unwrap();
        // (Not the LOS: Φ((mu − ½)/σ) can fall as σ narrows, e.g. [3, 5, 0, 0, 0] → [2, 6, …].)
        assert!(
            e.elo > last.elo && e.score > last.score,
            "{counts:?}: {e:?}"
        );
        last = e;
    }
}

#[test]
fn degenerate_matches_still_give_finite_figures() {
    assert_eq!(from_wdl(&Wdl::default()), None);
    assert_eq!(from_pentanomial(&Pentanomial::default()), None);

    // Ten games, all won: mu = 1, so one virtual draw: (10 + ½)/11 → 400·log10 21.
    let e = from_wdl(&Wdl {
        wins: 10,
        draws: 0,
        losses: 0,
    })
    .unwrap();
    assert_close(e.elo, 400.0 * 21f64.log10(), 1e-9);
    assert_eq!(
        (e.elo_interval, e.nelo, e.nelo_interval),
        ([None, None], None, None)
    );
    assert_close(e.los, 0.5 * (1.0 + erf(10.0 / 20f64.sqrt())), 1e-12);
    let json = serde_json::to_string(&e).unwrap();
    assert!(json.contains("\"elo_interval\":[null,null]") && json.contains("\"nelo\":null"));

    // Seven pairs, all won: 14 games, (14 + ½)/15 → 400·log10 29; LOS 1.
    let e = from_pentanomial(&Pentanomial([0, 0, 0, 0, 7])).unwrap();
    assert_close(e.elo, 400.0 * 29f64.log10(), 1e-9);
    assert_eq!((e.elo_interval, e.los), ([None, None], 1.0));

    // All draws: no spread, no interval, no nElo; LOS ½.
    let e = from_wdl(&Wdl {
        wins: 0,
        draws: 6,
        losses: 0,
    })
    .unwrap();
    assert_eq!(
        (e.elo, e.elo_interval, e.nelo, e.los),
        (0.0, [None, None], None, 0.5)
    );

    // 9 wins and a draw: mu = 0.95, var = 0.0225, σ = 0.0474; mu + 1.96σ > 1, so the
    // interval is open above; below, elo_of_score(0.95 − 0.092969) = 310.8.
    let e = from_wdl(&Wdl {
        wins: 9,
        draws: 1,
        losses: 0,
    })
    .unwrap();
    assert_eq!(e.elo_interval[1], None);
    let lower = elo_of_score(0.95 - Z95 * (0.0225f64 / 10.0).sqrt());
    assert_close(e.elo_interval[0].unwrap(), lower, 1e-9);
    assert!(lower > 300.0 && lower < 320.0);
}

#[test]
fn counts_are_recorded_by_score() {
    let mut wdl = Wdl::default();
    for s in [1.0, 0.5, 0.0, 1.0] {
        wdl.record(s);
    }
    assert_eq!(
        wdl,
        Wdl {
            wins: 2,
            draws: 1,
            losses: 1
        }
    );
    assert_eq!(wdl.games(), 4);
    let mut p = Pentanomial::default();
    for (a, b) in [(1.0, 1.0), (1.0, 0.0), (0.5, 0.5), (0.0, 0.5), (0.5, 1.0)] {
        p.record_pair(a, b);
    }
    assert_eq!(p, Pentanomial([0, 1, 2, 1, 1]));
    assert_eq!(p.pairs(), 5);
    assert_eq!(serde_json::to_string(&p).unwrap(), "[0,1,2,1,1]");
}

fn sprt(elo0: f64, elo1: f64, model: SprtModel) -> Sprt {
    Sprt::new(elo0, elo1, 0.05, 0.05, model).unwrap()
}

#[test]
fn sprt_parameters_and_bounds() {
    // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = +2.944439.
    let s = sprt(0.0, 5.0, SprtModel::Normalized);
    let (lo, hi) = s.bounds();
    assert_close(lo, -2.944_438_979_166_440_3, 1e-12);
    assert_close(hi, 2.944_438_979_166_440_3, 1e-12);
    let (lo, hi) = Sprt::new(0.0, 5.0, 0.05, 0.1, SprtModel::Logistic)
        .unwrap()
        .bounds();
    assert_close(lo, (0.1f64 / 0.95).ln(), 1e-12);
    assert_close(hi, (0.9f64 / 0.05).ln(), 1e-12);
    assert_eq!(s.verdict(3.0), SprtVerdict::H1);
    assert_eq!(s.verdict(-3.0), SprtVerdict::H0);
    assert_eq!(s.verdict(0.1), SprtVerdict::Continue);
    let n = SprtModel::Normalized;
    assert_eq!(
        Sprt::new(5.0, 0.0, 0.05, 0.05, n),
        Err(SprtError::BoundsOrder)
    );
    assert_eq!(
        Sprt::new(0.0, 0.0, 0.05, 0.05, n),
        Err(SprtError::BoundsOrder)
    );
    assert_eq!(
        Sprt::new(0.0, 5.0, 0.0, 0.05, n),
        Err(SprtError::ErrorRates)
    );
    assert_eq!(Sprt::new(0.0, 5.0, 0.5, 0.5, n), Err(SprtError::ErrorRates));
    assert_eq!(
        Sprt::new(f64::NAN, 5.0, 0.05, 0.05, n),
        Err(SprtError::NotFinite)
    );
    let json = serde_json::to_string(&s.result_wdl(&Wdl::default())).unwrap();
    assert!(json.contains("\"llr\":0.0") && json.ends_with("\"verdict\":\"continue\"}"));
    assert_eq!(serde_json::to_string(&SprtVerdict::H1).unwrap(), "\"H1\"");
}

#[test]
fn sprt_llr_worked_examples() {
    use SprtModel::{Logistic, Normalized};
    // From fishtest's LLR_logistic / LLR_normalized on the same counts (see the top).
    let even = Pentanomial([10, 20, 40, 20, 10]);
    let ahead = Pentanomial([5, 10, 40, 30, 15]);
    let wdl = Wdl {
        wins: 30,
        draws: 50,
        losses: 20,
    };
    let cases = [
        (
            sprt(0.0, 5.0, Logistic).llr_pentanomial(&even),
            -0.034_506_850_951_685_54,
        ),
        (
            sprt(-5.0, 0.0, Logistic).llr_pentanomial(&even),
            0.034_506_850_951_685_625,
        ),
        (
            sprt(0.0, 5.0, Normalized).llr_pentanomial(&even),
            -0.020_709_467_029_953_518,
        ),
        (
            sprt(-5.0, 0.0, Normalized).llr_pentanomial(&even),
            0.020_709_467_029_957_9,
        ),
        (
            sprt(0.0, 5.0, Logistic).llr_pentanomial(&ahead),
            0.876_238_044_613_601_9,
        ),
        (
            sprt(-5.0, 0.0, Logistic).llr_pentanomial(&ahead),
            0.924_913_518_565_910_6,
        ),
        (
            sprt(0.0, 5.0, Normalized).llr_pentanomial(&ahead),
            0.700_440_561_967_869_9,
        ),
        (
            sprt(-5.0, 0.0, Normalized).llr_pentanomial(&ahead),
            0.739_907_750_564_177,
        ),
        (sprt(0.0, 5.0, Logistic).llr_wdl(&wdl), 0.267_471_931_428_5),
        (
            sprt(0.0, 10.0, Logistic).llr_wdl(&wdl),
            0.494_041_387_715_652_2,
        ),
        (
            sprt(0.0, 5.0, Normalized).llr_wdl(&wdl),
            0.193_215_305_516_877_3,
        ),
        (
            sprt(0.0, 10.0, Normalized).llr_wdl(&wdl),
            0.365_810_576_943_149_6,
        ),
    ];
    for (got, want) in cases {
        assert_close(got, want, 1e-8);
    }
    // Near ½ the exact LLR matches the Brownian approximation N(s1 − s0)(2mu − s0 − s1)/2var:
    // 100 · (s1 − ½)(½ − s1)/0.15 with s1 = score_of_elo(5) = 0.5071940.
    let s1 = score_of_elo(5.0);
    assert_close(
        -0.034_506_850_951_685_54,
        100.0 * -(s1 - 0.5).powi(2) / 0.15,
        1e-5,
    );
    // A larger sample (zero counts regularized to 1e-3 where they occur).
    let big = Pentanomial([300, 1500, 4000, 2700, 500]);
    assert_close(
        sprt(0.0, 2.0, Logistic).llr_pentanomial(&big),
        21.148_392_729_349_315,
        1e-7,
    );
    assert_close(
        sprt(0.0, 2.0, Normalized).llr_pentanomial(&big),
        13.873_139_554_320_922,
        1e-7,
    );
}

#[test]
fn sprt_llr_is_antisymmetric_monotone_and_decides() {
    for model in [SprtModel::Logistic, SprtModel::Normalized] {
        for c in [[5, 10, 40, 30, 15], [0, 3, 9, 4, 1], [2, 0, 0, 0, 9]] {
            let p = Pentanomial(c);
            let a = sprt(-1.0, 4.0, model).llr_pentanomial(&p);
            let b = sprt(-4.0, 1.0, model).llr_pentanomial(&p.swapped());
            assert_close(a, -b, 1e-8);
        }
        let h1 = sprt(0.0, 5.0, model);
        let mut counts = [40, 40, 40, 40, 40];
        let mut last = h1.llr_pentanomial(&Pentanomial(counts));
        for i in 0..4 {
            counts[i] -= 10;
            counts[i + 1] += 10;
            let llr = h1.llr_pentanomial(&Pentanomial(counts));
            assert!(llr > last, "{counts:?}");
            last = llr;
        }
        // An even match 200 times over: LLR 200 × −0.0345 (logistic), 200 × −0.0207
        // (normalized) → H0; a lopsided one → H1.
        let even = Pentanomial([2000, 4000, 8000, 4000, 2000]);
        assert_eq!(h1.result_pentanomial(&even).verdict, SprtVerdict::H0);
        let ahead = Pentanomial([500, 1000, 4000, 3000, 1500]);
        assert_eq!(h1.result_pentanomial(&ahead).verdict, SprtVerdict::H1);
        assert_eq!(
            h1.result_wdl(&Wdl {
                wins: 3,
                draws: 2,
                losses: 1
            })
            .verdict,
            SprtVerdict::Continue
        );
    }
}

#[test]
fn sprt_falls_back_to_the_brownian_approximation_out_of_range() {
    // t1 = √2 · 400/347.4356 = 1.628: the iteration from the uniform distribution has no
    // root (every φ < 0), so LLR = N (s1 − s0)(2mu − s0 − s1)/2var with mu = ½, var = 0.075,
    // s0 = ½, s1 = ½ + t1·√0.075.
    let llr =
        sprt(0.0, 400.0, SprtModel::Normalized).llr_pentanomial(&Pentanomial([10, 20, 40, 20, 10]));
    let s1 = 0.5 + 2f64.sqrt() * 400.0 / NELO_PER_T * 0.075f64.sqrt();
    assert_close(llr, 100.0 * (s1 - 0.5) * (0.5 - s1) / 0.15, 1e-9);
}
