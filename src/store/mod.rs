//! The store: the files under `~/.config/tinylingo/` (or `$TINYLINGO_HOME`).
//!
//! * [`glossary`]: `glossary.json`, a flat `{ "term": "explanation" }` object in insertion
//!   order, written exactly as the original Node tool writes it (`JSON.stringify(g, null, 2)`),
//!   so either tool can read what the other wrote.
//! * [`config`]: `config.json`, the user's settings; missing keys take defaults and keys we do
//!   not know survive every rewrite.
//! * [`recorded`]: `recorded.tsv`, when each term was recorded (an append-only log beside the
//!   glossary, which stays exactly the original tool's format).
//! * [`installed`]: `installed.json`, what `install` changed in the assistants' folders (files
//!   it created, key names it added, folders it made; never the files' text), so that
//!   `uninstall` takes out exactly that.
//! * [`files`]: the write discipline every file here follows: one exclusive lock around each
//!   read-modify-write, and atomic replacement (temp file in the same folder, fsync, rename), so
//!   a crash or a concurrent writer never leaves a half-written or lost entry.

pub mod config;
pub mod files;
pub mod glossary;
pub mod installed;
pub mod links;
pub mod recorded;
pub mod seen;
pub mod sessions;
pub mod usage;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

pub use config::Settings;
pub use glossary::Glossary;

/// The folder that holds everything tinylingo keeps, and the names of the files in it.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
    /// The settings file: `config.json` in `dir`, except for a project's store, which has no
    /// settings of its own and takes the user's (see [`Store::project`]).
    config: PathBuf,
    /// Whether this is a project's store: the commands shown in hints then need `--project`.
    project: bool,
}

impl Store {
    /// The store of this user: `$TINYLINGO_HOME` when set and not empty, else
    /// `$HOME/.config/tinylingo`.
    pub fn locate() -> Result<Store> {
        if let Some(dir) = std::env::var_os("TINYLINGO_HOME").filter(|d| !d.is_empty()) {
            return Ok(Store::at(dir));
        }
        let home = home_dir().ok_or_else(|| {
            Error::bad_input(
                "cannot find the home folder: HOME is not set",
                Some("set HOME, or TINYLINGO_HOME to the folder tinylingo should use".into()),
            )
        })?;
        Ok(Store::at(home.join(".config").join("tinylingo")))
    }

    /// A store in an explicit folder (tests, benches).
    pub fn at(dir: impl Into<PathBuf>) -> Store {
        let dir = dir.into();
        Store { config: dir.join(CONFIG_FILE), dir, project: false }
    }

    /// A project's store (`<root>/.tinylingo`, see [`crate::project`]): its own glossary,
    /// index and lock, and the settings of `user`. The project's index is built with the
    /// user's settings (`matching.wordBoundary` shapes it) and its header fingerprints the
    /// user's `config.json`, so a change of settings makes it stale and it is rebuilt once.
    pub fn project(dir: impl Into<PathBuf>, user: &Store) -> Store {
        Store { dir: dir.into(), config: user.config.clone(), project: true }
    }

    /// What a command shown in a hint needs to act on this store: `--project ` for a
    /// project's, nothing for the user's (a hint followed as written must hit the same file).
    pub fn scope_flag(&self) -> &'static str {
        if self.project {
            "--project "
        } else {
            ""
        }
    }

    /// `tinylingo <name>` as a hint shows it, with `--project` for a project's store.
    pub fn command(&self, name: &str) -> String {
        format!("tinylingo {name} {}", self.scope_flag()).trim_end().to_string()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
    pub fn glossary_path(&self) -> PathBuf {
        self.dir.join(GLOSSARY_FILE)
    }
    pub fn config_path(&self) -> PathBuf {
        self.config.clone()
    }
    /// The precompiled index the hook maps (see [`crate::index`]).
    pub fn index_path(&self) -> PathBuf {
        self.dir.join(INDEX_FILE)
    }
    /// When each term was recorded (see [`recorded`]).
    pub fn recorded_path(&self) -> PathBuf {
        self.dir.join(RECORDED_FILE)
    }
    /// What `install` changed (see [`installed`]).
    pub fn installed_path(&self) -> PathBuf {
        self.dir.join(INSTALLED_FILE)
    }
    /// The lock file every read-modify-write of this folder holds exclusively.
    pub fn lock_path(&self) -> PathBuf {
        self.dir.join(".lock")
    }
    pub fn debug_log_path(&self) -> PathBuf {
        self.dir.join("debug.log")
    }
    /// Pending `remove --search` confirmation codes (see [`crate::ops::removal`]).
    pub fn removals_path(&self) -> PathBuf {
        self.dir.join(REMOVALS_FILE)
    }
    /// The hook's usage log: one line per prompt that hit (see [`crate::store::usage`]).
    pub fn usage_log_path(&self) -> PathBuf {
        self.dir.join("usage.log")
    }
    /// The usage log's compacted counts (see [`crate::store::usage`]).
    pub fn usage_path(&self) -> PathBuf {
        self.dir.join(USAGE_FILE)
    }
    /// When this machine first saw each entry of a trusted project glossary (see [`seen`]).
    pub fn seen_path(&self) -> PathBuf {
        self.dir.join(seen::FILE)
    }
    /// What the assistants' hook registrations point at.
    pub fn scripts_dir(&self) -> PathBuf {
        self.dir.join("scripts")
    }

    /// Whether this is a project's store (`.tinylingo/` in a repository).
    pub fn is_project(&self) -> bool {
        self.project
    }

    /// Creates the folder when it is missing: the user's private to the user (0700: it holds
    /// settings, the journal and the inbox), a project's as the repository's other folders
    /// (git and teammates read it). A project's folder that is a link is refused.
    pub fn ensure_dir(&self) -> Result<()> {
        if self.project {
            self.confine()?;
            return std::fs::create_dir_all(&self.dir)
                .map_err(|e| Error::io(&self.dir, "create folder", e));
        }
        if self.dir.is_dir() {
            return Ok(());
        }
        if let Some(parent) = self.dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, "create folder", e))?;
        }
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&self.dir) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                Err(Error::io(&self.dir, "create folder", e))
            }
            _ => Ok(()),
        }
    }

    /// For a project's store, refuses (naming it) a link at the folder or at any file of ours
    /// in it ([`links`]): every writer checks this before it writes, so a repository cannot
    /// make us write outside it. The user's own store writes through links (dotfiles).
    pub fn confine(&self) -> Result<()> {
        if !self.project {
            return Ok(());
        }
        match links::first(&self.dir, STORE_FILES) {
            Some(link) => Err(link.refuse_write()),
            None => Ok(()),
        }
    }

    /// Takes the store's exclusive lock, waiting for any other writer to finish, and clears
    /// away what a killed writer left. A project's store with a link in it is refused
    /// ([`Store::confine`]): every writer of its files holds this lock.
    pub fn lock(&self) -> Result<files::StoreLock> {
        self.ensure_dir()?;
        self.confine()?;
        let lock = files::StoreLock::acquire(&self.lock_path())?;
        self.remove_stale_temp_files();
        Ok(lock)
    }

    /// Removes the temporary files (`.glossary.json.<pid>.<n>.tmp`, and the same for
    /// `glossary.index`, `config.json`, `installed.json` and `recorded.tsv`) of writers killed
    /// before their rename. Every writer of those files holds the lock, so once we hold it none
    /// of them is in use; and at 100k terms some are tens of megabytes. (Other temporary files,
    /// such as the debug log's, are written without the lock and are left alone.)
    fn remove_stale_temp_files(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for entry in entries.flatten() {
            if is_locked_writers_temp(&entry.file_name().to_string_lossy()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Takes the lock only when nobody holds it (the hook never waits on a running `record`).
    pub fn try_lock(&self) -> Option<files::StoreLock> {
        self.confine().ok()?;
        files::StoreLock::try_acquire(&self.lock_path())
    }
}

// The store's files. Every writer of each of them holds the store's lock.
const GLOSSARY_FILE: &str = "glossary.json";
const CONFIG_FILE: &str = "config.json";
const INDEX_FILE: &str = "glossary.index";
const INSTALLED_FILE: &str = "installed.json";
const REMOVALS_FILE: &str = "removals.json";
const USAGE_FILE: &str = "usage.json";
const RECORDED_FILE: &str = "recorded.tsv";

/// Every file a writer of ours may create or change in a store's folder: what a project's
/// store checks for links before it writes ([`Store::confine`]).
const STORE_FILES: &[&str] = &[
    GLOSSARY_FILE,
    INDEX_FILE,
    ".lock",
    ".gitignore",
    ".gitattributes",
    RECORDED_FILE,
    REMOVALS_FILE,
    USAGE_FILE,
    "usage.log",
    "debug.log",
    CONFIG_FILE,
    INSTALLED_FILE,
];

/// Whether `name` is a temporary file of a writer of one of the files every writer of which
/// holds the lock.
fn is_locked_writers_temp(name: &str) -> bool {
    [
        GLOSSARY_FILE,
        INDEX_FILE,
        CONFIG_FILE,
        INSTALLED_FILE,
        RECORDED_FILE,
        REMOVALS_FILE,
        USAGE_FILE,
        seen::FILE,
    ]
    .iter()
    .any(|file| files::is_temp_name_of(name, file))
}

/// The user's home folder, from `HOME`.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::is_locked_writers_temp;

    #[test]
    fn only_the_locked_writers_temp_files_are_recognised() {
        for name in [
            ".glossary.json.12.0.tmp",
            ".glossary.index.7.31.tmp",
            ".config.json.1.2.tmp",
            ".recorded.tsv.3.0.tmp",
        ] {
            assert!(is_locked_writers_temp(name), "{name}");
        }
        for name in [
            "glossary.json",
            ".glossary.json.tmp",
            ".glossary.json.12.tmp",
            ".glossary.json.12.x.tmp",
            ".glossary.json..0.tmp",
            ".debug.log.12.0.tmp",
            ".glossary.json.12.0.tmp.bak",
            "glossary.json.12.0.tmp",
        ] {
            assert!(!is_locked_writers_temp(name), "{name}");
        }
    }
}
