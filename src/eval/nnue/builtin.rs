//! The nets built into the engine, one per variant that has one (`nets/`, trained by
//! `magus train`; docs/nnue.md says from which data and with which command).

use std::sync::{Arc, OnceLock};

use super::network::Network;

/// The files, by variant name: one for every built-in variant, each a correction of the
/// hand-made evaluation (`magus train --on-hce`); docs/nnue.md ("Built in") gives their data
/// and commands.
const FILES: &[(&str, &[u8])] = &[
    ("chess", include_bytes!("../../../nets/chess.nnue")),
    ("magi", include_bytes!("../../../nets/magi.nnue")),
    (
        "deathmatch",
        include_bytes!("../../../nets/deathmatch.nnue"),
    ),
    (
        "deathmatch-legacy",
        include_bytes!("../../../nets/deathmatch-legacy.nnue"),
    ),
    (
        "magician-chess",
        include_bytes!("../../../nets/magician-chess.nnue"),
    ),
    (
        "royal-magician",
        include_bytes!("../../../nets/royal-magician.nnue"),
    ),
];

/// The built-in net of a variant, if it has one.
pub fn net(variant: &str) -> Option<Arc<Network>> {
    static NETS: OnceLock<Vec<(&'static str, Arc<Network>)>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        FILES
            .iter()
            .map(|&(name, bytes)| {
                let net = Network::from_bytes(bytes)
                    .unwrap_or_else(|e| panic!("the built-in net of {name}: {e}"));
                (name, Arc::new(net))
            })
            .collect()
    });
    nets.iter()
        .find(|(name, _)| *name == variant)
        .map(|(_, net)| Arc::clone(net))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Registry;

    /// Every built-in net reads, names a built-in variant and fits its inputs.
    #[test]
    fn every_built_in_net_fits_its_variant() {
        let registry = Registry::builtin();
        for &(name, _) in FILES {
            let net = net(name).unwrap();
            let variant = registry.get(name).unwrap();
            let pos = crate::game::AnyPosition::from_fen(variant, None).unwrap();
            crate::with_position!(&pos, p => {
                let set = super::super::FeatureSet::of(p.layout());
                super::super::check_fits(&net, variant, &set).unwrap();
            });
        }
    }
}
