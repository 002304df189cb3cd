//! Links in a folder that came from git.
//!
//! A project's `.tinylingo/` arrives with `git clone`, so whoever wrote the repository chose
//! what is there, links included. The user's own store writes through a symbolic link on
//! purpose (a dotfiles manager links `glossary.json` into a repository of the user's); in a
//! project folder the same behaviour would let a repository replace or append to any file the
//! user can write (`glossary.index` linked to `~/.ssh/authorized_keys`, `recorded.tsv` to
//! `~/.bashrc`), and a linked glossary would read any JSON file of the user's into the model.
//!
//! So a project's store checks, before every write and before its glossary is read, that
//! neither the folder nor any file of ours in it is a symbolic link, and that no file of ours
//! has a second hard link (a file of ours with two names is the same attack through `ln`).
//! These checks cost one `lstat` each, and are made only for a project's store.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{shell_word, Error};

/// A link found where a plain file or folder belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub path: PathBuf,
    pub kind: LinkKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkKind {
    /// A symbolic link, and what it points at (as written in the link).
    Symbolic(PathBuf),
    /// A regular file with more than one name.
    Hard(u64),
}

impl Link {
    /// What the link is, for messages: "a symbolic link to ~/.bashrc".
    pub fn describe(&self) -> String {
        match &self.kind {
            LinkKind::Symbolic(to) => {
                format!("{} is a symbolic link to {}", self.path.display(), to.display())
            }
            LinkKind::Hard(n) => {
                format!("{} is a hard link (the same file has {n} names)", self.path.display())
            }
        }
    }

    /// The refusal of a write through this link: nothing was changed.
    pub fn refuse_write(&self) -> Error {
        Error::Refused {
            problem: format!(
                "{}: it is in a project's .tinylingo folder, which came from git, so tinylingo \
                 does not write through it; nothing was changed",
                self.describe()
            ),
            hint: Some(self.remove_hint()),
        }
    }

    /// The refusal to read a project glossary through this link.
    pub fn refuse_read(&self, root: &Path) -> Error {
        Error::Refused {
            problem: format!(
                "{}: a project glossary is not read through a link that came from git",
                self.describe()
            ),
            hint: Some(format!(
                "{}; or, if you made the link and know where it points, trust the folder with \
                 its links: tinylingo trust --links {}",
                self.remove_hint(),
                shell_word(&root.to_string_lossy())
            )),
        }
    }

    /// The refusal of `trust` (without `--links`) for the folder `root` this link is in:
    /// nothing was trusted.
    pub fn refuse_trust(&self, root: &Path) -> Error {
        Error::Refused {
            problem: format!(
                "{}: trusting the folder would read its glossary from where the link points; \
                 nothing was trusted",
                self.describe()
            ),
            hint: Some(format!(
                "if you did not make the link, remove it (rm {}); if you did and want it read: \
                 tinylingo trust --links {}",
                shell_word(&self.path.to_string_lossy()),
                shell_word(&root.to_string_lossy())
            )),
        }
    }

    fn remove_hint(&self) -> String {
        format!(
            "if you did not make it, remove it (rm {}) and run the command again: tinylingo \
             writes a plain file in its place",
            shell_word(&self.path.to_string_lossy())
        )
    }
}

/// The link at `path`, if it is one: a symbolic link, or a regular file with a second name.
/// A missing path, a plain file or a real folder is `None`.
pub fn at(path: &Path) -> Option<Link> {
    let meta = fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() {
        let to = fs::read_link(path).unwrap_or_default();
        return Some(Link { path: path.to_path_buf(), kind: LinkKind::Symbolic(to) });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.is_file() && meta.nlink() > 1 {
            return Some(Link { path: path.to_path_buf(), kind: LinkKind::Hard(meta.nlink()) });
        }
    }
    None
}

/// The first link among `dir` itself and the files `names` in it.
pub fn first(dir: &Path, names: &[&str]) -> Option<Link> {
    if let Some(link) = at(dir) {
        return Some(link);
    }
    names.iter().find_map(|name| at(&dir.join(name)))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn symbolic_and_hard_links_are_found_plain_files_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(".tinylingo");
        fs::create_dir(&dir).unwrap();
        fs::write(dir.join("glossary.json"), "{}").unwrap();
        assert_eq!(first(&dir, &["glossary.json", "missing"]), None);
        let outside = tmp.path().join("outside");
        fs::write(&outside, "x").unwrap();
        std::os::unix::fs::symlink(&outside, dir.join("recorded.tsv")).unwrap();
        let found = first(&dir, &["glossary.json", "recorded.tsv"]).unwrap();
        assert_eq!(found.kind, LinkKind::Symbolic(outside.clone()));
        fs::remove_file(dir.join("recorded.tsv")).unwrap();
        fs::hard_link(&outside, dir.join("usage.log")).unwrap();
        assert_eq!(first(&dir, &["usage.log"]).unwrap().kind, LinkKind::Hard(2));
        let linked_dir = tmp.path().join("linked");
        std::os::unix::fs::symlink(&dir, &linked_dir).unwrap();
        assert_eq!(first(&linked_dir, &[]).unwrap().path, linked_dir);
    }
}
