//! The UCI protocol. vampirc-uci parses the fixed-form commands; `position` and move lists
//! are read by the engine's own notation code, which knows every board size.

use std::io::Write;
use std::path::Path;

use vampirc_uci::UciMessage;

use crate::game::{AnyPosition, Game, check_variant};
use crate::variant::Registry;

pub const ENGINE_NAME: &str = concat!("magus ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the magus developers";

/// The state of a UCI session: known variants, the current variant and game.
pub struct UciSession<W: Write> {
    registry: Registry,
    game: Game,
    out: W,
}

impl<W: Write> UciSession<W> {
    pub fn new(registry: Registry, out: W) -> UciSession<W> {
        let variant = registry.get("chess").unwrap_or(registry.all()[0]);
        let start =
            AnyPosition::from_fen(variant, None).expect("built-in start positions are sound");
        UciSession {
            registry,
            game: Game::new(start),
            out,
        }
    }

    fn say(&mut self, text: &str) {
        // A closed output means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn error(&mut self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return true;
        };
        match first {
            "position" => self.position(&line["position".len()..]),
            "d" => self.display(),
            "go" if line.split_whitespace().nth(1) == Some("perft") => {
                let depth = line.split_whitespace().nth(2).map(str::parse::<u32>);
                match depth {
                    Some(Ok(d)) if (1..=20).contains(&d) => self.perft(d),
                    _ => self.error("go perft needs a depth from 1 to 20"),
                }
            }
            _ => match vampirc_uci::parse_one(line) {
                UciMessage::Uci => self.uci(),
                UciMessage::IsReady => self.say("readyok"),
                UciMessage::UciNewGame => {
                    let start = *self.game.start();
                    self.game = Game::new(start);
                }
                UciMessage::SetOption { name, value } => self.set_option(&name, value.as_deref()),
                UciMessage::Quit => return false,
                UciMessage::Debug(_) | UciMessage::Stop | UciMessage::PonderHit => {}
                _ => self.error(&format!("unknown command '{line}'")),
            },
        }
        true
    }

    fn uci(&mut self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say(&format!("id author {ENGINE_AUTHOR}"));
        let names = self.registry.names();
        let vars: String = names.iter().map(|n| format!(" var {n}")).collect();
        let current = self.game.variant().name.clone();
        self.say(&format!(
            "option name UCI_Variant type combo default {current}{vars}"
        ));
        self.say("option name VariantPath type string default <empty>");
        self.say("uciok");
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let value = value.unwrap_or("").trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "uci_variant" => match self.registry.get(value) {
                Some(variant) => match AnyPosition::from_fen(variant, None) {
                    Ok(start) => {
                        self.game = Game::new(start);
                        self.say(&format!(
                            "info string variant {} files {} ranks {} startpos {}",
                            variant.name, variant.files, variant.ranks, variant.start_fen
                        ));
                    }
                    Err(e) => self.error(&e),
                },
                None => {
                    let known = self.registry.names().join(", ");
                    self.error(&format!("unknown variant '{value}' (known: {known})"));
                }
            },
            "variantpath" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                match self.registry.load_dir(Path::new(value), check_variant) {
                    Ok(names) => {
                        self.say(&format!("info string loaded variants: {}", names.join(" ")))
                    }
                    Err(e) => self.error(&e),
                }
            }
            _ => self.error(&format!("unknown option '{name}'")),
        }
    }

    /// `position startpos|fen FEN [moves m1 m2 …]`. Nothing changes unless all of it is good.
    fn position(&mut self, args: &str) {
        let args = args.trim();
        let (setup, moves) = match args.find(" moves") {
            Some(i) => (
                &args[..i],
                args[i + " moves".len()..]
                    .split_whitespace()
                    .collect::<Vec<_>>(),
            ),
            None if args.ends_with("moves") => (args.trim_end_matches("moves").trim(), vec![]),
            None => (args, vec![]),
        };
        let variant = self.game.variant();
        let start = if setup == "startpos" {
            AnyPosition::from_fen(variant, None)
        } else if let Some(fen) = setup.strip_prefix("fen ") {
            AnyPosition::from_fen(variant, Some(fen.trim()))
        } else {
            Err(format!(
                "position: expected 'startpos' or 'fen <FEN>', got '{setup}'"
            ))
        };
        match start.and_then(|s| Game::from_moves(s, &moves, 1)) {
            Ok(game) => self.game = game,
            Err(e) => self.error(&format!("{e}; the position is unchanged")),
        }
    }

    fn display(&mut self) {
        let pos = *self.game.position();
        let text = crate::diagram::text_board(&pos);
        for line in text.lines() {
            self.say(line);
        }
        self.say(&format!("Fen: {}", pos.to_fen()));
        self.say(&format!("Key: {:016X}", pos.hash()));
        self.say(&format!(
            "Checkers: {}",
            crate::diagram::checkers(&pos).join(" ")
        ));
    }

    fn perft(&mut self, depth: u32) {
        let start = std::time::Instant::now();
        let pos = *self.game.position();
        let mut total = 0;
        for (m, n) in pos.divide(depth) {
            self.say(&format!("{m}: {n}"));
            total += n;
        }
        self.say("");
        self.say(&format!("Nodes searched: {total}"));
        log::debug!("perft {depth} took {:?}", start.elapsed());
    }
}
