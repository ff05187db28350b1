//! Orthodox chess (FIDE Laws): castling conditions and rights, each promotion choice, the
//! en-passant edge cases, and the end of the game (checkmate, stalemate, the 50-move rule,
//! threefold repetition, insufficient material) through `magus::game::outcome::outcome`.
//! The Magi equivalents are in `magi_rules.rs`.

mod common;

use common::{
    castles_with_attacker, ep_field, legal, moves_from, piece_on, place, play, play_all, position,
    sorted,
};
use magus::board::Color;
use magus::game::outcome::{Outcome, Reason, outcome};
use magus::game::{AnyPosition, Game};
use magus::with_position;

fn chess(pieces: &str, fields: &str) -> AnyPosition {
    position("chess", Some(&format!("{} {fields}", place(8, 8, pieces))))
}

fn castling_field(pos: &AnyPosition) -> String {
    pos.to_fen().split_whitespace().nth(2).unwrap().to_string()
}

// ---- castling ----

/// FIDE 3.8.2: the King may not castle out of, through or into check; the Rook and b1/b8
/// may be attacked. The attacker is a Rook on the file of the attacked square.
#[test]
fn castling_out_of_through_and_into_check() {
    let cases = [
        (None, "e1c1 e1g1"),
        (Some("e"), ""),
        (Some("f"), "e1c1"),
        (Some("g"), "e1c1"),
        (Some("h"), "e1c1 e1g1"),
        (Some("d"), "e1g1"),
        (Some("c"), "e1g1"),
        (Some("b"), "e1c1 e1g1"),
        (Some("a"), "e1c1 e1g1"),
    ];
    for (file, expected) in cases {
        let white = castles_with_attacker("chess", true, file.map(|f| format!("r{f}5")).as_deref());
        assert_eq!(white, sorted(expected), "White, attacker on {file:?}5");
        let black_expected = expected.replace('1', "8");
        let black =
            castles_with_attacker("chess", false, file.map(|f| format!("R{f}4")).as_deref());
        assert_eq!(
            black,
            sorted(&black_expected),
            "Black, attacker on {file:?}4"
        );
    }
}

#[test]
fn castling_is_stopped_by_attacks_of_every_kind() {
    for (attacker, expected) in [
        // Knight g3 attacks f1 (and h1): no O-O.
        ("ng3", "e1c1"),
        // Pawn g2 attacks f1 and h1.
        ("pg2", "e1c1"),
        // Bishop h3 attacks f1 through g2.
        ("bh3", "e1c1"),
        // Knight b3 attacks c1 (and a1, d2): no O-O-O.
        ("nb3", "e1g1"),
        // Bishop a3 attacks c1 through b2.
        ("ba3", "e1g1"),
        // Knight c3 attacks d1 and b1: d1 is on the King's path.
        ("nc3", "e1g1"),
        // Checks by a Knight, a pawn, a Bishop: no castling at all.
        ("nd3", ""),
        ("pf2", ""),
        ("bb4", ""),
        // Pawn e2 attacks d1 and f1 without giving check.
        ("pe2", ""),
    ] {
        let white = castles_with_attacker("chess", true, Some(attacker));
        assert_eq!(white, sorted(expected), "attacker {attacker}");
    }
}

#[test]
fn castling_needs_empty_squares_between_king_and_rook() {
    for (blocker, expected) in [
        ("Nb1", "e1g1"),
        ("Nc1", "e1g1"),
        ("Nd1", "e1g1"),
        ("Nf1", "e1c1"),
        ("Ng1", "e1c1"),
        ("nb1", "e1g1"),
    ] {
        let pos = chess(&format!("Ke1 Ra1 Rh1 ke8 {blocker}"), "w KQ - 0 1");
        let castles: Vec<String> = moves_from(&pos, "e1")
            .into_iter()
            .filter(|m| m == "e1g1" || m == "e1c1")
            .collect();
        assert_eq!(castles, sorted(expected), "{blocker}");
    }
}

#[test]
fn castling_moves_king_and_rook() {
    let pos = chess("Ke1 Ra1 Rh1 ke8 ra8 rh8", "w KQkq - 0 1");
    let black = play(&pos, "a1b1");
    for (before, castling, after) in [
        (&pos, "e1g1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"),
        (&pos, "e1c1", "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1"),
        (&black, "e8g8", "r4rk1/8/8/8/8/8/8/1R2K2R w K - 2 2"),
        (&black, "e8c8", "2kr3r/8/8/8/8/8/8/1R2K2R w K - 2 2"),
    ] {
        assert_eq!(play(before, castling).to_fen(), after, "{castling}");
    }
}

#[test]
fn castling_rights_are_lost_when_king_or_rook_moves_or_the_rook_is_captured() {
    let pos = chess("Ke1 Ra1 Rh1 ke8 ra8 rh8 bg2 Bb7", "w KQkq - 0 1");
    assert_eq!(castling_field(&play(&pos, "e1e2")), "kq");
    assert_eq!(castling_field(&play(&pos, "a1a2")), "Kkq");
    assert_eq!(castling_field(&play(&pos, "h1h2")), "Qkq");
    // White's Bishop takes the Rook on a8: Black loses q.
    assert_eq!(castling_field(&play(&pos, "b7a8")), "KQk");
    // Black's Bishop takes the Rook on h1: White loses K.
    let pos = chess("Ke1 Ra1 Rh1 ke8 ra8 rh8 bg2", "b KQkq - 0 1");
    assert_eq!(castling_field(&play(&pos, "g2h1")), "Qkq");
    // Once lost, a right does not come back when the Rook returns.
    let back = play_all(
        &chess("Ke1 Ra1 Rh1 ke8", "w KQ - 0 1"),
        "h1h2 e8e7 h2h1 e7e8",
    );
    assert_eq!(castling_field(&back), "Q");
    assert!(!legal(&back).contains(&"e1g1".to_string()));
}

// ---- promotion ----

#[test]
fn promotion_to_each_of_q_r_b_n_with_and_without_capture() {
    let fields = |side| format!("{side} - - 5 1");
    let white = chess("Pa7 nb8 ke8 Ke1 Ng1 ph2", &fields("w"));
    assert_eq!(
        moves_from(&white, "a7"),
        sorted("a7a8q a7a8r a7a8b a7a8n a7b8q a7b8r a7b8b a7b8n")
    );
    for p in ['q', 'r', 'b', 'n'] {
        let next = play(&white, &format!("a7a8{p}"));
        assert_eq!(piece_on(&next, "a8"), Some(p.to_ascii_uppercase()));
        assert_eq!(piece_on(&next, "a7"), None);
        let next = play(&white, &format!("a7b8{p}"));
        assert_eq!(piece_on(&next, "b8"), Some(p.to_ascii_uppercase()));
        // A promotion resets the 50-move clock.
        assert!(next.to_fen().ends_with(" b - - 0 1"), "{}", next.to_fen());
    }
    let black = chess("Pa7 nb8 ke8 Ke1 Ng1 ph2", &fields("b"));
    assert_eq!(
        moves_from(&black, "h2"),
        sorted("h2h1q h2h1r h2h1b h2h1n h2g1q h2g1r h2g1b h2g1n")
    );
    for p in ['q', 'r', 'b', 'n'] {
        assert_eq!(piece_on(&play(&black, &format!("h2h1{p}")), "h1"), Some(p));
        assert_eq!(piece_on(&play(&black, &format!("h2g1{p}")), "g1"), Some(p));
    }
    // No promotion to King or pawn, and a plain push to the last rank is no move.
    for bad in ["a7a8k", "a7a8p", "a7a8"] {
        assert!(white.after_wire(bad, 1).is_err(), "{bad}");
    }
}

// ---- en passant ----

#[test]
fn en_passant_captures_and_only_immediately() {
    let pos = chess("Ke1 Pe2 ke8 pd4", "w - - 0 1");
    let after = play(&pos, "e2e4");
    assert_eq!(ep_field(&after), "e3");
    assert!(legal(&after).contains(&"d4e3".to_string()));
    let taken = play(&after, "d4e3");
    assert_eq!(piece_on(&taken, "e4"), None);
    assert_eq!(piece_on(&taken, "e3"), Some('p'));
    // One move later the right is gone.
    let later = play_all(&after, "e8d8 e1d1");
    assert_eq!(ep_field(&later), "-");
    assert!(!legal(&later).contains(&"d4e3".to_string()));
}

#[test]
fn en_passant_target_is_written_only_when_a_pawn_can_take() {
    let after = play(&position("chess", None), "e2e4");
    assert_eq!(
        after.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // The same position written with e3 reads as the same position.
    let written = position(
        "chess",
        Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
    );
    assert_eq!(written.hash(), after.hash());
}

#[test]
fn en_passant_that_exposes_the_king_along_the_rank_is_illegal() {
    // After c7-c5, b5xc6 e.p. would empty b5 and c5 and open the rank from h5 to a5.
    let pinned = play(&chess("Ka5 Pb5 pc7 rh5 kh1", "b - - 0 1"), "c7c5");
    assert_eq!(ep_field(&pinned), "c6");
    // King a5: a4, a6, b6 (b4 is attacked by c5); b5-b6.
    assert_eq!(legal(&pinned), sorted("a5a4 a5a6 a5b6 b5b6"));
    // Without the Rook on the rank the capture is legal.
    let free = play(&chess("Ka5 Pb5 pc7 rh8 kh1", "b - - 0 1"), "c7c5");
    assert_eq!(legal(&free), sorted("a5a4 a5a6 a5b6 b5b6 b5c6"));
}

#[test]
fn en_passant_by_a_pinned_pawn_is_illegal() {
    // The f4 pawn is pinned on the diagonal c7-h2; f4xe3 leaves it.
    let pos = play(&chess("Bc7 Pe2 Ke1 pf4 kh2", "w - - 0 1"), "e2e4");
    assert_eq!(ep_field(&pos), "e3");
    // Only King moves: g1, h1, g2, g3, h3 (g3 stays shielded by the pinned pawn).
    assert_eq!(legal(&pos), sorted("h2g1 h2h1 h2g2 h2g3 h2h3"));
}

#[test]
fn en_passant_removing_the_checking_pawn_is_legal() {
    let pos = play(&chess("Ke1 Pe2 kf5 pd4", "w - - 0 1"), "e2e4");
    assert!(pos.in_check());
    // d4xe3 removes the checker; the King may take it or step to any safe square; d4-d3
    // does not answer the check.
    assert_eq!(
        legal(&pos),
        sorted("d4e3 f5e4 f5e5 f5e6 f5f4 f5f6 f5g4 f5g5 f5g6")
    );
}

#[test]
fn en_passant_that_does_not_answer_a_discovered_check_is_illegal() {
    // d7-d5 uncovers the Bishop c8 on h3; e5xd6 does not block c8-h3, e5-e6 does.
    let pos = play(&chess("ka8 bc8 pd7 Pe5 Kh3", "b - - 0 1"), "d7d5");
    assert!(pos.in_check());
    assert_eq!(ep_field(&pos), "d6");
    // King h3: g2, g3, h2, h4 (g4 is on the Bishop's diagonal).
    assert_eq!(legal(&pos), sorted("h3g2 h3g3 h3h2 h3h4 e5e6"));
}

// ---- the end of the game ----

fn outcome_of(game: &Game) -> Option<Outcome> {
    with_position!(game.position(), p => outcome(p, game.hashes()))
}

fn game(fen: Option<&str>, moves: &str) -> Game {
    let start = position("chess", fen);
    let moves: Vec<&str> = moves.split_whitespace().collect();
    Game::from_moves(start, &moves, 1).unwrap()
}

#[test]
fn checkmate() {
    assert_eq!(outcome_of(&game(None, "f2f3 e7e5 g2g4")), None);
    assert_eq!(
        outcome_of(&game(None, "f2f3 e7e5 g2g4 d8h4")),
        Some(Outcome::Win(Color::Black, Reason::Checkmate))
    );
    // Back-rank mate for White.
    assert_eq!(
        outcome_of(&game(Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), "a1a8")),
        Some(Outcome::Win(Color::White, Reason::Checkmate))
    );
}

#[test]
fn stalemate_is_a_draw() {
    let g = game(Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "f1f7");
    assert_eq!(outcome_of(&g), Some(Outcome::Draw(Reason::Stalemate)));
    // Q on f6 instead leaves g8: play goes on.
    let g = game(Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"), "f1f6");
    assert_eq!(outcome_of(&g), None);
}

#[test]
fn fifty_move_rule() {
    let fen = "7k/8/6K1/8/8/8/8/R6n w - - 99 80";
    assert_eq!(outcome_of(&game(Some(fen), "")), None);
    // The 100th ply without capture or pawn move draws.
    assert_eq!(
        outcome_of(&game(Some(fen), "a1a2")),
        Some(Outcome::Draw(Reason::FiftyMoves))
    );
    // Unless it mates (FIDE 9.6: checkmate comes first).
    assert_eq!(
        outcome_of(&game(Some(fen), "a1a8")),
        Some(Outcome::Win(Color::White, Reason::Checkmate))
    );
    // A capture resets the count.
    assert_eq!(outcome_of(&game(Some(fen), "a1h1")), None);
    // A stalemate on that ply is a stalemate: it ended the game first. Qf7 leaves the King
    // on h8 no move, in a variant file where stalemate is a draw, a loss or a win.
    let fen = "7k/8/6K1/8/8/1Q6/8/8 w - - 99 80";
    assert_eq!(
        outcome_of(&game(Some(fen), "b3b4")),
        Some(Outcome::Draw(Reason::FiftyMoves))
    );
    assert_eq!(
        outcome_of(&game(Some(fen), "b3f7")),
        Some(Outcome::Draw(Reason::Stalemate))
    );
    for (rule, result) in [
        ("loss", Outcome::Win(Color::White, Reason::Stalemate)),
        ("win", Outcome::Win(Color::Black, Reason::Stalemate)),
    ] {
        let text = include_str!("../variants/chess.toml")
            .replace("stalemate = \"draw\"", &format!("stalemate = \"{rule}\""));
        let variant = magus::variant::parse_variant(&text, "chess.toml").expect("sound");
        let variant: &'static _ = Box::leak(Box::new(variant));
        let start = AnyPosition::from_fen(variant, Some(fen)).unwrap();
        let stalemated = Game::from_moves(start, &["b3f7"], 1).unwrap();
        assert_eq!(outcome_of(&stalemated), Some(result), "stalemate = {rule}");
    }
    // So does a pawn move.
    let fen = "7k/8/6K1/8/8/8/P7/8 w - - 99 80";
    assert_eq!(outcome_of(&game(Some(fen), "a2a3")), None);
    assert_eq!(
        outcome_of(&game(Some(fen), "g6f6")),
        Some(Outcome::Draw(Reason::FiftyMoves))
    );
}

#[test]
fn threefold_repetition() {
    let twice = "g1f3 g8f6 f3g1 f6g8";
    assert_eq!(outcome_of(&game(None, twice)), None);
    assert_eq!(
        outcome_of(&game(None, &format!("{twice} {twice}"))),
        Some(Outcome::Draw(Reason::Repetition))
    );
}

#[test]
fn repetition_counts_castling_rights() {
    // After the Kings step out and back the placement repeats, but without the rights it
    // is another position (FIDE 9.2.3): the start counts once, not three times.
    assert_third_occurrence_after_three_cycles(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "",
        "e1e2 e8e7 e2e1 e7e8",
    );
}

#[test]
fn repetition_counts_the_en_passant_right() {
    // After e2-e4, d4xe3 is possible: that position differs from the same placement
    // later, when it is not.
    assert_third_occurrence_after_three_cycles(
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",
        "e2e4",
        "e8d8 e1d1 d8e8 d1e1",
    );
}

/// From `fen` and the moves `before`, the moves `cycle` return to the same placement; the
/// position after `before` differs from it, so only the third cycle draws by repetition.
fn assert_third_occurrence_after_three_cycles(fen: &str, before: &str, cycle: &str) {
    let moves = |cycles: usize| format!("{before} {}", vec![cycle; cycles].join(" "));
    assert_eq!(outcome_of(&game(Some(fen), &moves(2))), None);
    assert_eq!(
        outcome_of(&game(Some(fen), &moves(3))),
        Some(Outcome::Draw(Reason::Repetition))
    );
}

#[test]
fn insufficient_material() {
    let dead = Some(Outcome::Draw(Reason::InsufficientMaterial));
    let of = |pieces: &str| {
        outcome_of(&game(
            Some(&format!("{} w - - 0 1", place(8, 8, pieces))),
            "",
        ))
    };
    assert_eq!(of("Ke1 ke8"), dead);
    assert_eq!(of("Ke1 Nf1 ke8"), dead);
    assert_eq!(of("Ke1 Bf1 ke8"), dead);
    assert_eq!(of("Ke1 ke8 nb8"), dead);
    // Bishops all on squares of one colour (f1 and c8 and d3 are light).
    assert_eq!(of("Ke1 Bf1 ke8 bc8"), dead);
    assert_eq!(of("Ke1 Bf1 Bd3 ke8"), dead);
    // Mate is still possible.
    assert_eq!(of("Ke1 Bf1 ke8 bf8"), None, "opposite-coloured Bishops");
    assert_eq!(of("Ke1 Bf1 Bc1 ke8"), None, "Bishops of both colours");
    assert_eq!(of("Ke1 Nf1 Ng1 ke8"), None, "two Knights");
    assert_eq!(of("Ke1 Nf1 ke8 nb8"), None, "Knight against Knight");
    assert_eq!(of("Ke1 Nf1 ke8 bc8"), None, "Knight against Bishop");
    assert_eq!(of("Ke1 Rf1 ke8"), None);
    assert_eq!(of("Ke1 Qf1 ke8"), None);
    assert_eq!(of("Ke1 Pf2 ke8"), None);
    // Reached by a capture.
    let g = game(Some("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"), "e1d2");
    assert_eq!(outcome_of(&g), dead);
}

/// Which side can still mate, side by side (`cannot_mate`): a bare King or a lone minor
/// piece against a bare King cannot; anything that can mate with the opponent's help can.
/// Both sides unable to mate is the draw above.
#[test]
fn each_side_that_cannot_mate() {
    use magus::game::outcome::cannot_mate;
    let sides = |pieces: &str| {
        let pos = chess(pieces, "w - - 0 1");
        with_position!(&pos, p => (cannot_mate(p, Color::White), cannot_mate(p, Color::Black)))
    };
    assert_eq!(sides("Ke1 ke8"), (true, true));
    assert_eq!(sides("Ke1 ke8 bb8"), (true, true));
    assert_eq!(sides("Ke1 ke8 nb8"), (true, true));
    assert_eq!(sides("Ke1 ke8 pb7"), (true, false), "a pawn can promote");
    assert_eq!(sides("Ke1 ke8 rb8"), (true, false));
    assert_eq!(sides("Ke1 ke8 nb8 nc8"), (true, false), "two Knights");
    assert_eq!(
        sides("Ke1 ke8 ba8 bb8"),
        (true, false),
        "Bishops of both colours"
    );
    assert_eq!(
        sides("Ke1 ke8 ba8 bc6"),
        (true, true),
        "Bishops on one colour"
    );
    assert_eq!(
        sides("Ke1 Bf1 ke8 bc8"),
        (true, true),
        "Bishops on one colour"
    );
    assert_eq!(
        sides("Ke1 Bf1 ke8 bf8"),
        (false, false),
        "a King may be blocked in"
    );
    assert_eq!(
        sides("Ke1 Nf1 ke8 nb8"),
        (false, false),
        "Knight against Knight"
    );
}
