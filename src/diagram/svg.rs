//! The position as an SVG picture: squares, pieces (their letters, White in light discs and
//! Black in dark ones), holes, the last move, coordinates, and what is in reserve.

use crate::board::{Bitboard, Color, Dims, Move, MoveKind, Position, Square};

const CELL: u32 = 48;
const MARGIN: u32 = 24;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Draws `pos`; `last` is highlighted (both its squares, and the square of a side effect).
pub fn render<B: Bitboard>(pos: &Position<B>, last: Option<Move>) -> String {
    let layout = pos.layout();
    let dims: Dims = layout.dims;
    let (files, ranks) = (dims.files as u32, dims.ranks as u32);
    let width = files * CELL + 2 * MARGIN;
    let reserve = crate::rules::format_reserve(pos);
    let extra = if reserve.is_some() { CELL / 2 } else { 0 };
    let height = ranks * CELL + 2 * MARGIN + extra;
    let mut out = String::new();
    out += &format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">\n"
    );
    out += &format!(
        "<title>{}</title>\n",
        escape(&format!("{}: {}", layout.variant.title, pos.to_fen()))
    );
    out += &format!("<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>\n");
    let marked: Vec<Square> = match last {
        Some(m) if !m.is_null() => {
            let mut v = vec![m.from(), m.to()];
            if matches!(
                m.kind(),
                MoveKind::Transform | MoveKind::EnPassantTransform | MoveKind::Drop
            ) {
                v.push(m.aux());
            }
            v
        }
        _ => vec![],
    };
    let origin = |sq: Square| -> (u32, u32) {
        let x = MARGIN + dims.file(sq) as u32 * CELL;
        let y = MARGIN + (ranks - 1 - dims.rank(sq) as u32) * CELL;
        (x, y)
    };
    for s in 0..layout.squares {
        let sq = Square::new(s as u8);
        let (x, y) = origin(sq);
        let light = layout.light_squares.has(sq);
        let mut fill = if light { "#f0d9b5" } else { "#b58863" };
        if marked.contains(&sq) {
            fill = if light { "#f7ec74" } else { "#dac34b" };
        }
        if pos.holes().has(sq) {
            fill = "#202020";
        }
        out += &format!(
            "<rect class=\"square\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>\n"
        );
        if pos.holes().has(sq) {
            out += &format!(
                "<circle class=\"hole\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#000000\" stroke=\"#555555\"/>\n",
                x + CELL / 2,
                y + CELL / 2,
                CELL / 3
            );
        }
        if let Some(p) = pos.piece_at(sq) {
            let (disc, ink) = if p.color() == Color::White {
                ("#ffffff", "#000000")
            } else {
                ("#222222", "#ffffff")
            };
            let letter = layout.variant.pieces[p.kind().index()].letter;
            out += &format!(
                "<g class=\"piece\" data-square=\"{}\"><circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{disc}\" stroke=\"#000000\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">{letter}</text></g>\n",
                dims.name(sq),
                x + CELL / 2,
                y + CELL / 2,
                CELL * 2 / 5,
                x + CELL / 2,
                y + CELL / 2 + CELL / 7,
                CELL * 2 / 5
            );
        }
    }
    for f in 0..files {
        out += &format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>\n",
            MARGIN + f * CELL + CELL / 2,
            MARGIN + ranks * CELL + 17,
            Dims::file_char(f as u8)
        );
    }
    for r in 0..ranks {
        out += &format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>\n",
            MARGIN / 2,
            MARGIN + (ranks - 1 - r) * CELL + CELL / 2 + 5,
            r + 1
        );
    }
    if let Some(reserve) = reserve {
        out += &format!(
            "<text class=\"reserve\" x=\"{MARGIN}\" y=\"{}\" font-size=\"14\">reserve: {}</text>\n",
            MARGIN + ranks * CELL + 40,
            escape(&reserve)
        );
    }
    let side = if pos.side() == Color::White {
        "White"
    } else {
        "Black"
    };
    out += &format!("<desc>{side} to move</desc>\n");
    out += "</svg>\n";
    out
}
