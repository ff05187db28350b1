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
    let pos = AnyPosition::from_fen(variant, fen)
        .map_err(|e| format!("--fen '{}': {e}", fen.unwrap_or_default()))?;
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

fn run_uci(registry: Registry) {
    let mut session = UciSession::new(registry, std::io::stdout());
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !session.handle_line(&line) {
            break;
        }
    }
}
