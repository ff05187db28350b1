//! The `magus` command line. Without a command it speaks UCI or XBoard on standard input and
//! output, whichever the first command (`uci` or `xboard`) asks for; at a terminal it first
//! says who it is and how to get help.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use magus::game::{AnyPosition, check_variant};
use magus::protocol::Session;
use magus::protocol::input::Lines;
use magus::protocol::uci::{Output, UciSession};
use magus::protocol::xboard::XboardSession;
use magus::variant::Registry;

#[derive(Parser)]
#[command(
    name = "magus",
    version,
    about = "A chess-variant engine for the magician variants and orthodox chess"
)]
struct Cli {
    /// Extra variants: a folder of definition files (*.toml), or one file (magus TOML, or
    /// Fairy-Stockfish variants.ini, whose sections magus cannot read are listed and skipped).
    #[arg(long, global = true, value_name = "PATH")]
    variant_path: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on standard input and output.
    Uci,
    /// Speak the XBoard / WinBoard protocol (CECP) on standard input and output.
    Xboard,
    /// Count the leaf nodes of the move tree (a move-generator check and benchmark).
    Perft {
        /// The variant (see `magus variants`).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// How many plies deep.
        #[arg(long)]
        depth: u32,
        /// Start from this position instead of the variant's start.
        #[arg(long)]
        fen: Option<String>,
        /// Show the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// List the variants with their board size and source file.
    Variants,
    /// Search a fixed set of positions of every variant: prints the node-count signature
    /// and the speed.
    Bench {
        /// Search depth.
        #[arg(default_value_t = magus::search::bench::DEFAULT_DEPTH)]
        depth: i32,
        /// Search threads.
        #[arg(default_value_t = 1)]
        threads: usize,
        /// Only the positions of this variant (the signature is that of the whole set).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Analyse a position: a board diagram, then one line per iteration.
    Analyze(AnalyzeArgs),
    /// Print the rules of a variant.
    Rules {
        /// The variant (see `magus variants`).
        variant: String,
    },
    /// Draw a position as an SVG picture (the last of the moves is highlighted).
    Diagram {
        #[command(flatten)]
        position: PositionArgs,
        /// Draw the variant's pieces (each in both colours, with its letter and name)
        /// instead of a position.
        #[arg(long, conflicts_with_all = ["fen", "moves"])]
        pieces: bool,
        /// Where to write the picture ('-' for standard output). Without it the picture goes
        /// to standard output unless that is a terminal.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    Match(Box<magus::tournament::cli::MatchArgs>),
    /// Self-play for tuning: quiet positions with the search's score and the game's result.
    Datagen(Box<magus::tune::cli::DatagenArgs>),
    /// Score a data file's positions again with another engine (UCI), for tuning.
    Label(Box<magus::tune::cli::LabelArgs>),
    /// Fit a variant's evaluation weights to self-play games (Texel tuning).
    Tune(Box<magus::tune::cli::TuneArgs>),
    /// Train a net for a variant's learned evaluation (NNUE) from self-play games.
    Train(Box<magus::tune::train::cli::TrainArgs>),
    /// Play a game against the engine in the terminal, moves in SAN; the game is saved as PGN.
    Play(Box<magus::play::PlayArgs>),
    /// Check every move of the games of a PGN file; report the first illegal one.
    Replay {
        /// The PGN file.
        file: PathBuf,
    },
    /// Play and analyse in a web browser: serves a board for every variant on 127.0.0.1.
    Gui {
        /// The port to listen on (0: any free port). Default: 8117, or any free port if it is
        /// taken.
        #[arg(long)]
        port: Option<u16>,
        /// Only print the address; do not open a browser.
        #[arg(long)]
        no_browser: bool,
        /// The folder games are kept in. Default: $MAGUS_GUI_GAMES, else the user's data
        /// folder (~/.local/share/magus/games).
        #[arg(long, value_name = "DIR")]
        games: Option<PathBuf>,
    },
}

/// A position named on the command line: a variant, its start or a FEN, and moves after it.
#[derive(clap::Args)]
struct PositionArgs {
    /// The variant (see `magus variants`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, in SAN (Nf3, Bc1=M, Ke4/N@c5 ...) or coordinates (e2e4 ...).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
}

impl PositionArgs {
    /// The game from the start or `--fen` through `--moves`, every move checked.
    fn game(&self, registry: &Registry) -> Result<magus::game::Game, String> {
        let variant = find_variant(registry, &self.variant)?;
        let start = AnyPosition::from_fen(variant, self.fen.as_deref())
            .map_err(|e| format!("--fen: {e}"))?;
        let mut game = magus::game::Game::new(start);
        for (i, text) in self.moves.iter().enumerate() {
            let (_, m) = game
                .position()
                .after_san(text)
                .map_err(|e| format!("--moves: move {} '{text}': {e}", i + 1))?;
            game.play(m)
                .map_err(|e| format!("--moves: move {} '{text}': {e}", i + 1))?;
        }
        Ok(game)
    }
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Analyse the final position of the first game of this PGN file (its Variant tag decides
    /// the variant; every move is checked).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "moves"])]
    pgn: Option<PathBuf>,
    /// Stop at this depth.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    depth: Option<i32>,
    /// Think this many milliseconds (default 5000 when neither depth nor nodes is given).
    #[arg(long)]
    movetime: Option<u64>,
    /// Stop after this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Show this many best lines.
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let mut registry = Registry::builtin();
    // A variant file that cannot be loaded is refused alone: the command goes on with the
    // others, and says what was refused (in its protocol's form in a protocol session).
    let problems = match &cli.variant_path {
        Some(path) => load_variant_path(&mut registry, path),
        None => Vec::new(),
    };
    let protocol = matches!(
        cli.command,
        None | Some(Command::Uci) | Some(Command::Xboard)
    );
    if !protocol {
        for p in &problems {
            eprintln!("warning: --variant-path: {p}");
        }
    }
    if matches!(
        cli.command,
        Some(
            Command::Perft { .. }
                | Command::Bench { .. }
                | Command::Analyze(_)
                | Command::Rules { .. }
                | Command::Variants
        )
    ) {
        end_quietly_on_a_closed_pipe();
    }
    let result = match cli.command {
        None => {
            run_detected(registry, &problems);
            Ok(())
        }
        Some(Command::Uci) => {
            speak(UciSession::new, registry, None, stdin_lines(), &problems);
            Ok(())
        }
        Some(Command::Xboard) => {
            speak(XboardSession::new, registry, None, stdin_lines(), &problems);
            Ok(())
        }
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
        }) => perft(&registry, &variant, depth, fen.as_deref(), divide),
        Some(Command::Bench {
            depth,
            threads,
            variant,
        }) => bench(depth, threads, variant.as_deref()),
        Some(Command::Analyze(args)) => analyze(&registry, &args),
        Some(Command::Rules { variant }) => find_variant(&registry, &variant).map(|v| {
            println!("{} ({}x{}, {})", v.title, v.files, v.ranks, v.source);
            println!();
            println!("{}", v.summary);
            println!();
            println!("Start: {}", v.start_fen);
            println!("Pieces:");
            for p in &v.pieces {
                println!(
                    "  {}  {:<16} {:<14} {:>5}",
                    p.letter, p.name, p.betza, p.value
                );
            }
        }),
        Some(Command::Diagram {
            position,
            pieces,
            output,
        }) => diagram(&registry, &position, pieces, output.as_deref()),
        Some(Command::Match(args)) => {
            match magus::tournament::cli::run_match(&args, &registry, cli.variant_path.as_deref()) {
                // An interrupted match has printed its table and ends with its own status.
                Ok(code) => return code,
                Err(e) => Err(e),
            }
        }
        Some(Command::Datagen(args)) => match magus::tune::cli::run_datagen(&args, &registry) {
            // Stopped by a signal before its games were played: status 130, as a match.
            Ok(code) => return code,
            Err(e) => Err(e),
        },
        Some(Command::Label(args)) => magus::tune::cli::run_label(&args, &registry),
        Some(Command::Tune(args)) => magus::tune::cli::run_tune(&args, &registry),
        Some(Command::Train(args)) => magus::tune::train::cli::run_train(&args, &registry),
        Some(Command::Replay { file }) => magus::tournament::cli::run_replay(&file, &registry),
        Some(Command::Gui {
            port,
            no_browser,
            games,
        }) => magus::gui::run(
            registry,
            &magus::gui::Options {
                port,
                open_browser: !no_browser,
                games,
            },
        ),
        Some(Command::Play(args)) => {
            let mut input = std::io::stdin().lock();
            let mut output = std::io::stdout().lock();
            magus::play::run(&args, &registry, &mut input, &mut output)
        }
        Some(Command::Variants) => {
            for v in registry.all() {
                println!(
                    "{:<20} {:>2}x{:<2}  {:<28} {}",
                    v.name, v.files, v.ranks, v.title, v.source
                );
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Lets a write to a pipe whose reader went away (`magus perft … | head -2`) end the process
/// as it ends any Unix tool that prints, killed by SIGPIPE (status 141), instead of failing
/// the write, which `println!` turns into a panic, in whichever thread prints. Only for the
/// commands that just print: the protocols, `match`, `replay` and `play` handle the error.
fn end_quietly_on_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: signal(2) with constant arguments, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Loads `--variant-path` (a folder of TOML files, or one file) and returns what it refused:
/// each problem of a refused definition, and a line naming the refused variants. A path that
/// cannot be read loads nothing; either way the built-in variants and every good definition
/// are there.
fn load_variant_path(registry: &mut Registry, path: &std::path::Path) -> Vec<String> {
    let definitions = match registry.load_path(path, &check_variant) {
        Ok(d) => d,
        Err(e) => return vec![format!("{e}; no variant loaded from it")],
    };
    let mut problems = Vec::new();
    let mut refused = Vec::new();
    for d in &definitions {
        if let Err(list) = &d.outcome {
            problems.extend(list.iter().map(|p| p.to_string()));
            refused.push(if d.name.is_empty() { "?" } else { &d.name });
        }
    }
    if !refused.is_empty() {
        let loaded = definitions.len() - refused.len();
        problems.push(format!(
            "{}: refused {} (not loaded); {loaded} other definition{} loaded",
            path.display(),
            refused.join(" "),
            if loaded == 1 { "" } else { "s" }
        ));
    }
    problems
}

fn find_variant(
    registry: &Registry,
    name: &str,
) -> Result<&'static magus::variant::Variant, String> {
    registry.find(name).map_err(|e| format!("--variant: {e}"))
}

fn perft(
    registry: &Registry,
    variant: &str,
    depth: u32,
    fen: Option<&str>,
    divide: bool,
) -> Result<(), String> {
    let variant = find_variant(registry, variant)?;
    if !(1..=20).contains(&depth) {
        return Err(format!("--depth: {depth} is not from 1 to 20"));
    }
    let pos = AnyPosition::from_fen(variant, fen)
        .map_err(|e| format!("--fen '{}': {e}", fen.unwrap_or_default()))?;
    let start = Instant::now();
    // Progress on a terminal for long runs; nothing extra when the output is read by a program.
    let show_progress = std::io::stderr().is_terminal() && depth >= 5;
    let nodes = pos.divide_each(depth, |i, n, m, count| {
        if divide {
            println!("{m}: {count}");
        }
        if show_progress {
            eprint!("\r{i}/{n} root moves done ({m})        ");
            if i == n {
                eprint!("\r{}\r", " ".repeat(48));
            }
        }
    });
    if divide {
        println!();
    }
    let elapsed = start.elapsed();
    println!("Nodes searched: {nodes}");
    if std::io::stdout().is_terminal() || std::env::var_os("MAGUS_TIMING").is_some() {
        let ms = elapsed.as_secs_f64() * 1000.0;
        println!("Time (ms): {ms:.0}");
        println!(
            "Nodes/second: {:.0}",
            nodes as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
    Ok(())
}

/// `magus diagram`: the variant's pieces, or the position with its last move highlighted.
fn diagram(
    registry: &Registry,
    position: &PositionArgs,
    pieces: bool,
    output: Option<&std::path::Path>,
) -> Result<(), String> {
    let svg = if pieces {
        magus::diagram::svg::piece_set(find_variant(registry, &position.variant)?)
    } else {
        let game = position.game(registry)?;
        // The highlighted move belongs to the position before it; only its squares are
        // drawn.
        let last = game.moves().last().copied();
        magus::with_position!(game.position(), p => magus::diagram::svg::render(p, last))
    };
    // SVG is XML, of no use on a screen: say how to get the picture instead.
    if output.is_none() && std::io::stdout().is_terminal() {
        return Err(
            "diagram: not writing SVG (XML) to a terminal; give -o FILE (e.g. -o board.svg), \
             redirect standard output (> board.svg), or -o - to print it anyway"
                .into(),
        );
    }
    match output {
        Some(path) if path.as_os_str() != "-" => {
            std::fs::write(path, svg).map_err(|e| format!("--output {}: {e}", path.display()))
        }
        _ => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(svg.as_bytes())
                .and_then(|()| stdout.flush())
            {
                // A reader that stopped reading (`| head`) has all it wanted.
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    Err(format!("standard output: {e}"))
                }
                _ => Ok(()),
            }
        }
    }
}

fn bench(depth: i32, threads: usize, variant: Option<&str>) -> Result<(), String> {
    if !(1..=64).contains(&depth) {
        return Err(format!("bench depth: {depth} is not from 1 to 64"));
    }
    if !(1..=1024).contains(&threads) {
        return Err(format!("bench threads: {threads} is not from 1 to 1024"));
    }
    let count = magus::search::bench::POSITIONS.len();
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let result =
        magus::search::bench::run(depth, threads, variant, &cancel, |i, name, nodes, time| {
            eprintln!(
                "Position {i:>2}/{count} {name:<18} {nodes:>10} nodes {:>7} ms",
                time.as_millis()
            );
        })?;
    let ms = result.time.as_millis().max(1);
    println!("===========================");
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {}", result.nodes);
    println!("Nodes/second    : {}", result.nodes as u128 * 1000 / ms);
    Ok(())
}

fn analyze(registry: &Registry, args: &AnalyzeArgs) -> Result<(), String> {
    use magus::search::engine::Engine;
    use magus::search::time::Limits;

    let game = match &args.pgn {
        Some(path) => {
            let shown = path.display();
            let text = std::fs::read_to_string(path).map_err(|e| format!("--pgn {shown}: {e}"))?;
            let games = magus::pgn::read_all(&text).map_err(|e| format!("--pgn {shown}: {e}"))?;
            let first = games
                .first()
                .ok_or_else(|| format!("--pgn {shown}: no game in it"))?;
            magus::pgn::replay(first, registry)
                .map_err(|e| format!("--pgn {shown}: {e}"))?
                .game
        }
        None => args.position.game(registry)?,
    };
    if !(1..=256).contains(&args.multipv) {
        return Err(format!("--multipv: {} is not from 1 to 256", args.multipv));
    }
    if !(1..=1024).contains(&args.threads) {
        return Err(format!("--threads: {} is not from 1 to 1024", args.threads));
    }
    let positive = |flag: &str, n: u64| {
        if n == 0 {
            Err(format!(
                "{flag}: 0 leaves nothing to search; give 1 or more"
            ))
        } else {
            Ok(())
        }
    };
    if let Some(d) = args.depth
        && d < 1
    {
        return Err(format!(
            "--depth: {d} leaves nothing to search; give 1 or more"
        ));
    }
    if let Some(n) = args.nodes {
        positive("--nodes", n)?;
    }
    if let Some(ms) = args.movetime {
        positive("--movetime", ms)?;
    }
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        ..Limits::default()
    };
    if args.depth.is_none() && args.nodes.is_none() || args.movetime.is_some() {
        limits.movetime = Some(std::time::Duration::from_millis(
            args.movetime.unwrap_or(5000),
        ));
    }
    let engine = Engine::with_hash(1);
    engine
        .set_hash(args.hash)
        .map_err(|e| format!("--hash: {e}"))?;
    engine.set_options(|o| {
        o.threads = args.threads;
        o.multipv = args.multipv;
    });
    let pos = *game.position();
    print!("{}", magus::diagram::text_board(&pos));
    println!(
        "{} to move   FEN {}",
        if pos.to_fen().split(' ').nth(1) == Some("w") {
            "White"
        } else {
            "Black"
        },
        pos.to_fen()
    );
    let multipv = args.multipv;
    let report = move |r: &magus::search::Report| {
        let score = match r.score {
            magus::search::Score::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
            magus::search::Score::Mate(m) => format!("#{m}"),
        };
        let pv = pos.line_san(&r.pv);
        let secs = r.time.as_secs_f64().max(1e-6);
        let bound = match r.bound {
            Some(true) => " (lower bound)",
            Some(false) => " (upper bound)",
            None => "",
        };
        let k = if multipv > 1 {
            format!(" [{}]", r.multipv)
        } else {
            String::new()
        };
        println!(
            "depth {:>2}/{:<2}{k} score {score:>7}{bound} nodes {:>10} nps {:>8.0}  {}",
            r.depth,
            r.seldepth,
            r.nodes,
            r.nodes as f64 / secs,
            pv.join(" ")
        );
    };
    let result = engine.search(&game, limits, Box::new(report));
    if result.best.is_null() {
        println!("no legal move");
    } else {
        println!("best move {}", pos.san(result.best));
    }
    Ok(())
}

fn stdout_output() -> Output {
    std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()))
}

/// What magus says at a terminal before the first command (a GUI's pipe gets nothing).
fn greet(comment: &str) {
    use std::io::Write;
    if std::io::stdin().is_terminal() {
        // A closed output is found by the session's first answer, which ends quietly.
        let _ = writeln!(
            std::io::stdout(),
            "{comment}{} (UCI and XBoard chess-variant engine). Type 'help' for the commands, \
             'quit' to leave; 'magus play --variant NAME' plays a game here, 'magus --help' \
             lists the rest.",
            magus::protocol::uci::ENGINE_NAME
        );
    }
}

/// Reads the first command and speaks the protocol it belongs to: `xboard` starts an XBoard
/// session, anything else (normally `uci`) a UCI session.
fn run_detected(registry: Registry, problems: &[String]) {
    greet("");
    let mut input = stdin_lines();
    let first = loop {
        match input.next_line() {
            None => return,
            Some(line) if line.trim().is_empty() => continue,
            Some(line) => break line,
        }
    };
    if first.split_whitespace().next() == Some("xboard") {
        speak(XboardSession::new, registry, Some(&first), input, problems);
    } else {
        speak(UciSession::new, registry, Some(&first), input, problems);
    }
}

fn stdin_lines() -> Lines<std::io::StdinLock<'static>> {
    Lines::new(std::io::stdin().lock())
}

/// Runs a protocol session on standard output, made by `new`: the greeting (unless the first
/// line was read already, in which case `run_detected` greeted), the variant files it could
/// not load, the line already read, then every line of `input`.
fn speak<S: Session>(
    new: fn(Registry, Output) -> S,
    registry: Registry,
    first: Option<&str>,
    input: Lines<impl std::io::BufRead>,
    problems: &[String],
) {
    let mut session = new(registry, stdout_output());
    if first.is_none() {
        greet(S::COMMENT);
    }
    for p in problems {
        session.note_problem(&format!("--variant-path: {p}"));
    }
    serve(first, input, &mut session);
}

/// Feeds a protocol session the line already read, then its input, until it says stop. At
/// the end of the input, the session finishes what it was asked and ends as on `quit`.
fn serve<S: Session>(
    first: Option<&str>,
    mut input: Lines<impl std::io::BufRead>,
    session: &mut S,
) {
    if let Some(line) = first
        && !session.handle_line(line)
    {
        return;
    }
    while let Some(line) = input.next_line() {
        if !session.handle_line(&line) {
            return;
        }
    }
    session.end_of_input();
}
