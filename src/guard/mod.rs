//! The guard: what must not sit in a glossary unnoticed.
//!
//! * [`secrets`]: credentials, refused on every way in and named where they are stored.
//! * [`paths`] and [`check`]: entries that have gone false (paths that no longer exist in the
//!   repository the entry belongs to) or unused, for `tinylingo check`; nothing is changed,
//!   the report ends with the commands that fix or remove each entry.

pub mod check;
pub mod paths;
pub mod secrets;

use serde_json::{json, Value};

use crate::error::{shell_word, Result};
use crate::matching::Origin;
use crate::project::{Filter, Scopes};
use crate::store::Glossary;
use secrets::Stored;

/// The stored entries of `glossaries` that hold a credential, with their scope, in order.
pub fn credentials(glossaries: &[(Origin, &Glossary)]) -> Vec<(Origin, Stored)> {
    glossaries
        .iter()
        .flat_map(|(origin, g)| secrets::stored(g.iter()).into_iter().map(move |s| (*origin, s)))
        .collect()
}

/// One stored credential as JSON: `term`, `field`, `rule`, `position`, `masked`, `scope`.
pub fn credential_json((origin, s): &(Origin, Stored)) -> Value {
    json!({
        "term": s.term,
        "field": s.field,
        "rule": s.finding.rule,
        "position": s.finding.position,
        "masked": s.finding.masked,
        "scope": origin.name(),
    })
}

/// One stored credential for people: `[project] term: the explanation holds a GitHub token
/// (github-token) at character 6: ghp_… (40 characters)`.
pub fn credential_line((origin, s): &(Origin, Stored)) -> String {
    let scope = if *origin == Origin::Project { "[project] " } else { "" };
    let f = &s.finding;
    format!(
        "{scope}{}: the {} holds {} ({}) at character {}: {}",
        s.term, s.field, f.description, f.rule, f.position, f.masked
    )
}

/// The command that takes a stored credential out: rewrite the entry without it, or remove it.
pub fn credential_fix((origin, s): &(Origin, Stored)) -> String {
    let project = if *origin == Origin::Project { " --project" } else { "" };
    let term = shell_word(&s.term);
    format!(
        "tinylingo record --force{project} {term} \"<explanation without the secret>\", or \
         tinylingo remove{project} {term}"
    )
}

/// What `doctor` reports of the guard: the stored credentials of both glossaries, and the
/// paths check (`tinylingo check` without `--unused`).
pub struct Health {
    pub credentials: Result<Vec<(Origin, Stored)>>,
    pub paths: Result<check::Report>,
}

/// Reads both glossaries of the current folder for [`Health`].
pub fn health(scopes: &Scopes) -> Health {
    Health {
        credentials: scopes.read(Filter::Both, credentials),
        paths: check::check(scopes, Filter::Both, None, std::time::SystemTime::now()),
    }
}
