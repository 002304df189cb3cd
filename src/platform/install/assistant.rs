//! Planning one assistant: the edits install makes to its settings file (or plugin) and its
//! instruction file, and how uninstall takes them out of each file again.

use std::fs;
use std::path::Path;

use super::report::{install_step, step, tilde, Action, Section, Step, Verb};
use super::{After, Mode, Options};
use crate::error::{Error, Result};
use crate::platform::instructions::{self, Edit, Unclosed};
use crate::platform::mcp_config::{self, Doc, McpAllow, McpSpec};
use crate::platform::settings_file::{self, Change, MARKER};
use crate::platform::{Registration, Rules, Spec};
use crate::store::files::read_if_exists;
use crate::store::installed::Installed;

/// The placeholder in a plugin's source for the binary's path, a JavaScript string literal.
pub(super) const PLUGIN_BINARY: &str = "\"__TINYLINGO_BINARY__\"";

/// The placeholder for the journal's state, a JavaScript string literal.
pub(super) const PLUGIN_JOURNAL: &str = "\"__TINYLINGO_JOURNAL__\"";

/// The placeholders for the assistant's name (`tinylingo hook <name>`) and its human name: one
/// source serves OpenCode and its forks.
pub(super) const PLUGIN_NAME: &str = "__TINYLINGO_NAME__";
pub(super) const PLUGIN_DISPLAY: &str = "__TINYLINGO_DISPLAY__";

pub(super) fn plan_install(
    spec: &Spec,
    home: &Path,
    link: &Path,
    Options { allow_record, mcp, .. }: Options,
    after_hooks: After,
    installed: &Installed,
) -> Result<Section> {
    let dir = spec.config_folder(home);
    let mut section = Section::new(spec.platform);
    // Whether the MCP server is registered once this install is done (the instruction block
    // then names its tools).
    let mut mcp_on = false;
    if !dir.is_dir() {
        section.steps.push(step(Verb::Create, "folder", &dir, Action::MakeDir));
    }
    match spec.registration {
        Registration::Command { file, event, entry, comments } => {
            let path = dir.join(file);
            // A hook file in a folder of the assistant's (Copilot's `hooks/`).
            if let Some(folder) = path.parent().filter(|f| *f != dir && !f.is_dir()) {
                section.steps.push(step(Verb::Create, "folder", folder, Action::MakeDir));
            }
            let bytes = read_if_exists(&path)?;
            let settings =
                settings_file::parse(&path, bytes.as_deref().unwrap_or_default(), comments)?;
            let command = spec.hook_command(link);
            // One write of the file; a line in the report for each thing that changed in it.
            let prompt_hook = settings.install(&path, event, &entry, &command)?;
            let mut changes = vec![(verb_of(prompt_hook), format!("{event} hook"))];
            if let Some(after) = spec.after_event {
                let on = after_hooks.wanted(spec);
                let change = if on {
                    settings.install(&path, after, &entry, &spec.after_command(link))?
                } else {
                    settings.uninstall_event(entry.grouped, after, added(installed, &path))
                };
                if change != Change::Unchanged || on {
                    let what = after_hooks.what(spec);
                    changes.push((verb_of(change), format!("{after} hook ({what})")));
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
            // The MCP tool's permission rule, where the server is (or is about to be) there.
            if let Some(rule) = mcp_rule(spec) {
                if allow_record && (mcp || mcp_config::registered(spec, home)) {
                    let change = settings.allow(&path, rule)?;
                    changes.push((verb_of(change), format!("allow rule {rule}")));
                }
            }
            // Gemini CLI lists its MCP servers in the same settings file: one edit of both.
            let settings = match spec.mcp.filter(|m| m.path(spec, home) == path) {
                Some(m) => {
                    let mut doc = Doc::Json(settings);
                    if let Some((verb, on)) = mcp_edit(
                        spec,
                        &m,
                        home,
                        link,
                        (mcp, allow_record),
                        &mut doc,
                        &path,
                        &mut section,
                    )? {
                        changes.push((verb, MCP_WHAT.to_string()));
                        mcp_on = on;
                    }
                    let Doc::Json(settings) = doc else { unreachable!("wrapped above") };
                    settings
                }
                None => settings,
            };
            let text = settings.render().into_bytes();
            let unchanged = bytes.as_deref() == Some(&text[..]);
            let mut action = if unchanged { Action::None } else { Action::Write(text) };
            // The file's one write (and its install record) goes with the first line; the
            // others only report, or applying them would write the file again.
            for (i, (verb, what)) in changes.into_iter().enumerate() {
                let this = std::mem::replace(&mut action, Action::None);
                section.steps.push(match i {
                    0 => install_step(verb, what, &path, this, bytes.as_deref()),
                    _ => step(verb, what, &path, this),
                });
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
        Registration::Plugin { dir: sub, file, other_dirs, what, .. } => {
            let folder = dir.join(sub);
            if !folder.is_dir() {
                section.steps.push(step(Verb::Create, "folder", &folder, Action::MakeDir));
            }
            let path = folder.join(file);
            let content = plugin_source(spec, link, after_hooks.journal);
            let write = Action::Write(content.clone().into_bytes());
            let old = read_if_exists(&path)?;
            let verb = match &old {
                None => Verb::Add,
                Some(old) if *old == content.as_bytes() => Verb::Keep,
                Some(old) if is_our_plugin(spec, old) => Verb::Update,
                Some(_) => return Err(not_our_plugin(&path)),
            };
            let action = if verb == Verb::Keep { Action::None } else { write };
            section.steps.push(install_step(verb, what, &path, action, old.as_deref()));
            for other in other_dirs {
                let old = dir.join(other).join(file);
                if read_if_exists(&old)?.is_some_and(|b| is_our_plugin(spec, &b)) {
                    let what = "older copy of the plugin (it would run twice)";
                    section.steps.push(step(Verb::Remove, what, &old, Action::Delete));
                }
            }
        }
    }
    if let Some(m) = spec.mcp.filter(|m| !shares_hook_file(spec, m, home)) {
        let path = m.path(spec, home);
        let bytes = read_if_exists(&path)?;
        let mut doc = mcp_config::parse(&m, &path, bytes.as_deref().unwrap_or_default())?;
        if let Some((verb, on)) =
            mcp_edit(spec, &m, home, link, (mcp, allow_record), &mut doc, &path, &mut section)?
        {
            let text = doc.render().into_bytes();
            let action = if verb == Verb::Keep { Action::None } else { Action::Write(text) };
            section.steps.push(install_step(verb, MCP_WHAT, &path, action, bytes.as_deref()));
            mcp_on = on;
        }
    }
    super::review::plan(Mode::Install, spec, home, installed, &mut section)?;
    match spec.rules {
        Rules::File(file) => {
            let path = dir.join(file);
            let old = read_if_exists(&path)?;
            let text = utf8_text(&path, old.as_deref().unwrap_or_default())?;
            let edit =
                instructions::install(&text, crate::store::config::configured_language(), mcp_on);
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

/// What the report calls our MCP registration.
const MCP_WHAT: &str = "MCP server (tinylingo mcp)";

fn verb_of(change: Change) -> Verb {
    match change {
        Change::Unchanged => Verb::Keep,
        Change::Updated => Verb::Update,
        Change::Removed => Verb::Remove,
        Change::Added => Verb::Add,
    }
}

/// The permission rule that lets the model call the MCP server's `record` tool, for an
/// assistant that keeps such rules in its hook settings file (Claude Code).
fn mcp_rule(spec: &Spec) -> Option<&'static str> {
    match spec.mcp?.allow {
        McpAllow::Rule(rule) => Some(rule),
        _ => None,
    }
}

/// Whether the assistant lists its MCP servers in its hook settings file (Gemini CLI).
fn shares_hook_file(spec: &Spec, mcp: &McpSpec, home: &Path) -> bool {
    match spec.registration {
        Registration::Command { file, .. } => {
            mcp.path(spec, home) == spec.config_folder(home).join(file)
        }
        Registration::Plugin { .. } => false,
    }
}

/// Registers the MCP server in `doc` when `wanted` (`install --mcp`) or when ours is there
/// already (a plain install refreshes it, never drops it). Returns the report's verb and
/// whether the server is ours once done; `None` when nothing is to be done.
#[allow(clippy::too_many_arguments)]
fn mcp_edit(
    spec: &Spec,
    mcp: &McpSpec,
    home: &Path,
    link: &Path,
    (wanted, allow_record): (bool, bool),
    doc: &mut Doc,
    path: &Path,
    section: &mut Section,
) -> Result<Option<(Verb, bool)>> {
    if !wanted && !doc.has_ours(mcp) {
        return Ok(None);
    }
    match doc.install(mcp, path, link, allow_record)? {
        mcp_config::Installed::Done(change) => {
            if change == Change::Added && !allow_record && mcp.allow != McpAllow::Nothing {
                section.notes.push(format!(
                    "{} asks before the model calls the MCP server's record tool (and a \
                     headless run refuses it): `tinylingo install {} --mcp --allow-record` lets \
                     it through",
                    spec.display, spec.name
                ));
            }
            Ok(Some((verb_of(change), true)))
        }
        mcp_config::Installed::Foreign => {
            section.notes.push(format!(
                "{} already lists an MCP server named \"{}\" that tinylingo did not register: \
                 left as it is ({} keeps the instruction block that names the shell command)",
                tilde(home, path),
                mcp_config::SERVER_NAME,
                spec.display
            ));
            Ok(None)
        }
    }
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
                let settings = settings_file::parse(&path, &bytes, comments)?;
                // Containers install added go once empty; the user's stay.
                let added = added(installed, &path);
                let hook = settings.uninstall(entry.grouped, added);
                let rule = spec.allow_rule.map(|r| settings.disallow(r, added));
                let rule = mcp_rule(spec)
                    .map(|r| settings.disallow(r, added))
                    .filter(|c| *c == Change::Removed)
                    .or(rule);
                // Gemini CLI's MCP servers are in this file too.
                let shared = spec.mcp.filter(|m| shares_hook_file(spec, m, home));
                let mut mcp = Change::Unchanged;
                let settings = match shared {
                    Some(m) => {
                        let mut doc = Doc::Json(settings);
                        mcp = doc.uninstall(&m, added);
                        let Doc::Json(settings) = doc else { unreachable!("wrapped above") };
                        settings
                    }
                    None => settings,
                };
                if hook == Change::Removed
                    || rule == Some(Change::Removed)
                    || mcp == Change::Removed
                {
                    settings.drop_version(added);
                    let action = if created(installed, &path) && settings.is_empty() {
                        Action::Delete
                    } else {
                        Action::Write(settings.render().into_bytes())
                    };
                    let what = if mcp == Change::Removed {
                        format!("tinylingo hook and {MCP_WHAT}")
                    } else {
                        "tinylingo hook".to_string()
                    };
                    section.steps.push(step(Verb::Remove, what, &path, action));
                }
            }
        }
        Registration::Plugin { dir: sub, file, other_dirs, what, .. } => {
            for d in std::iter::once(&sub).chain(other_dirs) {
                let path = dir.join(d).join(file);
                match read_if_exists(&path)? {
                    Some(b) if is_our_plugin(spec, &b) => {
                        section.steps.push(step(Verb::Remove, what, &path, Action::Delete));
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
    if let Some(m) = spec.mcp.filter(|m| !shares_hook_file(spec, m, home)) {
        section.steps.extend(mcp_removal(spec, &m, home, installed, true)?);
    }
    super::review::plan(Mode::Uninstall, spec, home, installed, &mut section)?;
    if let Rules::File(file) = spec.rules {
        let path = dir.join(file);
        if let Some(bytes) = read_if_exists(&path)? {
            let text = utf8_text(&path, &bytes)?;
            if let Edit::Removed(rest) = unclosed(&path, instructions::uninstall(&text))? {
                let action = if created(installed, &path) && rest.is_empty() {
                    Action::Delete
                } else {
                    Action::Write(rest.into_bytes())
                };
                section.steps.push(step(Verb::Remove, "instruction block", &path, action));
            }
        }
    }
    // Only folders install created go, deepest first, and only when nothing is left in them:
    // those in the assistant's folder, the folder, and the parents install made for it.
    section.tidy = installed.folders_under(&dir);
    let made = |a: &&Path| installed.folders_under(a).iter().any(|f| f == a);
    section.tidy.extend(dir.ancestors().skip(1).take_while(made).map(Path::to_path_buf));
    Ok(section)
}

/// `uninstall --mcp`: removes only the MCP server, and gives the instruction block back its
/// variant that names the shell command.
pub(super) fn plan_uninstall_mcp(
    spec: &Spec,
    home: &Path,
    installed: &Installed,
) -> Result<Section> {
    let mut section = Section::new(spec.platform);
    section.mcp_only = true;
    let Some(m) = spec.mcp else { return Ok(section) };
    // In a file of its own, a file install created goes once empty; Gemini CLI's settings
    // still hold the hooks.
    let alone = !shares_hook_file(spec, &m, home);
    section.steps.extend(mcp_removal(spec, &m, home, installed, alone)?);
    section.steps.extend(mcp_rule_removal(spec, home, installed)?);
    if section.steps.is_empty() {
        return Ok(section);
    }
    if let Rules::File(file) = spec.rules {
        let path = spec.config_folder(home).join(file);
        if let Some(bytes) = read_if_exists(&path)? {
            let text = utf8_text(&path, &bytes)?;
            let language = crate::store::config::configured_language();
            if let Edit::Replaced(new) =
                unclosed(&path, instructions::install(&text, language, false))?
            {
                let action = Action::Write(new.into_bytes());
                section.steps.push(step(Verb::Update, "instruction block", &path, action));
            }
        }
    }
    Ok(section)
}

/// `uninstall --mcp`: the step that takes out the rule `install --mcp --allow-record` added to
/// the hook settings file (Claude Code's `mcp__tinylingo__record`), which names a server that
/// is going. A rule the user had stays.
fn mcp_rule_removal(spec: &Spec, home: &Path, installed: &Installed) -> Result<Option<Step>> {
    let (Some(rule), Registration::Command { file, comments, .. }) =
        (mcp_rule(spec), spec.registration)
    else {
        return Ok(None);
    };
    let path = spec.config_folder(home).join(file);
    let Some(bytes) = read_if_exists(&path)? else { return Ok(None) };
    let settings = settings_file::parse(&path, &bytes, comments)?;
    if settings.disallow(rule, added(installed, &path)) != Change::Removed {
        return Ok(None);
    }
    let action = Action::Write(settings.render().into_bytes());
    Ok(Some(step(Verb::Remove, "MCP record tool's allow rule", &path, action)))
}

/// The key paths install added to `path`, from its record (`None`: no record).
fn added<'a>(installed: &'a Installed, path: &Path) -> settings_file::Added<'a> {
    installed.file(path).map(|r| &r.added)
}

/// Whether install created `path` (and it is a plain file, not a dotfiles link that uninstall
/// must never delete).
fn created(installed: &Installed, path: &Path) -> bool {
    installed.file(path).is_some_and(|r| r.created) && !is_link(path)
}

/// The step that removes our MCP entry from its file, if it is there. `may_delete`: a file
/// install created may go once nothing is left in it.
fn mcp_removal(
    spec: &Spec,
    mcp: &McpSpec,
    home: &Path,
    installed: &Installed,
    may_delete: bool,
) -> Result<Option<Step>> {
    let path = mcp.path(spec, home);
    let Some(bytes) = read_if_exists(&path)? else { return Ok(None) };
    let mut doc = mcp_config::parse(mcp, &path, &bytes)?;
    if doc.uninstall(mcp, added(installed, &path)) != Change::Removed {
        return Ok(None);
    }
    let action = if may_delete && created(installed, &path) && doc.is_empty() {
        Action::Delete
    } else {
        Action::Write(doc.render().into_bytes())
    };
    Ok(Some(step(Verb::Remove, MCP_WHAT, &path, action)))
}

/// The plugin's text for `spec` (a [`Registration::Plugin`]), calling the binary at `link`,
/// writing the journal when `journal_on`; "" for an assistant without a plugin.
pub(crate) fn plugin_source(spec: &Spec, link: &Path, journal_on: bool) -> String {
    let Registration::Plugin { source, .. } = spec.registration else { return String::new() };
    let literal = serde_json::to_string(&link.to_string_lossy()).expect("a string serialises");
    let journal = if journal_on { "\"on\"" } else { "\"off\"" };
    source
        .replace(PLUGIN_BINARY, &literal)
        .replace(PLUGIN_JOURNAL, journal)
        .replace(PLUGIN_NAME, spec.name)
        .replace(PLUGIN_DISPLAY, spec.display)
}

/// Whether a plugin file is ours: every source starts `// tinylingo <display> ` (OpenCode's
/// `// tinylingo OpenCode plugin.`), which is how uninstall knows whose it is.
pub(crate) fn is_our_plugin(spec: &Spec, bytes: &[u8]) -> bool {
    let signature = format!("// tinylingo {} ", spec.display);
    bytes.starts_with(signature.as_bytes())
}

/// Whether `bytes` is our plugin, written while the journal was on (its `JOURNAL` line).
pub(crate) fn plugin_journal_on(spec: &Spec, bytes: &[u8]) -> bool {
    // The template's `JOURNAL` line with PLUGIN_JOURNAL replaced as `plugin_source` does.
    const ON_LINE: &str = "const JOURNAL = \"on\" === ";
    is_our_plugin(spec, bytes) && String::from_utf8_lossy(bytes).contains(ON_LINE)
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
