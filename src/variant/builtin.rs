//! The variant files built into the binary, so that the engine runs from any folder.

/// (file name, contents) of every built-in variant, in the order they are listed to users.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "variants/chess.toml",
        include_str!("../../variants/chess.toml"),
    ),
    (
        "variants/deathmatch.toml",
        include_str!("../../variants/deathmatch.toml"),
    ),
    (
        "variants/deathmatch-legacy.toml",
        include_str!("../../variants/deathmatch-legacy.toml"),
    ),
    (
        "variants/magi.toml",
        include_str!("../../variants/magi.toml"),
    ),
    (
        "variants/magician-chess.toml",
        include_str!("../../variants/magician-chess.toml"),
    ),
    (
        "variants/royal-magician.toml",
        include_str!("../../variants/royal-magician.toml"),
    ),
];
