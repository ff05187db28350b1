//! Pondering, ponder hits, `stop` and `go` sent to the real binary in every order and at every
//! spacing: in one write, microseconds apart, milliseconds apart, and with every core kept busy.
//! Every search must end in a legal best move within its clock and a margin, and the worst
//! delays are printed (`cargo test --release --test ponder_stress -- --nocapture`), the
//! figures of the README's reliability section.
//!
//! `MAGUS_STRESS_ROUNDS` multiplies the number of rounds (default 1: about 2,200 UCI searches and 360 XBoard replies).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use magus::game::AnyPosition;
use magus::variant::Registry;

const MAGUS: &str = env!("CARGO_BIN_EXE_magus");

/// How long past its clock a search may take to answer. Generous: the test machine may be
/// loaded by the test's own busy threads and by the other tests.
const MARGIN: Duration = Duration::from_millis(1500);

fn rounds() -> usize {
    std::env::var("MAGUS_STRESS_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(Registry::builtin)
}

fn chess(fen: Option<&str>) -> AnyPosition {
    AnyPosition::from_fen(registry().get("chess").unwrap(), fen).unwrap()
}

/// The engine as a child process; its output lines arrive with the time they were read.
struct Magus {
    child: Child,
    input: ChildStdin,
    lines: Receiver<(Instant, String)>,
}

impl Magus {
    fn start(protocol: &str) -> Magus {
        let mut child = Command::new(MAGUS)
            .arg(protocol)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("magus starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        Magus {
            child,
            input,
            lines,
        }
    }

    /// Writes `text` in one write (several lines arrive together).
    fn send(&mut self, text: &str) -> Instant {
        self.input.write_all(text.as_bytes()).unwrap();
        self.input.flush().unwrap();
        Instant::now()
    }

    /// The first line starting with `prefix` (and the time it came), or a failure naming
    /// what was sent before it.
    fn expect(&self, prefix: &str, within: Duration, what: &str) -> (Instant, String) {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) if line.starts_with(prefix) => return (at, line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{prefix}` within {within:?} after {what}")
                }
                Err(RecvTimeoutError::Disconnected) => panic!("magus ended after {what}"),
            }
        }
    }

    /// Nothing but `isready`'s answer comes back: no stray best move is left in the pipe.
    fn settle(&mut self, what: &str) {
        self.send("isready\n");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((_, line)) if line == "readyok" => return,
                Ok((_, line)) => assert!(
                    !line.starts_with("bestmove"),
                    "a second bestmove after {what}: {line}"
                ),
                Err(_) => panic!("no readyok after {what}"),
            }
        }
    }
}

impl Drop for Magus {
    fn drop(&mut self) {
        let _ = self.input.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

/// Threads that keep every core busy while they live.
struct Load {
    running: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start() -> Load {
        let running = Arc::new(AtomicBool::new(true));
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let threads = (0..cores)
            .map(|_| {
                let running = running.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while running.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                        }
                        std::hint::black_box(x);
                    }
                })
            })
            .collect();
        Load { running, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.running.store(false, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The gaps tried between two orders; `None` sends both in the same write.
const SPACINGS: [Option<Duration>; 6] = [
    None,
    Some(Duration::ZERO),
    Some(Duration::from_micros(20)),
    Some(Duration::from_micros(200)),
    Some(Duration::from_millis(2)),
    Some(Duration::from_millis(20)),
];

/// What follows a `go ponder`.
#[derive(Clone, Copy, Debug)]
enum Order {
    Ponderhit,
    Stop,
    PonderhitThenStop,
    StopThenPonderhit,
}

const ORDERS: [Order; 4] = [
    Order::Ponderhit,
    Order::Stop,
    Order::PonderhitThenStop,
    Order::StopThenPonderhit,
];

/// Sends `first`, waits `gap`, sends `second` (in one write when `gap` is `None`); returns
/// when the last of them was written.
fn send_spaced(engine: &mut Magus, first: &str, second: &str, gap: Option<Duration>) -> Instant {
    match gap {
        None => engine.send(&format!("{first}{second}")),
        Some(gap) => {
            let at = engine.send(first);
            let until = at + gap;
            // A sleep cannot wait microseconds; spin for the short gaps.
            while Instant::now() < until {
                std::hint::spin_loop();
            }
            engine.send(second)
        }
    }
}

fn check_legal(fen_moves: &[&str], bestmove_line: &str, what: &str) {
    let mut pos = chess(None);
    for m in fen_moves {
        pos = pos.after_wire(m, 1).unwrap().0;
    }
    let best = bestmove_line.split_whitespace().nth(1).unwrap_or("");
    assert!(
        pos.legal_moves_wire(1).iter().any(|m| m == best),
        "{what}: `{bestmove_line}` is not a legal move"
    );
}

#[test]
fn uci_ponder_stop_and_go_in_every_order_and_spacing() {
    let mut engine = Magus::start("uci");
    engine.send("uci\nsetoption name Ponder value true\nisready\n");
    engine.expect("readyok", Duration::from_secs(10), "isready");
    // Black to move with 100 ms on the clock: a ponder hit must answer within the clock.
    let clock = Duration::from_millis(100);
    let mut worst_hit = Duration::ZERO;
    let mut worst_stop = Duration::ZERO;
    let mut searches = 0;
    for round in 0..2 * rounds() {
        let _load = (round % 2 == 1).then(Load::start);
        for order in ORDERS {
            for gap in SPACINGS {
                for _ in 0..45 {
                    let what = format!("go ponder, {order:?}, gap {gap:?}, load {}", round % 2);
                    engine.send("position startpos moves e2e4\n");
                    let go = "go ponder wtime 100 btime 100\n";
                    let sent_at = match order {
                        Order::Ponderhit => send_spaced(&mut engine, go, "ponderhit\n", gap),
                        Order::Stop => send_spaced(&mut engine, go, "stop\n", gap),
                        Order::PonderhitThenStop => {
                            send_spaced(&mut engine, go, "ponderhit\nstop\n", gap)
                        }
                        Order::StopThenPonderhit => {
                            send_spaced(&mut engine, go, "stop\nponderhit\n", gap)
                        }
                    };
                    let (at, line) = engine.expect("bestmove", clock + MARGIN, &what);
                    check_legal(&["e2e4"], &line, &what);
                    let delay = at.saturating_duration_since(sent_at);
                    match order {
                        Order::Ponderhit => worst_hit = worst_hit.max(delay),
                        _ => worst_stop = worst_stop.max(delay),
                    }
                    engine.settle(&what);
                    searches += 1;
                }
            }
        }
        // A plain go, stopped at once or not, between the ponder rounds.
        for gap in SPACINGS {
            let what = format!("go wtime, stop, gap {gap:?}");
            engine.send("position startpos\n");
            let sent_at = send_spaced(&mut engine, "go wtime 100 btime 100\n", "stop\n", gap);
            let (at, line) = engine.expect("bestmove", clock + MARGIN, &what);
            check_legal(&[], &line, &what);
            worst_stop = worst_stop.max(at.saturating_duration_since(sent_at));
            engine.settle(&what);
            searches += 1;
        }
    }
    println!(
        "uci: {searches} searches; worst ponderhit to bestmove {:.1} ms (100 ms clock), \
         worst stop to bestmove {:.1} ms",
        worst_hit.as_secs_f64() * 1e3,
        worst_stop.as_secs_f64() * 1e3
    );
}

/// XBoard: magus ponders on the reply it expects; the reply comes at once after its move, or
/// a little later, or another reply comes, with and without load. Every user move gets a move.
#[test]
fn xboard_ponder_hits_and_misses_at_every_spacing() {
    let mut engine = Magus::start("xboard");
    engine.send("xboard\nprotover 2\n");
    engine.expect("feature done=1", Duration::from_secs(10), "protover");
    let mut worst = Duration::ZERO;
    let mut replies = 0;
    for round in 0..2 * rounds() {
        let _load = (round % 2 == 1).then(Load::start);
        for (gap, hit) in SPACINGS
            .iter()
            .flat_map(|&gap| [(gap, true), (gap, false)])
            .cycle()
            .take(SPACINGS.len() * 2 * 5)
        {
            {
                let what = format!("xboard, hit {hit}, gap {gap:?}, load {}", round % 2);
                engine.send("new\nhard\npost\nlevel 0 0:01 0\ntime 100\notim 100\nusermove e2e4\n");
                let mut played = vec!["e2e4".to_string()];
                for _ in 0..3 {
                    // Its move, and the line it thinks will follow.
                    let mut expected = None;
                    let (_, line) = loop {
                        let (at, line) = engine.expect("", Duration::from_secs(5), &what);
                        if line.starts_with("move ") {
                            break (at, line);
                        }
                        let words: Vec<&str> = line.split_whitespace().collect();
                        if words.first().is_some_and(|w| w.parse::<i32>().is_ok()) {
                            expected = words.get(5).map(|s| s.to_string());
                        }
                    };
                    let reply = line[5..].trim().to_string();
                    let refs: Vec<&str> = played.iter().map(String::as_str).collect();
                    check_legal(&refs, &format!("bestmove {reply}"), &what);
                    played.push(reply);
                    // The person's reply: the expected one (a ponder hit) or another.
                    let refs: Vec<&str> = played.iter().map(String::as_str).collect();
                    let mut pos = chess(None);
                    for m in &refs {
                        pos = pos.after_wire(m, 1).unwrap().0;
                    }
                    let legal = pos.legal_moves_wire(1);
                    if legal.is_empty() {
                        break;
                    }
                    let ours = match expected.filter(|e| legal.contains(e)) {
                        Some(e) if hit => e,
                        Some(e) => legal.iter().find(|m| **m != e).unwrap_or(&e).clone(),
                        None => legal[0].clone(),
                    };
                    let sent_at = send_spaced(
                        &mut engine,
                        "time 100\notim 100\n",
                        &format!("usermove {ours}\n"),
                        gap,
                    );
                    played.push(ours);
                    // The next move must come within the engine's second and the margin.
                    let (at, line) = engine.expect("move ", Duration::from_secs(1) + MARGIN, &what);
                    worst = worst.max(at.saturating_duration_since(sent_at));
                    let reply = line[5..].trim().to_string();
                    let refs: Vec<&str> = played.iter().map(String::as_str).collect();
                    check_legal(&refs, &format!("bestmove {reply}"), &what);
                    played.push(reply);
                    replies += 1;
                    // Continue the game from the engine's move: the next loop turn reads no
                    // further move, so play one more of ours first.
                    let refs: Vec<&str> = played.iter().map(String::as_str).collect();
                    let mut pos = chess(None);
                    for m in &refs {
                        pos = pos.after_wire(m, 1).unwrap().0;
                    }
                    let Some(next) = pos.legal_moves_wire(1).into_iter().next() else {
                        break;
                    };
                    engine.send(&format!("time 100\notim 100\nusermove {next}\n"));
                    played.push(next);
                }
                engine.send("force\nping 1\n");
                engine.expect("pong 1", Duration::from_secs(5), &what);
            }
        }
    }
    println!(
        "xboard: {replies} replies to a user move; worst user move to move {:.1} ms (1 s clock)",
        worst.as_secs_f64() * 1e3
    );
}
