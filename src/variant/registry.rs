//! The variants known to the engine: the built-in ones and those loaded from a folder, a
//! file (magus TOML or Fairy-Stockfish variants.ini) or a text sent over a protocol.

use std::path::Path;

use super::builtin::BUILTIN;
use super::definitions::{Definition, Format, Problem};
use super::{Variant, fsf, line_of_key, parse_variant, read_toml};

/// Variants by name. Definitions live for the whole run (they are few and small), so
/// positions can refer to them without reference counting.
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
                let v = parse_variant(text, &format!("built-in {file}"))
                    .unwrap_or_else(|e| panic!("a built-in variant is broken: {e}"));
                &*Box::leak(Box::new(v))
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

    /// Adds (or replaces, by name) one variant.
    pub fn insert(&mut self, variant: Variant) -> &'static Variant {
        let v: &'static Variant = Box::leak(Box::new(variant));
        match self.variants.iter().position(|w| w.name == v.name) {
            Some(i) => self.variants[i] = v,
            None => self.variants.push(v),
        }
        v
    }

    /// Reads every `*.toml` file of a folder, each on its own: a file that cannot be read or
    /// that `check` refuses (the caller compiles each variant and parses its start position)
    /// is returned with its problems, and the other files still load. A name defined by an
    /// earlier file of the folder is refused in the later one. Only a folder that cannot be
    /// read, or holds no `.toml` file, is an error.
    pub fn load_dir(
        &mut self,
        dir: &Path,
        check: &dyn Fn(&Variant) -> Result<(), String>,
    ) -> Result<Vec<Definition>, String> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("variant folder {}: {e}", dir.display()))?;
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
        let mut definitions: Vec<Definition> = Vec::new();
        for path in &paths {
            let shown = path.display().to_string();
            let mut read = match std::fs::read_to_string(path) {
                Ok(text) => self.read_text(&text, &shown, Format::Toml, check).0,
                Err(e) => vec![Definition {
                    name: String::new(),
                    line: None,
                    outcome: Err(vec![Problem {
                        source: shown.clone(),
                        line: None,
                        section: None,
                        key: None,
                        message: e.to_string(),
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
                if let Ok(v) = &d.outcome {
                    self.insert(v.clone());
                }
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

    /// Checks the definitions of a text, loading nothing.
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
        let (definitions, rules) = self.read_text(text, source, format, check);
        for d in &definitions {
            if let Ok(v) = &d.outcome {
                self.insert(v.clone());
                if let Some((_, r)) = rules.iter().find(|(n, _)| *n == v.name) {
                    self.fsf_rules.push((v.name.clone(), r.clone()));
                }
            }
        }
        definitions
    }

    /// Reads a file: its format from its extension (`.toml`, `.ini`), else from its text.
    pub fn read_file(path: &Path) -> Result<(String, Format), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
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
            return self.load_dir(path, check);
        }
        let (text, format) = Registry::read_file(path)?;
        Ok(self.load_text(&text, &path.display().to_string(), format, check))
    }
}

/// The line of a key in a file, for messages (`None` if the file cannot be read again).
fn line_of_key_in(path: &Path, key: &str) -> Option<usize> {
    line_of_key(&std::fs::read_to_string(path).ok()?, key)
}

/// The `name` of a TOML definition that failed to read, for messages.
fn toml_name(text: &str) -> Option<String> {
    let document = toml::de::DeTable::parse(text).ok()?;
    let (_, value) = document
        .get_ref()
        .iter()
        .find(|(k, _)| k.get_ref() == "name")?;
    value.get_ref().as_str().map(str::to_string)
}
