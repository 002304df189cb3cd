//! `stats`: what the glossary holds and how much of it is used.
//!
//! The tool extracts and reports; deciding what to prune is the person's call (meta-cc). So
//! `stats` lists every term with its hits and its last hit, in glossary order, and counts the
//! terms no prompt has hit since the usage log began; `search`, `export` and `remove --search`
//! act on what it shows.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::error::Result;
use crate::matching::Origin;
use crate::output::{timestamp, Records};
use crate::project::{Filter, Scopes};
use crate::store::config::Config;
use crate::store::usage::{self, TermUsage};

/// The fields of `stats`' per-term records, in order (`scope` last, as for entries).
pub const TERM_FIELDS: &[&str] = &["term", "hits", "last_hit", "recorded", "scope"];

/// The project glossary of the current folder, as `stats` reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectStats {
    pub glossary: String,
    pub terms: usize,
    pub trusted: bool,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    /// The terms reported (both scopes, or the one asked for).
    pub terms: usize,
    /// The project glossary that applies here, when it was read.
    pub project: Option<ProjectStats>,
    /// The glossary file and index of the user, or with `--project` of the project:
    pub glossary_bytes: u64,
    /// `None`: no index file.
    pub index_bytes: Option<u64>,
    /// The index matches the glossary and settings on disk (else the next prompt rebuilds it).
    pub index_fresh: bool,
    /// `stats.enabled`: the hook keeps the usage log.
    pub logging: bool,
    /// Prompts that hit at least one term (of any glossary: the usage log does not say which)
    /// since `since`.
    pub prompts_hit: u64,
    pub since: Option<SystemTime>,
    /// Every recorded term, in glossary order (the project's first), with its use (zero
    /// hits: never hit), when it was recorded (`None`: before times were kept, or by hand) and
    /// its scope. The usage log counts by term: a term both glossaries hold has one count,
    /// shown with each.
    pub per_term: Vec<(String, TermUsage, Option<SystemTime>, Origin)>,
    /// The entries that hold what looks like a credential, masked ([`crate::guard`]).
    pub credentials: Vec<(Origin, crate::guard::secrets::Stored)>,
    /// The glossary proposals waiting in the inbox (`tinylingo inbox` reviews them): filled
    /// in by the caller, since the inbox is the learning module's.
    pub proposals_pending: usize,
}

impl Stats {
    pub fn never_hit(&self) -> usize {
        self.per_term.iter().filter(|(_, u, _, _)| u.hits == 0).count()
    }

    /// One record per term: `term`, `hits`, `last_hit`, `recorded` (RFC 3339, or null),
    /// `scope`.
    pub fn term_records(&self) -> Records {
        let mut records = Records::new(TERM_FIELDS);
        for (term, u, recorded, origin) in &self.per_term {
            let last = if u.hits == 0 { Value::Null } else { timestamp(at(u.last)) };
            let recorded = recorded.map_or(Value::Null, timestamp);
            records.push(vec![json!(term), json!(u.hits), last, recorded, json!(origin.name())]);
        }
        records
    }

    /// The report as one JSON object (`stats --format json`).
    pub fn to_json(&self) -> Value {
        json!({
            "terms": self.terms,
            "project": self.project.as_ref().map(|p| json!({
                "glossary": p.glossary,
                "terms": p.terms,
                "trusted": p.trusted,
            })),
            "glossary_bytes": self.glossary_bytes,
            "index_bytes": self.index_bytes,
            "index_fresh": self.index_fresh,
            "usage_log": self.logging,
            "prompts_hit": self.prompts_hit,
            "since": self.since.map(timestamp),
            "never_hit": self.never_hit(),
            "per_term": self.term_records().objects().collect::<Vec<_>>(),
            "credentials": self.credentials.iter().map(crate::guard::credential_json).collect::<Vec<_>>(),
            "proposals_pending": self.proposals_pending,
        })
    }
}

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

/// Gathers the report on the glossaries `filter` selects. The usage log is compacted on the
/// way, under the user's lock: the counts of terms no longer recorded are dropped, unless the
/// user trusts a project glossary, whose terms may be recorded in a folder other than this
/// one (their counts are then all kept).
pub fn stats(scopes: &Scopes, filter: Filter) -> Result<Stats> {
    let store = &scopes.user;
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    let size = |p: std::path::PathBuf| std::fs::metadata(p).ok().map(|m| m.len());
    // The files reported are those of the glossary asked for: the project's with --project.
    let files = match filter {
        Filter::Project => &scopes.project()?.store,
        _ => store,
    };
    scopes.read(filter, |glossaries| {
        let usage = if store.dir().is_dir() {
            let _lock = store.lock()?;
            let keep = |t: &str| glossaries.iter().any(|(_, g)| g.get(t).is_some());
            let drop_unknown = settings.trusted.is_empty() && filter == Filter::Both;
            usage::compact(store, drop_unknown.then_some(&keep as &dyn Fn(&str) -> bool))?
        } else {
            usage::Usage::default()
        };
        let mut per_term = Vec::new();
        for (origin, glossary) in glossaries {
            let times: ahash::AHashMap<String, SystemTime> =
                crate::store::recorded::recent(scopes.store_of(*origin), glossary, glossary.len())
                    .into_iter()
                    .filter_map(|(t, when)| Some((t, when?)))
                    .collect();
            per_term.extend(glossary.terms().map(|t| {
                let used = usage.terms.get(t).copied().unwrap_or_default();
                (t.to_string(), used, times.get(t).copied(), *origin)
            }));
        }
        let project = glossaries.iter().find(|(o, _)| *o == Origin::Project).map(|(_, g)| {
            let p = scopes.project.as_ref().expect("a project glossary was read");
            ProjectStats {
                glossary: p.glossary_path().display().to_string(),
                terms: g.len(),
                trusted: scopes.trusted,
            }
        });
        Ok(Stats {
            terms: per_term.len(),
            project,
            glossary_bytes: size(files.glossary_path()).unwrap_or(0),
            index_bytes: size(files.index_path()),
            index_fresh: crate::index::CurrentIndex::open(files).is_some(),
            logging: settings.stats.enabled,
            prompts_hit: usage.prompts,
            since: (usage.since > 0).then(|| at(usage.since)),
            per_term,
            credentials: crate::guard::credentials(glossaries),
            proposals_pending: 0,
        })
    })?
}
