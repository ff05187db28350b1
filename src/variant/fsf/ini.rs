//! The layout of a Fairy-Stockfish variant file: sections `[name]` or `[name:parent]`, each
//! followed by `key = value` lines. Only the layout is read here; what the keys mean is in
//! `rules.rs`.
//!
//! Fairy-Stockfish's reading, which this follows: lines before the first section are skipped;
//! a line starting with `#` or `;` is a comment; the key is the text before the first `=`
//! (trailing spaces removed), the value the text after it (leading spaces removed); a key
//! given twice keeps its last value. What Fairy-Stockfish would skip without a word (a line
//! without `=`, a key with spaces before it) is reported here instead.

use crate::variant::limits::excerpt;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: String,
    pub value: String,
    /// 1-based line number in the text.
    pub line: usize,
}

/// One section: a variant, with the parent it inherits from.
#[derive(Clone, Debug, Default)]
pub struct Section {
    pub name: String,
    pub parent: Option<String>,
    /// The line of the `[...]` header.
    pub line: usize,
    /// The entries in the order of their first appearance; a repeated key keeps its last
    /// value and line.
    pub entries: Vec<Entry>,
    /// Lines of the section that are not entries: (line, what is wrong).
    pub problems: Vec<(usize, String)>,
}

impl Section {
    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }
}

/// Splits a text into sections.
pub fn parse(text: &str) -> Vec<Section> {
    let mut sections: Vec<Section> = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.starts_with('[') {
            sections.push(header(raw, line));
            continue;
        }
        // Before the first section everything is commentary.
        let Some(section) = sections.last_mut() else {
            continue;
        };
        if raw.starts_with('#') || raw.starts_with(';') || raw.trim().is_empty() {
            continue;
        }
        let Some((key_text, value)) = raw.split_once('=') else {
            section.problems.push((
                line,
                format!(
                    "'{}' is not 'key = value' (Fairy-Stockfish would skip it)",
                    excerpt(raw.trim())
                ),
            ));
            continue;
        };
        let key = key_text.trim_end_matches(' ');
        if key.is_empty() {
            section
                .problems
                .push((line, "a line with '=' but no key".to_string()));
            continue;
        }
        if key != key.trim() {
            section.problems.push((
                line,
                format!(
                    "key '{key}' has white space around it, which Fairy-Stockfish keeps as part of the key (so it would not know it)"
                ),
            ));
            continue;
        }
        let entry = Entry {
            key: key.to_string(),
            value: value.trim().to_string(),
            line,
        };
        match section.entries.iter_mut().find(|e| e.key == entry.key) {
            Some(old) => *old = entry,
            None => section.entries.push(entry),
        }
    }
    sections
}

fn header(raw: &str, line: usize) -> Section {
    let mut section = Section {
        line,
        ..Section::default()
    };
    let Some(close) = raw.find(']') else {
        section.name = raw[1..].trim().to_string();
        section.problems.push((
            line,
            format!("section header '{}' has no ']'", excerpt(raw)),
        ));
        return section;
    };
    let inside = &raw[1..close];
    let (name, parent) = match inside.split_once(':') {
        Some((n, p)) => (n, Some(p)),
        None => (inside, None),
    };
    section.name = name.to_string();
    section.parent = parent.map(str::to_string);
    let bad = |s: &str| s.is_empty() || s.contains(char::is_whitespace);
    if bad(name) || parent.is_some_and(bad) {
        section.problems.push((
            line,
            format!(
                "section header '[{}]': a name is empty or has spaces",
                excerpt(inside)
            ),
        ));
    }
    section
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keys_values_and_comments() {
        let text = "# intro\nignored = 1\n[a]\n# c\n; c\nx = 1\ny= two words \n\n[b:a] trailing\nx = 2\nx = 3\n";
        let s = parse(text);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].name.as_str(), s[0].parent.as_deref()), ("a", None));
        assert_eq!(s[0].entries.len(), 2);
        assert_eq!(s[0].get("y").unwrap().value, "two words");
        assert_eq!(s[0].get("y").unwrap().line, 7);
        assert_eq!(
            (s[1].name.as_str(), s[1].parent.as_deref()),
            ("b", Some("a"))
        );
        assert_eq!(s[1].line, 9);
        let x = s[1].get("x").unwrap();
        assert_eq!((x.value.as_str(), x.line), ("3", 11));
        assert!(s.iter().all(|s| s.problems.is_empty()));
    }

    #[test]
    fn what_fairy_stockfish_would_skip_is_reported() {
        let s = parse("[a]\nno equals here\n  indented = 1\n= 3\n[b c]\n[d\n");
        let lines: Vec<usize> = s[0].problems.iter().map(|p| p.0).collect();
        assert_eq!(lines, vec![2, 3, 4]);
        assert!(s[0].problems[1].1.contains("white space"));
        assert!(s[1].problems[0].1.contains("spaces"));
        assert!(s[2].problems[0].1.contains("no ']'"));
    }
}
