//! A person's decisions on the inbox: accept (through `record`, with its checks and errors)
//! or reject (remembered, so the same term is never proposed again).

use std::time::{Duration, SystemTime};

use super::inbox::{Inbox, Proposal, Status};
use crate::error::{Error, Result};
use crate::ops::actions::{self, RecordOutcome};
use crate::project::Project;
use crate::store::Store;

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

/// The ids of the pending proposals whose confidence is at least `min`, best first.
pub fn confident(store: &Store, min: f64) -> Result<Vec<String>> {
    let inbox = Inbox::load(store)?;
    Ok(inbox.pending().into_iter().filter(|p| p.confidence >= min).map(|p| p.id.clone()).collect())
}

fn pending(inbox: &Inbox, id: &str) -> Result<Proposal> {
    let p = inbox.proposals.iter().find(|p| p.id == id).ok_or_else(|| Error::NotFound {
        problem: format!("no proposal \"{id}\" in the inbox"),
        hint: Some("`tinylingo inbox` lists the pending proposals and their ids".into()),
    })?;
    if p.status != Status::Pending {
        let done = if p.status == Status::Accepted { "accepted" } else { "rejected" };
        return Err(Error::NotFound {
            problem: format!("proposal \"{id}\" ({}) was {done} already", p.term),
            hint: None,
        });
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
