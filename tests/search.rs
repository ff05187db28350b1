//! The search: mates found at their true distance (checked by an exhaustive solver written
//! here, independent of alpha-beta), legal answers only, the forced move at once, repetition
//! scored as a draw, a stable bench signature.

use magus::board::{Bitboard, Move, Position};
use magus::game::outcome::{Outcome, Reason, outcome};
use magus::game::{AnyPosition, Game};
use magus::search::time::Limits;
use magus::search::tt::TranspositionTable;
use magus::search::{Score, SearchControl, SearchOptions, SearchResult, ThreadData, think};
use magus::variant::Registry;
use magus::with_position;

fn position(variant: &str, fen: &str) -> AnyPosition {
    let registry = Registry::builtin();
    let v = registry
        .get(variant)
        .unwrap_or_else(|| panic!("no variant {variant}"));
    AnyPosition::from_fen(v, Some(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn search(pos: &AnyPosition, history: &[u64], limits: Limits, threads: usize) -> SearchResult {
    let options = SearchOptions {
        threads,
        ..SearchOptions::default()
    };
    search_reporting(pos, history, &limits, &options, &|_| {})
}

/// A search with a fresh 16 MB table, its progress told to `report`.
fn search_reporting(
    pos: &AnyPosition,
    history: &[u64],
    limits: &Limits,
    options: &SearchOptions,
    report: &(dyn Fn(&magus::search::Report) + Sync),
) -> SearchResult {
    let tt = TranspositionTable::new(16).unwrap();
    let control = SearchControl::default();
    with_position!(pos, p => think(p, history, limits, options, &tt, &control, &mut ThreadData::fresh(options.threads), report))
}

/// Can the side to move force mate within `moves` of its moves? Plain minimax over every
/// legal move: slow, but with nothing in common with the engine's search.
fn forced_mate<B: Bitboard>(pos: &Position<B>, moves: u32) -> bool {
    if moves == 0 {
        return false;
    }
    pos.legal_moves().into_iter().any(|m| {
        let mut next = *pos;
        next.play(m);
        let replies = next.legal_moves();
        if replies.is_empty() {
            return next.in_check();
        }
        moves > 1
            && replies.into_iter().all(|r| {
                let mut after = next;
                after.play(r);
                forced_mate(&after, moves - 1)
            })
    })
}

/// The shortest forced mate, up to `limit` moves.
fn mate_distance(pos: &AnyPosition, limit: u32) -> Option<u32> {
    (1..=limit).find(|&n| with_position!(pos, p => forced_mate(p, n)))
}

fn assert_mate(variant: &str, fen: &str, moves: u32) {
    let pos = position(variant, fen);
    assert_eq!(
        mate_distance(&pos, moves),
        Some(moves),
        "{variant} {fen}: the solver disagrees"
    );
    // One thread: the mate at its exact distance, within nine plies of slack beyond the
    // plies of the mate and its answer (a selective search sees a mate a little deeper than
    // its distance, since the table keeps the deeper bound of a position: the rook's mate in
    // 3 shows as a mate in 4 to depth 13 on the hand-made evaluation and to depth 14 under
    // chess's third net, and as the mate in 3 from the next depth).
    let result = search(&pos, &[], Limits::depth(2 * moves as i32 + 9), 1);
    assert_eq!(result.score, Score::Mate(moves as i32), "{variant} {fen}");
    assert_keeps_the_mate(&pos, result.best, moves, variant, fen);
    // Two threads (lazy SMP): each thread orders moves by its own histories and by the table
    // the other fills, so the main thread may reduce the quiet mating move at one depth and
    // see a longer mate first. Two more plies: a mate, never shorter than the solver's, at
    // most two moves longer, and played.
    let result = search(&pos, &[], Limits::depth(2 * moves as i32 + 11), 2);
    let Score::Mate(found) = result.score else {
        panic!("{variant} {fen}, 2 threads: no mate ({:?})", result.score)
    };
    assert!(
        (moves as i32..=moves as i32 + 2).contains(&found),
        "{variant} {fen}, 2 threads: mate in {found}"
    );
    if found == moves as i32 {
        assert_keeps_the_mate(&pos, result.best, moves, variant, fen);
    }
}

/// The move `best` mates, or keeps a mate in one move less.
fn assert_keeps_the_mate(pos: &AnyPosition, best: Move, moves: u32, variant: &str, fen: &str) {
    let (after, _) = pos.after_wire(&wire(pos, best), 1).unwrap();
    if moves == 1 {
        let mated = with_position!(&after, p => outcome(p, &[p.hash()]));
        assert!(
            matches!(mated, Some(Outcome::Win(_, Reason::Checkmate))),
            "{variant} {fen}"
        );
    } else {
        // The move played keeps a mate in one less.
        assert!(
            with_position!(&after, p => p.legal_moves().into_iter().all(|r| {
                let mut q = *p;
                q.play(r);
                forced_mate(&q, moves - 1)
            })),
            "{variant} {fen}"
        );
    }
}

fn wire(pos: &AnyPosition, m: Move) -> String {
    with_position!(pos, p => magus::protocol::notation::to_wire(p, m, 1))
}

#[test]
fn finds_mates_in_chess() {
    // Back-rank mate in 1.
    assert_mate("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1);
    // Two rooks: Ra7 then Rb8#; no mate in 1 (the King steps to f7/h7).
    assert_mate("chess", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2);
    // Rook and King against King, mate in 3.
    assert_mate("chess", "8/k7/8/1K6/8/8/8/7R w - - 0 1", 3);
}

#[test]
fn finds_mates_in_magi() {
    // Ra1-a10 mates on the 10x10 board.
    assert_mate("magi", "5k4/4ppp3/10/10/10/10/10/10/10/R4K4 w - - 0 1", 1);
    // Rook and King against King in a corner of the 10x10 board, mate in 2.
    assert_mate("magi", "9k/10/10/8K1/10/10/10/10/10/R9 w - - 0 1", 2);
}

#[test]
fn finds_mates_by_deathmatch_mechanics() {
    // A swap-in that mates: Bh6=M attacks h8 with its dabbaba leap and g7 with its step; the
    // knight covers g8.
    assert_mate("deathmatch", "7k/4N2p/7B/8/8/8/8/K7 w - - 0 1", 1);
    // A 6th-rank promotion that mates (`h3 M=H#`).
    assert_mate("deathmatch", "7k/8/8/8/7p/2m5/8/1K6 b - - 0 1", 1);
    // The High-Priestess (queen moves limited to 2, 24-square captures) mates in 3.
    assert_mate("deathmatch", "k7/8/1K6/8/8/8/8/7H w - - 0 1", 3);
}

#[test]
fn the_answer_is_always_a_legal_move() {
    let registry = Registry::builtin();
    for v in registry.all() {
        let mut game = Game::new(AnyPosition::from_fen(v, None).unwrap());
        // A fixed pseudo-random walk through each variant.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for ply in 0..40 {
            let moves = game.position().legal_moves_wire(1);
            if moves.is_empty() {
                break;
            }
            let history = &game.hashes()[..game.hashes().len() - 1];
            let threads = 1 + ply % 2;
            let limits = Limits {
                nodes: Some(2000),
                ..Limits::default()
            };
            let result = search(game.position(), history, limits, threads);
            assert!(
                !result.best.is_null(),
                "{}: null move with legal moves",
                v.name
            );
            let best = wire(game.position(), result.best);
            assert!(
                moves.contains(&best),
                "{}: {best} is not legal in {}",
                v.name,
                game.position().to_fen()
            );
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let pick = moves[(seed % moves.len() as u64) as usize].clone();
            game.play_wire(&pick, 1).unwrap();
        }
    }
}

#[test]
fn a_forced_move_is_played_without_searching() {
    // The Rook holds the g-file: Black's King can only go to h7.
    let pos = position("chess", "7k/8/8/8/8/8/8/K5R1 b - - 0 1");
    assert_eq!(pos.legal_moves_wire(1), vec!["h8h7"]);
    let limits = Limits {
        time_left: Some(std::time::Duration::from_secs(60)),
        ..Limits::default()
    };
    let result = search(&pos, &[], limits, 1);
    assert_eq!(wire(&pos, result.best), "h8h7");
    assert_eq!(result.nodes, 0, "no search for a forced move");
}

#[test]
fn repetition_is_scored_as_a_draw() {
    // Black, a Queen down, can repeat the position: Kh8-g8 returns to a position of the game.
    let start = position("chess", "7k/8/8/8/8/8/8/K1Q5 b - - 0 1");
    let game = Game::from_moves(start, &["h8g8", "c1c2", "g8h8", "c2c1"], 1).unwrap();
    assert_eq!(game.position().hash(), start.hash());
    let history = &game.hashes()[..game.hashes().len() - 1];
    let result = search(game.position(), history, Limits::depth(6), 1);
    assert_eq!(wire(game.position(), result.best), "h8g8");
    assert_eq!(result.score, Score::Centipawns(0));
    // Without that history the same position is simply lost.
    let fresh = search(&start, &[], Limits::depth(6), 1);
    assert!(
        matches!(fresh.score, Score::Centipawns(cp) if cp < -500),
        "{:?}",
        fresh.score
    );
}

#[test]
fn the_bench_signature_is_stable() {
    let first =
        magus::search::bench::run(4, 1, None, &Default::default(), |_, _, _, _| {}).unwrap();
    let second =
        magus::search::bench::run(4, 1, None, &Default::default(), |_, _, _, _| {}).unwrap();
    assert_eq!(first.nodes, second.nodes);
    assert!(first.positions >= 8);
}

#[test]
fn mate_limits_stop_at_the_mate() {
    let pos = position("chess", "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1");
    let limits = Limits {
        mate_in: Some(2),
        depth: Some(20),
        ..Limits::default()
    };
    let result = search(&pos, &[], limits.clone(), 1);
    assert_eq!(result.score, Score::Mate(2));
    assert!(result.depth <= 6, "stopped at depth {}", result.depth);
    // The move found starts the mate: every reply leaves a mate in one.
    assert_keeps_the_mate(&pos, result.best, 2, "chess", "go mate 2");
    // Magi, on its own board (Rooks and Kings on 10x10): the same.
    let pos = position("magi", "8k1/10/10/10/10/10/10/10/R9/1R6K1 w - - 0 1");
    assert_eq!(mate_distance(&pos, 2), Some(2), "the solver disagrees");
    let result = search(&pos, &[], limits, 1);
    assert_eq!(result.score, Score::Mate(2));
    assert!(result.depth <= 6, "stopped at depth {}", result.depth);
    assert_keeps_the_mate(&pos, result.best, 2, "magi", "go mate 2");
}

/// Each selective part of the search, turned off alone, changes the tree: the switches that
/// the games measuring them use are really wired to it. With all of them off, more nodes are
/// needed to reach the same depth.
#[test]
fn each_pruning_switch_changes_the_search() {
    use magus::search::Pruning;
    let pos = position(
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    );
    let nodes = |pruning: Pruning| {
        let tt = TranspositionTable::new(16).unwrap();
        let options = SearchOptions {
            pruning,
            ..SearchOptions::default()
        };
        let control = SearchControl::default();
        with_position!(&pos, p => think(p, &[], &Limits::depth(8), &options, &tt, &control, &mut ThreadData::fresh(options.threads), &|_| {}))
            .nodes
    };
    let all = nodes(Pruning::default());
    let off: [fn(&mut Pruning); 11] = [
        |p| p.null_move = false,
        |p| p.reductions = false,
        |p| p.futility = false,
        |p| p.move_count = false,
        |p| p.losing_captures = false,
        |p| p.history_pruning = false,
        |p| p.singular = false,
        |p| p.probcut = false,
        |p| p.razoring = false,
        |p| p.iir = false,
        |p| p.correction = false,
    ];
    for (i, turn_off) in off.iter().enumerate() {
        let mut pruning = Pruning::default();
        turn_off(&mut pruning);
        assert_ne!(nodes(pruning), all, "switch {i} changes nothing");
    }
    let none = Pruning::NONE;
    assert!(nodes(none) > all, "no pruning should search more nodes");
}

/// With two threads, a depth-limited search ends (the helper stops with the main thread),
/// reports the depth asked for and answers with a legal move.
#[test]
fn two_threads_reach_the_depth_and_stop() {
    for (variant, fen) in [
        (
            "chess",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        ),
        (
            "magi",
            "rnbcqkwbnr/pppppppppp/d2p2p2d/10/10/10/10/D2P2P2D/PPPPPPPPPP/RNBCQKWBNR w KQkq - 0 1",
        ),
    ] {
        let pos = position(variant, fen);
        let result = search(&pos, &[], Limits::depth(9), 2);
        assert_eq!(result.depth, 9, "{variant}");
        assert!(pos.legal_moves_wire(1).contains(&wire(&pos, result.best)));
    }
}

/// With two threads the best root move and its line may come from the helper, through a
/// split point of the root: what the main thread reports must be what it plays. The completed
/// lines come in order of depth, the last one is the depth of the result, and its line starts
/// with the best move and then the ponder move.
#[test]
fn two_threads_report_the_line_they_play() {
    let pos = position(
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    );
    for depth in [8, 10] {
        let tt = TranspositionTable::new(16).unwrap();
        let options = SearchOptions {
            threads: 2,
            ..SearchOptions::default()
        };
        let control = SearchControl::default();
        let reports = std::sync::Mutex::new(Vec::new());
        let record = |r: &magus::search::Report| {
            if r.bound.is_none() {
                reports.lock().unwrap().push(r.clone());
            }
        };
        let limits = Limits::depth(depth);
        let result = with_position!(&pos, p => think(p, &[], &limits, &options, &tt, &control, &mut ThreadData::fresh(options.threads), &record));
        let reports = reports.into_inner().unwrap();
        let depths: Vec<i32> = reports.iter().map(|r| r.depth).collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        let last = reports.last().unwrap();
        assert_eq!(last.depth, depth);
        assert_eq!(result.depth, depth);
        assert_eq!(last.pv[0], result.best);
        assert_eq!(last.pv.get(1).copied(), result.ponder);
        assert_eq!(last.score, result.score);
    }
}

/// The position after `wire` moves, and whether the last one mated (by the rules' verdict).
fn mates(pos: &AnyPosition, m: &str) -> bool {
    let (after, _) = pos.after_wire(m, 1).unwrap();
    let verdict = with_position!(&after, p => outcome(p, &[p.hash()]));
    matches!(verdict, Some(Outcome::Win(_, Reason::Checkmate)))
}

/// RULES.md (as in chess, FIDE 9.3 and 5.1): a move that mates ends the game, even the move
/// that completes fifty moves without a capture or pawn move. In every variant, a Rook's mate
/// on the move that reaches the limit is found and scored as a mate, not as a draw.
#[test]
fn a_mate_on_the_move_that_reaches_the_fifty_move_limit_wins() {
    let cases = [
        ("chess", "7k/8/6K1/8/8/8/8/R6n w - - 99 80", "a1a8"),
        ("deathmatch", "7k/8/6K1/8/8/8/8/R6n w - - 99 80", "a1a8"),
        (
            "deathmatch-legacy",
            "7k/8/6K1/8/8/8/8/R6n w - - 99 80",
            "a1a8",
        ),
        (
            "royal-magician",
            "7k/8/6K1/8/8/8/8/R6n[k] w - - 99 80",
            "a1a8",
        ),
        (
            "magi",
            "9k/10/8K1/10/10/10/10/10/10/R8n w - - 99 80",
            "a1a10",
        ),
        (
            "magician-chess",
            "6k/7/5K1/1******/1***3/7/R6 w - - 99 80",
            "a1a7",
        ),
    ];
    for (variant, fen, mate) in cases {
        let pos = position(variant, fen);
        assert!(mates(&pos, mate), "{variant}: {mate} should mate in {fen}");
        // The rules agree the game is over by mate, not by the 50-move rule.
        let (after, _) = pos.after_wire(mate, 1).unwrap();
        assert_eq!(
            with_position!(&after, p => p.halfmove_clock()),
            100,
            "{variant}: the mate reaches the limit"
        );
        for depth in [1, 4] {
            let result = search(&pos, &[], Limits::depth(depth), 1);
            assert_eq!(
                wire(&pos, result.best),
                mate,
                "{variant} at depth {depth}: {fen}"
            );
            assert_eq!(result.score, Score::Mate(1), "{variant} at depth {depth}");
        }
    }
}

/// The 50-move rule inside the tree: a Queen up with the halfmove clock at 99 and no mate in
/// one, every move draws (no capture or pawn move is possible); with the clock at 0 the same
/// position is a plain win.
#[test]
fn the_fifty_move_rule_draws_inside_the_tree() {
    for (variant, fen) in [
        ("chess", "8/8/8/4k3/8/8/8/KQ6 w - - 99 80"),
        ("magi", "10/10/10/10/5k4/10/10/10/10/KQ8 w - - 99 80"),
    ] {
        let pos = position(variant, fen);
        let result = search(&pos, &[], Limits::depth(6), 1);
        assert_eq!(result.score, Score::Centipawns(0), "{variant}: {fen}");
        let fresh = position(variant, &fen.replace(" 99 80", " 0 80"));
        let result = search(&fresh, &[], Limits::depth(6), 1);
        assert!(
            matches!(result.score, Score::Centipawns(cp) if cp > 500)
                || matches!(result.score, Score::Mate(m) if m > 0),
            "{variant}: {:?}",
            result.score
        );
    }
}

/// A repetition the search finds by itself, with no game history: a Rook down, White checks
/// for ever (Qf6+ Kg8 Qg5+ Kh8 …), and the search scores the line as the draw it is.
#[test]
fn a_perpetual_check_inside_the_tree_is_a_draw() {
    let pos = position("chess", "5r1k/5p1p/8/6Q1/8/8/q4PPP/6K1 w - - 0 1");
    let result = search(&pos, &[], Limits::depth(10), 1);
    assert_eq!(result.score, Score::Centipawns(0));
    assert_eq!(wire(&pos, result.best), "g5f6");
}

/// The transposition table does its work: the same search with a table of one bucket (four
/// entries, as good as none) needs many more nodes, and the full table reports itself used.
#[test]
fn the_transposition_table_saves_work() {
    let pos = position(
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    );
    // The parts of the search that act on what the table says (singular extensions,
    // internal iterative reductions, ProbCut's test) are off, so the two searches search
    // the same tree but for what the table saves.
    let options = SearchOptions {
        pruning: magus::search::Pruning {
            singular: false,
            iir: false,
            probcut: false,
            ..Default::default()
        },
        ..SearchOptions::default()
    };
    let hashfull = std::sync::atomic::AtomicU32::new(0);
    let report = |r: &magus::search::Report| {
        hashfull.fetch_max(r.hashfull, std::sync::atomic::Ordering::Relaxed);
    };
    let run = |tt: &TranspositionTable| {
        let control = SearchControl::default();
        with_position!(&pos, p => think(p, &[], &Limits::depth(13), &options, tt, &control, &mut ThreadData::fresh(options.threads), &report))
    };
    let with_table = run(&TranspositionTable::new(16).unwrap());
    assert!(
        hashfull.swap(0, std::sync::atomic::Ordering::Relaxed) > 0,
        "the table reports no use"
    );
    let without = run(&TranspositionTable::with_buckets(1));
    assert!(
        with_table.nodes * 4 < without.nodes * 3,
        "{} nodes with the table, {} without",
        with_table.nodes,
        without.nodes
    );
}

/// `go nodes N` stops close to N, in every variant and with one or two threads: each thread
/// looks at the count every thousandth of N nodes (at most every 1024).
#[test]
fn a_node_limit_stops_near_the_limit() {
    let registry = Registry::builtin();
    for v in registry.all() {
        let pos = AnyPosition::from_fen(v, None).unwrap();
        for (limit, threads) in [(3_000, 1), (30_000, 1), (30_000, 2)] {
            let limits = Limits {
                nodes: Some(limit),
                ..Limits::default()
            };
            let result = search(&pos, &[], limits, threads);
            // The thread that stops looked one interval after the last look, and each other
            // thread may count up to an interval more before its own next look.
            let margin = 2 * (limit / 1000) * threads as u64;
            assert!(
                (limit..=limit + margin).contains(&result.nodes),
                "{}: {} nodes for a limit of {limit} with {threads} threads",
                v.name,
                result.nodes
            );
        }
    }
}

/// `go movetime T` answers after about T: not at once, and within the move overhead and a
/// scheduling allowance after it.
#[test]
fn a_movetime_is_kept() {
    let pos = position(
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    );
    let limits = Limits {
        movetime: Some(std::time::Duration::from_millis(400)),
        ..Limits::default()
    };
    let tt = TranspositionTable::new(16).unwrap();
    let (options, control) = (SearchOptions::default(), SearchControl::default());
    let mut data = ThreadData::fresh(1);
    let start = std::time::Instant::now();
    let result = with_position!(&pos, p => think(p, &[], &limits, &options, &tt, &control, &mut data, &|_| {}));
    let took = start.elapsed();
    assert!(!result.best.is_null());
    // The overhead (30 ms) is kept back from the 400 ms: the search stops at about 370 ms,
    // within the time given. As much again is allowed for a thread the machine sets aside
    // (tests run side by side); a search that ignored the overhead, or looked at the clock
    // too seldom, would fail.
    let overhead = options.move_overhead;
    assert_eq!(overhead, std::time::Duration::from_millis(30));
    assert!(
        took >= std::time::Duration::from_millis(300),
        "answered after {took:?}"
    );
    assert!(
        took <= std::time::Duration::from_millis(400) + overhead,
        "answered after {took:?}"
    );
}

/// The bench signature of the search: the node count of `magus bench` (every position at the
/// default depth, one thread). It changes only when the search or the evaluation does; the
/// commit that changes it says why, and the README shows the same number.
const BENCH_SIGNATURE: u64 = 121_196;

#[test]
fn the_bench_signature_is_pinned() {
    let result = magus::search::bench::run(
        magus::search::bench::DEFAULT_DEPTH,
        1,
        None,
        &Default::default(),
        |_, _, _, _| {},
    )
    .unwrap();
    assert_eq!(result.nodes, BENCH_SIGNATURE, "the search's tree changed");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let digits = BENCH_SIGNATURE.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    assert!(
        readme.contains(&format!("signature {grouped} nodes")),
        "the README should give the signature as 'signature {grouped} nodes'"
    );
}

/// A depth beyond the deepest the search can go is searched to the deepest, no further.
/// (Every move here reaches the 50-move limit without mating: each iteration is tiny.)
#[test]
fn a_depth_beyond_the_deepest_stops_at_the_deepest() {
    let pos = position("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    let limits = Limits {
        depth: Some(10_000),
        ..Limits::default()
    };
    let result = search(&pos, &[], limits, 1);
    assert_eq!(result.depth, magus::search::ordering::MAX_PLY as i32 - 1);
}

/// When an aspiration window fails, the main thread says so: over the bench positions some
/// line is reported as a bound.
#[test]
fn failed_aspiration_windows_are_reported_as_bounds() {
    let registry = Registry::builtin();
    let bounds = std::sync::atomic::AtomicUsize::new(0);
    for &(name, fen) in magus::search::bench::POSITIONS {
        let variant = registry.get(name).unwrap();
        let fen = (fen != "startpos").then_some(fen);
        let pos = AnyPosition::from_fen(variant, fen).unwrap();
        let count = |r: &magus::search::Report| {
            if r.bound.is_some() {
                bounds.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        };
        search_reporting(
            &pos,
            &[],
            &Limits::depth(8),
            &SearchOptions::default(),
            &count,
        );
    }
    assert!(bounds.into_inner() > 0, "no line reported as a bound");
}

/// With several lines, every iteration ends with distinct moves, one per line, best first
/// (in this position a later line of depth 6 outscores the first as searched: the lines are
/// sorted again, and the moved ones reported again), and the move played is the first line's.
#[test]
fn several_lines_report_distinct_moves_best_first() {
    let pos = position(
        "chess",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    );
    let options = SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    };
    let reports = std::sync::Mutex::new(Vec::new());
    let keep = |r: &magus::search::Report| reports.lock().unwrap().push(r.clone());
    let result = search_reporting(&pos, &[], &Limits::depth(6), &options, &keep);
    let reports = reports.into_inner().unwrap();
    for depth in 1..=6 {
        // The last exact report of each line at this depth.
        let mut lines = [None, None, None];
        for r in reports
            .iter()
            .filter(|r| r.depth == depth && r.bound.is_none())
        {
            lines[r.multipv - 1] = Some((r.score, r.pv[0]));
        }
        let lines: Vec<_> = lines
            .iter()
            .map(|l| l.unwrap_or_else(|| panic!("a line missing at depth {depth}")))
            .collect();
        let moves: std::collections::HashSet<Move> = lines.iter().map(|l| l.1).collect();
        assert_eq!(moves.len(), 3, "depth {depth}: {lines:?}");
        let cp = |s: Score| match s {
            Score::Centipawns(cp) => cp,
            Score::Mate(_) => panic!("no mate here"),
        };
        assert!(
            lines.windows(2).all(|w| cp(w[0].0) >= cp(w[1].0)),
            "depth {depth}: {lines:?}"
        );
        if depth == 6 {
            assert_eq!(result.best, lines[0].1);
        }
    }
}
