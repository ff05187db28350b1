//! `magus match --log FILE`: the match appends its own row to a results log in the format of
//! bench/results/runs.csv, the row bench/results/add_run.py would append from the match's
//! printed summary; a file that is not such a log is refused before a game is played.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod needed_tools;

const MAGUS: &str = env!("CARGO_BIN_EXE_magus");
const HEADER: &str = "id,commit,base,change,variant,limit,games,wins,losses,draws,pentanomial,elo,elo_error,llr,verdict,kept,load,command,note,source";

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("magus-match-log-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A tiny match of magus against itself: 300 nodes a move, openings of four random plies,
/// games cut at 60 plies; then `extra`.
fn tiny_match(rounds: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(MAGUS);
    command.args([
        "match",
        "--variant",
        "chess",
        "--engine",
        "name=tested",
        "--engine",
        "name=base",
        "--nodes",
        "300",
        "--games",
        "2",
        "--rounds",
        rounds,
        "--random-plies",
        "4",
        "--seed",
        "11",
        "--max-plies",
        "60",
    ]);
    command.args(extra);
    command
}

fn run(command: &mut Command) -> Output {
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The log's rows after the header, split into fields by Python's rules (quotes doubled).
fn rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.split("\r\n");
    assert_eq!(lines.next(), Some(HEADER));
    lines
        .filter(|l| !l.is_empty())
        .map(|line| {
            let mut fields = vec![String::new()];
            let mut quoted = false;
            let mut chars = line.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '"' if quoted && chars.peek() == Some(&'"') => {
                        chars.next();
                        fields.last_mut().unwrap().push('"');
                    }
                    '"' => quoted = !quoted,
                    ',' if !quoted => fields.push(String::new()),
                    _ => fields.last_mut().unwrap().push(c),
                }
            }
            fields
        })
        .collect()
}

fn field<'a>(row: &'a [String], name: &str) -> &'a str {
    let i = HEADER.split(',').position(|c| c == name).unwrap();
    &row[i]
}

/// `Score of tested vs base: W - L - D  [score] games` as numbers.
fn score_line(stdout: &str) -> [String; 3] {
    let line = stdout
        .lines()
        .rfind(|l| l.starts_with("Score of tested vs base: "))
        .expect("a Score line");
    let figures: Vec<&str> = line["Score of tested vs base: ".len()..]
        .split_whitespace()
        .collect();
    [figures[0], figures[2], figures[4]].map(String::from)
}

#[test]
fn a_new_log_gets_the_header_and_each_match_the_next_id_of_its_kind() {
    let dir = temp_dir("new");
    let log = dir.join("runs.csv");
    let first = run(&mut tiny_match("1", &["--log", log.to_str().unwrap()]));
    let second = run(&mut tiny_match(
        "2",
        &[
            "--log",
            log.to_str().unwrap(),
            "--log-field",
            "change=two rounds, \"quoted\"",
            "--log-field",
            "kept=no",
        ],
    ));
    let third = run(&mut tiny_match(
        "1",
        &["--log", log.to_str().unwrap(), "--log-field", "kind=anchor"],
    ));
    let rows = rows(&log);
    assert_eq!(rows.len(), 3);
    for row in &rows {
        assert_eq!(row.len(), 20, "{row:?}");
    }
    let ids: Vec<&str> = rows.iter().map(|r| field(r, "id")).collect();
    assert_eq!(ids, ["match-001", "match-002", "anchor-001"]);
    for (row, out) in rows.iter().zip([&first, &second, &third]) {
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(&format!("Logged as {} in ", field(row, "id"))));
        let [w, l, d] = score_line(&stdout);
        assert_eq!(
            [
                field(row, "wins"),
                field(row, "losses"),
                field(row, "draws")
            ],
            [w.as_str(), l.as_str(), d.as_str()]
        );
        let games: u32 = field(row, "games").parse().unwrap();
        assert_eq!(
            games,
            [w, l, d]
                .iter()
                .map(|n| n.parse::<u32>().unwrap())
                .sum::<u32>()
        );
        assert_eq!(field(row, "variant"), "chess");
        assert_eq!(field(row, "limit"), "nodes=300");
        assert_eq!(field(row, "verdict"), "fixed-games");
        assert_eq!(field(row, "llr"), "");
        assert_eq!(field(row, "source"), "magus match --log");
        assert!(
            field(row, "command").starts_with("magus match --variant chess --engine name=tested")
        );
        assert!(field(row, "command").contains(&format!("--log {}", log.display())));
        assert!(field(row, "load").starts_with("load average "), "{row:?}");
    }
    assert_eq!(field(&rows[0], "games"), "2");
    assert_eq!(field(&rows[1], "games"), "4");
    assert_eq!(field(&rows[1], "change"), "two rounds, \"quoted\"");
    assert_eq!(field(&rows[1], "kept"), "no");
    assert!(field(&rows[1], "command").contains("'change=two rounds, \"quoted\"'"));
    let pairs: u32 = field(&rows[1], "pentanomial")
        .split(';')
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(pairs, 2, "two complete opening pairs");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_that_is_not_a_results_log_is_refused_before_any_game() {
    let dir = temp_dir("refused");
    let other = dir.join("other.csv");
    let text = "id,commit,elo\r\nsprt-001,abcdef1,+3\r\n";
    std::fs::write(&other, text).unwrap();
    let out = tiny_match("1", &["--log", other.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a results log: its first line is 'id,commit,elo'"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Started game"));
    assert_eq!(std::fs::read_to_string(&other).unwrap(), text);
    // A field the log would refuse is refused as early, and no file is made.
    let new = dir.join("new.csv");
    let out = tiny_match(
        "1",
        &[
            "--log",
            new.to_str().unwrap(),
            "--log-field",
            "commit=not-a-hash",
        ],
    )
    .output()
    .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a commit hash"));
    assert!(!new.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C in the middle: the row has the games finished so far and says it was interrupted.
#[test]
fn an_interrupted_match_logs_the_games_it_finished() {
    let dir = temp_dir("interrupted");
    let log = dir.join("runs.csv");
    let mut child = tiny_match(
        "50",
        &[
            "--log",
            log.to_str().unwrap(),
            "--log-field",
            "note=cut short",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("Finished game 2 ") {
        assert!(stdout.read_line(&mut seen).unwrap() > 0, "{seen}");
    }
    // SAFETY: kill(2) on the id of a child that has not been reaped yet.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let until = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < until, "the match did not stop");
        std::thread::sleep(Duration::from_millis(50));
    };
    stdout.read_to_string(&mut seen).unwrap();
    assert_eq!(status.code(), Some(130), "{seen}");
    let finished = seen
        .lines()
        .filter(|l| l.starts_with("Finished game "))
        .count();
    assert!((2..100).contains(&finished), "{seen}");
    let rows = rows(&log);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(field(row, "id"), "match-001");
    assert_eq!(field(row, "games"), finished.to_string());
    assert_eq!(field(row, "verdict"), "fixed-games");
    assert_eq!(
        field(row, "note"),
        format!("cut short; interrupted after {finished} of 100 games")
    );
    assert!(seen.contains("Logged as match-001 in "), "{seen}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The row is the one add_run.py appends from the same match's output, byte for byte, and
/// render.py accepts it.
#[test]
fn the_row_is_the_one_add_run_writes_from_the_output() {
    let test = "the_row_is_the_one_add_run_writes_from_the_output";
    if !needed_tools::can_run(test, python_missing()) {
        return;
    }
    let dir = temp_dir("add_run");
    // A copy of the scripts, whose log is the copy's bench/results/runs.csv.
    let results = dir.join("bench/results");
    std::fs::create_dir_all(&results).unwrap();
    std::fs::create_dir_all(dir.join("docs")).unwrap();
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/results");
    for script in ["add_run.py", "render.py"] {
        std::fs::copy(scripts.join(script), results.join(script)).unwrap();
    }
    std::fs::write(results.join("runs.csv"), format!("{HEADER}\r\n")).unwrap();
    let by_match = dir.join("by_match.csv");
    let fields = [
        ("commit", "88d112d"),
        ("base", "900f6a4"),
        ("change", "a change, described"),
        ("kept", "yes"),
        ("note", "a tiny SPRT"),
    ];
    let mut extra: Vec<String> = vec!["--sprt".into(), "elo0=0,elo1=5,alpha=0.05,beta=0.05".into()];
    extra.extend(["--log".into(), by_match.display().to_string()]);
    for (k, v) in fields {
        extra.extend(["--log-field".into(), format!("{k}={v}")]);
    }
    let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    let out = run(&mut tiny_match("2", &extra));
    let output = dir.join("match.log");
    std::fs::write(&output, &out.stdout).unwrap();
    let ours = rows(&by_match);
    assert_eq!(field(&ours[0], "id"), "sprt-001");
    let mut add_run = Command::new("python3");
    add_run.arg(results.join("add_run.py")).args([
        "--kind",
        "sprt",
        "--log",
        output.to_str().unwrap(),
        "--load",
        field(&ours[0], "load"),
        "--command",
        field(&ours[0], "command"),
        "--source",
        "magus match --log",
    ]);
    for (k, v) in fields {
        add_run.arg(format!("--{k}")).arg(v);
    }
    run(&mut add_run);
    assert_eq!(
        std::fs::read_to_string(results.join("runs.csv")).unwrap(),
        std::fs::read_to_string(&by_match).unwrap()
    );
    run(Command::new("python3").arg(results.join("render.py")));
    run(Command::new("python3")
        .arg(results.join("render.py"))
        .arg("--check"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The quoted words of render.py's `name = ` list or set (for a dict, its keys).
fn render_py_words(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/results/render.py"),
    )
    .unwrap();
    let start = text.find(&format!("\n{name} = ")).expect(name) + 1;
    let open = text[start..].find(['[', '{']).unwrap() + start;
    let close = text[open..].find([']', '}']).unwrap() + open;
    let block = &text[open..=close];
    let dict = block.contains("\": ");
    let mut words = Vec::new();
    for line in block.lines() {
        // A dict's key is the first quoted word of its line, a list's are all of them.
        let mut parts = line.split('"').skip(1).step_by(2);
        if dict {
            words.extend(parts.next().map(String::from));
        } else {
            words.extend(parts.map(String::from));
        }
    }
    words
}

#[test]
fn the_match_checks_fields_as_render_py_does() {
    use magus::tournament::results_log::{COLUMNS, KEPT, KINDS, VARIANTS};
    assert_eq!(render_py_words("COLUMNS"), COLUMNS);
    assert_eq!(render_py_words("KINDS"), KINDS);
    assert_eq!(render_py_words("KEPT"), KEPT);
    // render.py also has "" for rows of several variants or none; a match has one.
    let mut variants = render_py_words("VARIANTS");
    assert_eq!(variants.pop().as_deref(), Some(""));
    assert_eq!(variants, VARIANTS);
}

fn python_missing() -> Vec<String> {
    if needed_tools::works("python3", &["--version"]) {
        Vec::new()
    } else {
        vec!["python3".to_string()]
    }
}
