//! Fairy-Stockfish's piece types: the keys that name them in a variant file, their order
//! (which decides the order of magus's pieces), and their moves in Fairy-Stockfish's own
//! Betza reading (`betza.rs` turns those into magus's).

/// A piece type, by its number in Fairy-Stockfish's list (1 = pawn, 63 = king).
pub type TypeId = u8;

pub const PAWN: TypeId = 1;
pub const ROOK: TypeId = 4;
pub const KING: TypeId = 63;
/// The first custom piece (`customPiece1`).
pub const FIRST_CUSTOM: TypeId = 37;
/// How many custom pieces a variant may define (`customPiece1` … `customPiece25`).
pub const CUSTOM_COUNT: u8 = 25;
/// The slot of a King with its own moves (`king = k:BETZA`): never named by a key.
pub const ROYAL_SLOT: TypeId = 62;

/// The predefined types from the pawn to the centaur, in order, with their moves.
const PREDEFINED: [(&str, &str); 36] = [
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

pub fn is_custom(t: TypeId) -> bool {
    (FIRST_CUSTOM..FIRST_CUSTOM + CUSTOM_COUNT).contains(&t)
}

/// The key that names a type in a variant file (`knight`, `customPiece3`, `king`).
pub fn key_of(t: TypeId) -> String {
    match t {
        KING => "king".to_string(),
        ROYAL_SLOT => "king".to_string(),
        t if is_custom(t) => format!("customPiece{}", t - FIRST_CUSTOM + 1),
        t => PREDEFINED
            .get(t as usize - 1)
            .map_or_else(|| format!("type {t}"), |p| p.0.to_string()),
    }
}

/// Every type a key can name, in Fairy-Stockfish's order.
pub fn all_types() -> impl Iterator<Item = TypeId> {
    (1..=KING).filter(|&t| t != ROYAL_SLOT && (t <= 36 || is_custom(t) || t == KING))
}

/// The moves of a predefined type in Fairy-Stockfish's Betza (`None` for custom pieces).
pub fn predefined_betza(t: TypeId) -> Option<&'static str> {
    match t {
        KING => Some("K"),
        1..=36 => Some(PREDEFINED[t as usize - 1].1),
        _ => None,
    }
}

/// A readable name: `Knight`, `Fers alfil`, `Custom piece 3`.
pub fn display_name(t: TypeId) -> String {
    let key = key_of(t);
    let mut out = String::new();
    let mut previous: Option<char> = None;
    for c in key.chars() {
        match previous {
            None => out.push(c.to_ascii_uppercase()),
            Some(_) if c.is_ascii_uppercase() => {
                out.push(' ');
                out.push(c.to_ascii_lowercase());
            }
            Some(p) if c.is_ascii_digit() && !p.is_ascii_digit() => {
                out.push(' ');
                out.push(c);
            }
            Some(_) => out.push(c),
        }
        previous = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_names() {
        assert_eq!(key_of(PAWN), "pawn");
        assert_eq!(key_of(ROOK), "rook");
        assert_eq!(key_of(36), "centaur");
        assert_eq!(key_of(FIRST_CUSTOM), "customPiece1");
        assert_eq!(key_of(FIRST_CUSTOM + 24), "customPiece25");
        assert_eq!(key_of(KING), "king");
        assert_eq!(all_types().count(), 36 + 25 + 1);
        assert_eq!(display_name(8), "Fers alfil");
        assert_eq!(display_name(FIRST_CUSTOM + 11), "Custom piece 12");
        assert_eq!(predefined_betza(15), Some("mNcB"));
    }
}
