//! A variant compiled for one bitboard width: geometry, move tables per piece kind and
//! colour, castling squares. Built once per variant; the hot paths only read it.

use super::bitboard::Bitboard;
use super::hooks::MechanicHooks;
use super::piece::{Color, Kind, MAX_KINDS};
use super::spell_tables::SpellTables;
use super::square::{Dims, Square};
use crate::variant::betza::Path;
use crate::variant::{EnPassant, Role, Variant};

/// A ray: the squares a step repeated from each square reaches, up to a range.
#[derive(Clone, Copy, Debug)]
pub struct RayId {
    index: u32,
    ascending: bool,
}

/// One sliding component of a piece.
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    pub ray: RayId,
    pub moves: bool,
    pub captures: bool,
}

/// A two-square leap whose middle square matters (Betza `n` / `j`).
#[derive(Clone, Copy, Debug)]
pub struct PathLeap {
    pub target: Square,
    pub middle: Square,
    /// true: the middle must be empty (`n`); false: it must be occupied (`j`).
    pub middle_empty: bool,
    pub moves: bool,
    pub captures: bool,
}

/// Slider attackers of one colour that share a ray: used to ask "is this square attacked".
#[derive(Clone, Copy, Debug)]
pub struct AttackRay {
    /// The ray looked along from the attacked square (the step reversed).
    pub ray: RayId,
    /// Bit `k` set for each kind that captures along this ray.
    pub kinds: u16,
}

#[derive(Clone, Copy, Debug)]
pub struct CastleRule<B> {
    pub right: u8,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
    /// Squares that must be empty (neither the King nor the Rook stands there).
    pub must_be_empty: B,
    /// The King's path, origin and destination included: none may be attacked.
    pub king_path: B,
}

/// Which hooks of `src/rules/` a variant needs, asked once per node, never per move.
#[derive(Clone, Copy, Debug, Default)]
pub struct MechanicFlags {
    /// `rules::after_generate` adds or expands moves.
    pub generates: bool,
    /// `rules::extra_attackers` adds attacks beyond the pieces' tables.
    pub extra_attacks: bool,
    /// `hooks.after_play` keeps mechanic state.
    pub keeps_state: bool,
}

pub struct Layout<B: Bitboard> {
    pub variant: &'static Variant,
    pub dims: Dims,
    pub squares: usize,
    pub board_mask: B,
    pub kinds: usize,
    pub king: Kind,
    pub pawn: Option<Kind>,
    /// Per kind: it is a pawn (moves with the pawn rules).
    pub is_pawn: [bool; MAX_KINDS],
    /// Squares of the light colour (a1 is dark), for colour-bound pieces.
    pub light_squares: B,
    /// Kinds that can only ever reach squares of one colour.
    pub colour_bound: [bool; MAX_KINDS],

    ray_reach: Vec<B>,
    ray_beyond: Vec<B>,
    ray_keys: Vec<((i8, i8), u8)>,

    /// `[(kind * 2 + colour) * squares + square]`
    pub(crate) quiet_leaps: Vec<B>,
    pub(crate) capture_leaps: Vec<B>,
    /// Squares from which a piece of that kind and colour leap-captures the square.
    pub(crate) leap_attackers: Vec<B>,
    /// `[kind * 2 + colour]`
    slides: Vec<Vec<Slide>>,
    /// `[(kind * 2 + colour) * squares + square]`
    path_leaps: Vec<Vec<PathLeap>>,
    pub has_path_leaps: bool,
    pub mechanics: MechanicFlags,
    /// What the mechanics do when a move is played and when FEN is read or written.
    pub hooks: MechanicHooks<B>,
    /// The variant has holes (`*` in FEN).
    pub allows_holes: bool,
    /// Holes and spells (`rules/spells.rs`); empty unless the variant has them.
    pub spells: SpellTables<B>,
    /// Mechanics whose attacks the quick King-move test cannot judge: King moves are then
    /// played on a copy and tested.
    pub special_attacks: bool,
    /// Per colour: kinds with leap captures.
    pub leap_attacker_kinds: [Vec<Kind>; 2],
    /// Per colour: slider attacks grouped by ray.
    pub attack_rays: [Vec<AttackRay>; 2],

    pub forward: [i32; 2],
    pub promotion_zone: [B; 2],
    /// Longest first step of a pawn standing on a square, whether it moved or not.
    pub first_steps: [Vec<u8>; 2],
    /// Longest first step of a pawn that never moved from that square.
    pub unmoved_steps: [Vec<u8>; 2],
    /// Squares whose pawns are tracked as unmoved.
    pub unmoved_squares: [B; 2],
    pub en_passant: EnPassant,
    /// Per colour: the relative 3rd rank, as a mask.
    pub third_rank: [B; 2],

    pub castles: [Vec<CastleRule<B>>; 2],
    /// Castling rights kept when a piece moves from or to the square.
    pub castle_keep: Vec<u8>,
}

fn step_index(dims: Dims, step: (i8, i8)) -> i32 {
    step.1 as i32 * dims.files as i32 + step.0 as i32
}

impl<B: Bitboard> Layout<B> {
    /// Compiles a variant's board, pieces, pawns and castling. The board must fit in `B`.
    /// Its special mechanics are compiled on top by `rules::compile`, which builds on this.
    pub fn new(variant: &'static Variant) -> Layout<B> {
        let dims = Dims {
            files: variant.files,
            ranks: variant.ranks,
        };
        let squares = dims.squares();
        assert!(squares <= B::CAPACITY, "board too large for this bitboard");
        let kinds = variant.pieces.len();
        let mut layout = Layout {
            variant,
            dims,
            squares,
            board_mask: B::first_n(squares),
            kinds,
            king: Kind(variant.king()),
            pawn: variant.pawn().map(Kind),
            is_pawn: [false; MAX_KINDS],
            light_squares: B::EMPTY,
            colour_bound: [false; MAX_KINDS],
            ray_reach: Vec::new(),
            ray_beyond: Vec::new(),
            ray_keys: Vec::new(),
            quiet_leaps: vec![B::EMPTY; kinds * 2 * squares],
            capture_leaps: vec![B::EMPTY; kinds * 2 * squares],
            leap_attackers: vec![B::EMPTY; kinds * 2 * squares],
            slides: vec![Vec::new(); kinds * 2],
            path_leaps: vec![Vec::new(); kinds * 2 * squares],
            has_path_leaps: false,
            mechanics: MechanicFlags::default(),
            hooks: MechanicHooks::none(),
            allows_holes: false,
            spells: SpellTables::default(),
            special_attacks: false,
            leap_attacker_kinds: [Vec::new(), Vec::new()],
            attack_rays: [Vec::new(), Vec::new()],
            forward: [dims.files as i32, -(dims.files as i32)],
            promotion_zone: [B::EMPTY; 2],
            first_steps: [vec![1; squares], vec![1; squares]],
            unmoved_steps: [vec![1; squares], vec![1; squares]],
            unmoved_squares: [B::EMPTY; 2],
            en_passant: variant.pawns.en_passant,
            third_rank: [B::EMPTY; 2],
            castles: [Vec::new(), Vec::new()],
            castle_keep: vec![0xF; squares],
        };
        for s in 0..squares {
            let sq = Square::new(s as u8);
            if (dims.file(sq) + dims.rank(sq)) % 2 == 1 {
                layout.light_squares |= B::from_square(sq);
            }
        }
        layout.build_piece_tables();
        layout.build_pawn_rules();
        layout.build_castling();
        layout
    }

    fn sq_bb(&self, sq: Square) -> B {
        B::from_square(sq)
    }

    /// The ray for a step and range, created on first use.
    fn ray(&mut self, step: (i8, i8), range: u8) -> RayId {
        let ascending = step_index(self.dims, step) > 0;
        if let Some(i) = self.ray_keys.iter().position(|&k| k == (step, range)) {
            return RayId {
                index: i as u32,
                ascending,
            };
        }
        self.ray_keys.push((step, range));
        let index = (self.ray_reach.len() / self.squares) as u32;
        for s in 0..self.squares {
            let sq = Square::new(s as u8);
            let mut reach = B::EMPTY;
            let mut beyond = B::EMPTY;
            let mut n = 0u32;
            let mut cur = sq;
            while let Some(next) = self.dims.offset(cur, step.0 as i32, step.1 as i32) {
                n += 1;
                beyond |= self.sq_bb(next);
                if range == 0 || n <= range as u32 {
                    reach |= self.sq_bb(next);
                }
                cur = next;
            }
            self.ray_reach.push(reach);
            self.ray_beyond.push(beyond);
        }
        RayId { index, ascending }
    }

    fn build_piece_tables(&mut self) {
        let variant = self.variant;
        let squares = self.squares;
        for (k, def) in variant.pieces.iter().enumerate() {
            self.is_pawn[k] = def.role == Role::Pawn;
            let mut bound = true;
            for color in Color::BOTH {
                let ci = k * 2 + color.index();
                let flip = if color == Color::White { 1 } else { -1 };
                for atom in &def.atoms {
                    for &(dx, dy) in &atom.steps {
                        if (dx + dy) % 2 != 0 {
                            bound = false;
                        }
                        let step = (dx, dy * flip);
                        let moves = atom.modality.moves();
                        let captures = atom.modality.captures();
                        if atom.range == 1 && atom.path == Path::Free {
                            for s in 0..squares {
                                let sq = Square::new(s as u8);
                                if let Some(t) = self.dims.offset(sq, step.0 as i32, step.1 as i32)
                                {
                                    let t_bb = self.sq_bb(t);
                                    if moves {
                                        self.quiet_leaps[ci * squares + s] |= t_bb;
                                    }
                                    if captures {
                                        self.capture_leaps[ci * squares + s] |= t_bb;
                                        self.leap_attackers[ci * squares + t.index()] |=
                                            B::from_square(sq);
                                    }
                                }
                            }
                        } else if atom.range == 1 {
                            self.has_path_leaps = true;
                            for s in 0..squares {
                                let sq = Square::new(s as u8);
                                let target = self.dims.offset(sq, step.0 as i32, step.1 as i32);
                                let middle =
                                    self.dims.offset(sq, step.0 as i32 / 2, step.1 as i32 / 2);
                                if let (Some(target), Some(middle)) = (target, middle) {
                                    self.path_leaps[ci * squares + s].push(PathLeap {
                                        target,
                                        middle,
                                        middle_empty: atom.path == Path::Lame,
                                        moves,
                                        captures,
                                    });
                                }
                            }
                        } else {
                            let ray = self.ray(step, atom.range);
                            self.slides[ci].push(Slide {
                                ray,
                                moves,
                                captures,
                            });
                            if captures {
                                let back = self.ray((-step.0, -step.1), atom.range);
                                let list = &mut self.attack_rays[color.index()];
                                match list.iter_mut().find(|a| a.ray.index == back.index) {
                                    Some(a) => a.kinds |= 1 << k,
                                    None => list.push(AttackRay {
                                        ray: back,
                                        kinds: 1 << k,
                                    }),
                                }
                            }
                        }
                    }
                }
                if (0..squares).any(|s| self.capture_leaps[ci * squares + s].any()) {
                    self.leap_attacker_kinds[color.index()].push(Kind(k as u8));
                }
            }
            self.colour_bound[k] = bound && def.role == Role::Ordinary;
        }
    }

    fn build_pawn_rules(&mut self) {
        let variant = self.variant;
        let dims = self.dims;
        for color in Color::BOTH {
            let c = color.index();
            let to_side = |(f, r): (u8, u8)| -> Square {
                let sq = dims.square(f, r);
                if color == Color::White {
                    sq
                } else {
                    dims.mirror(sq)
                }
            };
            for &r in &variant.pawns.promotion_ranks {
                for f in 0..dims.files {
                    self.promotion_zone[c] |= B::from_square(to_side((f, r)));
                }
            }
            for f in 0..dims.files {
                self.third_rank[c] |= B::from_square(to_side((f, 2.min(dims.ranks - 1))));
            }
            for m in &variant.pawns.multi_step {
                for &coord in &m.squares {
                    let sq = to_side(coord).index();
                    if m.unmoved_only {
                        self.unmoved_steps[c][sq] = self.unmoved_steps[c][sq].max(m.steps);
                        self.unmoved_squares[c] |= B::from_square(Square::new(sq as u8));
                    } else {
                        self.first_steps[c][sq] = self.first_steps[c][sq].max(m.steps);
                    }
                }
            }
        }
    }

    fn build_castling(&mut self) {
        let Some(castling) = &self.variant.castling else {
            return;
        };
        let dims = self.dims;
        for color in Color::BOTH {
            let rank = if color == Color::White {
                0
            } else {
                dims.ranks - 1
            };
            let sides = [(castling.king_side, 0u8), (castling.queen_side, 1u8)];
            for (side, bit) in sides {
                let Some(side) = side else { continue };
                let right = 1 << (color.index() * 2 + bit as usize);
                let king_from = dims.square(castling.king_file, rank);
                let king_to = dims.square(side.king_to, rank);
                let rook_from = dims.square(side.rook_from, rank);
                let rook_to = dims.square(side.rook_to, rank);
                let span = |a: u8, b: u8| -> B {
                    let (lo, hi) = (a.min(b), a.max(b));
                    (lo..=hi).fold(B::EMPTY, |acc, f| {
                        acc | B::from_square(dims.square(f, rank))
                    })
                };
                let mut must_be_empty = span(castling.king_file, side.king_to)
                    | span(side.rook_from, side.rook_to)
                    | span(castling.king_file, side.rook_from);
                must_be_empty &= !(B::from_square(king_from) | B::from_square(rook_from));
                let king_path = span(castling.king_file, side.king_to);
                self.castles[color.index()].push(CastleRule {
                    right,
                    king_from,
                    king_to,
                    rook_from,
                    rook_to,
                    must_be_empty,
                    king_path,
                });
                self.castle_keep[king_from.index()] &= !right;
                self.castle_keep[rook_from.index()] &= !right;
            }
        }
    }

    // ---- lookups used by the hot paths ----

    #[inline(always)]
    pub(crate) fn table_index(&self, kind: Kind, color: Color, sq: Square) -> usize {
        (kind.index() * 2 + color.index()) * self.squares + sq.index()
    }
    #[inline(always)]
    pub fn quiet_leaps(&self, kind: Kind, color: Color, sq: Square) -> B {
        self.quiet_leaps[self.table_index(kind, color, sq)]
    }
    #[inline(always)]
    pub fn capture_leaps(&self, kind: Kind, color: Color, sq: Square) -> B {
        self.capture_leaps[self.table_index(kind, color, sq)]
    }
    #[inline(always)]
    pub fn leap_attackers(&self, kind: Kind, color: Color, sq: Square) -> B {
        self.leap_attackers[self.table_index(kind, color, sq)]
    }
    #[inline(always)]
    pub fn slides(&self, kind: Kind, color: Color) -> &[Slide] {
        &self.slides[kind.index() * 2 + color.index()]
    }
    #[inline(always)]
    pub fn path_leaps(&self, kind: Kind, color: Color, sq: Square) -> &[PathLeap] {
        &self.path_leaps[self.table_index(kind, color, sq)]
    }

    /// The squares a ray reaches from `sq`, the first occupied one included.
    #[inline(always)]
    pub fn ray_attacks(&self, ray: RayId, sq: Square, occupied: B) -> B {
        let base = ray.index as usize * self.squares;
        let reach = self.ray_reach[base + sq.index()];
        let blockers = reach & occupied;
        if blockers.is_empty() {
            reach
        } else {
            let first = if ray.ascending {
                blockers.lowest()
            } else {
                blockers.highest()
            };
            reach & !self.ray_beyond[base + first.index()]
        }
    }

    /// The squares of a ray from `sq` on an empty board.
    #[inline(always)]
    pub fn ray_reach(&self, ray: RayId, sq: Square) -> B {
        self.ray_reach[ray.index as usize * self.squares + sq.index()]
    }

    /// The squares strictly between `sq` and a square `target` on the ray from `sq`.
    #[inline(always)]
    pub fn ray_between(&self, ray: RayId, sq: Square, target: Square) -> B {
        let base = ray.index as usize * self.squares;
        self.ray_beyond[base + sq.index()]
            & !self.ray_beyond[base + target.index()]
            & !B::from_square(target)
    }

    pub fn piece_letter(&self, kind: Kind, color: Color) -> char {
        let c = self.variant.pieces[kind.index()].letter;
        if color == Color::White {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    pub fn value(&self, kind: Kind) -> i32 {
        self.variant.pieces[kind.index()].value
    }
}
