//! Variant definitions from any source, in either format: magus's TOML (one variant per
//! text) or Fairy-Stockfish's variants.ini (one variant per section). Each definition comes
//! out as a variant or as the list of its problems, each with its line and key, so that a
//! caller can load what is good and show everything that is not.

use std::fmt;
use std::path::Path;

use super::Variant;
use super::limits::{MAX_DEFINITION_BYTES, MAX_LINE_CHARS};

/// Something wrong in a definition, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file, or how the text arrived (`load <<END`).
    pub source: String,
    /// 1-based, in the source.
    pub line: Option<usize>,
    /// The section of a variants.ini file.
    pub section: Option<String>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.source)?;
        if let Some(line) = self.line {
            write!(f, ": line {line}")?;
        }
        if let Some(section) = &self.section {
            write!(f, " [{section}]")?;
        }
        write!(f, ": ")?;
        if let Some(key) = &self.key {
            write!(f, "key '{key}': ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// One variant of a text: what it became.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The variant's name as the text gives it (empty if it could not be read).
    pub name: String,
    /// Where the definition starts (a variants.ini section's header).
    pub line: Option<usize>,
    pub outcome: Result<Variant, Vec<Problem>>,
    /// Keys read without effect, worth a word to the user.
    pub notes: Vec<Problem>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    Toml,
    FsfIni,
}

impl Format {
    /// By the file's extension, if it says.
    pub fn of_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "toml" => Some(Format::Toml),
            "ini" => Some(Format::FsfIni),
            _ => None,
        }
    }

    /// By the text: a variants.ini file's first line that is neither blank nor a comment is a
    /// section header (`[name]`); a magus definition starts with its keys (`name = …`).
    pub fn of_text(text: &str) -> Format {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'));
        match first {
            Some(l) if l.starts_with('[') && !l.starts_with("[[") => Format::FsfIni,
            _ => Format::Toml,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Format::Toml => "magus TOML",
            Format::FsfIni => "Fairy-Stockfish variants.ini",
        }
    }
}

/// Refuses a text larger than `MAX_DEFINITION_BYTES` or with a line longer than
/// `MAX_LINE_CHARS`, before anything reads it: every later step is then linear in a bounded
/// size.
pub fn text_within_limits(text: &str, source: &str) -> Result<(), Problem> {
    let refused = |line: Option<usize>, message: String| Problem {
        source: source.to_string(),
        line,
        section: None,
        key: None,
        message,
    };
    if text.len() > MAX_DEFINITION_BYTES {
        return Err(refused(
            None,
            format!(
                "{} bytes, more than the {MAX_DEFINITION_BYTES} a definition may have; nothing was read",
                text.len()
            ),
        ));
    }
    // Counting bytes first skips the character count of every short line.
    let long = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.len() > MAX_LINE_CHARS && l.chars().count() > MAX_LINE_CHARS);
    if let Some((index, line)) = long {
        return Err(refused(
            Some(index + 1),
            format!(
                "a line of {} characters, more than the {MAX_LINE_CHARS} a definition's line may have; nothing was read",
                line.chars().count()
            ),
        ));
    }
    Ok(())
}
