//! The TOML definition file: its schema, and the checks that turn it into a [`Variant`].
//!
//! Every key is known (an unknown one is an error), and every value is checked: a message
//! names the file, the key and what is wrong.

use serde::Deserialize;

use super::betza;
use super::definitions::Problem;
use super::limits::{MAX_FILES, MAX_KINDS, MAX_MOVES_TO_GO, MAX_SQUARES, excerpt};
use super::{
    CastleSide, Castling, Coord, EnPassant, EndRules, Mechanics, MultiStep, PawnRules, PieceDef,
    Role, Stalemate, Variant,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDef {
    name: String,
    title: Option<String>,
    files: u8,
    ranks: u8,
    start: String,
    summary: Option<String>,
    piece: Vec<PieceFile>,
    pawns: Option<PawnsFile>,
    castling: Option<CastlingFile>,
    end: Option<EndFile>,
    swap_in: Option<SwapInFile>,
    rank_promotion: Option<RankPromotionFile>,
    transference: Option<TransferenceFile>,
    spells: Option<SpellsFile>,
    drops: Option<DropsFile>,
    /// The evaluation's weights (`weights.rs`).
    eval: Option<toml::Table>,
    time: Option<TimeFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeFile {
    moves_to_go: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SwapInFile {
    from: String,
    to: String,
    #[serde(default)]
    per_game: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RankPromotionFile {
    rank: u8,
    piece: String,
    choices: Option<String>,
    dictated: Option<Vec<[String; 2]>>,
    family: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TransferenceFile {
    pieces: String,
    ranks: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpellsFile {
    casters: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DropsFile {
    carriers: String,
    /// White's trigger ranks, from 1, rising.
    ranks: Vec<u8>,
    /// Per trigger rank, the letters of the pieces that may be dropped there.
    pieces: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceFile {
    letter: String,
    name: String,
    betza: String,
    value: i32,
    role: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PawnsFile {
    #[serde(default)]
    multi_step: Vec<MultiStepFile>,
    en_passant: Option<String>,
    promotion_ranks: Option<Vec<u8>>,
    promotion_pieces: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MultiStepFile {
    ranks: Option<Vec<u8>>,
    squares: Option<Vec<String>>,
    steps: u8,
    #[serde(default)]
    unmoved_only: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CastlingFile {
    king_file: String,
    king_side: Option<CastleSideFile>,
    queen_side: Option<CastleSideFile>,
    king_side_san: Option<String>,
    queen_side_san: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CastleSideFile {
    king_to: String,
    rook_from: String,
    rook_to: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EndFile {
    stalemate: Option<String>,
    fifty_move_rule: Option<u16>,
    repetitions: Option<u8>,
    insufficient_material: Option<Vec<String>>,
}

/// Reads a definition. `source` names the file in messages; an error is the first problem.
pub fn parse_variant(text: &str, source: &str) -> Result<Variant, String> {
    let def: FileDef = toml::from_str(text).map_err(|e| describe_toml_error(text, source, &e))?;
    validate(def, source).map_err(|e| format!("{source}: {}", e[0]))
}

/// Reads a definition, with every problem, each placed on its line. A TOML syntax or type
/// error stops the reading (there is no variant to check past it).
pub fn read_toml(text: &str, source: &str) -> Result<Variant, Vec<Problem>> {
    let def: FileDef = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        let message = e.message().trim().to_string();
        let shown = line
            .and_then(|n| text.lines().nth(n - 1))
            .map(|l| format!("`{}`: ", excerpt(l.trim())))
            .unwrap_or_default();
        vec![Problem {
            source: source.to_string(),
            line,
            section: None,
            key: None,
            message: format!("{shown}{message}"),
        }]
    })?;
    validate(def, source).map_err(|errors| {
        let document = toml::de::DeTable::parse(text).ok();
        let lines = LineStarts::new(text);
        errors
            .into_iter()
            .map(|e| {
                // "key 'a.b[2].c': …", "key 'piece[2].betza' (Knight): …" or "keys 'a'/'b': …"
                let (key, first_key, message) = if let Some(rest) = e.strip_prefix("key '")
                    && let Some((k, tail)) = rest.split_once('\'')
                {
                    let tail = tail.trim_start_matches(':').trim();
                    (Some(k.to_string()), Some(k.to_string()), tail.to_string())
                } else if let Some(rest) = e.strip_prefix("keys ")
                    && let Some((keys, tail)) = rest.split_once(": ")
                {
                    let first = keys.split('/').next().map(|k| k.replace('\'', ""));
                    (Some(keys.replace('\'', "")), first, tail.to_string())
                } else {
                    (None, None, e.clone())
                };
                let line = first_key.as_deref().and_then(|k| {
                    document
                        .as_ref()
                        .and_then(|d| locate(d.get_ref(), k))
                        .map(|offset| lines.line_of(offset))
                });
                Problem {
                    source: source.to_string(),
                    line,
                    section: None,
                    key,
                    message,
                }
            })
            .collect()
    })
}

/// The line of a key (`start`, `piece[2].betza`) in a definition, if it is there.
pub fn line_of_key(text: &str, key: &str) -> Option<usize> {
    let document = toml::de::DeTable::parse(text).ok()?;
    locate(document.get_ref(), key).map(|offset| line_of(text, offset))
}

/// The 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Where each line of a text starts, so that the lines of many problems are found without
/// reading the text again for each.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(text: &str) -> LineStarts {
        let ends = text.match_indices('\n').map(|(i, _)| i + 1);
        LineStarts(std::iter::once(0).chain(ends).collect())
    }

    /// The 1-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// Where a key (`piece[2].betza`, `pawns.multi_step[1].steps`) is in a document, as a byte
/// offset: the key itself, or the nearest enclosing one that is there.
fn locate(table: &toml::de::DeTable, path: &str) -> Option<usize> {
    let mut current = table;
    let mut found = None;
    for segment in path.split('.') {
        let (name, index) = match segment.split_once('[') {
            Some((n, i)) => (n, i.trim_end_matches(']').parse::<usize>().ok()),
            None => (segment, None),
        };
        let Some((key, value)) = current.iter().find(|(k, _)| k.get_ref() == name) else {
            break;
        };
        found = Some(key.span().start);
        let mut value = value;
        if let Some(i) = index {
            match value.get_ref().get(i.saturating_sub(1)) {
                Some(element) => {
                    found = Some(element.span().start);
                    value = element;
                }
                None => break,
            }
        }
        match value.get_ref().as_table() {
            Some(t) => current = t,
            None => break,
        }
    }
    found
}

fn describe_toml_error(text: &str, source: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().to_string();
    match e.span() {
        Some(span) => {
            let line_number = text[..span.start.min(text.len())].matches('\n').count() + 1;
            let line = text.lines().nth(line_number - 1).unwrap_or("").trim();
            format!(
                "{source}: line {line_number} (`{}`): {message}",
                excerpt(line)
            )
        }
        None => format!("{source}: {message}"),
    }
}

fn file_of(name: &str, files: u8, key: &str) -> Result<u8, String> {
    let bytes = name.as_bytes();
    if bytes.len() == 1 && bytes[0].is_ascii_lowercase() && bytes[0] - b'a' < files {
        Ok(bytes[0] - b'a')
    } else {
        Err(format!(
            "key '{key}': '{name}' is not a file of this board (a to {})",
            (b'a' + files - 1) as char
        ))
    }
}

fn coord_of(name: &str, files: u8, ranks: u8, key: &str) -> Result<Coord, String> {
    let bad = || format!("key '{key}': '{name}' is not a square of this board");
    let file = file_of(name.get(..1).ok_or_else(bad)?, files, key).map_err(|_| bad())?;
    let rank: u8 = name[1..].parse().map_err(|_| bad())?;
    if rank == 0 || rank > ranks {
        return Err(bad());
    }
    Ok((file, rank - 1))
}

/// Checks a parsed file. Every problem is collected (a stage whose input is bad is skipped
/// rather than guessed at), in the order the checks run, so the first is what a one-line
/// message shows.
fn validate(def: FileDef, source: &str) -> Result<Variant, Vec<String>> {
    let mut errors: Vec<String> = Vec::new();
    let name = def.name.trim().to_string();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        errors.push(format!(
            "key 'name': '{}' must be letters, digits, '-' or '_' (it is the variant's identifier)",
            excerpt(&def.name)
        ));
    }
    let (files, ranks) = (def.files, def.ranks);
    let mut board_ok = true;
    if !(2..=MAX_FILES).contains(&files) || !(2..=MAX_FILES).contains(&ranks) {
        errors.push(format!(
            "keys 'files'/'ranks': {files}x{ranks} is not a board size from 2 to {MAX_FILES} per side"
        ));
        board_ok = false;
    } else if files as usize * ranks as usize > MAX_SQUARES {
        errors.push(format!(
            "keys 'files'/'ranks': {files}x{ranks} has {} squares, more than {MAX_SQUARES}",
            files as usize * ranks as usize
        ));
        board_ok = false;
    }

    if def.piece.is_empty() {
        errors.push("key 'piece': no pieces defined".into());
    }
    if def.piece.len() > MAX_KINDS {
        errors.push(format!(
            "key 'piece': {} pieces defined, at most {MAX_KINDS}",
            def.piece.len()
        ));
        // Every later check looks at the pieces: refused here, it costs nothing more.
        return Err(errors);
    }
    let mut pieces: Vec<PieceDef> = Vec::new();
    for (i, p) in def.piece.iter().enumerate() {
        let key = format!("piece[{}]", i + 1);
        let mut letters = p.letter.chars();
        let letter = match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                errors.push(format!(
                    "key '{key}.letter': '{}' must be one upper-case letter",
                    p.letter
                ));
                continue;
            }
        };
        if pieces.iter().any(|q| q.letter == letter) {
            errors.push(format!(
                "key '{key}.letter': '{letter}' is used by two pieces"
            ));
            continue;
        }
        let atoms = match betza::parse(&p.betza) {
            Ok(atoms) => atoms,
            Err(e) => {
                errors.push(format!("key '{key}.betza' ({}): '{}' {e}", p.name, p.betza));
                Vec::new()
            }
        };
        let role = match p.role.as_deref() {
            None | Some("ordinary") => Role::Ordinary,
            Some("pawn") => Role::Pawn,
            Some("king") => Role::King,
            Some(other) => {
                errors.push(format!(
                    "key '{key}.role': '{other}' is not a role (ordinary, pawn, king)"
                ));
                Role::Ordinary
            }
        };
        if !(-100_000..=100_000).contains(&p.value) {
            errors.push(format!(
                "key '{key}.value': {} is out of range (±100000)",
                p.value
            ));
        }
        pieces.push(PieceDef {
            letter,
            name: p.name.clone(),
            betza: p.betza.clone(),
            atoms,
            value: p.value,
            role,
        });
    }
    for (role, word) in [(Role::King, "king"), (Role::Pawn, "pawn")] {
        let count = pieces.iter().filter(|p| p.role == role).count();
        if count > 1 {
            errors.push(format!(
                "key 'piece': {count} pieces have role '{word}', at most one may"
            ));
        }
    }
    if !pieces.iter().any(|p| p.role == Role::King) {
        errors.push("key 'piece': no piece has role 'king'".into());
    }

    let mut pawns = PawnRules {
        multi_step: vec![],
        en_passant: EnPassant::None,
        promotion_ranks: vec![],
        promotion_pieces: vec![],
    };
    if let Some(p) = def.pawns {
        if !pieces.iter().any(|q| q.role == Role::Pawn) {
            errors.push("key 'pawns': there is no piece with role 'pawn'".into());
        }
        for (i, m) in p.multi_step.iter().enumerate() {
            let key = format!("pawns.multi_step[{}]", i + 1);
            if !board_ok {
                break;
            }
            let mut squares = Vec::new();
            for &r in m.ranks.iter().flatten() {
                if r == 0 || r > ranks {
                    errors.push(format!(
                        "key '{key}.ranks': {r} is not a rank of this board"
                    ));
                    continue;
                }
                squares.extend((0..files).map(|f| (f, r - 1)));
            }
            let mut bad_square = false;
            for s in m.squares.iter().flatten() {
                match coord_of(s, files, ranks, &format!("{key}.squares")) {
                    Ok(c) => squares.push(c),
                    Err(e) => {
                        errors.push(e);
                        bad_square = true;
                    }
                }
            }
            if !bad_square && squares.is_empty() {
                errors.push(format!("key '{key}': give 'ranks' or 'squares'"));
            }
            if m.steps < 2 || m.steps >= ranks {
                errors.push(format!(
                    "key '{key}.steps': {} must be from 2 to {}",
                    m.steps,
                    ranks - 1
                ));
            }
            pawns.multi_step.push(MultiStep {
                squares,
                steps: m.steps,
                unmoved_only: m.unmoved_only,
            });
        }
        pawns.en_passant = match p.en_passant.as_deref() {
            None | Some("none") => EnPassant::None,
            Some("passed-squares") => EnPassant::PassedSquares,
            Some("from-third-rank") => EnPassant::FromThirdRank,
            Some(other) => {
                errors.push(format!(
                    "key 'pawns.en_passant': '{other}' is not a rule (none, passed-squares, from-third-rank)"
                ));
                EnPassant::None
            }
        };
        let given_ranks = p.promotion_ranks.unwrap_or_default();
        for &r in &given_ranks {
            if r == 0 || r > ranks {
                errors.push(format!(
                    "key 'pawns.promotion_ranks': {r} is not a rank of this board"
                ));
            } else {
                pawns.promotion_ranks.push(r - 1);
            }
        }
        let given_pieces = p.promotion_pieces.unwrap_or_default();
        for c in given_pieces.chars() {
            let Some(k) = pieces.iter().position(|q| q.letter == c) else {
                errors.push(format!(
                    "key 'pawns.promotion_pieces': '{c}' is not a piece letter of this variant"
                ));
                continue;
            };
            if pieces[k].role != Role::Ordinary {
                errors.push(format!(
                    "key 'pawns.promotion_pieces': a pawn cannot promote to '{c}' ({})",
                    pieces[k].name
                ));
                continue;
            }
            pawns.promotion_pieces.push(k as u8);
        }
        if given_ranks.is_empty() != given_pieces.is_empty() {
            errors.push(
                "keys 'pawns.promotion_ranks'/'pawns.promotion_pieces': give both or neither"
                    .into(),
            );
        }
    }

    let mut castling = None;
    if let Some(c) = def.castling
        && board_ok
    {
        let mut ok = true;
        let mut file =
            |name: &str, key: &str, errors: &mut Vec<String>| match file_of(name, files, key) {
                Ok(f) => f,
                Err(e) => {
                    errors.push(e);
                    ok = false;
                    0
                }
            };
        let king_file = file(&c.king_file, "castling.king_file", &mut errors);
        let mut side = |s: &Option<CastleSideFile>, key: &str, errors: &mut Vec<String>| {
            let s = s.as_ref()?;
            let side = CastleSide {
                king_to: file(&s.king_to, &format!("{key}.king_to"), errors),
                rook_from: file(&s.rook_from, &format!("{key}.rook_from"), errors),
                rook_to: file(&s.rook_to, &format!("{key}.rook_to"), errors),
            };
            Some(side)
        };
        let king_side = side(&c.king_side, "castling.king_side", &mut errors);
        let queen_side = side(&c.queen_side, "castling.queen_side", &mut errors);
        // A file that could not be read stands as 'a': no collision to judge then.
        let files_read = ok;
        for (s, key) in [
            (king_side, "castling.king_side"),
            (queen_side, "castling.queen_side"),
        ] {
            if let Some(s) = s
                && files_read
                && (s.rook_from == king_file || s.king_to == s.rook_to)
            {
                errors.push(format!("key '{key}': the king and the rook would collide"));
                ok = false;
            }
        }
        if king_side.is_none() && queen_side.is_none() {
            errors.push("key 'castling': give 'king_side' or 'queen_side'".into());
            ok = false;
        }
        for (key, san) in [
            ("king_side_san", &c.king_side_san),
            ("queen_side_san", &c.queen_side_san),
        ] {
            if let Some(san) = san
                && (san.is_empty() || san.contains(char::is_whitespace))
            {
                errors.push(format!("key 'castling.{key}': '{san}' must be one word"));
                ok = false;
            }
        }
        if ok {
            castling = Some(Castling {
                king_file,
                king_side,
                queen_side,
                king_side_san: c.king_side_san,
                queen_side_san: c.queen_side_san,
            });
        }
    }

    let end = {
        let e = def.end.unwrap_or(EndFile {
            stalemate: None,
            fifty_move_rule: None,
            repetitions: None,
            insufficient_material: None,
        });
        let stalemate = match e.stalemate.as_deref() {
            None | Some("draw") => Stalemate::Draw,
            Some("loss") => Stalemate::Loss,
            Some("win") => Stalemate::Win,
            Some(other) => {
                errors.push(format!(
                    "key 'end.stalemate': '{other}' is not an outcome (draw, loss, win)"
                ));
                Stalemate::Draw
            }
        };
        let fifty = e.fifty_move_rule.unwrap_or(50);
        if fifty > 1000 {
            errors.push(format!(
                "key 'end.fifty_move_rule': {fifty} moves is too many (at most 1000; 0 turns it off)"
            ));
        }
        let repetitions = e.repetitions.unwrap_or(3);
        if repetitions == 1 || repetitions > 10 {
            errors.push(format!(
                "key 'end.repetitions': {repetitions} must be 0 (off) or 2 to 10"
            ));
        }
        let insufficient = e.insufficient_material.unwrap_or_default();
        for m in &insufficient {
            if let Some(c) = m.chars().find(|&c| !pieces.iter().any(|p| p.letter == c)) {
                errors.push(format!(
                    "key 'end.insufficient_material': '{m}' has '{c}', not a piece letter of this variant"
                ));
            }
        }
        EndRules {
            stalemate,
            fifty_move_plies: fifty.min(1000) * 2,
            repetitions,
            insufficient_material: insufficient,
        }
    };

    let letter_kind = |text: &str, key: &str| -> Result<u8, String> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => pieces
                .iter()
                .position(|p| p.letter == c)
                .map(|k| k as u8)
                .ok_or_else(|| format!("key '{key}': '{c}' is not a piece letter of this variant")),
            _ => Err(format!("key '{key}': '{text}' must be one piece letter")),
        }
    };
    let letters_kinds = |text: &str, key: &str| -> Result<Vec<u8>, String> {
        if text.is_empty() {
            return Err(format!("key '{key}': no piece letters given"));
        }
        text.chars()
            .map(|c| letter_kind(&c.to_string(), key))
            .collect()
    };
    let mut mechanics = Mechanics::default();
    let mut note = |r: Result<(), String>| {
        if let Err(e) = r {
            errors.push(e);
        }
    };
    if let Some(s) = def.swap_in {
        note((|| {
            mechanics.swap_in = Some(super::SwapIn {
                from: letter_kind(&s.from, "swap_in.from")?,
                to: letter_kind(&s.to, "swap_in.to")?,
                per_game: s.per_game.min(15),
            });
            Ok(())
        })());
    }
    if let Some(r) = def.rank_promotion {
        note((|| {
            if r.rank == 0 || r.rank > ranks {
                return Err(format!(
                    "key 'rank_promotion.rank': {} is not a rank of this board",
                    r.rank
                ));
            }
            let choice = match (r.choices, r.dictated) {
                (Some(c), None) => {
                    super::RankPromotionChoice::Choice(letters_kinds(&c, "rank_promotion.choices")?)
                }
                (None, Some(d)) => {
                    let mut order = Vec::new();
                    for [theirs, result] in &d {
                        order.push((
                            letter_kind(theirs, "rank_promotion.dictated")?,
                            letter_kind(result, "rank_promotion.dictated")?,
                        ));
                    }
                    super::RankPromotionChoice::Dictated(order)
                }
                _ => {
                    return Err(
                        "key 'rank_promotion': give exactly one of 'choices' and 'dictated'".into(),
                    );
                }
            };
            let family = match &r.family {
                Some(f) => letters_kinds(f, "rank_promotion.family")?,
                None => Vec::new(),
            };
            mechanics.rank_promotion = Some(super::RankPromotion {
                rank: r.rank - 1,
                piece: letter_kind(&r.piece, "rank_promotion.piece")?,
                choice,
                family,
            });
            Ok(())
        })());
    }
    if let Some(t) = def.transference {
        note((|| {
            if t.ranks == 0 || t.ranks > ranks {
                return Err(format!(
                    "key 'transference.ranks': {} is not a number of ranks of this board",
                    t.ranks
                ));
            }
            mechanics.transference = Some(super::Transference {
                pieces: letters_kinds(&t.pieces, "transference.pieces")?,
                ranks: t.ranks,
            });
            Ok(())
        })());
    }
    if let Some(s) = def.spells {
        note((|| {
            mechanics.spells = Some(super::Spells {
                casters: letters_kinds(&s.casters, "spells.casters")?,
            });
            Ok(())
        })());
    }
    if let Some(d) = def.drops {
        note((|| {
            let carriers = letters_kinds(&d.carriers, "drops.carriers")?;
            let stage_pieces = d
                .pieces
                .iter()
                .map(|p| letters_kinds(p, "drops.pieces"))
                .collect::<Result<Vec<_>, _>>()?;
            let drops = validate_drops(
                carriers,
                &d.ranks,
                stage_pieces,
                &pieces,
                &pawns,
                ranks,
                files as usize * ranks as usize,
            )?;
            if mechanics.swap_in.as_ref().is_some_and(|s| s.per_game > 0) {
                return Err("keys 'drops'/'swap_in.per_game': both keep their counts in the same state slots of a position; a variant may have one of them".into());
            }
            mechanics.drops = Some(drops);
            Ok(())
        })());
    }

    errors.extend(royal_piece_changes(&mechanics, &pieces));

    let moves_to_go = def.time.and_then(|t| t.moves_to_go);
    if let Some(n) = moves_to_go
        && !(1..=MAX_MOVES_TO_GO).contains(&n)
    {
        errors.push(format!(
            "key 'time.moves_to_go': {n} moves, expected 1 to {MAX_MOVES_TO_GO}"
        ));
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    let mut variant = Variant {
        title: def.title.unwrap_or_else(|| name.clone()),
        name,
        source: source.to_string(),
        files,
        ranks,
        start_fen: def.start.trim().to_string(),
        summary: def.summary.unwrap_or_default().trim().to_string(),
        pieces,
        pawns,
        castling,
        end,
        mechanics,
        moves_to_go,
        weights: Default::default(),
    };
    variant.weights = super::weights::Weights::defaults(&variant);
    if let Some(table) = &def.eval {
        variant.weights.apply_table(table)?;
    }
    Ok(variant)
}

/// A position has exactly one King a side (a FEN with none or two is refused), so no
/// mechanic may turn a piece into the royal one or the royal one into another: the engine
/// would play into positions it refuses. Pawn promotion and drops refuse every piece but the
/// ordinary ones where they read it; the swap-in and the rank promotion are judged here.
fn royal_piece_changes(mechanics: &Mechanics, pieces: &[PieceDef]) -> Vec<String> {
    let royal = |k: &u8| pieces[*k as usize].role == Role::King;
    let mut errors = Vec::new();
    let mut refuse = |key: &str, k: u8, what: &str| {
        errors.push(format!(
            "key '{key}': '{}' ({}) is the royal piece; {what}, and a side must keep exactly one",
            pieces[k as usize].letter, pieces[k as usize].name
        ));
    };
    if let Some(s) = &mechanics.swap_in {
        if royal(&s.from) {
            refuse(
                "swap_in.from",
                s.from,
                "a swap would leave a side without it",
            );
        }
        if royal(&s.to) {
            refuse("swap_in.to", s.to, "a swap would give a side a second one");
        }
    }
    if let Some(r) = &mechanics.rank_promotion {
        if royal(&r.piece) {
            refuse(
                "rank_promotion.piece",
                r.piece,
                "promoting it would leave a side without it",
            );
        }
        let (key, results): (&str, Vec<u8>) = match &r.choice {
            super::RankPromotionChoice::Choice(kinds) => ("rank_promotion.choices", kinds.clone()),
            super::RankPromotionChoice::Dictated(order) => (
                "rank_promotion.dictated",
                order.iter().map(|&(_, result)| result).collect(),
            ),
        };
        for (key, k) in results
            .into_iter()
            .map(|k| (key, k))
            .chain(r.family.iter().map(|&k| ("rank_promotion.family", k)))
        {
            if royal(&k) {
                refuse(key, k, "a promotion to it would give a side a second one");
                break;
            }
        }
    }
    errors
}

/// Checks a drop schedule (`[drops]`): what the engine relies on is refused here, with the key.
fn validate_drops(
    carriers: Vec<u8>,
    trigger_ranks: &[u8],
    stage_pieces: Vec<Vec<u8>>,
    pieces: &[PieceDef],
    pawns: &PawnRules,
    ranks: u8,
    squares: usize,
) -> Result<super::Drops, String> {
    let name = |k: u8| &pieces[k as usize].name;
    if carriers.len() > 2 {
        return Err(format!(
            "key 'drops.carriers': {} carriers, at most 2 (the position keeps one state per carrier and side)",
            carriers.len()
        ));
    }
    for (i, &c) in carriers.iter().enumerate() {
        let letter = pieces[c as usize].letter;
        if carriers[..i].contains(&c) {
            return Err(format!("key 'drops.carriers': '{letter}' is given twice"));
        }
        if pieces[c as usize].role == Role::Pawn {
            return Err(format!(
                "key 'drops.carriers': '{letter}' is the pawn; a carrier keeps its reserve all game"
            ));
        }
        // Triggers fire in rank order only if a carrier cannot skip a rank.
        let skips = pieces[c as usize].atoms.iter().any(|a| {
            a.steps
                .iter()
                .any(|&(_, dy)| dy.abs() > 1 || (dy != 0 && a.range != 1))
        });
        if skips {
            return Err(format!(
                "key 'drops.carriers': '{letter}' ({}) can cross more than one rank in a move; a carrier must move at most one rank at a time so that it meets its trigger ranks in order",
                name(c)
            ));
        }
        if pawns.promotion_pieces.contains(&c) {
            return Err(format!(
                "key 'drops.carriers': pawns promote to '{letter}' (pawns.promotion_pieces), but each side has one reserve per carrier, for one piece"
            ));
        }
    }
    if trigger_ranks.is_empty() || trigger_ranks.len() > 4 {
        return Err(format!(
            "key 'drops.ranks': {} trigger ranks, expected 1 to 4",
            trigger_ranks.len()
        ));
    }
    for (i, &r) in trigger_ranks.iter().enumerate() {
        if r < 2 || r > ranks {
            return Err(format!(
                "key 'drops.ranks': {r} is not a rank from 2 to {ranks} (a carrier starts below its first trigger)"
            ));
        }
        if i > 0 && r <= trigger_ranks[i - 1] {
            return Err(format!(
                "key 'drops.ranks': {r} follows {}; the ranks must rise",
                trigger_ranks[i - 1]
            ));
        }
    }
    if stage_pieces.len() != trigger_ranks.len() {
        return Err(format!(
            "key 'drops.pieces': {} lists of pieces for {} trigger ranks (drops.ranks); give one per rank",
            stage_pieces.len(),
            trigger_ranks.len()
        ));
    }
    let mut reserve: Vec<u8> = Vec::new();
    for list in &stage_pieces {
        for (i, &k) in list.iter().enumerate() {
            let letter = pieces[k as usize].letter;
            if pieces[k as usize].role != Role::Ordinary || carriers.contains(&k) {
                return Err(format!(
                    "key 'drops.pieces': '{letter}' ({}) cannot be dropped; only ordinary pieces that carry nothing",
                    name(k)
                ));
            }
            if list[..i].contains(&k) {
                return Err(format!(
                    "key 'drops.pieces': '{letter}' is given twice for one rank"
                ));
            }
            if !reserve.contains(&k) {
                reserve.push(k);
            }
        }
    }
    if reserve.len() > 4 {
        return Err(format!(
            "key 'drops.pieces': {} different pieces, at most 4 (a carrier's reserve holds one of each)",
            reserve.len()
        ));
    }
    let stages: Vec<super::DropStage> = trigger_ranks
        .iter()
        .zip(&stage_pieces)
        .map(|(&rank, list)| super::DropStage {
            rank: rank - 1,
            choices: list.iter().fold(0u8, |acc, k| {
                acc | 1 << reserve.iter().position(|r| r == k).unwrap()
            }),
        })
        .collect();
    // Whatever was chosen before, every trigger must still have a piece left to drop.
    fn stuck(stages: &[super::DropStage], dropped: u8) -> Option<usize> {
        let n = dropped.count_ones() as usize;
        let stage = stages.get(n)?;
        let left = stage.choices & !dropped;
        if left == 0 {
            return Some(n);
        }
        (0..8)
            .filter(|b| left & 1 << b != 0)
            .find_map(|b| stuck(stages, dropped | 1 << b))
    }
    if let Some(n) = stuck(&stages, 0) {
        return Err(format!(
            "key 'drops.pieces': at rank {} nothing may be left to drop ('{}' may all have been dropped before); each piece is dropped once",
            trigger_ranks[n],
            stage_pieces[n]
                .iter()
                .map(|&k| pieces[k as usize].letter)
                .collect::<String>()
        ));
    }
    // One position's moves must fit the move list (2048, see movegen::MAX_MOVES), with room
    // for the ordinary moves: bound the trigger moves times their choices and squares.
    let forward_steps: usize = carriers
        .iter()
        .map(|&c| {
            let mut steps: Vec<(i8, i8)> = pieces[c as usize]
                .atoms
                .iter()
                .flat_map(|a| a.steps.iter().copied().filter(|&(_, dy)| dy == 1))
                .collect();
            steps.sort();
            steps.dedup();
            steps.len()
        })
        .sum();
    let widest = stages
        .iter()
        .map(|s| s.choices.count_ones() as usize)
        .max()
        .unwrap_or(0);
    let drop_moves = forward_steps * widest * squares;
    if drop_moves > 1200 {
        return Err(format!(
            "key 'drops': up to {drop_moves} moves with drops in one position ({forward_steps} trigger moves x {widest} pieces x {squares} squares), more than the 1200 a move list has room for"
        ));
    }
    Ok(super::Drops {
        carriers,
        reserve,
        stages,
    })
}
