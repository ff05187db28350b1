//! The variants known to the engine: the built-in ones and those loaded from a folder.

use std::path::Path;

use super::builtin::BUILTIN;
use super::{Variant, parse_variant};

/// Variants by name. Definitions live for the whole run (they are few and small), so
/// positions can refer to them without reference counting.
#[derive(Clone)]
pub struct Registry {
    variants: Vec<&'static Variant>,
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
        Registry { variants }
    }

    pub fn get(&self, name: &str) -> Option<&'static Variant> {
        self.variants.iter().copied().find(|v| v.name == name)
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

    /// Reads every `*.toml` file of a folder. `check` is asked about each parsed variant
    /// before it is added (the caller compiles it and parses its start position). Either all
    /// files load or none does, and the error names the file.
    pub fn load_dir(
        &mut self,
        dir: &Path,
        check: impl Fn(&Variant) -> Result<(), String>,
    ) -> Result<Vec<String>, String> {
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
        let mut parsed = Vec::new();
        for path in &paths {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
            let v = parse_variant(&text, &shown)?;
            check(&v).map_err(|e| format!("{shown}: {e}"))?;
            if parsed.iter().any(|w: &Variant| w.name == v.name) {
                return Err(format!(
                    "{shown}: variant name '{}' is defined twice in the folder",
                    v.name
                ));
            }
            parsed.push(v);
        }
        Ok(parsed
            .into_iter()
            .map(|v| self.insert(v).name.clone())
            .collect())
    }
}
