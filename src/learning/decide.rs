//! A person's decisions on the inbox: accept (through `record`, with its checks and errors)
//! or reject (remembered, so the same term is never proposed again).

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::held::{holds, Projects};
use super::inbox::{Inbox, Proposal, Status};
use crate::error::{Error, Result};
use crate::ops::actions::{self, RecordOutcome};
use crate::project::{self, Project};
use crate::store::{Glossary, Store};

/// Where a person asked an accepted proposal to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Where it belongs: a project proposal accepted inside its project goes to that
    /// project's glossary, anything else to the user's.
    Auto,
    /// The user's glossary (`--user`).
    User,
    /// The project glossary of the current folder (`--project`).
    Project,
}

/// Where an accepted proposal will be recorded, and why (for the person).
pub struct Route {
    pub project: Option<Project>,
    pub why: String,
}

/// Where proposal `p`, accepted in folder `here`, is recorded. A project proposal accepted
/// elsewhere goes to the user's glossary: writing into a folder the person is not working in,
/// unasked, would surprise them, and the glossary of `here` belongs to another project.
pub fn route(user: &Store, p: &Proposal, here: &Path, want: Want) -> Route {
    let in_project = |root: &Path| Route {
        why: format!("the project glossary of {}", root.display()),
        project: Some(project::for_writing(root, user)),
    };
    match want {
        Want::User => Route { project: None, why: "your glossary".into() },
        Want::Project => in_project(&project::for_writing(here, user).root),
        Want::Auto => match p.project.as_deref().filter(|_| p.scope_hint == "project") {
            Some(folder) if inside(user, here, Path::new(folder)) => {
                let mut r = in_project(&project::for_writing(here, user).root);
                r.why.push_str(", the project it came from (--user keeps it personal)");
                r
            }
            Some(folder) => Route {
                project: None,
                why: format!(
                    "your glossary: it came from {folder}, not from here (accept it there for \
                     that project's glossary, or with --project for this folder's)"
                ),
            },
            None => Route { project: None, why: "your glossary".into() },
        },
    }
}

/// Whether `here` is in the project `folder` (a session's folder) belongs to.
fn inside(user: &Store, here: &Path, folder: &Path) -> bool {
    here.starts_with(folder)
        || project::for_writing(here, user).root == project::for_writing(folder, user).root
}

/// The pending proposals a person is shown, best first: not those whose term the user's
/// glossary, or the project glossary of the folder they came from, holds by now.
pub fn shown<'i>(store: &Store, inbox: &'i Inbox) -> Vec<&'i Proposal> {
    let glossary = Glossary::load(store).unwrap_or_default();
    let mut projects = Projects::new(store);
    inbox
        .pending()
        .into_iter()
        .filter(|p| {
            !holds(&glossary, &p.term, &p.explanation)
                && !p
                    .project
                    .as_deref()
                    .and_then(|f| projects.of(f))
                    .is_some_and(|(_, g)| holds(g, &p.term, &p.explanation))
        })
        .collect()
}

/// The pending proposal `id`.
pub fn get(store: &Store, id: &str) -> Result<Proposal> {
    pending(&Inbox::load(store)?, id)
}

/// Accepts the pending proposal `id`: records its term with its explanation (or
/// `explanation`, when given) in the user's glossary, or in `project`'s. A refusal of the
/// record (a near-duplicate, a conflict, bad input) is returned as `record` returns it, and the
/// proposal stays pending.
pub fn accept(
    store: &Store,
    project: Option<&Project>,
    id: &str,
    explanation: Option<&str>,
    writer: actions::Writer,
) -> Result<(Proposal, RecordOutcome)> {
    let proposal = pending(&Inbox::load(store)?, id)?;
    let text = explanation.unwrap_or(&proposal.explanation);
    // Already in the glossary it does not go to: not recorded again beside it.
    let other = match project {
        Some(_) => Some(("your glossary".to_string(), Glossary::load(store).unwrap_or_default())),
        None => {
            proposal.project.as_deref().and_then(|f| project::find(Path::new(f), store)).map(|p| {
                let g = Glossary::load(&p.store).unwrap_or_default();
                (format!("the project glossary of {}", p.root.display()), g)
            })
        }
    };
    if let Some((name, _)) = other.filter(|(_, g)| holds(g, &proposal.term, text)) {
        return Err(Error::Refused {
            problem: format!("\"{}\" is recorded in {name} already", proposal.term),
            hint: Some(
                "`tinylingo list` shows it; `tinylingo inbox reject ID` drops the proposal".into(),
            ),
        });
    }
    // `record` takes the store's lock itself; the inbox is updated after it.
    let outcome = match project {
        Some(project) => {
            actions::record_in_project(store, project, &proposal.term, text, false, writer)?
        }
        None => actions::record(store, &proposal.term, text, false)?,
    };
    set_status(store, id, Status::Accepted)?;
    Ok((proposal, outcome))
}

/// Rejects the pending proposals `ids` (all or none: an unknown id changes nothing).
pub fn reject(store: &Store, ids: &[String]) -> Result<Vec<Proposal>> {
    let _lock = store.lock()?;
    let mut inbox = Inbox::load(store)?;
    for id in ids {
        pending(&inbox, id)?;
    }
    let mut out = Vec::new();
    for id in ids {
        let p = inbox.get_mut(id)?;
        p.status = Status::Rejected;
        out.push(p.clone());
    }
    inbox.save(store)?;
    Ok(out)
}

/// The ids of the pending proposals whose confidence is at least `min`, best first; never a
/// common word (`generic`): whether "build" is this project's word is for a person to say,
/// one proposal at a time.
pub fn confident(store: &Store, min: f64) -> Result<Vec<String>> {
    let inbox = Inbox::load(store)?;
    let shown = shown(store, &inbox);
    let wanted = |p: &&Proposal| p.confidence >= min && !p.generic;
    Ok(shown.into_iter().filter(wanted).map(|p| p.id.clone()).collect())
}

fn pending(inbox: &Inbox, id: &str) -> Result<Proposal> {
    let p = inbox.proposals.iter().find(|p| p.id == id).ok_or_else(|| Error::NotFound {
        problem: format!("no proposal \"{id}\" in the inbox"),
        hint: Some("`tinylingo inbox` lists the pending proposals and their ids".into()),
    })?;
    if p.status != Status::Pending {
        let problem = match p.status {
            Status::Accepted => format!("proposal \"{id}\" ({}) was accepted already", p.term),
            // A turn no rule read, which the local model has not kept: nothing to accept.
            Status::Draft => format!(
                "\"{id}\" ({}) is no proposal: a draft the local model did not keep",
                p.term
            ),
            _ => format!("proposal \"{id}\" ({}) was rejected already", p.term),
        };
        return Err(Error::NotFound { problem, hint: None });
    }
    Ok(p.clone())
}

fn set_status(store: &Store, id: &str, status: Status) -> Result<()> {
    let _lock = store.lock()?;
    let mut inbox = Inbox::load(store)?;
    inbox.get_mut(id)?.status = status;
    inbox.save(store)
}

/// `--since`: a date (`2026-11-01`, midnight UTC), or an age (`7d`, `12h`, `2w`).
pub fn parse_since(text: &str, now: SystemTime) -> Result<SystemTime> {
    let bad = || {
        Error::bad_input(
            format!("cannot read \"{text}\" as a date or an age"),
            Some("give a date like 2026-11-01, or an age like 7d, 12h or 2w".into()),
        )
    };
    let t = text.trim();
    if let Some((number, unit)) = t.char_indices().last().map(|(i, c)| (&t[..i], c)) {
        if let (Ok(n), Some(secs)) = (number.parse::<u64>(), unit_seconds(unit)) {
            return now.checked_sub(Duration::from_secs(n.saturating_mul(secs))).ok_or_else(bad);
        }
    }
    let date: jiff::civil::Date = t.parse().map_err(|_| bad())?;
    let stamp = date.to_zoned(jiff::tz::TimeZone::UTC).map_err(|_| bad())?.timestamp();
    Ok(SystemTime::from(stamp))
}

fn unit_seconds(unit: char) -> Option<u64> {
    match unit {
        'm' => Some(60),
        'h' => Some(3600),
        'd' => Some(86_400),
        'w' => Some(7 * 86_400),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since_reads_dates_and_ages() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(10 * 86_400);
        assert_eq!(
            parse_since("7d", now).unwrap(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(3 * 86_400)
        );
        assert_eq!(
            parse_since("1970-01-02", now).unwrap(),
            SystemTime::UNIX_EPOCH + Duration::from_secs(86_400)
        );
        assert!(parse_since("soon", now).is_err());
        assert!(parse_since("7y", now).is_err());
    }
}
