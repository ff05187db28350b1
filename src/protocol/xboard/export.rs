//! A variant as XBoard is told it: a `setup` line that maps the variant's pieces onto
//! XBoard's piece images and gives the board and start position, and one `piece` line per
//! piece in Betza notation, so that XBoard draws the board and checks the moves itself.

use super::dialect::{NORMAL, xboard_name};
use crate::variant::{Role, Variant};

/// XBoard's piece images, in the order of its piece table (`-pieceToCharTable`), by their
/// default letters. The last one is the King.
const SLOTS: &[u8; 22] = b"PNBRQFEACWMOHIJGDVLSUK";

/// Images chosen for our pieces by name: the image's default letter.
const IMAGES: &[(&str, u8)] = &[
    ("magician", b'W'),
    ("wizard", b'W'),
    ("priestess", b'F'),
    ("telepath", b'U'),
    ("duke", b'J'),
    ("cardinal", b'I'),
    ("archbishop", b'A'),
    ("chancellor", b'C'),
    ("minister", b'G'),
    ("knight", b'N'),
    ("bishop", b'B'),
    ("rook", b'R'),
    ("queen", b'Q'),
];

/// The `-pieceToCharTable` of a variant: each of XBoard's images gets the letter of the piece
/// drawn with it, or `.`; White's half, then Black's.
pub fn piece_to_char(variant: &Variant) -> String {
    let mut table = [b'.'; 22];
    let mut placed = vec![false; variant.pieces.len()];
    let slot_of = |letter: u8| SLOTS.iter().position(|&s| s == letter);
    // Pawn and King first: XBoard gives those images their rules (promotion, royalty).
    for (i, p) in variant.pieces.iter().enumerate() {
        let slot = match p.role {
            Role::Pawn => 0,
            Role::King => 21,
            _ => continue,
        };
        table[slot] = p.letter as u8;
        placed[i] = true;
    }
    // Then by name, then by letter, then anywhere free (the Lance keeps its own promotion
    // rules in XBoard, so it is left out).
    for pass in 0..3 {
        for (i, p) in variant.pieces.iter().enumerate() {
            if placed[i] {
                continue;
            }
            let name = p.name.to_ascii_lowercase();
            let wanted = match pass {
                0 => IMAGES
                    .iter()
                    .find(|(word, _)| name.contains(word))
                    .and_then(|&(_, l)| slot_of(l)),
                1 => slot_of(p.letter.to_ascii_uppercase() as u8),
                _ => (5..21).find(|&s| table[s] == b'.' && SLOTS[s] != b'L'),
            };
            if let Some(s) = wanted
                && table[s] == b'.'
                && (1..21).contains(&s)
            {
                table[s] = p.letter.to_ascii_uppercase() as u8;
                placed[i] = true;
            }
        }
    }
    let white: String = table.iter().map(|&b| b as char).collect();
    format!("{white}{}", white.to_ascii_lowercase())
}

/// The Betza description XBoard is given for a piece: the variant's own, plus what the
/// variant file says elsewhere (pawn first moves and e.p., castling).
pub fn piece_betza(variant: &Variant, index: usize) -> String {
    let p = &variant.pieces[index];
    match p.role {
        Role::Pawn => {
            let mut betza = p.betza.clone();
            if variant.pawns.en_passant != crate::variant::EnPassant::None {
                betza = betza.replacen("fcF", "fceF", 1);
            }
            let steps = variant
                .pawns
                .multi_step
                .iter()
                .map(|m| m.steps)
                .max()
                .unwrap_or(1);
            if steps > 1 {
                betza.push_str(&format!("ifmW{steps}"));
            }
            betza
        }
        Role::King => {
            let mut betza = p.betza.clone();
            if let Some(c) = &variant.castling {
                let side = c.king_side.as_ref().or(c.queen_side.as_ref());
                if let Some(s) = side {
                    let distance = (s.king_to as i32 - c.king_file as i32).unsigned_abs();
                    betza.push_str(&format!("isO{distance}"));
                }
            }
            betza
        }
        _ => p.betza.clone(),
    }
}

/// The lines that define an engine-defined variant to XBoard: `setup` and one `piece` per
/// piece type. Empty for orthodox chess, which XBoard knows.
pub fn variant_definition(variant: &Variant) -> Vec<String> {
    if xboard_name(variant) == NORMAL {
        return vec![];
    }
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_fairy {}",
        piece_to_char(variant),
        variant.files,
        variant.ranks,
        variant.start_fen
    )];
    for (i, p) in variant.pieces.iter().enumerate() {
        lines.push(format!(
            "piece {}& {}",
            p.letter.to_ascii_uppercase(),
            piece_betza(variant, i)
        ));
    }
    lines
}
