//! A second, deliberately naive model of chess, Magi, Magician's Deathmatch and its legacy
//! rules (RULES.md §1, §2), sharing no state and no code with the engine: a vector of
//! letters read from the FEN text, moves found by walking each Betza atom square by square,
//! its own move making and bookkeeping (castling rights, e.p. targets and the pawn they
//! remove, Magi's unmoved d3/g3/d8/g8 pawns, the legacy swap count, clocks), legality by
//! playing the move on a copy and looking for any attack on the mover's King.
//!
//! From the engine it takes only the variant definition (`magus::variant`): board size,
//! letters, the pieces' Betza atoms, the pawn, castling and promotion data and the mechanics'
//! parameters. The rules themselves (what e.p. targets a move leaves, which rights it ends,
//! what a swap, a 6th-rank trigger or a Transference does) are written here from RULES.md.
//!
//! Squares are `(file, rank)` from 0, White's side; Black's steps are White's with the rank
//! offset negated. Moves are named as the engine writes them on the wire (ranks from 1).

use magus::variant::betza::Path;
use magus::variant::{EnPassant, PieceDef, RankPromotionChoice, Role, Variant};

type Sq = (i32, i32);

const EMPTY: char = '.';

#[derive(Clone, Debug)]
pub struct Board {
    variant: &'static Variant,
    /// `cells[rank * files + file]`: a FEN letter (upper case White) or '.'.
    cells: Vec<char>,
    white_to_move: bool,
    /// K Q k q.
    castling: [bool; 4],
    /// Where the pawn that just moved can be taken en passant, kept only where a pawn of the
    /// side to move could take (the FEN convention), in square order.
    ep_targets: Vec<Sq>,
    /// The pawn that such a capture removes.
    ep_victim: Option<Sq>,
    /// Pawns on the squares where first moves depend on never having moved (Magi's d3, g3,
    /// d8, g8) that have not moved yet.
    unmoved: Vec<Sq>,
    /// Swaps made by White and by Black (counted only when the variant limits them).
    swaps: [u8; 2],
    halfmove: u32,
    fullmove: u32,
}

/// One move, before it is made: what goes where, and its side effects.
struct Plan {
    from: Sq,
    to: Sq,
    /// What stands on `to` afterwards (the piece, or what it promoted to).
    placed: char,
    /// The pawn an e.p. capture removes.
    ep_capture: Option<Sq>,
    /// Castling: the rook's move.
    rook: Option<(Sq, Sq)>,
    /// A piece elsewhere that becomes another (Deathmatch's 6th-rank promotion).
    transform: Option<(Sq, char)>,
    /// A swap-in: the piece on `from` (= `to`) becomes `placed`.
    swap: bool,
}

fn name(sq: Sq) -> String {
    format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
}

/// Squares in the order FEN lists them: by rank, then by file.
fn in_square_order(list: &mut [Sq]) {
    list.sort_by_key(|&(f, r)| (r, f));
}

fn is_white(c: char) -> bool {
    c.is_ascii_uppercase()
}

fn colored(letter: char, white: bool) -> char {
    if white {
        letter.to_ascii_uppercase()
    } else {
        letter.to_ascii_lowercase()
    }
}

impl Board {
    /// Reads a FEN of `variant`; the reference panics on a FEN it cannot read (it is only
    /// given the start position and positions of hand tests).
    pub fn from_fen(variant: &'static Variant, fen: &str) -> Board {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let files = variant.files as i32;
        let ranks = variant.ranks as i32;
        let mut cells = vec![EMPTY; (files * ranks) as usize];
        let rows: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(rows.len() as i32, ranks, "{fen}: rank count");
        for (i, row) in rows.iter().enumerate() {
            let r = ranks - 1 - i as i32;
            let mut f = 0;
            let mut run = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as i32;
                    continue;
                }
                f += run;
                run = 0;
                cells[(r * files + f) as usize] = c;
                f += 1;
            }
            assert_eq!(f + run, files, "{fen}: rank {}", r + 1);
        }
        let castling_text = fields.get(2).copied().unwrap_or("-");
        let mut board = Board {
            variant,
            cells,
            white_to_move: fields[1] == "w",
            castling: ['K', 'Q', 'k', 'q'].map(|c| castling_text.contains(c)),
            ep_targets: Vec::new(),
            ep_victim: None,
            unmoved: Vec::new(),
            swaps: [0; 2],
            halfmove: fields.get(4).map_or(0, |t| t.parse().unwrap()),
            fullmove: fields.get(5).map_or(1, |t| t.parse().unwrap()),
        };
        if let Some(&ep) = fields.get(3).filter(|&&e| e != "-") {
            board.ep_targets = ep.split(',').map(|s| board.parse_square(s)).collect();
            board.ep_victim = Some(board.victim_beyond_targets());
            in_square_order(&mut board.ep_targets);
        }
        board.unmoved = board.default_unmoved();
        for token in fields.iter().skip(6) {
            match token.split_once('=') {
                Some(("unmoved", "-")) => board.unmoved.clear(),
                Some(("unmoved", list)) => {
                    board.unmoved = list.split(',').map(|s| board.parse_square(s)).collect();
                    in_square_order(&mut board.unmoved);
                }
                Some(("swaps", digits)) => {
                    let d: Vec<u8> = digits.bytes().map(|b| b - b'0').collect();
                    board.swaps = [d[0], d[1]];
                }
                _ => panic!("{fen}: the reference does not read '{token}'"),
            }
        }
        board
    }

    /// The FEN, written by the engine's conventions: e.p. squares joined by ',' in square
    /// order, `unmoved=` only when it differs from "every pawn on a tracked square", `swaps=WB`
    /// once a limited swap has been made.
    pub fn to_fen(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..self.ranks()).rev() {
            let cells = (0..self.files()).map(|f| Some(self.at((f, r))).filter(|&c| c != EMPTY));
            rows.push(crate::common::fen_row(cells));
        }
        let rights = crate::common::castling_field(self.castling);
        let list = |squares: &[Sq]| {
            if squares.is_empty() {
                "-".to_string()
            } else {
                squares
                    .iter()
                    .map(|&s| name(s))
                    .collect::<Vec<_>>()
                    .join(",")
            }
        };
        let mut fen = format!(
            "{} {} {} {} {} {}",
            rows.join("/"),
            if self.white_to_move { "w" } else { "b" },
            rights,
            list(&self.ep_targets),
            self.halfmove,
            self.fullmove
        );
        if self.unmoved != self.default_unmoved() {
            fen += &format!(" unmoved={}", list(&self.unmoved));
        }
        if self.swap_limit() > 0 && self.swaps != [0, 0] {
            fen += &format!(" swaps={}{}", self.swaps[0], self.swaps[1]);
        }
        fen
    }

    // ---- the board ----

    fn files(&self) -> i32 {
        self.variant.files as i32
    }
    fn ranks(&self) -> i32 {
        self.variant.ranks as i32
    }
    fn on_board(&self, sq: Sq) -> bool {
        (0..self.files()).contains(&sq.0) && (0..self.ranks()).contains(&sq.1)
    }
    fn at(&self, sq: Sq) -> char {
        self.cells[(sq.1 * self.files() + sq.0) as usize]
    }
    fn set(&mut self, sq: Sq, c: char) {
        let files = self.files();
        self.cells[(sq.1 * files + sq.0) as usize] = c;
    }
    fn squares(&self) -> impl Iterator<Item = Sq> + use<> {
        let (files, ranks) = (self.files(), self.ranks());
        (0..ranks).flat_map(move |r| (0..files).map(move |f| (f, r)))
    }
    fn parse_square(&self, text: &str) -> Sq {
        let file = (text.as_bytes()[0] - b'a') as i32;
        let rank: i32 = text[1..].parse().unwrap();
        (file, rank - 1)
    }
    /// A rank counted from `white`'s side, from 0.
    fn relative_rank(&self, rank: i32, white: bool) -> i32 {
        if white { rank } else { self.ranks() - 1 - rank }
    }
    /// A square given from White's side, seen from `white`'s side.
    fn own_side(&self, (f, r): (u8, u8), white: bool) -> Sq {
        (f as i32, self.relative_rank(r as i32, white))
    }

    fn def(&self, c: char) -> &'static PieceDef {
        let upper = c.to_ascii_uppercase();
        self.variant
            .pieces
            .iter()
            .find(|p| p.letter == upper)
            .unwrap_or_else(|| panic!("'{c}' is not a piece of {}", self.variant.name))
    }
    fn letter(&self, kind: u8) -> char {
        self.variant.pieces[kind as usize].letter
    }
    fn role_letter(&self, role: Role) -> Option<char> {
        self.variant
            .pieces
            .iter()
            .find(|p| p.role == role)
            .map(|p| p.letter)
    }
    fn is_pawn(&self, c: char) -> bool {
        c != EMPTY && self.def(c).role == Role::Pawn
    }
    fn mine(&self, c: char, white: bool) -> bool {
        c != EMPTY && is_white(c) == white
    }
    fn has(&self, c: char) -> bool {
        self.cells.contains(&c)
    }

    /// Unmoved pawns as FEN leaves them out: every pawn of a side on its tracked squares.
    fn default_unmoved(&self) -> Vec<Sq> {
        let mut out = Vec::new();
        for white in [true, false] {
            for sq in self.tracked_squares(white) {
                if self.is_pawn(self.at(sq)) && is_white(self.at(sq)) == white {
                    out.push(sq);
                }
            }
        }
        in_square_order(&mut out);
        out
    }
    fn tracked_squares(&self, white: bool) -> Vec<Sq> {
        let mut out = Vec::new();
        for m in &self.variant.pawns.multi_step {
            if m.unmoved_only {
                out.extend(m.squares.iter().map(|&c| self.own_side(c, white)));
            }
        }
        out
    }

    /// The e.p. victim of a FEN: the mover's pawn on the targets' file, beyond the farthest
    /// target, past any squares it crossed that nobody can take on.
    fn victim_beyond_targets(&self) -> Sq {
        let mover_white = !self.white_to_move;
        let forward = if mover_white { 1 } else { -1 };
        let farthest = *self
            .ep_targets
            .iter()
            .max_by_key(|&&(_, r)| r * forward)
            .unwrap();
        let mut sq = farthest;
        loop {
            sq = (sq.0, sq.1 + forward);
            assert!(self.on_board(sq), "no pawn beyond the e.p. targets");
            let c = self.at(sq);
            if c != EMPTY {
                assert!(self.is_pawn(c) && is_white(c) == mover_white);
                return sq;
            }
        }
    }

    // ---- attacks ----

    /// Walks the atoms of the piece `c` on `from`: calls `visit(target, occupied)` for every
    /// square it could move to (`captures` false) or capture on (`captures` true), if that
    /// square were empty / held an enemy. Returns early when `visit` returns true.
    fn walk(&self, from: Sq, c: char, captures: bool, visit: &mut dyn FnMut(Sq) -> bool) -> bool {
        let flip = if is_white(c) { 1 } else { -1 };
        for atom in &self.def(c).atoms {
            let wanted = if captures {
                atom.modality.captures()
            } else {
                atom.modality.moves()
            };
            if !wanted {
                continue;
            }
            let limit = if atom.range == 0 {
                i32::MAX
            } else {
                atom.range as i32
            };
            for &(dx, dy) in &atom.steps {
                let (dx, dy) = (dx as i32, dy as i32 * flip);
                if atom.path != Path::Free {
                    // `n` and `j` leaps (D, A) look at the square halfway.
                    let middle = (from.0 + dx / 2, from.1 + dy / 2);
                    let occupied = self.on_board(middle) && self.at(middle) != EMPTY;
                    if occupied != (atom.path == Path::MustJump) {
                        continue;
                    }
                }
                let mut sq = from;
                for _ in 0..limit {
                    sq = (sq.0 + dx, sq.1 + dy);
                    if !self.on_board(sq) {
                        break;
                    }
                    if visit(sq) {
                        return true;
                    }
                    if self.at(sq) != EMPTY {
                        break;
                    }
                }
            }
        }
        if let Some(to) = self.transference_target(from, c)
            && visit(to)
        {
            return true;
        }
        false
    }

    /// §1.5 Home-File Transference: the other border file's square of the same rank, for a
    /// listed piece on a border file within its owner's first ranks.
    fn transference_target(&self, from: Sq, c: char) -> Option<Sq> {
        let rule = self.variant.mechanics.transference.as_ref()?;
        let listed = rule
            .pieces
            .iter()
            .any(|&k| self.letter(k) == c.to_ascii_uppercase());
        let last = self.files() - 1;
        let home = self.relative_rank(from.1, is_white(c)) < rule.ranks as i32;
        (listed && home && (from.0 == 0 || from.0 == last)).then_some((last - from.0, from.1))
    }

    /// Could a piece of `by_white` capture on `target` (were an enemy there)?
    fn attacked(&self, target: Sq, by_white: bool) -> bool {
        self.squares().any(|from| {
            let c = self.at(from);
            self.mine(c, by_white) && self.walk(from, c, true, &mut |sq| sq == target)
        })
    }

    fn king_attacked(&self, white: bool) -> bool {
        let king = colored(self.role_letter(Role::King).unwrap(), white);
        let sq = self
            .squares()
            .find(|&s| self.at(s) == king)
            .expect("a King on the board");
        self.attacked(sq, !white)
    }

    // ---- moves ----

    /// Every legal move, by its wire name, with the position after it, sorted by name.
    pub fn legal_moves(&self) -> Vec<(String, Board)> {
        let us = self.white_to_move;
        let mut out: Vec<(String, Board)> = self
            .pseudo_moves()
            .into_iter()
            .map(|plan| (self.wire(&plan), self.make(&plan)))
            .filter(|(_, next)| !next.king_attacked(us))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        for pair in out.windows(2) {
            assert_ne!(pair[0].0, pair[1].0, "the reference made a move twice");
        }
        out
    }

    fn wire(&self, plan: &Plan) -> String {
        let base = format!("{}{}", name(plan.from), name(plan.to));
        if let Some((at, into)) = plan.transform {
            return format!(
                "{base},{}{}{}",
                name(at),
                name(at),
                into.to_ascii_lowercase()
            );
        }
        if plan.swap || plan.placed != self.at(plan.from) {
            return format!("{base}{}", plan.placed.to_ascii_lowercase());
        }
        base
    }

    fn pseudo_moves(&self) -> Vec<Plan> {
        let us = self.white_to_move;
        let mut plans = Vec::new();
        for from in self.squares() {
            let c = self.at(from);
            if !self.mine(c, us) {
                continue;
            }
            if self.is_pawn(c) {
                self.pawn_moves(from, c, &mut plans);
                continue;
            }
            let mut targets = Vec::new();
            self.walk(from, c, false, &mut |sq| {
                if self.at(sq) == EMPTY {
                    targets.push(sq);
                }
                false
            });
            self.walk(from, c, true, &mut |sq| {
                let there = self.at(sq);
                if there != EMPTY && !self.mine(there, us) {
                    targets.push(sq);
                }
                false
            });
            targets.sort();
            targets.dedup();
            for to in targets {
                plans.push(Plan::simple(from, to, c));
            }
        }
        self.castling_moves(&mut plans);
        self.swap_ins(&mut plans);
        self.sixth_rank_promotions(plans)
    }

    fn pawn_moves(&self, from: Sq, c: char, plans: &mut Vec<Plan>) {
        let us = self.white_to_move;
        let forward = if us { 1 } else { -1 };
        let mut targets = Vec::new();
        self.walk(from, c, false, &mut |sq| {
            if self.at(sq) == EMPTY {
                targets.push((sq, None));
            }
            false
        });
        self.walk(from, c, true, &mut |sq| {
            let there = self.at(sq);
            if there != EMPTY && !self.mine(there, us) {
                targets.push((sq, None));
            } else if self.ep_targets.contains(&sq) {
                targets.push((sq, self.ep_victim));
            }
            false
        });
        // First moves: straight on through empty squares, as far as the longest step that
        // this pawn's square gives (the unmoved-only squares only while it never moved).
        let mut steps = 1;
        for m in &self.variant.pawns.multi_step {
            let here = m.squares.iter().any(|&sq| self.own_side(sq, us) == from);
            if here && (!m.unmoved_only || self.unmoved.contains(&from)) {
                steps = steps.max(m.steps as i32);
            }
        }
        for n in 1..=steps {
            let sq = (from.0, from.1 + n * forward);
            if !self.on_board(sq) || self.at(sq) != EMPTY {
                break;
            }
            if n >= 2 {
                targets.push((sq, None));
            }
        }
        for (to, ep_capture) in targets {
            let relative = self.relative_rank(to.1, us) as u8;
            if self.variant.pawns.promotion_ranks.contains(&relative) {
                for kind in self.promotion_choices() {
                    let mut plan = Plan::simple(from, to, colored(kind, us));
                    plan.ep_capture = ep_capture;
                    plans.push(plan);
                }
            } else {
                let mut plan = Plan::simple(from, to, c);
                plan.ep_capture = ep_capture;
                plans.push(plan);
            }
        }
    }

    /// The letters a pawn may promote to on the last rank. Legacy Deathmatch (§1.10): a
    /// Magician-family piece only while the mover has none on the board, and then only the
    /// Magician or the relative the opponent's strongest piece dictates.
    fn promotion_choices(&self) -> Vec<char> {
        let us = self.white_to_move;
        let all: Vec<char> = self
            .variant
            .pawns
            .promotion_pieces
            .iter()
            .map(|&k| self.letter(k))
            .collect();
        let Some(rule) = &self.variant.mechanics.rank_promotion else {
            return all;
        };
        if rule.family.is_empty() {
            return all;
        }
        let family: Vec<char> = rule.family.iter().map(|&k| self.letter(k)).collect();
        let has_family = family.iter().any(|&l| self.has(colored(l, us)));
        let mut allowed = Vec::new();
        if !has_family {
            allowed.push(self.letter(rule.piece));
            allowed.extend(self.rank_promotion_results());
        }
        all.into_iter()
            .filter(|l| !family.contains(l) || allowed.contains(l))
            .collect()
    }

    /// What a 6th-rank trigger may turn a Magician into, for the side to move: the player's
    /// choice, or (legacy) the kind dictated by the opponent's strongest piece, judged before
    /// the move; nothing if the opponent has none of the listed pieces.
    fn rank_promotion_results(&self) -> Vec<char> {
        let Some(rule) = &self.variant.mechanics.rank_promotion else {
            return Vec::new();
        };
        let them = !self.white_to_move;
        match &rule.choice {
            RankPromotionChoice::Choice(kinds) => kinds.iter().map(|&k| self.letter(k)).collect(),
            RankPromotionChoice::Dictated(order) => order
                .iter()
                .find(|&&(strong, _)| self.has(colored(self.letter(strong), them)))
                .map(|&(_, result)| vec![self.letter(result)])
                .unwrap_or_default(),
        }
    }

    /// §1.6: a pawn move (push, capture or e.p., not a last-rank promotion) onto the mover's
    /// 6th rank turns one of its Magicians into one of the results, in the same move.
    fn sixth_rank_promotions(&self, plans: Vec<Plan>) -> Vec<Plan> {
        let Some(rule) = &self.variant.mechanics.rank_promotion else {
            return plans;
        };
        let us = self.white_to_move;
        let magician = colored(self.letter(rule.piece), us);
        let magicians: Vec<Sq> = self.squares().filter(|&s| self.at(s) == magician).collect();
        let results = self.rank_promotion_results();
        let mut out = Vec::new();
        for plan in plans {
            let mover = self.at(plan.from);
            let triggers = !plan.swap
                && plan.rook.is_none()
                && self.is_pawn(mover)
                && plan.placed == mover
                && self.relative_rank(plan.to.1, us) == rule.rank as i32;
            if !triggers || magicians.is_empty() || results.is_empty() {
                out.push(plan);
                continue;
            }
            for &at in &magicians {
                for &into in &results {
                    let mut expanded = Plan::simple(plan.from, plan.to, plan.placed);
                    expanded.ep_capture = plan.ep_capture;
                    expanded.transform = Some((at, colored(into, us)));
                    out.push(expanded);
                }
            }
        }
        out
    }

    /// Castling with the right kept, every square between King and Rook and both their
    /// destinations empty, the King not in check and no square it crosses or lands on
    /// attacked.
    fn castling_moves(&self, plans: &mut Vec<Plan>) {
        let Some(castling) = &self.variant.castling else {
            return;
        };
        let us = self.white_to_move;
        let rank = if us { 0 } else { self.ranks() - 1 };
        let first_right = if us { 0 } else { 2 };
        let king_file = castling.king_file as i32;
        let sides = [(castling.king_side, 0), (castling.queen_side, 1)];
        for (side, right) in sides {
            let Some(side) = side else { continue };
            if !self.castling[first_right + right] {
                continue;
            }
            let (king_to, rook_from, rook_to) = (
                side.king_to as i32,
                side.rook_from as i32,
                side.rook_to as i32,
            );
            let files = [king_file, king_to, rook_from, rook_to];
            let (lo, hi) = (*files.iter().min().unwrap(), *files.iter().max().unwrap());
            let clear = (lo..=hi)
                .filter(|&f| f != king_file && f != rook_from)
                .all(|f| self.at((f, rank)) == EMPTY);
            let step = if king_to > king_file { 1 } else { -1 };
            let mut path = vec![king_file];
            let mut f = king_file;
            while f != king_to {
                f += step;
                path.push(f);
            }
            let safe = path.iter().all(|&f| !self.attacked((f, rank), !us));
            if clear && safe {
                let king = self.at((king_file, rank));
                let mut plan = Plan::simple((king_file, rank), (king_to, rank), king);
                plan.rook = Some(((rook_from, rank), (rook_to, rank)));
                plans.push(plan);
            }
        }
    }

    /// §1.4: as the whole move, a friendly Bishop becomes a Magician on its square; legacy
    /// (§1.10): only as many times per game as the variant allows.
    fn swap_ins(&self, plans: &mut Vec<Plan>) {
        let Some(rule) = &self.variant.mechanics.swap_in else {
            return;
        };
        let us = self.white_to_move;
        if rule.per_game > 0 && self.swaps[usize::from(!us)] >= rule.per_game {
            return;
        }
        let bishop = colored(self.letter(rule.from), us);
        for sq in self.squares().filter(|&s| self.at(s) == bishop) {
            let mut plan = Plan::simple(sq, sq, colored(self.letter(rule.to), us));
            plan.swap = true;
            plans.push(plan);
        }
    }

    fn swap_limit(&self) -> u8 {
        self.variant
            .mechanics
            .swap_in
            .as_ref()
            .map_or(0, |r| r.per_game)
    }

    // ---- making a move ----

    fn make(&self, plan: &Plan) -> Board {
        let us = self.white_to_move;
        let mut next = self.clone();
        let mover = self.at(plan.from);
        let mut captured = false;
        if plan.swap {
            next.set(plan.from, plan.placed);
            if self.swap_limit() > 0 {
                next.swaps[usize::from(!us)] += 1;
            }
        } else if let Some((rook_from, rook_to)) = plan.rook {
            let rook = self.at(rook_from);
            next.set(plan.from, EMPTY);
            next.set(rook_from, EMPTY);
            next.set(plan.to, mover);
            next.set(rook_to, rook);
        } else {
            captured = self.at(plan.to) != EMPTY;
            next.set(plan.from, EMPTY);
            next.set(plan.to, plan.placed);
            if let Some(victim) = plan.ep_capture {
                next.set(victim, EMPTY);
                captured = true;
            }
        }
        if let Some((at, into)) = plan.transform {
            next.set(at, into);
        }

        // Castling rights end when the King or that Rook leaves its square or anything
        // arrives there (a capture of the Rook).
        if let Some(castling) = &self.variant.castling {
            for (right, white, side) in [
                (0, true, castling.king_side),
                (1, true, castling.queen_side),
                (2, false, castling.king_side),
                (3, false, castling.queen_side),
            ] {
                let Some(side) = side else { continue };
                let rank = if white { 0 } else { self.ranks() - 1 };
                let home = [
                    (castling.king_file as i32, rank),
                    (side.rook_from as i32, rank),
                ];
                if home.contains(&plan.from) || home.contains(&plan.to) {
                    next.castling[right] = false;
                }
            }
        }
        // §2.3: a tracked pawn's flag goes when anything moves from or to its square.
        next.unmoved.retain(|&sq| sq != plan.from && sq != plan.to);

        let pawn_move = !plan.swap && self.is_pawn(mover);
        next.halfmove = if captured || pawn_move {
            0
        } else {
            self.halfmove + 1
        };
        next.fullmove = self.fullmove + u32::from(!us);
        next.white_to_move = !us;

        next.ep_targets.clear();
        next.ep_victim = None;
        let push = pawn_move && plan.from.0 == plan.to.0 && plan.placed == mover;
        if push {
            let targets = self.ep_targets_after_push(plan.from, plan.to);
            // Kept only where a pawn of the opponent could take (FEN writes no others).
            let pawn = colored(self.role_letter(Role::Pawn).unwrap(), !us);
            next.ep_targets = targets
                .into_iter()
                .filter(|&t| {
                    next.squares()
                        .any(|s| next.at(s) == pawn && next.walk(s, pawn, true, &mut |sq| sq == t))
                })
                .collect();
            if !next.ep_targets.is_empty() {
                next.ep_victim = Some(plan.to);
                in_square_order(&mut next.ep_targets);
            }
        }
        next
    }

    /// The squares a pawn push from `from` to `to` leaves open to e.p. capture.
    fn ep_targets_after_push(&self, from: Sq, to: Sq) -> Vec<Sq> {
        let us = self.white_to_move;
        let forward = if us { 1 } else { -1 };
        match self.variant.pawns.en_passant {
            EnPassant::None => Vec::new(),
            // The squares passed over.
            EnPassant::PassedSquares => (1..(to.1 - from.1).abs())
                .map(|n| (from.0, from.1 + n * forward))
                .collect(),
            // §2.3 (Magi): a pawn's first move (from its 2nd rank, or an unmoved d3/g3
            // pawn) that ends on its 4th or 5th rank leaves every square of its file from
            // its 3rd rank up to the square behind it, its origin included.
            EnPassant::FromThirdRank => {
                let first_move =
                    self.relative_rank(from.1, us) == 1 || self.unmoved.contains(&from);
                let arrival = self.relative_rank(to.1, us);
                if !first_move || !(3..=4).contains(&arrival) {
                    return Vec::new();
                }
                (2..arrival)
                    .map(|rel| (from.0, self.relative_rank(rel, us)))
                    .collect()
            }
        }
    }
}

impl Plan {
    fn simple(from: Sq, to: Sq, placed: char) -> Plan {
        Plan {
            from,
            to,
            placed,
            ep_capture: None,
            rook: None,
            transform: None,
            swap: false,
        }
    }
}

impl Board {
    /// Leaf count of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        crate::common::model_perft(self, depth, &Self::legal_moves)
    }
}
