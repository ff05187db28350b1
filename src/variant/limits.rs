//! The limits of what a variant may define: the board layer is built to hold them (a `u128`
//! bitboard, a four-bit piece kind, one-letter files), and a definition beyond them is
//! refused.

/// The most piece kinds one variant may define.
pub const MAX_KINDS: usize = 16;
/// The largest board any variant may have.
pub const MAX_SQUARES: usize = 128;
/// The widest and tallest board: files are named by one letter.
pub const MAX_FILES: u8 = 26;
/// The most moves a variant's time share (`[time] moves_to_go`) may spread the clock over:
/// the search plans no further ahead than this, whatever the GUI says.
pub const MAX_MOVES_TO_GO: u32 = 50;

// What one definition text may hold, so that one `load` or `check` does bounded work (the
// TOML reader takes about 100 ms a megabyte here): each is well beyond any real definition
// (Fairy-Stockfish's own variants.ini, the largest there is, has 52 KB and about 100
// sections, at most a few deep), and a text beyond one is refused before it is read further.

/// The largest definition text: a file (its size is looked at before it is read, and no
/// more than this is ever read) or a `load <<MARK` text.
pub const MAX_DEFINITION_BYTES: usize = 256 << 10;
/// The longest line of a definition text, in characters.
pub const MAX_LINE_CHARS: usize = 4096;
/// The most variants one text (variants.ini sections) or one folder (files) may define.
pub const MAX_SECTIONS: usize = 256;
/// The longest chain of parents a variants.ini section may have (`[c2:c1]`, `[c1:chess]`:
/// 2), counting parents loaded before.
pub const MAX_INHERITANCE_DEPTH: usize = 16;
/// The most problems listed for one definition; the rest are counted.
pub const MAX_PROBLEMS_SHOWN: usize = 50;

/// The most distinct variant definitions one run keeps, the built-in ones included. Positions
/// refer to a variant and its compiled tables without counting references, so what was
/// accepted once stays for the run; the same definition loaded again is the one kept
/// (`variant::kept`), and past this limit a new one is refused.
pub const MAX_KEPT_VARIANTS: usize = 256;

/// How much of a line from outside a message quotes.
pub const EXCERPT_CHARS: usize = 80;

/// A text from outside as a message quotes it: whole when short, else its first
/// [`EXCERPT_CHARS`] characters and "…", so that a huge line is not sent back whole.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    excerpt_of(text, EXCERPT_CHARS)
}

/// `text` whole when it has at most `chars` characters, else its first `chars` and "…".
pub fn excerpt_of(text: &str, chars: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(chars) {
        None => std::borrow::Cow::Borrowed(text),
        Some((end, _)) => std::borrow::Cow::Owned(format!("{}…", &text[..end])),
    }
}
