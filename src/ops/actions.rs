//! What the commands that change the store do, as library calls.
//!
//! Each is one transaction: take the store's lock, read, change, write atomically, and rebuild
//! the index so the very next prompt sees the change. Nothing is written when the change is
//! refused, and a file that cannot be parsed is never overwritten.

use std::path::Path;
use std::time::SystemTime;

use crate::error::{Error, Result};
use crate::guard::secrets::{self, Policy};
use crate::index;
use crate::ops::duplicates;
use crate::platform::block::{self, BlockEntry, Form};
use crate::project::Project;
use crate::store::config::Config;
use crate::store::glossary::{checked_entry, Recorded};
use crate::store::{recorded, Glossary, Settings, Store};

/// What `record` did, and what the user should know about it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordOutcome {
    pub recorded: Recorded,
    /// The term and the explanation as they were recorded: without surrounding white space.
    pub term: String,
    pub explanation: String,
    /// Whether white space was taken off the term or the explanation as given.
    pub trimmed: bool,
    /// What did not stop the record but is worth saying (an explanation the injected block
    /// cannot show whole).
    pub warnings: Vec<String>,
}

/// Adds or (with `force`) updates a term in the user's glossary, refusing a credential
/// ([`secrets::screen`] with [`Policy::User`]); see [`record_with`].
pub fn record(store: &Store, term: &str, explanation: &str, force: bool) -> Result<RecordOutcome> {
    record_with(store, term, explanation, force, Some(Policy::User))
}

/// Adds or (with `force`) updates a term.
///
/// The input rules are [`checked_entry`]'s. Then an entry that holds a credential is refused
/// as `secrets` says ([`secrets::screen`]); `None` records it anyway (`--allow-secret`):
/// `force` never skips that check. A term not recorded yet goes through the
/// near-duplicate check ([`duplicates::check`]) unless `force`: an entry like a recorded one is
/// refused with [`Error::Duplicate`], and nothing is written. A record that changed the
/// glossary is noted in the record-times log ([`recorded`]).
pub fn record_with(
    store: &Store,
    term: &str,
    explanation: &str,
    force: bool,
    secrets: Option<Policy>,
) -> Result<RecordOutcome> {
    // Refuse bad input before the lock, which creates the folder: a refusal changes nothing.
    let (new_term, new_explanation) = checked_entry(term, explanation, force)?;
    if let Some(policy) = secrets {
        secrets::screen(term, explanation, policy)?;
    }
    let _lock = store.lock()?;
    // A broken config.json is reported by `config`; here its defaults apply, as in the hook.
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    let current = index::CurrentIndex::open(store);
    let mut glossary = load_glossary(store, current.as_ref())?;
    let new = !force && glossary.get(new_term).is_none();
    let recorded = glossary.record(new_term, new_explanation, force).map_err(|e| match e {
        Error::Conflict { term, current, .. } => {
            Error::Conflict { term, current, scope: store.scope_flag() }
        }
        e => e,
    })?;
    if recorded != Recorded::Unchanged {
        // A new term is checked against the others while the new files are built and written;
        // they replace the old ones only when it is not a duplicate. At 100k terms the check
        // then mostly runs where the index build leaves a core idle.
        let check = || {
            if !new {
                return Ok(());
            }
            let similar = duplicates::check(store, &glossary, &settings, new_term, new_explanation);
            if similar.is_empty() {
                return Ok(());
            }
            Err(Error::Duplicate {
                term: new_term.to_string(),
                explanation: new_explanation.to_string(),
                similar,
                scope: store.scope_flag(),
            })
        };
        save_and_reindex(store, &glossary, &settings, check)?;
        // The times are an aid (see `recorded`): the record is written, whatever happens here.
        let _ = recorded::note(store, &glossary, &[new_term], SystemTime::now());
    }
    Ok(RecordOutcome {
        recorded,
        term: new_term.to_string(),
        explanation: new_explanation.to_string(),
        trimmed: (new_term, new_explanation) != (term, explanation),
        warnings: block_warning(new_term, new_explanation, &settings).into_iter().collect(),
    })
}

/// A warning when the block the hook injects cannot show this entry whole, even alone.
pub(crate) fn block_warning(term: &str, explanation: &str, settings: &Settings) -> Option<String> {
    let max = settings.inject.max_chars as usize;
    let alone = [BlockEntry { term, explanation, smart: false }];
    let shown = block::layout(&alone, max, settings.language).map(|b| b.forms[0]);
    if shown == Some(Form::Full) {
        return None;
    }
    Some(format!(
        "the explanation is {} characters; the injected block holds at most {max} \
         (inject.maxChars), so prompts will see it cut short",
        explanation.chars().count()
    ))
}

/// Removes terms. Those present are removed (a term named twice, once); when some were not
/// there, the error names them and the closest recorded terms (exit 1), after the others were
/// removed.
pub fn remove(store: &Store, terms: &[String]) -> Result<Vec<String>> {
    // With nothing recorded there is nothing to lock (locking would create the folder).
    let _lock = if store.dir().is_dir() { Some(store.lock()?) } else { None };
    let current = index::CurrentIndex::open(store);
    let mut glossary = load_glossary(store, current.as_ref())?;
    let mut removed = Vec::new();
    let mut missing = Vec::new();
    for term in terms {
        if removed.contains(term) || missing.contains(&term.as_str()) {
            continue;
        }
        match glossary.remove(term) {
            Some(_) => removed.push(term.clone()),
            None => missing.push(term.as_str()),
        }
    }
    if !removed.is_empty() {
        save(store, &glossary)?;
    }
    if missing.is_empty() {
        return Ok(removed);
    }
    let names = missing.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(", ");
    let mut problem = format!("not recorded: {names}");
    if !removed.is_empty() {
        // Named, so that nobody has to list the glossary to learn what went.
        problem.push_str(&format!("; removed: {}", removed.join(", ")));
    }
    let close: Vec<&str> = missing
        .iter()
        .flat_map(|t| crate::ops::closest::closest_terms(glossary.terms(), t, 3))
        .collect();
    let hint = if close.is_empty() {
        Some(format!("see what is recorded: {}", store.command("list")))
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
    save_config(store, &config)
}

/// Adds `folder` (canonical) to the trusted project roots, and with `links` to those whose
/// glossary may be read through a link (`trust --links`); `false` when nothing changed.
pub fn trust(store: &Store, folder: &Path, links: bool) -> Result<bool> {
    change_trust(store, folder, true, links)
}

/// Takes `folder` (canonical) off the trusted project roots (and off `trust.links`); `false`
/// when it was not trusted.
pub fn untrust(store: &Store, folder: &Path) -> Result<bool> {
    change_trust(store, folder, false, true)
}

fn change_trust(store: &Store, folder: &Path, trusted: bool, links: bool) -> Result<bool> {
    use crate::store::config::{TRUST_KEY, TRUST_LINKS_KEY};
    let folder = folder.to_string_lossy().into_owned();
    let _lock = store.lock()?;
    let mut config = Config::load(store)?;
    let mut changed = false;
    let keys: &[&str] = if links { &[TRUST_KEY, TRUST_LINKS_KEY] } else { &[TRUST_KEY] };
    for &key in keys {
        let mut list = config.folders(key);
        let present = list.contains(&folder);
        if present == trusted {
            continue;
        }
        if trusted {
            list.push(folder.clone());
        } else {
            list.retain(|f| *f != folder);
        }
        config.set_folders(key, list);
        changed |= key == TRUST_KEY || trusted;
    }
    if changed {
        save_config(store, &config)?;
    }
    Ok(changed)
}

/// Who asks for a write into a project glossary: trust in a folder is given only by a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writer {
    /// A person at the command line (`record --project`, `import --project`, `inbox accept`).
    Person,
    /// The model, through an MCP tool: it never writes into a folder the user has not trusted,
    /// and never trusts one.
    Model,
}

/// `record --project`: records in the project's glossary (creating `.tinylingo/` and its
/// `.gitignore` first). A credential is refused with no override.
///
/// Trust: a glossary this record creates holds nothing but what the user (or the model, which
/// may already record into the user's own glossary) wrote, so its folder is trusted; one that
/// came from git is not, whoever writes into it: only `tinylingo trust` trusts it, and the
/// outcome warns that the hook does not use it yet. The model ([`Writer::Model`]) is refused
/// in an untrusted folder, with the command the user can run.
pub fn record_in_project(
    user: &Store,
    project: &Project,
    term: &str,
    explanation: &str,
    force: bool,
    writer: Writer,
) -> Result<RecordOutcome> {
    checked_entry(term, explanation, force)?;
    // Shared through git: a credential is refused whoever asks, with no override.
    secrets::screen(term, explanation, Policy::Project)?;
    let trusted = is_trusted(user, project);
    if writer == Writer::Model && !trusted {
        return Err(untrusted_for_model(project));
    }
    let created = !project.glossary_path().exists();
    project.prepare_to_share()?;
    let mut recorded = record_with(&project.store, term, explanation, force, None)
        .map_err(|e| project.explain(e))?;
    if !adopt(user, project, created)? && !trusted {
        recorded.warnings.push(untrusted_warning(project));
    }
    Ok(recorded)
}

/// Whether the user trusts `project`'s folder (`trust.folders` in their config.json).
pub fn is_trusted(user: &Store, project: &Project) -> bool {
    let list = Config::load(user).map(|c| c.trusted()).unwrap_or_default();
    project.is_trusted(list.iter().map(String::as_str))
}

/// The refusal of a model's write into a folder the user has not trusted.
pub fn untrusted_for_model(project: &Project) -> Error {
    Error::Refused {
        problem: format!(
            "the project glossary in {} is not trusted: the model neither writes into it nor              trusts it",
            project.root.display()
        ),
        hint: Some(format!(
            "ask the user to trust the folder, in their terminal: {}",
            project.trust_command()
        )),
    }
}

/// What a person's write into an untrusted project glossary is told.
pub fn untrusted_warning(project: &Project) -> String {
    format!(
        "the project glossary is not trusted (it came with the repository), so the hook does not \
         use it; to use it: {}",
        project.trust_command()
    )
}

/// After the user wrote a project's glossary (`record`, `import --project`): its folder has
/// its `.gitignore` and `.gitattributes`, and, when this write `created` the glossary, is trusted. `true` when it
/// was trusted now.
pub fn adopt(user: &Store, project: &Project, created: bool) -> Result<bool> {
    project.prepare_to_share()?;
    if !created {
        return Ok(false);
    }
    let root = std::fs::canonicalize(&project.root)
        .map_err(|e| Error::io(&project.root, "find folder", e))?;
    if !trust(user, &root, false)? {
        return Ok(false);
    }
    // Trusting wrote the user's config.json, which the project index's header fingerprints:
    // rebuilt now, so that the first prompt maps it rather than rebuilding it.
    let store = &project.store;
    let _lock = store.lock()?;
    if let Ok(glossary) = Glossary::load(store) {
        let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
        index::rebuild(store, &glossary, &settings)?;
    }
    Ok(true)
}

/// Writes the user's config and rebuilds the index, which archives the settings the hook
/// reads. The caller holds the store's lock.
fn save_config(store: &Store, config: &Config) -> Result<()> {
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
///
/// `check` runs alongside, and decides whether the new files replace the old: when it fails,
/// its error is returned, the temporary files are removed, and nothing changed.
pub(crate) fn save_and_reindex(
    store: &Store,
    glossary: &Glossary,
    settings: &Settings,
    check: impl FnOnce() -> Result<()> + Send,
) -> Result<()> {
    std::thread::scope(|s| {
        let check = s.spawn(check);
        let saver = s.spawn(|| {
            glossary.save_if(store, || join(check))?;
            Ok::<_, Error>(index::source_fingerprints(store))
        });
        let data = index::build(glossary, settings);
        index::write_data(store, &data, || join(saver))
    })
}

/// [`save_and_reindex`] with the settings of `config.json` and nothing to check: for changes
/// decided before the write (`import`, `remove --search`). The caller holds the store's lock.
pub(crate) fn save(store: &Store, glossary: &Glossary) -> Result<()> {
    // A broken config.json is reported by `config`; its defaults apply here, as in the hook.
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    save_and_reindex(store, glossary, &settings, || Ok(()))
}

/// Joins a thread of [`save_and_reindex`], passing its panic on.
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
