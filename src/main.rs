//! The `magus` command line. Without a command it speaks UCI on standard input and output,
//! as GUIs expect.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use magus::game::{AnyPosition, check_variant};
use magus::protocol::uci::UciSession;
use magus::variant::Registry;

#[derive(Parser)]
#[command(
    name = "magus",
    version,
    about = "A chess-variant engine for the magician variants and orthodox chess"
)]
struct Cli {
    /// A folder of extra variant definition files (*.toml) to load.
    #[arg(long, global = true, value_name = "DIR")]
    variant_path: Option<PathBuf>,

    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on standard input and output (the default).
    Uci,
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
    },
    /// Analyse a position: a board diagram, then one line per iteration.
    Analyze(AnalyzeArgs),
    /// Print the rules of a variant.
    Rules {
        /// The variant (see `magus variants`).
        variant: String,
    },
    /// Draw a position as an SVG picture.
    Diagram {
        /// The variant (see `magus variants`).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// The position (default: the variant's start).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in coordinate notation or SAN; the last one is highlighted.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Where to write the picture ('-' for standard output).
        #[arg(short, long, default_value = "-")]
        output: PathBuf,
    },
}

#[derive(clap::Args)]
struct AnalyzeArgs {
    /// The variant (see `magus variants`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Start from this position instead of the variant's start.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, in coordinate notation (e2e4 ...).
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
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
    if let Some(dir) = &cli.variant_path {
        if let Err(e) = registry.load_dir(dir, check_variant) {
            eprintln!("error: --variant-path: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command.unwrap_or(Command::Uci) {
        Command::Uci => {
            run_uci(registry);
            Ok(())
        }
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
        } => perft(&registry, &variant, depth, fen.as_deref(), divide),
        Command::Bench { depth, threads } => bench(depth, threads),
        Command::Analyze(args) => analyze(&registry, &args),
        Command::Rules { variant } => find_variant(&registry, &variant).map(|v| {
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
        Command::Diagram {
            variant,
            fen,
            moves,
            output,
        } => diagram(&registry, &variant, fen.as_deref(), &moves, &output),
        Command::Variants => {
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

fn find_variant(
    registry: &Registry,
    name: &str,
) -> Result<&'static magus::variant::Variant, String> {
    registry.get(name).ok_or_else(|| {
        format!(
            "--variant: unknown variant '{name}' (known: {})",
            registry.names().join(", ")
        )
    })
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
    let pos = AnyPosition::from_fen(variant, fen).map_err(|e| format!("--fen: {e}"))?;
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in pos.divide(depth) {
            println!("{m}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        pos.perft(depth)
    };
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

fn diagram(
    registry: &Registry,
    variant: &str,
    fen: Option<&str>,
    moves: &[String],
    output: &std::path::Path,
) -> Result<(), String> {
    let variant = find_variant(registry, variant)?;
    let mut pos = AnyPosition::from_fen(variant, fen).map_err(|e| format!("--fen: {e}"))?;
    let mut last = None;
    for (i, text) in moves.iter().enumerate() {
        let (next, m) = pos
            .after_san(text)
            .map_err(|e| format!("--moves: move {} '{text}': {e}", i + 1))?;
        pos = next;
        last = Some(m);
    }
    // The highlighted move belongs to the position before it; only its squares are drawn.
    let svg = magus::with_position!(&pos, p => magus::diagram::svg::render(p, last));
    if output.as_os_str() == "-" {
        print!("{svg}");
        Ok(())
    } else {
        std::fs::write(output, svg).map_err(|e| format!("--output {}: {e}", output.display()))
    }
}

fn bench(depth: i32, threads: usize) -> Result<(), String> {
    if !(1..=64).contains(&depth) {
        return Err(format!("bench depth: {depth} is not from 1 to 64"));
    }
    if !(1..=1024).contains(&threads) {
        return Err(format!("bench threads: {threads} is not from 1 to 1024"));
    }
    let verbose = std::io::stderr().is_terminal();
    let result = magus::search::bench::run(depth, threads, |i, name, nodes| {
        if verbose {
            eprintln!("position {i:>2} {name:<18} {nodes:>12} nodes");
        }
    })?;
    let ms = result.time.as_millis().max(1);
    println!("===========================");
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {}", result.nodes);
    println!("Nodes/second    : {}", result.nodes as u128 * 1000 / ms);
    Ok(())
}

fn analyze(registry: &Registry, args: &AnalyzeArgs) -> Result<(), String> {
    use magus::search::time::Limits;
    use magus::search::tt::TranspositionTable;
    use magus::search::{SearchControl, SearchOptions, think};

    let variant = find_variant(registry, &args.variant)?;
    let start =
        AnyPosition::from_fen(variant, args.fen.as_deref()).map_err(|e| format!("--fen: {e}"))?;
    let moves: Vec<&str> = args.moves.iter().map(String::as_str).collect();
    let game =
        magus::game::Game::from_moves(start, &moves, 1).map_err(|e| format!("--moves: {e}"))?;
    if !(1..=256).contains(&args.multipv) {
        return Err(format!("--multipv: {} is not from 1 to 256", args.multipv));
    }
    if !(1..=1024).contains(&args.threads) {
        return Err(format!("--threads: {} is not from 1 to 1024", args.threads));
    }
    let tt = TranspositionTable::new(args.hash).map_err(|e| format!("--hash: {e}"))?;
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
    let options = SearchOptions {
        threads: args.threads,
        multipv: args.multipv,
        ..SearchOptions::default()
    };
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
    let control = SearchControl::default();
    let history = &game.hashes()[..game.hashes().len() - 1];
    let result = magus::with_position!(&pos, p => {
        let report = |r: &magus::search::Report| {
            let score = match r.score {
                magus::search::Score::Centipawns(cp) => format!("{:+.2}", cp as f64 / 100.0),
                magus::search::Score::Mate(m) => format!("#{m}"),
            };
            let pv = pos.line_san(&r.pv);
            let secs = r.time.as_secs_f64().max(1e-6);
            let bound = match r.bound { Some(true) => " (lower bound)", Some(false) => " (upper bound)", None => "" };
            let k = if args.multipv > 1 { format!(" [{}]", r.multipv) } else { String::new() };
            println!("depth {:>2}/{:<2}{k} score {score:>7}{bound} nodes {:>10} nps {:>8.0}  {}", r.depth, r.seldepth, r.nodes, r.nodes as f64 / secs, pv.join(" "));
        };
        think(p, history, &limits, &options, &tt, &control, &report)
    });
    if result.best.is_null() {
        println!("no legal move");
    } else {
        let best =
            magus::with_position!(&pos, p => magus::protocol::notation::to_wire(p, result.best, 1));
        println!("best move {best}");
    }
    Ok(())
}

fn run_uci(registry: Registry) {
    let out: magus::protocol::uci::Output =
        std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
    let mut session = UciSession::new(registry, out);
    let mut input = std::io::stdin().lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        // Lines are read as bytes: one that is not UTF-8 is answered like any other bad
        // line (its bad bytes read as U+FFFD), and the engine goes on.
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !session.handle_line(&String::from_utf8_lossy(&bytes)) {
            return;
        }
    }
    // The input is closed: stop a running search and end as on `quit`.
    session.handle_line("quit");
}
