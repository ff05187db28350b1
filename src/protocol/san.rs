//! Standard algebraic notation for every variant, with the inventors' forms:
//!
//! | move | SAN |
//! |---|---|
//! | swap-in (deathmatch) | `Bc1=M` |
//! | pawn move with a 6th-rank promotion | `e6 Md2=T`, `e6 M=T` when one Magician exists |
//! | spell (magician-chess) | `He4` (carry or empty), `Hxe4` (drop), `Hgf3` when two holes reach f3 |
//! | castling | `O-O`, `O-O-O`, or the variant's own (`0-0(b)`, `0-0(f)`) |
//! | move with a drop (royal-magician) | `Ke4/N@c5` |
//!
//! Reading accepts the written form, `0` for `O` in castling, missing or extra `+`/`#`,
//! `!`/`?` annotations, long pawn captures (`e5xd6`, `e5xd5-d6`) and wire notation.

use crate::board::{Bitboard, Move, MoveKind, Position, Square};
use crate::game::AnyPosition;
use crate::protocol::notation;
use crate::with_position;

const HOLE_LETTER: char = 'H';

fn letter<B: Bitboard>(pos: &Position<B>, kind: crate::board::Kind) -> char {
    pos.layout().variant.pieces[kind.index()].letter
}

/// The SAN of a legal move of `pos`.
pub fn to_san<B: Bitboard>(pos: &Position<B>, m: Move) -> String {
    let legal = pos.legal_moves();
    let mut text = san_without_check(pos, m, &legal);
    let mut next = *pos;
    next.play(m);
    if next.in_check() {
        text.push(if next.legal_moves().is_empty() {
            '#'
        } else {
            '+'
        });
    }
    text
}

fn san_without_check<B: Bitboard>(pos: &Position<B>, m: Move, legal: &[Move]) -> String {
    let layout = pos.layout();
    let dims = layout.dims;
    let name = |sq: Square| dims.name(sq);
    let from = m.from();
    let to = m.to();
    match m.kind() {
        MoveKind::Castle => {
            let castling = layout.variant.castling.as_ref();
            let king_side = castling
                .and_then(|c| c.king_side)
                .is_some_and(|s| dims.file(to) == s.king_to);
            let style = castling.map(|c| {
                if king_side {
                    &c.king_side_san
                } else {
                    &c.queen_side_san
                }
            });
            match style {
                Some(Some(s)) => s.clone(),
                _ if king_side => "O-O".into(),
                _ => "O-O-O".into(),
            }
        }
        MoveKind::SwapIn => {
            let piece = pos.piece_at(from).map_or('?', |p| letter(pos, p.kind()));
            format!("{piece}{}={}", name(from), letter(pos, m.piece()))
        }
        MoveKind::SpellCarry | MoveKind::SpellDrop => {
            let drop = m.kind() == MoveKind::SpellDrop;
            let rivals: Vec<Square> = legal
                .iter()
                .filter(|o| o.kind() == m.kind() && o.to() == to && o.from() != from)
                .map(|o| o.from())
                .collect();
            let hint = disambiguation(pos, from, &rivals);
            format!(
                "{HOLE_LETTER}{hint}{}{}",
                if drop { "x" } else { "" },
                name(to)
            )
        }
        _ => {
            let piece = pos.piece_at(from).expect("a move from an empty square");
            let capture = m.kind() == MoveKind::EnPassant
                || m.kind() == MoveKind::EnPassantTransform
                || pos.piece_at(to).is_some_and(|p| p.color() != piece.color());
            let mut text = if layout.is_pawn[piece.kind().index()] {
                if capture {
                    format!(
                        "{}x{}",
                        crate::board::Dims::file_char(dims.file(from)),
                        name(to)
                    )
                } else {
                    name(to)
                }
            } else {
                let rivals: Vec<Square> = legal
                    .iter()
                    .filter(|o| {
                        o.to() == to
                            && o.from() != from
                            && !matches!(
                                o.kind(),
                                MoveKind::Castle
                                    | MoveKind::SwapIn
                                    | MoveKind::SpellCarry
                                    | MoveKind::SpellDrop
                            )
                            && pos
                                .piece_at(o.from())
                                .is_some_and(|p| p.kind() == piece.kind())
                    })
                    .map(|o| o.from())
                    .collect();
                format!(
                    "{}{}{}{}",
                    letter(pos, piece.kind()),
                    disambiguation(pos, from, &rivals),
                    if capture { "x" } else { "" },
                    name(to)
                )
            };
            match m.kind() {
                MoveKind::Promotion => text += &format!("={}", letter(pos, m.piece())),
                MoveKind::Transform | MoveKind::EnPassantTransform => {
                    let changed = pos.piece_at(m.aux()).expect("transforming an empty square");
                    let alone = pos.pieces(changed.color(), changed.kind()).count() == 1;
                    let square = if alone { String::new() } else { name(m.aux()) };
                    text += &format!(
                        " {}{square}={}",
                        letter(pos, changed.kind()),
                        letter(pos, m.piece())
                    );
                }
                MoveKind::Drop => text += &format!("/{}@{}", letter(pos, m.piece()), name(m.aux())),
                _ => {}
            }
            text
        }
    }
}

/// The origin's file, rank or both: the least that tells it from the rivals.
fn disambiguation<B: Bitboard>(pos: &Position<B>, from: Square, rivals: &[Square]) -> String {
    let dims = pos.layout().dims;
    if rivals.is_empty() {
        return String::new();
    }
    let file = dims.file(from);
    let rank = dims.rank(from);
    if rivals.iter().all(|&r| dims.file(r) != file) {
        crate::board::Dims::file_char(file).to_string()
    } else if rivals.iter().all(|&r| dims.rank(r) != rank) {
        (rank + 1).to_string()
    } else {
        dims.name(from)
    }
}

/// Reduces a move text to what identifies it: no check marks, annotations or spaces.
fn normalize(text: &str) -> String {
    let mut t: String = text
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | ' '))
        .collect();
    t = t.replace("e.p.", "");
    t.replace('O', "0")
}

/// Finds the legal move written `text` (SAN, an accepted variant form, or wire notation).
pub fn parse_san<B: Bitboard>(pos: &Position<B>, text: &str) -> Result<Move, String> {
    let wanted = normalize(text.trim());
    if wanted.is_empty() {
        return Err("an empty move".into());
    }
    let legal = pos.legal_moves();
    let dims = pos.layout().dims;
    let mut found: Vec<Move> = Vec::new();
    for &m in &legal {
        let san = san_without_check(pos, m, &legal);
        let mut forms = vec![normalize(&san)];
        // What follows the primary move: a transformation, which may name the Magician's
        // square even when it is the only one.
        let mut suffixes = vec![
            san.find(' ')
                .map_or(String::new(), |i| normalize(&san[i..])),
        ];
        if matches!(m.kind(), MoveKind::Transform | MoveKind::EnPassantTransform)
            && let Some(changed) = pos.piece_at(m.aux())
        {
            let explicit = format!(
                "{}{}={}",
                letter(pos, changed.kind()),
                dims.name(m.aux()),
                letter(pos, m.piece())
            );
            let head = san.split(' ').next().unwrap_or("");
            forms.push(normalize(&format!("{head}{explicit}")));
            suffixes.push(explicit);
        }
        // Long pawn forms: e5e6, e5-e6, e5xd6 and e5xd5-d6 (the captured pawn's square, then
        // the landing square).
        if let Some(piece) = pos.piece_at(m.from())
            && pos.layout().is_pawn[piece.kind().index()]
        {
            let en_passant = matches!(m.kind(), MoveKind::EnPassant | MoveKind::EnPassantTransform);
            let sep = if en_passant || pos.piece_at(m.to()).is_some() {
                "x"
            } else {
                "-"
            };
            let (f, t) = (dims.name(m.from()), dims.name(m.to()));
            for suffix in &suffixes {
                forms.push(format!("{f}{sep}{t}{suffix}"));
                forms.push(format!("{f}{t}{suffix}"));
                if en_passant {
                    forms.push(format!("{f}x{}-{t}{suffix}", dims.name(pos.ep_victim())));
                }
            }
        }
        if forms.contains(&wanted) {
            found.push(m);
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => notation::parse_wire(pos, text, 1)
            .map_err(|_| format!("'{text}' is not a legal move here (SAN or coordinates)")),
        _ => Err(format!("'{text}' is ambiguous here")),
    }
}

/// SAN for a position of any width.
impl crate::game::AnyPosition {
    /// The SAN of a legal move.
    pub fn san(&self, m: Move) -> String {
        with_position!(self, p => to_san(p, m))
    }
    /// Reads a move in SAN (or coordinates) and returns the position after it.
    pub fn after_san(&self, text: &str) -> Result<(AnyPosition, Move), String> {
        let mut next = *self;
        let m = with_position!(&mut next, p => {
            let m = parse_san(p, text)?;
            p.play(m);
            m
        });
        Ok((next, m))
    }
    /// A line of moves in SAN, played out from here.
    pub fn line_san(&self, moves: &[Move]) -> Vec<String> {
        let mut pos = *self;
        moves
            .iter()
            .map(|&m| {
                let text = pos.san(m);
                with_position!(&mut pos, p => p.play(m));
                text
            })
            .collect()
    }
}
