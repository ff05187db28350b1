//! A second, deliberately naive model of Magician Chess (RULES.md §3), written from the rules
//! and sharing no code with the engine: a board of characters, moves found by walking
//! offsets, legality by playing the move and looking for any attack on the King. The tests
//! compare the engine's legal moves and the positions after them with this model.
//!
//! Letters: P pawn, N knight, M magician, R rook, C = R+N, S = R+M, W = N+M, K king; upper
//! case White. `*` is a hole. Wire moves as the engine writes them.

use std::collections::BTreeMap;

use crate::common::steps::{ALFIL, DABBABA, DIAGONAL, KING, KNIGHT, ORTHOGONAL, join};

const FILES: i32 = 7;
const RANKS: i32 = 7;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Hole,
    Piece(char),
}

#[derive(Clone, Debug)]
pub struct Board {
    cells: [Cell; 49],
    white_to_move: bool,
    /// K Q k q: f-side and b-side rights of White, then of Black.
    rights: [bool; 4],
    ep: Option<(i32, i32)>,
    halfmove: u32,
    fullmove: u32,
}

/// Where a caster reaches a hole: ferz and dabbaba steps.
const SPELL_RANGE: [(i32, i32); 8] = join(DIAGONAL, DABBABA);

fn on_board(f: i32, r: i32) -> bool {
    (0..FILES).contains(&f) && (0..RANKS).contains(&r)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn is_white(c: char) -> bool {
    c.is_ascii_uppercase()
}

fn slides(c: char) -> bool {
    matches!(c.to_ascii_uppercase(), 'R' | 'C' | 'S')
}
fn knight_part(c: char) -> bool {
    matches!(c.to_ascii_uppercase(), 'N' | 'C' | 'W')
}
fn magician_part(c: char) -> bool {
    matches!(c.to_ascii_uppercase(), 'M' | 'S' | 'W')
}

impl Board {
    pub fn from_fen(fen: &str) -> Board {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut cells = [Cell::Empty; 49];
        for (i, row) in fields[0].split('/').enumerate() {
            let r = RANKS - 1 - i as i32;
            let mut f = 0;
            for c in row.chars() {
                if let Some(n) = c.to_digit(10) {
                    f += n as i32;
                } else {
                    cells[(r * FILES + f) as usize] =
                        if c == '*' { Cell::Hole } else { Cell::Piece(c) };
                    f += 1;
                }
            }
        }
        let rights = ['K', 'Q', 'k', 'q'].map(|c| fields[2].contains(c));
        let ep = (fields[3] != "-").then(|| {
            let b = fields[3].as_bytes();
            ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
        });
        Board {
            cells,
            white_to_move: fields[1] == "w",
            rights,
            ep,
            halfmove: fields[4].parse().unwrap(),
            fullmove: fields[5].parse().unwrap(),
        }
    }

    pub fn to_fen(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..RANKS).rev() {
            let cells = (0..FILES).map(|f| match self.at(f, r) {
                Cell::Empty => None,
                Cell::Hole => Some('*'),
                Cell::Piece(p) => Some(p),
            });
            rows.push(crate::common::fen_row(cells));
        }
        let rights = crate::common::castling_field(self.rights);
        format!(
            "{} {} {} {} {} {}",
            rows.join("/"),
            if self.white_to_move { "w" } else { "b" },
            rights,
            self.ep.map_or("-".to_string(), |(f, r)| name(f, r)),
            self.halfmove,
            self.fullmove
        )
    }

    fn at(&self, f: i32, r: i32) -> Cell {
        self.cells[(r * FILES + f) as usize]
    }
    fn set(&mut self, f: i32, r: i32, cell: Cell) {
        self.cells[(r * FILES + f) as usize] = cell;
    }
    fn piece(&self, f: i32, r: i32) -> Option<char> {
        match self.at(f, r) {
            Cell::Piece(c) => Some(c),
            _ => None,
        }
    }
    fn enemy(&self, f: i32, r: i32, white: bool) -> bool {
        self.piece(f, r).is_some_and(|c| is_white(c) != white)
    }
    fn empty(&self, f: i32, r: i32) -> bool {
        self.at(f, r) == Cell::Empty
    }

    fn king(&self, white: bool) -> (i32, i32) {
        let k = if white { 'K' } else { 'k' };
        (0..49)
            .map(|i| (i % FILES, i / FILES))
            .find(|&(f, r)| self.piece(f, r) == Some(k))
            .expect("a king")
    }

    /// Is (f, r) attacked by the side `by_white`: could one of its pieces capture there, or
    /// one of its casters drop a piece standing there?
    pub fn attacked(&self, f: i32, r: i32, by_white: bool) -> bool {
        let theirs = |pf: i32, pr: i32, test: &dyn Fn(char) -> bool| {
            on_board(pf, pr)
                && self
                    .piece(pf, pr)
                    .is_some_and(|c| is_white(c) == by_white && test(c))
        };
        // Pawns capture forward diagonally: they stand one rank behind, seen from them.
        let behind = if by_white { -1 } else { 1 };
        for df in [-1, 1] {
            if theirs(f + df, r + behind, &|c| c.eq_ignore_ascii_case(&'P')) {
                return true;
            }
        }
        for (df, dr) in KNIGHT {
            if theirs(f + df, r + dr, &knight_part) {
                return true;
            }
        }
        for (df, dr) in KING {
            if theirs(f + df, r + dr, &|c| c.eq_ignore_ascii_case(&'K')) {
                return true;
            }
        }
        for (df, dr) in ORTHOGONAL {
            let (mut x, mut y) = (f + df, r + dr);
            while on_board(x, y) && self.empty(x, y) {
                x += df;
                y += dr;
            }
            if on_board(x, y) && theirs(x, y, &slides) {
                return true;
            }
        }
        for (df, dr) in ORTHOGONAL {
            let (hf, hr) = (f + df, r + dr);
            if !on_board(hf, hr) || self.at(hf, hr) != Cell::Hole {
                continue;
            }
            for (cf, cr) in SPELL_RANGE {
                if theirs(hf + cf, hr + cr, &magician_part) {
                    return true;
                }
            }
        }
        false
    }

    fn in_check(&self, white: bool) -> bool {
        let (f, r) = self.king(white);
        self.attacked(f, r, !white)
    }

    /// Every legal move, by wire notation, with the position after it.
    pub fn legal_moves(&self) -> BTreeMap<String, Board> {
        let white = self.white_to_move;
        let mut out = BTreeMap::new();
        for (wire, next) in self.pseudo_moves() {
            if !next.in_check(white) {
                let previous = out.insert(wire.clone(), next);
                assert!(previous.is_none(), "the model made {wire} twice");
            }
        }
        out
    }

    fn pseudo_moves(&self) -> Vec<(String, Board)> {
        let white = self.white_to_move;
        let mut moves = Vec::new();
        for r in 0..RANKS {
            for f in 0..FILES {
                let Some(c) = self.piece(f, r) else { continue };
                if is_white(c) != white {
                    continue;
                }
                let mut to_squares = Vec::new();
                let upper = c.to_ascii_uppercase();
                if upper == 'P' {
                    self.pawn_moves(f, r, &mut moves);
                    continue;
                }
                if upper == 'K' {
                    for (df, dr) in KING {
                        let (x, y) = (f + df, r + dr);
                        if on_board(x, y) && (self.empty(x, y) || self.enemy(x, y, white)) {
                            to_squares.push((x, y));
                        }
                    }
                }
                if slides(c) {
                    for (df, dr) in ORTHOGONAL {
                        let (mut x, mut y) = (f + df, r + dr);
                        while on_board(x, y) && self.empty(x, y) {
                            to_squares.push((x, y));
                            x += df;
                            y += dr;
                        }
                        if on_board(x, y) && self.enemy(x, y, white) {
                            to_squares.push((x, y));
                        }
                    }
                }
                if knight_part(c) {
                    for (df, dr) in KNIGHT {
                        let (x, y) = (f + df, r + dr);
                        if on_board(x, y) && (self.empty(x, y) || self.enemy(x, y, white)) {
                            to_squares.push((x, y));
                        }
                    }
                }
                if magician_part(c) {
                    // The Magician's own moves never capture; the Rook part of S already
                    // has the orthogonal step.
                    let mut quiet: Vec<(i32, i32)> = ALFIL.to_vec();
                    if upper != 'S' {
                        quiet.extend(ORTHOGONAL);
                    }
                    for (df, dr) in quiet {
                        let (x, y) = (f + df, r + dr);
                        if on_board(x, y) && self.empty(x, y) {
                            to_squares.push((x, y));
                        }
                    }
                }
                to_squares.sort();
                to_squares.dedup();
                for (x, y) in to_squares {
                    let mut next = self.clone();
                    next.set(x, y, Cell::Piece(c));
                    next.set(f, r, Cell::Empty);
                    let capture = self.piece(x, y).is_some();
                    next.finish(&[(f, r), (x, y)], capture, None);
                    moves.push((format!("{}{}", name(f, r), name(x, y)), next));
                }
            }
        }
        self.castling_moves(&mut moves);
        self.spells(&mut moves);
        moves
    }

    fn pawn_moves(&self, f: i32, r: i32, moves: &mut Vec<(String, Board)>) {
        let white = self.white_to_move;
        let c = self.piece(f, r).unwrap();
        let dir = if white { 1 } else { -1 };
        let relative_rank = if white { r } else { RANKS - 1 - r };
        let last = if white { RANKS - 1 } else { 0 };
        let mut add = |x: i32, y: i32, ep_capture: bool, passed: Option<(i32, i32)>| {
            let mut next = self.clone();
            next.set(f, r, Cell::Empty);
            if ep_capture {
                next.set(x, r, Cell::Empty);
            }
            let base = format!("{}{}", name(f, r), name(x, y));
            if y == last {
                for promoted in ['C', 'S', 'W'] {
                    let mut promo = next.clone();
                    let p = if white {
                        promoted
                    } else {
                        promoted.to_ascii_lowercase()
                    };
                    promo.set(x, y, Cell::Piece(p));
                    promo.finish(&[(f, r), (x, y)], true, None);
                    moves.push((format!("{base}{}", promoted.to_ascii_lowercase()), promo));
                }
            } else {
                next.set(x, y, Cell::Piece(c));
                next.finish(&[(f, r), (x, y)], true, passed);
                moves.push((base, next));
            }
        };
        let one = r + dir;
        if on_board(f, one) && self.empty(f, one) {
            add(f, one, false, None);
            let two = one + dir;
            if relative_rank <= 1 && on_board(f, two) && self.empty(f, two) {
                add(f, two, false, Some((f, one)));
            }
        }
        for df in [-1, 1] {
            let (x, y) = (f + df, r + dir);
            if !on_board(x, y) {
                continue;
            }
            if self.enemy(x, y, white) {
                add(x, y, false, None);
            } else if self.ep == Some((x, y)) {
                add(x, y, true, None);
            }
        }
    }

    fn castling_moves(&self, moves: &mut Vec<(String, Board)>) {
        let white = self.white_to_move;
        let rank = if white { 0 } else { RANKS - 1 };
        let offset = if white { 0 } else { 2 };
        // (right, king to, rook from, rook to, squares that must be empty, square crossed)
        let sides = [(0, 5, 6, 4, [4, 5], 4), (1, 1, 0, 2, [1, 2], 2)];
        for (right, king_to, rook_from, rook_to, between, crossed) in sides {
            if !self.rights[offset + right]
                || !between.iter().all(|&x| self.empty(x, rank))
                || self.in_check(white)
                || self.attacked(crossed, rank, !white)
            {
                continue;
            }
            let mut next = self.clone();
            let king = self.piece(3, rank).unwrap();
            let rook = self.piece(rook_from, rank).unwrap();
            next.set(3, rank, Cell::Empty);
            next.set(rook_from, rank, Cell::Empty);
            next.set(king_to, rank, Cell::Piece(king));
            next.set(rook_to, rank, Cell::Piece(rook));
            next.finish(&[(3, rank), (rook_from, rank)], false, None);
            moves.push((format!("{}{}", name(3, rank), name(king_to, rank)), next));
        }
    }

    fn spells(&self, moves: &mut Vec<(String, Board)>) {
        let white = self.white_to_move;
        let mut holes = Vec::new();
        for r in 0..RANKS {
            for f in 0..FILES {
                if !self
                    .piece(f, r)
                    .is_some_and(|c| is_white(c) == white && magician_part(c))
                {
                    continue;
                }
                for (df, dr) in SPELL_RANGE {
                    let (x, y) = (f + df, r + dr);
                    if on_board(x, y) && self.at(x, y) == Cell::Hole && !holes.contains(&(x, y)) {
                        holes.push((x, y));
                    }
                }
            }
        }
        for (hf, hr) in holes {
            for (df, dr) in ORTHOGONAL {
                let (sf, sr) = (hf + df, hr + dr);
                if !on_board(sf, sr) || self.at(sf, sr) == Cell::Hole {
                    continue;
                }
                let wire = format!("{}{}", name(hf, hr), name(sf, sr));
                let carried = self.piece(sf, sr);
                let mut carry = self.clone();
                carry.set(hf, hr, self.at(sf, sr));
                carry.set(sf, sr, Cell::Hole);
                carry.finish(&[(hf, hr), (sf, sr)], false, None);
                moves.push((wire.clone(), carry));
                if carried.is_some_and(|c| !c.eq_ignore_ascii_case(&'K')) {
                    let mut drop = self.clone();
                    drop.set(hf, hr, Cell::Empty);
                    drop.set(sf, sr, Cell::Hole);
                    drop.finish(&[(hf, hr), (sf, sr)], true, None);
                    moves.push((format!("{wire}x"), drop));
                }
            }
        }
    }

    /// The bookkeeping after any move: castling rights of the squares touched, clocks, e.p.
    fn finish(&mut self, touched: &[(i32, i32)], resets_clock: bool, passed: Option<(i32, i32)>) {
        for &(f, r) in touched {
            for (rank, offset) in [(0, 0), (RANKS - 1, 2)] {
                if r != rank {
                    continue;
                }
                match f {
                    3 => {
                        self.rights[offset] = false;
                        self.rights[offset + 1] = false;
                    }
                    6 => self.rights[offset] = false,
                    0 => self.rights[offset + 1] = false,
                    _ => {}
                }
            }
        }
        self.halfmove = if resets_clock { 0 } else { self.halfmove + 1 };
        if !self.white_to_move {
            self.fullmove += 1;
        }
        // The passed square is kept only when an enemy pawn could take on it (as the engine
        // does, so that equal positions have equal FENs).
        let mover = self.white_to_move;
        self.ep = passed.filter(|&(f, r)| {
            let enemy_pawn = if mover { 'p' } else { 'P' };
            let from_rank = if mover { r + 1 } else { r - 1 };
            [-1, 1].iter().any(|df| {
                on_board(f + df, from_rank) && self.piece(f + df, from_rank) == Some(enemy_pawn)
            })
        });
        self.white_to_move = !self.white_to_move;
    }
}
