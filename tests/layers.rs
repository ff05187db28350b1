//! The layers of the library look only down (the diagram of docs/architecture.md and of the
//! design): every `crate::MODULE` a module of `src/` names must be on its own floor or a lower
//! one. A module that imports one above it fails here with the file, the line and both
//! floors; a new top-level module fails until it is given a floor below.
//!
//! Unit tests (`#[cfg(test)]` items) are left out: a test may build its fixtures with the
//! floors above the code it tests.

use std::path::{Path, PathBuf};

/// The floors, lowest first. Modules on one floor may use each other.
const FLOORS: &[&[&str]] = &[
    &["variant"],
    &["board"],
    &["movegen", "rules"],
    // A position of any variant: its layout compiled with the rules' mechanics on top.
    &["game"],
    &["eval", "search", "pgn", "diagram"],
    // The match tool drives engines through the protocols' notation, and the protocols'
    // commands run matches: one floor.
    &["tournament", "protocol"],
    &["tune", "play", "gui"],
];

/// Items at the crate's root that are not modules, and the module that defines each.
const ROOT_ITEMS: &[(&str, &str)] = &[("with_position", "game")];

fn floor_of(module: &str) -> Option<usize> {
    let module = ROOT_ITEMS
        .iter()
        .find(|(item, _)| *item == module)
        .map_or(module, |(_, home)| home);
    FLOORS.iter().position(|floor| floor.contains(&module))
}

/// The `.rs` files under `dir`, or `dir` itself when it is a file.
fn sources(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The lines of `text` that are code outside unit tests, with their numbers: comment lines
/// and every item marked `#[cfg(test)]` (a line, or a block to its closing brace) left out.
fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let trimmed = line.trim();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed == "#[cfg(test)]" {
            let mut depth = 0i32;
            for (_, item) in lines.by_ref() {
                depth += item.matches('{').count() as i32 - item.matches('}').count() as i32;
                if depth <= 0 && (item.contains('}') || item.trim_end().ends_with(';')) {
                    break;
                }
            }
            continue;
        }
        out.push((n + 1, line));
    }
    out
}

/// The top-level modules a line names as `crate::MODULE` (also `$crate::` in macros).
fn named_modules(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            out.push(&rest[..end]);
        }
    }
    out
}

/// Every module of `src/` (a folder or a single file besides lib.rs and main.rs).
fn modules(src: &Path) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(src).expect("src/ is readable") {
        let path = entry.expect("a folder entry").path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir()
            || (name != "lib" && name != "main" && path.extension().is_some_and(|e| e == "rs"))
        {
            out.push((name, path));
        }
    }
    out.sort();
    out
}

/// Every use of a module above the user's floor, as `file:line: ...` messages.
fn upward_imports(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for (module, path) in modules(src) {
        let Some(own) = floor_of(&module) else {
            found.push(format!(
                "src/{module}: a module without a floor: add it to FLOORS in tests/layers.rs"
            ));
            continue;
        };
        for file in sources(&path) {
            let text = std::fs::read_to_string(&file).expect("a readable source file");
            for (n, line) in code_lines(&text) {
                for named in named_modules(line) {
                    match floor_of(named) {
                        Some(floor) if floor > own => found.push(format!(
                            "{}:{n}: {module} (floor {own}) imports {named} (floor {floor}), which is above it",
                            file.display()
                        )),
                        Some(_) => {}
                        None => found.push(format!(
                            "{}:{n}: crate::{named} is no module with a floor",
                            file.display()
                        )),
                    }
                }
            }
        }
    }
    found
}

#[test]
fn every_layer_looks_only_down() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = upward_imports(&src);
    assert!(found.is_empty(), "\n{}", found.join("\n"));
}

#[test]
fn the_board_naming_the_rules_is_caught() {
    // The knot this test guards against: the board once called the rules by name.
    let src = std::env::temp_dir().join(format!("magus-layers-{}", std::process::id()));
    std::fs::create_dir_all(src.join("board")).unwrap();
    std::fs::create_dir_all(src.join("rules")).unwrap();
    std::fs::write(src.join("rules/mod.rs"), "use crate::board::Layout;\n").unwrap();
    std::fs::write(
        src.join("board/layout.rs"),
        "use crate::variant::Variant;\nuse crate::rules::spells::SpellTables;\n",
    )
    .unwrap();
    let found = upward_imports(&src);
    std::fs::remove_dir_all(&src).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0]
            .ends_with("layout.rs:2: board (floor 1) imports rules (floor 2), which is above it"),
        "{}",
        found[0]
    );
}

#[test]
fn unit_tests_and_comments_are_left_out() {
    let text = "use crate::board::Square;\n\
                // crate::gui in a comment\n\
                #[cfg(test)]\n\
                mod tests {\n    use crate::gui::x;\n    fn f() { }\n}\n\
                #[cfg(test)]\n\
                use crate::tune::y;\n\
                fn g() -> crate::eval::Score {}\n";
    let named: Vec<&str> = code_lines(text)
        .into_iter()
        .flat_map(|(_, l)| named_modules(l))
        .collect();
    assert_eq!(named, ["board", "eval"]);
}

#[test]
fn a_path_only_ending_in_crate_is_not_a_crate_path() {
    assert_eq!(
        named_modules("my_crate::board; $crate::game::AnyPosition"),
        ["game"]
    );
}
