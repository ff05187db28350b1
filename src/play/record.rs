//! The game's PGN file: written again after every move, so that a game cut short (Ctrl-C, a
//! closed terminal) is kept up to its last move. A file that held games before keeps them: the
//! game is written after them.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::pgn::PgnGame;

pub struct PgnFile {
    path: PathBuf,
    /// Where this game starts in the file: its length before the game.
    start: Option<u64>,
}

impl PgnFile {
    pub fn new(path: PathBuf) -> PgnFile {
        PgnFile { path, start: None }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the game out of the file again (its moves were all taken back).
    pub fn clear(&mut self) -> Result<(), String> {
        let Some(start) = self.start else {
            return Ok(());
        };
        let shown = self.path.display();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&self.path)
            .map_err(|e| format!("{shown}: {e}"))?;
        file.set_len(start).map_err(|e| format!("{shown}: {e}"))?;
        if start == 0 {
            // The file was made for this game: nothing is left of it.
            std::fs::remove_file(&self.path).map_err(|e| format!("{shown}: {e}"))?;
            self.start = None;
        }
        Ok(())
    }

    /// Writes the game (again) in its place.
    pub fn write(&mut self, game: &PgnGame) -> Result<(), String> {
        let shown = self.path.display();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&self.path)
            .map_err(|e| format!("{shown}: {e}"))?;
        let start = match self.start {
            Some(s) => s,
            None => {
                let len = file.metadata().map_err(|e| format!("{shown}: {e}"))?.len();
                self.start = Some(len);
                len
            }
        };
        let mut text = game.write();
        // A game after others is set apart by a blank line.
        if start > 0 && !ends_with_blank_line(&mut file, start) {
            text.insert(0, '\n');
        }
        file.set_len(start)
            .and_then(|()| file.seek(SeekFrom::Start(start)).map(|_| ()))
            .and_then(|()| file.write_all(text.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| format!("{shown}: {e}"))
    }
}

/// Whether the file's first `len` bytes end with an empty line.
fn ends_with_blank_line(file: &mut std::fs::File, len: u64) -> bool {
    use std::io::Read;
    let mut tail = [0u8; 2];
    let n = len.min(2);
    file.seek(SeekFrom::Start(len - n)).is_ok()
        && file.read_exact(&mut tail[..n as usize]).is_ok()
        && tail[..n as usize].ends_with(b"\n\n")
}

/// The default file name of a game: `magus-VARIANT-YYYYMMDD-HHMMSS.pgn` (UTC), in the current
/// folder.
pub fn default_path(variant: &str) -> PathBuf {
    let date = crate::tournament::report::pgn_date().replace('.', "");
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let time = secs % 86_400;
    PathBuf::from(format!(
        "magus-{variant}-{date}-{:02}{:02}{:02}.pgn",
        time / 3600,
        time / 60 % 60,
        time % 60
    ))
}
