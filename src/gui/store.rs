//! The games kept on disk: one PGN file a game (`ID.pgn`, with the game's state in tags of
//! its own, `record::saved`), written after every change, so that a game outlives the
//! server and the page can reopen it after a restart.
//!
//! The folder: `--games DIR`, else `$MAGUS_GUI_GAMES`, else the user's data folder
//! (`$XDG_DATA_HOME/magus/games`, `~/.local/share/magus/games`; `%APPDATA%\magus\games`).

use std::path::{Path, PathBuf};

/// The environment variable that names the folder (tests give each server its own).
pub const GAMES_ENV: &str = "MAGUS_GUI_GAMES";

pub struct Store {
    dir: PathBuf,
}

/// The folder games are kept in when none is given.
pub fn default_dir() -> Option<PathBuf> {
    let env = |name| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env(GAMES_ENV) {
        return Some(dir);
    }
    let data = env("XDG_DATA_HOME")
        .or_else(|| env("APPDATA"))
        .or_else(|| env("HOME").map(|home| home.join(".local").join("share")))?;
    Some(data.join("magus").join("games"))
}

impl Store {
    /// The store in `dir`, made if it is not there.
    pub fn open(dir: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot make the games folder {}: {e}", dir.display()))?;
        Ok(Store {
            dir: dir.to_path_buf(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, id: u64) -> PathBuf {
        self.dir.join(format!("{id}.pgn"))
    }

    /// Writes a game: to a file of its own first, then renamed over the old one, so that a
    /// crash never leaves half a game.
    pub fn save(&self, id: u64, pgn: &str) -> Result<(), String> {
        let tmp = self.dir.join(format!("{id}.pgn.part"));
        std::fs::write(&tmp, pgn)
            .and_then(|()| std::fs::rename(&tmp, self.path(id)))
            .map_err(|e| format!("cannot save game {id} in {}: {e}", self.dir.display()))
    }

    /// The text of a game kept, if there is one.
    pub fn load(&self, id: u64) -> Option<String> {
        std::fs::read_to_string(self.path(id)).ok()
    }

    pub fn remove(&self, id: u64) {
        let _ = std::fs::remove_file(self.path(id));
    }

    /// The ids of the games kept, newest first.
    pub fn ids(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = std::fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let name = entry.file_name();
                name.to_str()?.strip_suffix(".pgn")?.parse().ok()
            })
            .collect();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_saved_is_read_back_and_listed_until_it_is_removed() {
        let dir = std::env::temp_dir().join(format!("magus-store-test-{}", std::process::id()));
        let store = Store::open(&dir).unwrap();
        store.save(3, "one").unwrap();
        store.save(12, "two").unwrap();
        store.save(3, "three").unwrap();
        std::fs::write(dir.join("notes.txt"), "not a game").unwrap();
        assert_eq!(store.load(3).as_deref(), Some("three"));
        assert_eq!(store.ids(), vec![12, 3]);
        store.remove(12);
        assert_eq!(store.ids(), vec![3]);
        assert_eq!(store.load(12), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
