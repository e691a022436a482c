//! The statistics of an engine match: the Elo difference with its error,
//! and the sequential probability ratio test that stops a match as soon as
//! its games decide between two Elo differences.
//!
//! The test is the generalized SPRT on the score (Michel Van den Bergh's
//! formulation, as fishtest, OpenBench and fastchess use it): the games are
//! draws from a distribution over a few scores (per game: 0, ½, 1; per
//! pair of games played from one opening with colours swapped: 0, ¼, ½,
//! ¾, 1), and each hypothesis fixes only the mean score, the logistic
//! expectation `1 / (1 + 10^(-elo / 400))` of its Elo. The likelihood of
//! each hypothesis is the most likely distribution with that mean; the
//! log-likelihood ratio of H1 against H0 is compared with the bounds
//! `ln(β / (1 − α))` and `ln((1 − β) / α)`.

use std::{fmt, str::FromStr};

/// The z value of a two-sided 95% interval.
const Z95: f64 = 1.959_963_985;

/// The count that stands for a score never seen, so that a hypothesis's
/// mean can always be reached (fishtest uses the same).
const UNSEEN: f64 = 1e-3;

/// The expected score of an Elo difference, 0 to 1.
pub(crate) fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The test's parameters: H0 says the difference is `elo0`, H1 `elo1`;
/// `alpha` and `beta` are the chances of accepting H1 when H0 holds and of
/// accepting H0 when H1 holds.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Sprt {
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
}

/// What the test concluded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The LLR fell to the lower bound.
    H0,
    /// The LLR rose to the upper bound.
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`, in any order; `alpha` and
    /// `beta` default to 0.05.
    fn from_str(s: &str) -> Result<Sprt, String> {
        let expected =
            "expected elo0=E0,elo1=E1[,alpha=A][,beta=B] with E0 < E1 and A, B between 0 and 0.5";
        let mut elo0 = None;
        let mut elo1 = None;
        let mut alpha = 0.05;
        let mut beta = 0.05;
        for part in s.split(',') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("invalid --sprt {s:?}: {expected}"));
            };
            let value: f64 = match value.trim().parse() {
                Ok(v) if f64::is_finite(v) => v,
                _ => {
                    return Err(format!(
                        "invalid --sprt {s:?}: {key} {value:?} is not a number"
                    ))
                }
            };
            match key.trim() {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                other => {
                    return Err(format!(
                        "invalid --sprt {s:?}: unknown parameter {other:?}; {expected}"
                    ))
                }
            }
        }
        match (elo0, elo1) {
            (Some(elo0), Some(elo1))
                if elo0 < elo1
                    && (0.0..0.5).contains(&alpha)
                    && alpha > 0.0
                    && (0.0..0.5).contains(&beta)
                    && beta > 0.0
                    && elo0.abs() < 1000.0
                    && elo1.abs() < 1000.0 =>
            {
                Ok(Sprt {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                })
            }
            _ => Err(format!("invalid --sprt {s:?}: {expected}")),
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl Sprt {
    /// The lower and upper bounds of the LLR.
    pub(crate) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for `counts`: how many
    /// times each score was seen.
    pub(crate) fn llr(&self, counts: &[(f64, u32)]) -> f64 {
        let n: f64 = counts.iter().map(|&(_, c)| f64::from(c)).sum();
        if n == 0.0 {
            return 0.0;
        }
        let regular: Vec<(f64, f64)> = counts
            .iter()
            .map(|&(a, c)| (a, if c == 0 { UNSEEN } else { f64::from(c) }))
            .collect();
        let total: f64 = regular.iter().map(|&(_, c)| c).sum();
        let freq: Vec<(f64, f64)> = regular.iter().map(|&(a, c)| (a, c / total)).collect();
        let p0 = most_likely(&freq, expected_score(self.elo0));
        let p1 = most_likely(&freq, expected_score(self.elo1));
        freq.iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, f), (&q0, &q1))| n * f * (q1 / q0).ln())
            .sum()
    }

    /// The verdict `llr` reaches, if any.
    pub(crate) fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (low, high) = self.bounds();
        if llr >= high {
            Some(Verdict::H1)
        } else if llr <= low {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

/// The most likely distribution over the scores of `freq` (score,
/// observed frequency) whose mean is `mean`: `p_i = f_i / (1 + λ (a_i −
/// mean))`, with λ the root of `Σ f_i (a_i − mean) / (1 + λ (a_i − mean))
/// = 0`, found by bisection where every `p_i` stays positive.
///
/// `mean` must lie strictly between the smallest and the largest score.
fn most_likely(freq: &[(f64, f64)], mean: f64) -> Vec<f64> {
    let high_score = freq.iter().map(|&(a, _)| a).fold(f64::MIN, f64::max);
    let low_score = freq.iter().map(|&(a, _)| a).fold(f64::MAX, f64::min);
    // 1 + λ (a − mean) > 0 for every a: λ in (−1/(high − mean), 1/(mean − low)).
    let mut lo = -1.0 / (high_score - mean);
    let mut hi = 1.0 / (mean - low_score);
    let f = |lambda: f64| -> f64 {
        freq.iter()
            .map(|&(a, p)| p * (a - mean) / (1.0 + lambda * (a - mean)))
            .sum()
    };
    // f falls as λ rises; it is +∞ at lo and −∞ at hi.
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = (lo + hi) / 2.0;
    let p: Vec<f64> = freq
        .iter()
        .map(|&(a, p)| p / (1.0 + lambda * (a - mean)))
        .collect();
    let sum: f64 = p.iter().sum();
    p.into_iter().map(|x| x / sum).collect()
}

/// The results of a match from the first engine's side: games, and pairs
/// of games from one opening.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    /// Wins, draws and losses.
    pub(crate) wins: u32,
    pub(crate) draws: u32,
    pub(crate) losses: u32,
    /// Pairs by the first engine's points in them, counting a win 2 and a
    /// draw 1: index 0 (two losses) to 4 (two wins).
    pub(crate) pairs: [u32; 5],
}

impl Counts {
    /// Games counted.
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Pairs counted.
    pub(crate) fn pair_count(&self) -> u32 {
        self.pairs.iter().sum()
    }

    /// Each game's score and how often it came.
    pub(crate) fn trinomial(&self) -> [(f64, u32); 3] {
        [(0.0, self.losses), (0.5, self.draws), (1.0, self.wins)]
    }

    /// Each pair's mean score and how often it came.
    pub(crate) fn pentanomial(&self) -> [(f64, u32); 5] {
        let p = self.pairs;
        [
            (0.0, p[0]),
            (0.25, p[1]),
            (0.5, p[2]),
            (0.75, p[3]),
            (1.0, p[4]),
        ]
    }

    /// The LLR of `sprt`: by pairs once there is one, by games before.
    pub(crate) fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pair_count() > 0 {
            sprt.llr(&self.pentanomial())
        } else {
            sprt.llr(&self.trinomial())
        }
    }

    /// The Elo difference and the half width of its 95% interval: by
    /// pairs once there are two, by games before.
    pub(crate) fn elo(&self) -> Estimate {
        if self.pair_count() >= 2 {
            estimate(&self.pentanomial())
        } else {
            estimate(&self.trinomial())
        }
    }
}

/// An Elo difference and its 95% interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Estimate {
    /// The mean score, 0 to 1.
    pub(crate) score: f64,
    /// Its Elo difference.
    pub(crate) elo: f64,
    /// The interval's bounds.
    pub(crate) low: f64,
    pub(crate) high: f64,
}

impl Estimate {
    /// Half the width of the interval; infinite when a bound is.
    pub(crate) fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

impl fmt::Display for Estimate {
    /// `+12.3 ± 8.1`, or the interval when it is unbounded: `+inf [+512.0, +inf]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |x: f64| {
            if x == f64::INFINITY {
                "+inf".to_owned()
            } else if x == f64::NEG_INFINITY {
                "-inf".to_owned()
            } else {
                // No "-0.0".
                let x = if x.abs() < 0.05 { 0.0 } else { x };
                format!("{x:+.1}")
            }
        };
        if self.error().is_finite() {
            write!(f, "{} ± {:.1}", show(self.elo), self.error())
        } else {
            write!(
                f,
                "{} [{}, {}]",
                show(self.elo),
                show(self.low),
                show(self.high)
            )
        }
    }
}

/// The mean of `counts` (score, times seen) as an Elo difference, with
/// the 95% interval of the mean (normal approximation, the sample's own
/// variance) mapped to Elo.
pub(crate) fn estimate(counts: &[(f64, u32)]) -> Estimate {
    let n: f64 = counts.iter().map(|&(_, c)| f64::from(c)).sum();
    if n == 0.0 {
        return Estimate {
            score: 0.5,
            elo: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let mean = counts.iter().map(|&(a, c)| a * f64::from(c)).sum::<f64>() / n;
    let variance = counts
        .iter()
        .map(|&(a, c)| f64::from(c) * (a - mean).powi(2))
        .sum::<f64>()
        / n;
    let half = Z95 * (variance / n).sqrt();
    Estimate {
        score: mean,
        elo: fanorona_engine::elo(mean),
        low: fanorona_engine::elo(mean - half),
        high: fanorona_engine::elo(mean + half),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    #[test]
    fn parses_and_names_bad_parameters() {
        assert_eq!(
            "elo0=0,elo1=5,alpha=0.05,beta=0.1".parse::<Sprt>(),
            Ok(Sprt {
                elo0: 0.0,
                elo1: 5.0,
                alpha: 0.05,
                beta: 0.1
            })
        );
        assert_eq!("elo1=5,elo0=-2".parse::<Sprt>(), Ok(sprt(-2.0, 5.0)));
        for bad in [
            "",
            "elo0=0",
            "elo0=5,elo1=0",
            "elo0=0,elo1=5,alpha=0",
            "elo0=0,elo1=5,beta=0.7",
            "elo0=0,elo1=x",
            "elo0=0,elo1=5,gamma=1",
            "elo0=0,elo1=inf",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn bounds_of_five_percent() {
        // ln(0.05 / 0.95) and ln(0.95 / 0.05).
        let (low, high) = sprt(0.0, 5.0).bounds();
        assert!((low + 2.944_438_98).abs() < 1e-6, "{low}");
        assert!((high - 2.944_438_98).abs() < 1e-6, "{high}");
    }

    #[test]
    fn expected_scores_and_elo() {
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        // 1 / (1 + 10^(-5/400)) = 0.507 195 ...
        assert!((expected_score(5.0) - 0.507_195_5).abs() < 1e-6);
        assert!((fanorona_engine::elo(expected_score(123.0)) - 123.0).abs() < 1e-9);
        assert!((fanorona_engine::elo(0.75) - 190.848_501_9).abs() < 1e-6);
    }

    #[test]
    fn no_games_no_evidence() {
        assert_eq!(sprt(0.0, 5.0).llr(&Counts::default().trinomial()), 0.0);
        assert_eq!(Counts::default().llr(&sprt(0.0, 5.0)), 0.0);
    }

    #[test]
    fn draws_alone_favour_neither_of_two_symmetric_hypotheses() {
        let all_drawn = Counts {
            draws: 400,
            pairs: [0, 0, 200, 0, 0],
            ..Counts::default()
        };
        assert!(all_drawn.llr(&sprt(-5.0, 5.0)).abs() < 1e-9);
        // Against H0 = 0, H1 = +5 they lean to H0, slowly. By hand: the
        // likeliest distribution of mean s1 = 0.5071955 moves mass from the
        // middle to the one score that moves the mean most, 1: P(1) = 2 (s1
        // − 0.5), so each drawn pair adds ln(1 − 0.014391) = −0.0144955,
        // and 200 pairs −2.899.
        let llr = all_drawn.llr(&sprt(0.0, 5.0));
        assert!((llr + 2.899).abs() < 0.02, "{llr}");
        assert_eq!(sprt(0.0, 5.0).verdict(llr), None);
        let more = Counts {
            draws: 440,
            pairs: [0, 0, 220, 0, 0],
            ..Counts::default()
        };
        let llr = more.llr(&sprt(0.0, 5.0));
        assert_eq!(sprt(0.0, 5.0).verdict(llr), Some(Verdict::H0));
        assert_eq!(sprt(0.0, 5.0).verdict(-1.0), None);
    }

    #[test]
    fn wins_and_losses_only_are_a_binomial() {
        // With no draws the likeliest distribution of mean s is P(win) = s,
        // so LLR = W ln(s1 / s0) + L ln((1 − s1) / (1 − s0)); by hand for
        // W = 60, L = 40, s0 = 0.5, s1 = 0.5071955:
        // 60 × 0.0142873 + 40 × (−0.0144956) = 0.27747.
        let counts = Counts {
            wins: 60,
            losses: 40,
            ..Counts::default()
        };
        let llr = sprt(0.0, 5.0).llr(&counts.trinomial());
        assert!((llr - 0.277_468).abs() < 1e-4, "{llr}");
    }

    #[test]
    fn agrees_with_the_normal_approximation_on_a_large_sample() {
        // LLR ≈ N (s1 − s0) (2 s − s0 − s1) / (2 σ²): for 1000 games
        // +300 =450 −250, s = 0.525, σ² = 0.300 × 0.475² + 0.450 × 0.025²
        // + 0.250 × 0.525² = 0.136875, s1 − s0 = 0.0071955, 2 s − s0 − s1 =
        // 0.0428045: LLR ≈ 1000 × 0.0071955 × 0.0428045 / 0.27375 = 1.12506.
        let counts = Counts {
            wins: 300,
            draws: 450,
            losses: 250,
            ..Counts::default()
        };
        let llr = sprt(0.0, 5.0).llr(&counts.trinomial());
        assert!((llr - 1.125_06).abs() < 0.01, "{llr}");
    }

    #[test]
    fn a_lopsided_score_crosses_the_upper_bound() {
        let test = sprt(0.0, 400.0);
        let mut counts = Counts::default();
        let mut crossed = None;
        for pair in 1..=20 {
            counts.wins += 2;
            counts.pairs[4] += 1;
            if test.verdict(counts.llr(&test)) == Some(Verdict::H1) {
                crossed = Some(pair);
                break;
            }
        }
        // Each pair won twice adds about ln(s1 / s0) = ln(0.909 / 0.5) ≈ 0.6.
        assert_eq!(crossed, Some(5), "{counts:?}");
        // The same games lost accept H0.
        let lost = Counts {
            losses: 10,
            pairs: [5, 0, 0, 0, 0],
            ..Counts::default()
        };
        assert_eq!(test.verdict(lost.llr(&test)), Some(Verdict::H0));
    }

    #[test]
    fn elo_and_its_error() {
        // 100 games +30 =40 −30: mean 0.5, σ² = 0.6 × 0.25 = 0.15, half
        // width 1.96 × √(0.15 / 100) = 0.0759; Elo(0.5759) = +53.1.
        let even = Counts {
            wins: 30,
            draws: 40,
            losses: 30,
            ..Counts::default()
        };
        let e = even.elo();
        assert!(e.elo.abs() < 1e-9);
        assert!(
            (e.high - 53.1).abs() < 0.2 && (e.low + 53.1).abs() < 0.2,
            "{e:?}"
        );
        assert_eq!(e.to_string(), format!("+0.0 ± {:.1}", e.error()));
        // By pairs: 50 pairs 10-10-10-10-10, mean 0.5, σ² = 0.125, half
        // width 1.96 × √(0.125 / 50) = 0.098; Elo(0.598) = +69.0.
        let pairs = Counts {
            wins: 50,
            draws: 0,
            losses: 50,
            pairs: [10; 5],
        };
        let e = pairs.elo();
        assert!((e.high - 69.0).abs() < 0.2, "{e:?}");
        let sweep = Counts {
            wins: 10,
            pairs: [0, 0, 0, 0, 5],
            ..Counts::default()
        };
        assert_eq!(sweep.elo().to_string(), "+inf [+inf, +inf]");
    }
}
