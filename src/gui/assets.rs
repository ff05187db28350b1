//! The page's files, built into the binary from `assets/` (so `magus gui` works offline and
//! from any folder), and the piece pictures of every variant (`diagram::pieces`, which the
//! SVG diagrams share).

use std::borrow::Cow;

use crate::board::Color;
use crate::variant::Variant;

#[derive(rust_embed::Embed)]
#[folder = "src/gui/assets/"]
struct Files;

/// The content type of a file by its extension.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// A file of the page, by its path under `assets/`.
pub fn file(path: &str) -> Option<Cow<'static, [u8]>> {
    Files::get(path).map(|f| f.data)
}

/// The picture of a piece from its name in a URL: `w3.svg` is White's piece of kind 3.
pub fn piece(variant: &Variant, name: &str) -> Option<String> {
    let stem = name.strip_suffix(".svg")?;
    let color = match stem.as_bytes().first()? {
        b'w' => Color::White,
        b'b' => Color::Black,
        _ => return None,
    };
    let digits = &stem[1..];
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let kind: usize = digits.parse().ok()?;
    let def = variant.pieces.get(kind)?;
    Some(crate::diagram::pieces::piece_image(def, color).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_scripts_are_built_in() {
        for path in ["index.html", "app.js", "style.css"] {
            let data = file(path).unwrap_or_else(|| panic!("{path} is not embedded"));
            assert!(!data.is_empty(), "{path} is empty");
        }
        assert!(file("no-such-file.js").is_none());
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
    }

    #[test]
    fn piece_pictures_are_found_by_colour_and_kind_only() {
        let registry = crate::variant::Registry::builtin();
        let magi = registry.get("magi").unwrap();
        let duke = magi.kind_of_letter('D').unwrap();
        let white = piece(magi, &format!("w{duke}.svg")).unwrap();
        let black = piece(magi, &format!("b{duke}.svg")).unwrap();
        assert!(white.contains("<svg") && white != black);
        for bad in [
            "x1.svg", "w.svg", "w99.svg", "w1.png", "w-1.svg", "w1a.svg", "w001.svg",
        ] {
            assert!(piece(magi, bad).is_none(), "{bad}");
        }
    }
}
