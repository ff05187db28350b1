//! The generalised log-likelihood ratio of the SPRT, as fishtest and fastchess compute it.
//!
//! The results are counts of outcomes, each with a score per game: loss, draw, win (0, ½, 1)
//! for single games; the five classes of a pair of games (0, ¼, ½, ¾, 1 per game) for the
//! pentanomial. Under each hypothesis the test takes the distribution of outcomes that is most
//! likely given the counts among those that satisfy the hypothesis (a fixed expected score, or
//! a fixed normalised score), and the LLR is the log of the ratio of the two likelihoods.
//! M. Van den Bergh, "Comments on normalized Elo", §1 (expected score) and §4.1 (t-value),
//! gives both maximum-likelihood distributions as the root of a one-variable equation.

use std::f64::consts::LN_10;

/// Normalised Elo per unit of t-value (mean over standard deviation): 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// Empty classes stand in with this count, as in fishtest and fastchess: without it a class
/// never seen would have probability zero under every hypothesis and the logarithms break.
pub const EMPTY_CLASS: f64 = 1e-3;

/// The counts as frequencies (zeros replaced by [`EMPTY_CLASS`]) and their total.
pub fn frequencies(counts: &[u64]) -> (f64, Vec<f64>) {
    let counts: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { EMPTY_CLASS } else { c as f64 })
        .collect();
    let total: f64 = counts.iter().sum();
    (total, counts.iter().map(|c| c / total).collect())
}

/// The mean and variance of a distribution over `values`.
pub fn mean_and_variance(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}

/// The root x of Σ pᵢ cᵢ / (1 + x cᵢ) = 0 where every 1 + x cᵢ stays positive, that is for x
/// between −1/max c and −1/min c. The sum falls from +∞ to −∞ across that interval, so
/// bisection finds the root; it needs some cᵢ of each sign (else there is none).
fn secular_root(probs: &[f64], c: &[f64]) -> Option<f64> {
    let lowest = c.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && highest > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        probs
            .iter()
            .zip(c)
            .map(|(p, ci)| p * ci / (1.0 + x * ci))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / highest, -1.0 / lowest);
    for _ in 0..400 {
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

/// The most likely distribution over `values` with expected score `s`, given the observed
/// frequencies (Van den Bergh, proposition 1.1): pᵢ = p̂ᵢ / (1 + x (aᵢ − s)).
pub fn most_likely_with_mean(values: &[f64], observed: &[f64], s: f64) -> Option<Vec<f64>> {
    let c: Vec<f64> = values.iter().map(|a| a - s).collect();
    let x = secular_root(observed, &c)?;
    Some(
        observed
            .iter()
            .zip(&c)
            .map(|(p, ci)| p / (1.0 + x * ci))
            .collect(),
    )
}

/// The most likely distribution over `values` whose t-value (mean − `reference`) / σ is `t`,
/// given the observed frequencies (Van den Bergh, §4.1): a fixed point, found by iterating
/// from the uniform distribution.
pub fn most_likely_with_t(
    values: &[f64],
    observed: &[f64],
    reference: f64,
    t: f64,
) -> Option<Vec<f64>> {
    let mut p = vec![1.0 / values.len() as f64; values.len()];
    for _ in 0..1000 {
        let (mu, var) = mean_and_variance(values, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = values
            .iter()
            .map(|a| a - reference - t * sigma * (1.0 + ((a - mu) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular_root(observed, &phi)?;
        let next: Vec<f64> = observed
            .iter()
            .zip(&phi)
            .map(|(o, f)| o / (1.0 + x * f))
            .collect();
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(p)
}

/// What the two hypotheses fix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Hypotheses {
    /// The expected score per game, s0 against s1 (logistic Elo).
    Score { s0: f64, s1: f64 },
    /// The t-value (mean − ½) / σ of the outcome distribution, t0 against t1 (normalised
    /// Elo; σ is that of one outcome: a game, or the mean score of a pair).
    TValue { t0: f64, t1: f64 },
}

/// The log-likelihood ratio of H1 against H0 after `counts` outcomes of scores `values`.
/// Zero when the maximum-likelihood distributions cannot be found (no games yet).
pub fn llr(values: &[f64], counts: &[u64], hypotheses: Hypotheses) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (total, observed) = frequencies(counts);
    let pair = match hypotheses {
        Hypotheses::Score { s0, s1 } => most_likely_with_mean(values, &observed, s0)
            .zip(most_likely_with_mean(values, &observed, s1)),
        Hypotheses::TValue { t0, t1 } => most_likely_with_t(values, &observed, 0.5, t0)
            .zip(most_likely_with_t(values, &observed, 0.5, t1)),
    };
    let Some((p0, p1)) = pair else {
        return 0.0;
    };
    let per_outcome: f64 = observed
        .iter()
        .zip(p0.iter().zip(&p1))
        .map(|(o, (a, b))| o * (b.ln() - a.ln()))
        .sum();
    total * per_outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAIRS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// The distribution with a given mean is found exactly: its mean is the one asked for,
    /// and it is the observed one when that already has the mean.
    #[test]
    fn the_most_likely_distribution_has_the_mean_asked_for() {
        let observed = [0.1, 0.2, 0.4, 0.2, 0.1];
        for s in [0.3, 0.5, 0.514, 0.7] {
            let p = most_likely_with_mean(&PAIRS, &observed, s).unwrap();
            let (mean, _) = mean_and_variance(&PAIRS, &p);
            assert!((mean - s).abs() < 1e-12, "{s}: {mean}");
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        let same = most_likely_with_mean(&PAIRS, &observed, 0.5).unwrap();
        for (a, b) in same.iter().zip(&observed) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn the_most_likely_distribution_has_the_t_value_asked_for() {
        let observed = [0.05, 0.25, 0.4, 0.2, 0.1];
        for t in [-0.2, 0.0, 0.05, 0.3] {
            let p = most_likely_with_t(&PAIRS, &observed, 0.5, t).unwrap();
            let (mean, var) = mean_and_variance(&PAIRS, &p);
            assert!(((mean - 0.5) / var.sqrt() - t).abs() < 1e-9, "{t}");
        }
    }

    /// A small case worked by hand. Trinomial W 2, D 0, L 0: the frequencies are (L, D, W) =
    /// (0.001, 0.001, 2)/2.002. Under a mean s the most likely distribution puts p̂ᵢ/(1 + x(aᵢ − s))
    /// on each class; with the win class almost all the mass, pW ≈ s/1 to first order, so the
    /// LLR for s0 = ½ against s1 = ¾ is close to 2·ln(0.75/0.5) = 0.811 (a little less, as
    /// the two stand-in classes take some of the probability).
    #[test]
    fn two_wins_give_about_twice_the_log_ratio_of_the_scores() {
        let l = llr(
            &[0.0, 0.5, 1.0],
            &[0, 0, 2],
            Hypotheses::Score { s0: 0.5, s1: 0.75 },
        );
        assert!(l > 0.80 && l < 0.811, "{l}");
    }

    #[test]
    fn no_games_no_evidence() {
        assert_eq!(
            llr(&PAIRS, &[0; 5], Hypotheses::Score { s0: 0.5, s1: 0.51 }),
            0.0
        );
    }
}
