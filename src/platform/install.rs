//! `install` and `uninstall`: registering the hook and the instruction block with the assistants.
//!
//! Both work in two phases. First a plan: every file involved is read and parsed and the new
//! content computed, without writing anything; a file we cannot parse stops the command right
//! there, so a refusal changes nothing anywhere. Then, unless it is a dry run, the plan is
//! applied, each file replaced atomically. The [`Report`] lists what was (or would be) changed.
//!
//! What the registrations run is `<store>/scripts/tinylingo hook <platform>`: `scripts/tinylingo`
//! is a symbolic link to the binary that ran `install`, refreshed by every install. Assistants
//! thus run the binary directly, and an upgrade that replaces the binary in place (cargo,
//! a package manager's stable link) needs no new install. With the default store the command
//! contains [`MARKER`]; a store moved with `TINYLINGO_HOME` registers its own scripts folder,
//! which [`settings_file::is_ours`] still recognises by its `…/scripts/tinylingo hook` shape.
//!
//! Choices where the spec leaves room:
//! * `install` with no argument installs for every assistant whose configuration folder exists;
//!   naming an assistant installs it even when its folder is missing (the folder is created).
//! * `uninstall` with no argument looks at every assistant; it never creates anything, and it
//!   removes the scripts link once no assistant's registration is left.
//! * Each assistant is planned and applied on its own: a file that cannot be parsed, or one
//!   the user made read-only, fails that assistant (nothing of its files is written) while the
//!   others go on; the command then exits 2 and names each failure.
//! * Uninstall gives back what was there before install. Install notes in the store's
//!   [`Installed`] record the text each file had before its first change and every folder it
//!   created; a file still as install left it gets its old text back byte for byte (or is
//!   deleted, if install created it), and a file changed since keeps those changes and loses
//!   only our entries. Only folders install created are removed, and only when empty. A file
//!   that is a symbolic link (dotfiles) is written through, never replaced or deleted.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::instructions::{self, Edit, Unclosed};
use super::settings_file::{self, Change, MARKER};
use super::{Platform, Registration, Rules, Spec};
use crate::error::{Error, Result};
use crate::store::files::{read_if_exists, write_atomic};
use crate::store::installed::Installed;
use crate::store::{home_dir, Store};

/// The OpenCode plugin, with [`PLUGIN_BINARY`] standing for the binary's path.
const PLUGIN_TEMPLATE: &str = include_str!("opencode_plugin.js");
/// The placeholder in [`PLUGIN_TEMPLATE`], a JavaScript string literal.
const PLUGIN_BINARY: &str = "\"__TINYLINGO_BINARY__\"";
/// The placeholder for the journal's state, a JavaScript string literal.
const PLUGIN_JOURNAL: &str = "\"__TINYLINGO_JOURNAL__\"";
/// The first line of the plugin: how uninstall knows the file is ours.
const PLUGIN_SIGNATURE: &str = "// tinylingo OpenCode plugin";

/// The name of the link in the scripts folder.
const BINARY_NAME: &str = "tinylingo";

/// How install or uninstall runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Say what would change, change nothing.
    pub dry_run: bool,
    /// Add the assistants' allow rule for `tinylingo record` (see [`Spec::allow_rule`]).
    pub allow_record: bool,
}

/// Install or uninstall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Install,
    Uninstall,
}

/// What a step does (or would do) to its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Create,
    Add,
    Update,
    Remove,
    /// Already as it should be; nothing to do.
    Keep,
    /// The user's own version (an instruction block edited by hand); not touched.
    Leave,
}

impl Verb {
    /// What happened to the thing the step names, or would happen in a dry run.
    fn state(self, dry_run: bool) -> &'static str {
        match (self, dry_run) {
            (Verb::Create, false) => "created",
            (Verb::Create, true) => "would be created",
            (Verb::Add, false) => "added",
            (Verb::Add, true) => "would be added",
            (Verb::Update, false) => "updated",
            (Verb::Update, true) => "would be updated",
            (Verb::Remove, false) => "removed",
            (Verb::Remove, true) => "would be removed",
            (Verb::Keep, _) => "already in place",
            (Verb::Leave, _) => {
                "left as it is (delete the block and install again to get the current one)"
            }
        }
    }
}

/// One change to one path.
#[derive(Debug, Clone)]
pub struct Step {
    pub verb: Verb,
    /// What changes, for the report ("UserPromptSubmit hook", "instruction block").
    pub what: String,
    pub path: PathBuf,
    action: Action,
    /// For install's writes: the file's text before this change (`None`: no file), for the
    /// [`Installed`] record.
    before: Option<Option<String>>,
}

#[derive(Debug, Clone)]
enum Action {
    None,
    MakeDir,
    Write(Vec<u8>),
    Delete,
    Link(PathBuf),
}

/// The steps for one assistant, and what the user should know.
#[derive(Debug)]
pub struct Section {
    pub platform: Platform,
    pub steps: Vec<Step>,
    /// The command the registration runs (install only).
    pub command: Option<String>,
    pub notes: Vec<String>,
    /// Why this assistant failed (its steps were then not applied, or not all of them).
    pub error: Option<Error>,
    /// Folders removed after an uninstall if nothing is left in them, deepest first.
    tidy: Vec<PathBuf>,
}

impl Section {
    fn new(platform: Platform) -> Section {
        Section {
            platform,
            steps: Vec::new(),
            command: None,
            notes: Vec::new(),
            error: None,
            tidy: Vec::new(),
        }
    }

    fn failed(platform: Platform, error: Error) -> Section {
        Section { error: Some(error), ..Section::new(platform) }
    }
}

/// The result of `install` or `uninstall`.
#[derive(Debug)]
pub struct Report {
    pub mode: Mode,
    pub dry_run: bool,
    /// The scripts link.
    pub binary: Vec<Step>,
    pub sections: Vec<Section>,
    /// Install with no assistant named found none: nothing was done.
    pub none_found: Option<String>,
    home: PathBuf,
}

impl Report {
    /// The assistants that failed, with why.
    pub fn failures(&self) -> impl Iterator<Item = (&'static str, &Error)> {
        self.sections.iter().filter_map(|s| Some((s.platform.spec().display, s.error.as_ref()?)))
    }
}

/// Installs or uninstalls for `named` (every detected assistant, or every assistant, when
/// empty), or with `dry_run` only says what that would change. An assistant that fails is
/// reported in its [`Section::error`]; the others are still done.
pub fn run(store: &Store, mode: Mode, named: &[Platform], options: Options) -> Result<Report> {
    let dry_run = options.dry_run;
    let home = home_dir().ok_or_else(|| {
        Error::bad_input(
            "cannot find the home folder: HOME is not set",
            Some("set HOME to the folder the assistants keep their settings in".into()),
        )
    })?;
    let scripts = std::path::absolute(store.scripts_dir())
        .map_err(|e| Error::io(store.scripts_dir(), "resolve", e))?;
    let link = scripts.join(BINARY_NAME);
    let targets = targets(&home, mode, named);
    if targets.is_empty() {
        let looked: Vec<String> =
            Platform::ALL.iter().map(|p| tilde(&home, &p.spec().config_folder(&home))).collect();
        return Ok(Report {
            mode,
            dry_run,
            binary: Vec::new(),
            sections: Vec::new(),
            none_found: Some(looked.join(", ")),
            home,
        });
    }
    // A refusal must leave no trace, not even the store's folder that taking its lock creates:
    // plan first; then plan again under the lock (serialising with other writers) and apply.
    // While the journal is on, install registers the after-response hooks too.
    let journal_on = crate::journal::Journal::of(store).is_ok_and(|j| j.enabled);
    let plan =
        |installed: &Installed| plan(mode, options, journal_on, &targets, &home, &link, installed);
    let report = plan(&Installed::load(store))?;
    if dry_run || report.sections.iter().all(|s| s.error.is_some()) {
        return Ok(report);
    }
    let _lock = match mode {
        Mode::Uninstall if !store.dir().exists() => None,
        _ => Some(store.lock()?),
    };
    let mut installed = Installed::load(store);
    let mut report = plan(&installed)?;
    apply(&mut report, &mut installed)?;
    tidy(&report, &scripts, &mut installed);
    if store.dir().exists() {
        installed.save(store)?;
    }
    Ok(report)
}

/// Reads everything involved and works out every change, writing nothing.
fn plan(
    mode: Mode,
    Options { dry_run, allow_record }: Options,
    journal_on: bool,
    targets: &[Platform],
    home: &Path,
    link: &Path,
    installed: &Installed,
) -> Result<Report> {
    let mut report = Report {
        mode,
        dry_run,
        binary: Vec::new(),
        sections: Vec::new(),
        none_found: None,
        home: home.into(),
    };
    for &p in targets {
        let section = match mode {
            Mode::Install => plan_install(p.spec(), home, link, allow_record, journal_on),
            Mode::Uninstall => plan_uninstall(p.spec(), home, installed),
        };
        let section = section.and_then(|s| writable(&s).map(|()| s));
        report.sections.push(section.unwrap_or_else(|e| Section::failed(p, e)));
    }
    match mode {
        Mode::Install => report.binary.push(plan_link(link)?),
        Mode::Uninstall => {
            // The link stays while any registration still runs it, a failed one included.
            let done = |p: &Platform| {
                report.sections.iter().any(|s| s.platform == *p && s.error.is_none())
            };
            let still_used =
                Platform::ALL.into_iter().any(|p| !done(&p) && registered(p.spec(), home));
            if !still_used && fs::symlink_metadata(link).is_ok() {
                let what = "link to the tinylingo binary";
                report.binary.push(step(Verb::Remove, what, link, Action::Delete));
            }
        }
    }
    Ok(report)
}

/// Refuses to replace or delete a file the user made read-only: renaming over it would
/// succeed (the folder is writable), silently undoing the protection.
fn writable(section: &Section) -> Result<()> {
    for s in &section.steps {
        if !matches!(s.action, Action::Write(_) | Action::Delete) {
            continue;
        }
        if fs::metadata(&s.path).is_ok_and(|m| m.permissions().readonly()) {
            return Err(Error::bad_input(
                format!(
                    "{} is read-only; tinylingo does not replace a protected file",
                    s.path.display()
                ),
                Some(format!(
                    "make it writable (chmod u+w {}) and run the command again, or leave this \
                     assistant out",
                    crate::error::shell_word(&s.path.to_string_lossy())
                )),
            ));
        }
    }
    Ok(())
}

/// After an uninstall, removes the folders install created that are now empty (best effort:
/// `remove_dir` only removes empty folders), and forgets what was uninstalled.
fn tidy(report: &Report, scripts: &Path, installed: &mut Installed) {
    if report.mode == Mode::Uninstall {
        for section in report.sections.iter().filter(|s| s.error.is_none()) {
            let dir = section.platform.spec().config_folder(&report.home);
            for folder in &section.tidy {
                let _ = fs::remove_dir(folder);
            }
            installed.forget_under(&dir);
        }
        if !report.binary.is_empty() {
            let _ = fs::remove_dir(scripts);
        }
    }
}

/// The assistants a command acts on, in the order given: the named ones; else, for
/// uninstall, all of them; for install, those whose folder exists.
fn targets(home: &Path, mode: Mode, named: &[Platform]) -> Vec<Platform> {
    if !named.is_empty() {
        let mut list = Vec::new();
        for p in named {
            if !list.contains(p) {
                list.push(*p);
            }
        }
        return list;
    }
    if mode == Mode::Uninstall {
        return Platform::ALL.to_vec();
    }
    Platform::ALL.into_iter().filter(|p| p.spec().config_folder(home).is_dir()).collect()
}

fn step(verb: Verb, what: impl Into<String>, path: &Path, action: Action) -> Step {
    Step { verb, what: what.into(), path: path.to_path_buf(), action, before: None }
}

/// A step of install that writes (or keeps) `path`, which now holds `before`.
fn install_step(
    verb: Verb,
    what: impl Into<String>,
    path: &Path,
    action: Action,
    before: Option<&[u8]>,
) -> Step {
    let before = Some(before.map(|b| String::from_utf8_lossy(b).into_owned()));
    Step { before, ..step(verb, what, path, action) }
}

/// Points the scripts link at the running binary.
fn plan_link(link: &Path) -> Result<Step> {
    let target = running_binary(link.parent().unwrap_or(link))?;
    let what = format!("link to {}", target.display());
    Ok(match fs::symlink_metadata(link) {
        Err(_) => step(Verb::Add, what, link, Action::Link(target)),
        Ok(_) if fs::read_link(link).ok() == Some(target.clone()) => {
            step(Verb::Keep, what, link, Action::None)
        }
        Ok(_) => step(Verb::Update, what, link, Action::Link(target)),
    })
}

/// The binary the link should point at. The path the user ran it by is preferred to the
/// resolved one when both are the same file: a package manager's stable link
/// (`/opt/homebrew/bin/tinylingo`) survives upgrades, the versioned file behind it does not.
fn running_binary(scripts: &Path) -> Result<PathBuf> {
    let exe = std::env::current_exe()
        .map_err(|e| Error::io("the running tinylingo binary", "locate", e))?;
    let real = fs::canonicalize(&exe).unwrap_or_else(|_| exe.clone());
    let arg0 = std::env::args_os().next().map(PathBuf::from).unwrap_or_default();
    let mut candidates = Vec::new();
    if arg0.components().count() > 1 {
        candidates.extend(std::path::absolute(&arg0).ok());
    } else if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|dir| dir.join(&arg0)));
    }
    let stable = candidates.into_iter().find(|c| {
        // The link itself must never become its own target.
        !c.starts_with(scripts)
            && c.is_absolute()
            && fs::canonicalize(c).ok().as_ref() == Some(&real)
    });
    Ok(stable.unwrap_or(real))
}

fn plan_install(
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

fn plan_uninstall(spec: &Spec, home: &Path, installed: &Installed) -> Result<Section> {
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
fn restore(
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

/// The assistants that have a registration of tinylingo's (the ones `thread on` reinstalls).
pub fn installed_assistants() -> Vec<Platform> {
    let Some(home) = home_dir() else { return Vec::new() };
    Platform::ALL.into_iter().filter(|p| registered(p.spec(), &home)).collect()
}

/// Whether an assistant still has a registration of ours (an unreadable file counts as yes:
/// the link stays rather than leave a hook pointing at nothing).
fn registered(spec: &Spec, home: &Path) -> bool {
    let dir = spec.config_folder(home);
    match spec.registration {
        Registration::Command { file, entry, comments, .. } => {
            let path = dir.join(file);
            match read_if_exists(&path) {
                Ok(None) => false,
                Ok(Some(bytes)) => settings_file::parse(&path, &bytes, comments)
                    .map_or(true, |s| s.has_ours(entry.grouped)),
                Err(_) => true,
            }
        }
        Registration::Plugin { dir: sub, file, other_dirs } => std::iter::once(&sub)
            .chain(other_dirs)
            .any(|d| fs::read(dir.join(d).join(file)).is_ok_and(|b| is_our_plugin(&b))),
    }
}

/// The plugin's text, calling the binary at `link`, writing the journal when `journal_on`.
fn plugin_source(link: &Path, journal_on: bool) -> String {
    let literal = serde_json::to_string(&link.to_string_lossy()).expect("a string serialises");
    let journal = if journal_on { "\"on\"" } else { "\"off\"" };
    PLUGIN_TEMPLATE.replace(PLUGIN_BINARY, &literal).replace(PLUGIN_JOURNAL, journal)
}

fn is_our_plugin(bytes: &[u8]) -> bool {
    bytes.starts_with(PLUGIN_SIGNATURE.as_bytes())
}

fn not_our_plugin(path: &Path) -> Error {
    Error::BadInput {
        problem: format!("{} exists and was not written by tinylingo", path.display()),
        hint: Some("move it aside (or rename it), then run install again".into()),
    }
}

/// A text file's content, which must be UTF-8.
fn utf8_text(path: &Path, bytes: &[u8]) -> Result<String> {
    String::from_utf8(bytes.to_vec()).map_err(|_| Error::BadFile {
        path: path.to_path_buf(),
        line: None,
        problem: "not UTF-8 text; tinylingo leaves it untouched".into(),
    })
}

fn unclosed(path: &Path, edit: std::result::Result<Edit, Unclosed>) -> Result<Edit> {
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

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Carries out the plan: the link first (so that no registration ever points at a missing
/// binary), then each assistant's folders and files. An assistant whose step fails keeps the
/// error and stops there; the others go on. What was written is noted in `installed`.
fn apply(report: &mut Report, installed: &mut Installed) -> Result<()> {
    // Without the link no hook can run: its failure fails the whole command.
    for s in &report.binary {
        apply_step(s, report.mode, installed)?;
    }
    for section in report.sections.iter_mut().filter(|s| s.error.is_none()) {
        let mut steps: Vec<&Step> = section.steps.iter().collect();
        // Folders before the files in them.
        steps.sort_by_key(|s| !matches!(s.action, Action::MakeDir));
        for s in steps {
            if let Err(e) = apply_step(s, report.mode, installed) {
                section.error = Some(e);
                break;
            }
        }
    }
    Ok(())
}

fn apply_step(s: &Step, mode: Mode, installed: &mut Installed) -> Result<()> {
    match &s.action {
        Action::Link(target) => make_link(&s.path, target)?,
        Action::MakeDir => {
            fs::create_dir_all(&s.path).map_err(|e| Error::io(&s.path, "create folder", e))?;
            installed.created_folder(&s.path);
        }
        Action::Write(bytes) => {
            write_through(&s.path, bytes)?;
            if let (Mode::Install, Some(before)) = (mode, &s.before) {
                installed.wrote(&s.path, before.as_deref(), &String::from_utf8_lossy(bytes));
            }
        }
        Action::Delete => fs::remove_file(&s.path).map_err(|e| Error::io(&s.path, "remove", e))?,
        Action::None => {
            // Already in place: a record from an earlier install stays valid.
            if let (Mode::Install, Some(Some(now))) = (mode, &s.before) {
                if installed.file(&s.path).is_some() {
                    installed.wrote(&s.path, None, now);
                }
            }
        }
    }
    Ok(())
}

/// Writes atomically; a symbolic link (a dotfiles setup) is written through to its target
/// rather than replaced by a plain file.
fn write_through(path: &Path, bytes: &[u8]) -> Result<()> {
    let real = if is_link(path) {
        fs::canonicalize(path).map_err(|e| Error::io(path, "resolve link", e))?
    } else {
        path.to_path_buf()
    };
    if let Some(parent) = real.parent() {
        fs::create_dir_all(parent).map_err(|e| Error::io(parent, "create folder", e))?;
    }
    write_atomic(&real, bytes)
}

/// Points `link` at `target`, replacing what was there in one rename.
fn make_link(link: &Path, target: &Path) -> Result<()> {
    let dir = link.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create folder", e))?;
    let tmp = dir.join(format!(".{BINARY_NAME}.{}.tmp", std::process::id()));
    let _ = fs::remove_file(&tmp);
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(target, &tmp);
    // Without symbolic links, a copy: upgrades then need `tinylingo install` again.
    #[cfg(not(unix))]
    let made = fs::copy(target, &tmp).map(|_| ());
    made.map_err(|e| Error::io(&tmp, "create link", e))?;
    fs::rename(&tmp, link).map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::io(link, "replace", e)
    })
}

/// `path` with the home folder shown as `~`.
fn tilde(home: &Path, path: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}

impl Report {
    fn line(&self, f: &mut fmt::Formatter<'_>, s: &Step) -> fmt::Result {
        let state = s.verb.state(self.dry_run);
        writeln!(f, "  {}: {} {state}", tilde(&self.home, &s.path), s.what)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(looked) = &self.none_found {
            writeln!(f, "No assistant found (looked for {looked}); nothing was registered.")?;
            return writeln!(
                f,
                "Install an assistant, or name one to set it up now: tinylingo install claude"
            );
        }
        if self.dry_run {
            writeln!(f, "Dry run: nothing was changed. This is what would be done:")?;
        }
        if self.mode == Mode::Install {
            writeln!(f, "tinylingo")?;
            for s in &self.binary {
                self.line(f, s)?;
            }
        }
        for section in &self.sections {
            let spec = section.platform.spec();
            let folder = spec.config_folder(&self.home);
            writeln!(f, "{} ({})", spec.display, tilde(&self.home, &folder))?;
            if let Some(e) = &section.error {
                writeln!(f, "  failed, nothing of it changed: {e}")?;
                continue;
            }
            if section.steps.is_empty() {
                writeln!(f, "  nothing to remove")?;
            }
            for s in &section.steps {
                self.line(f, s)?;
            }
            if let Some(command) = &section.command {
                writeln!(f, "  the hook runs: {command}")?;
            }
            for note in &section.notes {
                writeln!(f, "  note: {note}")?;
            }
        }
        if self.mode == Mode::Uninstall && !self.binary.is_empty() {
            writeln!(f, "tinylingo")?;
            for s in &self.binary {
                self.line(f, s)?;
            }
        }
        Ok(())
    }
}
