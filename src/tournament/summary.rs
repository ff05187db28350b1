//! The standings of a match as its games come in: each engine's wins, draws and losses, its
//! opening pairs (pentanomial), the payoff, the games left out as void, and the SPRT.

use std::collections::HashMap;

use super::pentanomial::Pentanomial;
use super::referee::{GameRecord, GameResult};
use super::stats::{Sprt, SprtDecision, Wld};

/// The termination of a game lost by a move the referee's rules forbid.
pub const ILLEGAL_MOVE: &str = "illegal move";

/// What the match produced.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The engines, in the match's order (the first is the one an SPRT tests).
    pub names: Vec<String>,
    /// Every finished game, void ones included, in the order they came in.
    pub games: Vec<GameRecord>,
    /// Per engine, against all others, void games left out.
    pub results: Vec<Wld>,
    /// Per engine, its complete opening pairs (both games in, neither void).
    pub pentanomial: Vec<Pentanomial>,
    /// Per engine, the payoff points (Magi 12-point mode), void games left out.
    pub payoff: Vec<u64>,
    /// Per engine, the games it lost by an illegal move.
    pub illegal_losses: Vec<u64>,
    /// Per engine, how many of those were left out as void (`--void-illegal`).
    pub void: Vec<u64>,
    /// The SPRT's deciding LLR and its decision.
    pub sprt: Option<(f64, Option<SprtDecision>)>,
    /// Both LLRs of the SPRT: on the games (trinomial) and on the pairs (pentanomial).
    pub llrs: Option<(f64, f64)>,
    /// When the SPRT decided: the counted games then and the deciding LLR (the games still
    /// running at that moment are counted after it, and move the LLR on).
    pub decided_at: Option<(u64, f64)>,
    /// The SPRT decided before every game was played.
    pub stopped_early: bool,
    /// The match was stopped from outside (Ctrl-C, a signal, a closed output).
    pub interrupted: bool,
    /// Games read back from the PGN file when the match was resumed.
    pub resumed: usize,
    test: Option<Sprt>,
    voided_engines: Vec<bool>,
    /// Pairs waiting for their second game: (lower engine, higher engine, opening) → the
    /// lower engine's half points in the first game, or `None` when that game was void.
    open_pairs: HashMap<(usize, usize, usize), Option<u8>>,
}

impl Summary {
    /// Standings of a match between `names`, leaving out the illegal-move losses of the
    /// engines in `void_illegal`, with the SPRT `test` if any.
    pub fn new(names: Vec<String>, void_illegal: &[String], test: Option<Sprt>) -> Summary {
        let n = names.len();
        let voided_engines = names.iter().map(|e| void_illegal.contains(e)).collect();
        Summary {
            names,
            games: Vec::new(),
            results: vec![Wld::default(); n],
            pentanomial: vec![Pentanomial::default(); n],
            payoff: vec![0; n],
            illegal_losses: vec![0; n],
            void: vec![0; n],
            sprt: None,
            llrs: None,
            decided_at: None,
            stopped_early: false,
            interrupted: false,
            resumed: 0,
            test,
            voided_engines,
            open_pairs: HashMap::new(),
        }
    }

    /// The SPRT of the match, if it has one.
    pub fn test(&self) -> Option<&Sprt> {
        self.test.as_ref()
    }

    /// Counted games: all finished games but the void ones.
    pub fn counted_games(&self) -> u64 {
        self.results.iter().map(Wld::games).sum::<u64>() / 2
    }

    /// The loser of a game lost by an illegal move whose engine's such losses are void.
    fn is_void(&self, g: &GameRecord) -> bool {
        let loser = match g.result {
            GameResult::WhiteWins => g.black,
            GameResult::BlackWins => g.white,
            GameResult::Draw => return false,
        };
        g.termination == ILLEGAL_MOVE && self.voided_engines[loser]
    }

    /// Counts a finished game (its `white` and `black` are indices into `names`).
    pub fn add(&mut self, g: GameRecord) {
        let (w, b) = (g.white, g.black);
        let void = self.is_void(&g);
        if g.termination == ILLEGAL_MOVE {
            let loser = if g.result == GameResult::WhiteWins {
                b
            } else {
                w
            };
            self.illegal_losses[loser] += 1;
            if void {
                self.void[loser] += 1;
            }
        }
        // White's score in half points.
        let white_half = match g.result {
            GameResult::WhiteWins => 2,
            GameResult::Draw => 1,
            GameResult::BlackWins => 0,
        };
        if !void {
            for (side, half) in [(w, white_half), (b, 2 - white_half)] {
                match half {
                    2 => self.results[side].wins += 1,
                    1 => self.results[side].draws += 1,
                    _ => self.results[side].losses += 1,
                }
            }
            if let Some((pw, pb)) = g.payoff {
                self.payoff[w] += pw as u64;
                self.payoff[b] += pb as u64;
            }
        }
        let (lo, hi) = (w.min(b), w.max(b));
        let lo_half = (!void).then_some(if lo == w { white_half } else { 2 - white_half });
        match self.open_pairs.remove(&(lo, hi, g.opening)) {
            None => {
                self.open_pairs.insert((lo, hi, g.opening), lo_half);
            }
            Some(first) => {
                if let (Some(a), Some(b)) = (first, lo_half) {
                    self.pentanomial[lo].add_pair(a, b);
                    self.pentanomial[hi].add_pair(2 - a, 2 - b);
                }
            }
        }
        self.games.push(g);
        self.update_sprt();
    }

    /// The LLRs after the latest game; a decision once taken stands (the games that were
    /// running when it came still count in the LLR, but cannot take it back).
    fn update_sprt(&mut self) {
        let Some(test) = self.test else { return };
        let (wld, pairs) = (&self.results[0], &self.pentanomial[0]);
        self.llrs = Some((test.llr(wld), test.llr_pentanomial(pairs)));
        let decided = self.sprt.and_then(|(_, d)| d);
        let (llr, decision) = test.after_results(wld, pairs, decided);
        if decided.is_none() && decision.is_some() {
            self.decided_at = Some((self.counted_games(), llr));
        }
        self.sprt = Some((llr, decision));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::records::bare_record;

    /// A game of `new` (engine 0) against `old` on its own opening, `new` scoring `half`.
    fn game(number: usize, half: u8) -> GameRecord {
        let mut g = bare_record(number, number, "new", "old");
        (g.white, g.black) = (0, 1);
        g.result = match half {
            2 => GameResult::WhiteWins,
            1 => GameResult::Draw,
            _ => GameResult::BlackWins,
        };
        g
    }

    /// The games still running when the SPRT decides move its LLR on but not its decision,
    /// and the report says when and at which LLR it decided.
    #[test]
    fn the_report_says_when_the_sprt_decided() {
        let test = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let names = vec!["new".to_string(), "old".to_string()];
        let mut summary = Summary::new(names, &[], Some(test));
        let mut number = 0;
        while summary.sprt.is_none_or(|(_, d)| d.is_none()) {
            number += 1;
            assert!(number < 1000, "the wins never decided");
            summary.add(game(number, 2));
        }
        let (games, at) = summary.decided_at.expect("decided");
        assert_eq!(games, number as u64);
        assert!(at >= test.bounds().1, "{at}");
        summary.add(game(number + 1, 0));
        let (llr, decision) = summary.sprt.unwrap();
        assert_eq!(decision, Some(SprtDecision::H1));
        assert!(llr < at, "the loss lowers the LLR: {llr} against {at}");
        assert_eq!(summary.decided_at, Some((games, at)));
        let table = super::super::report::final_table(&summary);
        let said = format!("decided after {games} games at LLR {at:.2}; the game still running");
        assert!(table.contains(&said), "{table}");
    }
}
