//! `magus diagram`: the SVG is well-formed XML with one square per board square, one piece per
//! piece, one hole per hole, and the last move highlighted.

use magus::game::AnyPosition;
use magus::variant::Registry;
use magus::with_position;

fn parse_and_count(svg: &str) -> (usize, usize, usize) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses as XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let count = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    (count("square"), count("piece"), count("hole"))
}

#[test]
fn every_variant_start_position_draws() {
    let registry = Registry::builtin();
    for v in registry.all() {
        let pos = AnyPosition::from_fen(v, None).unwrap();
        let svg = with_position!(&pos, p => magus::diagram::svg::render(p, None));
        let (squares, pieces, holes) = parse_and_count(&svg);
        let (occupied, hole_count) = with_position!(&pos, p => (p.occupied().count_ones() as usize, p.holes().count_ones() as usize));
        assert_eq!(squares, v.squares(), "{}", v.name);
        assert_eq!(pieces, occupied, "{}", v.name);
        assert_eq!(holes, hole_count, "{}", v.name);
    }
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
    let (squares, pieces, _) = parse_and_count(&svg);
    assert_eq!((squares, pieces), (100, 48));
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
