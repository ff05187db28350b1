//! The weights of a variant's evaluation, as data: the `[eval]` section of its definition
//! file. `src/eval/` gives them their meaning (docs/evaluation.md); `magus tune` fits them
//! (docs/tuning.md).
//!
//! Which weights a variant has follows from its definition: a material weight per piece but
//! the King, a placement scale per piece that leaps, a mobility weight per piece that slides,
//! the pawn terms when there is a pawn, and each mechanic's own weights when the variant has
//! that mechanic. [`Weights::defaults`] gives the hand-set starting values for any variant; a
//! file's `[eval]` section overrides any of them, key by key, and an unknown key or a value of
//! the wrong shape or out of range is refused with the key named.

use super::betza::Path;
use super::{Role, Variant};

/// How many numbers a weight has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `[middlegame, endgame]`, blended by the game phase.
    Pair,
    /// One number, for both phases (a weight that scales a term the code tapers itself).
    Single,
    /// One number that shapes how a term is computed rather than scaling it (attack units
    /// that join a King attack before it is squared): the term is not linear in it, so the
    /// trace has no count for it and a fit leaves it where it is; a grid over held-out games
    /// chooses it (docs/tuning.md).
    Units,
}

/// One weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weight {
    /// The key under `[eval]`: `tempo`, `material.N`, `pawns.passed`.
    pub key: String,
    pub shape: Shape,
    /// `[middlegame, endgame]`; a single weight holds its number twice.
    pub value: [i32; 2],
    /// The range a file may give (and a tuner may reach).
    pub min: i32,
    pub max: i32,
    /// What it weighs, for people ("Knight", "passed pawn, by progress").
    pub about: String,
}

/// Every weight of a variant's evaluation, in a fixed order (the order of the section).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Weights {
    pub list: Vec<Weight>,
    /// What the square tables would cover, for adding them ([`Weights::add_square_tables`]).
    squares: SquareGrid,
}

/// The pieces and board a variant's square tables are laid over.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct SquareGrid {
    pieces: Vec<(char, String)>,
    files: u8,
    ranks: u8,
}

/// The section of the square tables (opt-in: a variant has them when its `[eval]` has it).
pub const SQUARES: &str = "squares";

/// How many files a square table has: the board's left half, the middle file included (a
/// square and its mirror image across the centre file share a weight).
pub fn table_files(files: u8) -> u8 {
    files.div_ceil(2)
}

/// The key of a piece's square-table weight: `squares.Nc3` is the Knight on c3 (and f3)
/// seen from its own side, the rank counted from its first.
pub fn square_key(letter: char, file: u8, rank: u8) -> String {
    format!("{SQUARES}.{letter}{}", square_name(file, rank))
}

/// Whether a key is one of the square tables'.
pub fn is_square_key(key: &str) -> bool {
    key.strip_prefix(SQUARES)
        .is_some_and(|rest| rest.starts_with('.'))
}

/// `c3` for file 2, rank 2 (both from 0).
fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// The range of material weights: that of a piece's declared value.
const MATERIAL_RANGE: (i32, i32) = (-100_000, 100_000);
/// The range of most other weights, in centipawns.
const TERM_RANGE: (i32, i32) = (-10_000, 10_000);
/// Placement scales, in percent of the derived table.
const SCALE_RANGE: (i32, i32) = (-1_000, 1_000);

/// Whether a piece has a plain leap (the moves its derived placement table is made of).
pub fn leaps(piece: &super::PieceDef) -> bool {
    piece
        .atoms
        .iter()
        .any(|a| a.range == 1 && a.path == Path::Free)
}

/// Whether a piece slides (its mobility is counted).
pub fn slides(piece: &super::PieceDef) -> bool {
    piece.atoms.iter().any(|a| a.range != 1)
}

/// A weight of one number (held twice, for both phases).
fn one_number(shape: Shape, key: &str, value: i32, range: (i32, i32), about: &str) -> Weight {
    Weight {
        key: key.to_string(),
        shape,
        value: [value, value],
        min: range.0,
        max: range.1,
        about: about.to_string(),
    }
}

impl Weights {
    /// The hand-set weights of a variant: the orthodox set, adjusted for its mechanics and
    /// board, with the pieces' declared values as material.
    pub fn defaults(variant: &Variant) -> Weights {
        let mut w = Weights {
            list: Vec::new(),
            squares: SquareGrid {
                pieces: variant
                    .pieces
                    .iter()
                    .map(|p| (p.letter, p.name.clone()))
                    .collect(),
                files: variant.files,
                ranks: variant.ranks,
            },
        };
        let pair = |w: &mut Weights, key: String, value: [i32; 2], range: (i32, i32), about| {
            w.list.push(Weight {
                key,
                shape: Shape::Pair,
                value,
                min: range.0,
                max: range.1,
                about,
            });
        };
        let single = |w: &mut Weights, key: &str, value: i32, range: (i32, i32), about: &str| {
            w.list
                .push(one_number(Shape::Single, key, value, range, about));
        };
        let units = |w: &mut Weights, key: &str, value: i32, range: (i32, i32), about: &str| {
            w.list
                .push(one_number(Shape::Units, key, value, range, about));
        };
        let has_pawn = variant.pawn().is_some();
        let mechanics = &variant.mechanics;
        pair(
            &mut w,
            "tempo".into(),
            [10, 5],
            TERM_RANGE,
            "the side to move".into(),
        );
        for p in &variant.pieces {
            if p.role == Role::King {
                continue;
            }
            // In the endgame a pawn is nearer to promoting: it gains 15 % on the pieces.
            let endgame = match p.role {
                Role::Pawn => (p.value as f64 * 115.0 / 100.0).round() as i32,
                _ => p.value,
            };
            pair(
                &mut w,
                format!("material.{}", p.letter),
                [p.value, endgame],
                MATERIAL_RANGE,
                p.name.clone(),
            );
        }
        for p in &variant.pieces {
            if p.role == Role::Ordinary && leaps(p) {
                pair(
                    &mut w,
                    format!("placement.{}", p.letter),
                    [100, 100],
                    SCALE_RANGE,
                    format!("{}: percent of its table (the squares it leaps to)", p.name),
                );
            }
        }
        if has_pawn {
            pair(
                &mut w,
                "placement.pawn_advance".into(),
                [3, 4],
                TERM_RANGE,
                "pawn, per rank advanced".into(),
            );
            pair(
                &mut w,
                "placement.pawn_centre".into(),
                [8, 0],
                TERM_RANGE,
                "pawn on a centre file".into(),
            );
        }
        pair(
            &mut w,
            "placement.king_home".into(),
            [10, 0],
            TERM_RANGE,
            "King on its first rank".into(),
        );
        pair(
            &mut w,
            "placement.king_advance".into(),
            [-12, 0],
            TERM_RANGE,
            "King, per rank advanced".into(),
        );
        pair(
            &mut w,
            "placement.king_centre_distance".into(),
            [1, -8],
            TERM_RANGE,
            "King, per square from the centre".into(),
        );
        // On a board larger than 8x8 sliders have more room: a square is worth a little less.
        let mobility = if variant.squares() > 64 {
            [2, 3]
        } else {
            [3, 4]
        };
        for p in &variant.pieces {
            if p.role == Role::Ordinary && slides(p) {
                pair(
                    &mut w,
                    format!("mobility.{}", p.letter),
                    mobility,
                    TERM_RANGE,
                    format!("{}, per square beyond half its reach", p.name),
                );
            }
        }
        // The terms below start at zero, so that a variant's evaluation is what it was until
        // `magus tune` fits them to its games.
        for p in &variant.pieces {
            if p.role == Role::Ordinary {
                pair(
                    &mut w,
                    format!("safe_mobility.{}", p.letter),
                    [0, 0],
                    TERM_RANGE,
                    format!(
                        "{}, per square it reaches that no enemy pawn attacks, beyond half its reach",
                        p.name
                    ),
                );
            }
        }
        for p in &variant.pieces {
            if p.role == Role::Ordinary {
                pair(
                    &mut w,
                    format!("pair.{}", p.letter),
                    [0, 0],
                    TERM_RANGE,
                    format!("two {}s or more", p.name),
                );
            }
        }
        if has_pawn {
            for p in &variant.pieces {
                if p.role == Role::Ordinary && slides(p) {
                    pair(
                        &mut w,
                        format!("open_file.{}", p.letter),
                        [0, 0],
                        TERM_RANGE,
                        format!("{} on a file with no pawn", p.name),
                    );
                    pair(
                        &mut w,
                        format!("semi_open_file.{}", p.letter),
                        [0, 0],
                        TERM_RANGE,
                        format!("{} on a file with enemy pawns only", p.name),
                    );
                }
            }
        }
        single(
            &mut w,
            "king_safety.attack",
            6,
            (0, 1_000),
            "attack on the King's zone (units squared / 64)",
        );
        units(
            &mut w,
            "king_safety.weak_square",
            0,
            (0, 100),
            "attack units per square of the King's zone the enemy attacks and only the King defends",
        );
        units(
            &mut w,
            "king_safety.check",
            0,
            (0, 100),
            "attack units per kind of enemy piece that can check the King from a square it does not guard",
        );
        pair(
            &mut w,
            "king_safety.safe_check".into(),
            [0, 0],
            TERM_RANGE,
            "kind of piece that can check the enemy King from a square it does not guard".into(),
        );
        if has_pawn {
            // Holes shelter a King better than pawns can on 7x7.
            let shield = if mechanics.spells.is_some() { 5 } else { 8 };
            pair(
                &mut w,
                "king_safety.pawn_shield".into(),
                [shield, 0],
                TERM_RANGE,
                "own pawn in front of the King".into(),
            );
            pair(
                &mut w,
                "pawns.passed".into(),
                [60, 130],
                TERM_RANGE,
                "passed pawn, by how far it has come (all of it on the last rank)".into(),
            );
            pair(
                &mut w,
                "pawns.passed_blocked".into(),
                [0, 0],
                TERM_RANGE,
                "passed pawn whose next square is taken, by how far it has come".into(),
            );
            pair(
                &mut w,
                "pawns.passed_king_distance".into(),
                [0, 0],
                TERM_RANGE,
                "passed pawn: the enemy King's distance to its next square less its own King's, by how far it has come".into(),
            );
            pair(
                &mut w,
                "pawns.isolated".into(),
                [-8, -14],
                TERM_RANGE,
                "isolated pawn".into(),
            );
            pair(
                &mut w,
                "pawns.doubled".into(),
                [-8, -18],
                TERM_RANGE,
                "doubled pawn".into(),
            );
            for (key, about) in [
                (
                    "pawns.phalanx",
                    "pawn with a pawn of its side beside it, by how far it has come",
                ),
                ("pawns.supported", "pawn defended by a pawn of its side"),
                (
                    "pawns.backward",
                    "pawn no pawn beside or behind can support, its next square attacked by an enemy pawn",
                ),
            ] {
                pair(&mut w, key.into(), [0, 0], TERM_RANGE, about.into());
            }
            for p in &variant.pieces {
                if p.role == Role::Ordinary {
                    pair(
                        &mut w,
                        format!("outpost.{}", p.letter),
                        [0, 0],
                        TERM_RANGE,
                        format!(
                            "{} advanced (4th to 6th rank in chess), defended by a pawn, where no enemy pawn can attack it",
                            p.name
                        ),
                    );
                }
            }
        }
        pair(
            &mut w,
            "threats.by_lesser".into(),
            [30, 20],
            TERM_RANGE,
            "piece attacked by a lesser one".into(),
        );
        pair(
            &mut w,
            "threats.hanging".into(),
            [0, 0],
            TERM_RANGE,
            "piece but a pawn attacked and not defended".into(),
        );
        if let Some(s) = &mechanics.swap_in {
            let name = &variant.pieces[s.from as usize].name;
            pair(
                &mut w,
                "swap_in.unswapped".into(),
                [12, 0],
                TERM_RANGE,
                format!("{name} that can still swap"),
            );
        }
        if mechanics.rank_promotion.is_some() {
            pair(
                &mut w,
                "rank_promotion.near".into(),
                [60, 60],
                TERM_RANGE,
                "pawn one move from the promotion rank, per Magician".into(),
            );
            pair(
                &mut w,
                "rank_promotion.far".into(),
                [25, 25],
                TERM_RANGE,
                "pawn two moves from the promotion rank, per Magician".into(),
            );
        }
        if mechanics.spells.is_some() {
            pair(
                &mut w,
                "spells.droppable".into(),
                [167, 167],
                (0, 1_000),
                "piece an enemy spell can drop: per mille of its value".into(),
            );
            pair(
                &mut w,
                "spells.hole_control".into(),
                [4, 4],
                TERM_RANGE,
                "hole within reach of one's casters".into(),
            );
        }
        if mechanics.drops.is_some() {
            single(
                &mut w,
                "drops.reserve_share",
                70,
                (0, 100),
                "reserve piece: percent of its material",
            );
            single(
                &mut w,
                "drops.reserve_closeness",
                8,
                (0, 100),
                "reserve piece: percent more per rank its carrier has come",
            );
        }
        w
    }

    /// Whether the weights hold square tables.
    pub fn has_square_tables(&self) -> bool {
        self.list.iter().any(|w| is_square_key(&w.key))
    }

    /// Adds a square table per piece, at zero, after the other weights (unless there are
    /// some already): a bonus for each square a piece can stand on, from its own side and
    /// mirrored across the centre file, on top of the placement derived from its moves.
    /// Fitted by `magus tune --squares`; too many weights to set by hand.
    pub fn add_square_tables(&mut self) {
        if self.has_square_tables() {
            return;
        }
        let grid = &self.squares;
        let mut added = Vec::new();
        for (letter, name) in &grid.pieces {
            for rank in 0..grid.ranks {
                for file in 0..table_files(grid.files) {
                    let (square, mirror) = (square_name(file, rank), grid.files - 1 - file);
                    let about = if mirror == file {
                        format!("{name} on {square}")
                    } else {
                        format!("{name} on {square} (and {})", square_name(mirror, rank))
                    };
                    added.push(Weight {
                        key: square_key(*letter, file, rank),
                        shape: Shape::Pair,
                        value: [0, 0],
                        min: TERM_RANGE.0,
                        max: TERM_RANGE.1,
                        about,
                    });
                }
            }
        }
        self.list.extend(added);
    }

    pub fn index(&self, key: &str) -> Option<usize> {
        self.list.iter().position(|w| w.key == key)
    }

    pub fn get(&self, key: &str) -> Option<&Weight> {
        self.list.iter().find(|w| w.key == key)
    }

    /// How many numbers the weights hold (a pair two, a single one).
    pub fn numbers(&self) -> usize {
        self.list
            .iter()
            .map(|w| match w.shape {
                Shape::Pair => 2,
                Shape::Single | Shape::Units => 1,
            })
            .sum()
    }

    /// Sets weights from an `[eval]` table (the keys it has; the others keep their values).
    /// Every problem is returned, each as "key 'eval.…': what is wrong".
    pub fn apply_table(&mut self, table: &toml::Table) -> Result<(), Vec<String>> {
        let mut errors = Vec::new();
        if table.get(SQUARES).is_some_and(|v| v.is_table()) {
            self.add_square_tables();
        }
        for (name, value) in table {
            match value.as_table() {
                Some(section) if self.list.iter().any(|w| w.key.starts_with(&format!("{name}."))) => {
                    for (inner, v) in section {
                        self.apply_one(&format!("{name}.{inner}"), v, &mut errors);
                    }
                }
                Some(_) => errors.push(format!(
                    "key 'eval.{name}': no weights of this variant are in a section '{name}' (its sections: {})",
                    self.sections().join(", ")
                )),
                None => self.apply_one(name, value, &mut errors),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn apply_one(&mut self, key: &str, value: &toml::Value, errors: &mut Vec<String>) {
        let Some(i) = self.index(key) else {
            let (section, _) = key.rsplit_once('.').unwrap_or(("", key));
            let known: Vec<&str> = self
                .list
                .iter()
                .filter_map(|w| match w.key.rsplit_once('.') {
                    Some((s, k)) if s == section => Some(k),
                    None if section.is_empty() => Some(w.key.as_str()),
                    _ => None,
                })
                .collect();
            errors.push(format!(
                "key 'eval.{key}': not a weight of this variant (known here: {})",
                known.join(", ")
            ));
            return;
        };
        let weight = &mut self.list[i];
        let number = |v: &toml::Value| v.as_integer().and_then(|n| i32::try_from(n).ok());
        let numbers = match weight.shape {
            Shape::Single | Shape::Units => number(value).map(|n| [n, n]).ok_or("a whole number"),
            Shape::Pair => value
                .as_array()
                .filter(|a| a.len() == 2)
                .and_then(|a| Some([number(&a[0])?, number(&a[1])?]))
                .ok_or("[middlegame, endgame], two whole numbers"),
        };
        match numbers {
            Err(expected) => errors.push(format!("key 'eval.{key}': {value} is not {expected}")),
            Ok(n) => {
                if let Some(bad) = n.iter().find(|&&x| x < weight.min || x > weight.max) {
                    errors.push(format!(
                        "key 'eval.{key}': {bad} is out of range ({} to {})",
                        weight.min, weight.max
                    ));
                } else {
                    weight.value = n;
                }
            }
        }
    }

    /// The sections, in order (the top-level keys are under `eval` itself).
    fn sections(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for w in &self.list {
            if let Some((s, _)) = w.key.split_once('.')
                && !out.contains(&s)
            {
                out.push(s);
            }
        }
        out
    }

    /// Reads a parameters file: a TOML text whose only table is `[eval]` (what `magus tune`
    /// writes), over these weights. A problem is an error naming the file, its line and the
    /// key.
    pub fn read_section(&self, text: &str, source: &str) -> Result<Weights, String> {
        let document: toml::Table = toml::from_str(text).map_err(|e| {
            let line = e
                .span()
                .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
            match line {
                Some(n) => format!("{source}: line {n}: {}", e.message().trim()),
                None => format!("{source}: {}", e.message().trim()),
            }
        })?;
        let at = |key: &str, message: String| match super::line_of_key(text, key) {
            Some(n) => format!("{source}: line {n}: {message}"),
            None => format!("{source}: {message}"),
        };
        if let Some(other) = document.keys().find(|k| *k != "eval") {
            return Err(at(
                other,
                format!("key '{other}': a parameters file holds only the [eval] section"),
            ));
        }
        let Some(table) = document.get("eval").and_then(|v| v.as_table()) else {
            return Err(format!("{source}: no [eval] section in it"));
        };
        let mut weights = self.clone();
        weights.apply_table(table).map_err(|errors| {
            let first = &errors[0];
            let key = first
                .strip_prefix("key '")
                .and_then(|r| r.split_once('\''))
                .map(|(k, _)| k.to_string())
                .unwrap_or_default();
            at(&key, first.clone())
        })?;
        Ok(weights)
    }

    /// The `[eval]` section that holds these weights, with a comment per weight. `header`
    /// lines (without `#`) open it.
    pub fn to_toml(&self, header: &[String]) -> String {
        let mut out = String::from("[eval]\n");
        for line in header {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(
            "# Centipawns; [middlegame, endgame] pairs are blended by the game phase\n\
             # (docs/evaluation.md, docs/tuning.md).\n",
        );
        // Each table's weights, by their name in it, aligned.
        let write = |out: &mut String, rows: Vec<(&str, &Weight)>| {
            let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, w) in rows {
                let value = match w.shape {
                    Shape::Pair => format!("[{}, {}]", w.value[0], w.value[1]),
                    Shape::Single | Shape::Units => w.value[0].to_string(),
                };
                out.push_str(&format!("{name:<width$} = {value:<12} # {}\n", w.about));
            }
        };
        let top = self.list.iter().filter(|w| !w.key.contains('.'));
        write(&mut out, top.map(|w| (w.key.as_str(), w)).collect());
        for section in self.sections() {
            out.push_str(&format!("\n[eval.{section}]\n"));
            let rows = self
                .list
                .iter()
                .filter_map(|w| match w.key.split_once('.') {
                    Some((s, name)) if s == section => Some((name, w)),
                    _ => None,
                })
                // A square the fit never moved (where a piece never stood) is left out: it
                // reads back as zero.
                .filter(|(_, w)| section != SQUARES || w.value != [0, 0])
                .collect();
            write(&mut out, rows);
        }
        out
    }
}

/// A definition text with its `[eval]` section (and `[eval.*]` tables) replaced by `section`,
/// which goes at the end. Everything else is kept as it was, comments included.
pub fn replace_section(text: &str, section: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            let name = trimmed.trim_start_matches('[').trim_start();
            inside = name.starts_with("eval]")
                || name.starts_with("eval.")
                || name.starts_with("eval ]");
        }
        if !inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out.push('\n');
    out.push_str(section);
    out
}
