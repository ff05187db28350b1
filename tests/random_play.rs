//! Invariants under random play, in every variant: the move generator agrees with a slow
//! reference generator written here from the variant definition (walking each Betza atom
//! square by square, no tables, no pins); the incremental hash equals a recomputation; FEN
//! round-trips; perft 2 of the FEN-rebuilt position equals that of the played one; taking a
//! move back restores the position and its hash.
//!
//! `MAGUS_RANDOM_PLIES` sets the number of plies (default 100 000 over all variants).

use magus::board::{Bitboard, Color, Kind, Move, MoveKind, Piece, Position, Square};
use magus::game::{AnyPosition, Game};
use magus::variant::betza::Path;
use magus::variant::{EnPassant, RankPromotionChoice, Role, Variant};
use magus::with_position;

/// Magician Chess has its own independent model (holes and spells), shared with its tests.
#[allow(dead_code)]
mod magician_reference;
/// So has Royal Magician's Chess (drops).
#[allow(dead_code)]
#[path = "royal_magician/reference.rs"]
mod royal_reference;

/// The squares a piece on `from` reaches, by walking its atoms. `victim`: a square to treat
/// as holding an enemy piece (to ask whether the piece attacks it).
fn piece_targets<B: Bitboard>(
    pos: &Position<B>,
    from: Square,
    captures_only: bool,
    victim: Option<Square>,
) -> Vec<Square> {
    let layout = pos.layout();
    let dims = layout.dims;
    let variant: &Variant = layout.variant;
    let piece = pos.piece_at(from).unwrap();
    let us = piece.color();
    let flip = if us == Color::White { 1 } else { -1 };
    let blocked =
        |sq: Square| Some(sq) == victim || pos.piece_at(sq).is_some() || pos.holes().has(sq);
    let enemy =
        |sq: Square| Some(sq) == victim || pos.piece_at(sq).is_some_and(|p| p.color() != us);
    let mut out = Vec::new();
    for atom in &variant.pieces[piece.kind().index()].atoms {
        for &(dx, dy) in &atom.steps {
            let (dx, dy) = (dx as i32, dy as i32 * flip);
            let limit = if atom.range == 0 {
                64
            } else {
                atom.range as i32
            };
            let mut cur = from;
            for n in 1..=limit {
                let Some(t) = dims.offset(cur, dx, dy) else {
                    break;
                };
                cur = t;
                if n == 1 && atom.path != Path::Free {
                    let middle = dims.offset(from, dx / 2, dy / 2).unwrap();
                    if blocked(middle) != (atom.path == Path::MustJump) {
                        break;
                    }
                }
                if pos.holes().has(t) {
                    break;
                }
                if enemy(t) && atom.modality.captures() {
                    out.push(t);
                }
                if !blocked(t) && atom.modality.moves() && !captures_only {
                    out.push(t);
                }
                if blocked(t) {
                    break;
                }
            }
        }
    }
    // Deathmatch Home-File Transference.
    if let Some(rule) = &variant.mechanics.transference
        && rule.pieces.contains(&piece.kind().0)
    {
        let rank = dims.rank(from);
        let relative = if us == Color::White {
            rank
        } else {
            dims.ranks - 1 - rank
        };
        let file = dims.file(from);
        if relative < rule.ranks && (file == 0 || file == dims.files - 1) {
            let t = dims.square(dims.files - 1 - file, rank);
            let friendly = pos.piece_at(t).is_some_and(|p| p.color() == us);
            if !friendly && (!captures_only || enemy(t)) {
                out.push(t);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Does `by` attack `sq`? Every piece of `by` is asked whether it could capture there.
fn attacked<B: Bitboard>(pos: &Position<B>, sq: Square, by: Color) -> bool {
    (0..pos.layout().squares)
        .map(|s| Square::new(s as u8))
        .filter(|&s| pos.piece_at(s).is_some_and(|p| p.color() == by))
        .any(|from| piece_targets(pos, from, true, Some(sq)).contains(&sq))
}

fn in_check_after<B: Bitboard>(pos: &Position<B>, m: Move) -> bool {
    let us = pos.side();
    let mut next = *pos;
    next.play(m);
    let king = (0..pos.layout().squares)
        .map(|s| Square::new(s as u8))
        .find(|&s| next.piece_at(s) == Some(Piece::new(us, pos.layout().king)))
        .expect("the King is on the board");
    attacked(&next, king, !us)
}

/// Every legal move, by the slow road.
fn reference_moves<B: Bitboard>(pos: &Position<B>) -> Vec<Move> {
    let layout = pos.layout();
    let variant = layout.variant;
    let dims = layout.dims;
    let us = pos.side();
    let c = us.index();
    let mut moves = Vec::new();
    let forward = if us == Color::White { 1 } else { -1 };
    let relative_rank = |sq: Square| {
        if us == Color::White {
            dims.rank(sq)
        } else {
            dims.ranks - 1 - dims.rank(sq)
        }
    };
    let promotes = |sq: Square| variant.pawns.promotion_ranks.contains(&relative_rank(sq));
    let push_pawn = |moves: &mut Vec<Move>, from: Square, to: Square, kind: MoveKind| {
        if promotes(to) {
            for &p in &variant.pawns.promotion_pieces {
                moves.push(Move::new(from, to, MoveKind::Promotion).with_piece(Kind(p)));
            }
        } else {
            moves.push(Move::new(from, to, kind));
        }
    };
    for s in 0..layout.squares {
        let from = Square::new(s as u8);
        let Some(piece) = pos.piece_at(from) else {
            continue;
        };
        if piece.color() != us {
            continue;
        }
        let def = &variant.pieces[piece.kind().index()];
        for to in piece_targets(pos, from, false, None) {
            if def.role == Role::Pawn {
                push_pawn(&mut moves, from, to, MoveKind::Normal);
            } else {
                moves.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        if def.role == Role::Pawn {
            // First-move steps, straight ahead through empty squares.
            let mut steps = 1;
            for m in &variant.pawns.multi_step {
                let own = m.squares.iter().any(|&(f, r)| {
                    let r = if us == Color::White {
                        r
                    } else {
                        dims.ranks - 1 - r
                    };
                    dims.square(f, r) == from
                });
                if own && (!m.unmoved_only || pos.unmoved().has(from)) {
                    steps = steps.max(m.steps);
                }
            }
            let mut cur = from;
            for n in 1..=steps {
                let Some(t) = dims.offset(cur, 0, forward) else {
                    break;
                };
                if pos.piece_at(t).is_some() || pos.holes().has(t) {
                    break;
                }
                if n >= 2 {
                    push_pawn(&mut moves, from, t, MoveKind::Normal);
                }
                cur = t;
            }
            // En passant onto any target square this pawn captures towards.
            for t in pos.ep_targets().squares() {
                let dx = dims.file(t) as i32 - dims.file(from) as i32;
                let dy = dims.rank(t) as i32 - dims.rank(from) as i32;
                let diagonal_capture = def.atoms.iter().any(|a| {
                    a.modality.captures()
                        && a.range == 1
                        && a.steps
                            .iter()
                            .any(|&(x, y)| x as i32 == dx && y as i32 * forward == dy)
                });
                if diagonal_capture {
                    moves.push(Move::new(from, t, MoveKind::EnPassant));
                }
            }
        }
    }
    // Castling, with every condition spelt out.
    if let Some(castling) = &variant.castling {
        let rank = if us == Color::White {
            0
        } else {
            dims.ranks - 1
        };
        for (side, bit) in [(castling.king_side, 0), (castling.queen_side, 1)] {
            let Some(side) = side else { continue };
            if pos.castling_rights() & (1 << (2 * c + bit)) == 0 {
                continue;
            }
            let king_from = dims.square(castling.king_file, rank);
            let king_to = dims.square(side.king_to, rank);
            let rook_from = dims.square(side.rook_from, rank);
            let rook_to = dims.square(side.rook_to, rank);
            let files = [
                castling.king_file,
                side.king_to,
                side.rook_from,
                side.rook_to,
            ];
            let (lo, hi) = (*files.iter().min().unwrap(), *files.iter().max().unwrap());
            let clear = (lo..=hi).map(|f| dims.square(f, rank)).all(|s| {
                s == king_from
                    || s == rook_from
                    || (pos.piece_at(s).is_none() && !pos.holes().has(s))
            });
            let (klo, khi) = (
                castling.king_file.min(side.king_to),
                castling.king_file.max(side.king_to),
            );
            let safe = (klo..=khi).all(|f| !attacked(pos, dims.square(f, rank), !us));
            let _ = rook_to;
            if clear && safe {
                moves.push(Move::new(king_from, king_to, MoveKind::Castle));
            }
        }
    }
    // Deathmatch swap-in.
    if let Some(rule) = &variant.mechanics.swap_in {
        let made = pos.state(c);
        if rule.per_game == 0 || made < rule.per_game {
            for s in 0..layout.squares {
                let sq = Square::new(s as u8);
                if pos.piece_at(sq) == Some(Piece::new(us, Kind(rule.from))) {
                    moves.push(Move::new(sq, sq, MoveKind::SwapIn).with_piece(Kind(rule.to)));
                }
            }
        }
    }
    // Deathmatch 6th-rank promotion and the legacy family restriction.
    if let Some(rule) = &variant.mechanics.rank_promotion {
        let them = !us;
        let choices: Vec<u8> = match &rule.choice {
            RankPromotionChoice::Choice(k) => k.clone(),
            RankPromotionChoice::Dictated(order) => order
                .iter()
                .find(|(strong, _)| {
                    (0..layout.squares).any(|s| {
                        pos.piece_at(Square::new(s as u8)) == Some(Piece::new(them, Kind(*strong)))
                    })
                })
                .map(|&(_, r)| vec![r])
                .unwrap_or_default(),
        };
        let magicians: Vec<Square> = (0..layout.squares)
            .map(|s| Square::new(s as u8))
            .filter(|&s| pos.piece_at(s) == Some(Piece::new(us, Kind(rule.piece))))
            .collect();
        if !rule.family.is_empty() {
            let has_family = (0..layout.squares).any(|s| {
                pos.piece_at(Square::new(s as u8))
                    .is_some_and(|p| p.color() == us && rule.family.contains(&p.kind().0))
            });
            moves.retain(|m| {
                m.kind() != MoveKind::Promotion
                    || !rule.family.contains(&m.piece().0)
                    || (!has_family
                        && (m.piece().0 == rule.piece || choices.contains(&m.piece().0)))
            });
        }
        if !magicians.is_empty() && !choices.is_empty() {
            let mut expanded = Vec::new();
            for m in moves.drain(..) {
                let is_pawn = pos
                    .piece_at(m.from())
                    .is_some_and(|p| variant.pieces[p.kind().index()].role == Role::Pawn);
                let triggers = is_pawn
                    && relative_rank(m.to()) == rule.rank
                    && matches!(m.kind(), MoveKind::Normal | MoveKind::EnPassant);
                if !triggers {
                    expanded.push(m);
                    continue;
                }
                let kind = if m.kind() == MoveKind::EnPassant {
                    MoveKind::EnPassantTransform
                } else {
                    MoveKind::Transform
                };
                for &sq in &magicians {
                    for &k in &choices {
                        expanded.push(
                            Move::new(m.from(), m.to(), kind)
                                .with_aux(sq)
                                .with_piece(Kind(k)),
                        );
                    }
                }
            }
            moves = expanded;
        }
    }
    let _ = EnPassant::None;
    moves.retain(|&m| !in_check_after(pos, m));
    moves
}

fn wire_list<B: Bitboard>(pos: &Position<B>, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|&m| magus::protocol::notation::to_wire(pos, m, 1))
        .collect();
    v.sort();
    v
}

fn check_position(pos: &AnyPosition, variant: &'static Variant) {
    with_position!(pos, p => {
        let engine = wire_list(p, &p.legal_moves());
        let reference = if variant.mechanics.spells.is_some() {
            magician_reference::Board::from_fen(&p.to_fen()).legal_moves().into_keys().collect()
        } else if variant.mechanics.drops.is_some() {
            let mut v: Vec<String> = royal_reference::Reference::from_fen(&p.to_fen()).legal_moves().into_iter().map(|(m, _)| m).collect();
            v.sort();
            v
        } else {
            wire_list(p, &reference_moves(p))
        };
        assert_eq!(engine, reference, "{}: moves differ in {}", variant.name, p.to_fen());
        assert_eq!(p.hash(), p.compute_hash(), "{}: hash drift in {}", variant.name, p.to_fen());
    });
    let fen = pos.to_fen();
    let rebuilt =
        AnyPosition::from_fen(variant, Some(&fen)).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(rebuilt.to_fen(), fen);
    assert_eq!(
        rebuilt.hash(),
        pos.hash(),
        "{}: FEN loses state in {fen}",
        variant.name
    );
    assert_eq!(
        rebuilt.perft(2),
        pos.perft(2),
        "{}: perft 2 differs after FEN in {fen}",
        variant.name
    );
}

#[test]
fn random_play_keeps_every_invariant() {
    let total: usize = std::env::var("MAGUS_RANDOM_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let registry = magus::variant::Registry::builtin();
    let variants = registry.all();
    let per_variant = total / variants.len();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut checked = 0;
    for v in variants {
        let mut plies = 0;
        while plies < per_variant {
            let mut game = Game::new(AnyPosition::from_fen(v, None).unwrap());
            for _ in 0..200 {
                let pos = *game.position();
                // The reference is slow: check it on a fraction of the plies.
                if next() % 8 == 0 {
                    check_position(&pos, v);
                    checked += 1;
                } else {
                    with_position!(&pos, p => assert_eq!(p.hash(), p.compute_hash(), "{}", p.to_fen()));
                }
                let moves = pos.legal_moves_wire(1);
                if moves.is_empty() || plies >= per_variant {
                    break;
                }
                let m = &moves[(next() % moves.len() as u64) as usize];
                game.play_wire(m, 1).unwrap();
                plies += 1;
                if next() % 16 == 0 {
                    // Taking a move back restores the position exactly.
                    let before = pos;
                    assert!(game.undo());
                    assert_eq!(game.position().to_fen(), before.to_fen());
                    assert_eq!(game.position().hash(), before.hash());
                    game.play_wire(m, 1).unwrap();
                }
            }
        }
    }
    eprintln!("random play: {total} plies, {checked} positions checked against the reference");
}
