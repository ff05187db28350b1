//! `magus match` and `magus replay`: real matches between magus processes in every variant, read
//! back and replayed; fake engines that misbehave; the XBoard side through an adapter; the
//! payoff, Elo and SPRT arithmetic.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use clap::Parser;
use magus::board::Color;
use magus::pgn;
use magus::tournament::clock::{Clock, Limit};
use magus::tournament::payoff::{Offer, OfferKind, PayoffEnd, PayoffRules};
use magus::tournament::pentanomial::Pentanomial;
use magus::tournament::referee::{GameRecord, GameResult};
use magus::tournament::stats::{Sprt, SprtDecision, Wld, elo_from_score, erf, normal_quantile};
use magus::tournament::{Job, Summary, cli, run, schedule, shard};
use magus::variant::Registry;

const MAGUS: &str = env!("CARGO_BIN_EXE_magus");

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    m: cli::MatchArgs,
}

fn fake(script: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(script)
}

fn temp_pgn(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("magus-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.pgn"));
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs a match from command-line words (without `magus match`).
fn play(words: &[&str]) -> Summary {
    let mut all = vec!["match"];
    all.extend_from_slice(words);
    let args = Args::try_parse_from(all).unwrap_or_else(|e| panic!("{e}"));
    let registry = Registry::builtin();
    let config = cli::config(&args.m, &registry, None).unwrap_or_else(|e| panic!("{e}"));
    run(&config, |_| {}).unwrap_or_else(|e| panic!("{e}"))
}

/// [`play`] between two magus engines, `a` and `b`, at `nodes` nodes a move, with `more`.
fn play_magus_pair(nodes: &str, more: &[&str]) -> Summary {
    let (a, b) = (magus_engine("a"), magus_engine("b"));
    let mut words = vec!["--engine", &a, "--engine", &b, "--nodes", nodes];
    words.extend_from_slice(more);
    play(&words)
}

/// One Magi game under the 12-point payoff between the engines `white` and `black`, at 200
/// nodes a move.
fn magi_payoff_game(white: &str, black: &str) -> Summary {
    play(&[
        "--variant",
        "magi",
        "--engine",
        white,
        "--engine",
        black,
        "--nodes",
        "200",
        "--payoff",
        "--games",
        "1",
    ])
}

/// A game ended by the rules (mate, stalemate, a draw by rule) or cut at its length limit: not
/// forfeited on time, for an illegal move or a crash. Which ending a game reaches depends on how
/// the engines' clocks went, so tests accept any of them.
fn assert_ended_over_the_board(g: &GameRecord) {
    let over_the_board = [
        "max length",
        "checkmate",
        "stalemate",
        "repetition",
        "50-move rule",
        "insufficient material",
    ];
    assert!(
        over_the_board.contains(&g.termination.as_str()),
        "{}: {}",
        g.termination,
        g.detail
    );
}

fn magus_engine(name: &str) -> String {
    format!("name={name},cmd={MAGUS}")
}

/// Reads a PGN file back and replays every game through the rules.
fn replay_file(path: &Path) -> Vec<pgn::PgnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = pgn::read_all(&text).unwrap();
    let registry = Registry::builtin();
    for g in &games {
        let r = pgn::replay(g, &registry).unwrap_or_else(|e| panic!("{e}\n{}", g.write()));
        assert_eq!(
            r.game.moves().len().to_string(),
            g.tag("PlyCount").unwrap(),
            "every move of the PGN replays"
        );
        if let Some(o) = r.outcome {
            let expected = match o {
                magus::game::outcome::Outcome::Win(Color::White, _) => "1-0",
                magus::game::outcome::Outcome::Win(Color::Black, _) => "0-1",
                magus::game::outcome::Outcome::Draw(_) => "1/2-1/2",
            };
            assert_eq!(g.result, expected, "the rules agree with the PGN's result");
        }
    }
    games
}

fn movetext(g: &pgn::PgnGame) -> Vec<String> {
    g.moves.iter().map(|m| m.san.clone()).collect()
}

/// A fixed-nodes match between two magus processes in every variant: two games from one
/// random opening with colours reversed, written as PGN, read back and replayed by the
/// referee, with the `Variant` tag and the same book moves in both games.
#[test]
fn every_variant_plays_a_match_that_replays() {
    for variant in Registry::builtin().all() {
        let path = temp_pgn(&format!("variant-{}", variant.name));
        let summary = play(&[
            "--variant",
            &variant.name,
            "--engine",
            &magus_engine("one"),
            "--engine",
            &magus_engine("two"),
            "--nodes",
            "400",
            "--random-plies",
            "2",
            "--seed",
            "7",
            "--max-plies",
            "160",
            "--pgnout",
            path.to_str().unwrap(),
        ]);
        assert_eq!(summary.games.len(), 2, "{}", variant.name);
        for g in &summary.games {
            assert!(
                matches!(
                    g.termination.as_str(),
                    "checkmate"
                        | "stalemate"
                        | "repetition"
                        | "50-move rule"
                        | "insufficient material"
                        | "max length"
                ),
                "{}: {} ({})",
                variant.name,
                g.termination,
                g.detail
            );
        }
        let games = replay_file(&path);
        assert_eq!(games.len(), 2);
        let tag = games[0].tag("Variant");
        if variant.name == "chess" {
            assert_eq!(tag, None);
        } else {
            assert_eq!(tag, Some(variant.name.as_str()));
        }
        assert_eq!(games[0].tag("White"), Some("one"));
        assert_eq!(games[1].tag("White"), Some("two"));
        let book = |g: &pgn::PgnGame| -> Vec<String> {
            g.moves
                .iter()
                .filter(|m| m.comment.as_deref() == Some("book"))
                .map(|m| m.san.clone())
                .collect()
        };
        assert_eq!(book(&games[0]).len(), 2);
        assert_eq!(
            book(&games[0]),
            book(&games[1]),
            "one opening, both colours"
        );
    }
}

/// Fixed nodes and a seed make a match repeatable move for move.
#[test]
fn a_fixed_nodes_match_is_deterministic() {
    let run_once = |name: &str| {
        let path = temp_pgn(name);
        play_magus_pair(
            "300",
            &[
                "--random-plies",
                "4",
                "--seed",
                "11",
                "--max-plies",
                "80",
                "--pgnout",
                path.to_str().unwrap(),
            ],
        );
        replay_file(&path).iter().map(movetext).collect::<Vec<_>>()
    };
    assert_eq!(run_once("det-1"), run_once("det-2"));
}

fn fault_match(mode: &str, limit: &[&str], name: &str) -> (Summary, Vec<pgn::PgnGame>) {
    let path = temp_pgn(name);
    let script = fake("faulty_uci.py");
    let spec = format!(
        "name=faulty,cmd=python3 {} {mode} 2 {MAGUS}",
        script.display()
    );
    let mut words = vec![
        "--engine",
        &spec,
        "--engine",
        "name=magus,cmd=PLACEHOLDER",
        "--max-plies",
        "60",
        "--pgnout",
        path.to_str().unwrap(),
    ];
    let magus = magus_engine("magus");
    words[3] = &magus;
    words.extend_from_slice(limit);
    let summary = play(&words);
    let games = replay_file(&path);
    (summary, games)
}

/// Each misbehaving engine loses both games with the reason recorded in the PGN's
/// `Termination` tag; it is restarted for the second game and the match goes on.
fn check_fault(mode: &str, limit: &[&str], termination: &str) {
    let (summary, games) = fault_match(mode, limit, mode);
    assert_eq!(summary.games.len(), 2, "the match goes on after the fault");
    assert_eq!(
        summary.results[0].losses, 2,
        "{mode}: the faulty engine loses"
    );
    assert_eq!(summary.results[1].wins, 2);
    for (g, p) in summary.games.iter().zip(&games) {
        assert_eq!(g.termination, termination, "{mode}: {}", g.detail);
        assert_eq!(p.tag("Termination"), Some(termination));
        assert!(g.detail.contains("faulty"), "{}", g.detail);
        let faulty_white = g.white_name == "faulty";
        assert_eq!(
            g.result,
            if faulty_white {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            }
        );
        // The engine played one good move before failing on its second `go`.
        let faulty_moves = g.moves.len() / 2 + usize::from(faulty_white && g.moves.len() % 2 == 1);
        assert_eq!(faulty_moves, 1, "{mode}: {:?}", g.moves);
    }
}

#[test]
fn an_illegal_move_loses() {
    check_fault("illegal", &["--nodes", "200"], "illegal move");
}

/// An engine that says it has no move where the rules give it some plays by other rules: its
/// answer is an illegal move (which `--void-illegal` can leave out), not a garbled one.
#[test]
fn no_move_where_the_rules_give_moves_is_an_illegal_move() {
    check_fault("none", &["--nodes", "200"], "illegal move");
    let (summary, _) = fault_match(
        "none",
        &["--nodes", "200", "--void-illegal", "faulty"],
        "none-void",
    );
    assert_eq!(summary.illegal_losses, vec![2, 0]);
    assert_eq!(summary.void, vec![2, 0]);
    assert!(
        summary.games[0]
            .detail
            .contains("'(none)' as if it had no move"),
        "{}",
        summary.games[0].detail
    );
}

#[test]
fn an_unparseable_move_loses() {
    check_fault("garbage", &["--nodes", "200"], "unparseable move");
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    check_fault("crash", &["--nodes", "200"], "crash");
}

#[test]
fn an_engine_that_never_answers_loses_as_stalled() {
    check_fault(
        "hang",
        &["--nodes", "200", "--move-timeout", "0.5"],
        "stalled",
    );
}

#[test]
fn an_engine_that_takes_too_long_loses_on_time() {
    check_fault(
        "slow",
        &["--st", "0.2", "--time-margin", "100"],
        "time forfeit",
    );
}

#[test]
fn a_clock_game_keeps_time_without_forfeits() {
    let summary = play(&[
        "--engine",
        &magus_engine("a"),
        "--engine",
        &magus_engine("b"),
        "--tc",
        "40/1+0.05",
        "--max-plies",
        "30",
        "--random-plies",
        "2",
        "--seed",
        "3",
    ]);
    for g in &summary.games {
        assert_ended_over_the_board(g);
        assert_eq!(
            g.time_control,
            ["40/1+0.05".to_string(), "40/1+0.05".to_string()]
        );
    }
}

fn adapter(name: &str, behaviour: &str) -> String {
    format!(
        "name={name},proto=xboard,cmd=python3 {} {MAGUS} {behaviour}",
        fake("xboard_adapter.py").display()
    )
}

/// The XBoard side, on 8 and on 10 ranks (where XBoard counts ranks from 0): every move
/// converted both ways, games played to their end by the rules.
#[test]
fn xboard_engines_play_on_eight_and_ten_ranks() {
    for variant in ["chess", "magi"] {
        let path = temp_pgn(&format!("xboard-{variant}"));
        let summary = play(&[
            "--variant",
            variant,
            "--engine",
            &adapter("xb", ""),
            "--engine",
            &magus_engine("uci"),
            "--nodes",
            "300",
            "--max-plies",
            "60",
            "--random-plies",
            "2",
            "--seed",
            "5",
            "--pgnout",
            path.to_str().unwrap(),
        ]);
        for g in &summary.games {
            assert!(
                !matches!(
                    g.termination.as_str(),
                    "illegal move" | "unparseable move" | "protocol error" | "crash" | "stalled"
                ),
                "{variant}: {} ({})",
                g.termination,
                g.detail
            );
        }
        replay_file(&path);
    }
}

/// Magi payoff mode: an XBoard engine's resignation in band 1 is worth 12–0 to its opponent.
#[test]
fn payoff_counts_a_resignation() {
    let summary = magi_payoff_game(&adapter("resigner", "resign=3"), &magus_engine("magus"));
    let g = &summary.games[0];
    assert_eq!(g.termination, "resignation");
    assert_eq!(g.result, GameResult::BlackWins);
    assert_eq!(g.payoff, Some((0, 12)));
    assert_eq!(summary.payoff, vec![0, 12]);
}

/// A draw offered by one XBoard engine and accepted by the other: 6–6.
#[test]
fn payoff_counts_an_accepted_draw_offer() {
    let summary = magi_payoff_game(
        &adapter("offers", "offer-draw"),
        &adapter("accepts", "accept-draw"),
    );
    let g = &summary.games[0];
    assert_eq!(g.termination, "draw agreed", "{}", g.detail);
    assert_eq!(g.result, GameResult::Draw);
    assert_eq!(g.payoff, Some((6, 6)));
    assert_eq!(g.moves.len(), 1, "accepted before its first move");
}

/// A UCI engine cannot accept a draw: the offer is declined and play goes on.
#[test]
fn a_draw_offer_to_a_uci_engine_is_declined() {
    let summary = play(&[
        "--engine",
        &adapter("offers", "offer-draw"),
        "--engine",
        &magus_engine("magus"),
        "--nodes",
        "200",
        "--max-plies",
        "10",
        "--games",
        "1",
    ]);
    assert_eq!(summary.games[0].termination, "max length");
}

/// A result claim the rules do not confirm loses.
#[test]
fn a_false_claim_loses() {
    let summary = play(&[
        "--engine",
        &adapter("claims", "claim=2"),
        "--engine",
        &magus_engine("magus"),
        "--nodes",
        "200",
        "--games",
        "1",
    ]);
    assert_eq!(summary.games[0].termination, "false claim");
    assert_eq!(summary.games[0].result, GameResult::BlackWins);
}

/// The SPRT stops a match as soon as it decides: an engine that crashes every game is
/// found weaker long before the 100 games are played.
#[test]
fn sprt_stops_the_match_when_decided() {
    let spec = format!(
        "name=faulty,cmd=python3 {} crash 1 {MAGUS}",
        fake("faulty_uci.py").display()
    );
    let summary = play(&[
        "--engine",
        &magus_engine("magus"),
        "--engine",
        &spec,
        "--nodes",
        "100",
        "--rounds",
        "50",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
    ]);
    let (llr, decision) = summary.sprt.unwrap();
    assert_eq!(decision, Some(SprtDecision::H1), "LLR {llr}");
    assert!(summary.stopped_early);
    assert!(summary.games.len() < 20, "{} games", summary.games.len());
}

#[test]
fn bad_flags_are_named() {
    let registry = Registry::builtin();
    let err = |words: &[&str]| {
        let mut all = vec!["match", "--engine", "name=a", "--engine", "name=b"];
        all.extend_from_slice(words);
        let args = Args::try_parse_from(all).unwrap();
        cli::config(&args.m, &registry, None).unwrap_err()
    };
    assert!(err(&["--tc", "abc"]).starts_with("--tc:"));
    assert!(err(&["--nodes", "5", "--variant", "nope"]).starts_with("--variant:"));
    assert!(err(&["--nodes", "5", "--sprt", "elo0=5,elo1=0"]).starts_with("--sprt"));
    assert!(err(&["--nodes", "5", "--adjudicate-draw", "10,5"]).starts_with("--adjudicate-draw:"));
    assert!(err(&[]).contains("--tc"));
    assert!(err(&["--nodes", "5", "--shard", "0/3"]).starts_with("--shard:"));
    assert!(err(&["--nodes", "5", "--shard", "4/3"]).starts_with("--shard:"));
    assert!(err(&["--nodes", "5", "--shard", "two"]).starts_with("--shard:"));
    let e = err(&["--nodes", "5", "--shard", "1/2", "--random-plies", "4"]);
    assert!(e.starts_with("--shard: give --seed"), "{e}");
    let e = err(&["--nodes", "5", "--void-illegal", "c"]);
    assert!(e.starts_with("--void-illegal:") && e.contains("'c'"), "{e}");
    let e = err(&["--nodes", "5", "--sprt", "elo0=0,elo1=5,stat=games"]);
    assert!(e.starts_with("--sprt") && e.contains("stat"), "{e}");
    let args = Args::try_parse_from([
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=a,proto=x",
        "--nodes",
        "1",
    ])
    .unwrap();
    assert!(
        cli::config(&args.m, &registry, None)
            .unwrap_err()
            .starts_with("--engine")
    );
}

#[test]
fn an_engine_that_does_not_start_is_reported_before_the_match() {
    let args = Args::try_parse_from([
        "match",
        "--engine",
        "name=ghost,cmd=/nonexistent/engine",
        "--engine",
        &magus_engine("magus"),
        "--nodes",
        "10",
    ])
    .unwrap();
    let config = cli::config(&args.m, &Registry::builtin(), None).unwrap();
    let e = magus::tournament::check_engines(&config).unwrap_err();
    assert!(e.contains("ghost") && e.contains("cannot start"), "{e}");
}

// ---- arithmetic ----

fn close(a: f64, b: f64, eps: f64) -> bool {
    (a - b).abs() <= eps
}

/// Elo from a score on the logistic curve: 0.75 is +190.85 (−400·log10(1/3)).
#[test]
fn elo_of_known_scores() {
    assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
    assert!(close(elo_from_score(0.5), 0.0, 1e-12));
    assert!(close(elo_from_score(0.25), -190.848_501_9, 1e-6));
    assert!(close(elo_from_score(0.64), 100.0, 0.1)); // about +100 Elo
}

#[test]
fn erf_and_normal_quantile() {
    assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-14));
    assert!(close(erf(1.0), 0.842_700_792_949_714_9, 1e-14));
    assert!(close(erf(3.0), 0.999_977_909_503_001_4, 1e-14));
    assert!(close(normal_quantile(0.975), 1.959_963_984_540_054, 1e-9));
    assert!(close(normal_quantile(0.5), 0.0, 1e-12));
}

/// W 60, L 20, D 20: score 0.7, per-game variance 0.6·0.3² + 0.2·0.7² + 0.2·0.2² = 0.16, so the
/// mean's deviation is 0.04; the 95 % interval 0.7 ± 1.96·0.04 is 0.6216..0.7784, Elo
/// 86.23..218.25, half-width 66.01. LOS = Φ((60−20)/√80) = ½(1 + erf(40/√160)) = 0.999996.
#[test]
fn elo_error_and_los_of_a_known_result() {
    let wld = Wld {
        wins: 60,
        losses: 20,
        draws: 20,
    };
    assert!(close(wld.score(), 0.7, 1e-12));
    assert!(close(wld.score_stdev(), 0.04, 1e-12));
    assert!(close(wld.elo(), 147.19, 0.01));
    let z = 1.959_963_984_540_054;
    let expected = (elo_from_score(0.7 + z * 0.04) - elo_from_score(0.7 - z * 0.04)) / 2.0;
    assert!(close(wld.elo_error95(), expected, 1e-6));
    assert!(
        close(wld.elo_error95(), 66.01, 0.01),
        "{}",
        wld.elo_error95()
    );
    assert!(close(wld.los(), 0.999_996_1, 1e-6), "{}", wld.los());
    let even = Wld {
        wins: 10,
        losses: 10,
        draws: 5,
    };
    assert!(close(even.los(), 0.5, 1e-12));
}

/// SPRT bounds for α = β = 0.05 are ln(0.05/0.95) = −2.944 and +2.944. For W 60, L 20, D 20
/// with elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1 + 10^(−10/400)) = 0.514387, so
/// LLR = 100 · 0.014387 · (1.4 − 0.5 − 0.514387) / (2 · 0.16) = 1.7337.
#[test]
fn sprt_llr_of_known_results() {
    let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
    let (lo, hi) = sprt.bounds();
    assert!(close(lo, -2.944_438_979, 1e-8) && close(hi, 2.944_438_979, 1e-8));
    let wld = Wld {
        wins: 60,
        losses: 20,
        draws: 20,
    };
    assert!(close(sprt.llr(&wld), 1.7337, 1e-3), "{}", sprt.llr(&wld));
    assert_eq!(sprt.decide(&wld), None);
    // Twice the games at the same rates: twice the LLR, past the upper bound.
    let double = Wld {
        wins: 120,
        losses: 40,
        draws: 40,
    };
    assert!(close(sprt.llr(&double), 2.0 * 1.7337, 2e-3));
    assert_eq!(sprt.decide(&double), Some(SprtDecision::H1));
    // An even result favours H0: LLR = 200 · 0.014387 · (1 − 1.014387) / (2 · 0.2) with
    // W 80, L 80, D 40 (variance 0.8 · 0.25 = 0.2) = −0.1035.
    let even = Wld {
        wins: 80,
        losses: 80,
        draws: 40,
    };
    assert!(close(sprt.llr(&even), -0.1035, 1e-3), "{}", sprt.llr(&even));
    // Few games decide nothing, whatever they are: one win (zero losses and draws count
    // one half each: mean 0.625, variance 0.171875, so
    // LLR = 1 · 0.014387 · (1.25 − 1.014387) / (2 · 0.171875) = 0.00986).
    let one_win = Wld {
        wins: 1,
        losses: 0,
        draws: 0,
    };
    assert!(
        close(sprt.llr(&one_win), 0.00986, 1e-4),
        "{}",
        sprt.llr(&one_win)
    );
    for wins in 1..=8 {
        let run = Wld {
            wins,
            losses: 0,
            draws: 0,
        };
        assert_eq!(sprt.decide(&run), None, "{wins} wins alone");
    }
    // A decision stands when a game that was running comes in after it and brings the LLR
    // back inside the bounds (1.7337 for 60-20-20, above).
    let (llr, decision) = sprt.after_game(&wld, Some(SprtDecision::H1));
    assert!(close(llr, 1.7337, 1e-3));
    assert_eq!(decision, Some(SprtDecision::H1));
    assert_eq!(sprt.after_game(&wld, None).1, None);
    // A long run of wins alone does decide (the engine that always crashes, above): from
    // the 16th win on.
    let many = Wld {
        wins: 30,
        losses: 0,
        draws: 0,
    };
    assert_eq!(sprt.decide(&many), Some(SprtDecision::H1));
    assert!(Sprt::parse("elo0=0").is_err());
    assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.7").is_err());
}

/// RULES.md §2.5's worked examples and table.
#[test]
fn payoff_bands_and_worked_examples() {
    let rules = PayoffRules::default();
    let declined = |kind, by, fullmove| Offer {
        kind,
        by,
        fullmove,
        accepted: false,
    };
    use Color::{Black, White};
    // Checkmate, no offers: 12-0.
    assert_eq!(
        rules.payoff(
            &[],
            PayoffEnd::Mate {
                winner: Black,
                fullmove: 80
            }
        ),
        (0, 12)
    );
    // Resignation accepted in each band.
    for (m, v) in [
        (1, 12),
        (45, 12),
        (46, 11),
        (60, 11),
        (75, 10),
        (90, 9),
        (91, 8),
        (119, 8),
        (120, 7),
        (150, 7),
        (400, 7),
    ] {
        assert_eq!(
            rules.payoff(
                &[],
                PayoffEnd::Resign {
                    loser: Black,
                    fullmove: m
                }
            ),
            (v, 12 - v),
            "move {m}"
        );
    }
    // Offer at 53 declined, mate at 58: 12-0.
    let offer53 = [declined(OfferKind::Resign, Black, 53)];
    assert_eq!(
        rules.payoff(
            &offer53,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 58
            }
        ),
        (12, 0)
    );
    // Offer at 68 (10-2) declined: no mate by 76 → 9-3; no mate by 91 → 8-4.
    let offer68 = [declined(OfferKind::Resign, Black, 68)];
    assert_eq!(
        rules.payoff(
            &offer68,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 80
            }
        ),
        (9, 3)
    );
    assert_eq!(
        rules.payoff(
            &offer68,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 95
            }
        ),
        (8, 4)
    );
    // B1 offer declined, no mate in B1: 11-1.
    let offer10 = [declined(OfferKind::Resign, White, 10)];
    assert_eq!(
        rules.payoff(
            &offer10,
            PayoffEnd::Mate {
                winner: Black,
                fullmove: 50
            }
        ),
        (1, 11)
    );
    // The side that offered resignation mates later: 12-0 for it.
    assert_eq!(
        rules.payoff(
            &offer10,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 50
            }
        ),
        (12, 0)
    );
    // Stalemate 7-5 to the side giving it; other draws 6-6; an accepted draw 6-6.
    assert_eq!(
        rules.payoff(&[], PayoffEnd::Stalemate { by: Black }),
        (5, 7)
    );
    assert_eq!(rules.payoff(&[], PayoffEnd::Draw), (6, 6));
    let accepted = [Offer {
        kind: OfferKind::Draw,
        by: White,
        fullmove: 30,
        accepted: true,
    }];
    assert_eq!(
        rules.payoff(
            &accepted,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 31
            }
        ),
        (6, 6)
    );
    // A refused draw offer starts the decay (literal reading), or not (weaker reading).
    let draw68 = [declined(OfferKind::Draw, Black, 68)];
    assert_eq!(
        rules.payoff(
            &draw68,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 80
            }
        ),
        (9, 3)
    );
    let weak = PayoffRules {
        refused_draw_decays: false,
        ..PayoffRules::default()
    };
    assert_eq!(
        weak.payoff(
            &draw68,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 80
            }
        ),
        (12, 0)
    );
    // Only one resignation offer counts.
    let two = [
        declined(OfferKind::Resign, Black, 68),
        declined(OfferKind::Resign, Black, 100),
    ];
    assert_eq!(
        rules.payoff(
            &two,
            PayoffEnd::Mate {
                winner: White,
                fullmove: 80
            }
        ),
        (9, 3)
    );
    // The 150-move rule.
    let r150 = PayoffRules {
        rule150: true,
        ..PayoffRules::default()
    };
    assert_eq!(r150.move_limit(), Some(150));
    assert_eq!(r150.payoff(&[], PayoffEnd::MoveLimit), (0, 0));
    assert_eq!(rules.move_limit(), None);
}

#[test]
fn clocks_periods_and_margins() {
    let limit = Limit::parse_tc("2/10+1").unwrap();
    let mut c = Clock::new(&limit);
    let s = std::time::Duration::from_secs_f64;
    assert_eq!(c.moves_to_go(&limit), Some(2));
    assert!(c.charge(&limit, s(4.0), s(0.1)));
    assert_eq!(c.left, s(7.0));
    assert_eq!(c.moves_to_go(&limit), Some(1));
    assert!(c.charge(&limit, s(3.0), s(0.1)));
    assert_eq!(
        c.left,
        s(15.0),
        "4 s left + 1 s increment + a new period of 10 s"
    );
    assert!(c.charge(&limit, s(15.05), s(0.1)), "within the margin");
    assert_eq!(c.left, s(1.0));
    assert!(!c.charge(&limit, s(1.2), s(0.1)), "over the margin");
    assert_eq!(Limit::parse_tc("1:30+0.5").unwrap().pgn_tag(), "90+0.5");
    assert_eq!(Limit::parse_tc("10").unwrap().pgn_tag(), "10");
    assert_eq!(Limit::MoveTime(s(1.0)).pgn_tag(), "1/move");
    assert!(Limit::parse_tc("0+0").is_err());
    assert!(Limit::parse_tc("x/10").is_err());
}

/// Pairs meet with colours alternating; each opening serves two games in a row.
#[test]
fn schedule_reverses_colours_per_opening() {
    let jobs = schedule(2, 2, 3);
    let colours: Vec<(usize, usize, usize)> =
        jobs.iter().map(|j| (j.white, j.black, j.opening)).collect();
    assert_eq!(
        colours,
        vec![
            (0, 1, 0),
            (1, 0, 0),
            (0, 1, 1),
            (1, 0, 1),
            (0, 1, 2),
            (1, 0, 2)
        ]
    );
    assert_eq!(schedule(3, 2, 1).len(), 6, "three pairs, two games each");
}

/// PGN: tags with escapes, a FEN with Black to move, comments, variations and NAGs; the
/// first illegal move is reported with its number.
#[test]
fn pgn_reads_back_what_it_writes_and_reports_illegal_moves() {
    let registry = Registry::builtin();
    let mut g = pgn::PgnGame::default();
    g.set_tag("Event", "a \"quoted\" event");
    g.set_tag("SetUp", "1");
    g.set_tag(
        "FEN",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    );
    g.set_tag("Result", "*");
    for san in ["e5", "Nf3", "Nc6"] {
        g.moves.push(pgn::PgnMove {
            san: san.into(),
            comment: Some("+0.10/5 0.010s".into()),
        });
    }
    g.result = "*".into();
    let text = g.write();
    assert!(text.contains("1... e5 {+0.10/5 0.010s} 2. Nf3"), "{text}");
    let back = pgn::read_all(&text).unwrap();
    assert_eq!(back, vec![g.clone()]);
    let r = pgn::replay(&back[0], &registry).unwrap();
    assert_eq!(r.game.moves().len(), 3);

    // A variant's castling with a bracket is one move, not a variation.
    let castling = pgn::read_all("1. e4 (1. d4 d5) 1... e5 2. 0-0(b) O-O(f) *").unwrap();
    let sans: Vec<&str> = castling[0].moves.iter().map(|m| m.san.as_str()).collect();
    assert_eq!(sans, ["e4", "e5", "0-0(b)", "O-O(f)"]);

    let bad = "[Event \"x\"]\n\n1. e4 e5 $1 (1... c5 2. Nf3) 2. Nf3 {ok} Nc6 3. Bb5 a6 4. Bxe8 *\n";
    let games = pgn::read_all(bad).unwrap();
    assert_eq!(games[0].moves.len(), 7);
    let e = pgn::replay(&games[0], &registry).unwrap_err();
    assert_eq!(e.ply, 7);
    assert_eq!(e.to_string().split(':').next().unwrap(), "move 4. Bxe8");
}

/// `magus replay` on the command line: exit status and the first illegal move.
#[test]
fn replay_command_reports_the_first_illegal_move() {
    let path = temp_pgn("replay-bad");
    std::fs::write(
        &path,
        "[Variant \"magi\"]\n\n1. e4 e7 2. Nc3 Qxa1 1-0\n\n[White \"w\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let out = std::process::Command::new(MAGUS)
        .arg("replay")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        stdout.contains("game 1") && stdout.contains("move 2... Qxa1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("game 2 (w - ?): 7 plies, all legal") && stdout.contains("checkmate"),
        "{stdout}"
    );
}

/// Three engines, two games at a time: a round robin of six games, each engine playing four,
/// with every game's result counted once for each side.
#[test]
fn a_round_robin_with_concurrency() {
    let summary = play(&[
        "--engine",
        &magus_engine("a"),
        "--engine",
        &magus_engine("b"),
        "--engine",
        &magus_engine("c"),
        "--nodes",
        "200",
        "--max-plies",
        "40",
        "--random-plies",
        "2",
        "--seed",
        "9",
        "--concurrency",
        "2",
    ]);
    assert_eq!(summary.games.len(), 6);
    for r in &summary.results {
        assert_eq!(r.games(), 4);
    }
    let wins: u64 = summary.results.iter().map(|r| r.wins).sum();
    let losses: u64 = summary.results.iter().map(|r| r.losses).sum();
    assert_eq!(wins, losses);
}

/// Openings from an EPD file (operations ignored) and a FEN line: used in turn, each twice
/// with colours reversed; the PGN carries `SetUp` and `FEN`, move numbers follow the FEN.
#[test]
fn openings_from_an_epd_file() {
    let dir = std::env::temp_dir().join(format!("magus-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("openings.epd");
    std::fs::write(
        &epd,
        "# two openings\nrnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - bm Nf3; id \"open\";\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n",
    )
    .unwrap();
    let path = temp_pgn("epd");
    let summary = play_magus_pair(
        "200",
        &[
            "--max-plies",
            "20",
            "--rounds",
            "2",
            "--openings",
            epd.to_str().unwrap(),
            "--pgnout",
            path.to_str().unwrap(),
        ],
    );
    assert_eq!(summary.games.len(), 4);
    let games = replay_file(&path);
    let fens: Vec<&str> = games.iter().map(|g| g.tag("FEN").unwrap()).collect();
    assert_eq!(fens[0], fens[1]);
    assert_eq!(fens[2], fens[3]);
    assert_ne!(fens[0], fens[2]);
    assert!(fens[2].ends_with(" 2 3"));
    assert!(games.iter().all(|g| g.tag("SetUp") == Some("1")));
    assert!(games[2].write().contains("\n3. "), "{}", games[2].write());
}

/// Balanced random openings: in Magi, eight random plies often leave a piece hanging. With
/// `opening_balance`, every opening handed out passes the balance check; without it, some of
/// the same seed's openings fail it, so the check really is what filters them. The filtered
/// openings are the same from run to run.
#[test]
fn balanced_random_openings_leave_no_piece_hanging() {
    use magus::game::Game;
    use magus::tournament::openings::{Opening, is_balanced, random_opening};
    let variant = Registry::builtin().get("magi").unwrap();
    let after = |o: &Opening| {
        let start = magus::game::AnyPosition::from_fen(variant, None).unwrap();
        let moves: Vec<&str> = o.moves.iter().map(String::as_str).collect();
        *Game::from_moves(start, &moves, 1).unwrap().position()
    };
    let limit = 150;
    let mut unbalanced_plain = 0;
    for index in 0..24 {
        let plain = random_opening(variant, &Opening::default(), 8, None, 2026, index).unwrap();
        if !is_balanced(&after(&plain), limit) {
            unbalanced_plain += 1;
        }
        let balanced =
            random_opening(variant, &Opening::default(), 8, Some(limit), 2026, index).unwrap();
        assert_eq!(balanced.moves.len(), 8);
        assert!(is_balanced(&after(&balanced), limit), "{balanced:?}");
        let again =
            random_opening(variant, &Opening::default(), 8, Some(limit), 2026, index).unwrap();
        assert_eq!(balanced, again);
    }
    assert!(
        unbalanced_plain > 0,
        "no plain random opening was unbalanced"
    );
}

/// Score adjudication ends games by the thresholds given.
#[test]
fn score_adjudication() {
    let draw = play_magus_pair("200", &["--games", "1", "--adjudicate-draw", "100000,2,0"]);
    let g = &draw.games[0];
    assert_eq!(
        (g.termination.as_str(), g.result),
        ("adjudication", GameResult::Draw)
    );
    assert_eq!(g.moves.len(), 4, "two moves each within the band");
}

/// Resign adjudication: from a position where Black has no Queen, both engines see White
/// far ahead from their first moves, so after two moves each White wins by adjudication,
/// with either engine as White; the scores in the PGN comments are the ones that triggered
/// it. With a threshold no score reaches, the same games go on to the length limit.
#[test]
fn resign_adjudication_ends_a_lost_game() {
    let dir = std::env::temp_dir().join(format!("magus-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fen = dir.join("no-black-queen.epd");
    std::fs::write(
        &fen,
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    )
    .unwrap();
    let run_with = |threshold: &str| {
        play_magus_pair(
            "300",
            &[
                "--openings",
                fen.to_str().unwrap(),
                "--max-plies",
                "8",
                "--adjudicate-resign",
                threshold,
            ],
        )
    };
    let summary = run_with("400,2");
    assert_eq!(summary.games.len(), 2);
    let score = |comment: &str| -> f64 { comment.split('/').next().unwrap().parse().unwrap() };
    for g in &summary.games {
        assert_eq!(
            (g.termination.as_str(), g.result),
            ("adjudication", GameResult::WhiteWins),
            "{}",
            g.detail
        );
        assert!(
            g.detail.contains("Black loses by adjudication"),
            "{}",
            g.detail
        );
        assert_eq!(g.moves.len(), 4, "two moves each, then the verdict");
        for (i, m) in g.moves.iter().enumerate() {
            let s = score(&m.comment);
            if i % 2 == 0 {
                assert!(s >= 4.0, "White's own score {s}");
            } else {
                assert!(s <= -4.0, "Black's own score {s}");
            }
        }
    }
    let never = run_with("5000,2");
    for g in &never.games {
        assert_eq!(g.termination, "max length", "{}", g.detail);
    }
}

/// Each engine may have its own limit: here a clock against fixed nodes, written as
/// `WhiteTimeControl` and `BlackTimeControl`.
#[test]
fn engines_with_their_own_limits() {
    let path = temp_pgn("own-limits");
    let fast = format!("{},tc=5+0.1", magus_engine("clock"));
    let nodes = format!("{},nodes=300", magus_engine("nodes"));
    let summary = play(&[
        "--engine",
        &fast,
        "--engine",
        &nodes,
        "--max-plies",
        "20",
        "--pgnout",
        path.to_str().unwrap(),
    ]);
    assert_eq!(summary.games.len(), 2);
    let games = replay_file(&path);
    assert_eq!(games[0].tag("WhiteTimeControl"), Some("5+0.1"));
    assert_eq!(games[0].tag("BlackTimeControl"), Some("-"));
    assert_eq!(games[1].tag("WhiteTimeControl"), Some("-"));
    assert_eq!(games[0].tag("TimeControl"), None);
    // The clocked engine may mate the 300-node one inside 20 plies; either way no forfeit.
    for g in &summary.games {
        assert_ended_over_the_board(g);
    }
}

/// A folder holding the built-in chess definition, edited by `edit`, as `file`.
fn folder_with_chess_edited(tag: &str, file: &str, edit: impl FnOnce(String) -> String) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("magus-match-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chess =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.toml"))
            .unwrap();
    std::fs::write(dir.join(file), edit(chess)).unwrap();
    dir
}

/// `magus --variant-path DIR` with `words`, which must succeed: its standard output.
fn magus_with_folder(dir: &Path, words: &[&OsStr]) -> String {
    let out = std::process::Command::new(MAGUS)
        .arg("--variant-path")
        .arg(dir)
        .args(words)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A two-engine match of `variant` from the folder `dir`, written to a fresh PGN file
/// named by `tag`: the match's standard output and the PGN's text.
fn match_from_folder(
    dir: &Path,
    tag: &str,
    variant: &str,
    engines: [&str; 2],
    limit: &[&str],
) -> (String, String) {
    let pgn = temp_pgn(tag);
    let mut words: Vec<&str> = vec!["match", "--variant", variant];
    for engine in engines {
        words.extend(["--engine", engine]);
    }
    words.extend_from_slice(limit);
    let mut words: Vec<&OsStr> = words.into_iter().map(OsStr::new).collect();
    words.extend([OsStr::new("--pgnout"), pgn.as_os_str()]);
    let stdout = magus_with_folder(dir, &words);
    // A replay of the file by the same rules finds no illegal move.
    magus_with_folder(dir, &["replay".as_ref(), pgn.as_os_str()]);
    (stdout, std::fs::read_to_string(&pgn).unwrap())
}

/// A variant from a file: the referee loads it, and magus engine processes get the folder as
/// their `VariantPath` option before `UCI_Variant` names it.
#[test]
fn a_file_defined_variant_plays_through_the_command_line() {
    let dir = folder_with_chess_edited("variants", "mine.toml", |chess| {
        chess.replacen("name = \"chess\"", "name = \"my-chess\"", 1)
    });
    let (stdout, text) = match_from_folder(
        &dir,
        "file-variant",
        "my-chess",
        ["name=a", "name=b"],
        &["--nodes", "200", "--max-plies", "30"],
    );
    assert!(stdout.contains("2 games of my-chess"), "{stdout}");
    assert!(text.contains("[Variant \"my-chess\"]"));
    assert!(
        text.contains("max length") || text.contains("checkmate"),
        "{text}"
    );
}

// ---- opening pairs, shards, void games ----

/// Every opening pair of a real match is counted once from each side: the pentanomial of the
/// first engine is made of the pairs of its games (same opening, colours reversed), and the
/// second engine's is its mirror.
#[test]
fn a_match_counts_its_opening_pairs() {
    let summary = play_magus_pair(
        "300",
        &[
            "--rounds",
            "3",
            "--random-plies",
            "6",
            "--seed",
            "21",
            "--max-plies",
            "100",
        ],
    );
    assert_eq!(summary.games.len(), 6);
    let mut expected = Pentanomial::default();
    for opening in 0..3 {
        let pair: Vec<&GameRecord> = summary
            .games
            .iter()
            .filter(|g| g.opening == opening)
            .collect();
        assert_eq!(pair.len(), 2, "opening {opening}");
        assert_ne!(pair[0].white, pair[1].white, "colours reversed");
        let half = |g: &GameRecord| -> u8 {
            let a_white = g.white == 0;
            match (g.result, a_white) {
                (GameResult::Draw, _) => 1,
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 2,
                _ => 0,
            }
        };
        expected.add_pair(half(pair[0]), half(pair[1]));
    }
    assert_eq!(summary.pentanomial[0], expected);
    assert_eq!(summary.pentanomial[1], expected.mirrored());
    assert_eq!(summary.pentanomial[0].pairs(), 3);
}

/// Shards deal out the opening pairs of the whole schedule in turn: together they hold every
/// game once, each keeps both games of its openings, and game numbers stay the match's.
#[test]
fn shards_split_a_match_by_opening_pairs() {
    let all = schedule(2, 2, 7);
    let shards: Vec<Vec<Job>> = (1..=3).map(|k| shard(&all, k, 3)).collect();
    let numbers = |jobs: &[Job]| jobs.iter().map(|j| j.number).collect::<Vec<_>>();
    assert_eq!(numbers(&shards[0]), [1, 2, 7, 8, 13, 14]);
    assert_eq!(numbers(&shards[1]), [3, 4, 9, 10]);
    assert_eq!(numbers(&shards[2]), [5, 6, 11, 12]);
    let mut every: Vec<usize> = shards.iter().flat_map(|s| numbers(s)).collect();
    every.sort();
    assert_eq!(every, (1..=14).collect::<Vec<_>>());
    // A round robin: each engine pair's openings are dealt too, never split.
    let rr = schedule(3, 2, 2);
    for k in 1..=4 {
        let part = shard(&rr, k, 4);
        for j in &part {
            let mates = part
                .iter()
                .filter(|o| o.opening == j.opening && o.white == j.black && o.black == j.white)
                .count();
            assert_eq!(mates, 1, "job {} has its pair in shard {k}", j.number);
        }
    }
    assert_eq!(shard(&all, 1, 1).len(), all.len());
}

/// RULES.md §2.3: only an unmoved pawn has a longer first step, and a pawn on e3 (not one of
/// the d3/g3 pawns) has moved. Fairy-Stockfish decides by the region instead and now and then
/// plays such a double step; the fake engine plays it at its first move (e3e5 as White, e8e6
/// as Black). By default each is a loss for the offender; with `--void-illegal` the games stay
/// in the record but leave the score, the pairs and the SPRT.
#[test]
fn illegal_double_steps_lose_or_are_void() {
    let dir = std::env::temp_dir().join(format!("magus-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("moved-e-pawns.epd");
    std::fs::write(
        &epd,
        "rnbcqkwbnr/pppp1ppppp/d2pp1p2d/10/10/10/10/D2PP1P2D/PPPP1PPPPP/RNBCQKWBNR w KQkq - 0 1\n",
    )
    .unwrap();
    let fsf = format!(
        "name=fsf,cmd=python3 {} double-step 1 {MAGUS}",
        fake("faulty_uci.py").display()
    );
    let magus = magus_engine("magus");
    let run_with = |extra: &[&str]| {
        let mut words = vec![
            "--variant",
            "magi",
            "--engine",
            &fsf,
            "--engine",
            &magus,
            "--nodes",
            "200",
            "--openings",
            epd.to_str().unwrap(),
            "--sprt",
            "elo0=0,elo1=10",
        ];
        words.extend_from_slice(extra);
        play(&words)
    };
    let counted = run_with(&[]);
    assert_eq!(counted.games.len(), 2);
    for g in &counted.games {
        assert_eq!(g.termination, "illegal move", "{}", g.detail);
        let double_step = if g.white_name == "fsf" {
            "e3e5"
        } else {
            "e8e6"
        };
        assert!(g.detail.contains(double_step), "{}", g.detail);
    }
    assert_eq!(counted.results[0].losses, 2, "a loss for the offender");
    assert_eq!(counted.results[1].wins, 2);
    assert_eq!(counted.illegal_losses, vec![2, 0]);
    assert_eq!(counted.void, vec![0, 0]);
    assert_eq!(counted.pentanomial[0].counts(), [1, 0, 0, 0, 0]);
    assert!(
        counted.sprt.unwrap().0 < 0.0,
        "the losses count against fsf"
    );

    let voided = run_with(&["--void-illegal", "fsf"]);
    assert_eq!(voided.games.len(), 2, "the games are still recorded");
    assert_eq!(voided.results[0].games() + voided.results[1].games(), 0);
    assert_eq!(voided.illegal_losses, vec![2, 0]);
    assert_eq!(voided.void, vec![2, 0]);
    assert_eq!(voided.pentanomial[0].pairs(), 0);
    assert_eq!(voided.sprt.unwrap().0, 0.0, "no counted game, no evidence");
}

/// On a board of eleven ranks XBoard counts ranks from 1 (only a ten-rank board starts at
/// 0): magus speaking XBoard and the referee's XBoard client follow the one convention, so a
/// game between two magus XBoard engines on an 8x11 board from a file plays to its end with
/// no move refused.
#[test]
fn xboard_engines_agree_on_an_eleven_rank_board() {
    let dir = folder_with_chess_edited("tall", "tall.toml", |chess| {
        chess
            .replacen("name = \"chess\"", "name = \"tall-chess\"", 1)
            .replacen("ranks = 8", "ranks = 11", 1)
            .replacen(
                "start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"",
                "start = \"rnbqkbnr/pppppppp/8/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"",
                1,
            )
            .replacen("promotion_ranks = [8]", "promotion_ranks = [11]", 1)
    });
    assert_eq!(magus::protocol::xboard::first_rank(11), 1);
    assert_eq!(magus::protocol::xboard::first_rank(10), 0);
    let (_, text) = match_from_folder(
        &dir,
        "tall-xboard",
        "tall-chess",
        [
            "name=a,proto=xboard,arg=xboard",
            "name=b,proto=xboard,arg=xboard",
        ],
        &["--depth", "3", "--max-plies", "40"],
    );
    assert!(text.contains("[Variant \"tall-chess\"]"), "{text}");
    for bad in [
        "illegal move",
        "unparseable move",
        "protocol error",
        "crash",
        "stalled",
    ] {
        assert!(!text.contains(bad), "{bad} in {text}");
    }
    // Black's moves start on ranks 10 and 11, which the other convention would misread.
    assert!(
        text.contains("max length") || text.contains("checkmate"),
        "{text}"
    );
}
