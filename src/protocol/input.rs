//! A GUI's input, a line at a time, within bounds: a line longer than `MAX_LINE_BYTES` is
//! read to its end without being kept and becomes a short line that says so, and bytes that
//! are not UTF-8 read as U+FFFD. Either way the session answers it like any bad line and goes
//! on: a stray byte or a runaway writer never ends or swells the engine.

use std::io::BufRead;

/// The longest line a session reads: a `position` with several thousand moves, or a
/// variant definition's line, fits many times over.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What a line too long to read becomes: the sessions refuse it as an unknown command,
/// naming the limit.
pub fn too_long_line(bytes: usize) -> String {
    format!("<a line of more than {MAX_LINE_BYTES} bytes ({bytes} bytes read), not read>")
}

/// The longest message about a line the engine writes: an error quotes what it refuses, and
/// a refused line of a megabyte must not come back as a megabyte.
pub const MAX_QUOTED_CHARS: usize = 300;

/// `text` cut to `MAX_QUOTED_CHARS` characters, an ellipsis marking a cut.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    crate::variant::limits::excerpt_of(text, MAX_QUOTED_CHARS)
}

/// The lines of an input.
pub struct Lines<R> {
    input: R,
    line: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub fn new(input: R) -> Lines<R> {
        Lines {
            input,
            line: Vec::new(),
        }
    }

    /// The next line without its end (`\n` or `\r\n`); `None` at the end of the input or on
    /// a read error (a closed pipe).
    pub fn next_line(&mut self) -> Option<String> {
        self.line.clear();
        let mut skipped = 0usize;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            if chunk.is_empty() {
                // The end of the input: a last line without its `\n` still counts.
                if self.line.is_empty() && skipped == 0 {
                    return None;
                }
                break;
            }
            let (part, ends) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1),
                None => (chunk, chunk.len()),
            };
            let found_end = ends > part.len();
            if skipped > 0 || self.line.len() + part.len() > MAX_LINE_BYTES {
                skipped += self.line.len() + part.len();
                self.line.clear();
            } else {
                self.line.extend_from_slice(part);
            }
            self.input.consume(ends);
            if found_end {
                break;
            }
        }
        if skipped > 0 {
            return Some(too_long_line(skipped));
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Some(String::from_utf8_lossy(&self.line).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<String> {
        let mut lines = Lines::new(bytes);
        std::iter::from_fn(|| lines.next_line()).collect()
    }

    #[test]
    fn a_long_text_is_shown_cut() {
        assert_eq!(shown("go depth 3"), "go depth 3");
        let long = "é".repeat(5000);
        let cut = shown(&long);
        assert!(cut.starts_with(&"é".repeat(MAX_QUOTED_CHARS)), "{cut}");
        assert_eq!(cut.chars().count(), MAX_QUOTED_CHARS + 1, "{cut}");
        assert!(cut.ends_with("é…"), "{cut}");
    }

    #[test]
    fn lines_end_with_either_ending_and_the_last_needs_none() {
        assert_eq!(all(b"uci\r\nisready\nquit"), ["uci", "isready", "quit"]);
        assert_eq!(all(b"\n\n"), ["", ""]);
        assert!(all(b"").is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_read_as_replacements() {
        assert_eq!(
            all(b"\xff\xfeuci\nisready\n"),
            ["\u{fffd}\u{fffd}uci", "isready"]
        );
    }

    #[test]
    fn an_overlong_line_is_skipped_whole_and_the_next_is_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nisready\n");
        let lines = all(&input);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0], too_long_line(MAX_LINE_BYTES + 10));
        assert_eq!(lines[1], "isready");
        // A line of exactly the limit is still read.
        let mut input = vec![b'y'; MAX_LINE_BYTES];
        input.push(b'\n');
        assert_eq!(all(&input)[0].len(), MAX_LINE_BYTES);
    }

    #[test]
    fn an_overlong_line_keeps_no_more_than_the_limit_in_memory() {
        use std::io::Read;
        let endless = std::io::repeat(b'z')
            .take(64 * MAX_LINE_BYTES as u64)
            .chain(&b"\nquit\n"[..]);
        let mut lines = Lines::new(std::io::BufReader::new(endless));
        let first = lines.next_line().unwrap();
        assert_eq!(first, too_long_line(64 * MAX_LINE_BYTES));
        assert!(lines.line.capacity() <= 2 * MAX_LINE_BYTES);
        assert_eq!(lines.next_line().as_deref(), Some("quit"));
        assert_eq!(lines.next_line(), None);
    }
}
