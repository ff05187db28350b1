//! `magus match` as a process, the way engine testers run it: the lines cutechess-cli and
//! fastchess print (read here as OpenBench's worker reads them), shards played by separate
//! processes and merged, a match resumed after a crash, Ctrl-C, and a reader that closes the
//! pipe.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use magus::pgn;

mod common;

const MAGUS: &str = env!("CARGO_BIN_EXE_magus");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("magus-match-cli-{}", std::process::id()))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fake(script: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(script)
}

fn engine(name: &str) -> String {
    format!("name={name},cmd={MAGUS}")
}

/// A small match between magus engines `names`: 300 nodes a move, `rounds` openings of four
/// random plies from `seed`, games cut at 60 plies.
fn small_match(names: [&str; 2], rounds: &str, seed: &str) -> Vec<String> {
    let limits = ["--nodes", "300", "--rounds", rounds, "--random-plies", "4"];
    let mut words = Vec::new();
    for name in names {
        words.extend(["--engine".to_string(), engine(name)]);
    }
    words.extend(
        limits
            .iter()
            .chain(&["--seed", seed, "--max-plies", "60"])
            .map(|w| w.to_string()),
    );
    words
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `command`, which must fail: its standard error.
fn refused(command: &mut Command) -> String {
    let out = command.output().unwrap();
    assert!(!out.status.success(), "{}", text(&out.stdout));
    text(&out.stderr)
}

fn stdout_lines(out: &Output) -> Vec<String> {
    text(&out.stdout).lines().map(str::to_string).collect()
}

fn succeeded(out: &Output) {
    assert!(
        out.status.success(),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

fn pgn_games(path: &Path) -> Vec<pgn::PgnGame> {
    pgn::read_all(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The moves of a game (their comments hold the time each took, which varies).
fn sans(g: &pgn::PgnGame) -> Vec<String> {
    g.moves.iter().map(|m| m.san.clone()).collect()
}

fn round(g: &pgn::PgnGame) -> usize {
    g.tag("Round").unwrap().parse().unwrap()
}

fn last_starting<'a>(lines: &'a [String], prefix: &str) -> &'a str {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starts with '{prefix}':\n{}", lines.join("\n")))
}

fn count_starting(lines: &[String], prefix: &str) -> usize {
    lines.iter().filter(|l| l.starts_with(prefix)).count()
}

/// The lines of a two-engine match, read the way OpenBench's worker reads cutechess's: the
/// game number is the third word of a `Finished game` line and the result the seventh, games
/// 1-2, 3-4, … are the pairs of an opening (first engine White, then Black), and the
/// pentanomial of those pairs is the one the `Ptnml(0-2)` line prints. Every game starts with
/// `Started game N of M (White vs Black)`, a `Score of` line follows every game, the Elo and
/// SPRT lines come every `--rating-interval` games, and the results agree with the PGN.
#[test]
fn lines_read_as_openbench_reads_cutechess() {
    let dir = temp_dir("lines");
    let path = dir.join("games.pgn");
    let out = Command::new(MAGUS)
        .arg("match")
        .args(small_match(["one", "two"], "3", "11"))
        .args([
            "--rating-interval",
            "2",
            "--sprt",
            "elo0=0,elo1=10",
            "--pgnout",
        ])
        .arg(&path)
        .output()
        .unwrap();
    succeeded(&out);
    let lines = stdout_lines(&out);
    for k in 1..=6 {
        let (w, b) = if k % 2 == 1 {
            ("one", "two")
        } else {
            ("two", "one")
        };
        let started = format!("Started game {k} of 6 ({w} vs {b})");
        assert!(lines.contains(&started), "{started}");
    }
    let in_pgn: HashMap<usize, String> = pgn_games(&path)
        .iter()
        .map(|g| (round(g), g.result.clone()))
        .collect();
    let mut results: HashMap<usize, String> = HashMap::new();
    for line in lines.iter().filter(|l| l.starts_with("Finished game ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (number, result) = (words[2].parse::<usize>().unwrap(), words[6]);
        assert_eq!(in_pgn[&number], result, "{line}");
        assert!(line.contains(" {") && line.ends_with('}'), "{line}");
        results.insert(number, result.to_string());
    }
    assert_eq!(results.len(), 6);
    let points = |r: &str| match r {
        "0-1" => 0,
        "1/2-1/2" => 1,
        _ => 2,
    };
    let mut ptnml = [0; 5];
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for first in [1, 3, 5] {
        let (a, b) = (points(&results[&first]), points(&results[&(first + 1)]));
        ptnml[a + 2 - b] += 1;
        for one in [a, 2 - b] {
            match one {
                2 => wins += 1,
                1 => draws += 1,
                _ => losses += 1,
            }
        }
    }
    let expected = format!(
        "Ptnml(0-2): [{}, {}, {}, {}, {}],",
        ptnml[0], ptnml[1], ptnml[2], ptnml[3], ptnml[4]
    );
    assert!(
        last_starting(&lines, "Ptnml(0-2): ").starts_with(&expected),
        "{expected}\n{}",
        lines.join("\n")
    );
    assert_eq!(count_starting(&lines, "Score of one vs two: "), 6);
    let score = (wins as f64 + draws as f64 / 2.0) / 6.0;
    assert_eq!(
        last_starting(&lines, "Score of "),
        format!("Score of one vs two: {wins} - {losses} - {draws}  [{score:.3}] 6")
    );
    assert_eq!(
        count_starting(&lines, "Elo difference: "),
        3,
        "after 2, 4, 6"
    );
    assert_eq!(count_starting(&lines, "SPRT: llr "), 3);
    assert_eq!(count_starting(&lines, "LLR: "), 3);
    assert_eq!(lines.last().unwrap(), "Finished match");
}

/// Three shards of one match, played at the same time by separate processes, hold every game
/// of it once, both games of each opening in the same shard; merged (from their PGN files,
/// their results files, or a mix) they give the standings of the whole match played in one
/// process, game for game. Overlapping files are refused.
#[test]
fn shards_played_apart_merge_into_the_whole_match() {
    let dir = temp_dir("shards");
    let mut common = small_match(["a", "b"], "4", "5");
    common.extend(["--sprt".to_string(), "elo0=0,elo1=10".to_string()]);
    let whole_pgn = dir.join("whole.pgn");
    let mut whole = Command::new(MAGUS)
        .arg("match")
        .args(&common)
        .arg("--pgnout")
        .arg(&whole_pgn)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let shards: Vec<(PathBuf, PathBuf, Child)> = (1..=3)
        .map(|k| {
            let (pgn, results) = (dir.join(format!("{k}.pgn")), dir.join(format!("{k}.txt")));
            let child = Command::new(MAGUS)
                .arg("match")
                .args(&common)
                .args(["--shard", &format!("{k}/3"), "--results"])
                .arg(&results)
                .arg("--pgnout")
                .arg(&pgn)
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            (pgn, results, child)
        })
        .collect();
    let whole_out = {
        assert!(common::wait(&mut whole, 300).success());
        whole.wait_with_output().unwrap()
    };
    let whole_lines = stdout_lines(&whole_out);
    let whole_games: HashMap<usize, pgn::PgnGame> = pgn_games(&whole_pgn)
        .into_iter()
        .map(|g| (round(&g), g))
        .collect();
    assert_eq!(whole_games.len(), 8);
    let mut numbers = Vec::new();
    let (mut pgns, mut texts) = (Vec::new(), Vec::new());
    for (k, (pgn, results, mut child)) in shards.into_iter().enumerate() {
        assert!(common::wait(&mut child, 300).success(), "shard {}", k + 1);
        let out = child.wait_with_output().unwrap();
        let lines = stdout_lines(&out);
        let games = pgn_games(&pgn);
        assert!(!games.is_empty());
        for g in &games {
            let n = round(g);
            numbers.push(n);
            assert!(lines.contains(&format!(
                "Started game {n} of 8 ({} vs {})",
                g.tag("White").unwrap(),
                g.tag("Black").unwrap()
            )));
            let opening = g.tag("OpeningNumber").unwrap();
            let mates = games
                .iter()
                .filter(|o| o.tag("OpeningNumber") == Some(opening))
                .count();
            assert_eq!(
                mates,
                2,
                "game {n}: both games of its opening in shard {}",
                k + 1
            );
            let same = &whole_games[&n];
            assert_eq!(sans(g), sans(same), "game {n} as in the whole match");
            assert_eq!(g.result, same.result);
        }
        pgns.push(pgn);
        texts.push(results);
    }
    numbers.sort();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>(), "every game once");

    let merge = |files: &[&PathBuf]| {
        let mut args = vec!["--merge".to_string()];
        args.extend(files.iter().map(|f| f.display().to_string()));
        args.extend(["--sprt".to_string(), "elo0=0,elo1=10".to_string()]);
        let out = Command::new(MAGUS)
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        succeeded(&out);
        stdout_lines(&out)
    };
    for files in [
        vec![&pgns[0], &pgns[1], &pgns[2]],
        vec![&texts[0], &texts[1], &texts[2]],
        vec![&texts[2], &pgns[0], &texts[1]],
    ] {
        let merged = merge(&files);
        assert!(
            merged[0].starts_with("Merged 8 games from 3 files"),
            "{}",
            merged[0]
        );
        for prefix in [
            "Score of ",
            "Ptnml(0-2): ",
            "Elo difference: ",
            "SPRT: llr ",
            "LLR: ",
        ] {
            assert_eq!(
                last_starting(&merged, prefix),
                last_starting(&whole_lines, prefix),
                "{files:?}"
            );
        }
    }
    let err = refused(
        Command::new(MAGUS)
            .args(["match", "--merge"])
            .arg(&pgns[0])
            .arg(&texts[0]),
    );
    assert!(
        err.contains("is in") && err.contains("must not overlap"),
        "{err}"
    );
}

/// Shards of one match must be played with the same settings: a shard played with seed 78
/// merged with shards of seed 77 is refused, from its PGN file or its results file, naming the
/// file and the seed; the same shard played with seed 77 merges. Files written before the
/// settings were recorded (here: with the record taken out) still merge, with a warning.
#[test]
fn a_shard_of_another_seed_is_not_merged() {
    let dir = temp_dir("merge-seed");
    let play = |k: usize, seed: &str| -> (PathBuf, PathBuf) {
        let (pgn, results) = (
            dir.join(format!("{k}-{seed}.pgn")),
            dir.join(format!("{k}-{seed}.txt")),
        );
        let out = Command::new(MAGUS)
            .arg("match")
            .args(small_match(["a", "b"], "3", seed))
            .args(["--shard", &format!("{k}/3"), "--pgnout"])
            .arg(&pgn)
            .arg("--results")
            .arg(&results)
            .output()
            .unwrap();
        succeeded(&out);
        (pgn, results)
    };
    let (pgn1, txt1) = play(1, "77");
    let (pgn2, txt2) = play(2, "77");
    let (pgn3, txt3) = play(3, "77");
    let (odd_pgn, odd_txt) = play(3, "78");
    let merge = |files: &[&PathBuf]| {
        Command::new(MAGUS)
            .args(["match", "--merge"])
            .args(files)
            .output()
            .unwrap()
    };
    for files in [[&pgn1, &pgn2, &odd_pgn], [&txt1, &txt2, &odd_txt]] {
        let out = merge(&files);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{}", text(&out.stdout));
        assert!(
            err.contains(&format!(
                "{} holds games of another match than {}: seed 78, not 77",
                files[2].display(),
                files[0].display()
            )),
            "{err}"
        );
    }
    for files in [[&pgn1, &pgn2, &pgn3], [&txt1, &pgn2, &txt3]] {
        let out = merge(&files);
        succeeded(&out);
        assert!(
            stdout_lines(&out)[0].starts_with("Merged 6 games from 3 files"),
            "{}",
            text(&out.stdout)
        );
    }
    // Files of an older magus, which did not record the settings.
    let strip = |path: &PathBuf, drop: &str| {
        let old = path.with_extension(format!("old.{}", path.extension().unwrap().display()));
        let kept: String = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with(drop))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(&old, kept).unwrap();
        old
    };
    let old_pgn = strip(&odd_pgn, "[MatchSettings ");
    let old_txt = strip(&odd_txt, "# magus match settings: ");
    for old in [&old_pgn, &old_txt] {
        let out = merge(&[&pgn1, &pgn2, old]);
        succeeded(&out);
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{} has games without a record", old.display())),
            "{err}"
        );
    }
}

/// A match whose machine crashed in the middle of writing its fourth game goes on with
/// `--resume`: the torn game is dropped, the three finished ones are counted and not played
/// again, and the file ends with the same six games the match plays in one go (the results
/// file, written again from the PGN, lists them once each). A file from another match
/// (another seed, another game length) is refused.
#[test]
fn resume_after_a_crash_plays_only_the_rest() {
    let dir = temp_dir("resume");
    let args = |pgn: &Path, seed: &str| -> Vec<String> {
        let mut words = small_match(["a", "b"], "3", seed);
        words.extend(["--pgnout".to_string(), pgn.to_str().unwrap().to_string()]);
        words
    };
    let run = |a: &[String], extra: &[&str]| {
        let out = Command::new(MAGUS)
            .arg("match")
            .args(a)
            .args(extra)
            .output()
            .unwrap();
        succeeded(&out);
        stdout_lines(&out)
    };
    let whole = dir.join("whole.pgn");
    let whole_lines = run(&args(&whole, "8"), &[]);
    let text_whole = std::fs::read_to_string(&whole).unwrap();
    let starts: Vec<usize> = text_whole
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 6);
    let crashed = dir.join("crashed.pgn");
    let torn_at = starts[3] + (starts[4] - starts[3]) * 2 / 3;
    std::fs::write(&crashed, &text_whole[..torn_at]).unwrap();

    // Its results file lost the end of a line in the crash; resuming writes it again.
    let results = dir.join("crashed.txt");
    std::fs::write(
        &results,
        "# results\n1\t1\ta\tb\t1/2-1/2\tmax length\t-\n2\t1\ta",
    )
    .unwrap();
    let lines = run(
        &args(&crashed, "8"),
        &["--resume", "--results", results.to_str().unwrap()],
    );
    assert!(
        lines.contains(&format!(
            "Resumed 3 finished games from {}",
            crashed.display()
        )),
        "{}",
        lines.join("\n")
    );
    let started: Vec<&String> = lines.iter().filter(|l| l.starts_with("Started")).collect();
    assert_eq!(started.len(), 3, "{started:?}");
    assert!(started[0].starts_with("Started game 4 of 6"));
    assert_eq!(
        last_starting(&lines, "Score of "),
        last_starting(&whole_lines, "Score of ")
    );
    let after: Vec<(usize, Vec<String>)> = pgn_games(&crashed)
        .iter()
        .map(|g| (round(g), sans(g)))
        .collect();
    let before: Vec<(usize, Vec<String>)> = pgn_games(&whole)
        .iter()
        .map(|g| (round(g), sans(g)))
        .collect();
    assert_eq!(after, before, "the same six games, each once");

    let recorded =
        magus::tournament::records::read_results(&std::fs::read_to_string(&results).unwrap())
            .unwrap();
    let numbers: Vec<usize> = recorded.iter().map(|g| g.number).collect();
    assert_eq!(
        numbers,
        [1, 2, 3, 4, 5, 6],
        "the resumed games, then the new ones"
    );

    // Nothing is left to play.
    let again = run(&args(&crashed, "8"), &["--resume"]);
    assert_eq!(count_starting(&again, "Started"), 0);
    assert_eq!(pgn_games(&crashed).len(), 6);

    let err = refused(
        Command::new(MAGUS)
            .arg("match")
            .args(args(&crashed, "9"))
            .arg("--resume"),
    );
    assert!(
        err.contains("--resume")
            && err.contains("game 1 was played with other settings")
            && err.contains("seed 8, not 9"),
        "{err}"
    );
    // Settings that the openings do not show are checked too: games cut at another length.
    let mut longer = args(&crashed, "8");
    let at = longer.iter().position(|w| w == "--max-plies").unwrap();
    longer[at + 1] = "70".into();
    let err = refused(
        Command::new(MAGUS)
            .arg("match")
            .args(&longer)
            .arg("--resume"),
    );
    assert!(err.contains("max-plies 60, not 70"), "{err}");
    assert_eq!(
        pgn_games(&crashed).len(),
        6,
        "a refused resume leaves the file as it was"
    );
    // Games from before the settings were recorded are taken unchecked.
    let old: String = std::fs::read_to_string(&crashed)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("[MatchSettings "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&crashed, old).unwrap();
    let again = run(&longer, &["--resume"]);
    assert_eq!(count_starting(&again, "Started"), 0);
}

fn send_signal(child: &Child, signal: i32) {
    // SAFETY: kill(2) on the id of a child that has not been reaped yet.
    let r = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(r, 0, "kill");
}

fn pids(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Whether a process still runs (a zombie waiting for its parent counts as ended).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            state != Some("Z") && state != Some("X")
        }
        Err(_) => false,
    }
}

fn all_ended(pids: &[u32]) -> bool {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if pids.iter().all(|&p| !alive(p)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Ctrl-C in the middle of a match: the game in progress is abandoned, every finished game is
/// in the PGN (as many as `Finished game` lines), the table so far is printed, the engines are
/// gone, and the status is 130.
#[test]
fn ctrl_c_stops_the_games_and_keeps_the_finished_ones() {
    if !common::python_present() {
        return;
    }
    let dir = temp_dir("ctrl-c");
    let (pgn, pidfile) = (dir.join("games.pgn"), dir.join("pids"));
    let fake_engine = |name: &str| {
        format!(
            "name={name},cmd=python3 {} none+child 1 {MAGUS} {}",
            fake("faulty_uci.py").display(),
            pidfile.display()
        )
    };
    let mut child = Command::new(MAGUS)
        .args([
            "match",
            "--engine",
            &fake_engine("a"),
            "--engine",
            &fake_engine("b"),
        ])
        .args(["--nodes", "2000", "--rounds", "50", "--random-plies", "4"])
        .args(["--seed", "3", "--pgnout", pgn.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "{seen:?}");
        let done = line.starts_with("Finished game 1 ");
        seen.push(line.trim_end().to_string());
        if done {
            break;
        }
    }
    send_signal(&child, libc::SIGINT);
    let status = common::wait(&mut child, 60);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    seen.extend(rest.lines().map(str::to_string));
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted: stopping the games"), "{err}");
    let finished = count_starting(&seen, "Finished game ");
    let games = pgn_games(&pgn);
    assert_eq!(games.len(), finished, "{}", seen.join("\n"));
    assert!((1..100).contains(&finished));
    assert!(
        seen.iter().any(|l| l.starts_with("#   engine")),
        "the table"
    );
    assert!(last_starting(&seen, "interrupted after ").contains("--resume"));
    assert!(!seen.iter().any(|l| l == "Finished match"));
    let engines = pids(&pidfile);
    assert!(engines.len() >= 4, "{engines:?}");
    assert!(all_ended(&engines), "engines left running: {engines:?}");
}

/// While the first Ctrl-C waits for an engine that ignores `quit` (it is given two seconds),
/// a second one ends magus at once, with status 130, before any table, and kills the engines.
#[test]
fn a_second_ctrl_c_exits_at_once() {
    if !common::python_present() {
        return;
    }
    let dir = temp_dir("ctrl-c-twice");
    let pidfile = dir.join("pids");
    let deaf = format!(
        "name=deaf,cmd=python3 {} deaf+child 1 {MAGUS} {}",
        fake("faulty_uci.py").display(),
        pidfile.display()
    );
    let mut child = Command::new(MAGUS)
        .args(["match", "--engine", &deaf, "--engine", &engine("magus")])
        .args(["--nodes", "2000", "--rounds", "50"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("Started game 1 ") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0);
    }
    // Let the game get going, so that the deaf engine is thinking when the signal comes.
    std::thread::sleep(Duration::from_millis(300));
    send_signal(&child, libc::SIGINT);
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut err = String::new();
    while !err.contains("interrupted: stopping") {
        assert!(stderr.read_line(&mut err).unwrap() > 0, "{err}");
    }
    send_signal(&child, libc::SIGINT);
    let status = common::wait(&mut child, 30);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    std::io::Read::read_to_string(&mut stderr, &mut err).unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted again"), "{err}");
    assert!(
        !rest.contains("#   engine"),
        "no table after the second Ctrl-C:\n{rest}"
    );
    let engines = pids(&pidfile);
    assert!(!engines.is_empty());
    assert!(all_ended(&engines), "engines left running: {engines:?}");
}

/// A short match of the hostile-engine tests: 300 nodes a move, 20 plies, and a move
/// timeout that a stall would reach.
const SHORT_MATCH: [&str; 6] = [
    "--nodes",
    "300",
    "--max-plies",
    "20",
    "--move-timeout",
    "20",
];

/// A two-game match of `faulty_uci.py MODE 2` (with a helper process that shares its output,
/// the `+child` modes) against magus at 300 nodes a move: its output lines, its standard
/// error, and the process ids the fake engines wrote (theirs, their magus's, their helper's).
fn helper_match(name: &str, mode: &str) -> (Vec<String>, String, Vec<u32>) {
    let dir = temp_dir(name);
    let pidfile = dir.join("pids");
    let faulty = format!(
        "name=faulty,cmd=python3 {} {mode} 2 {MAGUS} {}",
        fake("faulty_uci.py").display(),
        pidfile.display()
    );
    let mut child = Command::new(MAGUS)
        .args(["match", "--engine", &faulty, "--engine", &engine("magus")])
        .args(SHORT_MATCH)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A stall instead of a crash would take 2 × 20 s.
    let status = common::wait(&mut child, 35);
    let out = child.wait_with_output().unwrap();
    assert!(status.success(), "{}", text(&out.stderr));
    (stdout_lines(&out), text(&out.stderr), pids(&pidfile))
}

/// An engine's helper processes (a wrapper script's engine, a thread pool in processes) share
/// its process group and end with it: when the match is over and the engine has quit.
#[test]
fn an_engines_helper_processes_end_when_the_match_does() {
    if !common::python_present() {
        return;
    }
    let (lines, _, pids) = helper_match("helper-quits", "none+child");
    assert_eq!(count_starting(&lines, "Finished game "), 2);
    // The engine's check before the match and the match itself: two helpers at least.
    assert!(pids.len() >= 6, "{pids:?}");
    assert!(all_ended(&pids), "processes left running: {pids:?}");
}

/// An engine that crashes while a helper process still holds its output is seen to crash
/// (not to stall until the move timeout), and the helper is killed with it.
#[test]
fn an_engine_that_crashes_is_seen_and_its_helpers_end() {
    if !common::python_present() {
        return;
    }
    let (lines, err, pids) = helper_match("helper-crash", "crash+child");
    let finished: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len(), 2, "{err}");
    for line in finished {
        assert!(line.contains("disconnects}"), "{line}");
    }
    assert!(all_ended(&pids), "processes left running: {pids:?}");
}

/// An engine that sends an endless line without a line break loses the game by a protocol
/// error naming the limit of a line, and the referee's memory stays bounded: the match runs
/// under an address-space limit of 1 GiB (the engines too), which buffering the line whole
/// would break within a second.
#[test]
fn an_endless_line_loses_by_protocol_error_in_bounded_memory() {
    if !common::python_present() {
        return;
    }
    use std::os::unix::process::CommandExt;
    let faulty = format!(
        "name=faulty,cmd=python3 {} endless-line 2 {MAGUS}",
        fake("faulty_uci.py").display()
    );
    let mut command = Command::new(MAGUS);
    command
        .args(["match", "--engine", &faulty, "--engine", &engine("magus")])
        .args(SHORT_MATCH)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit(2) between fork and exec touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 1 << 30,
                rlim_max: 1 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    let status = common::wait(&mut child, 35);
    let out = child.wait_with_output().unwrap();
    assert!(status.success(), "{}", text(&out.stderr));
    let lines = stdout_lines(&out);
    let finished: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Finished game "))
        .collect();
    assert_eq!(finished.len(), 2, "{}", lines.join("\n"));
    for line in finished {
        assert!(
            line.contains("breaks the protocol: a line longer than 1 MiB"),
            "{line}"
        );
    }
}

/// `magus match … | head -1`: magus stops the match and ends quietly.
#[test]
fn a_match_ends_quietly_when_the_reader_closes_the_pipe() {
    let first = &common::lines_then_closed_pipe(
        Command::new(MAGUS)
            .args(["match", "--engine", &engine("a"), "--engine", &engine("b")])
            .args(["--nodes", "2000", "--rounds", "50"]),
        1,
    )[0];
    assert!(first.starts_with("100 games of chess"), "{first}");
}

/// `magus replay FILE | head -1`, with more lines than a pipe holds.
#[test]
fn replay_ends_quietly_when_the_reader_closes_the_pipe() {
    let dir = temp_dir("replay-pipe");
    let file = dir.join("many.pgn");
    let game = "[White \"w\"]\n[Black \"b\"]\n\n1. e4 e5 2. Nf3 *\n\n";
    std::fs::write(&file, game.repeat(5000)).unwrap();
    let first = &common::lines_then_closed_pipe(Command::new(MAGUS).arg("replay").arg(&file), 1)[0];
    assert!(first.starts_with("game 1 (w - b): 3 plies"), "{first}");
}

fn cluster(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/cluster")
        .join(file)
}

/// docs/cluster's scripts as the schedulers run them: one shard as task 5 of a Slurm array
/// that starts at 5, the other as index 1 of a Kubernetes Indexed Job, each a process of its
/// own; then the merge script reports the whole match (and that its SPRT has not decided).
/// The manifests run the same script, with as many shards as the Job has completions.
#[test]
fn the_cluster_scripts_play_shards_and_merge_them() {
    let dir = temp_dir("cluster");
    let flags = format!(
        "--engine {} --engine {} --nodes 300 --rounds 2 --random-plies 4 --seed 17 --max-plies 40",
        engine("a"),
        engine("b")
    );
    let task = |env: &[(&str, &str)]| {
        let out = Command::new("sh")
            .arg(cluster("play-shard.sh"))
            .env("MAGUS", MAGUS)
            .env("OUT", &dir)
            .env("MATCH_FLAGS", &flags)
            .envs(env.iter().copied())
            .env_remove(if env[0].0.starts_with("SLURM") {
                "JOB_COMPLETION_INDEX"
            } else {
                "SLURM_ARRAY_TASK_ID"
            })
            .output()
            .unwrap();
        succeeded(&out);
        stdout_lines(&out)
    };
    let slurm = task(&[
        ("SLURM_ARRAY_TASK_ID", "5"),
        ("SLURM_ARRAY_TASK_MIN", "5"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
    ]);
    assert!(slurm[0].ends_with("shard 1/2: 2 of them"), "{}", slurm[0]);
    let kubernetes = task(&[("JOB_COMPLETION_INDEX", "1"), ("SHARDS", "2")]);
    assert!(
        kubernetes[0].ends_with("shard 2/2: 2 of them"),
        "{}",
        kubernetes[0]
    );
    assert!(dir.join("shard-1.pgn").exists() && dir.join("shard-2.txt").exists());
    let merged = Command::new("sh")
        .arg(cluster("merge-shards.sh"))
        .env("MAGUS", MAGUS)
        .env("OUT", &dir)
        .env("SPRT", "elo0=0,elo1=10")
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(3), "{}", text(&merged.stderr));
    let report = text(&merged.stdout);
    assert!(
        report.starts_with("Merged 4 games from 2 files"),
        "{report}"
    );
    assert!(report.contains("SPRT: llr "), "{report}");

    let manifest = std::fs::read_to_string(cluster("kubernetes-match.yaml")).unwrap();
    let value_after = |key: &str| -> String {
        let at = manifest.find(key).unwrap_or_else(|| panic!("{key}")) + key.len();
        manifest[at..]
            .split_whitespace()
            .next()
            .unwrap()
            .trim_matches('"')
            .to_string()
    };
    assert_eq!(value_after("completionMode:"), "Indexed");
    assert_eq!(
        value_after("completions:"),
        value_after("- name: SHARDS\n              value:"),
        "one shard per completion"
    );
    assert!(manifest.contains("/scripts/play-shard.sh"));
    let sbatch = std::fs::read_to_string(cluster("slurm-match.sbatch")).unwrap();
    assert!(sbatch.contains("#SBATCH --array=") && sbatch.contains("play-shard.sh"));
}

/// An engine that refuses an option the command gives it (or the variant) stops the match
/// before a game, with the engine's own words, over UCI and over XBoard: games would measure
/// something else.
#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    for (spec, says) in [
        (engine("a"), "'neural' is not one of"),
        (
            format!("{},proto=xboard,arg=xboard", engine("a")),
            "Error (option 'Evaluation': 'neural' is not one of",
        ),
    ] {
        let err = refused(Command::new(MAGUS).args([
            "match",
            "--engine",
            &format!("{spec},option.Evaluation=neural"),
            "--engine",
            &engine("b"),
            "--nodes",
            "300",
            "--rounds",
            "1",
        ]));
        assert!(
            err.contains("refused its options") && err.contains(says),
            "{err}"
        );
    }
}
