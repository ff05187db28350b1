//! A `magus gui` server for the tests, on a free port, and a plain HTTP client that can send
//! anything (including requests no real client would).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The variants built into magus, which the board offers without a variant folder.
pub const BUILTIN_VARIANTS: [&str; 6] = [
    "chess",
    "deathmatch",
    "deathmatch-legacy",
    "magi",
    "magician-chess",
    "royal-magician",
];

pub struct Server {
    child: Child,
    pub port: u16,
    /// The folder its games are kept in.
    pub games: PathBuf,
    /// Made for this server alone, and removed with it.
    own_games: bool,
}

/// A folder of games for one server of the tests (never the user's own).
pub fn games_folder() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "magus-gui-games-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl Server {
    /// Starts `magus gui --port 0 --no-browser` and reads the address it prints.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// The same, with more arguments (`--variant-path ...`).
    pub fn start_with(extra: &[&str]) -> Server {
        let mut server = Server::start_in(&games_folder(), extra);
        server.own_games = true;
        server
    }

    /// A server that keeps its games in `games` (which outlives it: a server started
    /// again in the same folder reopens them).
    pub fn start_in(games: &Path, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_magus"))
            .args(["gui", "--port", "0", "--no-browser"])
            .arg("--games")
            .arg(games)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("magus starts");
        let stdout = child.stdout.take().unwrap();
        let mut first = String::new();
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("magus prints its address");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        let rest = url
            .strip_prefix("http://127.0.0.1:")
            .unwrap_or_else(|| panic!("the server is not on 127.0.0.1: {url}"));
        let port = rest.trim_end_matches('/').parse().expect("a port");
        Server {
            child,
            port,
            games: games.to_path_buf(),
            own_games: false,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Sends raw bytes and returns what came back until the server closed the connection.
    /// The bytes are written on a thread of their own while the answer is read: a server
    /// may answer (and close) before it has read a large body.
    pub fn raw(&self, bytes: &[u8]) -> Vec<u8> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut writer = stream.try_clone().unwrap();
        let bytes = bytes.to_vec();
        let sending = std::thread::spawn(move || {
            let _ = writer.write_all(&bytes);
        });
        let mut out = Vec::new();
        let mut buf = [0u8; 65536];
        loop {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
        // Unblocks a writer the server no longer reads from.
        let _ = stream.shutdown(std::net::Shutdown::Both);
        let _ = sending.join();
        out
    }

    /// Sends bytes and hangs up without waiting for an answer, as a broken or hostile
    /// client does.
    pub fn throw(&self, bytes: &[u8]) {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        let _ = stream.write_all(bytes);
    }

    /// A request with the given extra headers; returns the status and the body.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, String) {
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n",
            self.port
        );
        for (k, v) in headers {
            request += &format!("{k}: {v}\r\n");
        }
        if !body.is_empty()
            && !headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        {
            request += &format!("Content-Length: {}\r\n", body.len());
        }
        request += "\r\n";
        let mut bytes = request.into_bytes();
        bytes.extend_from_slice(body);
        parse_response(&self.raw(&bytes))
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.send("GET", path, &[], b"")
    }

    pub fn post(&self, path: &str, json: &str) -> (u16, String) {
        self.send(
            "POST",
            path,
            &[("Content-Type", "application/json")],
            json.as_bytes(),
        )
    }

    /// A JSON request that must succeed.
    pub fn ok(&self, method: &str, path: &str, json: &str) -> Value {
        let (status, body) = match method {
            "GET" => self.get(path),
            _ => self.post(path, json),
        };
        assert!(
            (200..300).contains(&status),
            "{method} {path} {json}: {status} {body}"
        );
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{body}: {e}"))
    }

    /// A new game; returns its state.
    pub fn new_game(&self, json: &str) -> Value {
        self.ok("POST", "/api/games", json)
    }

    /// Asks for the game until `done` holds, for at most `limit`.
    pub fn wait_for(&self, id: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let game = self.ok("GET", &format!("/api/games/{id}"), "");
            if done(&game) {
                return game;
            }
            assert!(
                start.elapsed() < limit,
                "waited {limit:?} in vain; the game: {game}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Whether the server still answers.
    pub fn alive(&self) -> bool {
        self.get("/api/variants").0 == 200
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.own_games {
            let _ = std::fs::remove_dir_all(&self.games);
        }
    }
}

/// The status and body of an HTTP response (body de-chunked if need be).
pub fn parse_response(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw).to_string();
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return (0, text);
    };
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    if !chunked {
        return (status, body.to_string());
    }
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out += &after[..n];
        rest = after[n..].trim_start_matches("\r\n");
    }
    (status, out)
}

/// The id of a game state.
pub fn id(game: &Value) -> String {
    game["id"].as_str().expect("an id").to_string()
}

/// The legal moves of a game state with this kind.
pub fn moves_of_kind<'a>(game: &'a Value, kind: &str) -> Vec<&'a Value> {
    game["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == kind)
        .collect()
}

pub fn sans(game: &Value) -> Vec<String> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}
