//! What one `load`, `check` or `VariantPath` may cost (docs/variant-files.md, "Limits"):
//! memory that stays flat when the same definition comes again, refusals that name the limit
//! and come fast, messages that quote a huge input line as an excerpt only, and only what
//! changed announced after a load.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use magus::protocol::Session;
use magus::protocol::uci::UciSession;
use magus::protocol::xboard::XboardSession;
use magus::variant::Registry;
use magus::variant::limits::{
    MAX_DEFINITION_BYTES, MAX_INHERITANCE_DEPTH, MAX_KEPT_VARIANTS, MAX_LINE_CHARS, MAX_SECTIONS,
};

const ELEPHANTS: &str = include_str!("data/elephants.toml");
const MAGI: &str = include_str!("../variants/magi.toml");

/// What a command within the limits, or one refused for a limit, may take here. The aim is
/// well under 100 ms; the bound leaves room for a machine shared with other builds.
const FAST: Duration = Duration::from_millis(1500);

type Uci = common::Transcript<UciSession>;

fn uci() -> Uci {
    common::Transcript::new(|out| UciSession::new(Registry::builtin(), out))
}

/// Feeds the lines and returns their output and how long they took.
fn timed<S: Session>(t: &mut common::Transcript<S>, lines: &str) -> (Vec<String>, Duration) {
    let start = Instant::now();
    t.feed(lines);
    (t.since_mark(), start.elapsed())
}

fn has(lines: &[String], facts: &[&str]) -> bool {
    lines.iter().any(|l| facts.iter().all(|f| l.contains(f)))
}

/// A magus binary in UCI mode, its output read on a thread so that it never blocks.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_magus"))
            .arg("uci")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    /// Sends the text and `isready`; returns the output up to `readyok`, failing the test if
    /// it does not come within `limit`.
    fn answer(&mut self, text: &str, limit: Duration) -> Vec<String> {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.write_all(b"\nisready\n").unwrap();
        self.stdin.flush().unwrap();
        let until = Instant::now() + limit;
        let mut lines = Vec::new();
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == "readyok" => return lines,
                Ok(line) => lines.push(line),
                Err(_) => panic!("no readyok within {limit:?}; last lines: {:?}", {
                    let n = lines.len();
                    &lines[n.saturating_sub(5)..]
                }),
            }
        }
    }

    /// The engine's resident memory, in kB.
    fn rss_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS in /proc/PID/status")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Issue #74: every load and check leaked its variant and layouts (10,000 loads of magi.toml
/// grew the engine from 23 MB to 3.35 GB). The same definition is now the one kept, and
/// `check` keeps nothing.
#[test]
fn ten_thousand_loads_and_checks_of_one_file_leave_memory_flat() {
    let mut engine = Engine::start();
    engine.answer("uci", Duration::from_secs(10));
    let round = |n: usize| -> String {
        let mut text = String::new();
        for _ in 0..n {
            text += "load variants/magi.toml\ncheck variants/magi.toml\n";
        }
        text
    };
    let heredoc = format!("load <<END\n{MAGI}END\ncheck <<END\n{MAGI}END\n");
    let option = "setoption name VariantPath value variants/magi.toml\n";
    // A first round compiles what will be reused, and lets the allocator settle.
    let warm = engine.answer(&(round(200) + &heredoc + option), Duration::from_secs(60));
    assert!(
        has(&warm, &["info string loaded variants: magi"]),
        "{:?}",
        &warm[..warm.len().min(10)]
    );
    assert!(
        has(&warm, &["check: 1 valid, 0 refused, nothing loaded"]),
        "{:?}",
        &warm[..warm.len().min(10)]
    );
    let before = engine.rss_kb();
    let start = Instant::now();
    for _ in 0..20 {
        let lines = engine.answer(
            &(round(500) + &heredoc.repeat(10) + &option.repeat(10)),
            Duration::from_secs(120),
        );
        assert!(
            !has(&lines, &["error"]),
            "{:?}",
            lines.iter().find(|l| l.contains("error"))
        );
    }
    let took = start.elapsed();
    let after = engine.rss_kb();
    eprintln!(
        "10,000 loads and 10,000 checks of magi.toml (and 200 here-documents, 200 VariantPath): {took:?}, VmRSS {before} kB -> {after} kB"
    );
    assert!(
        after < before + 4 * 1024,
        "memory grew from {before} kB to {after} kB"
    );
}

/// `check` compiles on a copy it frees: checking definitions that were never loaded keeps
/// none of them (each kept one would cost its layout for the rest of the run).
#[test]
fn checks_of_new_definitions_keep_nothing() {
    let mut engine = Engine::start();
    let batch = |from: usize| -> String {
        (from..from + 100)
            .map(|i| {
                let text = MAGI.replacen("name = \"magi\"", &format!("name = \"m{i}\""), 1);
                format!("check <<END\n{text}END\n")
            })
            .collect()
    };
    engine.answer(&batch(0), Duration::from_secs(60));
    let before = engine.rss_kb();
    for round in 1..=10 {
        let lines = engine.answer(&batch(round * 100), Duration::from_secs(60));
        assert!(has(&lines, &["check: 1 valid, 0 refused, nothing loaded"]));
    }
    let after = engine.rss_kb();
    eprintln!("1,000 checks of new definitions: VmRSS {before} kB -> {after} kB");
    assert!(
        after < before + 4 * 1024,
        "memory grew from {before} kB to {after} kB"
    );
    // None was kept, so the limit on kept definitions is not reached by checks.
    let lines = engine.answer(
        &format!(
            "load <<END\n{}END",
            MAGI.replacen("name = \"magi\"", "name = \"m1\"", 1)
        ),
        Duration::from_secs(10),
    );
    assert!(
        has(&lines, &["info string loaded variants: m1"]),
        "{lines:?}"
    );
}

/// Distinct definitions are kept for the run, up to the limit; past it a new one is refused
/// with the limit named, one kept before still loads, and the engine plays on.
#[test]
fn distinct_definitions_past_the_limit_are_refused() {
    let mut engine = Engine::start();
    let mut text = String::new();
    for i in 0..MAX_KEPT_VARIANTS + 5 {
        let v = ELEPHANTS.replacen("name = \"elephants\"", &format!("name = \"e{i}\""), 1);
        text += &format!("load <<END\n{v}END\n");
    }
    let start = Instant::now();
    let lines = engine.answer(&text, Duration::from_secs(120));
    eprintln!(
        "{} loads of new definitions: {:?}",
        MAX_KEPT_VARIANTS + 5,
        start.elapsed()
    );
    let loaded = lines
        .iter()
        .filter(|l| l.starts_with("info string loaded variants: e"))
        .count();
    // The built-in variants are kept too.
    let builtin = Registry::builtin().names().len();
    assert_eq!(loaded, MAX_KEPT_VARIANTS - builtin, "{:?}", lines.last());
    let limit = format!("keeps at most {MAX_KEPT_VARIANTS} distinct variant definitions");
    assert!(
        has(&lines, &["info string error:", &limit]),
        "{:?}",
        lines.last()
    );
    // A definition kept before loads again, and plays.
    let again = ELEPHANTS.replacen("name = \"elephants\"", "name = \"e0\"", 1);
    let lines = engine.answer(
        &format!("load <<END\n{again}END\nsetoption name UCI_Variant value e0"),
        Duration::from_secs(20),
    );
    assert!(
        has(&lines, &["info string loaded variants: e0"]),
        "{lines:?}"
    );
    assert!(
        has(&lines, &["info string variant e0 files 6"]),
        "{lines:?}"
    );
    // The `bestmove` may come before or after the `readyok`.
    let answered = engine.answer("position startpos\ngo depth 1", Duration::from_secs(20));
    let until = Instant::now() + Duration::from_secs(20);
    let bestmove = answered.iter().any(|l| l.starts_with("bestmove"))
        || std::iter::from_fn(|| {
            engine
                .lines
                .recv_timeout(until.saturating_duration_since(Instant::now()))
                .ok()
        })
        .any(|l| l.starts_with("bestmove"));
    assert!(bestmove, "no bestmove in e0");
}

/// Issue #74: a here-document of 99,000 chained sections (1.7 MB) ran for minutes and filled
/// 9 GB. A text past the size is refused unread; under the size, too many sections are
/// refused before any is translated, and a chain too deep is refused where it goes too deep.
#[test]
fn chained_sections_past_the_limits_are_refused_fast() {
    let mut t = uci();
    let chain = |n: usize| -> String {
        let mut text = String::from("[c1:chess]\n");
        for i in 2..=n {
            text += &format!("[c{i}:c{}]\n", i - 1);
        }
        text
    };
    let huge = chain(99_000);
    assert!(huge.len() > MAX_DEFINITION_BYTES);
    let (lines, took) = timed(&mut t, &format!("load <<END\n{huge}END"));
    assert!(took < FAST, "{took:?}");
    let size = format!("more than the {MAX_DEFINITION_BYTES} bytes a definition may have");
    assert!(
        has(&lines, &["info string error: <<END", &size]),
        "{lines:?}"
    );
    assert!(lines.len() < 5, "{lines:?}");

    let (lines, took) = timed(
        &mut t,
        &format!("load <<END\n{}END", chain(MAX_SECTIONS + 1)),
    );
    assert!(took < FAST, "{took:?}");
    let count = format!(
        "{} sections, more than the {MAX_SECTIONS}",
        MAX_SECTIONS + 1
    );
    assert!(has(&lines, &["info string error:", &count]), "{lines:?}");

    let deep = MAX_INHERITANCE_DEPTH + 3;
    let (lines, took) = timed(&mut t, &format!("load <<END\n{}END", chain(deep)));
    eprintln!("a chain of {deep} sections: {took:?}");
    assert!(took < FAST, "{took:?}");
    let loaded = format!(
        "info string loaded variants: {}",
        (1..=MAX_INHERITANCE_DEPTH)
            .map(|i| format!("c{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    assert!(lines.contains(&loaded), "{lines:?}");
    let too_deep = format!(
        "[c{}]: inherits through more than {MAX_INHERITANCE_DEPTH} sections",
        MAX_INHERITANCE_DEPTH + 1
    );
    assert!(has(&lines, &["info string error:", &too_deep]), "{lines:?}");
    // Past a loaded chain, across loads: c16 is loaded, at the full depth.
    let (lines, _) = timed(&mut t, "load <<END\n[d:c16]\nEND");
    assert!(
        has(&lines, &["[d]: inherits through more than"]),
        "{lines:?}"
    );
}

/// Issue #74: 16,000 `[[piece]]` tables took 20 s to check (each problem's line was counted
/// from the top). Such a text is past the size now; within it, past the number of pieces
/// nothing more is looked at, and however many problems a definition has, at most 50 are
/// listed.
#[test]
fn a_definition_with_thousands_of_problems_is_checked_fast() {
    let mut t = uci();
    let many = |n: usize| {
        let pieces =
            "[[piece]]\nletter = \"A\"\nname = \"a\"\nbetza = \"W\"\nvalue = 1\n".repeat(n);
        format!(
            "name = \"many\"\nfiles = 8\nranks = 8\nstart = \"8/8/8/8/8/8/8/8 w - - 0 1\"\n{pieces}"
        )
    };
    let (lines, took) = timed(&mut t, &format!("check <<END\n{}END", many(16_000)));
    eprintln!("check of 16,000 pieces: {took:?}");
    assert!(took < FAST, "{took:?}");
    assert!(has(&lines, &["bytes a definition may have"]), "{lines:?}");
    let within = many(4_000);
    assert!(within.len() < MAX_DEFINITION_BYTES);
    let (lines, took) = timed(&mut t, &format!("check <<END\n{within}END"));
    eprintln!("check of 4,000 pieces: {took:?}");
    assert!(took < FAST, "{took:?}");
    assert!(
        has(&lines, &["4000 pieces defined, at most 16"]),
        "{lines:?}"
    );
    assert!(has(&lines, &["check: 0 valid, 1 refused"]), "{lines:?}");

    // Thousands of bad letters, each its own problem on the same line.
    let fixed = format!(
        "{ELEPHANTS}\n[end]\ninsufficient_material = [{}]\n",
        "\"KZ\",\n".repeat(3000)
    );
    let (lines, took) = timed(&mut t, &format!("check <<END\n{fixed}END"));
    eprintln!("check of 3,000 problems: {took:?}");
    assert!(took < FAST, "{took:?}");
    let errors = lines.iter().filter(|l| l.contains("error:")).count();
    assert_eq!(errors, 51, "{:?}", &lines[..lines.len().min(5)]);
    assert!(
        has(&lines, &["… and 2950 more problems"]),
        "{:?}",
        lines.last()
    );
}

/// Issue #74: a 300 MB file was read whole (1.56 GB). Its size is looked at first.
#[test]
fn a_file_past_the_size_is_refused_unread() {
    let dir = std::env::temp_dir().join(format!("magus-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.toml");
    // Sparse: 300 MB that take no disk, and would take 300 MB of memory to read.
    std::fs::File::create(&path)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let mut t = uci();
    for command in ["load", "check", "setoption name VariantPath value"] {
        let (lines, took) = timed(&mut t, &format!("{command} {}", path.display()));
        assert!(took < FAST, "{command}: {took:?}");
        let refusal = format!(
            "{} bytes, more than the {MAX_DEFINITION_BYTES} a definition file may have",
            300u64 << 20
        );
        assert!(
            has(&lines, &["info string error:", &refusal]),
            "{command}: {lines:?}"
        );
    }
    // In a folder, the file is refused alone.
    std::fs::write(dir.join("elephants.toml"), ELEPHANTS).unwrap();
    let (lines, _) = timed(&mut t, &format!("load {}", dir.display()));
    assert!(has(&lines, &["huge.toml", "more than the"]), "{lines:?}");
    assert!(
        has(&lines, &["info string loaded variants: elephants"]),
        "{lines:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue #74: an error quoted a 50 MB input line back whole. A line is quoted as its first
/// 80 characters and "…"; a here-document with a line past the limit is refused whole and
/// kept no longer than it takes to read it.
#[test]
fn a_huge_input_line_is_quoted_as_an_excerpt() {
    let huge = "x".repeat(5 << 20);
    let mut t = uci();
    let (lines, _) = timed(&mut t, &huge);
    assert_eq!(lines.len(), 1, "{}", lines.len());
    assert!(lines[0].starts_with("info string error: unknown command 'xxxx"));
    assert!(lines[0].len() < 200, "{} bytes", lines[0].len());
    assert!(
        lines[0].ends_with("…'"),
        "{}",
        &lines[0][lines[0].len() - 10..]
    );

    for command in ["load", "check"] {
        let (lines, took) = timed(
            &mut t,
            &format!("{command} <<END\nname = \"a\"\n{huge}\nfiles = 6\nEND\nisready"),
        );
        assert!(took < FAST, "{took:?}");
        let refusal = format!(
            "line 2 has {} characters, more than the {MAX_LINE_CHARS}",
            huge.len()
        );
        assert!(
            has(&lines, &["info string error: <<END", &refusal]),
            "{lines:?}"
        );
        assert!(lines.iter().all(|l| l.len() < 400), "a line quoted whole");
        assert_eq!(lines.last().unwrap(), "readyok");
        let (lines, _) = timed(&mut t, &format!("{command} {huge}"));
        assert!(lines.iter().all(|l| l.len() < 400), "a path quoted whole");
    }

    let mut x: common::Transcript<XboardSession> =
        common::Transcript::new(|out| XboardSession::new(Registry::builtin(), out));
    x.feed("xboard\nprotover 2");
    let (lines, _) = timed(&mut x, &huge);
    assert!(!lines.is_empty());
    assert!(lines.iter().all(|l| l.len() < 200), "{}", lines[0].len());
}

/// Issue #74: loading variants one after another sent the whole list with each (8,000 loads:
/// 314 MB of output). The list is sent again only when it grew; a definition loaded again
/// under its name is described, with no list.
#[test]
fn a_load_announces_the_list_only_when_it_grew() {
    let option = "option name UCI_Variant type combo default chess";
    let mut t = uci();
    let load = format!("load <<END\n{ELEPHANTS}END");
    let (first, _) = timed(&mut t, &load);
    assert!(has(&first, &[option, " var elephants"]), "{first:?}");
    let (again, took) = timed(&mut t, &load);
    assert!(took < FAST, "{took:?}");
    assert!(!has(&again, &[option]), "{again:?}");
    assert!(
        has(&again, &["info string variant elephants files 6"]),
        "{again:?}"
    );
    assert_eq!(
        again.last().unwrap(),
        "info string loaded variants: elephants"
    );
    // A changed definition under the same name replaces the old one: still no list.
    let changed = ELEPHANTS.replacen("value = 200", "value = 250", 1);
    let (lines, _) = timed(&mut t, &format!("load <<END\n{changed}END"));
    assert!(!has(&lines, &[option]), "{lines:?}");
    assert_eq!(
        lines.last().unwrap(),
        "info string loaded variants: elephants"
    );

    let mut x: common::Transcript<XboardSession> =
        common::Transcript::new(|out| XboardSession::new(Registry::builtin(), out));
    x.feed("xboard\nprotover 2");
    let (first, _) = timed(&mut x, &load);
    assert!(
        has(&first, &["feature variants=", ",elephants\""]),
        "{first:?}"
    );
    let (again, _) = timed(&mut x, &load);
    assert!(!has(&again, &["feature variants="]), "{again:?}");
    assert_eq!(again.last().unwrap(), "# loaded variants: elephants");
}

/// The same definition loaded again is the variant kept the first time (and so are its
/// compiled tables); a definition only checked is not kept.
#[test]
fn the_same_definition_is_the_one_kept() {
    use magus::game::check_variant;
    use magus::variant::definitions::Format;
    use magus::variant::kept;
    let text = ELEPHANTS.replacen("name = \"elephants\"", "name = \"kept\"", 1);
    let mut a = Registry::builtin();
    let mut b = Registry::builtin();
    a.load_text(&text, "<<END", Format::Toml, &check_variant);
    b.load_text(&text, "<<END", Format::Toml, &check_variant);
    let (va, vb) = (a.get("kept").unwrap(), b.get("kept").unwrap());
    assert!(std::ptr::eq(va, vb), "two copies of one definition");
    assert!(std::ptr::eq(kept::find(va).unwrap(), va));

    let checked = ELEPHANTS.replacen("name = \"elephants\"", "name = \"checked\"", 1);
    let definitions = a.check_text(&checked, "<<END", Format::Toml, &check_variant);
    let v = definitions[0].outcome.as_ref().expect("a sound definition");
    assert!(kept::find(v).is_none(), "check kept what it checked");
    assert!(a.get("checked").is_none());
}
