//! The referee: plays one game between two engine processes. Every move is checked by magus's
//! own rules for the variant; the referee keeps the clocks, ends the game by the rules, by its
//! own limits or adjudication, and records why.

use std::time::{Duration, Instant};

use super::clock::{Clock, Limit};
use super::engine::{Answer, Engine, EngineSpec, Fault, MATE_SCORE, MoveRequest, Reply};
use super::interrupt::StopFlag;
use super::openings::Opening;
use super::payoff::{Offer, OfferKind, Payoff, PayoffEnd, PayoffRules};
use crate::board::Color;
use crate::game::outcome::{Outcome, Reason};
use crate::game::{AnyPosition, Game};
use crate::variant::Variant;
use crate::with_position;

/// The game's end by the variant's rules, if it is over.
pub fn rules_outcome(game: &Game) -> Option<Outcome> {
    with_position!(game.position(), p => crate::game::outcome::outcome(p, game.hashes()))
}

fn side_to_move(pos: &AnyPosition) -> Color {
    with_position!(pos, p => p.side())
}

fn fullmove(pos: &AnyPosition) -> u32 {
    with_position!(pos, p => p.fullmove_number() as u32)
}

/// Resign adjudication: a side whose own score and its opponent's agree that it is at least
/// `score` centipawns behind, for `moves` moves in a row each, loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub score: i32,
    pub moves: usize,
}

/// Draw adjudication: from full move `after` on, both engines' scores within `score` of zero for
/// `moves` moves in a row each: a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub score: i32,
    pub moves: usize,
    pub after: u32,
}

/// How every game of a match is played.
#[derive(Clone, Debug)]
pub struct Settings {
    pub variant: &'static Variant,
    /// The limit of engines without their own.
    pub limit: Limit,
    /// Grace over the clock before a flag falls.
    pub margin: Duration,
    /// How long an engine without a clock (nodes, depth) may take for a move.
    pub move_timeout: Duration,
    /// How long starting an engine or a game may take.
    pub handshake: Duration,
    pub max_plies: Option<usize>,
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    pub payoff: Option<PayoffRules>,
    /// Raised to abandon the games in progress (Ctrl-C): they end unrecorded.
    pub stop: StopFlag,
}

impl Settings {
    /// An engine's limit: its own, or the match's.
    pub fn limit_of(&self, spec: &EngineSpec) -> Limit {
        spec.limit.unwrap_or(self.limit)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
    fn win(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub san: String,
    /// Wire notation, ranks from 1.
    pub wire: String,
    pub comment: String,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// From 1, in the order the games were scheduled.
    pub number: usize,
    pub round: usize,
    /// The opening's index, from 0: the two games of an opening pair share it.
    pub opening: usize,
    /// Indices into the match's engines.
    pub white: usize,
    pub black: usize,
    pub white_name: String,
    pub black_name: String,
    pub variant: String,
    /// The start position when it is not the variant's own.
    pub fen: Option<String>,
    pub moves: Vec<PlayedMove>,
    pub result: GameResult,
    /// A short reason: `checkmate`, `time forfeit`, `illegal move`, … (docs/match.md lists them).
    pub termination: String,
    /// What happened, in words: `Black mates`, `White's move 'e2e5' is illegal: …`.
    pub detail: String,
    pub payoff: Option<Payoff>,
    /// The PGN `TimeControl` of White's and Black's limits.
    pub time_control: [String; 2],
}

/// Who lost or whether it was drawn, and why.
struct End {
    result: GameResult,
    termination: &'static str,
    detail: String,
    payoff_end: PayoffEnd,
}

fn loss(loser: Color, termination: &'static str, detail: String, at_move: u32) -> End {
    End {
        result: GameResult::win(!loser),
        termination,
        detail,
        payoff_end: PayoffEnd::Resign {
            loser,
            fullmove: at_move,
        },
    }
}

fn draw(termination: &'static str, detail: String) -> End {
    End {
        result: GameResult::Draw,
        termination,
        detail,
        payoff_end: PayoffEnd::Draw,
    }
}

/// The engines of one game: a slot for each colour, `None` until started. A faulty engine is
/// dropped (and so stopped) after the game, to be started afresh for the next one.
pub struct Seats<'a> {
    pub white: (&'a EngineSpec, &'a mut Option<Engine>),
    pub black: (&'a EngineSpec, &'a mut Option<Engine>),
}

fn describe_rules_end(o: Outcome, last_mover: Color) -> End {
    match o {
        Outcome::Win(w, Reason::Checkmate) => End {
            result: GameResult::win(w),
            termination: "checkmate",
            detail: format!("{} mates", w.name()),
            payoff_end: PayoffEnd::Mate {
                winner: w,
                fullmove: 0,
            },
        },
        Outcome::Win(w, reason) => End {
            result: GameResult::win(w),
            termination: reason.describe(),
            detail: format!("{} wins by {}", w.name(), reason.describe()),
            payoff_end: if reason == Reason::Stalemate {
                PayoffEnd::Stalemate { by: last_mover }
            } else {
                PayoffEnd::Draw
            },
        },
        Outcome::Draw(reason) => End {
            result: GameResult::Draw,
            termination: reason.describe(),
            detail: format!("draw by {}", reason.describe()),
            payoff_end: if reason == Reason::Stalemate {
                PayoffEnd::Stalemate { by: last_mover }
            } else {
                PayoffEnd::Draw
            },
        },
    }
}

/// A score for a PGN comment: `+0.35`, `-M3`.
fn score_text(score: i32) -> String {
    if score.abs() >= MATE_SCORE - 1000 {
        let plies = MATE_SCORE - score.abs();
        format!("{}M{}", if score > 0 { "+" } else { "-" }, (plies + 1) / 2)
    } else {
        format!("{:+.2}", score as f64 / 100.0)
    }
}

/// The game in the notations the engines speak.
struct Notations {
    wire1: Vec<String>,
    wire0: Vec<String>,
    san: Vec<String>,
}

impl Notations {
    fn for_engine(&self, e: &Engine, ranks: u8) -> &[String] {
        if e.wants_san() {
            &self.san
        } else if e.first_rank(ranks) == 0 {
            &self.wire0
        } else {
            &self.wire1
        }
    }
    fn push(&mut self, pos: &AnyPosition, m: crate::board::Move) {
        with_position!(pos, p => {
            self.wire1.push(crate::protocol::notation::to_wire(p, m, 1));
            self.wire0.push(crate::protocol::notation::to_wire(p, m, 0));
        });
        self.san.push(pos.san(m));
    }
}

/// Reads an engine's move: its own notation first, SAN as a fallback.
fn read_move(
    pos: &AnyPosition,
    text: &str,
    first_rank: u8,
) -> Result<crate::board::Move, crate::game::MoveError> {
    match pos.after_wire(text, first_rank) {
        Ok((_, m)) => Ok(m),
        Err(wire_err) => match pos.after_san(text) {
            Ok((_, m)) => Ok(m),
            Err(_) => Err(wire_err),
        },
    }
}

/// The answers engines give when they see no legal move (UCI's `(none)` and `0000`, and
/// others' words for it).
fn is_no_move(text: &str) -> bool {
    matches!(text.trim(), "(none)" | "0000" | "none" | "null" | "@@@@")
}

/// Plays one game. Whatever goes wrong with an engine loses it the game; `None` only when the
/// match was stopped (`settings.stop`) before the game ended: an abandoned game is no result.
pub fn play_game(
    seats: Seats,
    opening: &Opening,
    settings: &Settings,
    number: usize,
    round: usize,
) -> Option<GameRecord> {
    let variant = settings.variant;
    let start = AnyPosition::from_fen(variant, opening.fen.as_deref())
        .expect("openings are checked when they are made");
    let mut game = Game::new(start);
    let mut notes = Notations {
        wire1: Vec::new(),
        wire0: Vec::new(),
        san: Vec::new(),
    };
    let mut moves = Vec::new();
    for m in &opening.moves {
        let before = *game.position();
        let mv = game
            .play_wire(m, 1)
            .expect("openings are checked when they are made");
        notes.push(&before, mv);
        moves.push(PlayedMove {
            san: notes.san.last().unwrap().clone(),
            wire: m.clone(),
            comment: "book".into(),
        });
    }
    let Seats {
        white: (white_spec, white_slot),
        black: (black_spec, black_slot),
    } = seats;
    let mut record = GameRecord {
        number,
        round,
        opening: 0,
        white: 0,
        black: 0,
        white_name: white_spec.name.clone(),
        black_name: black_spec.name.clone(),
        variant: variant.name.clone(),
        fen: opening.fen.clone(),
        moves,
        result: GameResult::Draw,
        termination: String::new(),
        detail: String::new(),
        payoff: None,
        time_control: [
            settings.limit_of(white_spec).pgn_tag(),
            settings.limit_of(black_spec).pgn_tag(),
        ],
    };
    let slots: [&mut Option<Engine>; 2] = [white_slot, black_slot];
    let specs = [white_spec, black_spec];
    let limits = [settings.limit_of(white_spec), settings.limit_of(black_spec)];
    let mut faulty = [false, false];
    let mut offers: Vec<Offer> = Vec::new();

    let end = 'game: {
        // Start the engines and the game.
        for (i, color) in Color::BOTH.into_iter().enumerate() {
            if slots[i].is_none() {
                match Engine::start(specs[i], &variant.name, settings.handshake, &settings.stop) {
                    Ok(e) => *slots[i] = Some(e),
                    Err(e) => {
                        faulty[i] = true;
                        break 'game loss(
                            color,
                            "engine failure",
                            format!("{} ({}) did not start: {e}", color.name(), specs[i].name),
                            fullmove(game.position()),
                        );
                    }
                }
            }
            let engine = slots[i].as_mut().unwrap();
            let fen = opening.fen.as_deref();
            if let Err(f) = engine.new_game(&variant.name, fen, &limits[i], settings.handshake) {
                faulty[i] = true;
                break 'game loss(
                    color,
                    "engine failure",
                    format!(
                        "{} ({}) could not start the game: {}",
                        color.name(),
                        specs[i].name,
                        f.describe()
                    ),
                    fullmove(game.position()),
                );
            }
        }

        let mut clocks = [Clock::new(&limits[0]), Clock::new(&limits[1])];
        // Periods count the moves of the game, book moves included, as XBoard and the engines
        // count them (a 40-move period ends at move 40 of the game).
        let first = side_to_move(&start) as usize;
        for i in 0..opening.moves.len() {
            clocks[(first + i) % 2].moves_made += 1;
        }
        // Scores each engine reported with its moves, from its own side.
        let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
        let mut pending_draw: Option<(Color, u32)> = None;
        let mut draw_offered_once = false;
        loop {
            let pos = *game.position();
            let us = side_to_move(&pos);
            let ui = us as usize;
            let move_no = fullmove(&pos);
            if let Some(o) = rules_outcome(&game) {
                let mut end = describe_rules_end(o, !us);
                if let PayoffEnd::Mate { fullmove, .. } = &mut end.payoff_end {
                    // The mating move was made in the previous full move if White is to move.
                    *fullmove = if us == Color::White {
                        move_no - 1
                    } else {
                        move_no
                    };
                }
                break 'game end;
            }
            if let Some(limit) = settings.payoff.as_ref().and_then(|p| p.move_limit())
                && move_no > limit
            {
                break 'game End {
                    result: GameResult::Draw,
                    termination: "150-move rule",
                    detail: format!("the game reached move {move_no}"),
                    payoff_end: PayoffEnd::MoveLimit,
                };
            }
            let played = game.moves().len();
            if settings.max_plies.is_some_and(|m| played >= m) {
                break 'game draw(
                    "max length",
                    format!("the referee's limit of {played} plies"),
                );
            }
            if let Some(end) = adjudicate(settings, &scores, us, move_no) {
                break 'game end;
            }

            let engine = slots[ui].as_mut().unwrap();
            let first_rank = engine.first_rank(variant.ranks);
            let limit = &limits[ui];
            let wait = match *limit {
                Limit::Clock { .. } => clocks[ui].left + settings.margin,
                Limit::MoveTime(t) => t + settings.margin,
                Limit::Nodes(_) | Limit::Depth(_) => settings.move_timeout,
            };
            let draw_offered = pending_draw.is_some_and(|(by, _)| by != us);
            let sent = Instant::now();
            let request = MoveRequest {
                fen: opening.fen.as_deref(),
                moves: notes.for_engine(engine, variant.ranks),
                limit,
                own: clocks[ui],
                other: if matches!(limits[1 - ui], Limit::Clock { .. }) {
                    clocks[1 - ui]
                } else {
                    clocks[ui]
                },
                white: us == Color::White,
                draw_offered,
                deadline: sent + wait,
            };
            let answer = engine.play(&request);
            let who = format!("{} ({})", us.name(), specs[ui].name);
            let reply: Reply = match answer {
                Ok(Answer::Move(r)) => r,
                Ok(Answer::Resign) => {
                    offers.push(Offer {
                        kind: OfferKind::Resign,
                        by: us,
                        fullmove: move_no,
                        accepted: true,
                    });
                    break 'game loss(us, "resignation", format!("{who} resigns"), move_no);
                }
                Ok(Answer::Claim(line)) => {
                    faulty[ui] = true;
                    break 'game loss(
                        us,
                        "false claim",
                        format!("{who} claims '{line}', which the rules do not confirm"),
                        move_no,
                    );
                }
                Err(Fault::Timeout) => {
                    faulty[ui] = true;
                    break 'game match *limit {
                        Limit::Nodes(_) | Limit::Depth(_) => loss(
                            us,
                            "stalled",
                            format!(
                                "{who} gave no move in {:.1} s",
                                settings.move_timeout.as_secs_f64()
                            ),
                            move_no,
                        ),
                        _ => loss(
                            us,
                            "time forfeit",
                            format!(
                                "{who} loses on time (no move in {:.3} s)",
                                wait.as_secs_f64()
                            ),
                            move_no,
                        ),
                    };
                }
                Err(Fault::Crash(e)) => {
                    faulty[ui] = true;
                    break 'game loss(us, "crash", format!("{who} crashed: {e}"), move_no);
                }
                Err(Fault::Protocol(e)) => {
                    faulty[ui] = true;
                    break 'game loss(us, "protocol error", format!("{who}: {e}"), move_no);
                }
                Err(Fault::Stopped) => {
                    faulty[ui] = true;
                    break 'game draw("stopped", "the match was stopped".into());
                }
            };
            let used = reply
                .at
                .unwrap_or_else(Instant::now)
                .saturating_duration_since(sent);

            // A draw offered to this engine that it accepted.
            if draw_offered && reply.offers_draw {
                if let Some((by, at)) = pending_draw {
                    offers.push(Offer {
                        kind: OfferKind::Draw,
                        by,
                        fullmove: at,
                        accepted: true,
                    });
                }
                break 'game End {
                    result: GameResult::Draw,
                    termination: "draw agreed",
                    detail: format!("{who} accepts the draw offer"),
                    payoff_end: PayoffEnd::Draw,
                };
            }
            if let Some((by, at)) = pending_draw.take() {
                offers.push(Offer {
                    kind: OfferKind::Draw,
                    by,
                    fullmove: at,
                    accepted: false,
                });
            }

            let m = match read_move(&pos, &reply.text, first_rank) {
                Ok(m) => m,
                Err(_) if is_no_move(&reply.text) => {
                    // The game goes on by the referee's rules, so the engine plays by others
                    // (its own mate or stalemate): its answer is a move the rules forbid.
                    faulty[ui] = true;
                    let detail = format!(
                        "{who} answers '{}' as if it had no move, where the rules give it legal moves",
                        reply.text.trim()
                    );
                    break 'game loss(us, "illegal move", detail, move_no);
                }
                Err(e) => {
                    faulty[ui] = true;
                    let termination = match e {
                        crate::game::MoveError::NotAMove(_) => "unparseable move",
                        _ => "illegal move",
                    };
                    break 'game loss(us, termination, format!("{who}: {e}"), move_no);
                }
            };
            if !clocks[ui].charge(limit, used, settings.margin) {
                faulty[ui] = true;
                break 'game loss(
                    us,
                    "time forfeit",
                    format!(
                        "{who} loses on time ({:.3} s for the move)",
                        used.as_secs_f64()
                    ),
                    move_no,
                );
            }
            notes.push(&pos, m);
            game.play_wire(notes.wire1.last().unwrap(), 1)
                .expect("a move the rules just read");
            scores[ui].push(reply.score);
            let mut comment = String::new();
            if let Some(s) = reply.score {
                comment += &score_text(s);
                if let Some(d) = reply.depth {
                    comment += &format!("/{d}");
                }
                comment.push(' ');
            }
            comment += &format!("{:.3}s", used.as_secs_f64());
            if reply.offers_draw && !draw_offered {
                let counts = settings.payoff.is_none() || !draw_offered_once;
                if counts {
                    draw_offered_once = true;
                    pending_draw = Some((us, move_no));
                    comment += ", offers a draw";
                }
            }
            record.moves.push(PlayedMove {
                san: notes.san.last().unwrap().clone(),
                wire: notes.wire1.last().unwrap().clone(),
                comment,
            });
        }
    };

    // An engine fault while the match is stopping comes from the stop (waits given up, an
    // engine killed by the same signal): the game was abandoned, not finished.
    let abandoned = settings.stop.is_raised() && (faulty[0] || faulty[1]);
    if abandoned {
        for slot in slots {
            *slot = None;
        }
        return None;
    }
    record.result = end.result;
    record.termination = end.termination.to_string();
    record.detail = end.detail.clone();
    record.payoff = settings
        .payoff
        .as_ref()
        .map(|rules| rules.payoff(&offers, end.payoff_end));
    for i in 0..2 {
        if let Some(e) = slots[i].as_mut() {
            if faulty[i] || !e.reusable() {
                *slots[i] = None;
            } else {
                e.game_over(end.result.pgn(), &end.detail);
            }
        }
    }
    Some(record)
}

/// Score adjudication before `us` moves.
fn adjudicate(
    settings: &Settings,
    scores: &[Vec<Option<i32>>; 2],
    us: Color,
    move_no: u32,
) -> Option<End> {
    let last = |side: usize, n: usize| -> Option<Vec<i32>> {
        let s = &scores[side];
        if n == 0 || s.len() < n {
            return None;
        }
        s[s.len() - n..].iter().copied().collect()
    };
    if let Some(rule) = settings.resign {
        for loser in [us, !us] {
            let (l, w) = (loser as usize, 1 - loser as usize);
            if let (Some(ls), Some(ws)) = (last(l, rule.moves), last(w, rule.moves))
                && ls.iter().all(|&s| s <= -rule.score)
                && ws.iter().all(|&s| s >= rule.score)
            {
                return Some(loss(
                    loser,
                    "adjudication",
                    format!(
                        "{} loses by adjudication: both engines agree it is at least {} cp behind",
                        loser.name(),
                        rule.score
                    ),
                    move_no,
                ));
            }
        }
    }
    if let Some(rule) = settings.draw
        && move_no > rule.after
        && let (Some(a), Some(b)) = (last(0, rule.moves), last(1, rule.moves))
        && a.iter().chain(&b).all(|s| s.abs() <= rule.score)
    {
        return Some(draw(
            "adjudication",
            format!(
                "draw by adjudication: both scores within {} cp for {} moves",
                rule.score, rule.moves
            ),
        ));
    }
    None
}
