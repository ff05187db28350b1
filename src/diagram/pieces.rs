//! The piece drawings: one SVG picture per piece name, shared by the SVG diagram and (later)
//! the web GUI, so a piece looks the same everywhere.
//!
//! Each asset in `pieces/` is White's piece, a standalone SVG document on a 45x45 view box,
//! painted in three colours only, each with one job:
//!
//! | colour | job | White | Black |
//! |---|---|---|---|
//! | `#fff` | the body | white | black |
//! | `#000` | the outline | black | black |
//! | `#111` | inner detail (eyes, bands, slits) | near black | white |
//!
//! Black's picture is White's with the body and detail colours exchanged as in the table, so one
//! file draws both sides and the two can never drift apart. The files hold no `id` attributes,
//! so any number of them can be put inside one document.

use std::borrow::Cow;
use std::sync::LazyLock;

use crate::board::Color;
use crate::variant::PieceDef;

/// The side of the view box every drawing is made on.
pub const VIEW_BOX: u32 = 45;

/// The body colour, written in the assets as `fill="#fff"` (Black's becomes `#000`).
pub const BODY: &str = "#fff";
/// The outline colour, the same for both sides.
pub const OUTLINE: &str = "#000";
/// The colour of inner details, written as `#111` (Black's becomes `#fff`).
pub const DETAIL: &str = "#111";

/// The built-in drawings by normalised piece name (see [`normalise`]), White's picture each.
const ASSETS: &[(&str, &str)] = &[
    ("king", include_str!("pieces/king.svg")),
    ("queen", include_str!("pieces/queen.svg")),
    ("rook", include_str!("pieces/rook.svg")),
    ("bishop", include_str!("pieces/bishop.svg")),
    ("knight", include_str!("pieces/knight.svg")),
    ("pawn", include_str!("pieces/pawn.svg")),
    // Deathmatch and its legacy rules.
    ("magician", include_str!("pieces/magician.svg")),
    ("high-priestess", include_str!("pieces/high-priestess.svg")),
    ("telepath", include_str!("pieces/telepath.svg")),
    ("archbishop", include_str!("pieces/archbishop.svg")),
    ("chancellor", include_str!("pieces/chancellor.svg")),
    ("prime-minister", include_str!("pieces/prime-minister.svg")),
    // Magi.
    ("duke", include_str!("pieces/duke.svg")),
    ("cardinal", include_str!("pieces/cardinal.svg")),
    ("wizard", include_str!("pieces/wizard.svg")),
    // Magician chess and Royal Magician's chess.
    ("sorcerer", include_str!("pieces/sorcerer.svg")),
    ("royal-magician", include_str!("pieces/royal-magician.svg")),
];

/// Black's pictures, in the order of `ASSETS`, made once on first use.
static BLACK: LazyLock<Vec<String>> =
    LazyLock::new(|| ASSETS.iter().map(|(_, white)| to_black(white)).collect());

fn to_black(white: &str) -> String {
    // Body first: the detail's new colour is the body's old one and must not be turned again.
    white
        .replace(&format!("\"{BODY}\""), &format!("\"{OUTLINE}\""))
        .replace(&format!("\"{DETAIL}\""), &format!("\"{BODY}\""))
}

/// A piece name as the drawings are keyed: lower case, spaces and underscores as hyphens, so
/// "High Priestess", "High-Priestess" and "high_priestess" are one piece.
pub fn normalise(name: &str) -> String {
    name.trim()
        .chars()
        .map(|c| match c {
            ' ' | '_' => '-',
            c => c.to_ascii_lowercase(),
        })
        .collect()
}

/// The names (normalised) of every piece with a built-in drawing.
pub fn names() -> impl Iterator<Item = &'static str> {
    ASSETS.iter().map(|(name, _)| *name)
}

/// The built-in drawing of the piece called `name` (any spelling [`normalise`] accepts) for
/// `color`: a whole SVG document on a 45x45 view box, or `None` if no drawing has that name.
pub fn piece_svg(name: &str, color: Color) -> Option<&'static str> {
    let key = normalise(name);
    let index = ASSETS.iter().position(|(n, _)| *n == key)?;
    Some(match color {
        Color::White => ASSETS[index].1,
        Color::Black => BLACK[index].as_str(),
    })
}

/// The picture of a variant's piece: its built-in drawing, or for a piece of a user's variant
/// with no drawing, a disc with its letter.
pub fn piece_image(piece: &PieceDef, color: Color) -> Cow<'static, str> {
    match piece_svg(&piece.name, color) {
        Some(svg) => Cow::Borrowed(svg),
        None => Cow::Owned(lettered_disc(piece.letter, color)),
    }
}

/// The stand-in for a piece with no drawing: a disc in the side's colours with the piece's
/// letter, on the same view box as the drawings.
pub fn lettered_disc(letter: char, color: Color) -> String {
    let (disc, ink) = match color {
        Color::White => ("#ffffff", "#000000"),
        Color::Black => ("#000000", "#ffffff"),
    };
    let letter = match letter {
        '<' => "&lt;".to_string(),
        '>' => "&gt;".to_string(),
        '&' => "&amp;".to_string(),
        c => c.to_string(),
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"45\" height=\"45\" viewBox=\"0 0 45 45\">\n\
         <circle cx=\"22.5\" cy=\"22.5\" r=\"17\" fill=\"{disc}\" stroke=\"#000000\" stroke-width=\"1.5\"/>\n\
         <text x=\"22.5\" y=\"29.5\" font-family=\"sans-serif\" font-weight=\"bold\" font-size=\"20\" text-anchor=\"middle\" fill=\"{ink}\">{letter}</text>\n\
         </svg>\n"
    )
}

/// What lies inside a drawing's root `<svg>` element, to put it into another document.
pub fn inner(svg: &str) -> &str {
    let start = svg
        .find("<svg")
        .and_then(|at| svg[at..].find('>').map(|end| at + end + 1))
        .unwrap_or(0);
    let end = svg.rfind("</svg>").unwrap_or(svg.len());
    svg.get(start..end).unwrap_or("")
}
