//! Pictures of a position for people: a text board for terminals and protocol `d`, an SVG
//! picture (`svg.rs`), and the piece drawings it uses (`pieces.rs`), which the GUI shares.

pub mod pieces;
pub mod svg;

pub use pieces::{piece_image, piece_svg};

use crate::board::Bitboard;
use crate::game::AnyPosition;
use crate::with_position;

/// The board as text, last rank at the top, with file letters and rank numbers.
pub fn text_board(pos: &AnyPosition) -> String {
    with_position!(pos, p => {
        let layout = p.layout();
        let dims = layout.dims;
        let mut out = String::new();
        let border = format!("   +{}\n", "---+".repeat(dims.files as usize));
        out += &border;
        for rank in (0..dims.ranks).rev() {
            out += &format!("{:>2} |", rank + 1);
            for file in 0..dims.files {
                let sq = dims.square(file, rank);
                let c = if p.holes().has(sq) {
                    '*'
                } else {
                    p.piece_at(sq).map_or(' ', |pc| layout.piece_letter(pc.kind(), pc.color()))
                };
                out += &format!(" {c} |");
            }
            out.push('\n');
            out += &border;
        }
        out += "    ";
        for file in 0..dims.files {
            out += &format!(" {}  ", crate::board::Dims::file_char(file));
        }
        out.push('\n');
        out
    })
}

/// The squares of the pieces giving check to the side to move.
pub fn checkers(pos: &AnyPosition) -> Vec<String> {
    with_position!(pos, p => {
        let us = p.side();
        p.attackers(p.king(us), !us).squares().map(|s| p.layout().dims.name(s)).collect()
    })
}
