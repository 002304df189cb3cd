//! The paths an explanation names, and whether they still exist in a repository's git tree.
//!
//! A path is a run of `[A-Za-z0-9_.-/]` with a slash between two names (`src/modules/bgremove/`,
//! `engine/render/graph.rs`; a leading `./` is dropped, trailing sentence punctuation too).
//! Absolute paths, `~/…`, URLs, `@scope/pkg`, `$VAR/x` and anything with `..` are not checked:
//! they do not name a place in the repository. Of the rest, a path counts as relative to the
//! repository's root when its first name is at that root (`src/…` where `src/` exists), so
//! `and/or` or `TCP/IP` are never reported. A user's entry (kept across all their projects)
//! is checked only where the repository shows it is about it: the path's parent folder is
//! there, or something of the same name is (it moved), so `src/modules/x/` from another
//! project is not reported in every repository that has a `src/`. A project glossary's own entries are also checked
//! when the path has a file's shape (`engine/graph.rs`, `a/b/c`) and its first folder is gone,
//! since a whole folder can be deleted.
//!
//! The tree is what git sees: `git ls-files` (tracked) plus `git ls-files --others
//! --exclude-standard` (untracked, not ignored). A missing path's likely new place is the one
//! existing path with the same file (or folder) name, the closest by shared parent folders;
//! failing that, git's rename detection over recent history (`git log -M --diff-filter=R`).

use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::process::Command;

use ahash::{AHashMap, AHashSet};

/// How many commits of history the rename detection reads: enough for the renames of the last
/// months, bounded so that `check` stays near a second on a large repository.
const RENAME_COMMITS: &str = "2000";

/// A path an explanation names, as written and as looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named<'a> {
    /// As it appears in the explanation (what a fix replaces).
    pub written: &'a str,
    /// Without `./` and a trailing `/`.
    pub path: &'a str,
}

/// The repository-relative-looking paths in `text`, each once, in order.
pub fn named(text: &str) -> Vec<Named<'_>> {
    let mut out: Vec<Named> = Vec::new();
    let bytes = text.as_bytes();
    let token = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/');
    let mut i = 0;
    while i < bytes.len() {
        if !token(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && token(bytes[i]) {
            i += 1;
        }
        let before = start.checked_sub(1).map(|j| bytes[j]);
        if matches!(before, Some(b'@' | b'$' | b':' | b'%' | b'~' | b'\\')) {
            continue;
        }
        let mut written = &text[start..i];
        written = written.trim_end_matches(['.', ',', '-']);
        let path = written.strip_prefix("./").unwrap_or(written).trim_end_matches('/');
        let plausible = !path.starts_with('/')
            && path.contains('/')
            && !path.contains("//")
            && path.split('/').all(|s| !s.is_empty() && s != "." && s != "..")
            && path.bytes().any(|b| b.is_ascii_alphabetic());
        if plausible && !out.iter().any(|n| n.path == path) {
            out.push(Named { written, path });
        }
    }
    out
}

/// Whether `path` has a file's shape strongly enough to be checked even when its first
/// folder is not at the root: three names or more, or a lowercase folder and a file with an
/// extension (`engine/graph.rs`, not `React/Vue.js` or `Node.js/Deno`).
pub fn file_shaped(path: &str) -> bool {
    let names: Vec<&str> = path.split('/').collect();
    let first = names[0];
    if first.contains('.') {
        return false; // a host name: github.com/org/repo
    }
    let last = names[names.len() - 1];
    let extension = last.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty()
            && (1..=6).contains(&ext.len())
            && ext.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    });
    names.len() >= 3 || (extension && first.bytes().all(|b| !b.is_ascii_uppercase()))
}

/// The files git sees under a folder, and what was renamed.
pub struct Tree {
    root: PathBuf,
    files: AHashSet<String>,
    dirs: AHashSet<String>,
    /// File and folder names → their paths.
    by_name: AHashMap<String, Vec<String>>,
    renames: OnceCell<AHashMap<String, String>>,
}

impl Tree {
    /// The tree under `folder` (paths relative to it), when it is in a git work tree and git
    /// answers.
    pub fn of(folder: &Path) -> Option<Tree> {
        let tracked = git(folder, &["ls-files", "-z"])?;
        let untracked = git(folder, &["ls-files", "-z", "--others", "--exclude-standard"])?;
        let mut tree = Tree {
            root: folder.to_path_buf(),
            files: AHashSet::new(),
            dirs: AHashSet::new(),
            by_name: AHashMap::new(),
            renames: OnceCell::new(),
        };
        for file in tracked.split('\0').chain(untracked.split('\0')).filter(|f| !f.is_empty()) {
            tree.add(file);
        }
        Some(tree)
    }

    fn add(&mut self, file: &str) {
        if !self.files.insert(file.to_string()) {
            return;
        }
        let name = file.rsplit('/').next().unwrap_or(file);
        self.by_name.entry(name.to_string()).or_default().push(file.to_string());
        let mut dir = file;
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if !self.dirs.insert(parent.to_string()) {
                break;
            }
            let dir_name = parent.rsplit('/').next().unwrap_or(parent);
            self.by_name.entry(dir_name.to_string()).or_default().push(parent.to_string());
            dir = parent;
        }
    }

    /// The folder the paths are relative to.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Whether a file or folder `path` (no trailing slash) is in the tree.
    pub fn exists(&self, path: &str) -> bool {
        self.files.contains(path) || self.dirs.contains(path)
    }

    /// Whether `path`'s parent folder is in the tree (the root for a top-level name), or a
    /// file or folder of the same name is somewhere in it: evidence that `path` was about this
    /// repository, for entries that are not the repository's own.
    pub fn related(&self, path: &str) -> bool {
        match path.rsplit_once('/') {
            Some((parent, name)) => self.exists(parent) || self.by_name.contains_key(name),
            None => true,
        }
    }

    /// Whether `path`'s first name is at the root of the tree.
    pub fn at_root(&self, path: &str) -> bool {
        let first = path.split('/').next().unwrap_or(path);
        self.exists(first)
    }

    /// The likely new place of a missing `path`: the existing path of the same name that
    /// shares the most parent folders with it (when one does so alone), else where git's
    /// rename detection says it went.
    pub fn renamed(&self, path: &str) -> Option<String> {
        self.same_name(path).or_else(|| self.followed(path))
    }

    fn same_name(&self, path: &str) -> Option<String> {
        let name = path.rsplit('/').next()?;
        let found = self.by_name.get(name)?;
        let shared = |other: &str| {
            let a = path.rsplit('/').skip(1);
            let mut b = other.rsplit('/').skip(1).collect::<AHashSet<_>>();
            a.filter(|n| b.remove(n)).count()
        };
        let mut scored: Vec<(usize, &String)> = found.iter().map(|p| (shared(p), p)).collect();
        scored.sort_by_key(|s| std::cmp::Reverse(s.0));
        match scored.as_slice() {
            [(_, only)] => Some((*only).clone()),
            [(a, best), (b, _), ..] if a > b => Some((*best).clone()),
            _ => None,
        }
    }

    /// Where git's rename detection followed `path` (a file, or a folder by the files in it).
    fn followed(&self, path: &str) -> Option<String> {
        let renames = self.renames.get_or_init(|| self.read_renames());
        let mut at = path.to_string();
        for _ in 0..16 {
            if self.exists(&at) && at != path {
                return Some(at);
            }
            let next = renames.get(&at).cloned().or_else(|| {
                // A folder: a file under it was renamed to the same rest under another folder.
                let prefix = format!("{at}/");
                renames.iter().find_map(|(old, new)| {
                    let rest = old.strip_prefix(&prefix)?;
                    let dir = new.strip_suffix(rest)?.strip_suffix('/')?;
                    Some(dir.to_string())
                })
            })?;
            at = next;
        }
        None
    }

    /// Old path → new path, the most recent rename of each path.
    fn read_renames(&self) -> AHashMap<String, String> {
        let args = [
            "log",
            "-z",
            "--format=",
            "--name-status",
            "-M",
            "--diff-filter=R",
            "-n",
            RENAME_COMMITS,
        ];
        let Some(out) = git(&self.root, &args) else { return AHashMap::new() };
        let mut renames = AHashMap::new();
        let mut fields = out.split('\0').filter(|f| !f.is_empty());
        while let Some(status) = fields.next() {
            let (Some(old), Some(new)) = (fields.next(), fields.next()) else { break };
            if status.starts_with('R') {
                renames.entry(old.to_string()).or_insert_with(|| new.to_string());
            }
        }
        renames
    }
}

/// `git -C folder args…`'s stdout, when it succeeds.
fn git(folder: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(folder)
        .args(["-c", "core.quotepath=off"])
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The root of the git work tree `folder` is in.
pub fn work_tree_root(folder: &Path) -> Option<PathBuf> {
    let out = git(folder, &["rev-parse", "--show-toplevel"])?;
    let root = out.trim_end_matches(['\n', '\r']);
    (!root.is_empty()).then(|| PathBuf::from(root))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str) -> Vec<&str> {
        named(text).into_iter().map(|n| n.path).collect()
    }

    #[test]
    fn paths_are_found_in_prose_of_any_language() {
        assert_eq!(
            paths(
                "ProjectA 背景移除模块，位于 src/modules/bgremove/。见 ./engine/render/graph.rs."
            ),
            ["src/modules/bgremove", "engine/render/graph.rs"]
        );
        assert_eq!(paths("see `src/a.rs:42` and src/a.rs"), ["src/a.rs"]);
    }

    #[test]
    fn what_is_not_a_repository_path_is_left_alone() {
        let text =
            "/usr/bin/env ~/x/y https://example.com/a/b @scope/pkg $HOME/x ../up/there a//b 24/7";
        assert_eq!(paths(text), Vec::<&str>::new());
    }

    #[test]
    fn file_shape() {
        assert!(file_shaped("engine/graph.rs"));
        assert!(file_shaped("a/b/c"));
        assert!(!file_shaped("and/or"));
        assert!(!file_shaped("React/Vue.js"));
        assert!(!file_shaped("github.com/org/repo"));
    }
}
