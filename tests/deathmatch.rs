//! Magician's Deathmatch and its legacy rules (RULES.md §1). Every expected list below is
//! derived by hand in the comment above it.

mod common;

use magus::board::Color;
use magus::game::AnyPosition;
use magus::game::outcome::{Outcome, Reason, outcome};
use magus::variant::Registry;
use magus::with_position;

fn position(variant: &str, fen: &str) -> AnyPosition {
    let registry = Registry::builtin();
    let v = registry.get(variant).unwrap();
    AnyPosition::from_fen(v, Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(pos: &AnyPosition) -> Vec<String> {
    let mut list = pos.legal_moves_wire(1);
    list.sort();
    list
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(pos: &AnyPosition, m: &str) -> AnyPosition {
    pos.after_wire(m, 1)
        .unwrap_or_else(|e| panic!("{m}: {e}"))
        .0
}

fn result(pos: &AnyPosition) -> Option<Outcome> {
    with_position!(pos, p => outcome(p, &[p.hash()]))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// §1.2/§1.4: the FIDE start plus one swap per Bishop. White's 20 FIDE moves and the swaps
/// c1c1m, f1f1m make 22. No White first move touches what Black can do (no check, no
/// blocked or opened line reaches Black's camp), so Black always has its 20 + 2: 22 * 22.
#[test]
fn start_position_counts_swaps_sec_1_4() {
    let start = position("deathmatch", START);
    let list = moves(&start);
    assert_eq!(list.len(), 22);
    assert!(list.contains(&"c1c1m".to_string()) && list.contains(&"f1f1m".to_string()));
    assert_eq!(start.perft(1), 22);
    assert_eq!(start.perft(2), 484);
}

/// §1.3, the Magician: M d4 with its own pawn on e5 and Black pawns c5, d5, d6, b6.
/// Non-captures slide 1-2 diagonally: e5 (own) and c5 (occupied) block two diagonals, so
/// e3 f2 c3 b2. Captures leap: K-ring c5 d5, alfil b6, dabbaba d6 (over d5) = 8 moves.
/// King h1: g1 g2 h2. Pawn e5 reaches the 6th rank by e6 and by exd6, each turning the
/// Magician into H or T (§1.6): 4 moves. 15 in all.
#[test]
fn magician_slides_to_move_and_leaps_to_capture_sec_1_3() {
    let pos = position("deathmatch", "k7/8/1p1p4/2ppP3/3M4/8/8/7K w - - 0 1");
    let expected = sorted(&[
        "d4e3",
        "d4f2",
        "d4c3",
        "d4b2",
        "d4c5",
        "d4d5",
        "d4b6",
        "d4d6",
        "h1g1",
        "h1g2",
        "h1h2",
        "e5e6,d4d4h",
        "e5e6,d4d4t",
        "e5d6,d4d4h",
        "e5d6,d4d4t",
    ]);
    assert_eq!(moves(&pos), expected);
}

/// §1.3, the High-Priestess: H d4 behind its own pawn d5; Black f6 (alfil), c6 knight
/// (knight offset), b4 (dabbaba). Queen-2 slides: north blocked; e5 (f6 occupied), e4 f4,
/// e3 f2, d3 d2, c3 b2, c4 (b4 occupied), c5 b6 = 12. Captures anywhere in the 5x5 box:
/// f6 c6 b4 = 3. King: g1 g2 h2. Pawn d5: d6 and dxc6 reach the 6th rank, but White has no
/// Magician, so they are plain moves (§1.6 #3). 20 in all.
#[test]
fn high_priestess_sec_1_3() {
    let pos = position("deathmatch", "k7/8/2n2p2/3P4/1p1H4/8/8/7K w - - 0 1");
    let expected = sorted(&[
        "d4e5", "d4e4", "d4f4", "d4e3", "d4f2", "d4d3", "d4d2", "d4c3", "d4b2", "d4c4", "d4c5",
        "d4b6", "d4f6", "d4c6", "d4b4", "h1g1", "h1g2", "h1h2", "d5d6", "d5c6",
    ]);
    assert_eq!(moves(&pos), expected);
}

/// §1.3, the Telepath: T d4 moves as a knight without capturing (e6 holds a Black pawn, so
/// 7 knight moves), and captures in the 5x5 box: e6, d5, b2 = 10. King g1 g2 h2 = 13.
#[test]
fn telepath_sec_1_3() {
    let pos = position("deathmatch", "k7/8/4p3/3p4/3T4/8/1p6/7K w - - 0 1");
    let expected = sorted(&[
        "d4c6", "d4b5", "d4f5", "d4b3", "d4f3", "d4c2", "d4e2", "d4e6", "d4d5", "d4b2", "h1g1",
        "h1g2", "h1h2",
    ]);
    assert_eq!(moves(&pos), expected);
}

/// §1.4: a swap keeps the square occupied, so it never answers a check. Re8 checks Ke1:
/// Kd1 Kd2 Kf1 Kf2, Bc1-e3 blocks, Ba4xe8 captures; no swap.
#[test]
fn no_swap_while_in_check_sec_1_4() {
    let pos = position("deathmatch", "4r2k/8/8/8/B7/8/8/2B1K3 w - - 0 1");
    assert!(pos.in_check());
    assert_eq!(
        moves(&pos),
        sorted(&["a4e8", "c1e3", "e1d1", "e1d2", "e1f1", "e1f2"])
    );
}

/// §1.4: the new Magician's dabbaba capture reaches e8 from e6, so the swap gives check.
#[test]
fn a_swap_can_give_check_sec_1_4() {
    let pos = position("deathmatch", "4k3/8/4B3/8/8/8/8/4K3 w - - 0 1");
    assert!(!pos.in_check());
    let after = play(&pos, "e6e6m");
    assert!(after.in_check());
    assert_eq!(with_position!(&after, p => p.side()), Color::Black);
}

/// §1.10: one swap per side in the legacy rules; the count is in the FEN (`swaps=WB`).
#[test]
fn legacy_allows_one_swap_per_side_sec_1_10() {
    let start = position("deathmatch-legacy", START);
    let after = play(&play(&start, "c1c1m"), "a7a6");
    assert!(after.to_fen().ends_with(" swaps=10"), "{}", after.to_fen());
    assert!(!moves(&after).iter().any(|m| m == "f1f1m"));
    let black_turn = play(&after, "e2e4");
    assert!(moves(&black_turn).contains(&"c8c8m".to_string()));
    // No swap made, no field: the start writes none.
    assert!(!start.to_fen().contains("swaps="), "{}", start.to_fen());
    // The same state read from FEN gives the same hash and moves.
    let reread = position("deathmatch-legacy", &after.to_fen());
    assert_eq!(reread.hash(), after.hash());
    assert_eq!(moves(&reread), moves(&after));
}

/// §1.6 `50...h4h3 Mc3=H#`: the Magician on c3 does not attack b1, the High-Priestess (or
/// Telepath) does (knight offset), and covers a1 a2 b2 c1 c2; nothing can take c3.
#[test]
fn sixth_rank_promotion_can_mate_sec_1_6() {
    let pos = position("deathmatch", "7k/8/8/8/7p/2m5/8/1K6 b - - 0 1");
    let pawn_moves: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("h4"))
        .collect();
    assert_eq!(pawn_moves, sorted(&["h4h3,c3c3h", "h4h3,c3c3t"]));
    for m in ["h4h3,c3c3h", "h4h3,c3c3t"] {
        let after = play(&pos, m);
        assert_eq!(
            result(&after),
            Some(Outcome::Win(Color::Black, Reason::Checkmate)),
            "{m}"
        );
    }
}

/// §1.6 / §1.8 `17.e5xd5-d6 Md2=T`: an e.p. capture landing on the 6th rank triggers, and
/// the plain e.p. capture no longer exists.
#[test]
fn en_passant_onto_the_sixth_rank_triggers_sec_1_8() {
    let pos = position("deathmatch", "4k3/3p4/8/4P3/8/8/3M4/4K3 b - - 0 1");
    let after = play(&pos, "d7d5");
    let list = moves(&after);
    let pawn: Vec<&String> = list.iter().filter(|m| m.starts_with("e5")).collect();
    assert_eq!(
        pawn,
        vec!["e5d6,d2d2h", "e5d6,d2d2t", "e5e6,d2d2h", "e5e6,d2d2t"]
    );
    let taken = play(&after, "e5d6,d2d2t");
    assert_eq!(taken.to_fen(), "4k3/8/3P4/8/8/8/3T4/4K3 b - - 0 2");
}

/// §1.6 #2: with two Magicians the player chooses which one (and H or T): 2 x 2 options.
#[test]
fn the_player_chooses_the_magician_sec_1_6() {
    let pos = position("deathmatch", "k7/8/8/4P3/8/8/M6M/7K w - - 0 1");
    let pawn: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("e5"))
        .collect();
    assert_eq!(
        pawn,
        sorted(&["e5e6,a2a2h", "e5e6,a2a2t", "e5e6,h2h2h", "e5e6,h2h2t"])
    );
}

/// §1.10: the legacy target is dictated by the opponent's strongest piece, Q > R > B > N;
/// with only pawns (or only Magician-family pieces) there is no promotion.
#[test]
fn legacy_promotion_follows_the_opponents_strongest_piece_sec_1_10() {
    let cases = [
        ("k7/1q1r4/2b2n2/4P3/8/8/M7/6K1 w - - 0 1", Some("v")),
        ("k7/3r4/2b2n2/4P3/8/8/M7/6K1 w - - 0 1", Some("c")),
        ("k7/8/2b2n2/4P3/8/8/M7/6K1 w - - 0 1", Some("a")),
        ("k7/8/5n2/4P3/8/8/M7/7K w - - 0 1", Some("h")),
        ("k7/p7/8/4P3/8/8/M7/7K w - - 0 1", None),
        ("k7/m7/8/4P3/8/8/M7/7K w - - 0 1", None),
    ];
    for (fen, target) in cases {
        let pos = position("deathmatch-legacy", fen);
        let pawn: Vec<String> = moves(&pos)
            .into_iter()
            .filter(|m| m.starts_with("e5e6"))
            .collect();
        let expected = match target {
            Some(t) => vec![format!("e5e6,a2a2{t}")],
            None => vec!["e5e6".to_string()],
        };
        assert_eq!(pawn, expected, "{fen}");
    }
}

/// §1.5: an M on a1 gives check to a King on h1 across a full first rank. Black's answers:
/// Kh2 and Kxg1 (g2 is covered by Bf1); nothing can take a1 or block a teleport.
#[test]
fn transference_checks_across_a_full_rank_sec_1_5() {
    let pos = position("deathmatch", "8/8/8/8/8/8/K7/MNBRQBNk b - - 0 1");
    assert!(pos.in_check());
    assert_eq!(moves(&pos), sorted(&["h1h2", "h1g1"]));
}

/// §1.5: the teleport captures an enemy on the mirror square and moves to an empty one, only
/// from the owner's first three ranks; a Black T on h7 attacks a7.
#[test]
fn transference_moves_and_captures_sec_1_5() {
    let pos = position("deathmatch", "k7/8/8/M7/8/H2K4/8/MNBQRBNr w - - 0 1");
    let list = moves(&pos);
    assert!(
        list.contains(&"a1h1".to_string()),
        "capture across the full rank"
    );
    assert!(
        list.contains(&"a3h3".to_string()),
        "plain teleport to an empty square"
    );
    assert!(
        !list.contains(&"a5h5".to_string()),
        "a5 is not a transference square"
    );
    let check = position("deathmatch", "8/K6t/8/8/8/8/8/7k w - - 0 1");
    assert!(check.in_check());
}

/// §1.7: 8th-rank promotion to Q R B N M H T; legacy (§1.10): Q R B N, plus the Magician or
/// the dictated relative while no Magician-family piece of the mover is on the board.
#[test]
fn last_rank_promotion_choices_sec_1_7() {
    let pos = position("deathmatch", "k7/4P3/8/8/8/8/8/7K w - - 0 1");
    let promotions: Vec<String> = moves(&pos)
        .into_iter()
        .filter(|m| m.starts_with("e7"))
        .collect();
    assert_eq!(
        promotions,
        sorted(&[
            "e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7e8m", "e7e8h", "e7e8t"
        ])
    );

    let legacy = position("deathmatch-legacy", "k7/4P3/1q6/8/8/8/8/7K w - - 0 1");
    let promotions: Vec<String> = moves(&legacy)
        .into_iter()
        .filter(|m| m.starts_with("e7"))
        .collect();
    assert_eq!(
        promotions,
        sorted(&["e7e8q", "e7e8r", "e7e8b", "e7e8n", "e7e8m", "e7e8v"])
    );

    let with_family = position("deathmatch-legacy", "k7/4P3/1q6/8/8/8/H7/7K w - - 0 1");
    let promotions: Vec<String> = moves(&with_family)
        .into_iter()
        .filter(|m| m.starts_with("e7"))
        .collect();
    assert_eq!(promotions, sorted(&["e7e8q", "e7e8r", "e7e8b", "e7e8n"]));
}

/// §1.4: a swap is neither a capture nor a pawn move (the 50-move clock runs on) and changes
/// the position (it cannot repeat an earlier one); a pawn move with a promotion resets it.
#[test]
fn swaps_and_promotions_count_for_draw_rules_sec_1_4() {
    let pos = position("deathmatch", "k7/8/8/4P3/8/8/B7/7K w - - 7 30");
    let swapped = play(&pos, "a2a2m");
    assert_eq!(with_position!(&swapped, p => p.halfmove_clock()), 8);
    assert_ne!(swapped.hash(), pos.hash());
    let back = play(&swapped, "a8b8");
    let promoted = play(&back, "e5e6,a2a2t");
    assert_eq!(with_position!(&promoted, p => p.halfmove_clock()), 0);
}

/// Bad input: an H/T letter in chess, a swap count over the limit, more Magicians than swaps
/// and promotions allow, a promotion the variant does not have.
#[test]
fn bad_input_is_refused_with_a_reason() {
    let registry = Registry::builtin();
    let chess = registry.get("chess").unwrap();
    let err = AnyPosition::from_fen(chess, Some("4k3/8/8/8/8/8/8/3HK3 w - - 0 1")).unwrap_err();
    assert!(err.contains("'H' is not a piece of chess"), "{err}");

    let legacy = registry.get("deathmatch-legacy").unwrap();
    let err = AnyPosition::from_fen(legacy, Some(&format!("{START} swaps=20"))).unwrap_err();
    assert!(err.contains("at most 1"), "{err}");
    // Two digits exactly: one digit and a letter, or three digits, are not a count each.
    for bad in ["1x", "x1", "100", "1"] {
        let err = AnyPosition::from_fen(legacy, Some(&format!("{START} swaps={bad}"))).unwrap_err();
        assert!(err.contains("expected two digits"), "swaps={bad}: {err}");
    }
    let two_magicians = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNMQKMNR w KQkq - 0 1 swaps=10";
    let err = AnyPosition::from_fen(legacy, Some(two_magicians)).unwrap_err();
    assert!(err.contains("2 Magicians but made 1 swaps"), "{err}");

    let pos = AnyPosition::from_fen(chess, Some("k7/4P3/8/8/8/8/8/7K w - - 0 1")).unwrap();
    let err = pos.after_wire("e7e8m", 1).unwrap_err().to_string();
    assert!(err.contains("not a legal move"), "{err}");
}

fn san_of(pos: &AnyPosition, wire: &str) -> String {
    let (_, m) = pos.after_wire(wire, 1).unwrap();
    pos.san(m)
}

/// §1.8: the notation of the inventor, written and read back.
#[test]
fn deathmatch_san_sec_1_8() {
    let start = position("deathmatch", START);
    assert_eq!(san_of(&start, "c1c1m"), "Bc1=M");
    // One Magician: its square is left out; mate is marked.
    let mate = position("deathmatch", "7k/8/8/8/7p/2m5/8/1K6 b - - 0 1");
    assert_eq!(san_of(&mate, "h4h3,c3c3h"), "h3 M=H#");
    for text in ["h3 M=H#", "h3 Mc3=H#", "h4h3 Mc3=H", "h4-h3 M=H"] {
        let (_, m) = mate
            .after_san(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(san_of(&mate, "h4h3,c3c3h"), mate.san(m), "{text}");
    }
    // Two Magicians: the square names the one that changes.
    let two = position("deathmatch", "k7/8/8/4P3/8/8/M6M/7K w - - 0 1");
    assert_eq!(san_of(&two, "e5e6,h2h2t"), "e6 Mh2=T");
    // e.p. onto the 6th rank, read in the long form `e5xd5-d6 Md2=T`.
    let ep = play(
        &position("deathmatch", "4k3/3p4/8/4P3/8/8/3M4/4K3 b - - 0 1"),
        "d7d5",
    );
    assert_eq!(san_of(&ep, "e5d6,d2d2t"), "exd6 M=T");
    let (_, m) = ep.after_san("e5xd5-d6 Md2=T").unwrap();
    assert_eq!(ep.san(m), "exd6 M=T");
    // Transference captures, and gives check across a full rank (Mb2-a1 attacks h1).
    let capture = position("deathmatch", "k7/8/8/8/8/7K/8/M6r w - - 0 1");
    assert_eq!(san_of(&capture, "a1h1"), "Mxh1");
    let check = position("deathmatch", "K7/8/8/8/8/8/1M6/1NBRQBNk w - - 0 1");
    assert_eq!(san_of(&check, "b2a1"), "Ma1+");
}

/// A FEN of an 8x8 board holding `pieces` (square, letter), `side` to move, nothing else.
fn board_with(pieces: &[(String, char)], side: char) -> String {
    let placed: Vec<String> = pieces
        .iter()
        .map(|(sq, letter)| format!("{letter}{sq}"))
        .collect();
    format!("{} {side} - - 0 1", common::place(8, 8, &placed.join(" ")))
}

/// Pins the rank limit of §1.5 for one side: its M, H and T teleport (to an empty square or
/// onto an enemy Knight) from either border file on `allowed` ranks and not from `beyond`,
/// and on those ranks alone they check a King on the mirror square. No other move of these
/// pieces spans the seven files between a and h, so the move and the check can only be
/// Transference.
fn transference_rank_limit(white: bool, allowed: [u8; 3], beyond: u8) {
    let (own_king, their_king) = if white { ("e1", "e8") } else { ("e8", "e1") };
    let case = |c: char, mine: bool| {
        if mine == white {
            c.to_ascii_uppercase()
        } else {
            c.to_ascii_lowercase()
        }
    };
    let (side, other) = if white { ('w', 'b') } else { ('b', 'w') };
    for rank in allowed.into_iter().chain([beyond]) {
        let permitted = rank != beyond;
        for (file, mirror) in [('a', 'h'), ('h', 'a')] {
            let from = format!("{file}{rank}");
            let to = format!("{mirror}{rank}");
            let wire = format!("{from}{to}");
            for piece in ['M', 'H', 'T'] {
                let kings = [
                    (own_king.to_string(), case('K', true)),
                    (their_king.to_string(), case('K', false)),
                ];
                let mut pieces = kings.to_vec();
                pieces.push((from.clone(), case(piece, true)));
                let empty = position("deathmatch", &board_with(&pieces, side));
                pieces.push((to.clone(), case('N', false)));
                let capture = position("deathmatch", &board_with(&pieces, side));
                for (what, pos) in [("to an empty square", &empty), ("capturing", &capture)] {
                    assert_eq!(
                        moves(pos).contains(&wire),
                        permitted,
                        "{piece} {wire} {what} in {}",
                        pos.to_fen()
                    );
                }
                // The same piece facing the enemy King on the mirror square.
                let facing = [
                    (own_king.to_string(), case('K', true)),
                    (from.clone(), case(piece, true)),
                    (to.clone(), case('K', false)),
                ];
                let check = position("deathmatch", &board_with(&facing, other));
                assert_eq!(
                    check.in_check(),
                    permitted,
                    "{piece} on {from} against the King on {to}: {}",
                    check.to_fen()
                );
            }
        }
    }
}

/// §1.5 Home-File Transference, White: from a1-a3 and h1-h3 only; from a4 or h4, nothing.
#[test]
fn home_file_transference_white_ranks_1_to_3_not_4_sec_1_5() {
    transference_rank_limit(true, [1, 2, 3], 4);
}

/// §1.5 Home-File Transference, Black: from a6-a8 and h6-h8 only; from a5 or h5, nothing.
#[test]
fn home_file_transference_black_ranks_8_to_6_not_5_sec_1_5() {
    transference_rank_limit(false, [8, 7, 6], 5);
}
