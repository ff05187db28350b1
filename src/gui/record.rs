//! A game at the board as PGN and FEN, and games read from them; the PGN a game is kept on
//! disk as, with the state PGN has no tags for (who plays, the clocks, how it ended).

use std::time::{Duration, Instant};

use super::clock::Clocks;
use super::session::{Ending, Player, Scoring, Settings, State};
use crate::board::Color;
use crate::game::{AnyPosition, Game};
use crate::pgn::{PgnGame, PgnMove};
use crate::tournament::payoff::{Offer, OfferKind};
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
    pgn_game(st).write()
}

fn pgn_game(st: &State) -> PgnGame {
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
    g
}

/// A game kept on disk: its PGN with the game's state in tags of its own (`Magus...`).
pub fn saved(st: &State) -> String {
    let mut g = pgn_game(st);
    let s = &st.settings;
    let player = |p| match p {
        Player::Human => "human",
        Player::Engine => "engine",
    };
    let ms = |d: Duration| d.as_millis().to_string();
    g.set_tag(
        "MagusPlayers",
        format!("{} {}", player(s.players[0]), player(s.players[1])),
    );
    g.set_tag("MagusLevel", s.level.to_string());
    g.set_tag("MagusMovetime", ms(s.movetime));
    if let Some((initial, inc)) = s.clock {
        g.set_tag("MagusClock", format!("{} {}", ms(initial), ms(inc)));
    }
    if let Some(c) = &st.clock {
        let now = Instant::now();
        let left = |color| ms(c.remaining(color, now));
        g.set_tag(
            "MagusTimeLeft",
            format!("{} {}", left(Color::White), left(Color::Black)),
        );
    }
    if s.scoring == Scoring::Magi12 {
        g.set_tag("MagusScoring", "magi-12");
    }
    g.set_tag("MagusAnalysis", if s.analysis { "board" } else { "game" });
    g.set_tag(
        "MagusLines",
        format!(
            "{} {}",
            if s.show_lines { "shown" } else { "hidden" },
            s.multipv
        ),
    );
    if let Some(ended) = st.ended {
        g.set_tag(
            "MagusEnded",
            match ended {
                Ending::Resigned(c) => format!("resigned {}", color_word(c)),
                Ending::Time(c) => format!("time {}", color_word(c)),
                Ending::Agreed => "agreed".to_string(),
            },
        );
    }
    if !st.offers.is_empty() {
        let offers: Vec<String> = st
            .offers
            .iter()
            .map(|o| {
                let kind = match o.kind {
                    OfferKind::Draw => "draw",
                    OfferKind::Resign => "resign",
                };
                let answer = if o.accepted { "accepted" } else { "declined" };
                format!("{kind} {} {} {answer}", color_word(o.by), o.fullmove)
            })
            .collect();
        g.set_tag("MagusOffers", offers.join(", "));
    }
    if let Some(by) = st.draw_offer {
        g.set_tag("MagusDrawOffer", color_word(by));
    }
    g.write()
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A game read back from disk.
pub struct Restored {
    pub game: Game,
    pub sans: Vec<String>,
    pub settings: Settings,
    /// Paused: a game reopened waits for its next move before a clock runs.
    pub clock: Option<Clocks>,
    pub ended: Option<Ending>,
    pub offers: Vec<Offer>,
    pub draw_offer: Option<Color>,
}

/// A game kept on disk by `saved`, every move checked again.
pub fn restore(text: &str, registry: &Registry) -> Result<Restored, String> {
    let games = crate::pgn::read_all(text).map_err(|e| format!("PGN: {e}"))?;
    let first = games.first().ok_or("PGN: no game in it")?;
    let replay = crate::pgn::replay(first, registry).map_err(|e| format!("PGN: {e}"))?;
    let tag = |name: &str| first.tag(name).unwrap_or("");
    let words = |name: &str| tag(name).split_whitespace().collect::<Vec<_>>();
    let bad = |name: &str| format!("tag {name}: '{}' is not understood", tag(name));
    let color = |w: &str| match w {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    };
    let millis = |w: &str| w.parse::<u64>().ok().map(Duration::from_millis);
    let players = match words("MagusPlayers")[..] {
        [w, b] => {
            let p = |x| match x {
                "human" => Some(Player::Human),
                "engine" => Some(Player::Engine),
                _ => None,
            };
            [p(w), p(b)]
        }
        _ => [None, None],
    };
    let [Some(white), Some(black)] = players else {
        return Err(bad("MagusPlayers"));
    };
    let level = tag("MagusLevel")
        .parse::<u8>()
        .ok()
        .filter(|l| (super::strength::WEAKEST..=super::strength::FULL).contains(l))
        .ok_or_else(|| bad("MagusLevel"))?;
    let movetime = millis(tag("MagusMovetime")).ok_or_else(|| bad("MagusMovetime"))?;
    let clock = match words("MagusClock")[..] {
        [] => None,
        [i, inc] => Some((
            millis(i).ok_or_else(|| bad("MagusClock"))?,
            millis(inc).ok_or_else(|| bad("MagusClock"))?,
        )),
        _ => return Err(bad("MagusClock")),
    };
    let (show_lines, multipv) = match words("MagusLines")[..] {
        [shown, k] => (
            shown == "shown",
            k.parse::<usize>()
                .ok()
                .filter(|k| (1..=super::requests::MAX_MULTIPV).contains(k))
                .ok_or_else(|| bad("MagusLines"))?,
        ),
        _ => return Err(bad("MagusLines")),
    };
    let settings = Settings {
        players: [white, black],
        level,
        clock,
        movetime,
        scoring: if tag("MagusScoring") == "magi-12" {
            Scoring::Magi12
        } else {
            Scoring::Standard
        },
        analysis: tag("MagusAnalysis") == "board",
        show_lines,
        multipv,
    };
    let clocks = match (clock, &words("MagusTimeLeft")[..]) {
        (None, _) => None,
        (Some((_, inc)), [w, b]) => Some(Clocks::restored(
            [
                millis(w).ok_or_else(|| bad("MagusTimeLeft"))?,
                millis(b).ok_or_else(|| bad("MagusTimeLeft"))?,
            ],
            inc,
        )),
        (Some((initial, inc)), _) => Some(Clocks::new(initial, inc)),
    };
    let ended = match words("MagusEnded")[..] {
        [] => None,
        ["agreed"] => Some(Ending::Agreed),
        ["resigned", c] => Some(Ending::Resigned(color(c).ok_or_else(|| bad("MagusEnded"))?)),
        ["time", c] => Some(Ending::Time(color(c).ok_or_else(|| bad("MagusEnded"))?)),
        _ => return Err(bad("MagusEnded")),
    };
    let mut offers = Vec::new();
    for offer in tag("MagusOffers")
        .split(',')
        .filter(|o| !o.trim().is_empty())
    {
        let parts: Vec<&str> = offer.split_whitespace().collect();
        let [kind, by, fullmove, answer] = parts[..] else {
            return Err(bad("MagusOffers"));
        };
        offers.push(Offer {
            kind: match kind {
                "draw" => OfferKind::Draw,
                "resign" => OfferKind::Resign,
                _ => return Err(bad("MagusOffers")),
            },
            by: color(by).ok_or_else(|| bad("MagusOffers"))?,
            fullmove: fullmove.parse().map_err(|_| bad("MagusOffers"))?,
            accepted: answer == "accepted",
        });
    }
    let draw_offer = match tag("MagusDrawOffer") {
        "" => None,
        c => Some(color(c).ok_or_else(|| bad("MagusDrawOffer"))?),
    };
    let sans = sans(&replay.game);
    Ok(Restored {
        game: replay.game,
        sans,
        settings,
        clock: clocks,
        ended,
        offers,
        draw_offer,
    })
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
