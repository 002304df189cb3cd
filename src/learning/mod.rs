//! Learning: glossary proposals mined from the assistants' own session stores, and the inbox a
//! person approves them from (`../shared/design/learning.md`).
//!
//! `suggest` reads what was not read before of every source ([`sources`]: Claude Code, Codex
//! CLI, Gemini CLI, OpenCode, the thread journal), keeps only the user's own words
//! ([`clean`]), runs the rules over them ([`rules`]), and adds what they find to the inbox
//! ([`inbox`]), which `inbox accept` turns into records through the same path as `record`.
//!
//! * Rules, not a model: no token is spent unless `smart` is on, and then only to confirm.
//! * Read-only and streaming: each file is read line by line from where the last scan
//!   stopped (per-file offsets in `scanned.json` beside the glossary), so a rescan with
//!   nothing new only stats files, and memory does not grow with the transcripts.
//! * A source that is missing, locked, truncated or garbled is skipped and named in the
//!   report (`--verbose`), never an error.
//! * The prompt hook never reads any of this; the after-response hook only hands the session
//!   to a detached capture ([`capture`]).

pub mod capture;
pub mod clean;
pub mod confirm;
pub mod decide;
mod held;
pub mod inbox;
pub mod opencode;
pub mod rules;
pub mod scan;
pub mod sources;

use serde::{Deserialize, Serialize};

pub use inbox::{Inbox, Proposal, Status};
pub use scan::{suggest, Options, Report};
pub use sources::Assistant;

/// What a proposal is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// The user said what a word means.
    Definition,
    /// The user corrected the assistant's understanding of a word.
    Correction,
    /// The user set a standing rule of behaviour.
    Behaviour,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Definition => "definition",
            Kind::Correction => "correction",
            Kind::Behaviour => "behaviour",
        }
    }
}

/// Whether a proposal's text holds a credential: such a proposal is dropped, never stored.
/// Both tiers of the guard's table decide ([`crate::guard::secrets::looks_like_secret`]).
pub use crate::guard::secrets::looks_like_secret;
