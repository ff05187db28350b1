//! What the fuzz targets share: the built-in variants, positions reached from the input's
//! first bytes, and the checks every position that the engine accepted must pass.

#![allow(dead_code)]

use std::io::Write;
use std::sync::LazyLock;

use magus::game::AnyPosition;
use magus::variant::{Registry, Variant};
use magus::with_position;

pub static REGISTRY: LazyLock<Registry> = LazyLock::new(Registry::builtin);

pub fn variants() -> &'static [&'static Variant] {
    REGISTRY.all()
}

/// A position of a built-in variant picked by the input: byte 0 picks the variant, byte 1
/// how many plies to play from its start (0 to 7), and the next bytes which legal move each
/// ply. Returns the position and what is left of the input.
pub fn position_from(data: &[u8]) -> Option<(AnyPosition, &[u8])> {
    let (&v, rest) = data.split_first()?;
    let (&plies, mut rest) = rest.split_first()?;
    let variant = variants()[v as usize % variants().len()];
    let mut pos = AnyPosition::from_fen(variant, None).expect("a built-in start position");
    for _ in 0..plies % 8 {
        let Some((&pick, tail)) = rest.split_first() else {
            break;
        };
        rest = tail;
        let moves = with_position!(&pos, p => p.legal_moves());
        if moves.is_empty() {
            break;
        }
        let m = moves[pick as usize % moves.len()];
        with_position!(&mut pos, p => p.play(m));
    }
    Some((pos, rest))
}

/// [`position_from`], with the rest of the input read as text (invalid UTF-8 replaced).
pub fn position_and_text(data: &[u8]) -> Option<(AnyPosition, String)> {
    let (pos, rest) = position_from(data)?;
    Some((pos, String::from_utf8_lossy(rest).into_owned()))
}

/// What must hold for any position the engine accepted or reached by a legal move: its FEN
/// reads back to the same position and hash, and its incremental hash equals a recomputation.
pub fn check_position(pos: &AnyPosition) {
    let fen = pos.to_fen();
    let again = AnyPosition::from_fen(pos.variant(), Some(&fen))
        .unwrap_or_else(|e| panic!("the engine's own FEN '{fen}' does not read back: {e}"));
    assert_eq!(again.to_fen(), fen, "FEN round trip");
    assert_eq!(
        again.hash(),
        pos.hash(),
        "hash after a FEN round trip of '{fen}'"
    );
    let recomputed = with_position!(pos, p => p.compute_hash());
    assert_eq!(pos.hash(), recomputed, "incremental hash of '{fen}'");
}

/// A protocol session's output kept in memory: the last part only, enough to count answers
/// without growing forever.
#[derive(Default)]
pub struct Lines(pub Vec<u8>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.0.len() > 1 << 20 {
            self.0.drain(..1 << 19);
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Plays a few plies, picked by the input's length, of a variant the engine accepted from
/// its start, each position passing `check_position`.
pub fn play_accepted(variant: &'static Variant, data: &[u8]) {
    let mut pos = AnyPosition::from_fen(variant, None).expect("a checked start position");
    check_position(&pos);
    for ply in 0..3 {
        let moves = with_position!(&pos, p => p.legal_moves());
        if moves.is_empty() {
            break;
        }
        let m = moves[(data.len() + ply) % moves.len()];
        let _ = pos.san(m);
        with_position!(&mut pos, p => p.play(m));
        check_position(&pos);
    }
}
