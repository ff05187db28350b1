//! Fairy-Stockfish rules written as a magus definition (TOML), when every rule has the same
//! meaning in magus; otherwise the problems, each naming the key behind it.
//!
//! The TOML goes through magus's own reader afterwards, so a translated variant meets every
//! check a hand-written file meets.

use super::betza;
use super::keys::{self, Kind};
use super::pieces::{self, KING, PAWN, ROYAL_SLOT, TypeId};
use super::region::Region;
use super::rules::{ALL, Rules, TypeSet};
use crate::variant::definitions::Problem;
use crate::variant::limits::MAX_KINDS;

/// What the translation of one section produced.
pub struct Translation {
    pub toml: Option<String>,
    pub problems: Vec<Problem>,
    /// Keys accepted without effect (how Fairy-Stockfish draws or weighs pieces).
    pub notes: Vec<Problem>,
}

struct Context<'a> {
    rules: &'a Rules,
    name: &'a str,
    source: &'a str,
    problems: Vec<Problem>,
}

impl Context<'_> {
    /// A problem with a key, placed where the key was given.
    fn refuse(&mut self, key: &str, message: String) {
        let (line, whence) = self.rules.whence(key, self.name);
        self.problems.push(Problem {
            source: self.source.to_string(),
            line,
            section: Some(self.name.to_string()),
            key: Some(key.to_string()),
            message: message + &whence,
        });
    }

    /// Of several keys that set one rule, the one given last (Fairy-Stockfish applies them
    /// in the order listed), or the first if none was given.
    fn culprit<'k>(&self, keys: &[&'k str]) -> &'k str {
        keys.iter()
            .rev()
            .find(|k| self.rules.given.contains_key(**k))
            .copied()
            .unwrap_or(keys[0])
    }

    fn letters(&self, set: &TypeSet) -> String {
        set.iter()
            .map(|t| match t {
                &ALL => '*',
                t => self.rules.letters.get(t).copied().unwrap_or('?'),
            })
            .collect()
    }
}

/// Whether a planned key's value is Fairy-Stockfish's default, which changes nothing.
fn is_default(kind: Kind, default: &str, value: &str, rules: &Rules) -> bool {
    let value = value.trim();
    match kind {
        Kind::Bool | Kind::Word => value == default,
        Kind::Int => value.parse::<i64>().ok() == default.parse::<i64>().ok(),
        Kind::Pieces | Kind::Piece | Kind::Text => {
            let none = |v: &str| v.is_empty() || v == "-";
            if none(default) {
                none(value)
            } else {
                value == default
            }
        }
        Kind::Region => {
            let (files, ranks) = (rules.files(), rules.ranks());
            match Region::parse(value) {
                Ok(r) if default == "all" => {
                    r.on_board(files, ranks) == Region::all().on_board(files, ranks)
                }
                Ok(r) => r.on_board(files, ranks).is_empty(),
                Err(_) => false,
            }
        }
    }
}

/// A TOML basic string.
fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            c if c.is_control() => out += &format!("\\u{:04x}", c as u32),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn file_name(f: u8) -> String {
    ((b'a' + f) as char).to_string()
}

/// A value in centipawns for a piece magus has no value for: the chess pieces' values where
/// the moves are theirs, otherwise a count of its moves on an open board, weighted.
fn estimate_value(magus_betza: &str) -> i32 {
    match magus_betza {
        "N" => return 320,
        "B" => return 330,
        "R" => return 500,
        "Q" => return 950,
        _ => {}
    }
    let Ok(atoms) = crate::variant::betza::parse(magus_betza) else {
        return 300;
    };
    let mut total = 0.0;
    for a in &atoms {
        let factor = match (a.modality.moves(), a.modality.captures()) {
            (true, true) => 1.0,
            (true, false) => 0.6,
            _ => 0.5,
        };
        for &(dx, dy) in &a.steps {
            let open = if dx == 0 || dy == 0 {
                125.0
            } else if dx.abs() == dy.abs() {
                82.0
            } else {
                100.0
            };
            let weight: f64 = match a.range {
                1 => 40.0,
                0 => open,
                n => (n as f64 * 40.0).min(open),
            };
            total += weight * factor;
        }
    }
    ((total / 5.0).round() as i32 * 5).clamp(50, 2000)
}

/// A start position read the way Fairy-Stockfish reads it.
struct StartFen {
    /// `grid[rank][file]`, rank 0 first.
    grid: Vec<Vec<Option<char>>>,
    placement: String,
    side: char,
    rights: Vec<char>,
    halfmove: u32,
    fullmove: u32,
}

fn read_fen(cx: &mut Context, files: u8, ranks: u8) -> Option<StartFen> {
    let fen = cx.rules.start_fen.clone();
    let mut ok = true;
    let mut refuse = |cx: &mut Context, m: String| {
        cx.refuse("startFen", m);
        ok = false;
    };
    let words: Vec<&str> = fen.split_whitespace().collect();
    let Some(&board) = words.first() else {
        refuse(cx, "empty".into());
        return None;
    };
    let (placement, pocket) = match board.split_once('[') {
        Some((p, rest)) => (p, Some(rest.trim_end_matches(']'))),
        None => (board, None),
    };
    if let Some(pocket) = pocket
        && !pocket.is_empty()
        && pocket != "-"
    {
        refuse(
            cx,
            format!("'[{pocket}]': pieces in hand (drops are planned)"),
        );
    }
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != ranks as usize {
        refuse(
            cx,
            format!("'{placement}' has {} ranks, the board {ranks}", rows.len()),
        );
        return None;
    }
    let mut grid = vec![vec![None; files as usize]; ranks as usize];
    let mut walls: Vec<String> = Vec::new();
    let mut unknown: Vec<char> = Vec::new();
    let mut wrong_width: Vec<String> = Vec::new();
    let mut promoted = false;
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks as usize - 1 - i;
        let mut file = 0usize;
        let chars: Vec<char> = row.chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            if c.is_ascii_digit() {
                let start = j;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let run: String = chars[start..j].iter().collect();
                file = file.saturating_add(run.parse::<usize>().unwrap_or(usize::MAX));
                continue;
            }
            match c {
                '*' => {
                    if file < files as usize {
                        walls.push(format!("{}{}", file_name(file as u8), rank + 1));
                    }
                }
                '+' | '~' => promoted = true,
                c if cx.rules.type_of_letter(c).is_none() => {
                    if !unknown.contains(&c) {
                        unknown.push(c);
                    }
                }
                c => {
                    if file < files as usize {
                        grid[rank][file] = Some(c);
                    }
                }
            }
            if c != '+' && c != '~' {
                file += 1;
            }
            j += 1;
        }
        if file != files as usize {
            wrong_width.push(format!("{} ({file})", rank + 1));
        }
    }
    if !unknown.is_empty() {
        let list: Vec<String> = unknown.iter().map(|c| format!("'{c}'")).collect();
        refuse(
            cx,
            format!("{} not piece letters of this variant", list.join(" ")),
        );
    }
    if !wrong_width.is_empty() {
        refuse(
            cx,
            format!(
                "ranks (with their squares) {} do not have the board's {files} squares",
                wrong_width.join(", ")
            ),
        );
    }
    if !walls.is_empty() {
        refuse(
            cx,
            format!(
                "'*' (walls) on {}: walls are not in magus (planned)",
                walls.join(" ")
            ),
        );
    }
    if promoted {
        refuse(
            cx,
            "'+' or '~' marks a promoted piece (shogi-style promotion is planned)".into(),
        );
    }
    let side = match words.get(1) {
        Some(&"w") => 'w',
        Some(&"b") => 'b',
        other => {
            refuse(
                cx,
                format!(
                    "{}: the side to move must be 'w' or 'b'",
                    other.map_or("nothing".to_string(), |o| format!("'{o}'"))
                ),
            );
            'w'
        }
    };
    let mut rights = Vec::new();
    let mut shredder = Vec::new();
    if let Some(field) = words.get(2) {
        for c in field.chars() {
            match c {
                'K' | 'Q' | 'k' | 'q' => rights.push(c),
                // Fairy-Stockfish passes over these.
                '-' => {}
                c if c.is_ascii_digit() => {}
                c => shredder.push(c),
            }
        }
    }
    if !shredder.is_empty() {
        let letters: String = shredder.iter().collect();
        refuse(
            cx,
            format!("castling '{letters}': rights by file letter (Shredder-FEN) are planned"),
        );
    }
    if let Some(ep) = words.get(3)
        && ep.len() >= 2
        && ep.starts_with(|c: char| c.is_ascii_lowercase())
    {
        refuse(
            cx,
            format!("'{ep}': an en passant square in the start position is planned"),
        );
    }
    let number = |i: usize, default: u32| {
        words
            .get(i)
            .and_then(|w| w.parse::<u32>().ok())
            .unwrap_or(default)
    };
    let halfmove = number(4, 0);
    let fullmove = number(5, 1).max(1);
    ok.then(|| StartFen {
        grid,
        placement: placement.to_string(),
        side,
        rights,
        halfmove,
        fullmove,
    })
}

/// Castling read off the start position: the King's file, the King's-side and Queen's-side
/// Rook files, and the rights in magus's letters.
struct CastlingPlan {
    king_file: u8,
    king_side: Option<u8>,
    queen_side: Option<u8>,
    rights: String,
}

fn plan_castling(cx: &mut Context, fen: &StartFen, files: u8, ranks: u8) -> Option<CastlingPlan> {
    let r = cx.rules;
    if !r.castling {
        return Some(CastlingPlan {
            king_file: 0,
            king_side: None,
            queen_side: None,
            rights: String::new(),
        });
    }
    let mut ok = true;
    if r.castling_rank != 0 {
        cx.refuse(
            "castlingRank",
            format!(
                "{}: magus castles on the first rank only (planned)",
                r.castling_rank + 1
            ),
        );
        ok = false;
    }
    if r.castling_king_piece != [KING; 2] {
        let key = cx.culprit(&[
            "castlingKingPiece",
            "castlingKingPieceWhite",
            "castlingKingPieceBlack",
        ]);
        cx.refuse(key, "magus castles with the King only (planned)".into());
        ok = false;
    }
    if !ok {
        return None;
    }
    let piece_at = |f: i32, rank: usize| -> Option<(usize, TypeId)> {
        if f < 0 || f >= files as i32 {
            return None;
        }
        let c = fen.grid[rank][f as usize]?;
        let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
        Some((colour, r.type_of_letter(c)?))
    };
    // Per colour: (king file, king's-side rook file, queen's-side rook file).
    let mut found: [(Option<u8>, Option<u8>, Option<u8>); 2] = [(None, None, None); 2];
    let mut rights = String::new();
    for &c in &fen.rights {
        let colour = if c.is_ascii_uppercase() { 0 } else { 1 };
        let rank = if colour == 0 { 0 } else { ranks as usize - 1 };
        let rook_types = &r.castling_rook_pieces[colour];
        let is_rook = |f: i32| {
            piece_at(f, rank).is_some_and(|(col, t)| col == colour && rook_types.contains(&t))
        };
        // The outermost rook, searched from the given file inwards.
        let mut f: i32;
        if c.eq_ignore_ascii_case(&'K') {
            f = r.castling_rook_kingside_file as i32;
            while !is_rook(f) && f > 0 {
                f -= 1;
            }
        } else {
            f = r.castling_rook_queenside_file as i32;
            while !is_rook(f) && f < r.max_file as i32 {
                f += 1;
            }
        }
        let kings: Vec<u8> = (0..files)
            .filter(|&kf| piece_at(kf as i32, rank) == Some((colour, KING)))
            .collect();
        let king = match kings.as_slice() {
            [k] => Some(*k),
            [] => None,
            _ => kings
                .contains(&r.castling_king_file)
                .then_some(r.castling_king_file),
        };
        // Fairy-Stockfish drops a right whose King or Rook is not there.
        let Some(king) = king else { continue };
        if !is_rook(f) {
            continue;
        }
        let rook = f as u8;
        let entry = &mut found[colour];
        entry.0 = Some(king);
        if king < rook {
            entry.1 = Some(rook);
        } else {
            entry.2 = Some(rook);
        }
        let letter = if king < rook { 'k' } else { 'q' };
        let letter = if colour == 0 {
            letter.to_ascii_uppercase()
        } else {
            letter
        };
        if !rights.contains(letter) {
            rights.push(letter);
        }
    }
    let agree = |a: Option<u8>, b: Option<u8>| a.zip(b).is_none_or(|(a, b)| a == b);
    let [w, b] = found;
    if !agree(w.0, b.0) || !agree(w.1, b.1) || !agree(w.2, b.2) {
        let describe = |(k, ks, qs): (Option<u8>, Option<u8>, Option<u8>)| {
            let f = |x: Option<u8>| x.map_or("-".to_string(), file_name);
            format!("King {}, Rooks {}/{}", f(k), f(qs), f(ks))
        };
        cx.refuse(
            "startFen",
            format!(
                "White castles with {} but Black with {}: magus mirrors one set of castling squares for both sides",
                describe(w),
                describe(b)
            ),
        );
        return None;
    }
    let plan = CastlingPlan {
        king_file: w.0.or(b.0).unwrap_or(0),
        king_side: w.1.or(b.1),
        queen_side: w.2.or(b.2),
        rights,
    };
    for (side, king_to, key) in [
        (
            plan.king_side,
            r.castling_kingside_file,
            "castlingKingsideFile",
        ),
        (
            plan.queen_side,
            r.castling_queenside_file,
            "castlingQueensideFile",
        ),
    ] {
        if side.is_some() && (king_to == 0 || king_to + 1 >= files) {
            cx.refuse(
                key,
                format!(
                    "{}: the King and Rook would not both fit on the board",
                    file_name(king_to)
                ),
            );
            return None;
        }
    }
    Some(plan)
}

/// Pawn rules: `[pawns]` as TOML lines, or `None` after refusing.
fn pawn_rules(cx: &mut Context, files: u8, ranks: u8) -> Option<String> {
    let r = cx.rules;
    let pawn: TypeSet = [PAWN].into();
    let mut ok = true;
    let existing = |set: &TypeSet| -> TypeSet {
        set.iter()
            .copied()
            .filter(|t| *t == ALL || r.letters.contains_key(t))
            .collect()
    };
    let has_pawn = r.letters.contains_key(&PAWN);
    let want = if has_pawn {
        pawn.clone()
    } else {
        TypeSet::new()
    };
    // Pieces other than Fairy-Stockfish's pawn with pawn rules: (key, letters, rule).
    let mut borrowed: Vec<(&str, String, &str)> = Vec::new();
    for (sets, keys, what) in [
        (
            &r.promotion_pawn_types,
            &[
                "pawnTypes",
                "promotionPawnTypes",
                "promotionPawnTypesWhite",
                "promotionPawnTypesBlack",
            ][..],
            "promotes",
        ),
        (
            &r.n_move_rule_types,
            &[
                "pawnTypes",
                "nMoveRuleTypes",
                "nMoveRuleTypesWhite",
                "nMoveRuleTypesBlack",
            ][..],
            "resets the 50-move count",
        ),
        (
            &r.en_passant_types,
            &[
                "pawnTypes",
                "enPassantTypes",
                "enPassantTypesWhite",
                "enPassantTypesBlack",
            ][..],
            "takes en passant",
        ),
    ] {
        let ep = what == "takes en passant";
        let sides: Vec<TypeSet> = sets.iter().map(existing).collect();
        // En passant may be off altogether (no types at all).
        let fine = sides.iter().all(|s| *s == want) || (ep && sides.iter().all(|s| s.is_empty()));
        if !fine {
            let odd = sides
                .iter()
                .find(|s| **s != want)
                .cloned()
                .unwrap_or_default();
            let letters = cx.letters(&odd);
            borrowed.push((cx.culprit(keys), letters, what));
        }
    }
    while let Some((key, letters, _)) = borrowed.first().cloned() {
        let rules: Vec<&str> = borrowed
            .iter()
            .filter(|b| b.0 == key && b.1 == letters)
            .map(|b| b.2)
            .collect();
        borrowed.retain(|b| !(b.0 == key && b.1 == letters));
        let shown = if letters.is_empty() {
            "-".to_string()
        } else {
            letters
        };
        cx.refuse(
            key,
            format!(
                "'{shown}' {}: in magus, pawn rules belong to Fairy-Stockfish's own pawn, for both sides (other pawn types are planned)",
                rules.join(", ")
            ),
        );
        ok = false;
    }
    let ep_off = r.en_passant_types.iter().all(|s| existing(s).is_empty());
    if !has_pawn {
        return ok.then(String::new);
    }
    let mut lines = String::from("\n[pawns]\n");
    let on = |region: Region| region.on_board(files, ranks);

    // Promotion.
    let white = on(r.promotion_region[0]);
    let black = on(r.promotion_region[1]);
    let promotion_ranks = white.whole_ranks(files);
    if promotion_ranks.is_none() {
        cx.refuse(
            "promotionRegionWhite",
            format!("'{white}': magus promotes on whole ranks (squares are planned)"),
        );
        ok = false;
    }
    if black != white.mirrored(ranks) {
        cx.refuse(
            "promotionRegionBlack",
            format!(
                "'{black}' on this board is not the mirror of White's '{white}': magus mirrors White's promotion ranks for Black"
            ),
        );
        ok = false;
    }
    let [wp, bp] = &r.promotion_piece_types;
    if wp != bp {
        let key = cx.culprit(&[
            "promotionPieceTypes",
            "promotionPieceTypesWhite",
            "promotionPieceTypesBlack",
        ]);
        let (w, b) = (cx.letters(wp), cx.letters(bp));
        cx.refuse(
            key,
            format!(
                "White promotes to '{w}', Black to '{b}': magus gives both sides the same choice"
            ),
        );
        ok = false;
    }
    let promotion_key = cx.culprit(&[
        "promotionPieceTypes",
        "promotionPieceTypesWhite",
        "promotionPieceTypesBlack",
    ]);
    let choices = existing(wp);
    if choices.iter().any(|t| [ALL, PAWN, KING].contains(t)) {
        let letters = cx.letters(&choices);
        cx.refuse(
            promotion_key,
            format!("'{letters}': a pawn promotes to pieces other than the pawn and the King"),
        );
        ok = false;
    }
    if !white.is_empty() && choices.is_empty() && ok {
        cx.refuse(
            promotion_key,
            "no pieces to promote to, so pawns could never enter the promotion ranks; magus needs at least one (planned)".into(),
        );
        ok = false;
    }
    if let Some(ranks_list) = promotion_ranks.filter(|l| !l.is_empty() && !choices.is_empty()) {
        let list: Vec<String> = ranks_list.iter().map(|r| (r + 1).to_string()).collect();
        let letters: String = choices
            .iter()
            .map(|t| r.letters[t].to_ascii_uppercase())
            .collect();
        lines += &format!(
            "promotion_ranks = [{}]\npromotion_pieces = {}\n",
            list.join(", "),
            quote(&letters)
        );
    }

    // Double and triple steps, and en passant after them.
    let double = on(r.double_step_region[0]);
    let triple = on(r.triple_step_region[0]);
    // magus mirrors White's squares for Black: a Black region must be that mirror.
    let mirrors = [
        (
            r.double_step,
            "doubleStepRegionBlack",
            "double-step",
            &double,
            r.double_step_region[1],
        ),
        (
            true,
            "tripleStepRegionBlack",
            "triple-step",
            &triple,
            r.triple_step_region[1],
        ),
    ];
    for (used, key, what, white, black) in mirrors {
        let black = on(black);
        if used && black != white.mirrored(ranks) {
            cx.refuse(
                key,
                format!(
                    "'{black}' on this board is not the mirror of White's '{white}': magus mirrors White's {what} squares for Black"
                ),
            );
            ok = false;
        }
    }
    if triple.squares().any(|(f, rk)| !double.has(f, rk)) {
        cx.refuse(
            "tripleStepRegionWhite",
            format!(
                "'{triple}' reaches outside the double-step squares '{double}': a magus pawn that steps three may step two"
            ),
        );
        ok = false;
    }
    let mut steps = Vec::new();
    for (region, n) in [(double, 2), (triple, 3)] {
        if region.is_empty() {
            continue;
        }
        let squares: Vec<String> = region
            .squares()
            .map(|(f, rk)| format!("\"{}{}\"", file_name(f), rk + 1))
            .collect();
        steps.push(format!(
            "{{ squares = [{}], steps = {n} }}",
            squares.join(", ")
        ));
    }
    if !steps.is_empty() {
        lines += &format!("multi_step = [{}]\n", steps.join(", "));
        let all = Region::all().on_board(files, ranks);
        let ep = [on(r.en_passant_region[0]), on(r.en_passant_region[1])];
        let rule = if ep_off || (ep[0].is_empty() && ep[1].is_empty()) {
            "none"
        } else if ep == [all, all] {
            "passed-squares"
        } else {
            let key = cx.culprit(&[
                "enPassantRegion",
                "enPassantRegionWhite",
                "enPassantRegionBlack",
            ]);
            cx.refuse(
                key,
                "en passant on some squares only: magus has it on every square or on none (planned)"
                    .into(),
            );
            ok = false;
            "none"
        };
        lines += &format!("en_passant = \"{rule}\"\n");
    }
    ok.then_some(lines)
}

/// The TOML of a section, or the problems that stop it.
pub fn translate(rules: &Rules, name: &str, heading: &str, source: &str) -> Translation {
    let mut cx = Context {
        rules,
        name,
        source,
        problems: Vec::new(),
    };
    let mut notes = Vec::new();
    let (files, ranks) = (rules.files(), rules.ranks());

    for (key, (value, origin)) in &rules.planned {
        let Some(k) = keys::lookup(key) else { continue };
        if k.default
            .is_some_and(|d| is_default(k.kind, d, value, rules))
        {
            continue;
        }
        let (line, whence) = if origin.section == name {
            (Some(origin.line), String::new())
        } else {
            (
                None,
                format!(" (given in [{}] at line {})", origin.section, origin.line),
            )
        };
        let message = match k.default {
            Some(_) => format!(
                "'{value}': {} is not in magus's rules yet (planned){whence}",
                k.about
            ),
            None => format!("'{value}': {}{whence}", k.about),
        };
        cx.problems.push(Problem {
            source: source.to_string(),
            line,
            section: Some(name.to_string()),
            key: Some(key.clone()),
            message,
        });
    }
    for (key, origin) in &rules.not_applicable {
        let about = keys::lookup(key).map_or("", |k| k.about);
        notes.push(Problem {
            source: source.to_string(),
            line: (origin.section == name).then_some(origin.line),
            section: Some(name.to_string()),
            key: Some(key.clone()),
            message: format!("not applicable, no effect: {about}"),
        });
    }

    if files < 2 || ranks < 2 {
        let key = if files < 2 { "maxFile" } else { "maxRank" };
        cx.refuse(
            key,
            format!("a {files}x{ranks} board: magus needs at least 2 files and 2 ranks"),
        );
    }

    // Pieces.
    if !rules.letters.contains_key(&KING) {
        cx.refuse(
            "king",
            "no King: magus needs one royal King per side (games won by other means are planned)"
                .into(),
        );
    }
    if rules.letters.len() > MAX_KINDS {
        cx.problems.push(Problem {
            source: source.to_string(),
            line: None,
            section: Some(name.to_string()),
            key: None,
            message: format!(
                "{} piece types: magus has room for {MAX_KINDS}",
                rules.letters.len()
            ),
        });
    }
    let mut piece_tables = String::new();
    for (&t, &letter) in &rules.letters {
        let key = pieces::key_of(t);
        let (role, fsf_betza) = match t {
            PAWN => ("pawn", None),
            KING if rules.custom_king => ("king", rules.betza.get(&ROYAL_SLOT).cloned()),
            KING => ("king", None),
            t if pieces::is_custom(t) => ("ordinary", rules.betza.get(&t).cloned()),
            t => ("ordinary", pieces::predefined_betza(t).map(str::to_string)),
        };
        let magus = match (t, &fsf_betza) {
            (PAWN, _) => "fmWfcF".to_string(),
            (KING, None) => "K".to_string(),
            (_, Some(text)) => match betza::translate(text) {
                Ok(b) => b,
                Err(e) => {
                    cx.refuse(&key, format!("'{text}': {e}"));
                    continue;
                }
            },
            (_, None) => continue,
        };
        let value = match t {
            PAWN => 100,
            KING => 0,
            _ => estimate_value(&magus),
        };
        piece_tables += &format!(
            "\n[[piece]]\nletter = {}\nname = {}\nbetza = {}\nvalue = {value}\nrole = \"{role}\"\n",
            quote(&letter.to_ascii_uppercase().to_string()),
            quote(&pieces::display_name(t)),
            quote(&magus),
        );
    }

    let fen = read_fen(&mut cx, files, ranks);
    let castling = fen
        .as_ref()
        .and_then(|f| plan_castling(&mut cx, f, files, ranks));
    let pawns = pawn_rules(&mut cx, files, ranks);

    // End of the game.
    let stalemate = match rules.stalemate_value.as_str() {
        v @ ("draw" | "win" | "loss") => v,
        v => {
            cx.refuse(
                "stalemateValue",
                format!("'{v}': magus scores a stalemate as a draw, a win or a loss"),
            );
            "draw"
        }
    };
    if !(0..=1000).contains(&rules.n_move_rule) {
        cx.refuse(
            "nMoveRule",
            format!("{}: magus counts up to 1000 moves", rules.n_move_rule),
        );
    }
    if !(rules.n_fold_rule == 0 || (2..=10).contains(&rules.n_fold_rule)) {
        cx.refuse(
            "nFoldRule",
            format!(
                "{}: magus draws after 2 to 10 repetitions, or never (0)",
                rules.n_fold_rule
            ),
        );
    }

    if !cx.problems.is_empty() {
        return Translation {
            toml: None,
            problems: cx.problems,
            notes,
        };
    }
    let (Some(fen), Some(castling), Some(pawns)) = (fen, castling, pawns) else {
        unreachable!("a refused part always leaves a problem");
    };
    let rights = if castling.rights.is_empty() {
        "-".to_string()
    } else {
        castling.rights.clone()
    };
    let start = format!(
        "{} {} {rights} - {} {}",
        fen.placement, fen.side, fen.halfmove, fen.fullmove
    );
    let mut toml = format!(
        "name = {}\ntitle = {}\nfiles = {files}\nranks = {ranks}\nstart = {}\nsummary = {}\n",
        quote(name),
        quote(name),
        quote(&start),
        quote(&format!(
            "Read from the Fairy-Stockfish variant file section {heading} of {source}."
        )),
    );
    toml += &piece_tables;
    toml += &pawns;
    if castling.king_side.is_some() || castling.queen_side.is_some() {
        toml += &format!(
            "\n[castling]\nking_file = \"{}\"\n",
            file_name(castling.king_file)
        );
        for (rook, king_to, key, toward) in [
            (
                castling.king_side,
                rules.castling_kingside_file,
                "king_side",
                -1i32,
            ),
            (
                castling.queen_side,
                rules.castling_queenside_file,
                "queen_side",
                1,
            ),
        ] {
            if let Some(rook) = rook {
                toml += &format!(
                    "{key} = {{ king_to = \"{}\", rook_from = \"{}\", rook_to = \"{}\" }}\n",
                    file_name(king_to),
                    file_name(rook),
                    file_name((king_to as i32 + toward) as u8)
                );
            }
        }
    }
    toml += &format!(
        "\n[end]\nstalemate = \"{stalemate}\"\nfifty_move_rule = {}\nrepetitions = {}\ninsufficient_material = []\n",
        rules.n_move_rule, rules.n_fold_rule
    );
    Translation {
        toml: Some(toml),
        problems: Vec::new(),
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_of_planned_keys_change_nothing() {
        let r = Rules::chess();
        assert!(is_default(Kind::Bool, "false", "false", &r));
        assert!(!is_default(Kind::Bool, "false", "true", &r));
        assert!(is_default(Kind::Pieces, "-", "-", &r));
        assert!(is_default(Kind::Word, "none", "none", &r));
        assert!(is_default(
            Kind::Region,
            "all",
            "*1 *2 *3 *4 *5 *6 *7 *8",
            &r
        ));
        assert!(!is_default(Kind::Region, "all", "*1", &r));
        assert!(
            is_default(Kind::Region, "", "*9", &r),
            "beyond an 8-rank board"
        );
        assert!(is_default(Kind::Text, "-", "", &r));
    }

    #[test]
    fn chess_translates_to_chess() {
        let t = translate(&Rules::chess(), "c", "[c:chess]", "t.ini");
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        let v = crate::variant::parse_variant(&t.toml.unwrap(), "t").unwrap();
        assert_eq!(
            v.start_fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        let castling = v.castling.unwrap();
        assert_eq!(castling.king_file, 4);
        assert_eq!(castling.king_side.unwrap().rook_to, 5);
        assert_eq!(castling.queen_side.unwrap().rook_to, 3);
        assert_eq!(v.pawns.promotion_ranks, vec![7]);
        assert_eq!(v.pawns.promotion_pieces.len(), 4);
        assert_eq!(v.end.fifty_move_plies, 100);
    }

    #[test]
    fn values_are_estimated_from_the_moves() {
        assert_eq!(estimate_value("N"), 320);
        assert!(estimate_value("QN") > estimate_value("Q"));
        assert!(estimate_value("mNcB") < estimate_value("NB"));
        assert!(estimate_value("F") < estimate_value("K"));
    }
}
