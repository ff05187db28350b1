//! The position as an SVG picture: the squares, the pieces (their drawings, `pieces.rs`),
//! holes drawn as pits, the last move and a King in check highlighted, coordinates, the side to
//! move as a disc beside the board, and each carrier's reserve as small pieces in a tray.
//!
//! Every piece drawing is put once into `<defs>` as a `<symbol>` and placed with `<use>`. The
//! elements carry classes a reader or a test can find: `square`, `piece` (with
//! `data-square`), `hole`, `check`, `side-to-move` (with `data-side`), `reserve` (a tray, with
//! `data-side` and `data-carrier`) holding `reserve-carrier` and `reserve-piece`.

use std::fmt::Write;

use super::pieces;
use crate::board::{Bitboard, Color, Dims, Kind, Move, MoveKind, Position, Square};
use crate::variant::Variant;

/// The side of a square.
const CELL: u32 = 48;
/// Room for the coordinates, left of and under the board, and above it.
const MARGIN: u32 = 24;
/// The column right of the board that holds the side-to-move disc.
const MARKER_COLUMN: u32 = 30;
/// The side of a piece in a reserve tray, and the tray's inner padding.
const RESERVE_PIECE: u32 = 34;
const TRAY_PAD: u32 = 4;
/// The gap between the carrier and the pieces it holds, and between trays.
const TRAY_GAP: u32 = 10;

const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";
const LIGHT_MARKED: &str = "#f7ec74";
const DARK_MARKED: &str = "#dac34b";

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn side_code(color: Color) -> char {
    match color {
        Color::White => 'w',
        Color::Black => 'b',
    }
}

/// The id of a piece's symbol in `<defs>`.
fn symbol_id(kind: Kind, color: Color) -> String {
    format!("piece-{}-{}", side_code(color), kind.index())
}

/// One carrier's tray: the carrier's kind and the kinds it still holds.
struct Tray {
    color: Color,
    carrier: Kind,
    holds: Vec<Kind>,
}

/// The reserves left, per side and carrier on the board, in the variant's carrier order.
fn trays<B: Bitboard>(pos: &Position<B>) -> Vec<Tray> {
    let Some(rule) = &pos.layout().variant.mechanics.drops else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for color in Color::BOTH {
        // `carrier_reserves` lists the carriers on the board in the rule's carrier order,
        // one entry per piece; pair each entry with its kind by counting.
        let mut left = crate::rules::drops::carrier_reserves(pos, rule, color).into_iter();
        for &carrier in &rule.carriers {
            let carrier = Kind(carrier);
            for _ in 0..pos.pieces(color, carrier).count() {
                if let Some((_, holds)) = left.next()
                    && !holds.is_empty()
                {
                    out.push(Tray {
                        color,
                        carrier,
                        holds,
                    });
                }
            }
        }
    }
    out
}

/// The squares the last move touched: its origin and destination, and the square of a side
/// effect (the transformed piece, the drop).
fn marked_squares(last: Option<Move>) -> Vec<Square> {
    match last {
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
    }
}

/// The opening of an SVG document of this size, with its title.
fn open_svg(width: u32, height: u32, title: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    out
}

/// Draws `pos`; `last` is highlighted (both its squares, and the square of a side effect).
pub fn render<B: Bitboard>(pos: &Position<B>, last: Option<Move>) -> String {
    let layout = pos.layout();
    let variant = layout.variant;
    let dims: Dims = layout.dims;
    let (files, ranks) = (dims.files as u32, dims.ranks as u32);
    let board_right = MARGIN + files * CELL;
    let board_bottom = MARGIN + ranks * CELL;
    let trays = trays(pos);
    let most_held = trays
        .iter()
        .map(|t| t.holds.len() as u32)
        .max()
        .unwrap_or(0);
    let tray_width = 2 * TRAY_PAD + RESERVE_PIECE + TRAY_GAP + most_held * RESERVE_PIECE;
    let tray_height = RESERVE_PIECE + 2 * TRAY_PAD;
    let panel = if trays.is_empty() { 0 } else { tray_width + 8 };
    let width = board_right + MARKER_COLUMN + panel;
    let height = board_bottom + MARGIN;

    let mut out = open_svg(
        width,
        height,
        &format!("{}: {}", variant.title, pos.to_fen()),
    );
    let side = pos.side();
    let _ = writeln!(out, "<desc>{} to move</desc>", side.name());

    // The drawings of the pieces on the board and in the trays, once each.
    let mut used: Vec<(Kind, Color)> = Vec::new();
    for s in 0..layout.squares {
        if let Some(p) = pos.piece_at(Square::new(s as u8)) {
            used.push((p.kind(), p.color()));
        }
    }
    for tray in &trays {
        used.push((tray.carrier, tray.color));
        used.extend(tray.holds.iter().map(|&k| (k, tray.color)));
    }
    used.sort_by_key(|&(k, c)| (k.index(), c.index()));
    used.dedup();
    out += "<defs>\n";
    out += "<radialGradient id=\"hole-depth\"><stop offset=\"0\" stop-color=\"#000000\"/><stop offset=\"0.7\" stop-color=\"#141414\"/><stop offset=\"1\" stop-color=\"#2e2e2e\"/></radialGradient>\n";
    out += "<radialGradient id=\"check-glow\"><stop offset=\"0\" stop-color=\"#ff0000\"/><stop offset=\"0.45\" stop-color=\"#e80000\" stop-opacity=\"0.85\"/><stop offset=\"1\" stop-color=\"#a90000\" stop-opacity=\"0\"/></radialGradient>\n";
    symbols(&mut out, variant, &used);
    out += "</defs>\n";
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    let _ = writeln!(
        out,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#6b5a45\" stroke-width=\"2\"/>",
        MARGIN - 1,
        MARGIN - 1,
        files * CELL + 2,
        ranks * CELL + 2
    );

    let marked = marked_squares(last);
    let checked = pos.in_check().then(|| pos.king(side));
    for s in 0..layout.squares {
        let sq = Square::new(s as u8);
        let x = MARGIN + dims.file(sq) as u32 * CELL;
        let y = MARGIN + (ranks - 1 - dims.rank(sq) as u32) * CELL;
        let light = layout.light_squares.has(sq);
        let fill = match (light, marked.contains(&sq)) {
            (true, false) => LIGHT,
            (false, false) => DARK,
            (true, true) => LIGHT_MARKED,
            (false, true) => DARK_MARKED,
        };
        let _ = writeln!(
            out,
            "<rect class=\"square\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
        );
        if pos.holes().has(sq) {
            hole(&mut out, x, y, &dims.name(sq), marked.contains(&sq));
        }
        if checked == Some(sq) {
            let _ = writeln!(
                out,
                "<circle class=\"check\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"url(#check-glow)\"/>",
                x + CELL / 2,
                y + CELL / 2,
                CELL / 2
            );
        }
        if let Some(p) = pos.piece_at(sq) {
            let attributes = format!(
                "class=\"piece\" data-square=\"{}\" data-piece=\"{}\"",
                dims.name(sq),
                escape(&variant.pieces[p.kind().index()].name)
            );
            place(&mut out, &attributes, p.kind(), p.color(), x, y, CELL);
        }
    }

    for f in 0..files {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            MARGIN + f * CELL + CELL / 2,
            board_bottom + 17,
            Dims::file_char(f as u8)
        );
    }
    for r in 0..ranks {
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\">{}</text>",
            MARGIN / 2,
            MARGIN + (ranks - 1 - r) * CELL + CELL / 2 + 5,
            r + 1
        );
    }

    // The side to move: a disc in its colour level with its own first rank (White below, as
    // the board is seen from White's side).
    let (disc, marker_y) = match side {
        Color::White => ("#ffffff", board_bottom - CELL / 2),
        Color::Black => ("#000000", MARGIN + CELL / 2),
    };
    let _ = writeln!(
        out,
        "<g class=\"side-to-move\" data-side=\"{}\"><title>{} to move</title><circle cx=\"{}\" cy=\"{marker_y}\" r=\"10\" fill=\"{disc}\" stroke=\"#000000\" stroke-width=\"1.5\"/></g>",
        side_code(side),
        side.name(),
        board_right + MARKER_COLUMN / 2,
    );

    // The trays: Black's from the top down, White's from the bottom up, each by its own side
    // of the board.
    let tray_x = board_right + MARKER_COLUMN;
    for color in Color::BOTH {
        let own: Vec<&Tray> = trays.iter().filter(|t| t.color == color).collect();
        for (i, tray) in own.iter().enumerate() {
            let step = i as u32 * (tray_height + TRAY_GAP);
            let y = match color {
                Color::White => board_bottom - tray_height - step,
                Color::Black => MARGIN + step,
            };
            let carrier_name = &variant.pieces[tray.carrier.index()].name;
            let held: Vec<&str> = tray
                .holds
                .iter()
                .map(|k| variant.pieces[k.index()].name.as_str())
                .collect();
            let _ = writeln!(
                out,
                "<g class=\"reserve\" data-side=\"{}\" data-carrier=\"{}\"><title>{}</title>",
                side_code(color),
                escape(carrier_name),
                escape(&format!(
                    "{}'s {carrier_name} holds: {}",
                    color.name(),
                    held.join(", ")
                ))
            );
            let w =
                2 * TRAY_PAD + RESERVE_PIECE + TRAY_GAP + tray.holds.len() as u32 * RESERVE_PIECE;
            let _ = writeln!(
                out,
                "<rect x=\"{tray_x}\" y=\"{y}\" width=\"{w}\" height=\"{tray_height}\" rx=\"6\" fill=\"#f2efe9\" stroke=\"#b9b1a4\"/>"
            );
            let _ = writeln!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{RESERVE_PIECE}\" rx=\"4\" fill=\"#ddd6ca\"/>",
                tray_x + TRAY_PAD,
                y + TRAY_PAD,
                RESERVE_PIECE
            );
            let px = tray_x + TRAY_PAD;
            place(
                &mut out,
                "class=\"reserve-carrier\"",
                tray.carrier,
                color,
                px,
                y + TRAY_PAD,
                RESERVE_PIECE,
            );
            let divider = px + RESERVE_PIECE + TRAY_GAP / 2;
            let _ = writeln!(
                out,
                "<path d=\"M{divider} {} V{}\" stroke=\"#b9b1a4\" stroke-width=\"1.5\"/>",
                y + TRAY_PAD + 4,
                y + tray_height - TRAY_PAD - 4
            );
            for (j, &kind) in tray.holds.iter().enumerate() {
                let attributes = format!(
                    "class=\"reserve-piece\" data-piece=\"{}\"",
                    escape(&variant.pieces[kind.index()].name)
                );
                let x = px + RESERVE_PIECE + TRAY_GAP + j as u32 * RESERVE_PIECE;
                place(
                    &mut out,
                    &attributes,
                    kind,
                    color,
                    x,
                    y + TRAY_PAD,
                    RESERVE_PIECE,
                );
            }
            out += "</g>\n";
        }
    }
    out += "</svg>\n";
    out
}

/// Puts the drawing of each (kind, colour) of `used` into `<defs>` as a symbol.
fn symbols(out: &mut String, variant: &Variant, used: &[(Kind, Color)]) {
    for &(kind, color) in used {
        let image = pieces::piece_image(&variant.pieces[kind.index()], color);
        let _ = writeln!(
            out,
            "<symbol id=\"{}\" viewBox=\"0 0 {v} {v}\">{}</symbol>",
            symbol_id(kind, color),
            pieces::inner(&image),
            v = pieces::VIEW_BOX
        );
    }
}

/// Places a piece's symbol at (`x`, `y`), `size` square; `attributes` name it (its class).
fn place(out: &mut String, attributes: &str, kind: Kind, color: Color, x: u32, y: u32, size: u32) {
    let id = symbol_id(kind, color);
    let _ = writeln!(
        out,
        "<use {attributes} href=\"#{id}\" xlink:href=\"#{id}\" x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\"/>"
    );
}

/// The pieces of `variant`, each White's on a light square and Black's on a dark one, with
/// its letter and name: the legend of the variant's diagrams.
pub fn piece_set(variant: &Variant) -> String {
    const PER_ROW: u32 = 5;
    const CARD_W: u32 = 2 * CELL + 16;
    const CARD_H: u32 = CELL + 24;
    let count = variant.pieces.len() as u32;
    let rows = count.div_ceil(PER_ROW);
    let width = PER_ROW.min(count) * CARD_W + 16;
    let height = rows * CARD_H + 8;
    let mut out = open_svg(width, height, &format!("{}: the pieces", variant.title));
    let used: Vec<(Kind, Color)> = (0..variant.pieces.len())
        .flat_map(|k| Color::BOTH.map(|c| (Kind(k as u8), c)))
        .collect();
    out += "<defs>\n";
    symbols(&mut out, variant, &used);
    out += "</defs>\n";
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    for (i, piece) in variant.pieces.iter().enumerate() {
        let (col, row) = (i as u32 % PER_ROW, i as u32 / PER_ROW);
        let (x, y) = (8 + col * CARD_W, 8 + row * CARD_H);
        let _ = writeln!(
            out,
            "<g class=\"piece-card\" data-piece=\"{}\">",
            escape(&piece.name)
        );
        for (j, (color, fill)) in [(Color::White, LIGHT), (Color::Black, DARK)]
            .into_iter()
            .enumerate()
        {
            let sx = x + j as u32 * CELL;
            let _ = writeln!(
                out,
                "<rect x=\"{sx}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/>"
            );
            let attributes = format!("class=\"piece\" data-piece=\"{}\"", escape(&piece.name));
            place(&mut out, &attributes, Kind(i as u8), color, sx, y, CELL);
        }
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" font-size=\"12\" text-anchor=\"middle\">{} {}</text>",
            x + CELL,
            y + CELL + 15,
            piece.letter,
            escape(&piece.name)
        );
        out += "</g>\n";
    }
    out += "</svg>\n";
    out
}

/// A hole: a pit, dark at the bottom, its top and left walls in shadow and its bottom and
/// right walls catching the light, so it cannot be taken for a piece or a dark square.
fn hole(out: &mut String, x: u32, y: u32, square: &str, marked: bool) {
    let (c, b) = (CELL, CELL / 8);
    let _ = writeln!(
        out,
        "<g class=\"hole\" data-square=\"{square}\"><title>hole</title>\
         <rect x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\" fill=\"url(#hole-depth)\"/>\
         <path d=\"M{x} {y}H{}L{} {}H{}V{}L{x} {}Z\" fill=\"#000000\" opacity=\"0.8\"/>\
         <path d=\"M{} {y}V{}H{x}L{} {}H{}V{}Z\" fill=\"#6e6e6e\" opacity=\"0.9\"/>",
        x + c,
        x + c - b,
        y + b,
        x + b,
        y + c - b,
        y + c,
        x + c,
        y + c,
        x + b,
        y + c - b,
        x + c - b,
        y + b,
    );
    if marked {
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"{LIGHT_MARKED}\" stroke-width=\"3\"/>",
            x + 2,
            y + 2,
            c - 4,
            c - 4
        );
    }
    out.push_str("</g>\n");
}
