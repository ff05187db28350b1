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
