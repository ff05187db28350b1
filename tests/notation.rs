//! SAN, written and read, for every variant: the examples of RULES.md §1.8 (see
//! tests/deathmatch.rs) and §3.7, orthodox disambiguation, and a round trip of every legal
//! move of every position reached in perft to depth 2 from each suite position.

use magus::game::AnyPosition;
use magus::variant::Registry;
use magus::with_position;

fn position(variant: &str, fen: &str) -> AnyPosition {
    let registry = Registry::builtin();
    AnyPosition::from_fen(registry.get(variant).unwrap(), Some(fen))
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn san_of(pos: &AnyPosition, wire: &str) -> String {
    let (_, m) = pos
        .after_wire(wire, 1)
        .unwrap_or_else(|e| panic!("{wire}: {e}"));
    pos.san(m)
}

fn reads_as(pos: &AnyPosition, san: &str, wire: &str) {
    let (_, m) = pos.after_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
    let (_, expected) = pos.after_wire(wire, 1).unwrap();
    assert_eq!(m, expected, "{san} should be {wire}");
}

/// §3.7: a spell is the hole's move, `H` + the square, `x` for a drop, and the hole's file
/// when two holes reach the square. The Magician on f2 reaches the holes e3 and g3 (ferz
/// offsets); both can swap with f3.
#[test]
fn magician_chess_spells_sec_3_7() {
    let pos = position(
        "magician-chess",
        "3k3/1*1*3/*5*/*3p1*/*3*1*/5M1/3K3 w - - 0 1",
    );
    assert_eq!(san_of(&pos, "e3e4"), "He4");
    assert_eq!(san_of(&pos, "e3e4x"), "Hxe4");
    assert_eq!(san_of(&pos, "e3d3"), "Hd3");
    assert_eq!(san_of(&pos, "g3f3"), "Hgf3");
    assert_eq!(san_of(&pos, "e3f3"), "Hef3");
    reads_as(&pos, "Hgf3", "g3f3");
    reads_as(&pos, "Hxe4", "e3e4x");
    reads_as(&pos, "He4", "e3e4");
    assert!(
        pos.after_san("Hf3").is_err(),
        "two holes reach f3: ambiguous"
    );
}

/// §3.5/§3.7: castling is written `0-0(b)` and `0-0(f)`.
#[test]
fn magician_chess_castling_sec_3_7() {
    let pos = position(
        "magician-chess",
        "3k3/3*3/*5*/*2*2*/*5*/3*3/R2K2R w KQ - 0 1",
    );
    assert_eq!(san_of(&pos, "d1b1"), "0-0(b)");
    assert_eq!(san_of(&pos, "d1f1"), "0-0(f)");
    reads_as(&pos, "0-0(b)", "d1b1");
    reads_as(&pos, "O-O(f)", "d1f1");
}

#[test]
fn orthodox_san() {
    let pos = position("chess", "r3k2r/1P6/8/8/8/2N3N1/8/R3K2R w KQkq - 0 1");
    assert_eq!(san_of(&pos, "e1g1"), "O-O");
    assert_eq!(san_of(&pos, "e1c1"), "O-O-O");
    assert_eq!(san_of(&pos, "c3e4"), "Nce4");
    assert_eq!(san_of(&pos, "g3e4"), "Nge4");
    assert_eq!(san_of(&pos, "b7a8q"), "bxa8=Q+");
    assert_eq!(san_of(&pos, "b7b8n"), "b8=N");
    assert_eq!(san_of(&pos, "a1a8"), "Rxa8+");
    reads_as(&pos, "Nce4", "c3e4");
    reads_as(&pos, "bxa8=Q", "b7a8q");
    reads_as(&pos, "0-0", "e1g1");
    let rooks = position("chess", "7k/8/8/R7/8/8/8/R5K1 w - - 0 1");
    assert_eq!(san_of(&rooks, "a1a3"), "R1a3");
    assert_eq!(san_of(&rooks, "a5a3"), "R5a3");
    let mate = position("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    assert_eq!(san_of(&mate, "a1a8"), "Ra8#");
}

#[test]
fn magi_san() {
    let pos = position("magi", "r4k3r/10/10/10/10/10/10/10/1P8/R4K3R w KQkq - 0 1");
    assert_eq!(san_of(&pos, "f1i1"), "O-O");
    assert_eq!(san_of(&pos, "f1c1"), "O-O-O");
    assert_eq!(san_of(&pos, "b2b5"), "b5");
    let promo = position("magi", "5k4/1P8/10/10/10/10/10/10/10/5K4 w - - 0 1");
    assert_eq!(san_of(&promo, "b9b10w"), "b10=W");
    reads_as(&promo, "b10=C", "b9b10c");
}

/// Every legal move of every position reached in perft to depth 2 from each suite position
/// reads back from its own SAN. The suite is every built-in variant's start position (read
/// from the registry, so a new variant is included at once) and the positions below.
#[test]
fn san_round_trips_two_plies_deep() {
    let registry = Registry::builtin();
    let mut suite: Vec<(&str, Option<&str>)> =
        registry.names().into_iter().map(|n| (n, None)).collect();
    suite.extend([
        (
            "chess",
            Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        ),
        (
            "chess",
            Some("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
        ),
        (
            "deathmatch",
            Some("r3k2r/pp1h1ppp/2n2t2/8/3M4/5T2/PP1H1PPP/R3K2R w KQkq - 0 1"),
        ),
    ]);
    for (name, fen) in suite {
        let v = registry
            .get(name)
            .unwrap_or_else(|| panic!("variant '{name}' is not built in"));
        let root = AnyPosition::from_fen(v, fen).unwrap();
        let mut frontier = vec![root];
        for _ in 0..2 {
            let mut next = Vec::new();
            for pos in &frontier {
                with_position!(pos, p => {
                    for m in p.legal_moves() {
                        let san = magus::protocol::san::to_san(p, m);
                        let back = magus::protocol::san::parse_san(p, &san)
                            .unwrap_or_else(|e| panic!("{name} {}: {san}: {e}", p.to_fen()));
                        assert_eq!(back, m, "{name} {}: {san}", p.to_fen());
                    }
                });
                next.extend(
                    pos.legal_moves_wire(1)
                        .iter()
                        .map(|w| pos.after_wire(w, 1).unwrap().0),
                );
            }
            frontier = next;
        }
    }
}

/// §4.3: a carrier's move with its drop is written like `Ke4/N@c5` and read back.
#[test]
fn royal_magician_drop_san_sec_4_3() {
    let pos = position(
        "royal-magician",
        "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4",
    );
    assert_eq!(san_of(&pos, "e3f4,n@c5"), "Kf4/N@c5");
    assert_eq!(san_of(&pos, "d3d4,b@h6"), "Md4/B@h6");
    reads_as(&pos, "Kf4/N@c5", "e3f4,n@c5");
    assert!(
        pos.after_san("Ke4").is_err(),
        "the drop is part of the move"
    );
}
