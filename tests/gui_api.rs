//! `magus gui`'s JSON API, driven over plain HTTP against the real binary on a free port:
//! games played, special moves with their structure, the engine playing, analysing and
//! stopping, clocks, PGN and FEN in and out, the Magi payoff; and malformed and hostile
//! requests, each answered with a 4xx status and a message while the server keeps answering.

mod gui_common;

use std::time::{Duration, Instant};

use gui_common::{Server, id, moves_of_kind, parse_response, sans};
use serde_json::Value;

fn error_of(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON: {body}: {e}"));
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"))
        .to_string()
}

fn play(server: &Server, game: &str, mv: &str) -> Value {
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        &format!("{{\"move\":\"{mv}\"}}"),
    )
}

#[test]
fn the_server_prints_a_loopback_address_and_serves_the_page_and_its_files() {
    let server = Server::start();
    assert!(server.url().starts_with("http://127.0.0.1:"));
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(
        page.contains("/assets/app.js") && page.contains("id=\"board\""),
        "{page}"
    );
    let raw = server.raw(
        format!(
            "GET /assets/app.js HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
            server.port
        )
        .as_bytes(),
    );
    let head = String::from_utf8_lossy(&raw).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("content-type: text/javascript"), "{head}");
    let (status, svg) = server.get("/pieces/1/b5.svg");
    assert_eq!(status, 200);
    assert!(svg.contains("<svg"), "{svg}");
    assert_eq!(server.get("/pieces/99/w0.svg").0, 404);
    assert_eq!(server.get("/pieces/0/w99.svg").0, 404);
    assert_eq!(server.get("/assets/../Cargo.toml").0, 404);
    let (status, variants) = server.get("/api/variants");
    assert_eq!(status, 200);
    let variants: Value = serde_json::from_str(&variants).unwrap();
    let names: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    for v in gui_common::BUILTIN_VARIANTS {
        assert!(names.contains(&v), "{v} missing from {names:?}");
    }
}

#[test]
fn a_variant_from_a_definition_file_is_served_and_played() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/elephants.toml");
    let server = Server::start_with(&["--variant-path", file]);
    let variants: Value = serde_json::from_str(&server.get("/api/variants").1).unwrap();
    let elephants = variants
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "elephants")
        .unwrap_or_else(|| panic!("elephants missing from {variants}"));
    assert_eq!(
        (&elephants["files"], &elephants["ranks"]),
        (&6.into(), &6.into())
    );
    // Its pieces have pictures: the Elephant's is its own, not the King's.
    let base = elephants["images"].as_str().unwrap();
    let king = server.get(&format!("{base}w0.svg"));
    let elephant = server.get(&format!("{base}w1.svg"));
    assert_eq!((king.0, elephant.0), (200, 200));
    assert!(elephant.1.contains("<svg") && elephant.1 != king.1);
    let game = server.new_game(r#"{"variant":"elephants","white":"human","black":"human"}"#);
    let g = id(&game);
    assert_eq!(game["board"]["files"], 6);
    // The lame Elephant: two squares diagonally, b1-d3, over an empty c2.
    let after = play(&server, &g, "b1d3");
    assert_eq!(sans(&after), ["Ed3"]);
    let (status, body) = server.post(&format!("/api/games/{g}/move"), r#"{"move":"b6b4"}"#);
    assert_eq!(status, 400, "{body}");
}

#[test]
fn a_game_between_two_people_is_played_taken_back_and_exported() {
    let server = Server::start();
    let game = server.new_game(r#"{"variant":"chess","white":"human","black":"human"}"#);
    let g = id(&game);
    assert_eq!(game["legal"].as_array().unwrap().len(), 20);
    assert_eq!(game["to_move"], "human");
    play(&server, &g, "e4");
    // Wire notation, with the ply the move was chosen after.
    let after = server.ok(
        "POST",
        &format!("/api/games/{g}/move"),
        r#"{"move":"e7e5","ply":1}"#,
    );
    assert_eq!(sans(&after), ["e4", "e5"]);
    assert_eq!(after["board"]["last"]["from"], "e7");
    // A move chosen in a position that has changed since is refused.
    let (status, body) = server.post(&format!("/api/games/{g}/move"), r#"{"move":"Nf3","ply":1}"#);
    assert_eq!(status, 409, "{body}");
    assert!(error_of(&body).contains("changed"));
    // An illegal move changes nothing.
    let (status, body) = server.post(&format!("/api/games/{g}/move"), r#"{"move":"Ke3"}"#);
    assert_eq!(status, 400);
    assert!(error_of(&body).contains("Ke3"));
    let now = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(sans(&now), ["e4", "e5"]);
    // Take back, between two people, one move.
    let back = server.ok("POST", &format!("/api/games/{g}/undo"), "");
    assert_eq!(sans(&back), ["e4"]);
    play(&server, &g, "e5");
    for m in ["Bc4", "Nc6", "Qh5", "Nf6", "Qxf7"] {
        play(&server, &g, m);
    }
    let over = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(over["result"]["result"], "1-0");
    assert_eq!(over["result"]["reason"], "checkmate");
    assert_eq!(over["to_move"], "nobody");
    let (status, body) = server.post(&format!("/api/games/{g}/move"), r#"{"move":"Ke7"}"#);
    assert_eq!(status, 409, "{body}");
    let (status, pgn) = server.get(&format!("/api/games/{g}/pgn"));
    assert_eq!(status, 200);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(
        pgn.contains("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# {White wins by checkmate} 1-0"),
        "{pgn}"
    );
    let (status, fen) = server.get(&format!("/api/games/{g}/fen"));
    assert_eq!(status, 200);
    assert_eq!(fen.trim(), over["fen"].as_str().unwrap());
    let (status, svg) = server.get(&format!("/api/games/{g}/diagram.svg"));
    assert_eq!(status, 200);
    assert!(
        svg.contains("<svg") && svg.contains("class=\"check\""),
        "the mated King is marked"
    );
    // The PGN, imported into another game, gives the same game.
    let other = server.new_game(r#"{"variant":"magi","white":"human","black":"human"}"#);
    let imported = server.ok(
        "POST",
        &format!("/api/games/{}/load", id(&other)),
        &serde_json::json!({ "pgn": pgn }).to_string(),
    );
    assert_eq!(imported["variant"], "chess");
    assert_eq!(sans(&imported), sans(&over));
    assert_eq!(imported["result"]["result"], "1-0");
    // A FEN loaded keeps the players.
    let fen_game = server.ok(
        "POST",
        &format!("/api/games/{g}/load"),
        r#"{"fen":"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"}"#,
    );
    assert_eq!(fen_game["moves"].as_array().unwrap().len(), 0);
    assert!(fen_game["result"].is_null());
    assert_eq!(moves_of_kind(&fen_game, "en-passant")[0]["san"], "exd6");
    assert_eq!(
        server
            .send("DELETE", &format!("/api/games/{g}"), &[], b"")
            .0,
        204
    );
    assert_eq!(server.get(&format!("/api/games/{g}")).0, 404);
}

#[test]
fn every_special_move_comes_with_its_structure_and_plays_by_its_wire_form() {
    let server = Server::start();
    let humans = |variant: &str, fen: &str| {
        server.new_game(&format!(
            r#"{{"variant":"{variant}","white":"human","black":"human","fen":"{fen}"}}"#
        ))
    };
    // Deathmatch swap-in: from = to, the new piece.
    let dm = server.new_game(r#"{"variant":"deathmatch","white":"human","black":"human"}"#);
    let swaps = moves_of_kind(&dm, "swap-in");
    let c1 = swaps.iter().find(|m| m["from"] == "c1").expect("Bc1=M");
    assert_eq!(
        (c1["to"].as_str(), c1["piece"]["letter"].as_str()),
        (Some("c1"), Some("M"))
    );
    assert_eq!(c1["san"], "Bc1=M");
    // Deathmatch 6th rank: each Magician and each of H and T.
    let six = humans("deathmatch", "4k3/8/8/4P3/8/8/2M2M2/4K3 w - - 0 1");
    let mut t: Vec<(String, String, String)> = moves_of_kind(&six, "transform")
        .iter()
        .map(|m| {
            (
                m["aux"].as_str().unwrap().to_string(),
                m["piece"]["letter"].as_str().unwrap().to_string(),
                m["san"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    t.sort();
    assert_eq!(
        t.iter()
            .map(|(a, p, _)| format!("{a}{p}"))
            .collect::<Vec<_>>(),
        ["c2H", "c2T", "f2H", "f2T"]
    );
    let m = moves_of_kind(&six, "transform")
        .into_iter()
        .find(|m| m["aux"] == "f2" && m["piece"]["letter"] == "T")
        .unwrap()["wire"]
        .as_str()
        .unwrap()
        .to_string();
    let played = play(&server, &id(&six), &m);
    assert_eq!(sans(&played), ["e6 Mf2=T"]);
    assert!(
        played["board"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["square"] == "f2" && p["name"] == "Telepath")
    );
    // Legacy: the piece is dictated by the opponent's strongest piece (a Queen: Prime Minister).
    let legacy = humans("deathmatch-legacy", "3qk3/8/8/4P3/8/8/2M5/4K3 w - - 0 1");
    let dictated = moves_of_kind(&legacy, "transform");
    assert_eq!(dictated.len(), 1);
    assert_eq!(dictated[0]["piece"]["letter"], "V");
    // Magician Chess spells: from the hole, carry or drop.
    let mc = humans(
        "magician-chess",
        "3k3/3*3/*5*/*2*n1*/*1M3*/3*3/3K3 w - - 0 1",
    );
    let e4: Vec<&str> = mc["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "d4" && m["to"] == "e4")
        .map(|m| m["kind"].as_str().unwrap())
        .collect();
    assert_eq!(e4, ["spell-carry", "spell-drop"]);
    let dropped = play(&server, &id(&mc), "d4e4x");
    assert_eq!(sans(&dropped), ["Hxe4"]);
    let holes = dropped["board"]["holes"].as_array().unwrap();
    assert!(holes.contains(&Value::from("e4")) && !holes.contains(&Value::from("d4")));
    // Castling with the Rook's square, in each variant's form.
    let castle = humans(
        "magician-chess",
        "r2k2r/ppp*ppp/*5*/*2*2*/*5*/PPP*PPP/R2K2R w KQkq - 0 1",
    );
    let b = moves_of_kind(&castle, "castle")
        .into_iter()
        .find(|m| m["to"] == "b1")
        .unwrap();
    assert_eq!(
        (b["rook"].as_str(), b["san"].as_str()),
        (Some("a1"), Some("0-0(b)"))
    );
    let magi = humans(
        "magi",
        "rnbcqk3r/pppppppppp/3p2p3/10/10/10/10/3P2P3/PPPPPPPPPP/RNBCQK3R w KQkq - 0 1",
    );
    let o = &moves_of_kind(&magi, "castle")[0];
    assert_eq!(
        (o["from"].as_str(), o["to"].as_str(), o["rook"].as_str()),
        (Some("f1"), Some("i1"), Some("j1"))
    );
    // Royal Magician: the carrier's move, the piece, the square.
    let royal = humans(
        "royal-magician",
        "rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4",
    );
    let drops = moves_of_kind(&royal, "drop");
    assert!(
        drops
            .iter()
            .all(|m| m["aux"].is_string() && m["piece"].is_object())
    );
    let pieces: std::collections::BTreeSet<&str> = drops
        .iter()
        .filter(|m| m["from"] == "e3" && m["to"] == "f4")
        .map(|m| m["piece"]["letter"].as_str().unwrap())
        .collect();
    assert_eq!(pieces.into_iter().collect::<Vec<_>>(), ["B", "N"]);
    assert_eq!(royal["board"]["reserves"].as_array().unwrap().len(), 4);
    let played = play(&server, &id(&royal), "e3f4,n@c5");
    assert_eq!(sans(&played), ["Kf4/N@c5"]);
    let white_king_tray = played["board"]["reserves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["color"] == "white" && r["square"] == "f4")
        .unwrap()
        .clone();
    assert_eq!(white_king_tray["holds"].as_array().unwrap().len(), 2);
    // Promotion: one move per piece of the variant's list.
    let promo = humans("magi", "k9/4P5/10/10/10/10/10/10/10/K9 w - - 0 1");
    let mut letters: Vec<&str> = moves_of_kind(&promo, "promotion")
        .iter()
        .map(|m| m["piece"]["letter"].as_str().unwrap())
        .collect();
    letters.sort();
    assert_eq!(letters, ["B", "C", "D", "N", "Q", "R", "W"]);
}

#[test]
fn magus_plays_either_colour_and_mates_when_it_can() {
    let server = Server::start();
    // magus has White and a mate in one.
    let game = server.new_game(
        r#"{"variant":"chess","white":"engine","black":"human","level":1,"fen":"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}"#,
    );
    let g = id(&game);
    let (status, body) = server.post(&format!("/api/games/{g}/move"), r#"{"move":"h6"}"#);
    assert!(status == 409 || status == 400, "{status} {body}");
    let over = server.wait_for(&g, Duration::from_secs(30), |v| !v["result"].is_null());
    assert_eq!(sans(&over), ["Ra8#"]);
    assert_eq!(over["result"]["text"], "White wins by checkmate");
    // magus has Black: it answers the person's move.
    let game = server.new_game(
        r#"{"variant":"magi","white":"human","black":"engine","level":2,"movetime_ms":200}"#,
    );
    let g = id(&game);
    play(&server, &g, "e2e4");
    let answered = server.wait_for(&g, Duration::from_secs(30), |v| {
        v["moves"].as_array().unwrap().len() == 2
    });
    assert_eq!(answered["to_move"], "human");
    // Taking back against magus returns to the person's move.
    let back = server.ok("POST", &format!("/api/games/{g}/undo"), "");
    assert_eq!(back["moves"].as_array().unwrap().len(), 0);
    assert_eq!(back["to_move"], "human");
}

#[test]
fn a_weaker_level_thinks_less_and_move_now_stops_the_search() {
    let server = Server::start();
    let time_to_move = |level: u8| {
        let game = server.new_game(&format!(
            r#"{{"variant":"chess","white":"engine","black":"human","level":{level},"movetime_ms":2500}}"#
        ));
        let start = Instant::now();
        server.wait_for(&id(&game), Duration::from_secs(30), |v| {
            v["moves"].as_array().unwrap().len() == 1
        });
        start.elapsed()
    };
    let weak = time_to_move(1);
    let full = time_to_move(20);
    assert!(weak < Duration::from_millis(1500), "level 1 took {weak:?}");
    assert!(
        full >= Duration::from_millis(2000),
        "level 20 took {full:?}"
    );
    // Move now: magus plays at once what it has.
    let game = server.new_game(
        r#"{"variant":"deathmatch","white":"engine","black":"human","movetime_ms":60000}"#,
    );
    let g = id(&game);
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    server.ok("POST", &format!("/api/games/{g}/stop"), "{}");
    server.wait_for(&g, Duration::from_secs(10), |v| {
        v["moves"].as_array().unwrap().len() == 1
    });
    assert!(start.elapsed() < Duration::from_secs(5));
    // Nothing to stop now.
    assert_eq!(server.post(&format!("/api/games/{g}/stop"), "{}").0, 409);
}

#[test]
fn analysis_shows_lines_of_the_current_position_and_restarts_when_the_person_moves() {
    let server = Server::start();
    let game = server.new_game(r#"{"variant":"magician-chess","analysis":true,"multipv":2}"#);
    let g = id(&game);
    let legal_wires = |v: &Value| -> Vec<String> {
        v["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["wire"].as_str().unwrap().to_string())
            .collect()
    };
    // A line that failed high or low carries only its first move, so the whole lines are
    // awaited: both exact, at depth 3 or more.
    let first = server.wait_for(&g, Duration::from_secs(30), |v| {
        let lines = v["engine"]["lines"].as_array().unwrap();
        lines.len() == 2
            && lines
                .iter()
                .all(|l| l["depth"].as_i64().unwrap() >= 3 && l["bound"] == "exact")
    });
    assert_eq!(first["engine"]["analysing"], true);
    let wires = legal_wires(&first);
    for line in first["engine"]["lines"].as_array().unwrap() {
        assert!(
            wires.contains(&line["wire"][0].as_str().unwrap().to_string()),
            "{line}"
        );
        assert!(line["san"].as_array().unwrap().len() >= 2, "{line}");
        assert!(line["score"].is_object() && line["white_cp"].is_i64());
    }
    // Both sides move in analysis; the lines that come next are for the new position.
    let best = first["engine"]["lines"][0]["wire"][0]
        .as_str()
        .unwrap()
        .to_string();
    let moved = play(&server, &g, &best);
    assert!(moved["engine"]["lines"].as_array().unwrap().is_empty());
    let second = server.wait_for(&g, Duration::from_secs(30), |v| {
        v["engine"]["lines"].as_array().unwrap().len() == 2
    });
    let wires = legal_wires(&second);
    assert_eq!(second["side"], "black");
    for line in second["engine"]["lines"].as_array().unwrap() {
        assert!(
            wires.contains(&line["wire"][0].as_str().unwrap().to_string()),
            "{line}"
        );
    }
    let reply = second["engine"]["lines"][0]["wire"][0]
        .as_str()
        .unwrap()
        .to_string();
    play(&server, &g, &reply);
    // Off: the engine stops; nothing plays for either side.
    let off = server.ok(
        "POST",
        &format!("/api/games/{g}/analysis"),
        r#"{"on":false}"#,
    );
    assert_eq!(off["engine"]["analysing"], false);
    std::thread::sleep(Duration::from_millis(300));
    let later = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(later["moves"].as_array().unwrap().len(), 2);
    assert_eq!(later["engine"]["analysing"], false);
}

#[test]
fn a_clock_that_runs_out_ends_the_game() {
    let server = Server::start();
    let game = server.new_game(
        r#"{"variant":"chess","white":"human","black":"human","clock":{"initial_ms":1000,"increment_ms":0}}"#,
    );
    let g = id(&game);
    assert!(
        game["clock"]["running"].is_null(),
        "no clock runs before the first move"
    );
    let moved = play(&server, &g, "d4");
    assert_eq!(moved["clock"]["running"], "black");
    std::thread::sleep(Duration::from_millis(1200));
    let over = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(over["result"]["result"], "1-0", "{over}");
    assert_eq!(over["result"]["reason"], "time forfeit");
    assert_eq!(over["clock"]["black_ms"], 0);
    let (_, pgn) = server.get(&format!("/api/games/{g}/pgn"));
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"1\"]"), "{pgn}");
    // A game lost on time stays lost: a take-back would revive it at 0:00.
    let (status, body) = server.post(&format!("/api/games/{g}/undo"), "{}");
    assert_eq!(status, 409, "{body}");
    assert!(error_of(&body).contains("lost on time"), "{body}");
    let still = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(still["result"]["reason"], "time forfeit");
    assert_eq!(sans(&still), ["d4"]);
}

#[test]
fn the_magi_payoff_is_scored_when_it_is_chosen() {
    let server = Server::start();
    let new = |scoring: &str| {
        id(&server.new_game(&format!(
            r#"{{"variant":"magi","white":"human","black":"human","scoring":"{scoring}"}}"#
        )))
    };
    let g = new("magi-12");
    play(&server, &g, "e2e4");
    let resigned = server.ok(
        "POST",
        &format!("/api/games/{g}/resign"),
        r#"{"side":"black"}"#,
    );
    assert_eq!(resigned["result"]["text"], "White wins by resignation");
    assert_eq!(resigned["result"]["payoff"], serde_json::json!([12, 0]));
    let (_, pgn) = server.get(&format!("/api/games/{g}/pgn"));
    assert!(
        pgn.contains("[Payoff \"12-0\"]") && pgn.contains("[Variant \"magi\"]"),
        "{pgn}"
    );
    let g = new("magi-12");
    // Between two people a draw offer waits for the other side's consent.
    let offered = server.ok("POST", &format!("/api/games/{g}/draw"), "{}");
    assert!(offered["result"].is_null(), "{offered}");
    assert_eq!(offered["draw_offer"], "white");
    let drawn = server.ok(
        "POST",
        &format!("/api/games/{g}/draw"),
        r#"{"side":"black"}"#,
    );
    assert_eq!(drawn["result"]["result"], "1/2-1/2");
    assert_eq!(drawn["result"]["payoff"], serde_json::json!([6, 6]));
    // Standard scoring: no payoff.
    let g = new("standard");
    let resigned = server.ok("POST", &format!("/api/games/{g}/resign"), "{}");
    assert_eq!(resigned["result"]["result"], "0-1");
    assert!(resigned["result"]["payoff"].is_null());
}

#[test]
fn the_least_recently_used_game_goes_beyond_the_limit() {
    let server = Server::start();
    let first = id(&server.new_game(r#"{"white":"human","black":"human"}"#));
    let second = id(&server.new_game(r#"{"white":"human","black":"human"}"#));
    for _ in 0..31 {
        server.ok("GET", &format!("/api/games/{second}"), "");
        server.new_game(r#"{"white":"human","black":"human"}"#);
    }
    let list: Value = serde_json::from_str(&server.get("/api/games").1).unwrap();
    let held = list["games"].as_array().unwrap();
    assert_eq!(held.len(), 32);
    assert!(!held.contains(&Value::String(first.clone())), "{list}");
    assert!(held.contains(&Value::String(second.clone())), "{list}");
    // Out of memory is not lost: the game is read back from disk when asked for.
    assert_eq!(list["saved"].as_array().unwrap().len(), 33);
    assert_eq!(server.get(&format!("/api/games/{first}")).0, 200);
    assert_eq!(server.get(&format!("/api/games/{second}")).0, 200);
}

/// (method, path, headers, body, expected status, words the message must hold)
type Abuse<'a> = (
    &'a str,
    String,
    Vec<(&'a str, &'a str)>,
    Vec<u8>,
    u16,
    &'a str,
);

#[test]
fn malformed_and_hostile_requests_get_a_4xx_with_a_message_and_the_server_keeps_answering() {
    let server = Server::start();
    let game = server.new_game(r#"{"variant":"chess","white":"human","black":"human"}"#);
    let g = id(&game);
    let json = vec![("Content-Type", "application/json")];
    let mv = format!("/api/games/{g}/move");
    let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
    let long_move = format!("{{\"move\":\"{}\"}}", "e".repeat(10_000));
    let cases: Vec<Abuse> = vec![
        ("POST", "/api/games".into(), json.clone(), b"{".to_vec(), 400, "not valid"),
        ("POST", "/api/games".into(), json.clone(), b"[1,2]".to_vec(), 400, "not valid"),
        ("POST", "/api/games".into(), json.clone(), b"{\"variant\":\"chess\",\"colour\":1}".to_vec(), 400, "unknown field"),
        ("POST", "/api/games".into(), json.clone(), b"{\"variant\":7}".to_vec(), 400, "invalid type"),
        ("POST", "/api/games".into(), json.clone(), b"{\"variant\":\"no-such\"}".to_vec(), 400, "unknown variant"),
        ("POST", "/api/games".into(), json.clone(), b"{\"level\":21}".to_vec(), 400, "level"),
        ("POST", "/api/games".into(), json.clone(), b"{\"level\":300}".to_vec(), 400, "invalid value"),
        ("POST", "/api/games".into(), json.clone(), b"{\"white\":\"robot\"}".to_vec(), 400, "human or engine"),
        ("POST", "/api/games".into(), json.clone(), b"{\"multipv\":0}".to_vec(), 400, "multipv"),
        ("POST", "/api/games".into(), json.clone(), b"{\"movetime_ms\":0}".to_vec(), 400, "movetime_ms"),
        ("POST", "/api/games".into(), json.clone(), b"{\"clock\":{\"initial_ms\":-5}}".to_vec(), 400, "invalid value"),
        ("POST", "/api/games".into(), json.clone(), b"{\"clock\":{\"initial_ms\":10}}".to_vec(), 400, "initial_ms"),
        ("POST", "/api/games".into(), json.clone(), b"{\"scoring\":\"points\"}".to_vec(), 400, "magi-12"),
        ("POST", "/api/games".into(), json.clone(), b"{\"variant\":\"chess\",\"scoring\":\"magi-12\"}".to_vec(), 400, "for the variant magi only"),
        ("POST", "/api/games".into(), json.clone(), b"{\"fen\":\"8/8/8 w\"}".to_vec(), 400, "FEN"),
        ("POST", "/api/games".into(), json.clone(), b"{\"fen\":\"\"}".to_vec(), 400, "FEN"),
        ("POST", "/api/games".into(), json.clone(), b"{\"fen\":\"4k3/8/8/8/8/8/8/P3K3 w - - 0 1\"}".to_vec(), 400, "first rank"),
        ("POST", "/api/games".into(), json.clone(), b"{\"fen\":\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\"}".to_vec(), 400, "FEN"),
        ("POST", "/api/games".into(), json.clone(), b"{\"variant\":\"magician-chess\",\"fen\":\"rmnknmr/ppppppp/7/7/7/PPPPPPP/RMNKNMR w - - 0 1\"}".to_vec(), 400, "holes"),
        ("POST", "/api/games".into(), json.clone(), format!("{{\"fen\":\"{}\"}}", "p".repeat(5000)).into_bytes(), 400, "FEN"),
        ("POST", "/api/games".into(), json.clone(), deep.clone().into_bytes(), 400, "not valid"),
        ("POST", "/api/games".into(), json.clone(), vec![0xff, 0xfe, b'{', b'}'], 400, "UTF-8"),
        ("POST", "/api/games".into(), json.clone(), b"{\"variant\":\"chess\\u0000\"}".to_vec(), 400, "unknown variant"),
        ("POST", mv.clone(), json.clone(), b"{\"move\":\"\"}".to_vec(), 400, "empty"),
        ("POST", mv.clone(), json.clone(), b"{\"move\":\"e2e5\"}".to_vec(), 400, "e2e5"),
        ("POST", mv.clone(), json.clone(), b"{\"move\":\"Qxh7#\"}".to_vec(), 400, "Qxh7"),
        ("POST", mv.clone(), json.clone(), b"{\"move\":\"z9z9\"}".to_vec(), 400, "z9z9"),
        ("POST", mv.clone(), json.clone(), long_move.into_bytes(), 400, "64 characters"),
        ("POST", mv.clone(), json.clone(), b"{\"mv\":\"e4\"}".to_vec(), 400, "unknown field"),
        ("POST", mv.clone(), json.clone(), b"{\"move\":\"e4\",\"ply\":-1}".to_vec(), 400, "invalid value"),
        ("POST", mv.clone(), json.clone(), b"{\"move\":\"e4\",\"ply\":7}".to_vec(), 409, "changed"),
        ("POST", format!("/api/games/{g}/load"), json.clone(), b"{}".to_vec(), 400, "either"),
        ("POST", format!("/api/games/{g}/load"), json.clone(), b"{\"pgn\":\"1. e4 e5 2. Ke3\"}".to_vec(), 400, "Ke3"),
        ("POST", format!("/api/games/{g}/load"), json.clone(), b"{\"pgn\":\"[Variant \\\"nope\\\"]\\n\\n1. e4 *\"}".to_vec(), 400, "unknown variant"),
        ("POST", format!("/api/games/{g}/load"), json.clone(), b"{\"pgn\":\"\"}".to_vec(), 400, "no game"),
        ("POST", format!("/api/games/{g}/analysis"), json.clone(), b"{\"multipv\":11}".to_vec(), 400, "multipv"),
        ("POST", format!("/api/games/{g}/resign"), json.clone(), b"{\"side\":\"red\"}".to_vec(), 400, "white or black"),
        ("POST", format!("/api/games/{g}/undo"), json.clone(), b"{\"plies\":3}".to_vec(), 400, "unknown field"),
        ("POST", format!("/api/games/{g}/undo"), json.clone(), b"{}".to_vec(), 409, "no move"),
        ("POST", format!("/api/games/{g}/explode"), json.clone(), b"{}".to_vec(), 404, "no action"),
        ("GET", format!("/api/games/{g}/secrets"), vec![], vec![], 404, "pgn, fen"),
        ("GET", "/api/games/999999".into(), vec![], vec![], 404, "no game"),
        ("GET", "/api/games/-1".into(), vec![], vec![], 404, "no game"),
        ("GET", "/api/games/99999999999999999999999".into(), vec![], vec![], 404, "no game"),
        ("GET", "/api/games/%2e%2e%2f%2e%2e".into(), vec![], vec![], 404, "no game"),
        ("GET", "/api/nothing".into(), vec![], vec![], 404, "nothing at"),
        ("GET", "/../../etc/passwd".into(), vec![], vec![], 404, ""),
        ("PUT", "/api/games".into(), json.clone(), b"{}".to_vec(), 405, "PUT"),
        ("DELETE", "/api/variants".into(), vec![], vec![], 405, "DELETE"),
        ("POST", "/api/games".into(), vec![("Content-Type", "text/plain")], b"{}".to_vec(), 415, "JSON"),
        ("POST", "/api/games".into(), vec![("Content-Type", "application/x-www-form-urlencoded")], b"a=b".to_vec(), 415, "JSON"),
        ("POST", "/api/games".into(), vec![("Content-Type", "application/json"), ("Content-Length", "99999999999999")], vec![], 413, "larger"),
        ("POST", "/api/games".into(), json.clone(), vec![b' '; 2 << 20], 413, "larger"),
        ("GET", "/api/variants".into(), vec![("Origin", "http://evil.example")], vec![], 403, "not served"),
        ("POST", "/api/games".into(), vec![("Content-Type", "application/json"), ("Origin", "https://127.0.0.1.evil.example")], b"{}".to_vec(), 403, "not served"),
    ];
    for (method, path, headers, body, status, words) in &cases {
        let (got, text) = server.send(method, path, headers, body);
        assert_eq!(got, *status, "{method} {path}: {text}");
        let message = error_of(&text);
        assert!(
            message.to_lowercase().contains(&words.to_lowercase()),
            "{method} {path}: '{message}' does not say '{words}'"
        );
        assert!(
            server.alive(),
            "the server stopped answering after {method} {path}"
        );
    }
    // A Host that is not this server (DNS rebinding): refused.
    let raw = server
        .raw(b"GET /api/variants HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n");
    let (status, body) = parse_response(&raw);
    assert_eq!(status, 403);
    assert!(error_of(&body).contains("evil.example"));
    // A chunked body past the limit.
    let mut chunked = format!(
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        server.port
    )
    .into_bytes();
    for _ in 0..40 {
        chunked.extend_from_slice(b"10000\r\n");
        chunked.extend(std::iter::repeat_n(b' ', 0x10000));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let (status, _) = parse_response(&server.raw(&chunked));
    assert_eq!(status, 413);
    // Bytes that are not HTTP at all, half requests, and connections closed early.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for i in 0..300 {
        let len = (next() % 300) as usize;
        let mut junk: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if i % 3 == 0 {
            let mut start = b"POST /api/games/1/move HTTP/1.1\r\n".to_vec();
            start.append(&mut junk);
            junk = start;
        }
        server.throw(&junk);
    }
    // Bytes that are not HTTP get the same JSON error as every other refusal.
    for garbage in [
        &b"NOT HTTP AT ALL\r\n\r\n"[..],
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",
    ] {
        let (status, body) = parse_response(&server.raw(garbage));
        assert_eq!(status, 400, "{garbage:?}: {body}");
        assert!(error_of(&body).contains("HTTP"), "{garbage:?}: {body}");
    }
    for _ in 0..50 {
        let mut s = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        use std::io::Write;
        let _ = s.write_all(b"GET /api/varia");
    }
    // Still answering, and the game is as it was.
    assert!(server.alive());
    let same = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(same["fen"], game["fen"]);
    play(&server, &g, "e4");
}

#[test]
fn analysis_beside_a_game_against_magus_leaves_the_game_going() {
    let server = Server::start();
    let game = server.new_game(
        r#"{"variant":"chess","white":"human","black":"engine","level":1,"movetime_ms":200}"#,
    );
    let g = id(&game);
    let on = server.ok(
        "POST",
        &format!("/api/games/{g}/analysis"),
        r#"{"on":true,"multipv":2}"#,
    );
    assert_eq!(on["settings"]["show_lines"], true, "{on}");
    assert_eq!(on["settings"]["analysis"], false, "{on}");
    assert_eq!(on["settings"]["black"], "engine");
    let limit = Duration::from_secs(30);
    let lines = |v: &Value| v["engine"]["lines"].as_array().unwrap().len();
    server.wait_for(&g, limit, |v| {
        v["engine"]["analysing"] == true && lines(v) == 2
    });
    // The person moves: magus answers, the lines stay shown, and the person's next
    // position is analysed in turn.
    play(&server, &g, "e4");
    let answered = server.wait_for(&g, limit, |v| sans(v).len() == 2);
    assert_eq!(answered["settings"]["show_lines"], true);
    assert_eq!(answered["settings"]["black"], "engine");
    server.wait_for(&g, limit, |v| {
        v["engine"]["analysing"] == true && lines(v) == 2 && v["to_move"] == "human"
    });
    // Hidden again: the engine stops analysing, the game goes on.
    let off = server.ok(
        "POST",
        &format!("/api/games/{g}/analysis"),
        r#"{"on":false}"#,
    );
    assert_eq!(off["engine"]["analysing"], false);
    play(&server, &g, "d4");
    server.wait_for(&g, limit, |v| sans(v).len() == 4);
}

#[test]
fn a_draw_offer_between_two_people_waits_for_the_other_side_and_lapses_when_it_plays_on() {
    let server = Server::start();
    let g = id(&server.new_game(r#"{"variant":"chess","white":"human","black":"human"}"#));
    let draw = |body: &str| server.post(&format!("/api/games/{g}/draw"), body);
    play(&server, &g, "e4");
    // Black, to move, offers: nothing ends yet.
    let (status, body) = draw("{}");
    assert_eq!(status, 200, "{body}");
    let offered: Value = serde_json::from_str(&body).unwrap();
    assert!(offered["result"].is_null(), "{offered}");
    assert_eq!(offered["draw_offer"], "black");
    let (status, body) = draw("{}");
    assert_eq!(status, 409, "{body}");
    assert!(error_of(&body).contains("already offered"), "{body}");
    // The offer stands while Black moves, and lapses when White plays on.
    assert_eq!(play(&server, &g, "e5")["draw_offer"], "black");
    let declined = play(&server, &g, "Nf3");
    assert!(declined["draw_offer"].is_null(), "{declined}");
    assert!(declined["result"].is_null(), "{declined}");
    // Offered by one side and accepted by the other.
    draw(r#"{"side":"black"}"#);
    let (status, body) = draw(r#"{"side":"white"}"#);
    assert_eq!(status, 200, "{body}");
    let agreed: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(agreed["result"]["text"], "Draw by agreement");
}

#[test]
fn every_answer_forbids_other_sites_to_frame_the_page() {
    let server = Server::start();
    for request in [
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n",
        "GET /api/nothing HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nConnection: close\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
    ] {
        let request = request.replace("PORT", &server.port.to_string());
        let raw = String::from_utf8_lossy(&server.raw(request.as_bytes())).to_lowercase();
        let head = raw.split("\r\n\r\n").next().unwrap_or("");
        assert!(head.contains("x-frame-options: deny"), "{request}: {head}");
        assert!(
            head.contains("content-security-policy: frame-ancestors 'none'"),
            "{request}: {head}"
        );
    }
}

#[test]
fn an_earlier_position_of_the_game_is_given_by_its_ply() {
    let server = Server::start();
    let game = server.new_game(r#"{"variant":"chess","white":"human","black":"human"}"#);
    let g = id(&game);
    play(&server, &g, "e4");
    play(&server, &g, "e5");
    let start = server.ok("GET", &format!("/api/games/{g}/ply/0"), "");
    assert_eq!(start["fen"], game["fen"]);
    assert!(start["board"]["last"].is_null());
    let first = server.ok("GET", &format!("/api/games/{g}/ply/1"), "");
    assert_eq!(first["side"], "black");
    assert_eq!(first["board"]["last"]["to"], "e4");
    assert!(
        first["fen"]
            .as_str()
            .unwrap()
            .starts_with("rnbqkbnr/pppppppp/8/8/4P3/")
    );
    for beyond in ["3", "-1", "x", "99999999999999999999999"] {
        let (status, body) = server.get(&format!("/api/games/{g}/ply/{beyond}"));
        assert_eq!(status, 404, "{beyond}: {body}");
        assert!(error_of(&body).contains("no position"), "{body}");
    }
}

#[test]
fn a_half_sent_request_is_cut_off_after_the_read_timeout() {
    use std::io::{Read, Write};
    let server = Server::start();
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(40)))
        .unwrap();
    stream
        .write_all(b"POST /api/games HTTP/1.1\r\nHost: 127")
        .unwrap();
    let start = Instant::now();
    let mut buf = [0u8; 256];
    // The server hangs up (15 s of silence) rather than wait for the rest for ever.
    let n = stream.read(&mut buf).unwrap_or(0);
    let waited = start.elapsed();
    assert_eq!(n, 0, "{}", String::from_utf8_lossy(&buf[..n]));
    assert!(
        waited >= Duration::from_secs(10) && waited < Duration::from_secs(35),
        "{waited:?}"
    );
    assert!(server.alive());
}

/// magus against itself at the lowest level still takes the watchable time a move (0.7 s), so
/// that a person can follow the game.
#[test]
fn magus_against_itself_takes_a_watchable_time_a_move() {
    let server = Server::start();
    let start = std::time::Instant::now();
    let game =
        server.new_game(r#"{"variant":"chess","white":"engine","black":"engine","level":0}"#);
    let g = id(&game);
    server.wait_for(&g, Duration::from_secs(30), |v| {
        v["moves"].as_array().unwrap().len() >= 3
    });
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(3 * 700 - 50),
        "three moves in {took:?}"
    );
}
