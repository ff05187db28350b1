//! The board as `magus play` draws it: from the player's side, the last move's squares in
//! brackets, holes as `*`, and what a position holds besides its board (reserves, whose move,
//! check).

use crate::board::{Bitboard, Color, Dims, Move, MoveKind};
use crate::game::AnyPosition;
use crate::with_position;

/// The squares a move touched: where it came from, where it went, and where its side effect
/// happened (a promotion elsewhere, a drop, the square a spell's hole left).
fn touched(m: Move) -> Vec<crate::board::Square> {
    let mut squares = vec![m.from(), m.to()];
    if matches!(
        m.kind(),
        MoveKind::Transform | MoveKind::EnPassantTransform | MoveKind::Drop
    ) {
        squares.push(m.aux());
    }
    squares
}

/// The board, seen from `below`'s side, with `last` (a move that led here) marked.
pub fn render(pos: &AnyPosition, last: Option<Move>, below: Color) -> String {
    let marked = last.map(touched).unwrap_or_default();
    with_position!(pos, p => {
        let layout = p.layout();
        let dims = layout.dims;
        let files: Vec<u8> = match below {
            Color::White => (0..dims.files).collect(),
            Color::Black => (0..dims.files).rev().collect(),
        };
        let ranks: Vec<u8> = match below {
            Color::White => (0..dims.ranks).rev().collect(),
            Color::Black => (0..dims.ranks).collect(),
        };
        let letters: String = files
            .iter()
            .map(|&f| format!("  {} ", Dims::file_char(f)))
            .collect::<String>()
            .trim_end()
            .to_string();
        let border = format!("    +{}\n", "---+".repeat(files.len()));
        let mut out = format!("    {letters}\n{border}");
        for &rank in &ranks {
            out += &format!("{:>3} |", rank + 1);
            for &file in &files {
                let sq = dims.square(file, rank);
                let c = if p.holes().has(sq) {
                    '*'
                } else {
                    p.piece_at(sq)
                        .map_or(' ', |pc| layout.piece_letter(pc.kind(), pc.color()))
                };
                if marked.contains(&sq) {
                    out += &format!("[{c}]|");
                } else {
                    out += &format!(" {c} |");
                }
            }
            out += &format!(" {}\n", rank + 1);
            out += &border;
        }
        out += &format!("    {letters}\n");
        out
    })
}

/// The reserves of a position with drops (`[KBNR,MBNR,kbnr,mbnr]` in its FEN), if any.
pub fn reserves(pos: &AnyPosition) -> Option<String> {
    let fen = pos.to_fen();
    let board = fen.split_whitespace().next()?;
    let open = board.find('[')?;
    Some(board[open..].to_string())
}
