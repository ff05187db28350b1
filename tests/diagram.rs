//! `magus diagram` and the piece drawings: the SVG is well-formed XML with one square per board
//! square and one piece per piece, each drawn with its picture (never a letter); holes are pits
//! with nothing on them; reserves are small pieces in a tray per carrier; the side to move and a
//! King in check are shown; the last move is highlighted; a terminal gets a message, not XML.

mod common;

use magus::board::{Bitboard, Color};
use magus::diagram::pieces;
use magus::game::AnyPosition;
use magus::variant::{Registry, Variant};
use magus::with_position;
use roxmltree::{Document, Node};

fn render(pos: &AnyPosition) -> String {
    with_position!(pos, p => magus::diagram::svg::render(p, None))
}

fn parse(svg: &str) -> Document<'_> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("the SVG parses as XML: {e}\n{svg}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

fn with_class<'a, 'i>(doc: &'a Document<'i>, class: &str) -> Vec<Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

/// The `<symbol>` a `<use>` element places.
fn symbol_of<'a, 'i>(doc: &'a Document<'i>, used: Node<'a, 'i>) -> Node<'a, 'i> {
    let href = used.attribute("href").expect("a <use> has an href");
    let id = href
        .strip_prefix('#')
        .expect("the href points into the document");
    doc.descendants()
        .find(|n| n.tag_name().name() == "symbol" && n.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no symbol '{id}'"))
}

/// The text of a symbol's drawing as written in the document, to compare with a drawing.
fn symbol_text<'i>(svg: &'i str, symbol: Node<'_, 'i>) -> &'i str {
    let range = symbol.range();
    let whole = &svg[range];
    let start = whole.find('>').unwrap() + 1;
    let end = whole.rfind("</symbol>").unwrap();
    &whole[start..end]
}

fn has_text(node: Node) -> bool {
    node.descendants().any(|n| n.tag_name().name() == "text")
}

/// A position of `variant` with one piece of every kind of each side on the board: kings in
/// opposite corners, the start position's holes, White's other pieces from its 2nd rank up and
/// Black's from its 2nd rank down, leaving out the holes.
fn every_piece_position(v: &'static Variant) -> AnyPosition {
    let (files, ranks) = (v.files, v.ranks);
    let start = AnyPosition::from_fen(v, None).unwrap();
    let holes: Vec<String> =
        with_position!(&start, p => p.holes().squares().map(|s| p.layout().dims.name(s)).collect());
    let mut tokens: Vec<String> = holes.iter().map(|h| format!("*{h}")).collect();
    tokens.push("Ka1".to_string());
    tokens.push(format!("k{}{ranks}", (b'a' + files - 1) as char));
    let free = |rank: u8| {
        (0..files)
            .map(move |f| format!("{}{rank}", (b'a' + f) as char))
            .filter(|sq| !holes.contains(sq))
    };
    let white_squares = (2..ranks).flat_map(&free);
    let black_squares = (2..ranks).rev().flat_map(&free);
    let others = v
        .pieces
        .iter()
        .filter(|p| p.role != magus::variant::Role::King)
        .map(|p| p.letter);
    for ((letter, w), b) in others.zip(white_squares).zip(black_squares) {
        tokens.push(format!("{letter}{w}"));
        tokens.push(format!("{}{b}", letter.to_ascii_lowercase()));
    }
    let board = common::place(files, ranks, &tokens.join(" "));
    let fen = format!("{board} w - - 0 1");
    AnyPosition::from_fen(v, Some(&fen)).unwrap_or_else(|e| panic!("{}: {fen}: {e}", v.name))
}

#[test]
fn every_variant_start_position_draws_one_square_and_one_picture_per_piece() {
    let registry = Registry::builtin();
    for v in registry.all() {
        let pos = AnyPosition::from_fen(v, None).unwrap();
        let svg = render(&pos);
        let doc = parse(&svg);
        let (occupied, holes) = with_position!(&pos, p => (p.occupied().count_ones() as usize, p.holes().count_ones() as usize));
        assert_eq!(with_class(&doc, "square").len(), v.squares(), "{}", v.name);
        assert_eq!(with_class(&doc, "piece").len(), occupied, "{}", v.name);
        assert_eq!(with_class(&doc, "hole").len(), holes, "{}", v.name);
        for piece in with_class(&doc, "piece") {
            assert_eq!(piece.tag_name().name(), "use", "{}", v.name);
            assert!(
                !has_text(symbol_of(&doc, piece)),
                "{}: a letter drawn",
                v.name
            );
        }
    }
}

#[test]
fn every_piece_of_every_builtin_variant_has_its_own_drawing_in_both_colours() {
    let registry = Registry::builtin();
    for v in registry.all() {
        for piece in &v.pieces {
            let white = pieces::piece_svg(&piece.name, Color::White)
                .unwrap_or_else(|| panic!("{}: no drawing for {}", v.name, piece.name));
            let black = pieces::piece_svg(&piece.name, Color::Black).unwrap();
            assert_ne!(white, black, "{}: {}", v.name, piece.name);
            for svg in [white, black] {
                let doc = parse(svg);
                assert_eq!(doc.root_element().attribute("viewBox"), Some("0 0 45 45"));
                assert!(!has_text(doc.root_element()), "{}: lettered", piece.name);
                assert!(
                    doc.descendants().count() > 4,
                    "{}: nearly empty",
                    piece.name
                );
            }
        }
    }
    // Every drawing is its own: no two names share a picture.
    let all: Vec<&str> = pieces::names()
        .map(|n| pieces::piece_svg(n, Color::White).unwrap())
        .collect();
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            assert_ne!(a, b);
        }
    }
}

#[test]
fn the_diagram_places_each_pieces_drawing_on_its_square() {
    let registry = Registry::builtin();
    for v in registry.all() {
        let pos = every_piece_position(v);
        let svg = render(&pos);
        let doc = parse(&svg);
        let mut seen = 0;
        for used in with_class(&doc, "piece") {
            let square = used.attribute("data-square").unwrap();
            let name = used.attribute("data-piece").unwrap();
            let sq = with_position!(&pos, p => p.layout().dims.parse_square(square).unwrap());
            let piece = with_position!(&pos, p => p.piece_at(sq)).expect("a piece there");
            let def = &v.pieces[piece.kind().index()];
            assert_eq!(name, def.name, "{} {square}", v.name);
            let drawing = pieces::piece_svg(&def.name, piece.color()).unwrap();
            assert_eq!(
                symbol_text(&svg, symbol_of(&doc, used)),
                pieces::inner(drawing),
                "{} {square}: not the {} drawing",
                v.name,
                def.name
            );
            seen += 1;
        }
        assert_eq!(seen, 2 * v.pieces.len(), "{}", v.name);
    }
}

#[test]
fn the_piece_set_shows_every_piece_of_the_variant_in_both_colours() {
    let registry = Registry::builtin();
    for v in registry.all() {
        let svg = magus::diagram::svg::piece_set(v);
        let doc = parse(&svg);
        assert_eq!(
            with_class(&doc, "piece-card").len(),
            v.pieces.len(),
            "{}",
            v.name
        );
        for piece in &v.pieces {
            let used: Vec<&str> = with_class(&doc, "piece")
                .into_iter()
                .filter(|n| n.attribute("data-piece") == Some(piece.name.as_str()))
                .map(|n| symbol_text(&svg, symbol_of(&doc, n)))
                .collect();
            let drawings: Vec<&str> = Color::BOTH
                .iter()
                .map(|&c| pieces::inner(pieces::piece_svg(&piece.name, c).unwrap()))
                .collect();
            assert_eq!(used, drawings, "{}: {}", v.name, piece.name);
        }
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(["diagram", "--variant", "magi", "--pieces", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    assert_eq!(with_class(&parse(&svg), "piece-card").len(), 9);
}

#[test]
fn the_drawings_use_only_their_three_colours_and_no_ids() {
    let allowed = [pieces::BODY, pieces::OUTLINE, pieces::DETAIL, "none"];
    for name in pieces::names() {
        let svg = pieces::piece_svg(name, Color::White).unwrap();
        let doc = parse(svg);
        for node in doc.descendants().filter(|n| n.is_element()) {
            assert!(node.attribute("id").is_none(), "{name}: an id");
            for attr in ["fill", "stroke"] {
                if let Some(value) = node.attribute(attr) {
                    assert!(allowed.contains(&value), "{name}: {attr}=\"{value}\"");
                }
            }
        }
    }
}

#[test]
fn names_are_matched_in_any_spelling_and_unknown_pieces_get_a_lettered_disc() {
    let a = pieces::piece_svg("High Priestess", Color::White).unwrap();
    assert_eq!(pieces::piece_svg("High-Priestess", Color::White), Some(a));
    assert_eq!(pieces::piece_svg("high_priestess", Color::White), Some(a));
    assert_eq!(pieces::piece_svg("Zebra", Color::White), None);

    // A user's variant: chess with the Knight renamed to a piece no drawing knows.
    let text = std::fs::read_to_string("variants/chess.toml")
        .unwrap()
        .replace("name = \"chess\"", "name = \"zebra-chess\"")
        .replace("name = \"Knight\"", "name = \"Zebra\"");
    let v: &'static Variant = Box::leak(Box::new(
        magus::variant::parse_variant(&text, "zebra.toml").unwrap(),
    ));
    let zebra = v.pieces.iter().find(|p| p.name == "Zebra").unwrap();
    for color in Color::BOTH {
        let image = pieces::piece_image(zebra, color);
        let doc = parse(&image);
        let letter: String = doc
            .descendants()
            .filter(|n| n.tag_name().name() == "text")
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(letter, "N");
    }
    assert_ne!(
        pieces::piece_image(zebra, Color::White),
        pieces::piece_image(zebra, Color::Black)
    );
    let svg = render(&AnyPosition::from_fen(v, None).unwrap());
    let doc = parse(&svg);
    let lettered = with_class(&doc, "piece")
        .into_iter()
        .filter(|&u| has_text(symbol_of(&doc, u)))
        .count();
    assert_eq!(lettered, 4, "the four Zebras, and only they, are lettered");
}

#[test]
fn a_hole_is_drawn_as_a_pit_with_nothing_on_it() {
    let v = common::variant("magician-chess");
    let pos = AnyPosition::from_fen(v, None).unwrap();
    let svg = render(&pos);
    let doc = parse(&svg);
    let holes: Vec<String> =
        with_position!(&pos, p => p.holes().squares().map(|s| p.layout().dims.name(s)).collect());
    assert_eq!(holes.len(), 9);
    let drawn = with_class(&doc, "hole");
    assert_eq!(drawn.len(), holes.len());
    let piece_squares: Vec<&str> = with_class(&doc, "piece")
        .iter()
        .map(|n| n.attribute("data-square").unwrap())
        .collect();
    for hole in &drawn {
        let square = hole.attribute("data-square").unwrap();
        assert!(holes.iter().any(|h| h == square), "{square} is not a hole");
        assert!(
            !piece_squares.contains(&square),
            "a piece drawn on the hole {square}"
        );
        // A pit: filled shapes only, no disc and no piece picture inside.
        for inner in hole.descendants() {
            let tag = inner.tag_name().name();
            assert!(
                !matches!(tag, "circle" | "ellipse" | "use" | "text"),
                "{square}: {tag}"
            );
        }
    }
}

#[test]
fn reserves_are_drawn_as_pieces_in_a_tray_per_carrier() {
    let v = common::variant("royal-magician");
    let svg = render(&AnyPosition::from_fen(v, None).unwrap());
    let doc = parse(&svg);
    let trays = with_class(&doc, "reserve");
    assert_eq!(trays.len(), 4, "two carriers a side");
    for tray in &trays {
        let side = tray.attribute("data-side").unwrap();
        let carriers: Vec<Node> = tray
            .descendants()
            .filter(|n| n.attribute("class") == Some("reserve-carrier"))
            .collect();
        assert_eq!(carriers.len(), 1);
        assert_eq!(
            symbol_text(&svg, symbol_of(&doc, carriers[0])),
            pieces::inner(
                pieces::piece_svg(
                    tray.attribute("data-carrier").unwrap(),
                    if side == "w" {
                        Color::White
                    } else {
                        Color::Black
                    }
                )
                .unwrap()
            )
        );
        let held: Vec<&str> = tray
            .descendants()
            .filter(|n| n.attribute("class") == Some("reserve-piece"))
            .map(|n| {
                let symbol = symbol_of(&doc, n);
                assert!(!has_text(symbol));
                assert!(
                    symbol
                        .attribute("id")
                        .unwrap()
                        .starts_with(&format!("piece-{side}-"))
                );
                n.attribute("data-piece").unwrap()
            })
            .collect();
        assert_eq!(held, ["Bishop", "Knight", "Rook"]);
    }
    // What was dropped is gone: White's King holds B and R, its Magician all three, Black's
    // King nothing (so it has no tray).
    let fen = "4k3/8/8/8/4K3/3M4/8/8[KBR,MBNR] w - - 0 1";
    let svg = render(&AnyPosition::from_fen(v, Some(fen)).unwrap());
    let doc = parse(&svg);
    let trays: Vec<(String, String, Vec<String>)> = with_class(&doc, "reserve")
        .iter()
        .map(|t| {
            let held = t
                .descendants()
                .filter(|n| n.attribute("class") == Some("reserve-piece"))
                .map(|n| n.attribute("data-piece").unwrap().to_string())
                .collect();
            (
                t.attribute("data-side").unwrap().to_string(),
                t.attribute("data-carrier").unwrap().to_string(),
                held,
            )
        })
        .collect();
    let expect = |side: &str, carrier: &str, held: &[&str]| {
        (
            side.to_string(),
            carrier.to_string(),
            held.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        )
    };
    assert_eq!(
        trays,
        [
            expect("w", "King", &["Bishop", "Rook"]),
            expect("w", "Royal Magician", &["Bishop", "Knight", "Rook"]),
        ]
    );
    // A variant without reserves has no trays.
    let svg = render(&AnyPosition::from_fen(common::variant("chess"), None).unwrap());
    assert!(with_class(&parse(&svg), "reserve").is_empty());
}

#[test]
fn the_side_to_move_is_shown_beside_the_board() {
    let v = common::variant("chess");
    let white = render(&AnyPosition::from_fen(v, None).unwrap());
    let black = render(&common::play(
        &AnyPosition::from_fen(v, None).unwrap(),
        "e2e4",
    ));
    let marker = |svg: &str| {
        let doc = parse(svg);
        let markers = with_class(&doc, "side-to-move");
        assert_eq!(markers.len(), 1);
        let disc = markers[0]
            .descendants()
            .find(|n| n.tag_name().name() == "circle")
            .unwrap();
        (
            markers[0].attribute("data-side").unwrap().to_string(),
            disc.attribute("fill").unwrap().to_string(),
            disc.attribute("cy").unwrap().parse::<f64>().unwrap(),
        )
    };
    let (w_side, w_fill, w_y) = marker(&white);
    let (b_side, b_fill, b_y) = marker(&black);
    assert_eq!((w_side.as_str(), b_side.as_str()), ("w", "b"));
    assert_ne!(w_fill, b_fill);
    assert!(
        w_y > b_y,
        "White's marker by White's side (below), Black's above"
    );
}

#[test]
fn a_king_in_check_is_highlighted_and_only_then() {
    let v = common::variant("chess");
    let start = AnyPosition::from_fen(v, None).unwrap();
    assert!(with_class(&parse(&render(&start)), "check").is_empty());
    let checked = common::play_all(&start, "e2e4 f7f6 d2d4 g7g5 d1h5");
    assert!(checked.in_check());
    let svg = render(&checked);
    let doc = parse(&svg);
    let glow = with_class(&doc, "check");
    assert_eq!(glow.len(), 1);
    // Drawn under the Black King on e8: its centre is that square's centre.
    let king = with_class(&doc, "piece")
        .into_iter()
        .find(|n| n.attribute("data-square") == Some("e8"))
        .unwrap();
    let x: f64 = king.attribute("x").unwrap().parse().unwrap();
    let y: f64 = king.attribute("y").unwrap().parse().unwrap();
    let size: f64 = king.attribute("width").unwrap().parse().unwrap();
    let cx: f64 = glow[0].attribute("cx").unwrap().parse().unwrap();
    let cy: f64 = glow[0].attribute("cy").unwrap().parse().unwrap();
    assert_eq!((cx, cy), (x + size / 2.0, y + size / 2.0));
}

#[test]
fn the_cli_writes_a_file_with_the_last_move_marked() {
    let dir = std::env::temp_dir().join(format!("magus-diagram-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.svg");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(["diagram", "--variant", "magi", "--moves", "e2e5", "-o"])
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    let svg = std::fs::read_to_string(&file).unwrap();
    let doc = parse(&svg);
    assert_eq!(with_class(&doc, "square").len(), 100);
    assert_eq!(with_class(&doc, "piece").len(), 48);
    // e2 and e5 are highlighted (the only squares in the highlight colours).
    let marked = svg.matches("#f7ec74").count() + svg.matches("#dac34b").count();
    assert_eq!(marked, 2);
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(["diagram", "--variant", "magi", "--moves", "e2e6"])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--moves: move 1 'e2e6'"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_pipe_gets_the_svg_without_asking() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_magus"))
        .args(["diagram", "--variant", "royal-magician"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let svg = String::from_utf8(out.stdout).unwrap();
    assert_eq!(with_class(&parse(&svg), "reserve").len(), 4);
}

/// Runs `magus` with `args` under a pseudo-terminal (util-linux `script`); `None` if `script`
/// is not there.
fn on_a_terminal(args: &str) -> Option<(bool, String)> {
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_magus"));
    let out = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

#[test]
fn a_terminal_gets_a_message_instead_of_xml() {
    let Some((ok, text)) = on_a_terminal("diagram --variant chess") else {
        println!("skipped: no `script` to make a terminal");
        assert!(std::env::var_os("CI").is_none(), "CI must run this test");
        return;
    };
    assert!(!ok, "no picture was written");
    assert!(text.contains("-o FILE"), "{text}");
    assert!(!text.contains("<svg"), "{text}");
    // Asked for explicitly, standard output gets the picture even on a terminal.
    let (ok, text) = on_a_terminal("diagram --variant chess -o -").unwrap();
    assert!(ok);
    assert!(text.contains("<svg") && text.contains("</svg>"), "{text}");
}
