//! `installed.json`: what `install` changed in the assistants' folders, as metadata only.
//!
//! Uninstall takes out of each file exactly what install put in, from the file as it is now,
//! so that every change the user made since stays. The file alone cannot say everything that
//! needs: whether install created it (then a file left bare goes), and which containers
//! install made (`"hooks": {}`, `hooks.Stop`, `permissions.allow`, the MCP servers table, a
//! Cursor file's `version`) as opposed to the user's, which stay even when our removal empties
//! them. So install notes, for every file it writes, those two things: the flag, and the key
//! paths it added (`hooks`, `hooks/Stop`, `permissions/allow/<our rule>`), worked out from the
//! file's shape just before and just after each write. Key names only: never a value, never a
//! line of the user's text, so that nothing of a `settings.json`'s API key or an MCP server's
//! token ends up here. The file is written readable by its owner only all the same.
//!
//! Every folder install created is noted too; uninstall removes it again once empty.
//!
//! Earlier versions kept the whole text before the first change and after the last one;
//! such a record still loads ([`Installed::load`] derives the flag and the added keys from the
//! two texts), and the next save writes it in this form, the texts gone.
//!
//! The record is a convenience, never a requirement: without it (an install from an older
//! version, a deleted store) uninstall still removes our entries and every container they
//! leave empty, and deletes no file.

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
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct FileRecord {
    /// Install created the file (it did not exist before install first wrote it).
    pub created: bool,
    /// The key paths install added to the file, `/` between the levels (`hooks`,
    /// `hooks/UserPromptSubmit`, `permissions/allow`, `permissions/allow/<our rule>`,
    /// `mcpServers`); see `platform::install::shape`.
    #[serde(skip_serializing_if = "BTreeSet::is_empty")]
    pub added: BTreeSet<String>,
    /// For a file that is wholly ours (the review command): the SHA-256 of the bytes install
    /// last wrote, so that uninstall deletes it only while nobody changed it, and a later
    /// install replaces only its own text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// An earlier version's record: (text before install, text install last wrote). Read,
    /// converted by [`Installed::load`], never written.
    #[serde(skip)]
    legacy: Option<(Option<String>, String)>,
}

/// The record as any version wrote it.
#[derive(Deserialize)]
struct RawRecord {
    #[serde(default)]
    created: bool,
    #[serde(default)]
    added: BTreeSet<String>,
    #[serde(default)]
    sha256: Option<String>,
    // Earlier versions: the whole text before the first change (`null`: no file), and after.
    #[serde(default)]
    before: Option<String>,
    #[serde(default)]
    after: Option<String>,
}

impl<'de> Deserialize<'de> for FileRecord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let raw = RawRecord::deserialize(d)?;
        Ok(match raw.after {
            Some(after) => FileRecord {
                created: raw.before.is_none(),
                legacy: Some((raw.before, after)),
                ..FileRecord::default()
            },
            None => FileRecord {
                created: raw.created,
                added: raw.added,
                sha256: raw.sha256,
                legacy: None,
            },
        })
    }
}

/// The key paths of a file's text that install's record tracks (`platform::install::shape`).
pub type Shape<'a> = &'a dyn Fn(&Path, &str) -> BTreeSet<String>;

impl Installed {
    /// The record in `store`; a missing or unreadable one is empty (uninstall then falls back
    /// to removing our entries and what they leave empty). An earlier version's record is
    /// converted with `shape`: what install added is what its last text has and the text
    /// before install had not.
    pub fn load(store: &Store, shape: Shape) -> Installed {
        let mut installed: Installed = read_if_exists(&store.installed_path())
            .ok()
            .flatten()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        for (path, record) in &mut installed.files {
            if let Some((before, after)) = record.legacy.take() {
                let had = shape(Path::new(path), before.as_deref().unwrap_or_default());
                record.added = shape(Path::new(path), &after).difference(&had).cloned().collect();
            }
        }
        installed
    }

    /// Writes the record (readable by its owner only), or removes its file when nothing is
    /// left in it.
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

    /// Notes that install wrote `path`, which did not exist just before when `created`, adding
    /// the key paths `added`. Whether install created the file is decided by its first write.
    pub fn wrote(&mut self, path: &Path, created: bool, added: BTreeSet<String>) {
        let entry = self
            .files
            .entry(key(path))
            .or_insert_with(|| FileRecord { created, ..FileRecord::default() });
        entry.added.extend(added);
    }

    /// Notes that the bytes install just wrote to `path` (after [`Installed::wrote`]) are the
    /// whole file, ours.
    pub fn wrote_whole(&mut self, path: &Path, bytes: &[u8]) {
        if let Some(record) = self.files.get_mut(&key(path)) {
            record.sha256 = Some(sha256(bytes));
        }
    }

    /// Whether `bytes` are what install last wrote to `path`, a file wholly ours.
    pub fn is_as_written(&self, path: &Path, bytes: &[u8]) -> bool {
        self.file(path).and_then(|r| r.sha256.as_deref()) == Some(&sha256(bytes))
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

fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(_: &Path, text: &str) -> BTreeSet<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn an_earlier_versions_record_loads_without_its_texts() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().to_path_buf());
        let old = r#"{"files": {
            "/h/.claude/settings.json": {"before": "hooks secret-token", "after": "hooks permissions secret-token"},
            "/h/.claude/CLAUDE.md": {"before": null, "after": "block"}},
            "folders": ["/h/.pi"]}"#;
        std::fs::create_dir_all(dir.path()).unwrap();
        std::fs::write(store.installed_path(), old).unwrap();
        let installed = Installed::load(&store, &shape);
        let settings = installed.file(Path::new("/h/.claude/settings.json")).unwrap();
        assert!(!settings.created);
        assert_eq!(settings.added, BTreeSet::from(["permissions".to_string()]));
        assert!(installed.file(Path::new("/h/.claude/CLAUDE.md")).unwrap().created);
        installed.save(&store).unwrap();
        let text = std::fs::read_to_string(store.installed_path()).unwrap();
        assert!(!text.contains("secret-token") && !text.contains("after"), "{text}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(store.installed_path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(Installed::load(&store, &shape), installed);
    }
}
