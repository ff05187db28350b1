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

/// What `EvalFile` did: the net to keep (`None`: back to the built-in nets), and a note
/// for the user when the net waits for its variant.
pub type EvalFile = (Option<Arc<Network>>, Option<String>);

/// The net `EvalFile` names. A GUI sets its options before it names the variant, so a net
/// of another variant is kept, with a note, and plays when its variant is played (the
/// search uses a user's net only where it fits). A file that is not a net, and a net of this
/// variant that does not fit its inputs, are refused: the error names the file and the
/// fault, and the net set before stays. An empty value goes back to the built-in nets.
pub fn eval_file(value: &str, game: &Game) -> Result<EvalFile, String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return Ok((None, None));
    }
    let refused = |e: String| format!("option 'EvalFile': {e}; the evaluation is unchanged");
    let net = nnue::read(Path::new(value)).map_err(refused)?;
    let variant = game.variant();
    if net.variant != variant.name {
        let note = format!(
            "EvalFile: {value}: a net for {}; it plays when the variant is {} \
             ({} keeps its evaluation)",
            net.variant, net.variant, variant.name
        );
        return Ok((Some(Arc::new(net)), Some(note)));
    }
    let set = with_position!(game.position(), p => FeatureSet::of(p.layout()));
    nnue::check_fits(&net, variant, &set).map_err(|e| refused(format!("{value}: {e}")))?;
    Ok((Some(Arc::new(net)), None))
}

/// A note when the user's net is for the game's variant but does not fit its inputs (the
/// variant was defined again with other pieces or another board since the net was set): the
/// search then uses the built-in evaluation.
pub fn unfit_net_note(game: &Game, user: Option<&Arc<Network>>) -> Option<String> {
    let net = user?;
    let variant = game.variant();
    if net.variant != variant.name {
        return None;
    }
    let set = with_position!(game.position(), p => FeatureSet::of(p.layout()));
    nnue::check_fits(net, variant, &set).err().map(|e| {
        format!(
            "EvalFile: the net does not fit this {}: {e}; it is not used",
            variant.name
        )
    })
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
            let on_hce = if net.on_hce {
                ", a correction added to the hand-made evaluation"
            } else {
                ""
            };
            format!(
                "NNUE evaluation: {score} (side to move; {which}, {} hidden{on_hce})",
                net.hidden
            )
        }
        None => format!(
            "NNUE evaluation: none ({} has no net; the search uses the evaluation above)",
            variant.name
        ),
    }
}
