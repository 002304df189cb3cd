//! The library's error type. Each variant carries what the CLI needs to print a one-line
//! message and a hint, and decides the exit code.

use std::fmt;
use std::io;
use std::path::PathBuf;

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Debug)]
pub enum Error {
    /// A file could not be read, written, locked or renamed.
    Io { path: PathBuf, action: &'static str, source: io::Error },
    /// A JSON file of ours or of an assistant's is not what it should be. `line` is 1-based.
    BadFile { path: PathBuf, line: Option<usize>, problem: String },
    /// A glossary holds git's merge-conflict markers: `problem` names the terms in conflict,
    /// `hint` the ways out ([`crate::merge::conflict_error`]). `line` is the first marker's.
    MergeConflict { path: PathBuf, line: usize, problem: String, hint: String },
    /// The user gave input we refuse (empty term, bad config value, unknown key, …).
    BadInput { problem: String, hint: Option<String> },
    /// What was asked for is not there (a term to remove, a config key to print).
    NotFound { problem: String, hint: Option<String> },
    /// A term exists already with another explanation; `record --force` replaces it. `scope`
    /// is the flag the hint's command needs to reach the same glossary
    /// ([`crate::store::Store::scope_flag`]).
    Conflict { term: String, current: String, scope: &'static str },
    /// A change was refused as it stands (an import with conflicts, a stale confirmation
    /// code); nothing was changed, and the hint says how to go on.
    Refused { problem: String, hint: Option<String> },
    /// A new entry looks like recorded ones (the near-duplicate check of `record`): `similar`
    /// holds them all, highest score first. `record --force` records it anyway; `scope` as for
    /// [`Error::Conflict`].
    Duplicate { term: String, explanation: String, similar: Vec<Similar>, scope: &'static str },
}

/// How many similar entries a [`Error::Duplicate`] message names.
pub const SIMILAR_SHOWN: usize = 5;
/// How many chars of a similar entry's explanation the message shows.
const SIMILAR_EXPLANATION_CHARS: usize = 60;

impl Error {
    pub fn io(path: impl Into<PathBuf>, action: &'static str, source: io::Error) -> Error {
        Error::Io { path: path.into(), action, source }
    }

    pub fn bad_input(problem: impl Into<String>, hint: Option<String>) -> Error {
        Error::BadInput { problem: problem.into(), hint }
    }

    /// Exit code at the CLI: 1 for "not found / nothing to do", 2 for bad input or failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::NotFound { .. }
            | Error::Conflict { .. }
            | Error::Refused { .. }
            | Error::Duplicate { .. } => 1,
            _ => 2,
        }
    }

    /// What the user can do about it, if we know.
    pub fn hint(&self) -> Option<String> {
        match self {
            Error::Io { source, .. } if source.kind() == io::ErrorKind::PermissionDenied => Some(
                "check the folder's permissions, or point TINYLINGO_HOME at a writable folder"
                    .into(),
            ),
            // The usual cause: the model's shell inside an assistant's sandbox, which lets it
            // write only the workspace (Codex's workspace-write).
            Error::Io { source, path, .. }
                if source.kind() == io::ErrorKind::ReadOnlyFilesystem =>
            {
                let dir = path.parent().unwrap_or(path);
                Some(format!(
                    "the file system is read-only here, as in an assistant's sandbox: for Codex \
                     add \"{}\" to writable_roots under [sandbox_workspace_write] in \
                     ~/.codex/config.toml, or run the command in your own shell",
                    dir.display()
                ))
            }
            Error::Io { source, path, .. } if is_not_regular(source) => Some(format!(
                "tinylingo reads and writes only regular files there; move it aside: {}",
                path.display()
            )),
            Error::Io { .. } => None,
            Error::BadFile { path, .. } => Some(format!(
                "fix the file by hand (it was left untouched), or move it aside: {}",
                path.display()
            )),
            Error::MergeConflict { hint, .. } => Some(hint.clone()),
            Error::BadInput { hint, .. }
            | Error::NotFound { hint, .. }
            | Error::Refused { hint, .. } => hint.clone(),
            Error::Conflict { term, scope, .. } => Some(format!(
                "to replace it: tinylingo record {scope}--force {} \"<new explanation>\"",
                shell_word(term)
            )),
            Error::Duplicate { term, explanation, similar, scope } => {
                // The text itself when it is short enough to be worth copying from the hint.
                let text = if explanation.chars().count() <= 200 {
                    shell_word(explanation)
                } else {
                    "\"<explanation>\"".to_string()
                };
                let existing =
                    similar.first().map_or("<term>".to_string(), |s| shell_word(&s.term));
                Some(format!(
                    "to record it anyway: tinylingo record {scope}--force {} {text}\n  \
                     or fold the new text into the existing entry (its explanation is replaced, \
                     so keep what it says): tinylingo record {scope}--force {existing} \
                     \"<merged explanation>\"",
                    shell_word(term)
                ))
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, action, source } => {
                write!(f, "cannot {action} {}: {source}", path.display())
            }
            Error::BadFile { path, line: Some(line), problem } => {
                write!(f, "{} line {line}: {problem}", path.display())
            }
            Error::MergeConflict { path, line, problem, .. } => {
                write!(f, "{} line {line}: {problem}", path.display())
            }
            Error::BadFile { path, line: None, problem } => {
                write!(f, "{}: {problem}", path.display())
            }
            Error::BadInput { problem, .. }
            | Error::NotFound { problem, .. }
            | Error::Refused { problem, .. } => f.write_str(problem),
            Error::Conflict { term, current, .. } => {
                write!(f, "\"{term}\" is already recorded as: {current}")
            }
            Error::Duplicate { term, similar, .. } => {
                let n = similar.len();
                let entries = if n == 1 { "entry" } else { "entries" };
                write!(f, "not recorded: \"{term}\" looks like {n} recorded {entries}")?;
                if n > SIMILAR_SHOWN {
                    write!(f, " (the {SIMILAR_SHOWN} closest shown)")?;
                }
                for s in similar.iter().take(SIMILAR_SHOWN) {
                    write!(
                        f,
                        "\n  {:.2}  {} ({}): {}",
                        s.score,
                        one_line(&s.term),
                        s.why.describe(),
                        shorten(&one_line(&s.explanation), SIMILAR_EXPLANATION_CHARS)
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The error of opening a store file (`store::files::open_regular`) at a path that holds
/// something other than a regular file: a FIFO or a device, which would make the hook wait.
/// It lives here, with the error type, because [`Error::hint`] recognises it.
#[derive(Debug)]
pub struct NotRegular;

impl fmt::Display for NotRegular {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a regular file")
    }
}

impl std::error::Error for NotRegular {}

impl From<NotRegular> for io::Error {
    fn from(e: NotRegular) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidInput, e)
    }
}

/// Whether `e` is a [`NotRegular`] refusal.
pub fn is_not_regular(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<NotRegular>())
}

/// `s` with its line breaks and tabs as spaces, for a message line.
fn one_line(s: &str) -> String {
    s.replace(['\r', '\n', '\t'], " ")
}

/// The first `max` chars of `s`, and `…` when there were more.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// Quotes a word for a shell command line shown in a hint, only when it needs quoting.
pub(crate) fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars().all(|c| !c.is_whitespace() && !"'\"\\$`!*?;&|<>(){}[]#~".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Why an entry was found similar. Ordered as equal scores are listed: the same term first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Why {
    /// The terms are equal but for case, width or surrounding spaces (score 1).
    SameTerm,
    /// The explanations' word sets overlap (the score is their Jaccard index).
    Explanation,
    /// The LLM rated it (the score is the model's).
    Model,
}

impl Why {
    /// A few words for the refusal message.
    pub fn describe(self) -> &'static str {
        match self {
            Why::SameTerm => "same term but for case, width or spaces",
            Why::Explanation => "explanation",
            Why::Model => "judged by the model",
        }
    }
}

/// A recorded entry the new one looks like (found by the near-duplicate check,
/// [`crate::ops::duplicates`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Similar {
    pub term: String,
    pub explanation: String,
    /// From 0 to 1.
    pub score: f64,
    pub why: Why,
}
