//! `magus match --log FILE`: the finished (or interrupted) match as one row of the project's
//! results log, in the format of `bench/results/runs.csv` (rendered to docs/results.md by
//! `bench/results/render.py`, which also checks every row).
//!
//! The row is the one `bench/results/add_run.py` would append from the match's printed
//! summary: the first engine's games, wins, losses and draws, its opening pairs, Elo ± the
//! 95 % interval, the SPRT's deciding LLR and verdict, and `KIND-NNN` as id with the next free
//! number of its kind. What the match knows besides (the exact command line, the load at its
//! start and end) it writes itself; what it cannot know (the commits, the change, whether it
//! is kept) comes from `--log-field KEY=VALUE`. Everything given is checked before the first
//! game, so that a long match never ends with a row the log refuses.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::Summary;
use super::stats::SprtDecision;

/// The log's columns, as `render.py` names them (its `COLUMNS`).
pub const COLUMNS: [&str; 20] = [
    "id",
    "commit",
    "base",
    "change",
    "variant",
    "limit",
    "games",
    "wins",
    "losses",
    "draws",
    "pentanomial",
    "elo",
    "elo_error",
    "llr",
    "verdict",
    "kept",
    "load",
    "command",
    "note",
    "source",
];

/// The kinds of run, the prefixes of the ids (`render.py`'s `KINDS`).
pub const KINDS: [&str; 6] = ["anchor", "nodeodds", "sprt", "texel", "match", "speed"];

/// The variants the rendered page has a section for (`render.py`'s `VARIANTS`).
pub const VARIANTS: [&str; 6] = [
    "chess",
    "magi",
    "deathmatch",
    "deathmatch-legacy",
    "magician-chess",
    "royal-magician",
];

/// The values `kept` may take (`render.py`'s `KEPT`).
pub const KEPT: [&str; 4] = ["", "yes", "no", "n.a."];

/// The keys of `--log-field`: the row's fields the match cannot know, and the id's kind.
pub const FIELD_KEYS: [&str; 7] = ["kind", "commit", "base", "change", "kept", "note", "source"];

/// What a row records as its source when `--log-field source=` does not say otherwise.
pub const DEFAULT_SOURCE: &str = "magus match --log";

/// The log's line ending: the CSV module's default, which runs.csv was written with.
const LINE_END: &str = "\r\n";

/// A results log to append this match's row to, with everything known before the first game.
#[derive(Debug)]
pub struct ResultsLog {
    path: PathBuf,
    kind: String,
    /// The given fields, by column name (kind excluded).
    given: Vec<(String, String)>,
    variant: String,
    limit: String,
    command: String,
    load_at_start: Option<String>,
}

impl ResultsLog {
    /// Checks the log file and the given fields. `kind` defaults to `sprt` for a match with
    /// an SPRT and `match` otherwise; `command` is the command line as it was given.
    pub fn prepare(
        path: &Path,
        fields: &[String],
        has_sprt: bool,
        variant: &str,
        limit: String,
        command: String,
    ) -> Result<ResultsLog, String> {
        let where_ = format!("--log {}", path.display());
        check_header(path).map_err(|e| format!("{where_}: {e}"))?;
        if !VARIANTS.contains(&variant) {
            return Err(format!(
                "{where_}: the results log has rows for the variants {} only, not '{variant}'",
                VARIANTS.join(", ")
            ));
        }
        let mut kind = if has_sprt { "sprt" } else { "match" }.to_string();
        let mut given: Vec<(String, String)> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for field in fields {
            let (key, value) = parse_field(field)?;
            if seen.contains(&key) {
                return Err(format!("--log-field: '{key}' is given twice"));
            }
            seen.push(key.clone());
            if key == "kind" {
                kind = value;
            } else {
                given.push((key, value));
            }
        }
        Ok(ResultsLog {
            path: path.to_path_buf(),
            kind,
            given,
            variant: variant.to_string(),
            limit,
            command,
            load_at_start: load_average(),
        })
    }

    /// The row of a match that has ended (`total`: the games it was to play). `None` when no
    /// game counted, which the log has no figures for.
    pub fn row(&self, summary: &Summary, total: usize) -> Option<Vec<(&'static str, String)>> {
        let record = summary.results.first()?;
        if record.games() == 0 {
            return None;
        }
        let mut row: Vec<(&'static str, String)> =
            COLUMNS.iter().map(|&c| (c, String::new())).collect();
        let mut set = |column: &str, value: String| {
            if let Some(cell) = row.iter_mut().find(|(c, _)| *c == column) {
                cell.1 = value;
            }
        };
        for (key, value) in &self.given {
            set(key, value.clone());
        }
        set("variant", self.variant.clone());
        set("limit", self.limit.clone());
        set("games", record.games().to_string());
        set("wins", record.wins.to_string());
        set("losses", record.losses.to_string());
        set("draws", record.draws.to_string());
        if let Some(pairs) = summary.pentanomial.first().filter(|p| p.pairs() > 0) {
            let counts = pairs.counts().map(|n| n.to_string());
            set("pentanomial", counts.join(";"));
        }
        // As the final table prints them; an Elo the games cannot bound (all won, or one
        // game) has no interval, and an infinite one no figure.
        let elo = record.elo() + 0.0;
        let error = record.elo_error95();
        if elo.is_finite() {
            set("elo", format!("{elo:+.1}"));
            if record.games() >= 2 && error.is_finite() {
                set("elo_error", format!("{error:.1}"));
            }
        }
        match summary.sprt {
            Some((llr, decision)) => {
                // As the final table prints it (add_run.py reads it there).
                set("llr", format!("{llr:.2}"));
                let verdict = match decision {
                    Some(SprtDecision::H1) => "H1",
                    Some(SprtDecision::H0) => "H0",
                    None => "stopped",
                };
                set("verdict", verdict.to_string());
            }
            None => set("verdict", "fixed-games".to_string()),
        }
        let at_end = load_average();
        set(
            "load",
            describe_load(self.load_at_start.as_deref(), at_end.as_deref()),
        );
        set("command", self.command.clone());
        if summary.interrupted {
            let interrupted = format!("interrupted after {} of {total} games", summary.games.len());
            let note = self
                .given
                .iter()
                .find(|(k, _)| k == "note")
                .map_or(interrupted.clone(), |(_, n)| format!("{n}; {interrupted}"));
            set("note", note);
        }
        if !self.given.iter().any(|(k, _)| k == "source") {
            set("source", DEFAULT_SOURCE.to_string());
        }
        Some(row)
    }

    /// Appends `row` with the next free id of its kind, creating the file with its header
    /// if it does not exist. The file is locked meanwhile, so that matches ending at the same
    /// time take different ids. Returns the id.
    pub fn append(&self, mut row: Vec<(&'static str, String)>) -> Result<String, String> {
        let where_ = format!("--log {}", self.path.display());
        let fail = |e: std::io::Error| format!("{where_}: {e}");
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&self.path)
            .map_err(fail)?;
        file.lock().map_err(fail)?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| format!("{where_}: {e}"))?;
        // Checked again: the file may have changed while the match was played.
        if let Some(problem) = header_problem(&text) {
            return Err(format!("{where_}: {problem}"));
        }
        let id = format!("{}-{:03}", self.kind, next_number(&text, &self.kind));
        row[0].1 = id.clone();
        let mut out = String::new();
        if text.is_empty() {
            out += &COLUMNS.join(",");
            out += LINE_END;
        } else if !text.ends_with('\n') {
            out += LINE_END;
        }
        let cells: Vec<String> = row.iter().map(|(_, v)| csv_cell(v)).collect();
        out += &cells.join(",");
        out += LINE_END;
        file.seek(SeekFrom::End(0)).map_err(fail)?;
        file.write_all(out.as_bytes()).map_err(fail)?;
        file.flush().map_err(fail)?;
        Ok(id)
    }
}

/// One `--log-field KEY=VALUE`, checked as `render.py` checks the column.
fn parse_field(field: &str) -> Result<(String, String), String> {
    let Some((key, value)) = field.split_once('=') else {
        return Err(format!(
            "--log-field '{field}': expected KEY=VALUE with KEY one of {}",
            FIELD_KEYS.join(", ")
        ));
    };
    let key = key.trim();
    if !FIELD_KEYS.contains(&key) {
        return Err(format!(
            "--log-field '{field}': unknown key '{key}' (one of {}; the other columns come from the match)",
            FIELD_KEYS.join(", ")
        ));
    }
    if value.contains(['\n', '\r']) {
        return Err(format!(
            "--log-field {key}: a line break cannot go in the log"
        ));
    }
    let bad = |what: &str| format!("--log-field {key}: '{value}' is not {what}");
    match key {
        "kind" if !KINDS.contains(&value) => {
            return Err(bad(&format!("a kind of run ({})", KINDS.join(", "))));
        }
        "kept" if !KEPT.contains(&value) => return Err(bad("yes, no or n.a.")),
        "commit" | "base"
            if !(value.is_empty()
                || ((7..=40).contains(&value.len())
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))) =>
        {
            return Err(bad("a commit hash (7 to 40 lower-case hex digits)"));
        }
        "source" if value.is_empty() => return Err(bad("a source (it may not be empty)")),
        _ => {}
    }
    Ok((key.to_string(), value.to_string()))
}

/// Refuses a file that exists with another first line than the log's header; a missing or
/// empty file is created with it when the row is appended.
fn check_header(path: &Path) -> Result<(), String> {
    let mut text = String::new();
    match File::open(path) {
        Ok(mut f) => f
            .read_to_string(&mut text)
            .map(|_| ())
            .map_err(|e| e.to_string())?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e.to_string()),
    }
    match header_problem(&text) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

fn header_problem(text: &str) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let first = text.lines().next().unwrap_or("").trim_end_matches('\r');
    let expected = COLUMNS.join(",");
    (first != expected).then(|| {
        format!(
            "not a results log: its first line is '{}', not the header '{expected}' (give a new file or the project's bench/results/runs.csv)",
            first.chars().take(200).collect::<String>()
        )
    })
}

/// One more than the highest number of the rows of `kind`, as add_run.py counts.
fn next_number(text: &str, kind: &str) -> u32 {
    text.lines()
        .skip(1)
        .filter_map(|line| line.split(',').next())
        .filter_map(|id| id.rsplit_once('-'))
        .filter(|(k, _)| *k == kind)
        .filter_map(|(_, n)| n.trim().parse::<u32>().ok())
        .max()
        .unwrap_or(0)
        + 1
}

/// A field as Python's csv module writes it: quoted when it holds a comma, a quote or a
/// line break, with its quotes doubled.
fn csv_cell(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

/// The one-minute load average, where the system tells it (/proc/loadavg on Linux).
pub fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next().map(str::to_string)
}

fn describe_load(start: Option<&str>, end: Option<&str>) -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    match (start, end) {
        (Some(s), Some(e)) => {
            format!("load average {s} at the start, {e} at the end (1 minute; {cores} cores)")
        }
        _ => format!("not measured (no /proc/loadavg; {cores} cores)"),
    }
}

/// The command line as given, quoted for a POSIX shell where a word needs it; the program is
/// named by its file name (`magus`), not by the path it happened to be run from.
pub fn command_line(args: impl IntoIterator<Item = String>) -> String {
    let mut words = Vec::new();
    for (i, arg) in args.into_iter().enumerate() {
        let word = if i == 0 {
            Path::new(&arg)
                .file_name()
                .map_or(arg.clone(), |n| n.to_string_lossy().into_owned())
        } else {
            arg
        };
        let plain = !word.is_empty()
            && word
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_=.,/:+@%".contains(&b));
        words.push(if plain {
            word
        } else {
            format!("'{}'", word.replace('\'', "'\\''"))
        });
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_python_writes_them() {
        assert_eq!(csv_cell("plain text"), "plain text");
        assert_eq!(csv_cell("a, b"), "\"a, b\"");
        assert_eq!(csv_cell("say \"x\""), "\"say \"\"x\"\"\"");
    }

    #[test]
    fn the_next_number_is_one_above_the_highest_of_the_kind() {
        let text = "id,commit\r\nsprt-007,a\r\nmatch-012,b\r\nsprt-003,c\r\n";
        assert_eq!(next_number(text, "sprt"), 8);
        assert_eq!(next_number(text, "match"), 13);
        assert_eq!(next_number(text, "anchor"), 1);
    }

    #[test]
    fn a_command_is_quoted_where_a_shell_needs_it() {
        let args = [
            "/x/target/release/magus",
            "match",
            "--engine",
            "name=a,cmd=my engine",
            "--tc",
            "1+0.01",
        ];
        assert_eq!(
            command_line(args.map(String::from)),
            "magus match --engine 'name=a,cmd=my engine' --tc 1+0.01"
        );
    }

    #[test]
    fn fields_are_refused_as_render_py_would() {
        for bad in [
            "kind=gauntlet",
            "kept=maybe",
            "commit=XYZ1234",
            "base=abc",
            "colour=red",
            "note",
            "source=",
        ] {
            assert!(parse_field(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_field("commit=88d112d").unwrap(),
            ("commit".to_string(), "88d112d".to_string())
        );
        assert_eq!(
            parse_field("change=a=b, c").unwrap(),
            ("change".to_string(), "a=b, c".to_string())
        );
    }
}
