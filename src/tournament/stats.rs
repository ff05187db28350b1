//! Match statistics: Elo from a score with its 95 % error bar, the likelihood of superiority,
//! and the sequential probability ratio test. The formulas are the ones cutechess and
//! fastchess print, so their numbers can be compared with ours.

/// Wins, losses and draws, from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

/// The Elo difference that an expected score `score` (0..1) stands for, on the logistic curve.
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a player `elo` points stronger (the inverse of `elo_from_score`).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, to about 1e-15 (a Taylor series near 0, a continued fraction for the
/// complement further out).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1))
        let mut sum: f64 = 0.0;
        let mut term = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs().max(1e-300) || n < 3.0 {
            sum += term / (2.0 * n + 1.0);
            n += 1.0;
            term *= -x * x / n;
            if n > 200.0 {
                break;
            }
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // erfc x = e^(-x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + 2/(x + …)))))
    let mut f = x;
    for k in (1..60).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// The quantile of the standard normal distribution (Acklam's rational approximation, refined
/// by one Halley step with `erf`).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383_577_518_672_69e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let p = p.clamp(1e-300, 1.0 - 1e-16);
    let x = if p < 0.02425 {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - 0.02425 {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let e = 0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2)) - p;
    let u = e * (2.0 * std::f64::consts::PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

impl Wld {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// The mean score per game (a draw is a half).
    pub fn score(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / n
    }

    /// The standard deviation of the mean score: the spread of one game's result (1, ½ or 0
    /// with the observed frequencies) over √games.
    pub fn score_stdev(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let mu = self.score();
        let (w, l, d) = (
            self.wins as f64 / n,
            self.losses as f64 / n,
            self.draws as f64 / n,
        );
        let variance = w * (1.0 - mu).powi(2) + l * mu.powi(2) + d * (0.5 - mu).powi(2);
        (variance / n).sqrt()
    }

    /// The Elo difference the score stands for (infinite after all wins or all losses).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// Half the width of the 95 % confidence interval of `elo`, in Elo.
    pub fn elo_error95(&self) -> f64 {
        let mu = self.score();
        let sd = self.score_stdev();
        let z = normal_quantile(0.975);
        let high = elo_from_score((mu + z * sd).min(1.0));
        let low = elo_from_score((mu - z * sd).max(0.0));
        (high - low) / 2.0
    }

    /// The likelihood of superiority: the chance the player is the stronger one, from wins and
    /// losses alone (draws tell nothing about who is stronger).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }
}

/// The hypotheses and error rates of a sequential probability ratio test: H0 "the Elo gain is
/// `elo0`" against H1 "it is `elo1`", in logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What a test has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H1 accepted: the tested engine is `elo1` stronger rather than `elo0` (at the error rates).
    H1,
    /// H0 accepted.
    H0,
}

impl Sprt {
    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05` (commas or spaces between the parts).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("'{part}' is not key=value"))?;
            let number: f64 = value
                .parse()
                .map_err(|_| format!("{key}: '{value}' is not a number"))?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => return Err(format!("unknown key '{key}' (elo0, elo1, alpha, beta)")),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("elo0 and elo1 are both needed".into());
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(format!(
                "elo0 ({}) must be below elo1 ({})",
                sprt.elo0, sprt.elo1
            ));
        }
        for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("{name}: {p} is not between 0 and 0.5"));
            }
        }
        Ok(sprt)
    }

    /// The log-likelihood ratio bounds (lower: accept H0, upper: accept H1).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these games, by the generalised SPRT
    /// on the trinomial model in logistic Elo (M. Van den Bergh's approximation, fastchess's
    /// `getLLR` for its logistic model; its newest versions solve the exact maximum-likelihood
    /// form, which agrees closely): N (s1 − s0)(2s̄ − s0 − s1) / (2σ²), with s̄ and σ² the mean
    /// and variance of one game's score.
    pub fn llr(&self, wld: &Wld) -> f64 {
        let n = wld.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        // A count of zero is taken as one half (the Haldane–Anscombe correction), so that a
        // run of wins alone has a variance and the test can end. A smaller stand-in makes the
        // variance all but vanish: one won game alone would then decide the test.
        let reg = |x: u64| if x == 0 { 0.5 } else { x as f64 };
        let (w, l, d) = (reg(wld.wins), reg(wld.losses), reg(wld.draws));
        let total = w + l + d;
        let (w, l, d) = (w / total, l / total, d / total);
        let mean = w + d / 2.0;
        let variance = w * (1.0 - mean).powi(2) + l * mean.powi(2) + d * (0.5 - mean).powi(2);
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The LLR after a game and the test's decision, given the decision already taken. A
    /// decision stands: the games that were running when it came still count in the LLR,
    /// but cannot take it back.
    pub fn after_game(
        &self,
        wld: &Wld,
        decided: Option<SprtDecision>,
    ) -> (f64, Option<SprtDecision>) {
        (self.llr(wld), decided.or_else(|| self.decide(wld)))
    }

    pub fn decide(&self, wld: &Wld) -> Option<SprtDecision> {
        let llr = self.llr(wld);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}
