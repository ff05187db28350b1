//! A game at the board as PGN and FEN, and games read from them.

use super::session::{Player, State};
use crate::game::{AnyPosition, Game};
use crate::pgn::{PgnGame, PgnMove};
use crate::variant::{Registry, Variant};

/// The SAN of each move of a game, from its start.
pub fn sans(game: &Game) -> Vec<String> {
    let mut pos = *game.start();
    game.moves()
        .iter()
        .map(|&m| {
            let san = pos.san(m);
            pos = pos.after(m);
            san
        })
        .collect()
}

fn player(p: Player, level: u8) -> String {
    match p {
        Player::Human => "Human".to_string(),
        Player::Engine => format!("magus (level {level})"),
    }
}

/// The game as PGN: the seven-tag roster, the variant, the set-up position if it is not the
/// variant's start, the clock, how the game ended, and the Magi payoff when it is scored.
pub fn pgn(st: &State) -> String {
    let variant = st.game.variant();
    let mut g = PgnGame::default();
    let s = &st.settings;
    g.set_tag("Event", "magus gui game");
    g.set_tag("Site", "magus gui");
    g.set_tag("Date", crate::tournament::report::pgn_date());
    g.set_tag("Round", "-");
    g.set_tag("White", player(s.players[0], s.level));
    g.set_tag("Black", player(s.players[1], s.level));
    let finish = st.finish();
    g.set_tag("Result", finish.as_ref().map_or("*", |f| f.result));
    if variant.name != "chess" {
        g.set_tag("Variant", variant.name.clone());
    }
    let start_fen = st.game.start().to_fen();
    let variant_start = AnyPosition::from_fen(variant, None).map(|p| p.to_fen());
    if variant_start.as_deref() != Ok(start_fen.as_str()) {
        g.set_tag("SetUp", "1");
        g.set_tag("FEN", start_fen);
    }
    g.set_tag(
        "TimeControl",
        s.clock.map_or("-".to_string(), |(initial, inc)| {
            let secs = |d: std::time::Duration| crate::tournament::clock::seconds_text(d);
            if inc.is_zero() {
                secs(initial)
            } else {
                format!("{}+{}", secs(initial), secs(inc))
            }
        }),
    );
    if let Some(f) = &finish {
        let termination = match f.reason.as_str() {
            "time forfeit" => "time forfeit",
            _ => "normal",
        };
        g.set_tag("Termination", termination);
        if let Some((w, b)) = f.payoff {
            g.set_tag("Payoff", format!("{w}-{b}"));
        }
        g.final_comment = Some(f.text.clone());
    }
    g.moves = st
        .sans
        .iter()
        .map(|san| PgnMove {
            san: san.clone(),
            comment: None,
        })
        .collect();
    g.result = finish.map_or("*", |f| f.result).to_string();
    g.write()
}

/// The first game of a PGN text, every move checked, with its SAN.
pub fn read_pgn(text: &str, registry: &Registry) -> Result<(Game, Vec<String>), String> {
    let games = crate::pgn::read_all(text).map_err(|e| format!("PGN: {e}"))?;
    let first = games.first().ok_or("PGN: no game in it")?;
    let replay = crate::pgn::replay(first, registry).map_err(|e| format!("PGN: {e}"))?;
    let sans = sans(&replay.game);
    Ok((replay.game, sans))
}

/// A position of `variant` from a FEN.
pub fn read_fen(variant: &'static Variant, fen: &str) -> Result<AnyPosition, String> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err("FEN: empty".into());
    }
    if fen.len() > 1000 {
        return Err("FEN: longer than 1000 characters".into());
    }
    AnyPosition::from_fen(variant, Some(fen)).map_err(|e| format!("FEN '{fen}': {e}"))
}
