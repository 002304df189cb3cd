//! Planning one assistant: the edits install makes to its settings file (or plugin) and its
//! instruction file, and how uninstall gives each file back.

use std::fs;
use std::path::Path;

use super::report::{install_step, step, tilde, Action, Section, Verb};
use crate::error::{Error, Result};
use crate::platform::instructions::{self, Edit, Unclosed};
use crate::platform::settings_file::{self, Change, MARKER};
use crate::platform::{Registration, Rules, Spec};
use crate::store::files::read_if_exists;
use crate::store::installed::Installed;

/// The OpenCode plugin, with [`PLUGIN_BINARY`] standing for the binary's path.
pub(super) const PLUGIN_TEMPLATE: &str = include_str!("../opencode_plugin.js");

/// The placeholder in [`PLUGIN_TEMPLATE`], a JavaScript string literal.
pub(super) const PLUGIN_BINARY: &str = "\"__TINYLINGO_BINARY__\"";

/// The placeholder for the journal's state, a JavaScript string literal.
pub(super) const PLUGIN_JOURNAL: &str = "\"__TINYLINGO_JOURNAL__\"";

/// The first line of the plugin: how uninstall knows the file is ours.
pub(super) const PLUGIN_SIGNATURE: &str = "// tinylingo OpenCode plugin";

pub(super) fn plan_install(
    spec: &Spec,
    home: &Path,
    link: &Path,
    allow_record: bool,
    journal_on: bool,
) -> Result<Section> {
    let dir = spec.config_folder(home);
    let mut section = Section::new(spec.platform);
    if !dir.is_dir() {
        section.steps.push(step(Verb::Create, "folder", &dir, Action::MakeDir));
    }
    match spec.registration {
        Registration::Command { file, event, entry, comments } => {
            let path = dir.join(file);
            let bytes = read_if_exists(&path)?;
            let settings =
                settings_file::parse(&path, bytes.as_deref().unwrap_or_default(), comments)?;
            let command = spec.hook_command(link);
            let verb_of = |change| match change {
                Change::Unchanged => Verb::Keep,
                Change::Updated => Verb::Update,
                Change::Removed => Verb::Remove,
                Change::Added => Verb::Add,
            };
            // One write of the file; a line in the report for each thing that changed in it.
            let prompt_hook = settings.install(&path, event, &entry, &command)?;
            let mut changes = vec![(verb_of(prompt_hook), format!("{event} hook"))];
            if let Some(after) = spec.after_event {
                let change = if journal_on {
                    settings.install(&path, after, &entry, &spec.after_command(link))?
                } else {
                    settings.uninstall_event(entry.grouped, after)
                };
                if change != Change::Unchanged || journal_on {
                    changes.push((verb_of(change), format!("{after} hook (thread journal)")));
                }
            }
            if let Some(rule) = spec.allow_rule {
                if allow_record {
                    let change = settings.allow(&path, rule)?;
                    changes.push((verb_of(change), format!("allow rule {rule}")));
                } else if !settings.allows(rule) {
                    section.notes.push(format!(
                        "{} asks before the model runs `tinylingo record` (and a headless run \
                         refuses it): `tinylingo install {} --allow-record` adds the allow \
                         rule {rule}",
                        spec.display, spec.name
                    ));
                }
            }
            let text = settings.render().into_bytes();
            let unchanged = bytes.as_deref() == Some(&text[..]);
            let mut action = if unchanged { Action::None } else { Action::Write(text) };
            for (verb, what) in changes {
                let this = std::mem::replace(&mut action, Action::None);
                section.steps.push(install_step(verb, what, &path, this, bytes.as_deref()));
            }
            if let Some(trust_note) = spec.trust_note {
                section.notes.push(trust_note(&dir, &path, &settings.value(), event));
            }
            if !command.contains(MARKER) {
                section.notes.push(format!(
                    "the hook points into TINYLINGO_HOME ({}), not ~/{MARKER}: keep \
                     TINYLINGO_HOME set the same way for the assistant and for uninstall",
                    link.parent().unwrap_or(link).display()
                ));
            }
            section.command = Some(command);
        }
        Registration::Plugin { dir: sub, file, other_dirs } => {
            let folder = dir.join(sub);
            if !folder.is_dir() {
                section.steps.push(step(Verb::Create, "folder", &folder, Action::MakeDir));
            }
            let path = folder.join(file);
            let content = plugin_source(link, journal_on);
            let what = "chat.message plugin";
            let write = Action::Write(content.clone().into_bytes());
            let old = read_if_exists(&path)?;
            let verb = match &old {
                None => Verb::Add,
                Some(old) if *old == content.as_bytes() => Verb::Keep,
                Some(old) if is_our_plugin(old) => Verb::Update,
                Some(_) => return Err(not_our_plugin(&path)),
            };
            let action = if verb == Verb::Keep { Action::None } else { write };
            section.steps.push(install_step(verb, what, &path, action, old.as_deref()));
            for other in other_dirs {
                let old = dir.join(other).join(file);
                if read_if_exists(&old)?.is_some_and(|b| is_our_plugin(&b)) {
                    let what = "older copy of the plugin (it would run twice)";
                    section.steps.push(step(Verb::Remove, what, &old, Action::Delete));
                }
            }
        }
    }
    match spec.rules {
        Rules::File(file) => {
            let path = dir.join(file);
            let old = read_if_exists(&path)?;
            let text = utf8_text(&path, old.as_deref().unwrap_or_default())?;
            let edit = instructions::install(&text, crate::store::config::configured_language());
            let (verb, action) = match unclosed(&path, edit)? {
                Edit::Unchanged => (Verb::Keep, Action::None),
                Edit::Kept => (Verb::Leave, Action::None),
                Edit::Added(new) => (Verb::Add, Action::Write(new.into_bytes())),
                Edit::Replaced(new) | Edit::Removed(new) => {
                    (Verb::Update, Action::Write(new.into_bytes()))
                }
            };
            let what = match verb {
                Verb::Leave => "instruction block edited by hand:",
                _ => "instruction block",
            };
            section.steps.push(install_step(verb, what, &path, action, old.as_deref()));
        }
        Rules::Elsewhere(why) => section.notes.push(why.to_string()),
    }
    section.notes.extend(spec.install_notes.iter().map(|n| n.to_string()));
    Ok(section)
}

pub(super) fn plan_uninstall(spec: &Spec, home: &Path, installed: &Installed) -> Result<Section> {
    let dir = spec.config_folder(home);
    let mut section = Section::new(spec.platform);
    if !dir.is_dir() {
        return Ok(section);
    }
    match spec.registration {
        Registration::Command { file, entry, comments, .. } => {
            let path = dir.join(file);
            if let Some(bytes) = read_if_exists(&path)? {
                let parse = |b: &[u8]| settings_file::parse(&path, b, comments);
                let settings = parse(&bytes)?;
                // Containers the file had before install stay, even when left empty.
                let before = installed
                    .file(&path)
                    .and_then(|r| r.before.as_deref())
                    .and_then(|b| parse(b.as_bytes()).ok())
                    .map(|b| b.value());
                let hook = settings.uninstall(entry.grouped, before.as_ref());
                let rule = spec.allow_rule.map(|r| settings.disallow(r, before.as_ref()));
                if hook == Change::Removed || rule == Some(Change::Removed) {
                    let edited = settings.render();
                    let restored = restore(installed, &path, &bytes, |b| {
                        parse(b.as_bytes()).is_ok_and(|s| !s.has_ours(entry.grouped))
                    });
                    let action = restored.unwrap_or_else(|| {
                        let created = installed.file(&path).is_some_and(|r| r.created());
                        if created && settings.is_bare(&entry) && !is_link(&path) {
                            Action::Delete
                        } else {
                            Action::Write(edited.into_bytes())
                        }
                    });
                    section.steps.push(step(Verb::Remove, "tinylingo hook", &path, action));
                }
            }
        }
        Registration::Plugin { dir: sub, file, other_dirs } => {
            for d in std::iter::once(&sub).chain(other_dirs) {
                let path = dir.join(d).join(file);
                match read_if_exists(&path)? {
                    Some(b) if is_our_plugin(&b) => {
                        section.steps.push(step(
                            Verb::Remove,
                            "chat.message plugin",
                            &path,
                            Action::Delete,
                        ));
                    }
                    Some(_) => section.notes.push(format!(
                        "left {} alone: tinylingo did not write it",
                        tilde(home, &path)
                    )),
                    None => {}
                }
            }
        }
    }
    if let Rules::File(file) = spec.rules {
        let path = dir.join(file);
        if let Some(bytes) = read_if_exists(&path)? {
            let text = utf8_text(&path, &bytes)?;
            if let Edit::Removed(rest) = unclosed(&path, instructions::uninstall(&text))? {
                let restored = restore(installed, &path, &bytes, |b| {
                    instructions::uninstall(b) == Ok(Edit::Unchanged)
                });
                let action = restored.unwrap_or_else(|| {
                    let created = installed.file(&path).is_some_and(|r| r.created());
                    if created && rest.is_empty() && !is_link(&path) {
                        Action::Delete
                    } else {
                        Action::Write(rest.into_bytes())
                    }
                });
                section.steps.push(step(Verb::Remove, "instruction block", &path, action));
            }
        }
    }
    // Only folders install created go, deepest first, and only when nothing is left in them.
    section.tidy = installed.folders_under(&dir);
    Ok(section)
}

/// How uninstall gives a file back when it is still exactly what install last wrote: its
/// text from before install (`clean` checks that text holds nothing of ours, as it would not
/// if an older install had been there first), or no file when install created it.
pub(super) fn restore(
    installed: &Installed,
    path: &Path,
    now: &[u8],
    clean: impl Fn(&str) -> bool,
) -> Option<Action> {
    let record = installed.file(path)?;
    if record.after.as_bytes() != now {
        return None;
    }
    match &record.before {
        None if is_link(path) => None,
        None => Some(Action::Delete),
        Some(before) if clean(before) => Some(Action::Write(before.clone().into_bytes())),
        Some(_) => None,
    }
}

/// The plugin's text, calling the binary at `link`, writing the journal when `journal_on`.
pub(crate) fn plugin_source(link: &Path, journal_on: bool) -> String {
    let literal = serde_json::to_string(&link.to_string_lossy()).expect("a string serialises");
    let journal = if journal_on { "\"on\"" } else { "\"off\"" };
    PLUGIN_TEMPLATE.replace(PLUGIN_BINARY, &literal).replace(PLUGIN_JOURNAL, journal)
}

pub(crate) fn is_our_plugin(bytes: &[u8]) -> bool {
    bytes.starts_with(PLUGIN_SIGNATURE.as_bytes())
}

pub(super) fn not_our_plugin(path: &Path) -> Error {
    Error::BadInput {
        problem: format!("{} exists and was not written by tinylingo", path.display()),
        hint: Some("move it aside (or rename it), then run install again".into()),
    }
}

pub(super) fn unclosed(path: &Path, edit: std::result::Result<Edit, Unclosed>) -> Result<Edit> {
    edit.map_err(|Unclosed { line }| Error::BadFile {
        path: path.to_path_buf(),
        line: Some(line),
        problem: format!(
            "{} without a {} after it; tinylingo leaves the file untouched",
            instructions::START,
            instructions::END
        ),
    })
}

pub(super) fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// A text file's content, which must be UTF-8.
pub(crate) fn utf8_text(path: &Path, bytes: &[u8]) -> Result<String> {
    String::from_utf8(bytes.to_vec()).map_err(|_| Error::BadFile {
        path: path.to_path_buf(),
        line: None,
        problem: "not UTF-8 text; tinylingo leaves it untouched".into(),
    })
}
