//! The inbox: proposals waiting for a person, and the ones they accepted or rejected, in
//! `inbox.json` beside the glossary. A rejected proposal stays (as rejected), so the same term
//! is never proposed again; an accepted one stays as a record of where the entry came from.
//!
//! ```json
//! {"version": 1, "proposals": [{"id": "k3f9qa", "term": "PX-42", "explanation": "…",
//!   "kind": "definition", "assistant": "claude", "source": {"path": "…", "line": 3},
//!   "when": "2026-11-25T10:00:00Z", "seen": 2, "confidence": 0.9, "scope_hint": "project",
//!   "status": "pending", "sessions": ["…", "…"], "project": "/home/u/shop",
//!   "quote": "我们项目里把支付网关服务叫做 PX-42"}]}
//! ```
//!
//! A proposal the local model reviewed (`smart` on, [`super::confirm`]) also has `"smart":
//! "kept" | "tightened" | "rejected"`.
//!
//! Written atomically under the store's lock, like every file of the store.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Kind;
use crate::error::{Error, Result};
use crate::ops::duplicates::words::same_term;
use crate::output::Records;
use crate::store::files::write_atomic;
use crate::store::Store;

/// Where a proposal was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub path: String,
    pub line: u64,
}

/// Pending until a person decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pending,
    Accepted,
    Rejected,
    /// A turn no rule read, for the local model to read (the rules' `wide` drafts): never
    /// shown, accepted or announced. The model's keep makes it pending; a rule that later finds
    /// its term makes it pending too.
    Draft,
}

/// What the local model said about a proposal ([`super::confirm`]), kept on it (`smart` in
/// `inbox.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmartVerdict {
    Kept,
    Tightened,
    /// The model named the term the user's words are about, and it replaced the draft's.
    Renamed,
    Rejected,
}

/// One proposed entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub id: String,
    pub term: String,
    pub explanation: String,
    pub kind: Kind,
    pub assistant: String,
    pub source: Source,
    pub when: Option<String>,
    /// In how many sessions the term was defined or corrected.
    pub seen: usize,
    pub confidence: f64,
    /// `project` when the session worked in a git project, else `user`.
    pub scope_hint: String,
    pub status: Status,
    /// The sessions `seen` counts (file paths, or OpenCode's session ids), so that a rescan
    /// counts a session once.
    #[serde(default)]
    pub sessions: Vec<String>,
    /// The local model's verdict, once it gave one (`smart` on): never asked again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub smart: Option<SmartVerdict>,
    /// The folder the session worked in (absolute), when its store says: a `project`
    /// proposal's project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// The user's sentence it came from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub quote: String,
    /// A common word alone ("config", "缓存"), proposed because the user named it as the
    /// project's own or set a rule about it: for the project's glossary, and never taken by
    /// `inbox accept --all`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub generic: bool,
    /// The rules' term, when the model named another ([`super::confirm`]): what the rules
    /// find again (a rescan, the journal's copy of the exchange) is still this proposal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drafted: Option<String>,
}

impl Proposal {
    /// Counts `sessions` as sightings too, each session once.
    pub fn seen_in(&mut self, sessions: Vec<String>) {
        for s in sessions {
            if !self.sessions.contains(&s) {
                self.sessions.push(s);
            }
        }
        self.seen = self.sessions.len().max(1);
    }
}

/// The fields of a proposal, in the order every machine format prints them (the README's
/// proposal format).
pub const FIELDS: &[&str] = &[
    "id",
    "term",
    "explanation",
    "kind",
    "assistant",
    "source",
    "when",
    "seen",
    "confidence",
    "scope_hint",
    "project",
    "quote",
    "generic",
];

/// Proposals as records of [`FIELDS`], for the CLI's formats and the MCP tools.
pub fn records(proposals: &[&Proposal]) -> Records {
    let mut out = Records::new(FIELDS);
    for p in proposals {
        out.push(vec![
            json!(p.id),
            json!(p.term),
            json!(p.explanation),
            json!(p.kind.name()),
            json!(p.assistant),
            json!({"path": p.source.path, "line": p.source.line}),
            json!(p.when),
            json!(p.seen),
            json!(p.confidence),
            json!(p.scope_hint),
            json!(p.project),
            json!(p.quote),
            json!(p.generic),
        ]);
    }
    out
}

/// The inbox file's content.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Inbox {
    #[serde(default)]
    pub version: u32,
    #[serde(default)]
    pub proposals: Vec<Proposal>,
}

impl Inbox {
    /// The inbox of `store` (empty when there is none yet).
    pub fn load(store: &Store) -> Result<Inbox> {
        read_json(&store.dir().join(INBOX_FILE))
    }

    /// Writes the inbox atomically (the caller holds the store's lock).
    pub fn save(&self, store: &Store) -> Result<()> {
        store.ensure_dir()?;
        write_json(&store.dir().join(INBOX_FILE), self)
    }

    /// The proposals still waiting, best first: most sessions, then highest confidence.
    pub fn pending(&self) -> Vec<&Proposal> {
        let mut out: Vec<_> =
            self.proposals.iter().filter(|p| p.status == Status::Pending).collect();
        out.sort_by(|a, b| {
            b.seen.cmp(&a.seen).then(b.confidence.total_cmp(&a.confidence)).then(a.id.cmp(&b.id))
        });
        out
    }

    /// The proposal about the same term (by the near-duplicate rule's "same term"), whatever
    /// its status.
    pub fn find_term(&mut self, term: &str) -> Option<&mut Proposal> {
        self.proposals.iter_mut().find(|p| same_term(&p.term, term))
    }

    /// Adds a new proposal, or counts one more session for the same term. Returns whether a
    /// new pending proposal was added. A term rejected before never comes back.
    pub fn offer(&mut self, mut new: Proposal) -> bool {
        let same = |p: &Proposal| {
            same_term(&p.term, &new.term)
                || p.drafted.as_deref().is_some_and(|d| same_term(d, &new.term))
        };
        let draft = |p: &Proposal| p.status == Status::Draft;
        let at = if draft(&new) {
            // A draft is one turn for the model to read: a term proposed (or decided) already
            // needs none, and another turn naming the same word is another draft.
            if self.proposals.iter().any(|p| same(p) && !draft(p)) {
                return false;
            }
            self.proposals.iter().position(|p| same(p) && p.quote == new.quote)
        } else {
            let proposed = self.proposals.iter().position(|p| same(p) && !draft(p));
            proposed.or_else(|| self.proposals.iter().position(same))
        };
        if let Some(old) = at.map(|at| &mut self.proposals[at]) {
            // A rule found what was only a draft: the rule's proposal takes its place, for the
            // model to review afresh; the draft's turn is no sighting of it.
            if old.status == Status::Draft && new.status == Status::Pending {
                new.id = std::mem::take(&mut old.id);
                new.seen = new.sessions.len().max(1);
                *old = new;
                return true;
            }
            // The journal records the exchanges the session stores hold: the same sentence
            // read from both is one sighting (compared with the proposal's own quote).
            let journal = |p: &Proposal| p.assistant == "journal";
            let echo =
                !new.quote.is_empty() && old.quote == new.quote && journal(old) != journal(&new);
            if !echo {
                old.seen_in(new.sessions);
            }
            // A clearer statement replaces the draft, unless the model already reviewed it.
            if old.status == Status::Pending
                && old.smart.is_none()
                && new.confidence > old.confidence
            {
                old.explanation = new.explanation;
                old.confidence = new.confidence;
                old.kind = new.kind;
                old.source = new.source;
                old.quote = new.quote;
                if new.project.is_some() {
                    old.project = new.project;
                }
            }
            return false;
        }
        new.id = self.unused_id(&new.term);
        new.seen = new.sessions.len().max(1);
        let pending = new.status == Status::Pending;
        self.proposals.push(new);
        pending
    }

    fn unused_id(&self, term: &str) -> String {
        let mut salt = 0u64;
        loop {
            let id = short_id(term, salt);
            if !self.proposals.iter().any(|p| p.id == id) {
                return id;
            }
            salt += 1;
        }
    }

    /// The proposal with this id.
    pub fn get_mut(&mut self, id: &str) -> Result<&mut Proposal> {
        self.proposals.iter_mut().find(|p| p.id == id).ok_or_else(|| Error::NotFound {
            problem: format!("no proposal \"{id}\" in the inbox"),
            hint: Some("`tinylingo inbox` lists the pending proposals and their ids".into()),
        })
    }
}

/// Six letters and digits from the term, stable across runs.
fn short_id(term: &str, salt: u64) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ salt;
    for b in term.to_lowercase().bytes() {
        hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    (0..6).map(|i| ALPHABET[((hash >> (i * 5)) & 31) as usize] as char).collect()
}

const INBOX_FILE: &str = "inbox.json";

/// A JSON file of the store, or its default when it does not exist.
pub(crate) fn read_json<T: Default + serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| Error::BadFile {
            path: path.to_path_buf(),
            line: Some(e.line()),
            problem: e.to_string(),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(T::default()),
        Err(e) => Err(Error::io(path, "read", e)),
    }
}

pub(crate) fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut text = crate::store::glossary::pretty_json(value);
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proposal(term: &str, session: &str, confidence: f64) -> Proposal {
        Proposal {
            id: String::new(),
            term: term.into(),
            explanation: format!("about {term}"),
            kind: Kind::Definition,
            assistant: "claude".into(),
            source: Source { path: session.into(), line: 1 },
            when: None,
            seen: 1,
            confidence,
            scope_hint: "user".into(),
            status: Status::Pending,
            sessions: vec![session.into()],
            smart: None,
            project: None,
            quote: String::new(),
            generic: false,
            drafted: None,
        }
    }

    #[test]
    fn the_same_term_counts_sessions_once_and_rejected_terms_stay_rejected() {
        let mut inbox = Inbox::default();
        assert!(inbox.offer(proposal("PX-42", "a", 0.7)));
        assert!(!inbox.offer(proposal("px-42", "b", 0.9)));
        assert!(!inbox.offer(proposal("PX-42", "b", 0.5)));
        assert_eq!(inbox.proposals.len(), 1);
        assert_eq!(inbox.proposals[0].seen, 2);
        assert_eq!(inbox.proposals[0].confidence, 0.9);
        inbox.proposals[0].status = Status::Rejected;
        assert!(!inbox.offer(proposal("PX-42", "c", 0.99)));
        assert!(inbox.pending().is_empty());
    }

    #[test]
    fn drafts_are_turns_apart_until_a_rule_or_the_model_makes_one_a_proposal() {
        let draft = |session: &str, quote: &str| {
            let mut p = proposal("hot_wallet", session, 0.3);
            p.status = Status::Draft;
            p.quote = quote.into();
            p
        };
        let mut inbox = Inbox::default();
        assert!(!inbox.offer(draft("a", "今天先别动 hot_wallet")), "a draft is no proposal");
        assert!(!inbox.offer(draft("b", "对 hot_wallet 的改动都要两人 review")));
        assert!(!inbox.offer(draft("c", "今天先别动 hot_wallet")));
        assert_eq!(inbox.proposals.len(), 2, "one draft per turn the model reads");
        assert_eq!(inbox.proposals[0].sessions, ["a", "c"]);
        assert!(inbox.pending().is_empty());
        // A rule finds the term: its proposal takes the first draft's place, to be reviewed
        // afresh, and the drafts' turns are no sightings of it.
        inbox.proposals[0].smart = Some(SmartVerdict::Rejected);
        let id = inbox.proposals[0].id.clone();
        assert!(inbox.offer(proposal("hot_wallet", "d", 0.75)));
        assert_eq!(inbox.pending().len(), 1);
        let p = &inbox.proposals[0];
        assert_eq!((p.id.as_str(), p.smart, p.seen), (id.as_str(), None, 1));
        assert_eq!(p.sessions, ["d"]);
        // Once proposed, a term needs no more drafts.
        assert!(!inbox.offer(draft("e", "hot_wallet 又出问题了")));
        assert_eq!(inbox.proposals.len(), 2);
    }

    #[test]
    fn a_term_the_model_renamed_is_still_found_under_the_rules_term() {
        let mut inbox = Inbox::default();
        assert!(inbox.offer(proposal("make golden", "a", 0.75)));
        let p = &mut inbox.proposals[0];
        p.drafted = Some(std::mem::replace(&mut p.term, "golden files".into()));
        p.smart = Some(SmartVerdict::Renamed);
        let explanation = p.explanation.clone();
        // The rules find their term again in another session (and the journal's copy).
        assert!(!inbox.offer(proposal("make golden", "b", 0.9)));
        assert_eq!(inbox.proposals.len(), 1);
        assert_eq!(inbox.proposals[0].term, "golden files");
        assert_eq!(inbox.proposals[0].seen, 2);
        assert_eq!(inbox.proposals[0].explanation, explanation, "the reviewed entry stays");
    }

    #[test]
    fn ids_are_short_stable_and_distinct() {
        assert_eq!(short_id("PX-42", 0), short_id("px-42", 0));
        assert_ne!(short_id("PX-42", 0), short_id("PX-42", 1));
        assert_eq!(short_id("联调", 0).len(), 6);
    }
}
