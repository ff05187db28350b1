//! The module's exceptions. Each is a `ValueError` (code written for pyffish, which raises
//! `ValueError` on a bad move, catches them all), and each carries the engine's own message.

use pyo3::create_exception;
use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;

create_exception!(
    magus,
    MagusError,
    PyValueError,
    "Base of every error magus raises (a subclass of ValueError); `magus.error` is the same class."
);
create_exception!(
    magus,
    UnknownVariantError,
    MagusError,
    "No variant of that name is known (built in or loaded)."
);
create_exception!(
    magus,
    FenError,
    MagusError,
    "A FEN that does not describe a position of the variant; the message says which field and why."
);
create_exception!(
    magus,
    IllegalMoveError,
    MagusError,
    "A move that is not legal in its position, or text that is not a move at all."
);
create_exception!(
    magus,
    VariantConfigError,
    MagusError,
    "A variant definition (magus TOML or Fairy-Stockfish variants.ini) that was refused."
);
create_exception!(
    magus,
    MagusWarning,
    PyUserWarning,
    "A remark on a variant definition that was loaded (a key read without effect, say)."
);

/// Registers the exceptions on the module, with `error` as pyffish names its own.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("MagusError", py.get_type::<MagusError>())?;
    module.add("error", py.get_type::<MagusError>())?;
    module.add("UnknownVariantError", py.get_type::<UnknownVariantError>())?;
    module.add("FenError", py.get_type::<FenError>())?;
    module.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    module.add("VariantConfigError", py.get_type::<VariantConfigError>())?;
    module.add("MagusWarning", py.get_type::<MagusWarning>())?;
    Ok(())
}

/// The error for the `chess960` argument that pyffish's functions take: magus has no
/// Chess960 castling, so only `False` is accepted.
pub fn no_chess960(chess960: bool) -> PyResult<()> {
    if chess960 {
        Err(MagusError::new_err(
            "chess960=True: magus plays no Chess960 (Fischer random) castling; pass False",
        ))
    } else {
        Ok(())
    }
}
