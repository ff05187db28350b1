//! Variant definitions over the protocols: `load` and `check`, in UCI and XBoard alike, and
//! the `VariantPath` option.
//!
//! - `load PATH` loads a file (magus TOML or Fairy-Stockfish variants.ini, by its extension
//!   or its text) or a folder of TOML files; `load <<MARK` loads the lines that follow, up to
//!   a line `MARK` (with no mark, up to an empty line, as Fairy-Stockfish reads it).
//! - `check` takes the same forms and loads nothing: it reports every problem, with its line
//!   and key, and which variants would load.
//!
//! A loaded variant joins the list at once and is described with `info string variant …`
//! (`# variant …`). When the list of names grew, UCI announces `UCI_Variant` again and XBoard
//! is sent `feature variants=` again; a variant replaced under its own name leaves the list as
//! it was, and it is not sent again. A refused definition changes nothing, and the engine
//! goes on answering.
//!
//! What one command may cost is bounded (`variant::limits`): a here-document past
//! `MAX_DEFINITION_BYTES` or with a line past `MAX_LINE_CHARS` is refused whole without
//! being kept, as is a file past the size; a line of input is quoted in a message as an
//! excerpt only.

use std::path::Path;

use crate::game::check_variant;
use crate::protocol::uci::{Output, say};
use crate::protocol::xboard::xboard_name;
use crate::variant::Registry;
use crate::variant::definitions::{Definition, Format};
use crate::variant::limits::{MAX_DEFINITION_BYTES, MAX_LINE_CHARS, MAX_PROBLEMS_SHOWN, excerpt};

/// Which protocol the lines are for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    Uci,
    Xboard,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Command {
    Load,
    Check,
}

impl Command {
    fn word(self) -> &'static str {
        match self {
            Command::Load => "load",
            Command::Check => "check",
        }
    }
}

/// The most lines a here-document may have: a definition is a few hundred lines, and a
/// runaway sender must not fill the memory.
const MAX_LINES: usize = 100_000;

struct HereDoc {
    command: Command,
    marker: String,
    lines: Vec<String>,
    /// The bytes of `lines`, with their line ends.
    bytes: usize,
    /// Why the text is refused, once it is past a limit: what follows is then only counted
    /// to its end, not kept.
    overflow: Option<String>,
}

/// The state of `load`/`check` in a session: a here-document being read, if any.
pub struct DefinitionCommands {
    dialect: Dialect,
    pending: Option<HereDoc>,
}

impl DefinitionCommands {
    pub fn new(dialect: Dialect) -> DefinitionCommands {
        DefinitionCommands {
            dialect,
            pending: None,
        }
    }

    /// A session's line as its command and arguments (`super::split_command`), or `None`
    /// when there is nothing more to do with it: a blank line, or one this answered (`load`,
    /// `check`, a here-document's line). `current` is the variant being played.
    pub fn command<'a>(
        &mut self,
        line: &'a str,
        registry: &mut Registry,
        out: &Output,
        current: &str,
    ) -> Option<(&'a str, &'a str)> {
        if self.handle(line, registry, out, current) {
            return None;
        }
        super::split_command(line)
    }

    /// Takes a line that is `load`, `check` or part of a here-document, and answers it;
    /// returns false for any other line. `current` is the variant being played.
    fn handle(&mut self, line: &str, registry: &mut Registry, out: &Output, current: &str) -> bool {
        if let Some(doc) = &mut self.pending {
            let body = line.trim_end_matches(['\r', '\n']);
            let ends = if doc.marker.is_empty() {
                body.trim().is_empty()
            } else {
                body.trim_end() == doc.marker
            };
            if !ends {
                if doc.overflow.is_none() {
                    doc.bytes += body.len() + 1;
                    doc.overflow = if body.len() > MAX_LINE_CHARS
                        && body.chars().count() > MAX_LINE_CHARS
                    {
                        Some(format!(
                            "line {} has {} characters, more than the {MAX_LINE_CHARS} a definition's line may have",
                            doc.lines.len() + 1,
                            body.chars().count()
                        ))
                    } else if doc.lines.len() >= MAX_LINES {
                        Some(format!("more than {MAX_LINES} lines"))
                    } else if doc.bytes > MAX_DEFINITION_BYTES {
                        Some(format!(
                            "more than the {MAX_DEFINITION_BYTES} bytes a definition may have"
                        ))
                    } else {
                        None
                    };
                    match doc.overflow {
                        None => doc.lines.push(body.to_string()),
                        // Nothing of a refused text is needed any more.
                        Some(_) => doc.lines = Vec::new(),
                    }
                }
                return true;
            }
            let doc = self.pending.take().expect("a here-document is pending");
            let source = format!("<<{}", doc.marker);
            if let Some(why) = doc.overflow {
                self.error(
                    out,
                    &format!("{source}: {why}; nothing was read (the rest of the text up to its end was skipped)"),
                );
                return true;
            }
            let text = doc.lines.join("\n") + "\n";
            let format = Format::of_text(&text);
            self.run_text(doc.command, &text, &source, format, registry, out, current);
            return true;
        }
        let trimmed = line.trim();
        let word = trimmed.split_whitespace().next().unwrap_or("");
        let command = match word {
            "load" => Command::Load,
            "check" => Command::Check,
            _ => return false,
        };
        let argument = trimmed[word.len()..].trim();
        if let Some(mark) = argument.strip_prefix("<<") {
            let marker = mark.split_whitespace().next().unwrap_or("").to_string();
            if marker.len() > MAX_LINE_CHARS {
                // Such a mark could not be matched without keeping it; a real one is a word.
                self.error(
                    out,
                    &format!(
                        "{}: the mark '{}' is longer than {MAX_LINE_CHARS} bytes; nothing will be read",
                        command.word(),
                        excerpt(&marker)
                    ),
                );
                return true;
            }
            self.pending = Some(HereDoc {
                command,
                marker,
                lines: Vec::new(),
                bytes: 0,
                overflow: None,
            });
            return true;
        }
        if argument.is_empty() {
            self.error(
                out,
                &format!(
                    "{}: give a file or folder, or <<MARK and the definition on the lines that follow",
                    command.word()
                ),
            );
            return true;
        }
        self.run_path(command, Path::new(argument), registry, out, current);
        true
    }

    fn say(&self, out: &Output, text: &str) {
        match self.dialect {
            Dialect::Uci => say(out, &format!("info string {text}")),
            Dialect::Xboard => say(out, &format!("# {text}")),
        }
    }

    fn error(&self, out: &Output, text: &str) {
        self.say(out, &format!("error: {text}"));
    }

    fn run_path(
        &self,
        command: Command,
        path: &Path,
        registry: &mut Registry,
        out: &Output,
        current: &str,
    ) {
        if path.is_file() {
            match Registry::read_file(path) {
                Ok((text, format)) => self.run_text(
                    command,
                    &text,
                    &path.display().to_string(),
                    format,
                    registry,
                    out,
                    current,
                ),
                Err(e) => self.error(out, &e),
            }
            return;
        }
        if !path.exists() {
            self.error(
                out,
                &format!(
                    "{} {}: no such file or folder",
                    command.word(),
                    excerpt(&path.display().to_string())
                ),
            );
            return;
        }
        // Each file of a folder loads on its own.
        let before = registry.names().len();
        let result = match command {
            Command::Load => registry.load_path(path, &check_variant),
            Command::Check => registry.check_path(path, &check_variant),
        };
        match result {
            Ok(definitions) => self.report(command, &definitions, registry, before, out, current),
            Err(e) => self.error(out, &e),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run_text(
        &self,
        command: Command,
        text: &str,
        source: &str,
        format: Format,
        registry: &mut Registry,
        out: &Output,
        current: &str,
    ) {
        let meaningful = text
            .lines()
            .map(str::trim)
            .any(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'));
        if !meaningful {
            self.error(out, &format!("{source}: no definition in it"));
            return;
        }
        let before = registry.names().len();
        let definitions = match command {
            Command::Load => registry.load_text(text, source, format, &check_variant),
            Command::Check => registry.check_text(text, source, format, &check_variant),
        };
        if definitions.is_empty() {
            self.error(
                out,
                &format!("{source}: no variant in it (read as {})", format.describe()),
            );
            return;
        }
        self.report(command, &definitions, registry, before, out, current);
    }

    /// Every problem and note (at most `MAX_PROBLEMS_SHOWN` of each definition), then what
    /// was loaded (or would be). `before` is how many variants the registry had before: the
    /// whole list is announced again only when it grew.
    fn report(
        &self,
        command: Command,
        definitions: &[Definition],
        registry: &Registry,
        before: usize,
        out: &Output,
        current: &str,
    ) {
        let mut good = Vec::new();
        let mut refused = Vec::new();
        for d in definitions {
            match &d.outcome {
                Ok(v) => good.push(v),
                Err(problems) => {
                    refused.push(if d.name.is_empty() { "?" } else { &d.name });
                    for p in problems.iter().take(MAX_PROBLEMS_SHOWN) {
                        self.error(out, &p.to_string());
                    }
                    if problems.len() > MAX_PROBLEMS_SHOWN {
                        self.error(
                            out,
                            &format!(
                                "… and {} more problems",
                                problems.len() - MAX_PROBLEMS_SHOWN
                            ),
                        );
                    }
                }
            }
            for n in d.notes.iter().take(MAX_PROBLEMS_SHOWN) {
                self.say(out, &format!("note: {n}"));
            }
        }
        let names = |vs: &[&crate::variant::Variant]| -> String {
            vs.iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match command {
            Command::Check => {
                for v in &good {
                    self.say(
                        out,
                        &format!(
                            "check: variant {} files {} ranks {} is valid",
                            v.name, v.files, v.ranks
                        ),
                    );
                }
                self.say(
                    out,
                    &format!(
                        "check: {} valid, {} refused, nothing loaded",
                        good.len(),
                        refused.len()
                    ),
                );
            }
            Command::Load => {
                let grew = registry.names().len() > before;
                if !good.is_empty() {
                    match self.dialect {
                        Dialect::Uci => {
                            if grew {
                                say(out, &uci_variant_option(registry, current));
                            }
                            for v in &good {
                                say(
                                    out,
                                    &format!(
                                        "info string variant {} files {} ranks {} startpos {}",
                                        v.name, v.files, v.ranks, v.start_fen
                                    ),
                                );
                            }
                        }
                        Dialect::Xboard => {
                            for v in &good {
                                say(
                                    out,
                                    &format!(
                                        "# variant {} files {} ranks {} startpos {}",
                                        xboard_name(v),
                                        v.files,
                                        v.ranks,
                                        v.start_fen
                                    ),
                                );
                            }
                            if grew {
                                say(out, &xboard_variants_feature(registry));
                            }
                        }
                    }
                    self.say(out, &format!("loaded variants: {}", names(&good)));
                }
                if !refused.is_empty() {
                    self.say(out, &format!("refused variants: {}", refused.join(" ")));
                }
            }
        }
    }
}

/// The `UCI_Variant` option as `uci` announces it, with every variant known now.
pub fn uci_variant_option(registry: &Registry, current: &str) -> String {
    let vars: String = registry
        .names()
        .iter()
        .map(|n| format!(" var {n}"))
        .collect();
    format!("option name UCI_Variant type combo default {current}{vars}")
}

/// XBoard's list of variants, sent again after a load.
pub fn xboard_variants_feature(registry: &Registry) -> String {
    let all: Vec<&str> = registry.all().iter().map(|v| xboard_name(v)).collect();
    format!("feature variants=\"{}\"", all.join(","))
}

/// The `VariantPath` option: a folder of TOML files or one file of either format, loaded as
/// `load PATH` loads it. An empty value (or `<empty>`) loads nothing.
pub fn variant_path(
    dialect: Dialect,
    value: &str,
    registry: &mut Registry,
    out: &Output,
    current: &str,
) -> Result<(), String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return Ok(());
    }
    let path = Path::new(value);
    let commands = DefinitionCommands::new(dialect);
    if path.is_file() {
        commands.run_path(Command::Load, path, registry, out, current);
        return Ok(());
    }
    let before = registry.names().len();
    let definitions = registry.load_path(path, &check_variant)?;
    commands.report(Command::Load, &definitions, registry, before, out, current);
    Ok(())
}
