//! The rules a section of a Fairy-Stockfish variant file sets, as Fairy-Stockfish reads them:
//! a section starts from its parent's rules (or from the bare template: chess without pieces),
//! and its keys change them in Fairy-Stockfish's order (pieces first, so that letters in later
//! keys name the section's own pieces; a piece given a letter in use pushes the other piece
//! out). Only what magus can translate is kept as rules; the other keys are kept as given, to
//! be refused by name unless they are left at Fairy-Stockfish's default.

use std::collections::{BTreeMap, BTreeSet};

use super::ini::{Entry, Section};
use super::keys::{self, Status};
use super::pieces::{self, KING, PAWN, ROOK, ROYAL_SLOT, TypeId};
use super::region::{self, Region};
use crate::variant::definitions::Problem;

/// Piece types; `ALL` stands for `*` (every type).
pub type TypeSet = BTreeSet<TypeId>;
pub const ALL: TypeId = 0;

/// Where a key was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub section: String,
    pub line: usize,
}

#[derive(Clone, Debug)]
pub struct Rules {
    /// Board size, as indices (`maxFile = h` is 7).
    pub max_file: u8,
    pub max_rank: u8,
    /// The letter (lower case) of every piece type the variant has.
    pub letters: BTreeMap<TypeId, char>,
    /// Moves of custom pieces in Fairy-Stockfish's Betza; `ROYAL_SLOT` for a King given its
    /// own moves.
    pub betza: BTreeMap<TypeId, String>,
    pub custom_king: bool,
    pub start_fen: String,
    pub promotion_region: [Region; 2],
    pub promotion_pawn_types: [TypeSet; 2],
    pub promotion_piece_types: [TypeSet; 2],
    pub double_step: bool,
    pub double_step_region: [Region; 2],
    pub triple_step_region: [Region; 2],
    pub en_passant_region: [Region; 2],
    pub en_passant_types: [TypeSet; 2],
    pub castling: bool,
    pub castling_kingside_file: u8,
    pub castling_queenside_file: u8,
    pub castling_rank: u8,
    pub castling_king_file: u8,
    pub castling_king_piece: [TypeId; 2],
    pub castling_rook_kingside_file: u8,
    pub castling_rook_queenside_file: u8,
    pub castling_rook_pieces: [TypeSet; 2],
    pub n_move_rule_types: [TypeSet; 2],
    pub n_move_rule: i64,
    pub n_fold_rule: i64,
    pub stalemate_value: String,
    /// Where each supported key (or piece key) was last given.
    pub given: BTreeMap<String, Origin>,
    /// Planned keys as last given: (value, where).
    pub planned: BTreeMap<String, (String, Origin)>,
    /// Keys about drawing or weighing pieces, as last given.
    pub not_applicable: BTreeMap<String, Origin>,
    /// How many sections these rules went through: 0 for the template and chess, one more
    /// for each section applied (`MAX_INHERITANCE_DEPTH` bounds it).
    pub depth: usize,
}

/// A key naming a piece type (`knight`, `customPiece4`, `king`).
pub fn is_piece_key(name: &str) -> bool {
    pieces::all_types().any(|t| pieces::key_of(t) == name)
}

/// A key `mobilityRegionWhite<Piece>` or `mobilityRegionBlack<Piece>`.
pub fn is_mobility_key(name: &str) -> bool {
    ["mobilityRegionWhite", "mobilityRegionBlack"]
        .iter()
        .filter_map(|p| name.strip_prefix(p))
        .any(|rest| {
            pieces::all_types().any(|t| {
                let key = pieces::key_of(t);
                let mut capital = key[..1].to_ascii_uppercase();
                capital += &key[1..];
                capital == rest
            })
        })
}

/// Supported keys in the order Fairy-Stockfish applies them (after the pieces); the order
/// matters where several keys set one rule (`pawnTypes` before `promotionPawnTypes`).
const SUPPORTED_ORDER: &[&str] = &[
    "pawnTypes",
    "startFen",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "doubleStep",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "tripleStepRegionWhite",
    "tripleStepRegionBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "enPassantTypes",
    "enPassantTypesWhite",
    "enPassantTypesBlack",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "castlingKingPiece",
    "castlingKingPieceWhite",
    "castlingKingPieceBlack",
    "castlingRookKingsideFile",
    "castlingRookQueensideFile",
    "castlingRookPieces",
    "castlingRookPiecesWhite",
    "castlingRookPiecesBlack",
    "nMoveRuleTypes",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
    "nMoveRule",
    "nFoldRule",
    "stalemateValue",
];

const CHESS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Rules {
    /// Fairy-Stockfish's template for a section without a parent: chess rules, no pieces.
    pub fn template() -> Rules {
        let one = |t: TypeId| -> TypeSet { [t].into() };
        Rules {
            max_file: 7,
            max_rank: 7,
            letters: BTreeMap::new(),
            betza: BTreeMap::new(),
            custom_king: false,
            start_fen: CHESS_FEN.to_string(),
            promotion_region: [Region::rank(7), Region::rank(0)],
            promotion_pawn_types: [one(PAWN), one(PAWN)],
            promotion_piece_types: [TypeSet::new(), TypeSet::new()],
            double_step: true,
            double_step_region: [Region::rank(1), Region::rank(6)],
            triple_step_region: [Region::EMPTY; 2],
            en_passant_region: [Region::all(); 2],
            en_passant_types: [one(PAWN), one(PAWN)],
            castling: true,
            castling_kingside_file: 6,
            castling_queenside_file: 2,
            castling_rank: 0,
            castling_king_file: 4,
            castling_king_piece: [KING; 2],
            castling_rook_kingside_file: region::FILES - 1,
            castling_rook_queenside_file: 0,
            castling_rook_pieces: [one(ROOK), one(ROOK)],
            n_move_rule_types: [one(PAWN), one(PAWN)],
            n_move_rule: 50,
            n_fold_rule: 3,
            stalemate_value: "draw".to_string(),
            depth: 0,
            given: BTreeMap::new(),
            planned: BTreeMap::new(),
            not_applicable: BTreeMap::new(),
        }
    }

    /// Fairy-Stockfish's built-in chess, the parent `[name:chess]` names.
    pub fn chess() -> Rules {
        let mut r = Rules::template();
        for (t, c) in [
            (1, 'p'),
            (2, 'n'),
            (3, 'b'),
            (4, 'r'),
            (5, 'q'),
            (KING, 'k'),
        ] {
            r.letters.insert(t, c);
        }
        let promotions: TypeSet = [2, 3, 4, 5].into();
        r.promotion_piece_types = [promotions.clone(), promotions];
        r
    }

    pub fn files(&self) -> u8 {
        self.max_file + 1
    }

    pub fn ranks(&self) -> u8 {
        self.max_rank + 1
    }

    /// The type with a letter, either case.
    pub fn type_of_letter(&self, letter: char) -> Option<TypeId> {
        let lower = letter.to_ascii_lowercase();
        self.letters
            .iter()
            .find(|(_, c)| **c == lower)
            .map(|(t, _)| *t)
    }

    /// A set of types written as letters (`nbrq`, `*`, `-`).
    fn parse_types(&self, value: &str) -> Result<TypeSet, String> {
        let mut set = TypeSet::new();
        for c in value.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => break,
                '*' => {
                    set.insert(ALL);
                }
                _ => match self.type_of_letter(c) {
                    Some(t) => {
                        set.insert(t);
                    }
                    None => return Err(format!("'{c}' is not a piece letter of this variant")),
                },
            }
        }
        Ok(set)
    }

    /// One type (the last letter, as Fairy-Stockfish keeps it); `ALL` for `*` or `-`.
    fn parse_type(&self, value: &str) -> Result<TypeId, String> {
        let mut last = ALL;
        for c in value.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => break,
                '*' => last = ALL,
                _ => {
                    last = self
                        .type_of_letter(c)
                        .ok_or_else(|| format!("'{c}' is not a piece letter of this variant"))?
                }
            }
        }
        Ok(last)
    }

    fn remove_piece(&mut self, t: TypeId) {
        self.letters.remove(&t);
        for side in &mut self.promotion_piece_types {
            side.remove(&t);
        }
    }

    fn add_piece(&mut self, t: TypeId, letter: char) {
        if let Some(other) = self.type_of_letter(letter) {
            self.remove_piece(other);
        }
        self.letters.insert(t, letter.to_ascii_lowercase());
    }

    /// The rules after a section's keys. Problems name the key and line.
    pub fn apply(&self, section: &Section, source: &str, problems: &mut Vec<Problem>) -> Rules {
        let mut r = self.clone();
        r.depth = self.depth + 1;
        let mut report = |entry: &Entry, message: String| {
            problems.push(Problem {
                source: source.to_string(),
                line: Some(entry.line),
                section: Some(section.name.clone()),
                key: Some(entry.key.clone()),
                message,
            });
        };
        let origin = |entry: &Entry| Origin {
            section: section.name.clone(),
            line: entry.line,
        };

        for key in ["maxRank", "maxFile"] {
            let Some(e) = section.get(key) else { continue };
            let (value, limit) = if key == "maxRank" {
                (parse_rank(&e.value), region::RANKS)
            } else {
                (parse_file(&e.value), region::FILES)
            };
            match value {
                Some(v) if v < limit => {
                    if key == "maxRank" {
                        r.max_rank = v;
                    } else {
                        r.max_file = v;
                    }
                    r.given.insert(key.to_string(), origin(e));
                }
                _ => report(
                    e,
                    format!(
                        "'{}' is not a board size up to {} (Fairy-Stockfish's largest board)",
                        e.value, limit
                    ),
                ),
            }
        }

        for t in pieces::all_types() {
            let key = pieces::key_of(t);
            let Some(e) = section.get(&key) else { continue };
            let mut chars = e.value.chars();
            let Some(first) = chars.next() else { continue };
            r.given.insert(key.clone(), origin(e));
            if !first.is_ascii_alphabetic() {
                if first != '-' {
                    report(
                        e,
                        format!("'{first}' is not a letter ('-' removes the piece)"),
                    );
                }
                r.remove_piece(t);
                continue;
            }
            r.add_piece(t, first);
            let rest: String = chars.collect();
            if pieces::is_custom(t) || t == KING {
                match rest.strip_prefix(':') {
                    Some(betza) => {
                        let slot = if t == KING { ROYAL_SLOT } else { t };
                        r.betza.insert(slot, betza.to_string());
                        if t == KING {
                            r.custom_king = true;
                        }
                    }
                    None if rest.is_empty() && t == KING => r.custom_king = false,
                    None if rest.is_empty() => {
                        // Refused here; the piece has no moves to translate.
                        r.betza.remove(&t);
                        report(e, "no moves: write 'letter:Betza', e.g. 'a:NB'".into());
                    }
                    None => report(e, format!("'{}' is not 'letter:Betza'", e.value)),
                }
            } else if !rest.is_empty() {
                report(
                    e,
                    format!(
                        "'{rest}' after the letter: Fairy-Stockfish reads only the letter of a {key}; custom moves need a customPiece"
                    ),
                );
            }
        }

        for key in SUPPORTED_ORDER {
            let Some(e) = section.get(key) else { continue };
            match r.apply_supported(key, &e.value) {
                Ok(()) => {
                    r.given.insert(key.to_string(), origin(e));
                }
                Err(message) => report(e, message),
            }
        }

        for e in &section.entries {
            match keys::lookup(&e.key) {
                None => report(e, "not a Fairy-Stockfish key".to_string()),
                Some(k) if k.status == Status::Planned => {
                    r.planned
                        .insert(e.key.clone(), (e.value.clone(), origin(e)));
                }
                Some(k) if k.status == Status::NotApplicable => {
                    r.not_applicable.insert(e.key.clone(), origin(e));
                }
                Some(_) => {}
            }
        }

        // Fairy-Stockfish's consistency step: no double steps without the flag, no flag
        // without a region.
        if !r.double_step {
            r.double_step_region = [Region::EMPTY; 2];
        }
        if r.double_step_region.iter().all(|d| d.is_empty()) {
            r.double_step = false;
        }
        r
    }

    fn apply_supported(&mut self, key: &str, value: &str) -> Result<(), String> {
        // A key ending in White or Black sets that side's half of a pair; the same key
        // without the ending sets both halves.
        let (name, sides): (&str, &[usize]) = if let Some(name) = key.strip_suffix("White") {
            (name, &[0])
        } else if let Some(name) = key.strip_suffix("Black") {
            (name, &[1])
        } else {
            (key, &[0, 1])
        };
        fn put<T: Clone>(value: T, sides: &[usize], pair: &mut [T; 2]) {
            for &side in sides {
                pair[side] = value.clone();
            }
        }
        let region = || Region::parse(value);
        let boolean = || match value {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("'{value}' is not true or false")),
        };
        let file = || parse_file(value).ok_or_else(|| format!("'{value}' is not a file"));
        match name {
            "pawnTypes" => {
                let set = self.parse_types(value)?;
                put(set.clone(), sides, &mut self.promotion_pawn_types);
                put(set.clone(), sides, &mut self.en_passant_types);
                put(set, sides, &mut self.n_move_rule_types);
            }
            "startFen" => self.start_fen = value.to_string(),
            "promotionRegion" => put(region()?, sides, &mut self.promotion_region),
            "promotionPawnTypes" => put(
                self.parse_types(value)?,
                sides,
                &mut self.promotion_pawn_types,
            ),
            "promotionPieceTypes" => put(
                self.parse_types(value)?,
                sides,
                &mut self.promotion_piece_types,
            ),
            "doubleStep" => self.double_step = boolean()?,
            "doubleStepRegion" => put(region()?, sides, &mut self.double_step_region),
            "tripleStepRegion" => put(region()?, sides, &mut self.triple_step_region),
            "enPassantRegion" => put(region()?, sides, &mut self.en_passant_region),
            "enPassantTypes" => put(self.parse_types(value)?, sides, &mut self.en_passant_types),
            "castling" => self.castling = boolean()?,
            "castlingKingsideFile" => self.castling_kingside_file = file()?,
            "castlingQueensideFile" => self.castling_queenside_file = file()?,
            "castlingRank" => {
                self.castling_rank =
                    parse_rank(value).ok_or_else(|| format!("'{value}' is not a rank"))?
            }
            "castlingKingFile" => self.castling_king_file = file()?,
            "castlingKingPiece" => put(
                self.parse_type(value)?,
                sides,
                &mut self.castling_king_piece,
            ),
            "castlingRookKingsideFile" => self.castling_rook_kingside_file = file()?,
            "castlingRookQueensideFile" => self.castling_rook_queenside_file = file()?,
            "castlingRookPieces" => put(
                self.parse_types(value)?,
                sides,
                &mut self.castling_rook_pieces,
            ),
            "nMoveRuleTypes" => put(self.parse_types(value)?, sides, &mut self.n_move_rule_types),
            "nMoveRule" | "nFoldRule" => {
                let n: i64 = value
                    .parse()
                    .map_err(|_| format!("'{value}' is not a whole number"))?;
                if key == "nMoveRule" {
                    self.n_move_rule = n;
                } else {
                    self.n_fold_rule = n;
                }
            }
            "stalemateValue" => match value {
                "win" | "loss" | "draw" | "none" => self.stalemate_value = value.to_string(),
                _ => return Err(format!("'{value}' is not win, loss, draw or none")),
            },
            _ => unreachable!("{key} is not in SUPPORTED_ORDER"),
        }
        Ok(())
    }

    /// Where a key was given, for a message about the section `current`: its line when the
    /// section itself gave it, or a note naming the ancestor or the default.
    pub fn whence(&self, key: &str, current: &str) -> (Option<usize>, String) {
        match self.given.get(key) {
            Some(o) if o.section == current => (Some(o.line), String::new()),
            Some(o) => (
                None,
                format!(" (given in [{}] at line {})", o.section, o.line),
            ),
            None => (None, " (Fairy-Stockfish's default)".to_string()),
        }
    }
}

/// A rank as Fairy-Stockfish writes it (1 to 10), as an index.
fn parse_rank(value: &str) -> Option<u8> {
    match value.parse::<u8>() {
        Ok(r) if (1..=region::RANKS).contains(&r) => Some(r - 1),
        _ => None,
    }
}

/// A file as Fairy-Stockfish writes it (a number from 1, or a letter), as an index.
fn parse_file(value: &str) -> Option<u8> {
    let index = match value.parse::<u8>() {
        Ok(n) => n.checked_sub(1)?,
        Err(_) => {
            let mut chars = value.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_lowercase() => c as u8 - b'a',
                _ => return None,
            }
        }
    };
    (index < region::FILES).then_some(index)
}

#[cfg(test)]
mod tests {
    use super::super::ini;
    use super::*;

    fn apply(parent: &Rules, text: &str) -> (Rules, Vec<Problem>) {
        let sections = ini::parse(text);
        let mut problems = Vec::new();
        let r = parent.apply(&sections[0], "t.ini", &mut problems);
        (r, problems)
    }

    #[test]
    fn a_letter_in_use_pushes_the_other_piece_out() {
        let (r, p) = apply(&Rules::chess(), "[x:chess]\ncustomPiece1 = p:mWfcF\n");
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(r.type_of_letter('p'), Some(pieces::FIRST_CUSTOM));
        assert!(!r.letters.contains_key(&PAWN));
        // Removing a piece takes it out of the promotion choices too.
        let (r, _) = apply(&Rules::chess(), "[x:chess]\nqueen = -\n");
        assert_eq!(r.promotion_piece_types[0], [2, 3, 4].into());
    }

    #[test]
    fn later_keys_read_letters_of_the_sections_own_pieces() {
        let (r, p) = apply(
            &Rules::chess(),
            "[x:chess]\npromotionPieceTypes = qa\narchbishop = a\n",
        );
        assert!(p.is_empty(), "{p:?}");
        assert_eq!(r.promotion_piece_types[1], [5, 12].into());
    }

    #[test]
    fn double_steps_need_the_flag_and_a_region() {
        let (r, _) = apply(&Rules::chess(), "[x:chess]\ndoubleStep = false\n");
        assert!(!r.double_step && r.double_step_region[0].is_empty());
        // The child of a section without double steps must switch them on again.
        let (r2, _) = apply(&r, "[y:x]\ndoubleStepRegionWhite = *2\n");
        assert!(!r2.double_step);
    }

    #[test]
    fn bad_values_and_unknown_keys_are_named() {
        let (_, p) = apply(
            &Rules::chess(),
            "[x:chess]\ncastling = maybe\ncolour = red\nmaxRank = 11\npromotionPieceTypes = qz\nknight = n:B\n",
        );
        let keys: Vec<&str> = p.iter().map(|p| p.key.as_deref().unwrap()).collect();
        assert_eq!(
            keys,
            [
                "maxRank",
                "knight",
                "promotionPieceTypes",
                "castling",
                "colour"
            ]
        );
        assert!(p.iter().all(|p| p.line.is_some()));
        assert!(p[2].message.contains("'z'"));
    }

    #[test]
    fn families_of_keys() {
        assert!(is_piece_key("customPiece25") && !is_piece_key("customPiece26"));
        assert!(is_mobility_key("mobilityRegionWhiteCustomPiece6"));
        assert!(is_mobility_key("mobilityRegionBlackKing"));
        assert!(!is_mobility_key("mobilityRegionRedKing"));
    }
}
