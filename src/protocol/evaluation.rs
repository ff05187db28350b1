//! The evaluation options both protocols offer: `Evaluation` (which evaluation the search
//! uses) and `EvalFile` (a user's net for the variant being played).

use std::path::Path;
use std::sync::Arc;

use crate::eval::EvalMode;
use crate::eval::nnue::{self, FeatureSet, Network};
use crate::game::Game;
use crate::with_position;

/// The choices of `Evaluation`, the default first. `full` is read as `hce`, its older name.
pub const CHOICES: [&str; 3] = ["nnue", "hce", "material"];

/// The evaluation a choice names.
pub fn mode(value: &str) -> Result<EvalMode, String> {
    match value.to_ascii_lowercase().as_str() {
        "nnue" => Ok(EvalMode::Nnue),
        "hce" | "full" => Ok(EvalMode::Full),
        "material" => Ok(EvalMode::Material),
        _ => Err(format!(
            "option 'Evaluation': '{value}' is not one of {}",
            CHOICES.join(", ")
        )),
    }
}

/// The net `EvalFile` names, read and checked against the game's variant; `None` for an
/// empty value (back to the variant's built-in net). The error names the file and the fault.
pub fn eval_file(value: &str, game: &Game) -> Result<Option<Arc<Network>>, String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return Ok(None);
    }
    let variant = game.variant();
    let set = with_position!(game.position(), p => FeatureSet::of(p.layout()));
    nnue::load(Path::new(value), variant, &set)
        .map(Some)
        .map_err(|e| format!("option 'EvalFile': {e}; the evaluation is unchanged"))
}

/// The learned evaluation of the game's position, for `eval`: by the user's net if it is
/// this variant's, else by the built-in one, or a line saying there is none.
pub fn nnue_line(game: &Game, user: Option<&Arc<Network>>) -> String {
    let variant = game.variant();
    let set = with_position!(game.position(), p => FeatureSet::of(p.layout()));
    let chosen = user
        .filter(|net| nnue::check_fits(net, variant, &set).is_ok())
        .map(|net| (Arc::clone(net), "the EvalFile net"))
        .or_else(|| nnue::builtin::net(&variant.name).map(|net| (net, "the built-in net")));
    match chosen {
        Some((net, which)) => {
            let score = with_position!(game.position(), p => nnue::evaluate(&net, p));
            format!(
                "NNUE evaluation: {score} (side to move; {which}, {} hidden)",
                net.hidden
            )
        }
        None => format!(
            "NNUE evaluation: none ({} has no net; the search uses the evaluation above)",
            variant.name
        ),
    }
}
