//! Reads data files into the tuner's dataset: every game of every file replayed and its kept
//! positions traced, in parallel.

use std::path::PathBuf;

use rayon::prelude::*;

use super::data::{GameRecord, Header};
use super::fit::{Dataset, Slots};
use crate::eval::{EvalTables, trace};
use crate::variant::Variant;
use crate::with_position;

/// What was read.
#[derive(Debug, Default)]
pub struct Loaded {
    pub games: usize,
    pub positions: usize,
    /// Files whose last line was cut short (left out).
    pub cut_short: Vec<String>,
}

/// Reads `paths` (data files of `variant`, by name) and traces their positions under the
/// weights of `variant`.
pub fn load(
    paths: &[PathBuf],
    variant: &'static Variant,
    slots: &Slots,
) -> Result<(Dataset, Loaded), String> {
    let mut data = Dataset::new();
    let mut loaded = Loaded::default();
    for path in paths {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
        let (complete, cut) = match text.rfind('\n') {
            Some(end) => (&text[..=end], end + 1 < text.len()),
            None => ("", !text.is_empty()),
        };
        if cut {
            loaded.cut_short.push(shown.clone());
        }
        let lines: Vec<&str> = complete.lines().collect();
        let Some(first) = lines.first() else {
            return Err(format!("{shown}: empty, or its first line is cut short"));
        };
        let header = Header::parse(first).map_err(|e| format!("{shown}: line 1: {e}"))?;
        if header.variant != variant.name {
            return Err(format!(
                "{shown}: its games are of variant '{}', not '{}'",
                header.variant, variant.name
            ));
        }
        let parts: Vec<Result<(Dataset, usize), String>> = lines
            .par_iter()
            .enumerate()
            .skip(1)
            .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|(n, line)| {
                let at = |e: String| format!("{shown}: line {}: {e}", n + 1);
                let game = GameRecord::parse(line).map_err(at)?;
                let samples = game.samples(variant).map_err(at)?;
                let mut part = Dataset::new();
                for s in &samples {
                    let t = with_position!(&s.position, p => trace(p, EvalTables::of(p.layout())));
                    part.push(&t, slots, s.result, s.score as f32);
                }
                Ok((part, samples.len()))
            })
            .collect();
        for part in parts {
            let (part, n) = part?;
            loaded.games += 1;
            loaded.positions += n;
            data.append(part);
        }
    }
    Ok((data, loaded))
}
