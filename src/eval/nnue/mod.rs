//! The learned evaluation (NNUE): a small net per variant whose first layer is kept up to
//! date move by move. `features` says what the inputs are, `network` holds a quantised net
//! and reads and writes its file, `accumulator` carries the first layer along the search's
//! line, `simd` has the inner loops, and `builtin` the nets that come with the engine.
//! The nets are trained by `magus train` (`src/train/`) from `magus datagen` games.

pub mod accumulator;
pub mod builtin;
pub mod features;
pub mod network;
mod simd;

use std::path::Path;
use std::sync::Arc;

pub use accumulator::Accumulators;
pub use features::FeatureSet;
pub use network::Network;

use crate::board::{Bitboard, Position};
use crate::variant::Variant;

/// The net's evaluation of `pos` from scratch, for the side to move, in centipawns, the
/// hand-made evaluation added for a net that corrects it (the search keeps the first layer
/// up to date instead; this is for `eval` and for tests).
pub fn evaluate<B: Bitboard>(net: &Network, pos: &Position<B>) -> i32 {
    let set = FeatureSet::of(pos.layout());
    let mut acc = Accumulators::new(net, 1);
    acc.refresh(net, &set, pos, 0);
    let own = acc.evaluate(net, 0, pos.side(), pos.occupied().count() as usize);
    let part = net_part(net, pos, own);
    if net.on_hce {
        part + crate::eval::evaluate(pos, crate::eval::EvalTables::of(pos.layout()))
    } else {
        part
    }
}

/// The net's part of the evaluation of `pos`, from its output `own`: the whole of it, or, for
/// a net that corrects the hand-made evaluation, the correction as the endgame knowledge
/// lets it stand (`eval::scale_correction`). The engine and `evaluate` both ask it.
#[inline]
pub fn net_part<B: Bitboard>(net: &Network, pos: &Position<B>, own: i32) -> i32 {
    if net.on_hce {
        crate::eval::scale_correction(pos, own)
    } else {
        own
    }
}

/// Whether `net` was made for `variant`: its name and its inputs' shape.
pub fn check_fits(net: &Network, variant: &Variant, set: &FeatureSet) -> Result<(), String> {
    if net.variant != variant.name {
        return Err(format!(
            "the net is for the variant {}, not {}",
            net.variant, variant.name
        ));
    }
    net.fits(set)
}

/// Reads a net file, of any variant; the error names the file and what is wrong.
pub fn read(path: &Path) -> Result<Network, String> {
    let bytes = read_bounded(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads a net file for `variant`; the error names the file and what is wrong.
pub fn load(path: &Path, variant: &Variant, set: &FeatureSet) -> Result<Arc<Network>, String> {
    let net = read(path)?;
    check_fits(&net, variant, set).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Arc::new(net))
}

/// The largest net file read (a 12x12 board with 16 kinds and the largest hidden layer
/// is under 20 MB).
const MAX_FILE_BYTES: u64 = 32 << 20;

fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "larger than {} MB: not a net",
            MAX_FILE_BYTES >> 20
        ));
    }
    Ok(bytes)
}
