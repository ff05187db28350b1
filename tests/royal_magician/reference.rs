//! A deliberately naive, independent move generator for Royal Magician's Chess (RULES.md §4),
//! written from the rules and sharing no code with the engine: a mailbox of letters, every
//! candidate move played on a copy and the King looked for attacks square by square.
//!
//! It tracks the drop schedule its own way too: per carrier, the number of drops made and
//! which of B/N went first; a carrier fires when its move reaches a relative rank beyond the
//! highest it has ever reached (first arrival), from the 4th up.

use crate::common::steps::{DIAGONAL, KING, KNIGHT, ORTHOGONAL};

/// A position: `board[rank * 8 + file]`, '.' for empty, upper case White.
#[derive(Clone)]
pub struct Reference {
    board: [char; 64],
    white: bool,
    /// K Q k q.
    castling: [bool; 4],
    ep: Option<(i32, i32)>,
    /// Per colour (0 White), per carrier (0 King, 1 Magician): drops made, 0 to 3 (3 also
    /// for a Magician that is gone).
    made: [[u8; 2]; 2],
    /// Per colour and carrier: the piece of the 4th-rank drop, 'B' or 'N' (if made).
    first: [[char; 2]; 2],
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn is_white(c: char) -> bool {
    c.is_ascii_uppercase()
}

impl Reference {
    pub fn from_fen(fen: &str) -> Reference {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (placement, reserve) = match fields[0].find('[') {
            Some(i) => (
                &fields[0][..i],
                Some(&fields[0][i + 1..fields[0].len() - 1]),
            ),
            None => (fields[0], None),
        };
        let mut board = ['.'; 64];
        for (i, row) in placement.split('/').enumerate() {
            let r = 7 - i;
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as usize;
                } else {
                    board[r * 8 + f] = c;
                    f += 1;
                }
            }
        }
        let castling_text = fields.get(2).copied().unwrap_or("-");
        let castling = ['K', 'Q', 'k', 'q'].map(|c| castling_text.contains(c));
        let ep = fields.get(3).filter(|&&e| e != "-").map(|e| {
            let b = e.as_bytes();
            ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
        });
        let mut pos = Reference {
            board,
            white: fields[1] == "w",
            castling,
            ep,
            made: [[3; 2]; 2],
            first: [['B'; 2]; 2],
        };
        for (c, carrier) in [(0, 'K'), (0, 'M'), (1, 'k'), (1, 'm')] {
            let index = usize::from(carrier.eq_ignore_ascii_case(&'M'));
            let left: Option<String> = match reserve {
                None => board.contains(&carrier).then(|| "BNR".to_string()),
                Some(text) => text
                    .split(',')
                    .find(|g| g.starts_with(carrier))
                    .map(|g| g[1..].to_ascii_uppercase()),
            };
            let left = left.unwrap_or_default();
            pos.made[c][index] = 3 - left.len() as u8;
            pos.first[c][index] = if left.contains('B') { 'N' } else { 'B' };
        }
        pos
    }

    fn at(&self, f: i32, r: i32) -> char {
        self.board[(r * 8 + f) as usize]
    }

    fn set(&mut self, f: i32, r: i32, c: char) {
        self.board[(r * 8 + f) as usize] = c;
    }

    fn own(&self, c: char) -> bool {
        c != '.' && is_white(c) == self.white
    }

    fn enemy(&self, c: char) -> bool {
        c != '.' && is_white(c) != self.white
    }

    /// Is the square attacked by a piece of the given colour?
    fn attacked(&self, f: i32, r: i32, by_white: bool) -> bool {
        let mine = |c: char| c != '.' && is_white(c) == by_white;
        let is = |c: char, letter: char| mine(c) && c.to_ascii_uppercase() == letter;
        let pawn_rank = if by_white { r - 1 } else { r + 1 };
        for df in [-1, 1] {
            if on_board(f + df, pawn_rank) && is(self.at(f + df, pawn_rank), 'P') {
                return true;
            }
        }
        for (df, dr) in KNIGHT {
            if on_board(f + df, r + dr) && is(self.at(f + df, r + dr), 'N') {
                return true;
            }
        }
        for (df, dr) in KING {
            let c = if on_board(f + df, r + dr) {
                self.at(f + df, r + dr)
            } else {
                '.'
            };
            if is(c, 'K') || is(c, 'M') {
                return true;
            }
        }
        for (dirs, letter) in [(ORTHOGONAL, 'R'), (DIAGONAL, 'B')] {
            for (df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while on_board(x, y) {
                    let c = self.at(x, y);
                    if c != '.' {
                        if is(c, letter) || is(c, 'Q') {
                            return true;
                        }
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        }
        false
    }

    fn king_square(&self, white: bool) -> (i32, i32) {
        let king = if white { 'K' } else { 'k' };
        let i = self.board.iter().position(|&c| c == king).unwrap() as i32;
        (i % 8, i / 8)
    }

    fn relative_rank(&self, r: i32) -> i32 {
        if self.white { r + 1 } else { 8 - r }
    }

    /// The legal moves, in wire notation, with the position after each.
    pub fn legal_moves(&self) -> Vec<(String, Reference)> {
        let mut out = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let c = self.at(f, r);
                if self.own(c) {
                    self.piece_moves(f, r, c.to_ascii_uppercase(), &mut out);
                }
            }
        }
        self.castlings(&mut out);
        let us = self.white;
        out.retain(|(_, next)| {
            let (kf, kr) = next.king_square(us);
            !next.attacked(kf, kr, !us)
        });
        out
    }

    fn piece_moves(&self, f: i32, r: i32, letter: char, out: &mut Vec<(String, Reference)>) {
        let mut targets = Vec::new();
        let mut slide = |dirs: &[(i32, i32)], range: i32| {
            for &(df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                let mut n = 0;
                while on_board(x, y) && n < range {
                    let c = self.at(x, y);
                    if self.own(c) {
                        break;
                    }
                    targets.push((x, y));
                    if c != '.' {
                        break;
                    }
                    x += df;
                    y += dr;
                    n += 1;
                }
            }
        };
        match letter {
            'P' => return self.pawn_moves(f, r, out),
            'N' => slide(&KNIGHT, 1),
            'B' => slide(&DIAGONAL, 8),
            'R' => slide(&ORTHOGONAL, 8),
            'Q' => {
                slide(&ORTHOGONAL, 8);
                slide(&DIAGONAL, 8);
            }
            'K' | 'M' => slide(&KING, 1),
            _ => unreachable!("unknown piece {letter}"),
        }
        for (x, y) in targets {
            let next = self.after(f, r, x, y, None);
            let wire = format!("{}{}", name(f, r), name(x, y));
            if letter == 'K' || letter == 'M' {
                self.with_drops(wire, letter, y, next, out);
            } else {
                out.push((wire, next));
            }
        }
    }

    fn pawn_moves(&self, f: i32, r: i32, out: &mut Vec<(String, Reference)>) {
        let dir = if self.white { 1 } else { -1 };
        let start = if self.white { 1 } else { 6 };
        let last = if self.white { 7 } else { 0 };
        let add = |x: i32, y: i32, out: &mut Vec<(String, Reference)>| {
            let wire = format!("{}{}", name(f, r), name(x, y));
            if y == last {
                for p in ['q', 'r', 'b', 'n'] {
                    out.push((format!("{wire}{p}"), self.after(f, r, x, y, Some(p))));
                }
            } else {
                out.push((wire, self.after(f, r, x, y, None)));
            }
        };
        if on_board(f, r + dir) && self.at(f, r + dir) == '.' {
            add(f, r + dir, out);
            if r == start && self.at(f, r + 2 * dir) == '.' {
                add(f, r + 2 * dir, out);
            }
        }
        for df in [-1, 1] {
            let (x, y) = (f + df, r + dir);
            if !on_board(x, y) {
                continue;
            }
            if self.enemy(self.at(x, y)) || self.ep == Some((x, y)) {
                add(x, y, out);
            }
        }
    }

    fn castlings(&self, out: &mut Vec<(String, Reference)>) {
        let (r, rights) = if self.white { (0, [0, 1]) } else { (7, [2, 3]) };
        let king = if self.white { 'K' } else { 'k' };
        if self.at(4, r) != king || self.attacked(4, r, !self.white) {
            return;
        }
        // (right, rook file, squares that must be empty, squares the King crosses, King's file)
        let sides = [
            (rights[0], 7, vec![5, 6], vec![5, 6], 6),
            (rights[1], 0, vec![1, 2, 3], vec![3, 2], 2),
        ];
        for (right, rook_file, empty, path, king_to) in sides {
            if !self.castling[right]
                || empty.iter().any(|&x| self.at(x, r) != '.')
                || path.iter().any(|&x| self.attacked(x, r, !self.white))
            {
                continue;
            }
            let mut next = self.after(4, r, king_to, r, None);
            let rook = next.at(rook_file, r);
            next.set(rook_file, r, '.');
            next.set(if rook_file == 7 { 5 } else { 3 }, r, rook);
            out.push((format!("{}{}", name(4, r), name(king_to, r)), next));
        }
    }

    /// A carrier's move: as it is, or, if it fires a drop, once per piece and empty square.
    fn with_drops(
        &self,
        wire: String,
        letter: char,
        to_rank: i32,
        next: Reference,
        out: &mut Vec<(String, Reference)>,
    ) {
        let c = usize::from(!self.white);
        let carrier = usize::from(letter == 'M');
        let made = self.made[c][carrier];
        let highest_reached = 3 + made as i32;
        let arrived = self.relative_rank(to_rank);
        if made >= 3 || arrived <= highest_reached {
            out.push((wire, next));
            return;
        }
        let pieces: Vec<char> = match made {
            0 => vec!['B', 'N'],
            1 => vec![if self.first[c][carrier] == 'B' {
                'N'
            } else {
                'B'
            }],
            _ => vec!['R'],
        };
        for p in pieces {
            for i in 0..64 {
                if next.board[i] != '.' {
                    continue;
                }
                let mut dropped = next.clone();
                dropped.board[i] = if self.white {
                    p
                } else {
                    p.to_ascii_lowercase()
                };
                dropped.made[c][carrier] = made + 1;
                if made == 0 {
                    dropped.first[c][carrier] = p;
                }
                let sq = name(i as i32 % 8, i as i32 / 8);
                out.push((format!("{wire},{}@{sq}", p.to_ascii_lowercase()), dropped));
            }
        }
    }

    /// The position after moving the piece on (f, r) to (x, y), side to move switched.
    fn after(&self, f: i32, r: i32, x: i32, y: i32, promotion: Option<char>) -> Reference {
        let mut next = self.clone();
        let piece = self.at(f, r);
        let captured = self.at(x, y);
        next.set(f, r, '.');
        let placed = match promotion {
            Some(p) if self.white => p.to_ascii_uppercase(),
            Some(p) => p,
            None => piece,
        };
        next.set(x, y, placed);
        next.ep = None;
        if piece.eq_ignore_ascii_case(&'P') {
            if Some((x, y)) == self.ep {
                next.set(x, r, '.');
            }
            if (y - r).abs() == 2 {
                next.ep = Some((x, (y + r) / 2));
            }
        }
        if captured.eq_ignore_ascii_case(&'M') {
            // A captured Magician's reserve is lost.
            next.made[usize::from(is_white(piece))][1] = 3;
        }
        for (right, square) in [(0, (7, 0)), (1, (0, 0)), (2, (7, 7)), (3, (0, 7))] {
            if (f, r) == square || (x, y) == square {
                next.castling[right] = false;
            }
        }
        if piece == 'K' {
            next.castling[0] = false;
            next.castling[1] = false;
        }
        if piece == 'k' {
            next.castling[2] = false;
            next.castling[3] = false;
        }
        next.white = !self.white;
        next
    }

    pub fn perft(&self, depth: u32) -> u64 {
        crate::common::model_perft(self, depth, &Self::legal_moves)
    }

    /// The FEN's side, castling and en-passant fields. An e.p. square is written only when a
    /// pawn of the side to move attacks it (the convention the engine's FEN follows).
    pub fn side_castling_and_ep(&self) -> String {
        let side = if self.white { "w" } else { "b" };
        let castling = crate::common::castling_field(self.castling);
        let ep = match self.ep {
            Some((x, y)) => {
                let (pawn, from) = if self.white {
                    ('P', y - 1)
                } else {
                    ('p', y + 1)
                };
                let attacked = [x - 1, x + 1]
                    .iter()
                    .any(|&f| (0..8).contains(&f) && self.at(f, from) == pawn);
                if attacked {
                    format!("{}{}", (b'a' + x as u8) as char, y + 1)
                } else {
                    "-".to_string()
                }
            }
            None => "-".to_string(),
        };
        format!("{side} {castling} {ep}")
    }

    /// The board and reserve as the FEN's first field: `<board>[<groups>]`.
    pub fn board_and_reserve(&self) -> String {
        let mut out = String::new();
        for r in (0..8).rev() {
            out +=
                &crate::common::fen_row((0..8).map(|f| Some(self.at(f, r)).filter(|&c| c != '.')));
            if r > 0 {
                out.push('/');
            }
        }
        let mut groups = Vec::new();
        for (c, carrier) in [(0, 'K'), (0, 'M'), (1, 'k'), (1, 'm')] {
            let index = usize::from(carrier.eq_ignore_ascii_case(&'M'));
            let made = self.made[c][index];
            if made >= 3 || !self.board.contains(&carrier) {
                continue;
            }
            let left = match made {
                0 => "BNR",
                1 if self.first[c][index] == 'B' => "NR",
                1 => "BR",
                _ => "R",
            };
            let left = if c == 0 {
                left.to_string()
            } else {
                left.to_ascii_lowercase()
            };
            groups.push(format!("{carrier}{left}"));
        }
        let groups = if groups.is_empty() {
            "-".to_string()
        } else {
            groups.join(",")
        };
        format!("{out}[{groups}]")
    }
}
