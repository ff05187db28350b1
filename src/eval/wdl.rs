//! Win, draw and loss chances from a score, for `UCI_ShowWDL`: a model of how magus's own
//! games ended, fitted per variant (docs/wdl.md: the data, the command, the fit).
//!
//! The chance that the side to move wins is a logistic curve of its score `s`,
//! `1 / (1 + exp(-(s - a) / b))`; of losing, the same curve of `-s`; a draw is the rest. `a`
//! (the score at which a win is as likely as not) and `b` (how fast the chance grows) depend
//! on how much material is left, `m`, the material on the board (Kings aside) as a fraction
//! of the start position's: `a = a0 + a1·m`, `b = b0 + b1·m`. Few pieces left make a given
//! score less decisive in chess (a pawn up in a Rook ending often draws), more in Magi.

use crate::variant::{Role, Variant};

/// The parameters of one variant's model, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    pub a0: f64,
    pub a1: f64,
    pub b0: f64,
    pub b1: f64,
}

/// Each built-in variant's fitted model (docs/wdl.md); variants from files use chess's
/// until fitted to their own games.
const FITTED: [(&str, WdlModel); 6] = [
    ("chess", CHESS),
    (
        "magi",
        WdlModel {
            a0: 412.1,
            a1: -314.4,
            b0: 226.0,
            b1: 209.2,
        },
    ),
    (
        "deathmatch",
        WdlModel {
            a0: 156.3,
            a1: -80.0,
            b0: 93.3,
            b1: 86.5,
        },
    ),
    (
        "deathmatch-legacy",
        WdlModel {
            a0: 348.0,
            a1: -258.6,
            b0: 203.0,
            b1: -11.8,
        },
    ),
    (
        "magician-chess",
        WdlModel {
            a0: 386.2,
            a1: -111.8,
            b0: 85.1,
            b1: 163.3,
        },
    ),
    (
        "royal-magician",
        WdlModel {
            a0: 91.7,
            a1: -76.7,
            b0: 21.8,
            b1: 376.7,
        },
    ),
];

const CHESS: WdlModel = WdlModel {
    a0: 242.0,
    a1: -175.7,
    b0: 104.8,
    b1: 43.7,
};

/// The model of `variant`.
pub fn model_for(variant: &Variant) -> WdlModel {
    FITTED
        .iter()
        .find(|(name, _)| *name == variant.name)
        .map_or(CHESS, |&(_, model)| model)
}

/// Win, draw and loss chances in per mille (they add up to 1000) for the side to move, with
/// `score` centipawns and `material` left (a fraction of the start's).
pub fn wdl(model: &WdlModel, score: i32, material: f64) -> (u32, u32, u32) {
    let (win, loss) = chances(model, score as f64, material);
    let win = (win * 1000.0).round() as u32;
    let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
    (win, 1000 - win - loss, loss)
}

/// The chances of a win and of a loss (unrounded).
pub fn chances(model: &WdlModel, score: f64, material: f64) -> (f64, f64) {
    // Below 0 the two curves would overlap and leave a draw less than nothing.
    let a = (model.a0 + model.a1 * material).max(0.0);
    // A curve that does not rise (b ≤ 0) is no model; keep it a steep step instead.
    let b = (model.b0 + model.b1 * material).max(1.0);
    let curve = |s: f64| 1.0 / (1.0 + (-(s - a) / b).exp());
    (curve(score), curve(-score))
}

/// The material on the board of a position written as `fen`, Kings aside, as a fraction of
/// the variant's start position's (1.0 at the start; more is possible after promotions).
pub fn material_left(variant: &Variant, fen: &str) -> f64 {
    let start = board_material(variant, &variant.start_fen).max(1);
    board_material(variant, fen) as f64 / start as f64
}

/// The value of the pieces of a FEN's board field (the first field), Kings aside.
fn board_material(variant: &Variant, fen: &str) -> i64 {
    let board = fen.split_whitespace().next().unwrap_or("");
    board
        .chars()
        .filter_map(|c| {
            let upper = c.to_ascii_uppercase();
            variant
                .pieces
                .iter()
                .find(|p| p.letter == upper && p.role != Role::King)
                .map(|p| p.value.max(0) as i64)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Registry;

    #[test]
    fn chances_add_up_and_follow_the_score() {
        let model = CHESS;
        for score in [-2000, -300, -50, 0, 50, 300, 2000] {
            for material in [0.1, 0.5, 1.0] {
                let (w, d, l) = wdl(&model, score, material);
                assert_eq!(w + d + l, 1000, "{score} {material}");
            }
        }
        let (w0, _, l0) = wdl(&model, 0, 1.0);
        assert_eq!(w0, l0, "an even score is symmetric");
        let (w1, _, l1) = wdl(&model, 200, 1.0);
        let (w2, _, l2) = wdl(&model, 600, 1.0);
        assert!(w2 > w1 && w1 > w0 && l2 < l1 && l1 < l0);
        assert!(wdl(&model, 5000, 1.0).0 >= 999);
    }

    /// The win curve crosses one half at `a = a0 + a1·m` and reaches 1/(1 + e⁻¹) one `b`
    /// further (`b = b0 + b1·m`); the loss curve mirrors it. Chess's model at half the
    /// material (both positive there).
    #[test]
    fn the_curves_cross_one_half_at_a_and_rise_over_b() {
        let one_b_up = 1.0 / (1.0 + (-1.0f64).exp());
        let close = |x: f64, y: f64| (x - y).abs() < 1e-9;
        let (a, b) = (CHESS.a0 + CHESS.a1 / 2.0, CHESS.b0 + CHESS.b1 / 2.0);
        assert!(a > 0.0 && b > 1.0, "{a} {b}");
        let (win, _) = chances(&CHESS, a, 0.5);
        assert!(close(win, 0.5), "{win}");
        let (win, _) = chances(&CHESS, a + b, 0.5);
        assert!(close(win, one_b_up), "{win}");
        let (_, loss) = chances(&CHESS, -a, 0.5);
        assert!(close(loss, 0.5), "{loss}");
        let (_, loss) = chances(&CHESS, -a - b, 0.5);
        assert!(close(loss, one_b_up), "{loss}");
        // A negative a is taken as 0 and a b below 1 as 1.
        let odd = WdlModel {
            a0: -100.0,
            a1: 0.0,
            b0: -5.0,
            b1: 0.0,
        };
        assert_eq!(chances(&odd, 0.0, 1.0), (0.5, 0.5));
        assert!(close(chances(&odd, 1.0, 1.0).0, one_b_up));
    }

    #[test]
    fn material_is_counted_from_the_board_without_kings() {
        let registry = Registry::builtin();
        let chess = registry.get("chess").unwrap();
        assert_eq!(material_left(chess, &chess.start_fen), 1.0);
        let kings_only = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(material_left(chess, kings_only), 0.0);
        let one_queen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let m = material_left(chess, one_queen);
        assert!(m > 0.0 && m < 0.2, "{m}");
        let magi = registry.get("magi").unwrap();
        assert_eq!(material_left(magi, &magi.start_fen), 1.0);
    }
}
