//! Removing many entries at once, in two steps (Code Buddy's confirmed deletion).
//!
//! `remove --search QUERY` selects with [`crate::ops::search`]'s rule and removes nothing: it shows
//! what it would take and hands out a confirmation code. `remove --confirm CODE` then removes
//! exactly those entries. A code is random, valid for five minutes, used once, and bound to the
//! entries as they were previewed — their terms and explanations — so a code read off an old
//! preview can never remove an entry that changed since, or one that was never shown.
//!
//! Pending codes are kept in `removals.json` in the store (written under the store's lock,
//! expired ones dropped on every write), so the two steps can be two processes: a person at a
//! terminal, or a model calling the CLI or the MCP tool twice.

use std::hash::{BuildHasher, Hasher};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::ops::actions;
use crate::ops::search::{Query, Scope};
use crate::output::pretty_json;
use crate::store::files::{read_if_exists, write_atomic};
use crate::store::{Glossary, Store};

/// How long a confirmation code stays valid.
pub const CODE_LIFETIME: Duration = Duration::from_secs(5 * 60);

/// The letters a code is made of: no `0`/`O`, `1`/`I`/`L`, so a code read aloud or retyped
/// from a screen comes out right.
const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LEN: usize = 6;

/// The entries a search selected, and the code that removes them.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    pub code: String,
    /// Term and explanation of every selected entry, in glossary order.
    pub entries: Vec<(String, String)>,
    pub expires: SystemTime,
}

/// One pending code as `removals.json` keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Pending {
    code: String,
    /// Seconds since the epoch.
    expires: u64,
    terms: Vec<String>,
    /// SHA-256 over the previewed entries (terms and explanations), hex.
    digest: String,
}

/// Selects the entries `query` matches and stores a code for them. Nothing matching is
/// [`Error::NotFound`].
pub fn preview(store: &Store, query: &str, scope: Scope) -> Result<Preview> {
    let _lock = store.lock()?;
    let current = crate::index::CurrentIndex::open(store);
    let glossary = actions::load_glossary(store, current.as_ref())?;
    let entries = select(store, &glossary, query, scope)?;
    let now = SystemTime::now();
    let expires = now + CODE_LIFETIME;
    let mut pending = load(store);
    pending.retain(|p| p.expires > secs(now));
    let code = loop {
        let code = new_code();
        if !pending.iter().any(|p| p.code == code) {
            break code;
        }
    };
    pending.push(Pending {
        code: code.clone(),
        expires: secs(expires),
        terms: entries.iter().map(|(t, _)| t.clone()).collect(),
        digest: digest(entries.iter().map(|(t, e)| (t.as_str(), e.as_str()))),
    });
    save(store, &pending)?;
    Ok(Preview { code, entries, expires })
}

/// Removes the entries a code was handed out for, if they are still exactly as previewed.
/// The code is used up either way; an unknown, expired or stale one is [`Error::Refused`].
pub fn confirm(store: &Store, code: &str) -> Result<Vec<String>> {
    let _lock = store.lock()?;
    let now = secs(SystemTime::now());
    let mut pending = load(store);
    let wanted = code.trim().to_ascii_uppercase();
    let found = pending.iter().position(|p| p.code == wanted);
    let entry = found.map(|i| pending.remove(i));
    pending.retain(|p| p.expires > now);
    save(store, &pending)?;
    let again = || Some(format!("search again: {} --search <query>", store.command("remove")));
    let entry = match entry {
        Some(p) if p.expires > now => p,
        Some(_) => {
            return Err(Error::Refused {
                problem: format!("the confirmation code {wanted} has expired (codes last 5 minutes); nothing was removed"),
                hint: again(),
            })
        }
        None => {
            return Err(Error::Refused {
                problem: format!("no pending removal has the code {wanted} (a code is used once); nothing was removed"),
                hint: again(),
            })
        }
    };
    let current = crate::index::CurrentIndex::open(store);
    let mut glossary = actions::load_glossary(store, current.as_ref())?;
    let now_entries: Option<Vec<(&str, &str)>> =
        entry.terms.iter().map(|t| glossary.get(t).map(|e| (t.as_str(), e))).collect();
    if now_entries.is_none_or(|e| digest(e.into_iter()) != entry.digest) {
        return Err(Error::Refused {
            problem:
                "the entries of that preview changed or were removed since; nothing was removed"
                    .into(),
            hint: again(),
        });
    }
    for term in &entry.terms {
        glossary.remove(term);
    }
    actions::save(store, &glossary)?;
    Ok(entry.terms)
}

/// Removes at once what `query` matches (`--yes`); nothing matching is [`Error::NotFound`].
pub fn remove_matching(store: &Store, query: &str, scope: Scope) -> Result<Vec<String>> {
    let _lock = store.lock()?;
    let current = crate::index::CurrentIndex::open(store);
    let mut glossary = actions::load_glossary(store, current.as_ref())?;
    let terms: Vec<String> =
        select(store, &glossary, query, scope)?.into_iter().map(|(t, _)| t).collect();
    for term in &terms {
        glossary.remove(term);
    }
    actions::save(store, &glossary)?;
    Ok(terms)
}

fn select(
    store: &Store,
    glossary: &Glossary,
    query: &str,
    scope: Scope,
) -> Result<Vec<(String, String)>> {
    let q = Query::new(query, scope);
    let entries: Vec<(String, String)> = glossary
        .iter()
        .filter(|(t, e)| q.matches(t, e))
        .map(|(t, e)| (t.to_string(), e.to_string()))
        .collect();
    if entries.is_empty() {
        return Err(Error::NotFound {
            problem: format!("no entry matches \"{query}\"; nothing to remove"),
            hint: Some(format!("see what is recorded: {}", store.command("list"))),
        });
    }
    Ok(entries)
}

fn digest<'e>(entries: impl Iterator<Item = (&'e str, &'e str)>) -> String {
    let mut hash = Sha256::new();
    for (term, explanation) in entries {
        // Lengths first, so that no two different lists hash the same text.
        hash.update((term.len() as u64).to_le_bytes());
        hash.update(term.as_bytes());
        hash.update((explanation.len() as u64).to_le_bytes());
        hash.update(explanation.as_bytes());
    }
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A random code. std's `RandomState` is seeded from the operating system's random source,
/// which is all a code guarding against a mistaken removal needs.
fn new_code() -> String {
    let mut bits = std::collections::hash_map::RandomState::new().build_hasher().finish();
    (0..CODE_LEN)
        .map(|_| {
            let c = ALPHABET[(bits % ALPHABET.len() as u64) as usize];
            bits /= ALPHABET.len() as u64;
            c as char
        })
        .collect()
}

fn secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// The pending codes; a missing or unreadable file holds none (a code is then refused, and a
/// new search makes a new one).
fn load(store: &Store) -> Vec<Pending> {
    read_if_exists(&store.removals_path())
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn save(store: &Store, pending: &[Pending]) -> Result<()> {
    let path = store.removals_path();
    if pending.is_empty() {
        return match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io(&path, "remove", e))
            }
            _ => Ok(()),
        };
    }
    write_atomic(&path, pretty_json(pending).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_unambiguous_alphabet() {
        for _ in 0..100 {
            let code = new_code();
            assert_eq!(code.len(), CODE_LEN);
            assert!(code.bytes().all(|b| ALPHABET.contains(&b)), "{code}");
        }
        assert_ne!(new_code(), new_code());
    }

    #[test]
    fn the_digest_changes_with_any_entry() {
        let a = digest([("a", "b"), ("c", "d")].into_iter());
        assert_ne!(a, digest([("a", "b"), ("c", "e")].into_iter()));
        assert_ne!(a, digest([("a", "b")].into_iter()));
        assert_ne!(digest([("ab", "")].into_iter()), digest([("a", "b")].into_iter()));
        assert_eq!(a, digest([("a", "b"), ("c", "d")].into_iter()));
    }
}
