//! The usage log: which terms the hook injected, and when, for `stats`.
//!
//! The hook appends one line to `usage.log` for each prompt that hit, and nothing for a prompt
//! that did not: the common prompt pays nothing, a hit pays one `open`/`write`/`close`. The
//! line is `<unix seconds>\t<term>\t<term>…`, terms escaped as TSV fields. The append takes no
//! lock (the hook never waits): a single `write` to a file opened with `O_APPEND` lands whole.
//!
//! So that the log never grows without bound it is compacted into `usage.json` (per term: hits
//! and last hit; the number of prompts that hit; since when) once it passes [`LOG_CAP`], by
//! the hook that pushed it over (only if no writer holds the store's lock: it never waits),
//! and by every `stats`. Compaction renames the log aside first, so the hooks of other
//! sessions append to a fresh one meanwhile and no line is lost.
//!
//! `config stats.enabled false` stops the log (the setting is archived in the index, like
//! every setting the hook reads).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::output::pretty_json;
use crate::output::{escape_tsv, unescape_tsv};
use crate::store::files::{open_regular, read_if_exists, write_atomic};
use crate::store::Store;

/// The log is compacted once it passes this size (some 5,000 hits).
pub const LOG_CAP: u64 = 256 * 1024;

/// One term's use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermUsage {
    /// Prompts that hit the term.
    pub hits: u64,
    /// The last of them, in seconds since the epoch.
    pub last: u64,
}

/// Everything the log and its compacted counts hold.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompts that hit at least one term.
    pub prompts: u64,
    /// The first hit counted, in seconds since the epoch (0: none yet).
    pub since: u64,
    pub terms: BTreeMap<String, TermUsage>,
}

impl Usage {
    fn add_line(&mut self, line: &str) {
        let mut fields = line.split('\t');
        let Some(time) = fields.next().and_then(|t| t.parse::<u64>().ok()) else { return };
        let mut any = false;
        for term in fields.filter_map(unescape_tsv).filter(|t| !t.is_empty()) {
            let usage = self.terms.entry(term).or_default();
            usage.hits += 1;
            usage.last = usage.last.max(time);
            any = true;
        }
        if any {
            self.prompts += 1;
            if self.since == 0 || time < self.since {
                self.since = time;
            }
        }
    }

    fn add_log(&mut self, text: &str) {
        // A line cut short by a crash lacks its newline; it is still whole up to there.
        for line in text.lines() {
            self.add_line(line);
        }
    }
}

/// Notes that a prompt hit `terms` (the hook; best effort, errors are the caller's to log).
pub fn note(store: &Store, terms: &[&str], now: SystemTime) -> std::io::Result<()> {
    let mut line = secs(now).to_string();
    for term in terms {
        line.push('\t');
        escape_tsv(&mut line, term);
    }
    line.push('\n');
    let path = store.usage_log_path();
    let mut file = open_regular(&path, std::fs::OpenOptions::new().create(true).append(true))?;
    file.write_all(line.as_bytes())?;
    if file.metadata()?.len() > LOG_CAP {
        drop(file);
        if let Some(_lock) = store.try_lock() {
            compact(store, None).map_err(std::io::Error::other)?;
        }
    }
    Ok(())
}

/// Reads the counts and the log, without changing anything.
pub fn read(store: &Store) -> Result<Usage> {
    let mut usage = load_counts(store);
    for path in [aside_path(store), store.usage_log_path()] {
        if let Some(bytes) = read_if_exists(&path)? {
            usage.add_log(&String::from_utf8_lossy(&bytes));
        }
    }
    Ok(usage)
}

/// Folds the log into `usage.json`, keeping only the terms `keep` says (all without it). The
/// caller holds the store's lock.
pub fn compact(store: &Store, keep: Option<&dyn Fn(&str) -> bool>) -> Result<Usage> {
    let log = store.usage_log_path();
    let aside = aside_path(store);
    // A log set aside by a compaction that was cut short is folded in first.
    let mut usage = load_counts(store);
    if let Some(bytes) = read_if_exists(&aside)? {
        usage.add_log(&String::from_utf8_lossy(&bytes));
    }
    match std::fs::rename(&log, &aside) {
        Ok(()) => {
            if let Some(bytes) = read_if_exists(&aside)? {
                usage.add_log(&String::from_utf8_lossy(&bytes));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(crate::error::Error::io(&log, "rename", e)),
    }
    if let Some(keep) = keep {
        usage.terms.retain(|t, _| keep(t));
    }
    write_atomic(&store.usage_path(), pretty_json(&usage).as_bytes())?;
    remove_if_exists(&aside)?;
    Ok(usage)
}

fn aside_path(store: &Store) -> std::path::PathBuf {
    store.dir().join("usage.log.compacting")
}

fn load_counts(store: &Store) -> Usage {
    read_if_exists(&store.usage_path())
        .ok()
        .flatten()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn remove_if_exists(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(crate::error::Error::io(path, "remove", e))
        }
        _ => Ok(()),
    }
}

pub fn secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(s: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(s)
    }

    #[test]
    fn lines_count_prompts_and_terms() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        note(&store, &["提交", "a\tb"], at(100)).unwrap();
        note(&store, &["提交"], at(200)).unwrap();
        let usage = read(&store).unwrap();
        assert_eq!(usage.prompts, 2);
        assert_eq!(usage.since, 100);
        assert_eq!(usage.terms["提交"], TermUsage { hits: 2, last: 200 });
        assert_eq!(usage.terms["a\tb"], TermUsage { hits: 1, last: 100 });
    }

    #[test]
    fn compaction_keeps_the_counts_and_empties_the_log() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        note(&store, &["x", "gone"], at(100)).unwrap();
        let compacted = compact(&store, Some(&|t: &str| t != "gone")).unwrap();
        assert!(!store.usage_log_path().exists());
        note(&store, &["x"], at(300)).unwrap();
        let usage = read(&store).unwrap();
        assert_eq!(compacted.prompts, 1);
        assert_eq!(usage.prompts, 2);
        assert_eq!(usage.terms["x"], TermUsage { hits: 2, last: 300 });
        assert!(!usage.terms.contains_key("gone"));
    }

    #[test]
    fn garbled_lines_are_skipped() {
        let mut usage = Usage::default();
        usage.add_log("not a line\n12\n13\tok\n14\tbad\\q\n");
        assert_eq!(usage.prompts, 1);
        assert_eq!(usage.terms.len(), 1);
    }
}
