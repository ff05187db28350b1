//! The variants a run keeps, one per distinct definition.
//!
//! Positions hold a `&'static Layout` on the copy-make path (no reference counting there),
//! and a layout holds its `&'static Variant`, so what a run accepts is never freed. To keep
//! that from growing without end, every accepted variant is kept here by its content: a
//! definition equal to one kept before (a GUI sending its `VariantPath` again, a file loaded
//! again) is the same `&'static Variant`, and through it the same compiled layouts and
//! evaluation tables (cached by the variant's address in `game::any_position` and `eval::tables`).
//! Memory then grows only with distinct definitions, and those are capped at
//! [`MAX_KEPT_VARIANTS`]; past the cap a new definition is refused with the limit named.

use std::sync::Mutex;

use super::Variant;
use super::limits::MAX_KEPT_VARIANTS;

/// Every variant kept so far, in the order they came. Looked up by a linear scan: at most
/// [`MAX_KEPT_VARIANTS`] entries, and two variants of different names differ at their first
/// field.
static KEPT: Mutex<Vec<&'static Variant>> = Mutex::new(Vec::new());

fn kept() -> std::sync::MutexGuard<'static, Vec<&'static Variant>> {
    KEPT.lock().unwrap_or_else(|e| e.into_inner())
}

/// The kept variant equal to `variant`, if there is one.
pub fn find(variant: &Variant) -> Option<&'static Variant> {
    kept().iter().copied().find(|&v| v == variant)
}

/// The kept variant equal to `variant`, kept now if it was not; refused when the run keeps
/// [`MAX_KEPT_VARIANTS`] others already.
pub fn keep(variant: Variant) -> Result<&'static Variant, String> {
    let mut kept = kept();
    if let Some(&v) = kept.iter().find(|&&v| *v == variant) {
        return Ok(v);
    }
    if kept.len() >= MAX_KEPT_VARIANTS {
        return Err(format!(
            "the engine keeps at most {MAX_KEPT_VARIANTS} distinct variant definitions in a run and has that many already (loading one again costs nothing); restart it to load others"
        ));
    }
    let v: &'static Variant = Box::leak(Box::new(variant));
    kept.push(v);
    Ok(v)
}

/// How many distinct definitions the run keeps.
pub fn count() -> usize {
    kept().len()
}
