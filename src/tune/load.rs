//! Reads data files into the tuner's dataset: every game of every file replayed and its kept
//! positions traced, in parallel. A file that starts with a PGN tag is read as the games of a
//! match (`pgn_data`). The shards of one `magus datagen` run read together as that run; a
//! game that two files hold (shards that overlap, a file given twice) is an error, since it
//! would count twice. (Two runs with the same settings by different engine versions hold
//! different games under the same indices: those are kept.)

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;

use rayon::prelude::*;

use super::data::{GameRecord, Header, Sample};
use super::fit::{Dataset, Slots};
use super::pgn_data::games_from_pgn;
use crate::eval::{EvalTables, trace};
use crate::variant::Variant;
use crate::with_position;

/// What was read.
#[derive(Debug, Default)]
pub struct Loaded {
    pub games: usize,
    pub positions: usize,
    /// Files whose last line was cut short (left out).
    pub cut_short: Vec<String>,
    /// Per PGN file, what it left out, in words (nothing when it left nothing out).
    pub pgn_left_out: Vec<String>,
}

/// Reads `paths` (data files or PGN files of `variant`, by name) and traces their positions under the
/// weights of `variant`.
pub fn load(
    paths: &[PathBuf],
    variant: &'static Variant,
    slots: &Slots,
) -> Result<(Dataset, Loaded), String> {
    let (parts, loaded) = read_games(paths, variant, |samples| {
        let mut part = Dataset::new();
        for s in samples {
            let t = with_position!(&s.position, p => trace(p, EvalTables::of(p.layout())));
            part.push(&t, slots, s.result, s.score as f32);
        }
        part
    })?;
    let mut data = Dataset::new();
    for part in parts {
        data.append(part);
    }
    Ok((data, loaded))
}

/// Reads `paths` (data files or PGN files of `variant`) and turns each game's kept positions
/// into a `T` by `per_game`, in parallel; the games' parts come back in the files' order.
pub fn read_games<T: Send>(
    paths: &[PathBuf],
    variant: &'static Variant,
    per_game: impl Fn(&[Sample]) -> T + Sync + Send,
) -> Result<(Vec<T>, Loaded), String> {
    let mut out = Vec::new();
    let mut loaded = Loaded::default();
    // Each self-play game read so far, by its run's settings, its index and a hash of its
    // line: the file it is in.
    let mut seen: HashMap<(String, u64, u64), String> = HashMap::new();
    for path in paths {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let games = if text.trim_start().starts_with('[') {
            let (games, left_out) =
                games_from_pgn(&text, variant).map_err(|e| format!("{shown}: {e}"))?;
            if let Some(said) = left_out.describe() {
                loaded.pgn_left_out.push(format!("{shown}: {said}"));
            }
            games
                .into_iter()
                .map(|g| Ok((format!("game {}", g.index + 1), g)))
                .collect()
        } else {
            let (header, games) = data_file_games(&text, &shown, variant, &mut loaded)?;
            let run = Header {
                shard: None,
                ..header
            }
            .to_line();
            for (_, game) in games.iter().flatten() {
                let mut line = DefaultHasher::new();
                game.to_line().hash(&mut line);
                let key = (run.clone(), game.index, line.finish());
                if let Some(other) = seen.insert(key, shown.clone()) {
                    return Err(format!(
                        "game {} of the same run is in {other} and in {shown}: shards must not \
                         overlap, and a file counts once",
                        game.index
                    ));
                }
            }
            games
        };
        let parts: Vec<Result<(T, usize), String>> = games
            .into_par_iter()
            .map(|game: PlacedGame| {
                let (place, game) = game?;
                let samples = game
                    .samples(variant)
                    .map_err(|e| format!("{shown}: {place}: {e}"))?;
                Ok((per_game(&samples), samples.len()))
            })
            .collect();
        for part in parts {
            let (part, n) = part?;
            loaded.games += 1;
            loaded.positions += n;
            out.push(part);
        }
    }
    Ok((out, loaded))
}

/// A game read, with where it stands in its file (`line 7`, `game 3`), or why it could not be
/// read.
type PlacedGame = Result<(String, GameRecord), String>;

/// The header of a data file's text and its games, each with its line (an unreadable line is
/// an error naming it).
fn data_file_games(
    text: &str,
    shown: &str,
    variant: &Variant,
    loaded: &mut Loaded,
) -> Result<(Header, Vec<PlacedGame>), String> {
    let (complete, cut) = match text.rfind('\n') {
        Some(end) => (&text[..=end], end + 1 < text.len()),
        None => ("", !text.is_empty()),
    };
    if cut {
        loaded.cut_short.push(shown.to_string());
    }
    let lines: Vec<&str> = complete.lines().collect();
    let Some(first) = lines.first() else {
        return Err(format!("{shown}: empty, or its first line is cut short"));
    };
    let header = Header::parse(first).map_err(|e| format!("{shown}: line 1: {e}"))?;
    if header.variant != variant.name {
        return Err(format!(
            "{shown}: its games are of variant '{}', not '{}'",
            header.variant, variant.name
        ));
    }
    let games = lines
        .par_iter()
        .enumerate()
        .skip(1)
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(n, line)| {
            GameRecord::parse(line)
                .map(|game| (format!("line {}", n + 1), game))
                .map_err(|e| format!("{shown}: line {}: {e}", n + 1))
        })
        .collect();
    Ok((header, games))
}
