//! The variants the module knows: the built-in ones and those loaded with
//! `load_variant_config` (magus TOML or Fairy-Stockfish variants.ini text) or `set_option`'s
//! `VariantPath`. One registry for the process, as pyffish has one.

use std::ffi::CString;
use std::path::Path;
use std::sync::{LazyLock, RwLock, RwLockReadGuard, RwLockWriteGuard};

use magus::game::check_variant;
use magus::variant::definitions::{Definition, Format};
use magus::variant::{Registry, Variant};
use pyo3::prelude::*;

use crate::errors::{MagusError, MagusWarning, UnknownVariantError, VariantConfigError};

static REGISTRY: LazyLock<RwLock<Registry>> = LazyLock::new(|| RwLock::new(Registry::builtin()));

/// The names of the variants built into the engine, whatever has replaced them since.
static BUILTIN_NAMES: LazyLock<Vec<String>> = LazyLock::new(|| {
    Registry::builtin()
        .names()
        .into_iter()
        .map(str::to_string)
        .collect()
});

fn read() -> RwLockReadGuard<'static, Registry> {
    // A panic while loading leaves the registry as it was: nothing is half inserted.
    REGISTRY.read().unwrap_or_else(|e| e.into_inner())
}

fn write() -> RwLockWriteGuard<'static, Registry> {
    REGISTRY.write().unwrap_or_else(|e| e.into_inner())
}

/// The variant of that name, or the error that lists the known ones.
pub fn variant(name: &str) -> PyResult<&'static Variant> {
    let registry = read();
    registry.get(name).ok_or_else(|| {
        UnknownVariantError::new_err(format!(
            "unknown variant '{name}' (known: {})",
            registry.names().join(", ")
        ))
    })
}

/// The registry as it is now (for reading PGN, whose games name their variants).
pub fn snapshot() -> Registry {
    read().clone()
}

/// The names of every variant known: the built-in ones, then those loaded, in order.
#[pyfunction]
pub fn variants() -> Vec<String> {
    read().names().into_iter().map(str::to_string).collect()
}

/// The start position of a variant, as FEN.
#[pyfunction]
pub fn start_fen(variant: &str) -> PyResult<String> {
    Ok(self::variant(variant)?.start_fen.clone())
}

/// Whether the variant is played on two boards (bughouse): never in magus.
#[pyfunction]
pub fn two_boards(variant: &str) -> PyResult<bool> {
    self::variant(variant)?;
    Ok(false)
}

/// Whether captured pieces go to the captor's hand (crazyhouse): never in magus. Royal
/// Magician's reserves are fixed at the start, not filled by captures.
#[pyfunction]
pub fn captures_to_hand(variant: &str) -> PyResult<bool> {
    self::variant(variant)?;
    Ok(false)
}

/// Loads variant definitions from text: one magus TOML definition, or Fairy-Stockfish
/// variants.ini sections (told apart by the text). With `strict` (the default) either every
/// definition loads or none does, and the error lists every problem with its line and key;
/// without it, the good definitions load and each refused one is a `MagusWarning`. Returns
/// the names loaded. A variant with the name of one already known replaces it, with a
/// `MagusWarning` saying so.
#[pyfunction]
#[pyo3(signature = (config, strict=true))]
pub fn load_variant_config(py: Python<'_>, config: &str, strict: bool) -> PyResult<Vec<String>> {
    let meaningful = config
        .lines()
        .map(str::trim)
        .any(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(';'));
    if !meaningful {
        return Err(VariantConfigError::new_err(
            "load_variant_config: no definition in the text",
        ));
    }
    let format = Format::of_text(config);
    let source = "load_variant_config";
    let mut registry = write();
    if strict {
        let checked = registry.check_text(config, source, format, &check_variant);
        refuse_if_any(&checked, format)?;
    }
    let known = known_names(&registry);
    let definitions = registry.load_text(config, source, format, &check_variant);
    drop(registry);
    if definitions.is_empty() {
        return Err(VariantConfigError::new_err(format!(
            "{source}: no variant in the text (read as {})",
            format.describe()
        )));
    }
    let mut loaded = Vec::new();
    for d in &definitions {
        match &d.outcome {
            Ok(v) => {
                warn_if_replaced(py, &known, &v.name)?;
                loaded.push(v.name.clone());
            }
            Err(problems) => {
                let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                warn(py, &format!("refused: {}", text.join("; ")))?;
            }
        }
        for note in &d.notes {
            warn(py, &format!("note: {note}"))?;
        }
    }
    Ok(loaded)
}

/// The error for a text some of whose definitions are refused.
fn refuse_if_any(definitions: &[Definition], format: Format) -> PyResult<()> {
    if definitions.is_empty() {
        return Err(VariantConfigError::new_err(format!(
            "load_variant_config: no variant in the text (read as {})",
            format.describe()
        )));
    }
    let problems: Vec<String> = definitions
        .iter()
        .filter_map(|d| d.outcome.as_ref().err())
        .flatten()
        .map(|p| p.to_string())
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(VariantConfigError::new_err(format!(
            "nothing was loaded: {}",
            problems.join("\n")
        )))
    }
}

fn known_names(registry: &Registry) -> Vec<String> {
    registry.names().into_iter().map(str::to_string).collect()
}

/// The warning for a variant loaded under the name of one known before: every call naming
/// it from now on gets the new rules, so a built-in one replaced by mistake must not go
/// unnoticed.
fn warn_if_replaced(py: Python<'_>, known: &[String], name: &str) -> PyResult<()> {
    if !known.iter().any(|k| k == name) {
        return Ok(());
    }
    let what = if BUILTIN_NAMES.iter().any(|b| b == name) {
        "the built-in variant of that name"
    } else {
        "the variant of that name loaded before"
    };
    warn(
        py,
        &format!("'{name}' replaces {what}, for every call from now on"),
    )
}

fn warn(py: Python<'_>, text: &str) -> PyResult<()> {
    let message = CString::new(text.replace('\0', " ")).expect("no NUL is left in the text");
    PyErr::warn(py, &py.get_type::<MagusWarning>(), &message, 2)
}

/// pyffish's `set_option`: magus has one option that is not a search setting,
/// `VariantPath`, a folder of TOML files or one `.toml` or `.ini` file to load (as the UCI
/// option of that name loads it). The search's options are the `Engine`'s.
#[pyfunction]
pub fn set_option(py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
    if !name.eq_ignore_ascii_case("VariantPath") {
        return Err(MagusError::new_err(format!(
            "no such option '{name}': set_option knows VariantPath; search options are the Engine's"
        )));
    }
    let path = value.str()?.to_string();
    let path = Path::new(path.trim());
    let mut registry = write();
    let known = known_names(&registry);
    let definitions = registry
        .load_path(path, &check_variant)
        .map_err(VariantConfigError::new_err)?;
    drop(registry);
    for d in &definitions {
        match &d.outcome {
            Ok(v) => warn_if_replaced(py, &known, &v.name)?,
            Err(problems) => {
                let text: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
                warn(py, &format!("refused: {}", text.join("; ")))?;
            }
        }
    }
    Ok(())
}
