//! What the commands that change the store do, as library calls.
//!
//! Each is one transaction: take the store's lock, read, change, write atomically, and rebuild
//! the index so the very next prompt sees the change. Nothing is written when the change is
//! refused, and a file that cannot be parsed is never overwritten.

use crate::error::{Error, Result};
use crate::index;
use crate::store::config::Config;
use crate::store::glossary::Recorded;
use crate::store::{Glossary, Store};

/// Adds or (with `force`) updates a term.
pub fn record(store: &Store, term: &str, explanation: &str, force: bool) -> Result<Recorded> {
    // Refuse bad input before the lock, which creates the folder: a refusal changes nothing.
    Glossary::default().record(term, explanation, force)?;
    let _lock = store.lock()?;
    let current = index::CurrentIndex::open(store);
    let mut glossary = load_glossary(store, current.as_ref())?;
    let recorded = glossary.record(term, explanation, force)?;
    if recorded != Recorded::Unchanged {
        save_and_reindex(store, &glossary)?;
    }
    Ok(recorded)
}

/// Removes terms. Those present are removed; when some were not there, the error names them and
/// the closest recorded terms (exit 1), after the others were removed.
pub fn remove(store: &Store, terms: &[String]) -> Result<Vec<String>> {
    // With nothing recorded there is nothing to lock (locking would create the folder).
    let _lock = if store.dir().is_dir() { Some(store.lock()?) } else { None };
    let current = index::CurrentIndex::open(store);
    let mut glossary = load_glossary(store, current.as_ref())?;
    let mut removed = Vec::new();
    let mut missing = Vec::new();
    for term in terms {
        match glossary.remove(term) {
            Some(_) => removed.push(term.clone()),
            None => missing.push(term.as_str()),
        }
    }
    if !removed.is_empty() {
        save_and_reindex(store, &glossary)?;
    }
    if missing.is_empty() {
        return Ok(removed);
    }
    let names = missing.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(", ");
    let mut problem = format!("not recorded: {names}");
    if !removed.is_empty() {
        problem.push_str(&format!(" (removed the other {})", removed.len()));
    }
    let close: Vec<&str> = missing
        .iter()
        .flat_map(|t| crate::closest::closest_terms(glossary.terms(), t, 3))
        .collect();
    let hint = if close.is_empty() {
        Some("see what is recorded: tinylingo list".to_string())
    } else {
        Some(format!("closest recorded terms: {}", close.join(", ")))
    };
    Err(Error::NotFound { problem, hint })
}

/// Sets a config key, then rebuilds the index (the hook reads its settings from there).
pub fn set_config(store: &Store, key: &str, value: &str) -> Result<()> {
    // Refuse bad input before the lock, which creates the folder: a refusal changes nothing.
    Config::default().set(key, value)?;
    let _lock = store.lock()?;
    let mut config = Config::load(store)?;
    config.set(key, value)?;
    config.save(store)?;
    // A glossary we cannot parse does not stop a config change; the hook stays silent until the
    // glossary is fixed, and the next command that reads it reports the problem.
    if let Ok(glossary) = Glossary::load(store) {
        index::rebuild(store, &glossary, &config.settings().0)?;
    }
    Ok(())
}

/// The glossary, for a change: borrowed from the index when it is current (see
/// [`index::CurrentIndex`]), else read from `glossary.json`. The caller holds the store's lock.
pub(crate) fn load_glossary<'a>(
    store: &Store,
    current: Option<&'a index::CurrentIndex>,
) -> Result<Glossary<'a>> {
    match current.and_then(index::CurrentIndex::glossary) {
        Some(glossary) => Ok(glossary),
        None => Glossary::load(store),
    }
}

/// Writes the glossary and rebuilds the index from it. The caller holds the store's lock.
///
/// The index is built from the glossary in memory while the file is being written and
/// flushed, which overlaps the two slowest steps of `record` at large sizes. The index is
/// stamped with the fingerprints taken right after the glossary's rename: they describe the
/// file just written, whose content is exactly what the index holds. (A hand edit landing
/// after that stat changes the fingerprint, so the hook reads the edit from the file.)
pub(crate) fn save_and_reindex(store: &Store, glossary: &Glossary) -> Result<()> {
    // A broken config.json is reported by `config`; here its defaults apply, as in the hook.
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    std::thread::scope(|s| {
        let saver = s.spawn(|| {
            glossary.save(store)?;
            Ok::<_, Error>(index::source_fingerprints(store))
        });
        let data = index::build(glossary, &settings);
        index::write_data(store, &data, || {
            saver.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    })
}
