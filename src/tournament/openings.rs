//! Where games start: positions from an EPD/FEN file, random openings of a few plies drawn
//! from a seed, or the variant's start position.

use std::path::Path;

use crate::eval::EvalMode;
use crate::game::{AnyPosition, Game};
use crate::search::Score;
use crate::search::engine::Engine;
use crate::search::time::Limits;
use crate::variant::Variant;

/// Depth of the search that judges whether a random opening is balanced: with quiescence on
/// top, deep enough to see a piece left hanging or lost to a simple fork.
const BALANCE_DEPTH: i32 = 4;

/// A start: a position (`None`: the variant's start) and book moves in wire notation (ranks
/// from 1) played from it before the engines take over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// SplitMix64: tiny, fast, and the same numbers on every machine and in every version, so a
/// seed gives the same openings for ever.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Reads the positions of an EPD or FEN file, one a line. Blank lines and lines starting with
/// `#` are skipped; an EPD line's operations (`bm e4; id "x";`) are ignored. A position that
/// does not read, or where the game is already over, is an error naming the line.
pub fn read_file(path: &Path, variant: &'static Variant) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("{} line {}: {e}", path.display(), i + 1);
        let fen = read_position_text(line, variant).map_err(at)?;
        let game = Game::new(AnyPosition::from_fen(variant, Some(&fen)).map_err(at)?);
        if let Some(end) = super::referee::rules_outcome(&game) {
            return Err(at(format!("the game is already over ({end:?})")));
        }
        openings.push(Opening {
            // The start position needs no FEN (and engines without setboard can play it).
            fen: (!is_start(variant, &fen)).then_some(fen),
            moves: Vec::new(),
        });
    }
    if openings.is_empty() {
        return Err(format!("{}: no positions in it", path.display()));
    }
    Ok(openings)
}

/// A FEN from a line that holds a full FEN or an EPD record (four fields and operations).
fn read_position_text(line: &str, variant: &'static Variant) -> Result<String, String> {
    let whole = line.trim_end_matches(';').trim();
    if AnyPosition::from_fen(variant, Some(whole)).is_ok() {
        return Ok(whole.to_string());
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() >= 4 {
        let epd = format!("{} 0 1", fields[..4].join(" "));
        if let Ok(pos) = AnyPosition::from_fen(variant, Some(&epd)) {
            return Ok(pos.to_fen());
        }
    }
    // Report the error of the whole line: it says what is wrong with it as a FEN.
    AnyPosition::from_fen(variant, Some(whole)).map(|p| p.to_fen())
}

/// The `index`-th random opening of a seed: `plies` random legal moves from `base`, none of them
/// ending the game. With `balance`, openings are drawn again until [`is_balanced`] accepts one
/// within that many centipawns. The same seed, index, base and balance give the same moves.
pub fn random_opening(
    variant: &'static Variant,
    base: &Opening,
    plies: usize,
    balance: Option<i32>,
    seed: u64,
    index: u64,
) -> Result<Opening, String> {
    let start = AnyPosition::from_fen(variant, base.fen.as_deref())?;
    let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let attempts = 1000;
    for _attempt in 0..attempts {
        let mut game = Game::new(start);
        for m in &base.moves {
            game.play_wire(m, 1)?;
        }
        let mut moves = base.moves.clone();
        let mut ok = true;
        for _ in 0..plies {
            let legal = game.position().legal_moves_wire(1);
            if legal.is_empty() {
                ok = false;
                break;
            }
            let m = &legal[rng.below(legal.len())];
            game.play_wire(m, 1)?;
            moves.push(m.clone());
            if super::referee::rules_outcome(&game).is_some() {
                ok = false;
                break;
            }
        }
        if ok && balance.is_none_or(|limit| is_balanced(game.position(), limit)) {
            return Ok(Opening {
                fen: base.fen.clone(),
                moves,
            });
        }
    }
    Err(match balance {
        None => format!("no random opening of {plies} plies that does not end the game"),
        Some(limit) => format!(
            "no random opening of {plies} plies within {limit} centipawns in {attempts} draws"
        ),
    })
}

/// Whether neither side wins material by force from `pos`: a short search by magus with the
/// material-only evaluation scores it within `limit` centipawns. Material only, so that the
/// openings favour no evaluation that is being measured; random plies in a variant with many
/// long-range pieces often leave a piece hanging, and such a pair of games is decided by the
/// opening whoever plays it.
pub fn is_balanced(pos: &AnyPosition, limit: i32) -> bool {
    let engine = Engine::with_hash(1);
    engine.set_options(|o| o.eval_mode = EvalMode::Material);
    let result = engine.search(
        &Game::new(*pos),
        Limits::depth(BALANCE_DEPTH),
        Box::new(|_| {}),
    );
    match result.score {
        Score::Centipawns(cp) => cp.abs() <= limit,
        Score::Mate(_) => false,
    }
}

/// Whether a position is the variant's own start (then no FEN tag is needed).
pub fn is_start(variant: &'static Variant, fen: &str) -> bool {
    let Ok(pos) = AnyPosition::from_fen(variant, Some(fen)) else {
        return false;
    };
    let start = AnyPosition::from_fen(variant, None).expect("a built start position");
    pos.to_fen() == start.to_fen()
}
