//! `tinylingo check`: the entries that have gone false or unused. It reads only.
//!
//! * A path an explanation names ([`super::paths`]) that is not in the git tree of the
//!   repository the entry belongs to: a project glossary's entries against the project's own
//!   folder, the user's entries against the git work tree of the folder the command runs in
//!   (only paths whose first name is at that tree's root). With the likely new place when the
//!   file or folder was renamed.
//! * With `--unused`, entries no prompt hit in that time (the hook's usage log,
//!   [`crate::store::usage`]). An entry recorded within that time is not reported: it has not had
//!   the chance. The usage log is this machine's, so a project entry counts only once this
//!   machine could have seen its use for the whole time: recorded here, hit here, or first seen
//!   here ([`crate::store::seen`], in a trusted project) that long ago. A project entry this
//!   machine has not known that long (a fresh clone, a pull) is reported as unknown, with no
//!   command: nobody here can tell whether the team uses it.
//!
//! The report ends with the commands that fix or remove each entry; nothing is changed.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use super::paths::{self, Tree};
use crate::error::{shell_word, Error, Result};
use crate::matching::Origin;
use crate::output::{timestamp, Records};
use crate::project::{Filter, Scopes};
use crate::store::config::Config;
use crate::store::seen::{self, Seen};
use crate::store::usage::{secs, TermUsage};
use crate::store::{Glossary, Store};

/// What is wrong with an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A path it names is not in the tree; `renamed` is its likely new place.
    MissingPath { path: String, written: String, renamed: Option<String> },
    /// No prompt hit it within the time asked; `last_hit` is the last one ever, if any.
    Unused { last_hit: Option<SystemTime> },
    /// A project entry with no use seen on this machine, which has not known it for the time
    /// asked (or does not use the project's glossary: not trusted): its use is unknown here.
    Unknown,
}

/// One finding about one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    pub origin: Origin,
    pub term: String,
    pub problem: Problem,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// In glossary order (the project's first), an entry's missing paths before its disuse.
    pub issues: Vec<Issue>,
    /// The project entries whose use this machine cannot tell yet ([`Problem::Unknown`]), in
    /// glossary order: listed after the issues, with no command, and not counted as found.
    pub unknown: Vec<Issue>,
    /// The command that fixes or removes each entry with an issue, one per entry, in order.
    pub fixes: Vec<Fix>,
    /// What could not be checked, and why (no git tree here, no usage log).
    pub notes: Vec<String>,
    /// How many entries were checked, and against how many files.
    pub entries: usize,
    pub files: usize,
    /// Whether disuse was checked (`--unused`).
    pub unused_checked: bool,
}

/// The command that fixes one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub origin: Origin,
    pub term: String,
    pub command: String,
}

/// The fields of `check`'s records, in order (`scope` last, as for entries).
pub const FIELDS: &[&str] = &["problem", "term", "path", "renamed", "last_hit", "fix", "scope"];

impl Report {
    /// One record per issue, then one per unknown entry: `problem` (`missing-path`, `unused`
    /// or `unknown`), `term`, `path`, `renamed` (the likely new path, or null), `last_hit`
    /// (RFC 3339, or null), `fix` (the entry's command; empty for `unknown`), `scope`.
    pub fn records(&self) -> Records {
        let mut records = Records::new(FIELDS);
        for issue in self.issues.iter().chain(&self.unknown) {
            let (kind, path, renamed, last) = match &issue.problem {
                Problem::MissingPath { path, renamed, .. } => {
                    ("missing-path", json!(path), json!(renamed), Value::Null)
                }
                Problem::Unused { last_hit } => {
                    ("unused", Value::Null, Value::Null, last_hit.map_or(Value::Null, timestamp))
                }
                Problem::Unknown => ("unknown", Value::Null, Value::Null, Value::Null),
            };
            records.push(vec![
                json!(kind),
                json!(issue.term),
                path,
                renamed,
                last,
                json!(self.fix_of(issue)),
                json!(issue.origin.name()),
            ]);
        }
        records
    }

    /// The command that fixes `issue`'s entry (none for an unknown one).
    pub fn fix_of(&self, issue: &Issue) -> &str {
        if issue.problem == Problem::Unknown {
            return "";
        }
        self.fixes
            .iter()
            .find(|f| f.origin == issue.origin && f.term == issue.term)
            .map_or("", |f| f.command.as_str())
    }

    /// The report as one JSON object: `issues`, `fixes`, `notes`, `entries`, `files`.
    pub fn to_json(&self) -> Value {
        json!({
            "issues": self.records().objects().collect::<Vec<_>>(),
            "fixes": self.fixes.iter().map(|f| f.command.as_str()).collect::<Vec<_>>(),
            "notes": self.notes,
            "entries": self.entries,
            "files": self.files,
        })
    }
}

/// Parses `90d`, `12w`, `36h` or a bare number of days.
pub fn parse_age(text: &str) -> Result<Duration> {
    let text = text.trim();
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "d"),
    };
    let seconds = match unit {
        "d" => 86_400,
        "w" => 7 * 86_400,
        "h" => 3_600,
        _ => 0,
    };
    match number.parse::<u64>() {
        Ok(n) if seconds > 0 && n > 0 => Ok(Duration::from_secs(n.saturating_mul(seconds))),
        _ => Err(Error::bad_input(
            format!("not a time span: \"{text}\""),
            Some("write a number of days, weeks or hours: 90d, 12w, 36h".into()),
        )),
    }
}

/// Checks the glossaries `filter` selects, as of `now`.
pub fn check(
    scopes: &Scopes,
    filter: Filter,
    unused: Option<Duration>,
    now: SystemTime,
) -> Result<Report> {
    let here = std::env::current_dir().map_err(|e| Error::io(".", "find the current folder", e))?;
    let usage = match unused {
        Some(_) => Some(crate::store::usage::read(&scopes.user)?),
        None => None,
    };
    let cutoff = unused.map(|span| secs(now).saturating_sub(span.as_secs()));
    scopes.read(filter, |glossaries| {
        let mut report = Report { unused_checked: unused.is_some(), ..Report::default() };
        // The trees, read once each: the project's folder, and the work tree here.
        let project_tree = glossaries
            .iter()
            .any(|(o, _)| *o == Origin::Project)
            .then(|| scopes.project.as_ref().and_then(|p| Tree::of(&p.root)))
            .flatten();
        let user_tree = glossaries
            .iter()
            .any(|(o, _)| *o == Origin::User)
            .then(|| paths::work_tree_root(&here).and_then(|root| Tree::of(&root)))
            .flatten();
        for (origin, glossary) in glossaries {
            let tree = match origin {
                Origin::Project => project_tree.as_ref(),
                Origin::User => user_tree.as_ref(),
            };
            match (tree, origin) {
                (None, Origin::Project) => report.notes.push(
                    "the project's folder is not in a git work tree: its paths were not checked"
                        .into(),
                ),
                (None, Origin::User) => report.notes.push(
                    "not in a git work tree: the paths in your own entries were not checked (run \
                     check inside the repository they are about)"
                        .into(),
                ),
                (Some(t), _) => report.files = report.files.max(t.len()),
            }
            report.entries += glossary.len();
            let known = match (cutoff, origin) {
                (None, _) => Known::default(),
                (Some(_), Origin::User) => Known::mine(scopes, glossary),
                (Some(_), Origin::Project) => Known::shared(scopes, glossary, now, &mut report),
            };
            for (term, explanation) in glossary.iter() {
                let before = report.issues.len();
                if let Some(tree) = tree {
                    missing_paths(tree, *origin, term, explanation, &mut report.issues);
                }
                if let (Some(cutoff), Some(usage)) = (cutoff, &usage) {
                    let used = usage.terms.get(term).copied().unwrap_or_default();
                    let problem = disuse(&known, term, used, cutoff);
                    let issue =
                        |problem| Issue { origin: *origin, term: term.to_string(), problem };
                    match problem {
                        Some(Problem::Unknown) => report.unknown.push(issue(Problem::Unknown)),
                        Some(problem) => report.issues.push(issue(problem)),
                        None => {}
                    }
                }
                if report.issues.len() > before {
                    let command = fix(&report.issues[before..], explanation);
                    report.fixes.push(Fix { origin: *origin, term: term.to_string(), command });
                }
            }
        }
        if unused.is_some() {
            let settings = Config::load(&scopes.user).map(|c| c.settings().0).unwrap_or_default();
            if !settings.stats.enabled {
                report.notes.push(
                    "the usage log is off (stats.enabled false): every entry counts as unused; \
                     turn it on with: tinylingo config stats.enabled true"
                        .into(),
                );
            }
        }
        report
    })
}

/// Since when this machine could have seen the use of a glossary's entries.
#[derive(Default)]
struct Known {
    /// When each term was recorded here (`recorded.tsv`, kept per clone), in Unix seconds.
    recorded: ahash::AHashMap<String, u64>,
    /// The project's entries: when this machine first saw each ([`crate::store::seen`]);
    /// `None` for the user's own entries, whose glossary and usage log are both this machine's.
    seen: Option<Seen>,
}

impl Known {
    /// The user's entries: known since they were recorded, or always when that is unknown
    /// (the glossary and the usage log are both this machine's).
    fn mine(scopes: &Scopes, glossary: &Glossary) -> Known {
        Known { recorded: recorded_times(&scopes.user, glossary), seen: None }
    }

    /// The project's entries. Those of a trusted project are noted as seen now unless seen
    /// before; an untrusted project's are not (the hook does not use it, so no use could be
    /// seen), and a failure to note leaves those not seen before unknown.
    fn shared(scopes: &Scopes, glossary: &Glossary, now: SystemTime, report: &mut Report) -> Known {
        let Some(project) = scopes.project.as_ref() else { return Known::default() };
        let recorded = recorded_times(&project.store, glossary);
        if !scopes.trusted {
            report.notes.push(format!(
                "the project glossary is not trusted here, so the hook does not use it: its                  entries' use is unknown (trust it with: {})",
                project.trust_command()
            ));
            return Known { recorded, seen: Some(Seen::new()) };
        }
        let noted = scopes
            .user
            .lock()
            .and_then(|_lock| seen::note(&scopes.user, &project.root, glossary.terms(), now));
        let seen = noted.unwrap_or_else(|e| {
            report.notes.push(format!(
                "cannot note when the project's entries were first seen here ({e}); those not                  noted before count as unknown"
            ));
            seen::read(&scopes.user, &project.root)
        });
        Known { recorded, seen: Some(seen) }
    }
}

/// What `check --unused` says of one entry, given its use here and the start of the span
/// (`cutoff`, Unix seconds): nothing (in use, or recorded here within the span: it has not
/// had the chance), unused, or, for a project entry this machine has not known since the
/// cutoff, unknown.
fn disuse(known: &Known, term: &str, used: TermUsage, cutoff: u64) -> Option<Problem> {
    if used.hits > 0 && used.last >= cutoff {
        return None;
    }
    let recorded = known.recorded.get(term).copied();
    if recorded.is_some_and(|t| t > cutoff) {
        return None;
    }
    // A hit here before the cutoff: this machine has known the entry for the whole span.
    let last_hit = (used.hits > 0).then(|| UNIX_EPOCH + Duration::from_secs(used.last));
    let Some(seen) = &known.seen else { return Some(Problem::Unused { last_hit }) };
    let since = recorded.into_iter().chain(seen.get(term).copied()).min();
    if last_hit.is_some() || since.is_some_and(|t| t <= cutoff) {
        Some(Problem::Unused { last_hit })
    } else {
        Some(Problem::Unknown)
    }
}

/// When each term was recorded in `store`, where known.
fn recorded_times(store: &Store, glossary: &Glossary) -> ahash::AHashMap<String, u64> {
    crate::store::recorded::recent(store, glossary, glossary.len())
        .into_iter()
        .filter_map(|(t, when)| Some((t, secs(when?))))
        .collect()
}

/// The paths of one entry that are not in `tree`.
fn missing_paths(tree: &Tree, origin: Origin, term: &str, explanation: &str, out: &mut Vec<Issue>) {
    for named in paths::named(explanation) {
        let ours = match origin {
            Origin::Project => tree.at_root(named.path) || paths::file_shaped(named.path),
            Origin::User => tree.at_root(named.path) && tree.related(named.path),
        };
        if !ours || tree.exists(named.path) {
            continue;
        }
        out.push(Issue {
            origin,
            term: term.to_string(),
            problem: Problem::MissingPath {
                path: named.path.to_string(),
                written: named.written.to_string(),
                renamed: tree.renamed(named.path),
            },
        });
    }
}

/// The command that fixes an entry with these issues: the explanation with every renamed path
/// replaced when each missing path has a new place and the entry is in use, else removal
/// (with what to record instead shown as a second way).
fn fix(issues: &[Issue], explanation: &str) -> String {
    let first = &issues[0];
    let project = if first.origin == Origin::Project { " --project" } else { "" };
    let term = shell_word(&first.term);
    let remove = format!("tinylingo remove{project} {term}");
    let unused = issues.iter().any(|i| matches!(i.problem, Problem::Unused { .. }));
    let mut fixed = explanation.to_string();
    let mut all_renamed = true;
    for issue in issues {
        if let Problem::MissingPath { written, renamed, path } = &issue.problem {
            match renamed {
                Some(new) => {
                    // Keep a folder's trailing slash and a leading ./ as written.
                    let replacement = written.replacen(path.as_str(), new, 1);
                    fixed = fixed.replace(written.as_str(), &replacement);
                }
                None => all_renamed = false,
            }
        }
    }
    let has_paths = issues.iter().any(|i| matches!(i.problem, Problem::MissingPath { .. }));
    if unused || !has_paths {
        return remove;
    }
    if all_renamed {
        return format!("tinylingo record --force{project} {term} {}", shell_word(&fixed));
    }
    format!("{remove}    # or: tinylingo record --force{project} {term} \"<explanation without the missing path>\"")
}
