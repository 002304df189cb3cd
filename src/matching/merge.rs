//! One outcome from two glossaries: a project's and the user's (see [`crate::project`]).
//!
//! Each glossary has its own index, searched as it always is; the two outcomes are merged here
//! and nowhere else, so that the block, the session de-duplication, the usage log and `match`
//! all see the same hits. The rules: the project's hits come first; a term both glossaries
//! hold is the project's (the user's entry for it is dropped, whatever way it hit); the model
//! is asked once, about the merged candidates.

use super::fuzzy::MAX_CANDIDATES;
use super::{confirm, find, Engines, Origin, Outcome, Smart, TermSource};

/// Finds what `message` mentions in the project's glossary (when there is one) and the user's.
/// Without a project this is exactly [`find`] on the user's.
pub fn find_both<'a, T: TermSource + ?Sized>(
    project: Option<&Engines<'a, T>>,
    user: &Engines<'a, T>,
    message: &str,
    smart: &Smart,
) -> Outcome<'a> {
    let Some(project) = project else { return find(user, message, smart) };
    // Candidates from each, the model asked once about the merged list.
    let listing = match smart {
        Smart::Confirm { threshold, .. } => Smart::CandidatesOnly { threshold: *threshold },
        other => other.clone(),
    };
    let mut merged = merge(find(project, message, &listing), find(user, message, &listing));
    if let Smart::Confirm { llm, .. } = smart {
        confirm(&mut merged, llm, message);
    }
    merged
}

/// The project's outcome and the user's, as one.
fn merge<'a>(mut project: Outcome<'a>, user: Outcome<'a>) -> Outcome<'a> {
    for e in &mut project.exact {
        e.origin = Origin::Project;
    }
    for c in &mut project.candidates {
        c.entry.origin = Origin::Project;
    }
    // Both glossaries are searched with the same settings, so a term both hold hits in both
    // the same way: dropping the user's by name is enough.
    let mut shadowed: Vec<&str> = project.exact.iter().map(|e| e.term).collect();
    shadowed.extend(project.candidates.iter().map(|c| c.entry.term));
    shadowed.sort_unstable();
    let kept = |term: &str| shadowed.binary_search(&term).is_err();
    project.exact.extend(user.exact.into_iter().filter(|e| kept(e.term)));
    project.candidates.extend(user.candidates.into_iter().filter(|c| kept(c.entry.term)));
    // Best first as each list was, the project's first among equals; as many as one search
    // would propose, so that the model's prompt does not grow.
    project.candidates.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then((a.entry.origin, a.entry.id).cmp(&(b.entry.origin, b.entry.id)))
    });
    project.candidates.truncate(MAX_CANDIDATES);
    project.exact_time += user.exact_time;
    project.fuzzy_time += user.fuzzy_time;
    project
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matching::{Entry, Scored, Verdict};
    use std::time::Duration;

    fn outcome<'a>(exact: &[&'a str], candidates: &[(&'a str, f64)]) -> Outcome<'a> {
        let entry = |id: usize, term: &'a str| Entry {
            id: id as u32,
            term,
            explanation: "e",
            origin: Origin::User,
        };
        Outcome {
            exact: exact.iter().enumerate().map(|(i, t)| entry(i, t)).collect(),
            candidates: candidates
                .iter()
                .enumerate()
                .map(|(i, &(t, score))| Scored { entry: entry(100 + i, t), score, confirmed: None })
                .collect(),
            verdict: Verdict::NotAsked,
            exact_time: Duration::ZERO,
            fuzzy_time: Duration::ZERO,
            llm_time: Duration::ZERO,
        }
    }

    #[test]
    fn project_hits_come_first_and_shadow_the_user_s() {
        let project = outcome(&["提交", "联调"], &[("抠图", 0.5)]);
        let user = outcome(&["依赖", "提交"], &[("抠图", 0.5), ("部署", 0.9)]);
        let m = merge(project, user);
        let exact: Vec<(&str, Origin)> = m.exact.iter().map(|e| (e.term, e.origin)).collect();
        assert_eq!(
            exact,
            [("提交", Origin::Project), ("联调", Origin::Project), ("依赖", Origin::User)]
        );
        let candidates: Vec<(&str, Origin)> =
            m.candidates.iter().map(|c| (c.entry.term, c.entry.origin)).collect();
        assert_eq!(candidates, [("部署", Origin::User), ("抠图", Origin::Project)]);
    }

    #[test]
    fn merged_candidates_are_capped() {
        let many: Vec<(&str, f64)> = (0..MAX_CANDIDATES).map(|_| ("x", 0.3)).collect();
        let terms: Vec<String> = (0..MAX_CANDIDATES).map(|i| format!("u{i}")).collect();
        let user: Vec<(&str, f64)> = terms.iter().map(|t| (t.as_str(), 0.4)).collect();
        let m = merge(outcome(&[], &many[..1]), outcome(&[], &user));
        assert_eq!(m.candidates.len(), MAX_CANDIDATES);
        assert!(m.candidates.iter().all(|c| c.entry.origin == Origin::User));
    }
}
