//! Playing weaker on purpose, for people: a skill level from 0 (weakest) to 20 (full
//! strength), set directly (`Skill Level`) or from an Elo number (`UCI_LimitStrength` with
//! `UCI_Elo`), the same in every variant and every front end.
//!
//! The method: the weakened engine searches a few lines (MultiPV) to a depth that grows with
//! the level, then plays the line whose score plus a random share of a noise amplitude is the
//! highest. The amplitude falls from two and a half pawns at level 0 to nothing at full
//! strength, so that a weak engine often prefers a slightly worse move and seldom one a piece
//! worse, and a strong one almost never leaves the best. Whatever the level, the move played
//! is one the search considered, never a random legal move; a mate found is always played.

use rand::RngExt;

use super::{MATE_BOUND, Score};
use crate::board::Move;

/// Full strength: no weakening.
pub const MAX_SKILL: f64 = 20.0;

/// The lines a weakened engine chooses among.
pub const CANDIDATE_LINES: usize = 4;

/// The Elo numbers `UCI_Elo` accepts: from about the weakest level to full strength, on
/// the scale of Stockfish 15.1's `UCI_Elo` (see [`CALIBRATION`]).
pub const MIN_ELO: u32 = 1000;
pub const MAX_ELO: u32 = 2080;
/// `UCI_Elo` when nothing else is set.
pub const DEFAULT_ELO: u32 = 1500;

/// The noise amplitude at level 0, in centipawns; it falls linearly to 0 at full strength.
const NOISE_AT_LEVEL_0: f64 = 250.0;

/// Calibration points, (Elo, skill level), against Stockfish 15.1's `UCI_Elo` in chess at
/// 10 s + 0.1 s (README, "Strength levels against Stockfish"): levels 0, 4, 8 and 15 and full
/// strength were measured in short matches, level 5.2 (+67 against 1500) and full strength
/// (-81 against 2000) in 100 games each, and the level placed at 1500 by them was confirmed in
/// 100 more. Between two points the level is interpolated linearly. Full strength, about
/// 1920 on that scale then, is about 2080 with chess's square tables (32.5 % against 2200 and
/// 10 % against 2500), so that is where the scale ends.
const CALIBRATION: [(u32, f64); 5] = [
    (MIN_ELO, 0.0),
    (1500, 4.4),
    (1690, 8.0),
    (1800, 15.0),
    (MAX_ELO, MAX_SKILL),
];

/// The skill level that plays at `elo`, from [`CALIBRATION`]; [`MAX_ELO`] is full strength.
pub fn skill_from_elo(elo: u32) -> f64 {
    let elo = elo.clamp(MIN_ELO, MAX_ELO);
    let mut below = CALIBRATION[0];
    for &(at, skill) in &CALIBRATION[1..] {
        if elo <= at {
            let share = f64::from(elo - below.0) / f64::from(at - below.0);
            return below.1 + share * (skill - below.1);
        }
        below = (at, skill);
    }
    below.1
}

/// What a front end was told: a skill level, and whether an Elo number limits the strength
/// instead (`UCI_LimitStrength`, which wins over `Skill Level`, as GUIs expect).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting {
    pub level: u8,
    pub limit_by_elo: bool,
    pub elo: u32,
}

impl Default for Setting {
    fn default() -> Self {
        Setting {
            level: MAX_SKILL as u8,
            limit_by_elo: false,
            elo: DEFAULT_ELO,
        }
    }
}

impl Setting {
    /// The skill level the search plays at, `None` at full strength.
    pub fn skill(&self) -> Option<f64> {
        let skill = if self.limit_by_elo {
            skill_from_elo(self.elo)
        } else {
            self.level as f64
        };
        (skill < MAX_SKILL).then_some(skill)
    }
}

/// The deepest a search at `skill` goes: one ply at level 0, twenty at level 19.
pub fn depth_cap(skill: f64) -> i32 {
    1 + skill.clamp(0.0, MAX_SKILL - 1.0).floor() as i32
}

/// A search's candidate: a root move and its score (the engine's internal scale, from the
/// side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    pub score: i32,
}

/// Chooses among `lines` (best first) at `skill`, with `noise` drawing a uniform number in
/// `0..1` for each line. A mate found for the side to move is always played: missing a
/// forced mate is not how weaker players lose.
pub fn choose(lines: &[Candidate], skill: f64, mut noise: impl FnMut() -> f64) -> Option<Move> {
    let top = lines.first()?;
    if top.score >= MATE_BOUND || skill >= MAX_SKILL {
        return Some(top.mv);
    }
    let amplitude = NOISE_AT_LEVEL_0 * (1.0 - skill.clamp(0.0, MAX_SKILL) / MAX_SKILL);
    lines
        .iter()
        .map(|line| (line.score as f64 + amplitude * noise(), line.mv))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, mv)| mv)
}

/// As [`choose`], with the thread's random numbers.
pub fn choose_at_random(lines: &[Candidate], skill: f64) -> Option<Move> {
    let mut rng = rand::rng();
    choose(lines, skill, || rng.random::<f64>())
}

/// The candidates of a search's last complete iteration, from its progress reports: the
/// latest exact score of each line of the deepest depth at which every line was reported.
#[derive(Debug, Default)]
pub struct LineCollector {
    depth: i32,
    lines: Vec<Option<Candidate>>,
    complete: Vec<Candidate>,
}

impl LineCollector {
    pub fn new(lines: usize) -> LineCollector {
        LineCollector {
            depth: 0,
            lines: vec![None; lines.max(1)],
            complete: Vec::new(),
        }
    }

    /// Takes one progress report: line `multipv` (from 1) at `depth`.
    pub fn report(&mut self, depth: i32, multipv: usize, score: Score, exact: bool, pv: &[Move]) {
        let (Some(&mv), true, Some(slot)) = (pv.first(), exact, multipv.checked_sub(1)) else {
            return;
        };
        if slot >= self.lines.len() {
            return;
        }
        if depth != self.depth {
            self.depth = depth;
            self.lines.iter_mut().for_each(|l| *l = None);
        }
        self.lines[slot] = Some(Candidate {
            mv,
            score: internal(score),
        });
        if self.lines.iter().all(Option::is_some) {
            self.complete = self.lines.iter().flatten().copied().collect();
            self.complete.sort_by_key(|c| std::cmp::Reverse(c.score));
        }
    }

    /// The lines of the deepest complete iteration, best first (empty before the first).
    pub fn lines(&self) -> &[Candidate] {
        &self.complete
    }
}

/// A reported score back on the internal scale (mates as the mate bound and beyond).
fn internal(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) if n > 0 => super::MATE - (2 * n - 1),
        Score::Mate(n) => -super::MATE - 2 * n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, MoveKind, Square};

    fn mv(n: u8) -> Move {
        Move::new(Square::new(n), Square::new(n + 1), MoveKind::Normal)
    }

    fn lines(scores: &[i32]) -> Vec<Candidate> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &score)| Candidate {
                mv: mv(i as u8),
                score,
            })
            .collect()
    }

    #[test]
    fn full_strength_and_mates_play_the_best_line() {
        let l = lines(&[50, 40, 30, 20]);
        assert_eq!(choose(&l, MAX_SKILL, || 1.0), Some(mv(0)));
        let mate = lines(&[MATE_BOUND + 10, 40, 30, 20]);
        assert_eq!(choose(&mate, 0.0, || 1.0), Some(mv(0)));
        assert_eq!(choose(&[], 0.0, || 1.0), None);
    }

    #[test]
    fn a_weak_level_gives_up_a_small_edge_but_not_a_piece() {
        // Four lines 10 cp apart: at level 0 the noise can make the fourth the choice.
        let close = lines(&[40, 30, 20, 10]);
        let mut draws = [0.0, 0.0, 0.0, 1.0].into_iter();
        assert_eq!(choose(&close, 0.0, || draws.next().unwrap()), Some(mv(3)));
        // Without noise the best line.
        assert_eq!(choose(&close, 0.0, || 0.0), Some(mv(0)));
        // A line a piece behind: the noise cannot make up for it, whatever the draw.
        let blunder = lines(&[300, 290, 280, 0]);
        let mut draws = [0.0, 0.0, 0.0, 1.0].into_iter();
        assert_ne!(choose(&blunder, 0.0, || draws.next().unwrap()), Some(mv(3)));
    }

    #[test]
    fn a_strong_level_keeps_the_best_line_more_often() {
        // The same draw favours the second line at level 0 and the best one at level 19.
        let l = lines(&[40, 20, 10, 0]);
        let draw = |i: &mut usize| {
            *i += 1;
            if *i == 2 { 1.0 } else { 0.0 }
        };
        let mut i = 0;
        assert_eq!(choose(&l, 0.0, || draw(&mut i)), Some(mv(1)));
        let mut i = 0;
        assert_eq!(choose(&l, 19.0, || draw(&mut i)), Some(mv(0)));
    }

    #[test]
    fn elo_maps_onto_the_levels_through_the_calibration_points() {
        assert_eq!(skill_from_elo(MIN_ELO), 0.0);
        assert_eq!(skill_from_elo(0), 0.0);
        // Each calibration point is met exactly, and between them the level rises.
        for &(elo, skill) in &CALIBRATION {
            assert!((skill_from_elo(elo) - skill).abs() < 1e-9, "{elo}");
        }
        for elo in MIN_ELO..MAX_ELO {
            assert!(skill_from_elo(elo + 1) > skill_from_elo(elo), "{elo}");
        }
        assert!((skill_from_elo(1250) - 2.2).abs() < 1e-9);
        assert_eq!(skill_from_elo(MAX_ELO), MAX_SKILL);
        assert_eq!(skill_from_elo(MAX_ELO + 500), MAX_SKILL);
        assert_eq!(depth_cap(0.0), 1);
        assert_eq!(depth_cap(19.0), 20);
        assert!(depth_cap(skill_from_elo(1800)) > depth_cap(skill_from_elo(1500)));
    }

    #[test]
    fn the_elo_limit_wins_over_the_level() {
        let mut s = Setting::default();
        assert_eq!(s.skill(), None);
        s.level = 5;
        assert_eq!(s.skill(), Some(5.0));
        s.limit_by_elo = true;
        assert_eq!(s.skill(), Some(skill_from_elo(DEFAULT_ELO)));
        s.elo = MAX_ELO - 1;
        assert!(s.skill().is_some_and(|k| k < MAX_SKILL));
        // The top of the scale is full strength: no weakening at all.
        s.elo = MAX_ELO;
        assert_eq!(s.skill(), None);
    }

    #[test]
    fn the_collector_keeps_the_deepest_complete_iteration() {
        let mut c = LineCollector::new(2);
        c.report(3, 1, Score::Centipawns(30), true, &[mv(1)]);
        c.report(3, 2, Score::Centipawns(10), true, &[mv(2)]);
        // Depth 4: the first line only, and a bound that does not count.
        c.report(4, 1, Score::Centipawns(50), true, &[mv(2)]);
        c.report(4, 2, Score::Centipawns(90), false, &[mv(1)]);
        assert_eq!(
            c.lines(),
            &[
                Candidate {
                    mv: mv(1),
                    score: 30
                },
                Candidate {
                    mv: mv(2),
                    score: 10
                }
            ]
        );
        c.report(4, 2, Score::Centipawns(20), true, &[mv(1)]);
        assert_eq!(c.lines()[0].mv, mv(2));
        assert_eq!(c.lines()[1].score, 20);
        assert_eq!(internal(Score::Mate(1)), super::super::MATE - 1);
    }

    #[test]
    fn the_depth_grows_from_one_ply_to_twenty() {
        assert_eq!(depth_cap(0.0), 1);
        assert_eq!(depth_cap(4.4), 5);
        assert_eq!(depth_cap(19.0), 20);
        // Beyond the levels' range the cap stays at its ends.
        assert_eq!(depth_cap(19.9), 20);
        assert_eq!(depth_cap(MAX_SKILL + 5.0), 20);
        assert_eq!(depth_cap(-3.0), 1);
    }

    #[test]
    fn the_noise_halves_halfway_to_full_strength() {
        // At level 10 the noise is half level 0's: a full draw lifts a line by 125 cp.
        let l = lines(&[0, -120, -130]);
        let draws = |lifted: usize| {
            let mut i = 0;
            move || {
                i += 1;
                if i == lifted { 1.0 } else { 0.0 }
            }
        };
        assert_eq!(choose(&l, 10.0, draws(2)), Some(mv(1)));
        assert_eq!(choose(&l, 10.0, draws(3)), Some(mv(0)));
    }

    /// Reported scores come back to the scale they were reported from.
    #[test]
    fn reported_scores_return_to_the_internal_scale() {
        use super::super::MATE;
        for internal_score in [MATE - 1, MATE - 5, -MATE, -MATE + 2, -MATE + 6, 0, 35, -35] {
            let reported = Score::from_internal(internal_score);
            assert_eq!(internal(reported), internal_score, "{reported:?}");
        }
    }
}
