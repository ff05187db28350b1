//! The training data file (docs/tuning.md, "The data file"): a header line, then one line per
//! self-play game, in the order of the games' indices:
//!
//! ```text
//! #magus-data 1 variant=chess seed=1 nodes=5000 random-plies=8 balance=300
//! 0 1-0 rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2|g1f3:34 d7d6:41 d2d4 c5d4 …
//! ```
//!
//! A game line is its index, its result (White's: `1-0`, `1/2-1/2`, `0-1`), the position after
//! its random opening (FEN), `|`, then the moves played, in wire notation. A move followed by
//! `:score` was the search's best move in a quiet position (not in check; the move captures
//! nothing, directly or as a side effect, and changes no piece into another), and the score is the search's,
//! in centipawns from White's view: those positions are the data. About eight bytes a
//! position; a line is written whole, so a file cut short by a crash loses at most its last
//! line, which [`read`] leaves out.

use std::path::Path;

use crate::board::Bitboard;
use crate::board::{Move, MoveKind, Position};
use crate::game::AnyPosition;
use crate::variant::Variant;
use crate::with_position;

const MAGIC: &str = "#magus-data";
const VERSION: u32 = 1;

/// What a file's games were played with: a file is continued only with the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub variant: String,
    pub seed: u64,
    pub nodes: u64,
    pub random_plies: usize,
    /// The opening balance check's limit in centipawns (none: no check).
    pub balance: Option<i32>,
    /// `(K, N)` when the file is shard K of N of a run (`magus datagen --shard K/N`): it holds
    /// the games whose index is K − 1 more than a multiple of N. Written only when there is
    /// one, so that the files of unsharded runs read as before.
    pub shard: Option<(u64, u64)>,
    /// The checksum of the net that played the games (`magus datagen --eval-file`); none for
    /// the hand-made evaluation. Written only when there is one.
    pub net: Option<u64>,
}

impl Header {
    pub fn to_line(&self) -> String {
        let shard = self
            .shard
            .map_or(String::new(), |(k, n)| format!(" shard={k}/{n}"));
        let net = self.net.map_or(String::new(), |n| format!(" net={n:016x}"));
        format!(
            "{MAGIC} {VERSION} variant={} seed={} nodes={} random-plies={} balance={}{shard}{net}",
            self.variant,
            self.seed,
            self.nodes,
            self.random_plies,
            self.balance.map_or("none".to_string(), |b| b.to_string())
        )
    }

    /// The index of the file's `n`-th game (from 0): `n` itself, or the `n`-th index of
    /// its shard.
    pub fn index_of(&self, n: u64) -> u64 {
        match self.shard {
            Some((k, count)) => n.saturating_mul(count).saturating_add(k - 1),
            None => n,
        }
    }

    /// How many of a run's first `games` games are this file's.
    pub fn games_of(&self, games: u64) -> u64 {
        match self.shard {
            Some((k, count)) if games >= k => (games - k) / count + 1,
            Some(_) => 0,
            None => games,
        }
    }

    pub fn parse(line: &str) -> Result<Header, String> {
        let mut words = line.split_whitespace();
        if words.next() != Some(MAGIC) {
            return Err(format!(
                "not a magus data file (its first line is not '{MAGIC} …')"
            ));
        }
        let version = words.next().unwrap_or("");
        if version != VERSION.to_string() {
            return Err(format!(
                "data format version '{version}', this magus reads version {VERSION}"
            ));
        }
        let mut fields = std::collections::HashMap::new();
        for word in words {
            let (k, v) = word
                .split_once('=')
                .ok_or_else(|| format!("header field '{word}' is not key=value"))?;
            fields.insert(k, v);
        }
        let field = |k: &str| {
            fields
                .get(k)
                .copied()
                .ok_or_else(|| format!("the header has no '{k}'"))
        };
        let number = |k: &str| -> Result<u64, String> {
            field(k)?
                .parse()
                .map_err(|_| format!("header field '{k}' is not a whole number"))
        };
        let balance = match field("balance")? {
            "none" => None,
            b => Some(
                b.parse()
                    .map_err(|_| "header field 'balance' is not a number or 'none'".to_string())?,
            ),
        };
        let shard = match fields.get("shard") {
            None => None,
            Some(text) => Some(parse_shard(text).map_err(|e| format!("header field {e}"))?),
        };
        let net = match fields.get("net") {
            None => None,
            Some(text) => Some(u64::from_str_radix(text, 16).map_err(|_| {
                format!("header field 'net' is not a net's checksum (16 hex digits): '{text}'")
            })?),
        };
        Ok(Header {
            variant: field("variant")?.to_string(),
            seed: number("seed")?,
            nodes: number("nodes")?,
            random_plies: number("random-plies")? as usize,
            balance,
            shard,
            net,
        })
    }

    /// Why a file written with `self` cannot be continued with `other`, if it cannot.
    pub fn mismatch(&self, other: &Header) -> Option<String> {
        let pairs = [
            ("variant", self.variant.clone(), other.variant.clone()),
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("nodes", self.nodes.to_string(), other.nodes.to_string()),
            (
                "random-plies",
                self.random_plies.to_string(),
                other.random_plies.to_string(),
            ),
            (
                "balance",
                format!("{:?}", self.balance),
                format!("{:?}", other.balance),
            ),
            ("shard", shard_text(self.shard), shard_text(other.shard)),
            ("net", net_text(self.net), net_text(other.net)),
        ];
        pairs
            .iter()
            .find(|(_, a, b)| a != b)
            .map(|(k, a, b)| format!("its games were played with {k} {a}, not {b}"))
    }
}

/// A game's result, from White's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// White's score: 1, ½ or 0.
    pub fn white_score(self) -> f32 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }
    fn text(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
        }
    }
    /// A result as PGN and the data file write it: `1-0`, `1/2-1/2` or `0-1`.
    pub fn parse(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "1/2-1/2" => Some(GameResult::Draw),
            "0-1" => Some(GameResult::BlackWins),
            _ => None,
        }
    }
}

/// One move of a game; `score` (White's view, centipawns) when the position before it is
/// kept as data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    pub wire: String,
    pub score: Option<i32>,
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub index: u64,
    pub result: GameResult,
    /// The position after the random opening.
    pub start: String,
    pub plies: Vec<Ply>,
}

impl GameRecord {
    /// The game's line, without its line end.
    pub fn to_line(&self) -> String {
        let mut line = format!("{} {} {}|", self.index, self.result.text(), self.start);
        for (i, ply) in self.plies.iter().enumerate() {
            if i > 0 {
                line.push(' ');
            }
            line.push_str(&ply.wire);
            if let Some(s) = ply.score {
                line.push_str(&format!(":{s}"));
            }
        }
        line
    }

    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let (head, moves) = line
            .split_once('|')
            .ok_or("no '|' between the start position and the moves")?;
        let mut parts = head.splitn(3, ' ');
        let index = parts
            .next()
            .and_then(|i| i.parse().ok())
            .ok_or("the game's index is not a whole number")?;
        let result_text = parts.next().unwrap_or("");
        let result = GameResult::parse(result_text)
            .ok_or_else(|| format!("'{result_text}' is not a result (1-0, 1/2-1/2, 0-1)"))?;
        let start = parts.next().unwrap_or("").trim().to_string();
        if start.is_empty() {
            return Err("no start position".into());
        }
        let mut plies = Vec::new();
        for token in moves.split_whitespace() {
            let ply = match token.split_once(':') {
                None => Ply {
                    wire: token.to_string(),
                    score: None,
                },
                Some((wire, score)) => Ply {
                    wire: wire.to_string(),
                    score: Some(
                        score
                            .parse()
                            .map_err(|_| format!("'{token}': the score is not a number"))?,
                    ),
                },
            };
            plies.push(ply);
        }
        Ok(GameRecord {
            index,
            result,
            start,
            plies,
        })
    }

    /// How many positions of the game are data.
    pub fn kept(&self) -> usize {
        self.plies.iter().filter(|p| p.score.is_some()).count()
    }

    /// The positions kept, with the game's result and the search's score: the moves are
    /// replayed from the start, each checked.
    pub fn samples(&self, variant: &'static Variant) -> Result<Vec<Sample>, String> {
        let mut pos = AnyPosition::from_fen(variant, Some(&self.start))
            .map_err(|e| format!("start position: {e}"))?;
        let mut out = Vec::with_capacity(self.kept());
        for (i, ply) in self.plies.iter().enumerate() {
            if let Some(score) = ply.score {
                out.push(Sample {
                    position: pos,
                    result: self.result.white_score(),
                    score,
                });
            }
            pos = pos
                .after_wire(&ply.wire, 1)
                .map_err(|e| format!("move {} '{}': {e}", i + 1, ply.wire))?
                .0;
        }
        Ok(out)
    }
}

/// A position of the data: White's score in its game and the search's score (White's view).
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    pub position: AnyPosition,
    pub result: f32,
    pub score: i32,
}

/// A data file as read: its header, its complete games, and the length in bytes of its
/// complete lines (a last line cut short is left out).
pub struct DataFile {
    pub header: Header,
    pub games: Vec<GameRecord>,
    pub complete_len: u64,
    /// A last line without its line end was left out.
    pub cut_short: bool,
}

/// Reads a data file. The games must be numbered 0, 1, 2 … in order; a line that does not
/// read is an error naming the file and the line.
pub fn read(path: &Path) -> Result<DataFile, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    let (complete, cut_short) = match text.rfind('\n') {
        Some(end) => (&text[..=end], end + 1 < text.len()),
        None => ("", !text.is_empty()),
    };
    let mut lines = complete.lines();
    let header = match lines.next() {
        Some(line) => Header::parse(line).map_err(|e| format!("{shown}: line 1: {e}"))?,
        None => return Err(format!("{shown}: empty, or its first line is cut short")),
    };
    let mut games = Vec::new();
    for (n, line) in lines.enumerate() {
        let at = |e: String| format!("{shown}: line {}: {e}", n + 2);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let game = GameRecord::parse(line).map_err(at)?;
        let expected = header.index_of(games.len() as u64);
        if game.index != expected {
            return Err(at(format!(
                "game {} where game {expected} was expected (the games are numbered in order{})",
                game.index,
                header
                    .shard
                    .map_or(String::new(), |(k, n)| format!(", shard {k} of {n}"))
            )));
        }
        games.push(game);
    }
    Ok(DataFile {
        header,
        games,
        complete_len: complete.len() as u64,
        cut_short,
    })
}

/// `K/N` with 1 ≤ K ≤ N, as `--shard` and the header write it.
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("shard '{text}' is not K/N with 1 ≤ K ≤ N (1/4, 2/4, …)");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

fn shard_text(shard: Option<(u64, u64)>) -> String {
    shard.map_or("none".to_string(), |(k, n)| format!("{k}/{n}"))
}

fn net_text(net: Option<u64>) -> String {
    net.map_or("none (the hand-made evaluation)".to_string(), |n| {
        format!("{n:016x}")
    })
}

/// Whether a position and its best move are quiet enough to be data: not in check, and the
/// move neither captures (directly or as a side effect) nor changes a piece into another
/// (promotion, 6th-rank transformation, swap-in): what the static evaluation cannot see.
pub fn is_quiet(pos: &AnyPosition, best: Move) -> bool {
    with_position!(pos, p => !p.in_check() && is_quiet_move(p, best))
}

fn is_quiet_move<B: Bitboard>(pos: &Position<B>, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant
        | MoveKind::EnPassantTransform
        | MoveKind::Promotion
        | MoveKind::Transform
        | MoveKind::SwapIn
        | MoveKind::SpellDrop => false,
        MoveKind::Castle | MoveKind::SpellCarry => true,
        MoveKind::Normal | MoveKind::Drop => pos.piece_at(m.to()).is_none(),
    }
}
