//! What the page is sent: a variant's description, and a session's whole state (the board,
//! every legal move with its structure, the moves played, the clocks, the result, the
//! engine's lines). The page draws and chooses from this; it holds no rules of its own.

use std::time::Instant;

use serde_json::{Value, json};

use super::session::{Line, Player, Purpose, Scoring, Session, State};
use crate::board::{Bitboard, Color, Kind, Move, MoveKind, Position, Square};
use crate::protocol::notation::to_wire;
use crate::protocol::san::to_san;
use crate::search::Score;
use crate::variant::Variant;
use crate::with_position;

pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn kind_name(kind: MoveKind) -> &'static str {
    match kind {
        MoveKind::Normal => "normal",
        MoveKind::Promotion => "promotion",
        MoveKind::EnPassant => "en-passant",
        MoveKind::Castle => "castle",
        MoveKind::SwapIn => "swap-in",
        MoveKind::Transform => "transform",
        MoveKind::EnPassantTransform => "en-passant-transform",
        MoveKind::SpellCarry => "spell-carry",
        MoveKind::SpellDrop => "spell-drop",
        MoveKind::Drop => "drop",
    }
}

/// Whether a move kind uses `aux` (and `piece`).
fn has_aux(kind: MoveKind) -> bool {
    matches!(
        kind,
        MoveKind::Transform | MoveKind::EnPassantTransform | MoveKind::Drop
    )
}

fn has_piece(kind: MoveKind) -> bool {
    has_aux(kind) || matches!(kind, MoveKind::Promotion | MoveKind::SwapIn)
}

/// A variant as the page needs it to draw boards and name pieces.
pub fn variant(index: usize, v: &Variant) -> Value {
    let pieces: Vec<Value> = v
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| json!({"kind": k, "letter": p.letter.to_string(), "name": p.name, "value": p.value}))
        .collect();
    json!({
        "index": index,
        "name": v.name,
        "title": v.title,
        "summary": v.summary,
        "files": v.files,
        "ranks": v.ranks,
        "start_fen": v.start_fen,
        "pieces": pieces,
        "holes": v.mechanics.spells.is_some(),
        "drops": v.mechanics.drops.is_some(),
        "images": format!("/pieces/{index}/"),
    })
}

/// The square a castling's Rook starts from: clicking it with the King selected castles.
fn castle_rook<B: Bitboard>(p: &Position<B>, m: Move) -> Option<Square> {
    let layout = p.layout();
    let castling = layout.variant.castling.as_ref()?;
    let dims = layout.dims;
    let to_file = dims.file(m.to());
    let side = [castling.king_side, castling.queen_side]
        .into_iter()
        .flatten()
        .find(|s| s.king_to == to_file)?;
    Some(dims.square(side.rook_from, dims.rank(m.from())))
}

/// One legal move with its structure: the page groups moves by `from` (a spell's `from` is
/// its hole) and asks the person to choose when several share `from` and `to`.
fn legal_move<B: Bitboard>(p: &Position<B>, m: Move) -> Value {
    let dims = p.layout().dims;
    let kind = m.kind();
    let piece = has_piece(kind).then(|| {
        let k = m.piece();
        json!({"kind": k.index(), "letter": p.layout().variant.pieces[k.index()].letter.to_string()})
    });
    let rook = (kind == MoveKind::Castle)
        .then(|| castle_rook(p, m).map(|s| dims.name(s)))
        .flatten();
    json!({
        "from": dims.name(m.from()),
        "to": dims.name(m.to()),
        "kind": kind_name(kind),
        "aux": has_aux(kind).then(|| dims.name(m.aux())),
        "piece": piece,
        "rook": rook,
        "san": to_san(p, m),
        "wire": to_wire(p, m, 1),
    })
}

/// The legal moves of a position.
pub fn legal_moves<B: Bitboard>(p: &Position<B>) -> Value {
    Value::Array(p.legal_moves().iter().map(|&m| legal_move(p, m)).collect())
}

/// The reserves of each carrier on the board, in the variant's carrier order.
fn reserves<B: Bitboard>(p: &Position<B>) -> Value {
    let Some(rule) = &p.layout().variant.mechanics.drops else {
        return json!([]);
    };
    let dims = p.layout().dims;
    let mut out = Vec::new();
    for color in Color::BOTH {
        // `carrier_reserves` lists the carriers in this same order: carrier kinds in the
        // rule's order, each kind's squares from the lowest.
        let mut left = crate::rules::drops::carrier_reserves(p, rule, color).into_iter();
        for &carrier in &rule.carriers {
            for sq in p.pieces(color, Kind(carrier)).squares() {
                if let Some((_, holds)) = left.next() {
                    out.push(json!({
                        "color": color_name(color),
                        "carrier": carrier,
                        "square": dims.name(sq),
                        "holds": holds.iter().map(|k| k.index()).collect::<Vec<_>>(),
                    }));
                }
            }
        }
    }
    Value::Array(out)
}

/// The board: pieces, holes, reserves, the King in check and the last move.
fn board<B: Bitboard>(p: &Position<B>, last: Option<Move>) -> Value {
    let layout = p.layout();
    let dims = layout.dims;
    let variant = layout.variant;
    let mut pieces = Vec::new();
    for s in 0..layout.squares {
        let sq = Square::new(s as u8);
        if let Some(pc) = p.piece_at(sq) {
            let def = &variant.pieces[pc.kind().index()];
            pieces.push(json!({
                "square": dims.name(sq),
                "color": color_name(pc.color()),
                "kind": pc.kind().index(),
                "letter": def.letter.to_string(),
                "name": def.name,
            }));
        }
    }
    let holes: Vec<String> = p.holes().squares().map(|s| dims.name(s)).collect();
    let check = p.in_check().then(|| dims.name(p.king(p.side())));
    let last = last.map(|m| {
        json!({
            "from": dims.name(m.from()),
            "to": dims.name(m.to()),
            "aux": has_aux(m.kind()).then(|| dims.name(m.aux())),
            "kind": kind_name(m.kind()),
        })
    });
    json!({
        "files": dims.files,
        "ranks": dims.ranks,
        "pieces": pieces,
        "holes": holes,
        "reserves": reserves(p),
        "check": check,
        "last": last,
        "side": color_name(p.side()),
    })
}

/// The position after the first `ply` moves of the game, for browsing it: its board with
/// the move that led there, its FEN and the side to move. `None` past the game's end.
pub fn position_at(st: &State, ply: usize) -> Option<Value> {
    let moves = st.game.moves();
    if ply > moves.len() {
        return None;
    }
    let mut p = *st.game.start();
    for &m in &moves[..ply] {
        p = p.after(m);
    }
    let last = ply.checked_sub(1).map(|i| moves[i]);
    Some(json!({
        "ply": ply,
        "fen": p.to_fen(),
        "side": color_name(with_position!(&p, q => q.side())),
        "board": with_position!(&p, q => board(q, last)),
    }))
}

fn score(s: Score) -> Value {
    match s {
        Score::Centipawns(cp) => json!({"cp": cp}),
        Score::Mate(n) => json!({"mate": n}),
    }
}

/// A score from White's point of view in centipawns, mates as ±100,000 less the distance,
/// for the evaluation bar.
fn white_cp(s: Score, side: Color) -> i64 {
    let cp = match s {
        Score::Centipawns(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 100_000 - n as i64,
        Score::Mate(n) => -100_000 - n as i64,
    };
    if side == Color::White { cp } else { -cp }
}

fn line(l: &Line, side: Color) -> Value {
    let secs = l.time.as_secs_f64().max(1e-3);
    json!({
        "multipv": l.multipv,
        "depth": l.depth,
        "seldepth": l.seldepth,
        "score": score(l.score),
        "white_cp": white_cp(l.score, side),
        "bound": match l.bound { Some(true) => "lower", Some(false) => "upper", None => "exact" },
        "nodes": l.nodes,
        "nps": (l.nodes as f64 / secs) as u64,
        "time_ms": l.time.as_millis() as u64,
        "san": l.san,
        "wire": l.wire,
    })
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::Human => "human",
        Player::Engine => "engine",
    }
}

/// A session's whole state. The legal moves are kept per epoch: the page asks often while
/// the engine thinks, and the position has not changed.
pub fn session(session: &Session, st: &mut State, variant_index: usize) -> Value {
    let pos = *st.game.position();
    let epoch = st.epoch;
    let legal = match &st.legal_cache {
        Some((e, v)) if *e == epoch => v.clone(),
        _ => {
            let v = with_position!(&pos, p => legal_moves(p));
            st.legal_cache = Some((epoch, v.clone()));
            v
        }
    };
    let start = *st.game.start();
    let (start_fullmove, start_side) =
        with_position!(&start, p => (p.fullmove_number(), color_name(p.side())));
    let history: Vec<Value> = {
        let mut p = start;
        st.game
            .moves()
            .iter()
            .zip(&st.sans)
            .map(|(&m, san)| {
                let wire = with_position!(&p, q => to_wire(q, m, 1));
                p = p.after(m);
                json!({"san": san, "wire": wire})
            })
            .collect()
    };
    let side = st.side();
    let now = Instant::now();
    let clock = st.clock.as_ref().map(|c| {
        json!({
            "white_ms": c.remaining(Color::White, now).as_millis() as u64,
            "black_ms": c.remaining(Color::Black, now).as_millis() as u64,
            "increment_ms": c.increment.as_millis() as u64,
            "running": c.running().map(color_name),
        })
    });
    let finish = st.finish().map(|f| {
        json!({
            "result": f.result,
            "winner": f.winner.map(color_name),
            "reason": f.reason,
            "text": f.text,
            "payoff": f.payoff.map(|(w, b)| json!([w, b])),
        })
    });
    let s = &st.settings;
    let lines: Vec<Value> = st.lines.iter().map(|l| line(l, side)).collect();
    let purpose = st.search.as_ref().map(|s| s.purpose);
    json!({
        "id": session.id.to_string(),
        "version": st.version,
        "variant": pos.variant().name,
        "variant_index": variant_index,
        "fen": pos.to_fen(),
        "start_fen": start.to_fen(),
        "start_fullmove": start_fullmove,
        "start_side": start_side,
        "side": color_name(side),
        "board": with_position!(&pos, p => board(p, st.game.moves().last().copied())),
        "legal": legal,
        "moves": history,
        "settings": {
            "white": player_name(s.players[0]),
            "black": player_name(s.players[1]),
            "level": s.level,
            "clock": s.clock.map(|(i, inc)| json!({"initial_ms": i.as_millis() as u64, "increment_ms": inc.as_millis() as u64})),
            "movetime_ms": s.movetime.as_millis() as u64,
            "scoring": match s.scoring { Scoring::Standard => "standard", Scoring::Magi12 => "magi-12" },
            "analysis": s.analysis,
            "show_lines": s.show_lines,
            "multipv": s.multipv,
        },
        "to_move": if st.is_over() { "nobody" } else if st.engine_to_move() { "engine" } else { "human" },
        "clock": clock,
        "result": finish,
        "engine": {
            "thinking": purpose == Some(Purpose::Move),
            "analysing": purpose == Some(Purpose::Analysis),
            "lines": lines,
        },
        "notice": st.notice,
        "draw_offer": st.draw_offer.filter(|_| !st.is_over()).map(color_name),
    })
}
