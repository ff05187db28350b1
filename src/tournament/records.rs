//! Finished games written down and read back: the PGN a match appends to (`--pgnout`), the
//! results file of one line per game (`--results`), and reading either to resume a match or
//! to merge the files of several shards.
//!
//! A game is appended whole and flushed to the disk as soon as it ends, so a crash can only
//! leave the last game half-written; readers here skip such a torn tail (resuming cuts it off
//! the file before appending again).

use std::path::Path;

use super::payoff::Payoff;
use super::referee::{GameRecord, GameResult};
use super::settings_record::{self, SettingsRecord};
use crate::pgn::{PgnGame, PgnMove};

/// The first line of a results file: what the tab-separated columns hold.
pub const RESULTS_HEADER: &str =
    "# magus match results: game\topening\twhite\tblack\tresult\ttermination\tpayoff";

/// One game as a line of the results file: game number, opening number (from 1), White,
/// Black, result, termination, payoff (`-` without one).
pub fn results_line(g: &GameRecord) -> String {
    let payoff = g
        .payoff
        .map_or("-".to_string(), |(w, b)| format!("{w}-{b}"));
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}",
        g.number,
        g.opening + 1,
        g.white_name,
        g.black_name,
        g.result.pgn(),
        g.termination,
        payoff
    )
}

fn read_result(text: &str) -> Option<GameResult> {
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

fn read_payoff(text: &str) -> Result<Option<Payoff>, String> {
    if text == "-" {
        return Ok(None);
    }
    let (w, b) = text
        .split_once('-')
        .ok_or_else(|| format!("payoff '{text}' is not W-B"))?;
    let point = |p: &str| {
        p.parse::<u8>()
            .ok()
            .filter(|&n| n <= 12)
            .ok_or_else(|| format!("payoff '{text}' is not two numbers from 0 to 12"))
    };
    Ok(Some((point(w)?, point(b)?)))
}

fn number(text: &str, what: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("{what} '{text}' is not a number from 1"))
}

/// A game with only what the statistics need; the engines' indices are left at 0 for the
/// reader to set.
pub(super) fn bare_record(number: usize, opening: usize, white: &str, black: &str) -> GameRecord {
    GameRecord {
        number,
        round: 0,
        opening,
        white: 0,
        black: 0,
        white_name: white.to_string(),
        black_name: black.to_string(),
        variant: String::new(),
        fen: None,
        moves: Vec::new(),
        result: GameResult::Draw,
        termination: String::new(),
        detail: String::new(),
        payoff: None,
        time_control: [String::new(), String::new()],
    }
}

/// Reads a results file. Lines starting with `#` and blank lines are skipped; a line that does
/// not read is an error naming it, except a last line without its newline (torn by a crash),
/// which is skipped.
pub fn read_results(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    let lines: Vec<&str> = text.split('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        let torn_tail = i + 1 == lines.len() && !line.is_empty();
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = (|| -> Result<GameRecord, String> {
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 7 {
                return Err(format!("{} columns, not 7", f.len()));
            }
            let mut g = bare_record(
                number(f[0], "game")?,
                number(f[1], "opening")? - 1,
                f[2],
                f[3],
            );
            g.result = read_result(f[4]).ok_or_else(|| format!("result '{}'", f[4]))?;
            g.termination = f[5].to_string();
            g.payoff = read_payoff(f[6])?;
            Ok(g)
        })();
        match parsed {
            Ok(g) => games.push(g),
            Err(_) if torn_tail => {}
            Err(e) => return Err(format!("line {}: {e}", i + 1)),
        }
    }
    Ok(games)
}

/// A game of a PGN file written by `magus match` as a record: `Round` is the game number,
/// `OpeningNumber` the opening (files written before that tag: the pair of consecutive game
/// numbers, 1-2, 3-4, …, as OpenBench pairs them), `Payoff` the payoff.
pub fn record_from_pgn(game: &PgnGame) -> Result<GameRecord, String> {
    let tag = |name: &str| {
        game.tag(name)
            .ok_or_else(|| format!("it has no {name} tag"))
    };
    let n = number(tag("Round")?, "Round")?;
    let opening = match game.tag("OpeningNumber") {
        Some(o) => number(o, "OpeningNumber")? - 1,
        None => (n - 1) / 2,
    };
    let mut g = bare_record(n, opening, tag("White")?, tag("Black")?);
    g.result = read_result(&game.result).ok_or_else(|| {
        format!(
            "game {n}: its result '{}' is not a finished game's",
            game.result
        )
    })?;
    g.termination = game.tag("Termination").unwrap_or("").to_string();
    g.payoff = game
        .tag("Payoff")
        .map(read_payoff)
        .transpose()
        .map_err(|e| format!("game {n}: {e}"))?
        .flatten();
    g.variant = game.tag("Variant").unwrap_or("chess").to_string();
    g.fen = game.tag("FEN").map(str::to_string);
    g.moves = game
        .moves
        .iter()
        .map(|m: &PgnMove| super::referee::PlayedMove {
            san: m.san.clone(),
            wire: String::new(),
            comment: m.comment.clone().unwrap_or_default(),
        })
        .collect();
    g.detail = game.final_comment.clone().unwrap_or_default();
    let tc = |name: &str| game.tag(name).or(game.tag("TimeControl")).unwrap_or("-");
    g.time_control = [
        tc("WhiteTimeControl").to_string(),
        tc("BlackTimeControl").to_string(),
    ];
    Ok(g)
}

/// The games of a PGN file that `magus match` appended to, and the byte offset where a torn
/// last game starts (a game is cut off when it has no result: the write stopped inside it).
/// Every game starts with its `[Event` tag on a line of its own, as the match writes it.
pub fn read_pgn_games(text: &str) -> Result<(Vec<PgnGame>, Option<usize>), String> {
    let mut starts: Vec<usize> = text
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .collect();
    if text.trim().is_empty() {
        return Ok((Vec::new(), None));
    }
    if starts.first() != Some(&0)
        && !text[..starts.first().copied().unwrap_or(text.len())]
            .trim()
            .is_empty()
    {
        return Err("it does not start with an [Event tag: not a PGN file of magus match".into());
    }
    starts.push(text.len());
    let mut games = Vec::new();
    for (k, w) in starts.windows(2).enumerate() {
        let chunk = &text[w[0]..w[1]];
        let last = k + 2 == starts.len();
        let parsed = crate::pgn::read_all(chunk);
        let complete = match &parsed {
            Ok(g) => g.len() == 1 && read_result(&g[0].result).is_some(),
            Err(_) => false,
        };
        if complete {
            games.extend(parsed.unwrap());
        } else if last {
            return Ok((games, Some(w[0])));
        } else {
            let line = text[..w[0]].lines().count() + 1;
            return Err(match parsed {
                Err(e) => format!("the game from line {line}: {e}"),
                Ok(_) => format!("the game from line {line} has no result"),
            });
        }
    }
    Ok((games, None))
}

/// What a PGN or results file holds: its finished games and the match settings recorded with
/// them ([`SettingsRecord`]).
pub struct FileRecords {
    pub games: Vec<GameRecord>,
    /// Each different record found, in the order found.
    pub settings: Vec<SettingsRecord>,
    /// Some games have no record (written by a magus from before records were kept).
    pub unrecorded: bool,
}

/// Every finished game of a file: a PGN file (it starts with a tag) or a results file. A torn
/// last game, from a match still running or one that crashed, is left out.
pub fn read_file(path: &Path) -> Result<FileRecords, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let mut settings: Vec<SettingsRecord> = Vec::new();
    let mut note = |text: &str| -> Result<(), String> {
        let record = SettingsRecord::parse(text).map_err(|e| format!("{shown}: {e}"))?;
        if !settings.contains(&record) {
            settings.push(record);
        }
        Ok(())
    };
    let (games, unrecorded) = if text.trim_start().starts_with('[') {
        let (pgn, _) = read_pgn_games(&text).map_err(|e| format!("{shown}: {e}"))?;
        let mut unrecorded = false;
        for g in &pgn {
            match g.tag(settings_record::PGN_TAG) {
                Some(t) => note(t)?,
                None => unrecorded = true,
            }
        }
        let games = pgn
            .iter()
            .map(|g| record_from_pgn(g).map_err(|e| format!("{shown}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        (games, unrecorded)
    } else {
        let games = read_results(&text).map_err(|e| format!("{shown}: {e}"))?;
        let mut recorded = false;
        for line in text.lines() {
            if let Some(t) = line.strip_prefix(settings_record::RESULTS_PREFIX) {
                note(t)?;
                recorded = true;
            }
        }
        let unrecorded = !recorded && !games.is_empty();
        (games, unrecorded)
    };
    Ok(FileRecords {
        games,
        settings,
        unrecorded,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        let mut g = bare_record(7, 3, "new", "old");
        g.result = GameResult::BlackWins;
        g.termination = "illegal move".into();
        g.payoff = Some((0, 12));
        g
    }

    #[test]
    fn a_results_line_reads_back() {
        let line = results_line(&sample());
        assert_eq!(line, "7\t4\tnew\told\t0-1\tillegal move\t0-12");
        let text = format!("{RESULTS_HEADER}\n{line}\n");
        let back = read_results(&text).unwrap();
        assert_eq!(back.len(), 1);
        let g = &back[0];
        assert_eq!((g.number, g.opening), (7, 3));
        assert_eq!(
            (g.white_name.as_str(), g.black_name.as_str()),
            ("new", "old")
        );
        assert_eq!(g.result, GameResult::BlackWins);
        assert_eq!(g.termination, "illegal move");
        assert_eq!(g.payoff, Some((0, 12)));
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_a_bad_line_is_named() {
        let text = format!("{}\n7\t4\tnew\told\t0-", results_line(&sample()));
        assert_eq!(read_results(&text).unwrap().len(), 1);
        let bad = format!("7\t4\tnew\told\t2-0\tx\t-\n{}\n", results_line(&sample()));
        let e = read_results(&bad).unwrap_err();
        assert!(e.starts_with("line 1: result '2-0'"), "{e}");
    }

    #[test]
    fn a_torn_pgn_game_is_found() {
        let game = "[Event \"m\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 1-0\n\n";
        let two = format!("{game}{}", game.replace("Round \"1\"", "Round \"2\""));
        let (games, torn) = read_pgn_games(&two).unwrap();
        assert_eq!((games.len(), torn), (2, None));
        let cut = &two[..two.len() - 5];
        let (games, torn) = read_pgn_games(cut).unwrap();
        assert_eq!((games.len(), torn), (1, Some(game.len())));
        let r = record_from_pgn(&games[0]).unwrap();
        assert_eq!((r.number, r.opening), (1, 0));
        // A game without a result before another one is not a torn tail: the file is wrong.
        let inner = format!("{}\n{game}", &game[..game.len() - 10]);
        let e = read_pgn_games(&inner).unwrap_err();
        assert!(e.contains("line 1") && e.contains("no result"), "{e}");
    }
}
