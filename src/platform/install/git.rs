//! Install's part in git: the merge driver for project glossaries, a `[merge "tinylingo"]`
//! section in the user's global git config ([`git_config`]) that runs the scripts link as the
//! hooks do.
//!
//! Install registers it when `git` is on the `PATH` or the config file exists already (without
//! git, nothing would read it: no file is created for it; install again once git is there).
//! Uninstall takes it out when the scripts link goes, that is when no assistant's registration
//! is left: the driver runs the link too. The record notes, as for every file, whether install
//! created the file and the keys it added ([`git_config::SECTION_KEY`], and
//! [`git_config::NEWLINE_KEY`] for a line break put before the section).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::assistant::{is_link, utf8_text};
use super::report::{step, tilde, Action, Step, Verb};
use crate::error::{Error, Result};
use crate::platform::git_config::{self, Install};
use crate::store::files::read_if_exists;
use crate::store::installed::Installed;

/// What the report calls the section.
pub(super) const WHAT: &str = "merge driver for project glossaries ([merge \"tinylingo\"])";

/// The git part of install or uninstall.
#[derive(Debug, Default)]
pub struct GitPart {
    /// The config file.
    pub path: Option<PathBuf>,
    pub steps: Vec<Step>,
    /// The command the driver runs (install only).
    pub command: Option<String>,
    pub notes: Vec<String>,
    /// Why it failed (nothing of it was written).
    pub error: Option<Error>,
    /// For install's record: whether the file is new, and the keys added.
    pub(super) record: Option<(bool, BTreeSet<String>)>,
}

/// Registers the driver in the global git config (or says why not).
pub(super) fn plan_install(home: &Path, link: &Path) -> GitPart {
    let path = git_config::global_path(home);
    let mut part = GitPart { path: Some(path.clone()), ..GitPart::default() };
    if !path.exists() && !git_config::git_on_path() {
        part.notes.push(format!(
            "git is not on the PATH: the merge driver for project glossaries was not registered \
             in {} (run tinylingo install again once git is installed)",
            tilde(home, &path)
        ));
        return part;
    }
    if let Err(e) = install_steps(home, link, &path, &mut part) {
        part.error = Some(e);
        part.steps.clear();
    }
    part
}

fn install_steps(home: &Path, link: &Path, path: &Path, part: &mut GitPart) -> Result<()> {
    let bytes = read_if_exists(path)?;
    let text = utf8_text(path, bytes.as_deref().unwrap_or_default())?;
    part.command = Some(git_config::driver_command(link));
    match git_config::install(&text, link) {
        Install::Unchanged => part.steps.push(step(Verb::Keep, WHAT, path, Action::None)),
        Install::Changed { text, added, newline } => {
            let verb = if bytes.is_none() {
                Verb::Create
            } else if added {
                Verb::Add
            } else {
                Verb::Update
            };
            part.steps.push(step(verb, WHAT, path, Action::Write(text.into_bytes())));
            let keys = [(added, git_config::SECTION_KEY), (newline, git_config::NEWLINE_KEY)];
            let keys = keys.into_iter().filter(|(on, _)| *on).map(|(_, k)| k.to_string());
            part.record = Some((bytes.is_none(), keys.collect()));
        }
        Install::Foreign(command) => {
            part.command = None;
            part.notes.push(format!(
                "{} already defines the merge driver \"tinylingo\" as `{command}`: left as it is",
                tilde(home, path)
            ));
        }
    }
    Ok(())
}

/// Takes the driver out of the global git config, if it is there.
pub(super) fn plan_uninstall(home: &Path, installed: &Installed) -> GitPart {
    let path = git_config::global_path(home);
    let mut part = GitPart { path: Some(path.clone()), ..GitPart::default() };
    let steps = (|| -> Result<Option<Step>> {
        let Some(bytes) = read_if_exists(&path)? else { return Ok(None) };
        let text = utf8_text(&path, &bytes)?;
        let record = installed.file(&path);
        let Some(rest) = git_config::uninstall(&text, record.map(|r| &r.added)) else {
            return Ok(None);
        };
        let created = record.is_some_and(|r| r.created) && !is_link(&path);
        let action =
            if created && rest.is_empty() { Action::Delete } else { Action::Write(rest.into()) };
        Ok(Some(step(Verb::Remove, WHAT, &path, action)))
    })();
    match steps {
        Ok(step) => part.steps.extend(step),
        Err(e) => part.error = Some(e),
    }
    part
}

/// Notes install's write in the record, or forgets the file after uninstall.
pub(super) fn record(part: &GitPart, installed: &mut Installed, mode: super::Mode) {
    let Some(path) = &part.path else { return };
    if part.error.is_some() {
        return;
    }
    match (mode, &part.record) {
        (super::Mode::Install, Some((created, keys))) => {
            installed.wrote(path, *created, keys.clone())
        }
        (super::Mode::Uninstall, _) if !part.steps.is_empty() => installed.forget_under(path),
        _ => {}
    }
}
