//! `installed.json`: what `install` changed in the assistants' folders.
//!
//! Uninstall must leave the user's files exactly as they were, and the files alone cannot
//! tell it how they were: whether `settings.json` existed before install, whether `"hooks": {}`
//! was the user's or ours, whether the empty `~/.claude` folder was there. So install writes
//! down, for every file it writes, the text before its first change and the text it last
//! wrote, and every folder it created. Uninstall then gives back the old text whenever the file
//! is still what install left (nothing else touched it since), and otherwise removes only our
//! entries from what is there now, keeping the containers the old text already had.
//!
//! The record is a convenience, never a requirement: without it (an install from an older
//! version, a deleted store) uninstall still removes our entries, and only deletes nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::files::{read_if_exists, write_private};
use super::Store;
use crate::error::Result;

/// What install changed, keyed by absolute path.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Installed {
    #[serde(default)]
    pub files: BTreeMap<String, FileRecord>,
    /// Folders install created.
    #[serde(default)]
    pub folders: BTreeSet<String>,
}

/// One file install wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileRecord {
    /// The text before install first changed it; `None`: install created the file.
    pub before: Option<String>,
    /// The text install last wrote.
    pub after: String,
}

impl FileRecord {
    /// Whether install created the file.
    pub fn created(&self) -> bool {
        self.before.is_none()
    }
}

impl Installed {
    /// The record in `store`; a missing or unreadable one is empty (uninstall then falls back
    /// to removing our entries only).
    pub fn load(store: &Store) -> Installed {
        read_if_exists(&store.installed_path())
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// Writes the record, or removes its file when nothing is left in it.
    pub fn save(&self, store: &Store) -> Result<()> {
        let path = store.installed_path();
        if self.files.is_empty() && self.folders.is_empty() {
            return match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(crate::Error::io(path, "remove", e))
                }
                _ => Ok(()),
            };
        }
        let mut text = serde_json::to_string_pretty(self).expect("the record serialises");
        text.push('\n');
        write_private(&path, text.as_bytes())
    }

    pub fn file(&self, path: &Path) -> Option<&FileRecord> {
        self.files.get(&key(path))
    }

    /// Notes that install wrote `after` to `path`, which held `before` (`None`: absent) just
    /// before. The first `before` is kept: that is what uninstall gives back.
    pub fn wrote(&mut self, path: &Path, before: Option<&str>, after: &str) {
        let entry = self.files.entry(key(path)).or_insert_with(|| FileRecord {
            before: before.map(str::to_string),
            after: String::new(),
        });
        entry.after = after.to_string();
    }

    /// Notes that install created the folder `path`.
    pub fn created_folder(&mut self, path: &Path) {
        self.folders.insert(key(path));
    }

    /// Forgets everything at or under `dir` (after an uninstall of the assistant it belongs
    /// to).
    pub fn forget_under(&mut self, dir: &Path) {
        let within = |k: &String| Path::new(k).starts_with(dir);
        self.files.retain(|k, _| !within(k));
        self.folders.retain(|k| !within(k));
    }

    /// The created folders at or under `dir`, deepest first.
    pub fn folders_under(&self, dir: &Path) -> Vec<std::path::PathBuf> {
        let mut found: Vec<_> =
            self.folders.iter().map(Path::new).filter(|p| p.starts_with(dir)).collect();
        found.sort_by_key(|p| std::cmp::Reverse(p.components().count()));
        found.into_iter().map(Path::to_path_buf).collect()
    }
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}
