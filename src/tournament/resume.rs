//! `--resume`: a match that was interrupted (Ctrl-C, a crash of the machine) goes on from its
//! PGN file. Every game in the file must be one this match schedules, between the same
//! engines, from the same opening, with the same settings (the `MatchSettings` tag, as
//! `--merge` checks them: a game without one, from an older magus, is taken unchecked); those
//! games are counted and not played again. A last game torn by a crash is cut off the file
//! first, so that the games appended after it read.

use std::collections::HashSet;

use super::openings::Opening;
use super::records::{read_pgn_games, record_from_pgn};
use super::referee::GameRecord;
use super::settings_record::{self, SettingsRecord};
use super::{Config, Job};
use crate::game::{AnyPosition, Game};

/// The SAN of an opening's book moves, as the referee writes them into the PGN.
fn book_san(config: &Config, opening: &Opening) -> Result<Vec<String>, String> {
    let start = AnyPosition::from_fen(config.settings.variant, opening.fen.as_deref())?;
    let mut game = Game::new(start);
    let mut sans = Vec::new();
    for m in &opening.moves {
        let before = *game.position();
        let mv = game.play_wire(m, 1)?;
        sans.push(before.san(mv).replace(' ', ""));
    }
    Ok(sans)
}

/// The finished games of `config.pgn_out` (none when the file does not exist yet), checked
/// against the schedule `jobs` and their `openings`.
pub fn finished_games(
    config: &Config,
    jobs: &[Job],
    openings: &[Opening],
) -> Result<Vec<GameRecord>, String> {
    let path = config
        .pgn_out
        .as_ref()
        .ok_or("--resume: give the match's --pgnout file, which it continues")?;
    let shown = path.display();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("--resume: {shown}: {e}")),
    };
    let (games, torn) = read_pgn_games(&text).map_err(|e| format!("--resume: {shown}: {e}"))?;
    if let Some(at) = torn {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("--resume: {shown}: {e}"))?;
        file.set_len(at as u64)
            .and_then(|_| file.sync_all())
            .map_err(|e| format!("--resume: cutting the torn last game off {shown}: {e}"))?;
        log::warn!("--resume: {shown}: the last game was cut off in the middle and is dropped");
    }
    let variant = &config.settings.variant.name;
    let settings = SettingsRecord::of(config);
    let mut seen = HashSet::new();
    let mut records = Vec::new();
    for g in &games {
        let mut r = record_from_pgn(g).map_err(|e| format!("--resume: {shown}: {e}"))?;
        let n = r.number;
        let wrong = |what: String| format!("--resume: {shown}: game {n} {what}");
        let job = jobs
            .iter()
            .find(|j| j.number == n)
            .ok_or_else(|| wrong("is not a game of this match (or of this shard)".into()))?;
        if !seen.insert(n) {
            return Err(wrong("is in the file twice".into()));
        }
        if let Some(tag) = g.tag(settings_record::PGN_TAG) {
            let recorded = SettingsRecord::parse(tag).map_err(&wrong)?;
            if let Some(d) = recorded.difference(&settings) {
                return Err(wrong(format!(
                    "was played with other settings than this match's: {d} (give the same \
                     flags as the interrupted run, or another --pgnout)"
                )));
            }
        }
        let (white, black) = (
            &config.engines[job.white].name,
            &config.engines[job.black].name,
        );
        if r.white_name != *white || r.black_name != *black {
            return Err(wrong(format!(
                "is {} against {}, but this match plays {white} against {black}",
                r.white_name, r.black_name
            )));
        }
        if r.variant != *variant {
            return Err(wrong(format!("is {}, not {variant}", r.variant)));
        }
        let opening = &openings[job.opening];
        let book: Vec<String> = r
            .moves
            .iter()
            .take_while(|m| m.comment == "book")
            .map(|m| m.san.clone())
            .collect();
        if r.fen != opening.fen || book != book_san(config, opening)? {
            return Err(wrong(
                "starts from another opening than this match's (another seed or openings file?)"
                    .into(),
            ));
        }
        r.white = job.white;
        r.black = job.black;
        r.round = job.round;
        r.opening = job.opening;
        records.push(r);
    }
    records.sort_by_key(|r| r.number);
    Ok(records)
}
