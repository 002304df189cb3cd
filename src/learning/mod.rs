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
//! * The hook never reads any of this.

pub mod clean;
pub mod decide;
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
///
/// The guard's scanner ([`crate::guard::secrets::scan`], the rules `record` refuses by) decides
/// first. A proposal is only dropped, never refused, so a broader net is cheap here: the
/// pattern below also drops short `password:` values and Chinese 密码是 … sentences, which the
/// guard leaves alone so as never to refuse a person's own prose.
pub fn looks_like_secret(text: &str) -> bool {
    if crate::guard::secrets::scan(text).is_some() {
        return true;
    }
    static SECRET: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(?:sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{10,}|ghp_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abpr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|-----BEGIN [A-Z ]*PRIVATE KEY|(?:password|passwd|secret|token|api[_-]?key)\s*[:=]\s*\S{6,}|(?:密码|口令|密钥)\s*(?:是|为|[:：=])\s*\S{4,})",
        )
        .expect("valid pattern")
    });
    SECRET.is_match(text)
}

#[cfg(test)]
mod tests {
    use super::looks_like_secret;

    #[test]
    fn credentials_are_recognised_and_prose_is_not() {
        for s in [
            "key is sk-proj-abcdefghijklmnop1234",
            "password: hunter2hunter2",
            "数据库密码是 Abc12345",
            "AKIAABCDEFGHIJKLMNOP",
        ] {
            assert!(looks_like_secret(s), "{s}");
        }
        for s in ["the staging cluster blue", "token bucket rate limiter", "密码学模块"] {
            assert!(!looks_like_secret(s), "{s}");
        }
    }
}
