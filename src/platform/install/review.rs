//! The review command's file in an assistant's folder (`platform::review`): a file wholly ours.
//! Install writes it where there is none, or replaces its own earlier text; a file of the same
//! name that install did not write, or that was edited since, stays as it is (a note says so).
//! Uninstall deletes it only while its bytes are what install wrote.

use std::path::{Path, PathBuf};

use super::report::{install_step, step, tilde, Action, Section, Verb};
use super::Mode;
use crate::error::Result;
use crate::platform::review::Review;
use crate::platform::Spec;
use crate::store::files::read_if_exists;
use crate::store::installed::Installed;

/// Where an assistant's review command stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Ours, with this version's text.
    Current,
    /// Ours, from an earlier version: install replaces it.
    Outdated,
    /// A file install did not write, or one edited since: left alone.
    Foreign,
    Missing,
}

/// The review command's file for `spec` and where it stands; `None` for an assistant without
/// one.
pub(crate) fn state(spec: &Spec, home: &Path, installed: &Installed) -> Option<(PathBuf, State)> {
    let (review, path) = place(spec, home)?;
    let state = match std::fs::read(&path) {
        Err(_) => State::Missing,
        Ok(bytes) if bytes == review.render().as_bytes() => State::Current,
        Ok(bytes) if installed.is_as_written(&path, &bytes) => State::Outdated,
        Ok(_) => State::Foreign,
    };
    Some((path, state))
}

/// The assistant's review command and where its file goes.
fn place(spec: &Spec, home: &Path) -> Option<(Review, PathBuf)> {
    spec.review.map(|r| (r, spec.config_folder(home).join(r.file)))
}

/// What the report calls it.
fn what(review: &Review) -> String {
    format!("review command ({})", review.invocation)
}

/// Install's or uninstall's step for the file, or the note that says why it is left alone.
pub(super) fn plan(
    mode: Mode,
    spec: &Spec,
    home: &Path,
    installed: &Installed,
    section: &mut Section,
) -> Result<()> {
    let Some((review, path)) = place(spec, home) else { return Ok(()) };
    let content = review.render().into_bytes();
    let old = read_if_exists(&path)?;
    // A link (a dotfiles setup) is never ours: install writes plain files only.
    let link = super::is_link(&path);
    let ours = |b: &[u8]| !link && (b == content || installed.is_as_written(&path, b));
    match (mode, &old) {
        (_, Some(b)) if !ours(b) => section.notes.push(foreign_note(home, &path, installed)),
        (Mode::Uninstall, Some(_)) => {
            section.steps.push(step(Verb::Remove, what(&review), &path, Action::Delete));
        }
        (Mode::Uninstall, None) => {}
        (Mode::Install, _) => {
            // Its folders (`commands/`, a skill's own folder) are noted, so that uninstall
            // takes them away again once empty.
            if let Some(folder) = path.parent().filter(|f| !f.is_dir()) {
                section.steps.push(step(Verb::Create, "folder", folder, Action::MakeDir));
            }
            let (verb, action) = match &old {
                None => (Verb::Add, Action::Write(content)),
                Some(b) if *b == content => (Verb::Keep, Action::None),
                Some(_) => (Verb::Update, Action::Write(content)),
            };
            let mut s = install_step(verb, what(&review), &path, action, old.as_deref());
            s.whole = true;
            section.steps.push(s);
        }
    }
    Ok(())
}

/// Why a file where the review command goes is left alone.
fn foreign_note(home: &Path, path: &Path, installed: &Installed) -> String {
    let shown = tilde(home, path);
    if installed.file(path).is_some_and(|r| r.sha256.is_some()) {
        format!("{shown} was edited since tinylingo wrote it: left as it is (delete it and install again for the current review command)")
    } else {
        format!(
            "{shown} is not tinylingo's: left as it is, and the review command not installed there"
        )
    }
}
