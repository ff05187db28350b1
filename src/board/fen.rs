//! FEN, with the variant's letters and board size.
//!
//! `<board> <side> <castling> <en passant> <halfmove> <fullmove> [<state> …]`
//!
//! - board: ranks from the last to the first, `/` between; upper case White, lower case
//!   Black; a number (of any size, `10` in Magi) is a run of empty squares; `*` is a hole.
//! - en passant: `-`, a square, or several squares joined by `,` (Magi: `f3,f4`).
//! - halfmove clock and fullmove number may be left out (0 and 1).
//! - state, variant state that cannot be read off the board, as `key=value`:
//!   `unmoved=d3,g3` lists the pawns that never moved where the variant tracks it (the Magi
//!   d3/g3/d8/g8 pawns); left out, every pawn on such a square counts as unmoved, and it is
//!   written only when that default would be wrong.

use super::bitboard::Bitboard;
use super::layout::Layout;
use super::piece::{Color, Kind, Piece};
use super::position::Position;
use super::square::Square;
use crate::variant::EnPassant;

impl<B: Bitboard> Position<B> {
    /// Reads a FEN. On error nothing is built, and the message says what and where.
    pub fn from_fen(layout: &'static Layout<B>, fen: &str) -> Result<Self, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(format!(
                "FEN '{fen}': needs at least the board and the side to move"
            ));
        }
        let mut pos = Position::empty(layout);
        parse_board(&mut pos, fields[0])?;

        pos.set_side(match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("FEN side to move '{other}': expected 'w' or 'b'")),
        });

        let castling = fields.get(2).copied().unwrap_or("-");
        parse_castling(&mut pos, castling)?;

        let mut rest_start = 3;
        if let Some(&ep) = fields.get(3) {
            parse_en_passant(&mut pos, ep)?;
            rest_start = 4;
        }
        let mut clocks = [0u16, 1u16];
        let mut numbers_read = 0;
        for (i, name) in ["halfmove clock", "fullmove number"].iter().enumerate() {
            match fields.get(rest_start + i) {
                Some(text) if text.bytes().all(|b| b.is_ascii_digit()) => {
                    clocks[i] = text
                        .parse()
                        .map_err(|_| format!("FEN {name} '{text}': too large"))?;
                    numbers_read += 1;
                }
                _ => break,
            }
        }
        if clocks[1] == 0 {
            clocks[1] = 1;
        }
        pos.set_clocks(clocks[0], clocks[1]);

        let mut unmoved = default_unmoved(&pos);
        for token in fields.iter().skip(rest_start + numbers_read) {
            match token.split_once('=') {
                Some(("unmoved", value)) => unmoved = parse_unmoved(&pos, value)?,
                Some((key, value)) if (layout.hooks.parse_fen_state)(&mut pos, key, value)? => {}
                _ => {
                    return Err(format!(
                        "FEN field '{token}': not understood (expected the halfmove clock, the fullmove number or key=value state)"
                    ));
                }
            }
        }
        pos.set_unmoved(unmoved);
        pos.check_sound()?;
        Ok(pos)
    }

    /// Writes the position as FEN.
    pub fn to_fen(&self) -> String {
        let layout = self.layout();
        let dims = layout.dims;
        let mut out = String::new();
        for rank in (0..dims.ranks).rev() {
            let mut empty = 0;
            for file in 0..dims.files {
                let sq = dims.square(file, rank);
                let c = if self.holes().has(sq) {
                    Some('*')
                } else {
                    self.piece_at(sq)
                        .map(|p| layout.piece_letter(p.kind(), p.color()))
                };
                match c {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            out += &empty.to_string();
                            empty = 0;
                        }
                        out.push(c);
                    }
                }
            }
            if empty > 0 {
                out += &empty.to_string();
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if let Some(reserve) = (self.layout().hooks.format_reserve)(self) {
            out += &format!("[{reserve}]");
        }
        out.push(' ');
        out.push(if self.side() == Color::White {
            'w'
        } else {
            'b'
        });
        out.push(' ');
        let rights = self.castling_rights();
        if rights == 0 {
            out.push('-');
        } else {
            for (bit, c) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
                if rights & (1 << bit) != 0 {
                    out.push(*c);
                }
            }
        }
        out.push(' ');
        if self.ep_targets().is_empty() {
            out.push('-');
        } else {
            let names: Vec<String> = self.ep_targets().squares().map(|s| dims.name(s)).collect();
            out += &names.join(",");
        }
        out += &format!(" {} {}", self.halfmove_clock(), self.fullmove_number());
        if self.unmoved() != default_unmoved(self) {
            let names: Vec<String> = self.unmoved().squares().map(|s| dims.name(s)).collect();
            out += " unmoved=";
            out += if names.is_empty() {
                "-".to_string()
            } else {
                names.join(",")
            }
            .as_str();
        }
        for token in (self.layout().hooks.format_fen_state)(self) {
            out.push(' ');
            out += &token;
        }
        out
    }

    /// A pawn of `color` on its own first rank, where the variant's pawns can never stand:
    /// they only move forward, none starts there, and no spell (which carries pieces) or
    /// drop can put one there. Variants whose pawns start on that rank (Horde's) keep them.
    fn pawn_on_first_rank(&self, color: Color, pawn: Kind) -> Option<Square> {
        let layout = self.layout();
        let variant = layout.variant;
        if layout.allows_holes || variant.mechanics.drops.is_some() {
            return None;
        }
        let dims = layout.dims;
        let first = match color {
            Color::White => 0,
            Color::Black => dims.ranks - 1,
        };
        // The start position's row of that rank (FEN rows run from the last rank).
        let rows: Vec<&str> = variant
            .start_fen
            .split_whitespace()
            .next()
            .unwrap_or("")
            .split('/')
            .collect();
        let row = rows
            .get((dims.ranks - 1 - first) as usize)
            .copied()
            .unwrap_or("");
        let letter = variant.pieces[pawn.index()].letter;
        let letter = match color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter.to_ascii_lowercase(),
        };
        if row.contains(letter) {
            return None;
        }
        self.pieces(color, pawn)
            .squares()
            .find(|&sq| dims.rank(sq) == first)
    }

    /// Checks what a position must satisfy to be played from.
    fn check_sound(&self) -> Result<(), String> {
        let layout = self.layout();
        for color in Color::BOTH {
            let kings = self.pieces(color, layout.king).count();
            if kings != 1 {
                return Err(format!(
                    "FEN: {} has {kings} kings, needs exactly one",
                    color.name()
                ));
            }
            if let Some(pawn) = layout.pawn {
                let misplaced = self.pieces(color, pawn) & layout.promotion_zone[color.index()];
                if misplaced.any() && self.holes().is_empty() {
                    return Err(format!(
                        "FEN: {} pawn on {}, its promotion rank",
                        color.name(),
                        layout.dims.name(misplaced.lowest())
                    ));
                }
                if let Some(sq) = self.pawn_on_first_rank(color, pawn) {
                    return Err(format!(
                        "FEN: {} pawn on {}, its own first rank, where {}'s pawns never stand",
                        color.name(),
                        layout.dims.name(sq),
                        layout.variant.name
                    ));
                }
            }
        }
        (self.layout().hooks.check_sound)(self)?;
        if self.is_attacked(self.king(!self.side()), self.side()) {
            return Err(format!(
                "FEN: {} is to move and can capture the {} King",
                self.side().name(),
                (!self.side()).name()
            ));
        }
        Ok(())
    }
}

fn parse_board<B: Bitboard>(pos: &mut Position<B>, board: &str) -> Result<(), String> {
    let layout = pos.layout();
    let dims = layout.dims;
    let variant = layout.variant;
    let (placement, reserve) = match board.find('[') {
        Some(i) => (&board[..i], Some(&board[i..])),
        None => (board, None),
    };
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != dims.ranks as usize {
        return Err(format!(
            "FEN board: {} ranks, {} has {}",
            rows.len(),
            variant.name,
            dims.ranks
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = dims.ranks - 1 - i as u8;
        let rank_name = rank + 1;
        let mut file: u32 = 0;
        let bytes = row.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            let c = bytes[j] as char;
            if c.is_ascii_digit() {
                let start = j;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let run: u32 = row[start..j].parse().unwrap_or(u32::MAX);
                if run == 0 {
                    return Err(format!("FEN board rank {rank_name}: an empty run of 0"));
                }
                file = file.saturating_add(run);
                if file > dims.files as u32 {
                    return Err(format!(
                        "FEN board rank {rank_name}: more than {} files",
                        dims.files
                    ));
                }
                continue;
            }
            if file >= dims.files as u32 {
                return Err(format!(
                    "FEN board rank {rank_name}: more than {} files",
                    dims.files
                ));
            }
            let sq = dims.square(file as u8, rank);
            if c == '*' {
                if !layout.allows_holes {
                    return Err(format!(
                        "FEN board rank {rank_name}: '*' (a hole) is not part of {}",
                        variant.name
                    ));
                }
                pos.toggle_hole(sq);
            } else {
                let Some(kind) = variant
                    .kind_of_letter(c)
                    .filter(|_| c.is_ascii_alphabetic())
                else {
                    return Err(format!(
                        "FEN board rank {rank_name}: '{c}' is not a piece of {}",
                        variant.name
                    ));
                };
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                pos.put(sq, Piece::new(color, Kind(kind)));
            }
            file += 1;
            j += 1;
        }
        if file != dims.files as u32 {
            return Err(format!(
                "FEN board rank {rank_name}: {file} files, {} has {}",
                variant.name, dims.files
            ));
        }
    }
    // The reserve is read once the board is known: it may depend on what stands there.
    if let Some(reserve) = reserve {
        let inner = reserve.strip_prefix('[').and_then(|r| r.strip_suffix(']'));
        let Some(inner) = inner else {
            return Err(format!(
                "FEN reserve '{reserve}': expected '[...]' right after the board"
            ));
        };
        (pos.layout().hooks.parse_reserve)(pos, inner)?;
    }
    Ok(())
}

fn parse_castling<B: Bitboard>(pos: &mut Position<B>, text: &str) -> Result<(), String> {
    if text == "-" {
        return Ok(());
    }
    let layout = pos.layout();
    let mut rights = 0u8;
    for c in text.chars() {
        let (color, side) = match c {
            'K' => (Color::White, 0),
            'Q' => (Color::White, 1),
            'k' => (Color::Black, 0),
            'q' => (Color::Black, 1),
            _ => {
                return Err(format!(
                    "FEN castling '{text}': '{c}' is not one of K Q k q"
                ));
            }
        };
        let bit = 1u8 << (color.index() * 2 + side);
        if rights & bit != 0 {
            return Err(format!("FEN castling '{text}': '{c}' given twice"));
        }
        let Some(rule) = layout.castles[color.index()]
            .iter()
            .find(|r| r.right == bit)
        else {
            return Err(format!(
                "FEN castling '{text}': {} has no castling '{c}'",
                layout.variant.name
            ));
        };
        let king = Piece::new(color, layout.king);
        let rook_ok = pos
            .piece_at(rule.rook_from)
            .is_some_and(|p| p.color() == color && p.kind() != layout.king);
        if pos.piece_at(rule.king_from) != Some(king) || !rook_ok {
            return Err(format!(
                "FEN castling '{text}': '{c}' needs the {} King on {} and a piece to castle with on {}",
                color.name(),
                layout.dims.name(rule.king_from),
                layout.dims.name(rule.rook_from)
            ));
        }
        rights |= bit;
    }
    pos.set_castling(rights);
    Ok(())
}

fn parse_en_passant<B: Bitboard>(pos: &mut Position<B>, text: &str) -> Result<(), String> {
    if text == "-" {
        return Ok(());
    }
    let layout = pos.layout();
    let dims = layout.dims;
    let Some(pawn) = layout.pawn else {
        return Err(format!(
            "FEN en passant '{text}': {} has no pawns",
            layout.variant.name
        ));
    };
    let mover = !pos.side();
    let forward = layout.forward[mover.index()];
    let mut targets = B::EMPTY;
    for name in text.split(',') {
        let Some(sq) = dims.parse_square(name) else {
            return Err(format!("FEN en passant '{text}': '{name}' is not a square"));
        };
        if pos.holes().has(sq) {
            return Err(format!("FEN en passant '{text}': {name} is a hole"));
        }
        if pos.piece_at(sq).is_some() {
            return Err(format!("FEN en passant '{text}': {name} is not empty"));
        }
        targets |= B::from_square(sq);
    }
    // The pawn that moved stands beyond the farthest target, on the same file. Only targets
    // that a pawn can take are written, so squares it passed may lie between (Magi c2-c5
    // with only c3 attacked is written `c3`): step over empty squares, no farther than the
    // longest first move reaches.
    let farthest = if forward > 0 {
        targets.highest()
    } else {
        targets.lowest()
    };
    let longest = (0..layout.squares)
        .map(|s| layout.first_steps[mover.index()][s].max(layout.unmoved_steps[mover.index()][s]))
        .max()
        .unwrap_or(1);
    let reach = match layout.en_passant {
        // The origin is a target too.
        EnPassant::FromThirdRank => longest,
        _ => longest.saturating_sub(1),
    }
    .max(1);
    let rank_step = if forward > 0 { 1 } else { -1 };
    let mut victim = None;
    let mut sq = farthest;
    for _ in 0..reach {
        let Some(next) = dims.offset(sq, 0, rank_step) else {
            break;
        };
        if pos.piece_at(next).is_some() || pos.holes().has(next) {
            victim = Some(next);
            break;
        }
        sq = next;
    }
    let victim = victim.filter(|&v| pos.piece_at(v) == Some(Piece::new(mover, pawn)));
    let same_file = targets
        .squares()
        .all(|s| dims.file(s) == dims.file(farthest));
    let (Some(victim), true) = (victim, same_file) else {
        return Err(format!(
            "FEN en passant '{text}': no {} pawn stands beyond it on its file",
            mover.name()
        ));
    };
    let kept = pos.capturable_en_passant(targets, pos.side());
    if kept.any() {
        pos.set_en_passant(kept, victim);
    }
    Ok(())
}

/// Unmoved pawns when the FEN does not say: every pawn on a tracked square.
fn default_unmoved<B: Bitboard>(pos: &Position<B>) -> B {
    let layout = pos.layout();
    let Some(pawn) = layout.pawn else {
        return B::EMPTY;
    };
    Color::BOTH.iter().fold(B::EMPTY, |acc, &c| {
        acc | (pos.pieces(c, pawn) & layout.unmoved_squares[c.index()])
    })
}

fn parse_unmoved<B: Bitboard>(pos: &Position<B>, value: &str) -> Result<B, String> {
    let layout = pos.layout();
    let mut set = B::EMPTY;
    if value == "-" {
        return Ok(set);
    }
    for name in value.split(',') {
        let Some(sq) = layout.dims.parse_square(name) else {
            return Err(format!("FEN unmoved={value}: '{name}' is not a square"));
        };
        let tracked = layout.pawn.is_some_and(|pawn| {
            Color::BOTH
                .iter()
                .any(|&c| layout.unmoved_squares[c.index()].has(sq) && pos.pieces(c, pawn).has(sq))
        });
        if !tracked {
            return Err(format!(
                "FEN unmoved={value}: {name} holds no pawn whose first move {} tracks",
                layout.variant.name
            ));
        }
        set |= B::from_square(sq);
    }
    Ok(set)
}

impl<B: Bitboard> std::fmt::Debug for Position<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}
