//! Fits the win/draw/loss model of `src/eval/wdl.rs` to games: every position of every game
//! whose move carries the engine's score (`{+0.35/9 0.061s}`, as `magus match` writes them),
//! its material left, and how the game ended for the side that moved. Prints each variant's
//! parameters, the fit's log-loss beside that of the model in the source, and the data's
//! size.
//!
//! `cargo run --release --example fit_wdl -- GAMES.pgn…` (docs/wdl.md).

use magus::eval::wdl::{WdlModel, chances, material_left, model_for};
use magus::pgn::{read_all, replay};
use magus::variant::{Registry, Variant};

/// One position: the mover's score, the material left, and the result for the mover
/// (1 win, 0 draw, -1 loss).
struct Sample {
    score: f64,
    material: f64,
    result: i8,
}

/// The score in a move's comment, in centipawns from the mover's side; `None` for book
/// moves, mates and scores too large to say anything about a draw.
fn comment_score(comment: &str) -> Option<f64> {
    let first = comment.split_whitespace().next()?;
    let value = first.split('/').next()?;
    if value.contains('M') || value.contains('#') {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    let cp = pawns * 100.0;
    (cp.abs() <= 1500.0).then_some(cp)
}

/// The mean negative log-likelihood of the samples under `model`.
fn loss(model: &WdlModel, samples: &[Sample]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let (win, lose) = chances(model, s.score, s.material);
            let p = match s.result {
                1 => win,
                -1 => lose,
                _ => 1.0 - win - lose,
            };
            -p.max(1e-9).ln()
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// Minimises the loss from a start by gradient descent with numerical gradients and a step
/// that grows while it helps and shrinks when it does not.
fn fit(samples: &[Sample], start: WdlModel) -> WdlModel {
    let get = |m: &WdlModel| [m.a0, m.a1, m.b0, m.b1];
    let set = |p: [f64; 4]| WdlModel {
        a0: p[0],
        a1: p[1],
        b0: p[2],
        b1: p[3],
    };
    let mut params = get(&start);
    let mut current = loss(&start, samples);
    let mut step = 10.0;
    for _ in 0..3000 {
        let mut grad = [0.0; 4];
        for i in 0..4 {
            let mut up = params;
            up[i] += 0.01;
            grad[i] = (loss(&set(up), samples) - current) / 0.01;
        }
        let norm = grad.iter().map(|g| g * g).sum::<f64>().sqrt();
        if norm < 1e-9 {
            break;
        }
        let mut next = params;
        for i in 0..4 {
            next[i] -= step * grad[i] / norm;
        }
        let next_loss = loss(&set(next), samples);
        if next_loss < current {
            params = next;
            current = next_loss;
            step *= 1.2;
        } else {
            step *= 0.5;
            if step < 1e-4 {
                break;
            }
        }
    }
    set(params)
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: fit_wdl GAMES.pgn...");
        std::process::exit(2);
    }
    let registry = Registry::builtin();
    let mut by_variant: Vec<(&'static Variant, Vec<Sample>, usize)> = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(1)
        });
        let games = read_all(&text).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(1)
        });
        for game in games {
            let white_result: i8 = match game.result.as_str() {
                "1-0" => 1,
                "0-1" => -1,
                "1/2-1/2" => 0,
                _ => continue,
            };
            let Ok(replayed) = replay(&game, &registry) else {
                continue;
            };
            let variant = replayed.game.variant();
            let index = match by_variant.iter().position(|(v, ..)| v.name == variant.name) {
                Some(i) => i,
                None => {
                    by_variant.push((variant, Vec::new(), 0));
                    by_variant.len() - 1
                }
            };
            by_variant[index].2 += 1;
            let mut pos = *replayed.game.start();
            for (played, &m) in game.moves.iter().zip(replayed.game.moves()) {
                let white_moves = pos.to_fen().split_whitespace().nth(1) == Some("w");
                if let Some(score) = played.comment.as_deref().and_then(comment_score) {
                    by_variant[index].1.push(Sample {
                        score,
                        material: material_left(variant, &pos.to_fen()),
                        result: if white_moves {
                            white_result
                        } else {
                            -white_result
                        },
                    });
                }
                pos = pos.after(m);
            }
        }
    }
    for (variant, samples, games) in &by_variant {
        let now = model_for(variant);
        let fitted = fit(samples, now);
        println!(
            "{}: {games} games, {} positions; a = {:.1} + {:.1}·m, b = {:.1} + {:.1}·m; \
             log-loss {:.4} (the model in the source: {:.4})",
            variant.name,
            samples.len(),
            fitted.a0,
            fitted.a1,
            fitted.b0,
            fitted.b1,
            loss(&fitted, samples),
            loss(&now, samples)
        );
    }
}
