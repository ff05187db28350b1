//! The variants known to the engine: the built-in ones and those loaded from a folder, a
//! file (magus TOML or Fairy-Stockfish variants.ini) or a text sent over a protocol.

use std::io::Read;
use std::path::Path;

use super::builtin::BUILTIN;
use super::definitions::{Definition, Format, Problem, text_within_limits};
use super::limits::{MAX_DEFINITION_BYTES, MAX_SECTIONS};
use super::{Variant, fsf, kept, line_of_key, parse_variant, read_toml};

/// Variants by name. Each is kept for the whole run (`kept`: one per distinct definition,
/// at most `MAX_KEPT_VARIANTS`), so positions can refer to them without reference counting.
#[derive(Clone)]
pub struct Registry {
    variants: Vec<&'static Variant>,
    /// The Fairy-Stockfish rules of variants loaded from variants.ini sections, which later
    /// sections may name as their parent.
    fsf_rules: Vec<(String, fsf::Rules)>,
}

impl Registry {
    /// The built-in variants.
    pub fn builtin() -> Registry {
        let variants = BUILTIN
            .iter()
            .map(|(file, text)| {
                parse_variant(text, &format!("built-in {file}"))
                    .and_then(kept::keep)
                    .unwrap_or_else(|e| panic!("a built-in variant is broken: {e}"))
            })
            .collect();
        Registry {
            variants,
            fsf_rules: Vec::new(),
        }
    }

    pub fn get(&self, name: &str) -> Option<&'static Variant> {
        self.variants.iter().copied().find(|v| v.name == name)
    }

    /// As [`Registry::get`], with a message naming the variants there are when `name` is not
    /// one of them.
    pub fn find(&self, name: &str) -> Result<&'static Variant, String> {
        self.get(name).ok_or_else(|| {
            format!(
                "unknown variant '{name}' (known: {})",
                self.names().join(", ")
            )
        })
    }

    pub fn all(&self) -> &[&'static Variant] {
        &self.variants
    }

    pub fn names(&self) -> Vec<&str> {
        self.variants.iter().map(|v| v.name.as_str()).collect()
    }

    /// Adds (or replaces, by name) one variant: the one kept for its definition (`kept`),
    /// or the refusal when the run keeps as many definitions as it may.
    pub fn insert(&mut self, variant: Variant) -> Result<&'static Variant, String> {
        let v = kept::keep(variant)?;
        match self.variants.iter().position(|w| w.name == v.name) {
            Some(i) => self.variants[i] = v,
            None => self.variants.push(v),
        }
        Ok(v)
    }

    /// Adds the good definitions to the registry; one that cannot be kept becomes refused.
    fn insert_good(&mut self, definitions: &mut [Definition], source: &str) {
        for d in definitions {
            let Ok(v) = &d.outcome else { continue };
            if let Err(message) = self.insert(v.clone()) {
                d.outcome = Err(vec![Problem {
                    source: source.to_string(),
                    line: d.line,
                    section: None,
                    key: None,
                    message,
                }]);
            }
        }
    }

    /// Loads every `*.toml` file of a folder, each on its own (see `read_dir`).
    pub fn load_dir(
        &mut self,
        dir: &Path,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> Result<Vec<Definition>, String> {
        self.read_dir(dir, check, true)
    }

    /// Reads every `*.toml` file of a folder, each on its own: a file that cannot be read or
    /// that `check` refuses (the caller compiles each variant and parses its start position)
    /// is returned with its problems, and the other files still load (with `load` false,
    /// nothing loads: the folder is only checked). A name defined by an earlier file of the
    /// folder is refused in the later one. Only a folder that cannot be read, holds no
    /// `.toml` file or more than `MAX_SECTIONS` of them, is an error.
    fn read_dir(
        &mut self,
        dir: &Path,
        check: &dyn Fn(&Variant) -> Result<(), String>,
        load: bool,
    ) -> Result<Vec<Definition>, String> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("variant folder {}: {e}", shown(dir)))?;
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        paths.sort();
        if paths.is_empty() {
            return Err(format!(
                "variant folder {}: no .toml files in it",
                dir.display()
            ));
        }
        if paths.len() > MAX_SECTIONS {
            return Err(format!(
                "variant folder {}: {} .toml files, more than the {MAX_SECTIONS} a folder may hold",
                dir.display(),
                paths.len()
            ));
        }
        let mut definitions: Vec<Definition> = Vec::new();
        for path in &paths {
            let shown = path.display().to_string();
            let mut read = match read_capped(path) {
                Ok(text) => self.read_text(&text, &shown, Format::Toml, check).0,
                Err(e) => vec![Definition {
                    name: String::new(),
                    line: None,
                    outcome: Err(vec![Problem {
                        source: shown.clone(),
                        line: None,
                        section: None,
                        key: None,
                        message: e,
                    }]),
                    notes: Vec::new(),
                }],
            };
            for d in &mut read {
                let taken = definitions
                    .iter()
                    .any(|o| o.outcome.is_ok() && o.name == d.name);
                if d.outcome.is_ok() && taken {
                    d.outcome = Err(vec![Problem {
                        source: shown.clone(),
                        line: line_of_key_in(path, "name"),
                        section: None,
                        key: Some("name".into()),
                        message: format!(
                            "variant name '{}' is defined twice in the folder; the first file's stays",
                            d.name
                        ),
                    }]);
                }
            }
            if load {
                self.insert_good(&mut read, &shown);
            }
            definitions.extend(read);
        }
        Ok(definitions)
    }

    /// Reads the definitions of a text without loading them: each is a variant (whose start
    /// position `check` accepted) or its problems. Also the Fairy-Stockfish rules of the
    /// sections read, for [`Registry::load_text`].
    fn read_text(
        &self,
        text: &str,
        source: &str,
        format: Format,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> (Vec<Definition>, Vec<(String, fsf::Rules)>) {
        if let Err(problem) = text_within_limits(text, source) {
            let refused = Definition {
                name: String::new(),
                line: None,
                outcome: Err(vec![problem]),
                notes: Vec::new(),
            };
            return (vec![refused], Vec::new());
        }
        let (mut definitions, rules) = match format {
            Format::Toml => {
                let outcome = read_toml(text, source);
                let name = match &outcome {
                    Ok(v) => v.name.clone(),
                    Err(_) => toml_name(text).unwrap_or_default(),
                };
                let definition = Definition {
                    name,
                    line: None,
                    outcome,
                    notes: Vec::new(),
                };
                (vec![definition], Vec::new())
            }
            Format::FsfIni => {
                let parents = |name: &str| {
                    self.fsf_rules
                        .iter()
                        .rev()
                        .find(|(n, _)| n == name)
                        .map(|(_, r)| r.clone())
                };
                fsf::read(text, source, &parents)
            }
        };
        for d in &mut definitions {
            let Ok(v) = &d.outcome else { continue };
            if let Err(e) = check(v) {
                let message = e.strip_prefix("key 'start': ").unwrap_or(&e).to_string();
                let (key, line) = match format {
                    Format::Toml => ("start", line_of_key(text, "start")),
                    Format::FsfIni => {
                        let given = rules
                            .iter()
                            .find(|(n, _)| *n == d.name)
                            .and_then(|(_, r)| r.given.get("startFen"))
                            .filter(|o| o.section == d.name)
                            .map(|o| o.line);
                        ("startFen", given.or(d.line))
                    }
                };
                d.outcome = Err(vec![Problem {
                    source: source.to_string(),
                    line,
                    section: (format == Format::FsfIni).then(|| d.name.clone()),
                    key: Some(key.to_string()),
                    message,
                }]);
            }
        }
        (definitions, rules)
    }

    /// Checks the definitions of a text, loading nothing (and keeping nothing).
    pub fn check_text(
        &self,
        text: &str,
        source: &str,
        format: Format,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> Vec<Definition> {
        self.read_text(text, source, format, check).0
    }

    /// Loads the good definitions of a text (every good section of a variants.ini text; the
    /// one variant of a TOML text) and returns all of them, good and refused. A variant with
    /// the name of one already known replaces it.
    pub fn load_text(
        &mut self,
        text: &str,
        source: &str,
        format: Format,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> Vec<Definition> {
        let (mut definitions, rules) = self.read_text(text, source, format, check);
        self.insert_good(&mut definitions, source);
        for d in &definitions {
            let Ok(v) = &d.outcome else { continue };
            let Some((_, r)) = rules.iter().find(|(n, _)| *n == v.name) else {
                continue;
            };
            // A section loaded again replaces its rules: the list stays one per name.
            match self.fsf_rules.iter_mut().find(|(n, _)| *n == v.name) {
                Some(kept) => kept.1 = r.clone(),
                None => self.fsf_rules.push((v.name.clone(), r.clone())),
            }
        }
        definitions
    }

    /// Reads a file (no more than `MAX_DEFINITION_BYTES` of it): its format from its
    /// extension (`.toml`, `.ini`), else from its text.
    pub fn read_file(path: &Path) -> Result<(String, Format), String> {
        let text = read_capped(path).map_err(|e| format!("{}: {e}", shown(path)))?;
        let format = Format::of_path(path).unwrap_or_else(|| Format::of_text(&text));
        Ok((text, format))
    }

    /// Loads a folder of `*.toml` files (each on its own, see [`Registry::load_dir`]) or one
    /// file of either format ([`Registry::load_text`]). The error is for a path that cannot be
    /// read at all; a refused definition comes back with its problems.
    pub fn load_path(
        &mut self,
        path: &Path,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> Result<Vec<Definition>, String> {
        if !path.is_file() {
            return self.read_dir(path, check, true);
        }
        let (text, format) = Registry::read_file(path)?;
        Ok(self.load_text(&text, &path.display().to_string(), format, check))
    }

    /// As [`Registry::load_path`], loading nothing (and keeping nothing).
    pub fn check_path(
        &self,
        path: &Path,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> Result<Vec<Definition>, String> {
        if !path.is_file() {
            // `read_dir` does not change a registry when it loads nothing; the copy is of a
            // list of references.
            return self.clone().read_dir(path, check, false);
        }
        let (text, format) = Registry::read_file(path)?;
        Ok(self.check_text(&text, &path.display().to_string(), format, check))
    }
}

/// A file's text, refused unread when it is larger than `MAX_DEFINITION_BYTES`, and never
/// read past that (a file growing while it is read is refused too).
fn read_capped(path: &Path) -> Result<String, String> {
    let too_large = |size: u64| {
        format!(
            "{size} bytes, more than the {MAX_DEFINITION_BYTES} a definition file may have; nothing was read"
        )
    };
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    if size > MAX_DEFINITION_BYTES as u64 {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_DEFINITION_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() > MAX_DEFINITION_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
}

/// The line of a key in a file, for messages (`None` if the file cannot be read again).
fn line_of_key_in(path: &Path, key: &str) -> Option<usize> {
    line_of_key(&read_capped(path).ok()?, key)
}

/// The `name` of a TOML definition that failed to read, for messages: the first line
/// `name = "…"` before any table. Read from the lines rather than by parsing the text again,
/// which for a large text would cost as much as the failed reading did.
fn toml_name(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with('['))
        .find_map(|l| {
            let value = l
                .strip_prefix("name")?
                .trim_start()
                .strip_prefix('=')?
                .trim();
            let name = value.strip_prefix('"')?.split('"').next()?;
            Some(name.to_string())
        })
}

/// A path as a message quotes it (a path from outside may be any length).
fn shown(path: &Path) -> String {
    super::limits::excerpt(&path.display().to_string()).into_owned()
}
