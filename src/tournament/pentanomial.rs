//! Pentanomial counts: the results of opening pairs (the two games of an opening, one with
//! each colour) from one player's side, and the Elo, normalised Elo and likelihood of
//! superiority they give, as fastchess computes them. Counting pairs rather than games is
//! right when the two games of an opening are correlated (an opening that favours one side
//! tends to give one win each), and it makes the error bars and the SPRT need fewer games.

use super::stats::{elo_from_score, erf, normal_quantile, normalized};

/// The score per game of each class of pair: LL, LD, WL or DD, WD, WW.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Pairs of games from one player's side. A win and a loss (WL) and two draws (DD) score the
/// same and are one class for the statistics; they are kept apart for the WL/DD ratio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub ll: u64,
    pub ld: u64,
    pub wl: u64,
    pub dd: u64,
    pub wd: u64,
    pub ww: u64,
}

impl Pentanomial {
    /// The counts in the order fastchess prints them: LL, LD, WL, DD, WD, WW.
    pub const fn from_counts([ll, ld, wl, dd, wd, ww]: [u64; 6]) -> Pentanomial {
        Pentanomial {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        }
    }

    /// Counts one pair from the player's two scores (0, ½ or 1 each, in half points).
    pub fn add_pair(&mut self, first_half_points: u8, second_half_points: u8) {
        match (first_half_points, second_half_points) {
            (0, 0) => self.ll += 1,
            (0, 1) | (1, 0) => self.ld += 1,
            (1, 1) => self.dd += 1,
            (0, 2) | (2, 0) => self.wl += 1,
            (1, 2) | (2, 1) => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// The same pairs from the opponent's side.
    pub fn mirrored(&self) -> Pentanomial {
        Pentanomial {
            ll: self.ww,
            ld: self.wd,
            wl: self.wl,
            dd: self.dd,
            wd: self.ld,
            ww: self.ll,
        }
    }

    /// The five counts of `Ptnml(0-2)`: pairs scoring 0, ½, 1, 1½ and 2 points.
    pub fn counts(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    pub fn pairs(&self) -> u64 {
        self.counts().iter().sum()
    }

    /// The mean score per game and the variance of a pair's mean score.
    fn score_and_variance(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let probs: Vec<f64> = self.counts().iter().map(|&c| c as f64 / n).collect();
        super::likelihood::mean_and_variance(&PAIR_SCORES, &probs)
    }

    /// The mean score per game.
    pub fn score(&self) -> f64 {
        self.score_and_variance().0
    }

    /// The standard deviation of the mean score: a pair's spread over √pairs.
    pub fn score_stdev(&self) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        (self.score_and_variance().1 / n).sqrt()
    }

    /// The 95 % interval of the mean score.
    fn interval(&self) -> (f64, f64) {
        let z = normal_quantile(0.975);
        let (score, sd) = (self.score(), self.score_stdev());
        (score - z * sd, score + z * sd)
    }

    /// The logistic Elo difference of the mean score, and half the width of its 95 % interval.
    pub fn elo(&self) -> (f64, f64) {
        let (low, high) = self.interval();
        let error = (elo_from_score(high.min(1.0)) - elo_from_score(low.max(0.0))) / 2.0;
        (elo_from_score(self.score()), error)
    }

    /// The normalised Elo (the score's distance from ½ in units of a game's standard deviation,
    /// a pair's over √2, times 800 / ln 10) and half the width of its 95 % interval.
    pub fn normalized_elo(&self) -> (f64, f64) {
        let sigma_per_game = (2.0 * self.score_and_variance().1).sqrt();
        let nelo = |s: f64| normalized(s, sigma_per_game);
        let (low, high) = self.interval();
        (nelo(self.score()), (nelo(high) - nelo(low)) / 2.0)
    }

    /// The likelihood of superiority: the chance that the true score is above ½.
    pub fn los(&self) -> f64 {
        let sd = self.score_stdev();
        if sd == 0.0 {
            return if self.score() > 0.5 {
                1.0
            } else if self.score() < 0.5 {
                0.0
            } else {
                0.5
            };
        }
        0.5 * (1.0 + erf((self.score() - 0.5) / (std::f64::consts::SQRT_2 * sd)))
    }

    /// Pairs that won (WW, WD) over pairs that lost (LD, LL).
    pub fn pairs_ratio(&self) -> f64 {
        (self.ww + self.wd) as f64 / (self.ld + self.ll) as f64
    }

    /// WL pairs over DD pairs: how often an opening's two games split rather than both drawing.
    pub fn wl_dd_ratio(&self) -> f64 {
        self.wl as f64 / self.dd as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial::from_counts([ll, ld, wl, dd, wd, ww])
    }

    /// fastchess's own tests (`app/tests/elo_test.cpp`, "EloPentanomial 1" to "3") give these
    /// figures, to two decimals, for the counts LL, LD, WL, DD, WD, WW.
    #[test]
    fn elo_and_normalized_elo_agree_with_fastchess() {
        for (p, elo, err, nelo, nerr, los) in [
            (
                penta(34, 54, 31, 32, 64, 75),
                55.58,
                27.65,
                57.94,
                28.28,
                1.0,
            ),
            (
                penta(332, 433, 457, 41, 333, 334),
                -8.64,
                10.33,
                -9.17,
                10.96,
                0.0505,
            ),
            (
                penta(7895, 8757, 5485, 200, 568, 9999),
                -21.04,
                2.95,
                -19.01,
                2.65,
                0.0,
            ),
        ] {
            let (e, er) = p.elo();
            let (n, nr) = p.normalized_elo();
            assert!(close(e, elo, 0.006), "{p:?}: Elo {e}");
            assert!(close(er, err, 0.006), "{p:?}: error {er}");
            assert!(close(n, nelo, 0.006), "{p:?}: nElo {n}");
            assert!(close(nr, nerr, 0.006), "{p:?}: nElo error {nr}");
            assert!(close(p.los(), los, 0.00005), "{p:?}: LOS {}", p.los());
        }
    }

    /// By hand: one pair of each class. Scores 0, ¼, ½, ¾, 1 equally likely: mean ½, variance
    /// (¼ + 1/16 + 0 + 1/16 + ¼)/5 = 1/8. So Elo 0, σ of the mean √(1/8 / 5) = 0.158114, the
    /// 95 % interval ½ ± 0.309898, Elo ±(−400·log10(1/0.809898 − 1)) = ±251.78.
    #[test]
    fn one_pair_of_each_class() {
        let mut p = Pentanomial::default();
        for (a, b) in [(0, 0), (0, 1), (2, 0), (1, 2), (2, 2)] {
            p.add_pair(a, b);
        }
        assert_eq!(p.counts(), [1, 1, 1, 1, 1]);
        assert!(close(p.score(), 0.5, 1e-12));
        assert!(close(p.score_stdev(), (0.125f64 / 5.0).sqrt(), 1e-12));
        let (elo, err) = p.elo();
        assert!(close(elo, 0.0, 1e-9));
        assert!(close(err, 251.78, 0.01), "{err}");
        assert_eq!(p.los(), 0.5);
        assert_eq!(p.mirrored(), p);
    }

    #[test]
    fn pairs_from_both_sides() {
        let mut p = Pentanomial::default();
        p.add_pair(2, 2);
        p.add_pair(2, 1);
        p.add_pair(1, 1);
        p.add_pair(0, 2);
        assert_eq!(p.counts(), [0, 0, 2, 1, 1]);
        assert_eq!(p.mirrored().counts(), [1, 1, 2, 0, 0]);
        assert_eq!(p.wl_dd_ratio(), 1.0);
        assert!(p.pairs_ratio().is_infinite());
    }
}
