//! `stats`: what the glossary holds and how much of it is used.
//!
//! The tool extracts and reports; deciding what to prune is the person's call (meta-cc). So
//! `stats` lists every term with its hits and its last hit, in glossary order, and counts the
//! terms no prompt has hit since the usage log began; `search`, `export` and `remove --search`
//! act on what it shows.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::error::Result;
use crate::output::{timestamp, Records};
use crate::store::config::Config;
use crate::store::Store;
use crate::usage::{self, TermUsage};

/// The fields of `stats`' per-term records, in order.
pub const TERM_FIELDS: &[&str] = &["term", "hits", "last_hit"];

/// The whole report.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    pub terms: usize,
    pub glossary_bytes: u64,
    /// `None`: no index file.
    pub index_bytes: Option<u64>,
    /// The index matches the glossary and settings on disk (else the next prompt rebuilds it).
    pub index_fresh: bool,
    /// `stats.enabled`: the hook keeps the usage log.
    pub logging: bool,
    /// Prompts that hit at least one term since `since`.
    pub prompts_hit: u64,
    pub since: Option<SystemTime>,
    /// Every recorded term, in glossary order, with its use (zero hits: never hit).
    pub per_term: Vec<(String, TermUsage)>,
}

impl Stats {
    pub fn never_hit(&self) -> usize {
        self.per_term.iter().filter(|(_, u)| u.hits == 0).count()
    }

    /// One record per term: `term`, `hits`, `last_hit` (RFC 3339, or null).
    pub fn term_records(&self) -> Records {
        let mut records = Records::new(TERM_FIELDS);
        for (term, u) in &self.per_term {
            let last = if u.hits == 0 { Value::Null } else { timestamp(at(u.last)) };
            records.push(vec![json!(term), json!(u.hits), last]);
        }
        records
    }

    /// The report as one JSON object (`stats --format json`).
    pub fn to_json(&self) -> Value {
        json!({
            "terms": self.terms,
            "glossary_bytes": self.glossary_bytes,
            "index_bytes": self.index_bytes,
            "index_fresh": self.index_fresh,
            "usage_log": self.logging,
            "prompts_hit": self.prompts_hit,
            "since": self.since.map(timestamp),
            "never_hit": self.never_hit(),
            "per_term": self.term_records().objects().collect::<Vec<_>>(),
        })
    }
}

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// Gathers the report. The usage log is compacted on the way (dropping the counts of terms
/// that are no longer recorded), under the store's lock.
pub fn stats(store: &Store) -> Result<Stats> {
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    let size = |p: std::path::PathBuf| std::fs::metadata(p).ok().map(|m| m.len());
    crate::index::read_glossary(store, |glossary| {
        let usage = if store.dir().is_dir() {
            let _lock = store.lock()?;
            let keep = |t: &str| glossary.get(t).is_some();
            usage::compact(store, Some(&keep))?
        } else {
            usage::Usage::default()
        };
        let per_term = glossary
            .terms()
            .map(|t| (t.to_string(), usage.terms.get(t).copied().unwrap_or_default()))
            .collect();
        Ok(Stats {
            terms: glossary.len(),
            glossary_bytes: size(store.glossary_path()).unwrap_or(0),
            index_bytes: size(store.index_path()),
            index_fresh: crate::index::CurrentIndex::open(store).is_some(),
            logging: settings.stats.enabled,
            prompts_hit: usage.prompts,
            since: (usage.since > 0).then(|| at(usage.since)),
            per_term,
        })
    })?
}
