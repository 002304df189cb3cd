//! `seen.json`: when this machine first had each entry of a trusted project glossary, so that
//! `check --unused` can tell an entry nobody uses from one the hook here never had the chance
//! to use.
//!
//! The usage log is per machine, and a project glossary arrives by `git clone` or `git pull`:
//! in a fresh clone every entry the team committed has no usage here, however much the team
//! uses it. An entry counts as unused only once this machine has known it for the whole span
//! asked about (see [`crate::guard::check`]).
//!
//! ```json
//! { "/home/you/proj": { "联调": 1767225600, "智能抠图": 1767225663 } }
//! ```
//!
//! Project roots (canonical) → term → Unix seconds when first seen. Kept in the user's store,
//! not in the project's `.tinylingo/` (whose `.gitignore` would not list it in clones made
//! before it existed). Two readers note what they see: the hook, when it rebuilds a trusted
//! project's index (a pull or a checkout brought a new version: the moment the hook first has
//! its new terms), and `check --unused`. Only trusted projects are noted: the hook uses no
//! other, so no other entry's use could have been seen. A term no longer in the project's
//! glossary is dropped when the project is noted again, so the file follows the glossaries.
//!
//! Like `recorded.tsv`, an aid: a missing or unreadable file means nothing was seen yet (every
//! shared entry then counts as new, the safe side), and the writers hold the user store's lock.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use super::files::{read_if_exists, write_atomic};
use super::usage::secs;
use super::Store;
use crate::error::Result;
use crate::output::pretty_json;

/// One project's terms → when first seen (Unix seconds).
pub type Seen = BTreeMap<String, u64>;

/// The file's name in the user's store.
pub const FILE: &str = "seen.json";

/// Notes `terms`, the whole of the project glossary at `root` as it is now, as seen at `now`
/// unless seen before; forgets the project's terms that are gone. Returns when each of `terms`
/// was first seen. The caller holds the user store's lock.
pub fn note<'t>(
    store: &Store,
    root: &Path,
    terms: impl IntoIterator<Item = &'t str>,
    now: SystemTime,
) -> Result<Seen> {
    let mut all = load(store);
    let key = key(root);
    let before = all.remove(&key).unwrap_or_default();
    let now = secs(now);
    let seen: Seen =
        terms.into_iter().map(|t| (t.to_string(), before.get(t).copied().unwrap_or(now))).collect();
    if seen != before {
        all.insert(key, seen.clone());
        store.ensure_dir()?;
        write_atomic(&store.seen_path(), pretty_json(&all).as_bytes())?;
    }
    Ok(seen)
}

/// When each term of the project at `root` was first seen here, as noted so far.
pub fn read(store: &Store, root: &Path) -> Seen {
    load(store).remove(&key(root)).unwrap_or_default()
}

fn load(store: &Store) -> BTreeMap<String, Seen> {
    read_if_exists(&store.seen_path())
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// A project's key: its root, canonical (the hook's `cwd` and a shell's folder may reach it
/// through different links).
fn key(root: &Path) -> String {
    std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf()).to_string_lossy().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    fn at(s: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(s)
    }

    #[test]
    fn the_first_sight_is_kept_and_gone_terms_are_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().join("store"));
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::fs::create_dir_all(&a).unwrap();
        let first = note(&store, &a, ["x", "y"], at(100)).unwrap();
        assert_eq!(first, Seen::from([("x".into(), 100), ("y".into(), 100)]));
        note(&store, &b, ["x"], at(150)).unwrap();
        let later = note(&store, &a, ["x", "z"], at(200)).unwrap();
        assert_eq!(later, Seen::from([("x".into(), 100), ("z".into(), 200)]));
        assert_eq!(read(&store, &a), later);
        assert_eq!(read(&store, &b), Seen::from([("x".into(), 150)]));
        // Unreadable: nothing seen yet.
        std::fs::write(store.dir().join(FILE), "{").unwrap();
        assert!(read(&store, &a).is_empty());
    }
}
