//! `magus gui` keeps its games on disk: each one written after every move, as PGN with the
//! game's state, reopened by a server started again in the same folder, listed among the
//! saved games, and deleted only when asked.

mod gui_common;

use gui_common::{Server, games_folder, id, sans};
use serde_json::Value;

fn play(server: &Server, game: &str, mv: &str) -> Value {
    server.ok(
        "POST",
        &format!("/api/games/{game}/move"),
        &format!("{{\"move\":\"{mv}\"}}"),
    )
}

#[test]
fn a_game_is_kept_after_every_move_and_reopened_by_a_server_started_again() {
    let dir = games_folder();
    let file = |g: &str| dir.join(format!("{g}.pgn"));
    let g = {
        let server = Server::start_in(&dir, &[]);
        let game = server.new_game(
            r#"{"variant":"deathmatch","white":"human","black":"human","clock":{"initial_ms":300000,"increment_ms":2000}}"#,
        );
        let g = id(&game);
        play(&server, &g, "e4");
        play(&server, &g, "e5");
        let kept = std::fs::read_to_string(file(&g)).expect("the game is on disk");
        for words in [
            "1. e4 e5",
            "[Variant \"deathmatch\"]",
            "[MagusPlayers \"human human\"]",
            "[MagusClock \"300000 2000\"]",
        ] {
            assert!(kept.contains(words), "{words} not in\n{kept}");
        }
        let offered = server.ok("POST", &format!("/api/games/{g}/draw"), "{}");
        assert_eq!(offered["draw_offer"], "white");
        g
        // The server stops here.
    };
    let server = Server::start_in(&dir, &[]);
    let back = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(sans(&back), ["e4", "e5"]);
    assert_eq!(back["variant"], "deathmatch");
    assert_eq!(back["settings"]["black"], "human");
    assert_eq!(back["settings"]["clock"]["initial_ms"], 300000);
    assert_eq!(back["draw_offer"], "white");
    assert!(back["result"].is_null());
    let white_ms = back["clock"]["white_ms"].as_u64().unwrap();
    assert!((290_000..=302_000).contains(&white_ms), "{white_ms}");
    // Listed among the saved games; a new game gets an id of its own.
    let list: Value = serde_json::from_str(&server.get("/api/games").1).unwrap();
    let saved = list["saved"].as_array().unwrap();
    let entry = saved
        .iter()
        .find(|s| s["id"] == g.as_str())
        .expect("listed");
    assert_eq!(entry["variant"], "deathmatch");
    assert_eq!(entry["moves"], 2);
    let other = id(&server.new_game("{}"));
    assert!(other.parse::<u64>().unwrap() > g.parse::<u64>().unwrap());
    // Played on, and ended: both kept.
    play(&server, &g, "Nf3");
    assert!(
        std::fs::read_to_string(file(&g))
            .unwrap()
            .contains("2. Nf3")
    );
    server.ok(
        "POST",
        &format!("/api/games/{g}/resign"),
        r#"{"side":"black"}"#,
    );
    drop(server);
    let server = Server::start_in(&dir, &[]);
    let ended = server.ok("GET", &format!("/api/games/{g}"), "");
    assert_eq!(ended["result"]["text"], "White wins by resignation");
    assert_eq!(sans(&ended), ["e4", "e5", "Nf3"]);
    // Deleted only when asked: then gone from disk too.
    let (status, body) = server.send("DELETE", &format!("/api/games/{g}"), &[], b"");
    assert_eq!(status, 204, "{body}");
    assert!(!file(&g).exists());
    assert_eq!(server.get(&format!("/api/games/{g}")).0, 404);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
