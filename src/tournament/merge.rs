//! `magus match --merge FILE…`: the games of several shards (their PGN or results files) as
//! one match, with one table and one SPRT decision.

use std::collections::HashMap;
use std::path::PathBuf;

use super::Summary;
use super::records;
use super::settings_record::SettingsRecord;
use super::stats::Sprt;

/// Reads every file and counts every game once. The engines are named by the games: the
/// first engine is White of the lowest-numbered game (in a two-engine match, the first
/// engine of the command line, which an SPRT tests). A game number found twice (shards
/// that overlap, a file given twice) is an error naming both files, and so are games played
/// with other settings than the first file's ([`SettingsRecord`]); files from before the
/// settings were recorded are taken unchecked, with a warning.
pub fn merge(
    files: &[PathBuf],
    void_illegal: &[String],
    sprt: Option<Sprt>,
) -> Result<Summary, String> {
    let mut games = Vec::new();
    let mut source: HashMap<usize, usize> = HashMap::new();
    // The first settings found, and the file they are from.
    let mut first: Option<(SettingsRecord, usize)> = None;
    for (i, path) in files.iter().enumerate() {
        let file = records::read_file(path)?;
        if file.unrecorded {
            log::warn!(
                "--merge: {} has games without a record of their match's settings (from an \
                 older magus): they cannot be checked against the other files",
                path.display()
            );
        }
        for settings in file.settings {
            match &first {
                None => first = Some((settings, i)),
                Some((expected, from)) => {
                    if let Some(d) = settings.difference(expected) {
                        let other = if *from == i {
                            "other games of the same file".to_string()
                        } else {
                            files[*from].display().to_string()
                        };
                        return Err(format!(
                            "--merge: {} holds games of another match than {other}: {d}",
                            path.display()
                        ));
                    }
                }
            }
        }
        for g in file.games {
            if let Some(&first) = source.get(&g.number) {
                return Err(format!(
                    "--merge: game {} is in {} and in {}: shards must not overlap",
                    g.number,
                    files[first].display(),
                    path.display()
                ));
            }
            source.insert(g.number, i);
            games.push(g);
        }
    }
    if games.is_empty() {
        return Err("--merge: no finished games in the files".into());
    }
    games.sort_by_key(|g| g.number);
    let mut names: Vec<String> = Vec::new();
    for g in &games {
        for name in [&g.white_name, &g.black_name] {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
    }
    if let Some(v) = void_illegal.iter().find(|v| !names.contains(v)) {
        return Err(format!(
            "--void-illegal: no engine named '{v}' in the files (engines: {})",
            names.join(", ")
        ));
    }
    if sprt.is_some() && names.len() != 2 {
        return Err(format!(
            "--sprt: a test needs exactly two engines; the files have {}",
            names.len()
        ));
    }
    let mut summary = Summary::new(names.clone(), void_illegal, sprt);
    for mut g in games {
        g.white = names.iter().position(|n| *n == g.white_name).unwrap_or(0);
        g.black = names.iter().position(|n| *n == g.black_name).unwrap_or(0);
        summary.add(g);
    }
    Ok(summary)
}
