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
//! * A settings or hooks file that our uninstall leaves with nothing but what our install put in
//!   a new file (`{}`, Cursor's `{"version": 1}`) is deleted; an instruction file left empty is
//!   deleted. A file that is a symbolic link (dotfiles) is written through, never replaced or
//!   deleted.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::instructions::{self, Edit, Unclosed};
use super::settings_file::{self, Change, MARKER};
use super::{Platform, Registration, Rules, Spec};
use crate::error::{Error, Result};
use crate::store::files::{read_if_exists, write_atomic};
use crate::store::{home_dir, Store};

/// The OpenCode plugin, with [`PLUGIN_BINARY`] standing for the binary's path.
const PLUGIN_TEMPLATE: &str = include_str!("opencode_plugin.js");
/// The placeholder in [`PLUGIN_TEMPLATE`], a JavaScript string literal.
const PLUGIN_BINARY: &str = "\"__TINYLINGO_BINARY__\"";
/// The first line of the plugin: how uninstall knows the file is ours.
const PLUGIN_SIGNATURE: &str = "// tinylingo OpenCode plugin";

/// The name of the link in the scripts folder.
const BINARY_NAME: &str = "tinylingo";

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
#[derive(Debug, Clone)]
pub struct Section {
    pub platform: Platform,
    pub steps: Vec<Step>,
    /// The command the registration runs (install only).
    pub command: Option<String>,
    pub notes: Vec<String>,
    /// Folders removed after an uninstall if nothing is left in them, deepest first.
    tidy: Vec<PathBuf>,
}

impl Section {
    fn new(platform: Platform) -> Section {
        Section { platform, steps: Vec::new(), command: None, notes: Vec::new(), tidy: Vec::new() }
    }
}

/// The result of `install` or `uninstall`.
#[derive(Debug, Clone)]
pub struct Report {
    pub mode: Mode,
    pub dry_run: bool,
    /// The scripts link.
    pub binary: Vec<Step>,
    pub sections: Vec<Section>,
    home: PathBuf,
}

/// Installs or uninstalls for `named` (every detected assistant, or every assistant, when
/// empty), or with `dry_run` only says what that would change.
pub fn run(store: &Store, mode: Mode, named: &[Platform], dry_run: bool) -> Result<Report> {
    let home = home_dir().ok_or_else(|| {
        Error::bad_input(
            "cannot find the home folder: HOME is not set",
            Some("set HOME to the folder the assistants keep their settings in".into()),
        )
    })?;
    let targets = targets(&home, mode, named)?;
    let scripts = std::path::absolute(store.scripts_dir())
        .map_err(|e| Error::io(store.scripts_dir(), "resolve", e))?;
    let link = scripts.join(BINARY_NAME);
    let plan = || plan(mode, dry_run, &targets, &home, &link);
    // A refusal must leave no trace, not even the store's folder that taking its lock creates:
    // plan first; then plan again under the lock (serialising with other writers) and apply.
    let report = plan()?;
    if dry_run {
        return Ok(report);
    }
    let _lock = match mode {
        Mode::Uninstall if !store.dir().exists() => None,
        _ => Some(store.lock()?),
    };
    let report = plan()?;
    apply(&report)?;
    tidy(&report, &scripts);
    Ok(report)
}

/// Reads everything involved and works out every change, writing nothing.
fn plan(
    mode: Mode,
    dry_run: bool,
    targets: &[Platform],
    home: &Path,
    link: &Path,
) -> Result<Report> {
    let mut report =
        Report { mode, dry_run, binary: Vec::new(), sections: Vec::new(), home: home.into() };
    match mode {
        Mode::Install => {
            report.binary.push(plan_link(link)?);
            for p in targets {
                report.sections.push(plan_install(p.spec(), home, link)?);
            }
        }
        Mode::Uninstall => {
            for p in targets {
                report.sections.push(plan_uninstall(p.spec(), home)?);
            }
            let mut others = Platform::ALL.into_iter().filter(|p| !targets.contains(p));
            let still_used = others.any(|p| registered(p.spec(), home));
            if !still_used && fs::symlink_metadata(link).is_ok() {
                let what = "link to the tinylingo binary";
                report.binary.push(step(Verb::Remove, what, link, Action::Delete));
            }
        }
    }
    Ok(report)
}

/// After an uninstall, removes the folders it emptied (best effort: `remove_dir` only removes
/// empty folders).
fn tidy(report: &Report, scripts: &Path) {
    for dir in report.sections.iter().flat_map(|s| &s.tidy) {
        let _ = fs::remove_dir(dir);
    }
    if report.mode == Mode::Uninstall && !report.binary.is_empty() {
        let _ = fs::remove_dir(scripts);
    }
}

/// The assistants a command acts on, in the order given.
fn targets(home: &Path, mode: Mode, named: &[Platform]) -> Result<Vec<Platform>> {
    if !named.is_empty() {
        let mut list = Vec::new();
        for p in named {
            if !list.contains(p) {
                list.push(*p);
            }
        }
        return Ok(list);
    }
    if mode == Mode::Uninstall {
        return Ok(Platform::ALL.to_vec());
    }
    let found: Vec<Platform> =
        Platform::ALL.into_iter().filter(|p| p.spec().config_folder(home).is_dir()).collect();
    if found.is_empty() {
        let looked: Vec<String> =
            Platform::ALL.iter().map(|p| tilde(home, &p.spec().config_folder(home))).collect();
        return Err(Error::NotFound {
            problem: format!("no assistant found (looked for {})", looked.join(", ")),
            hint: Some("name one to install it anyway, e.g.: tinylingo install claude".into()),
        });
    }
    Ok(found)
}

fn step(verb: Verb, what: impl Into<String>, path: &Path, action: Action) -> Step {
    Step { verb, what: what.into(), path: path.to_path_buf(), action }
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

fn plan_install(spec: &Spec, home: &Path, link: &Path) -> Result<Section> {
    let dir = spec.config_folder(home);
    let mut section = Section::new(spec.platform);
    if !dir.is_dir() {
        section.steps.push(step(Verb::Create, "folder", &dir, Action::MakeDir));
    }
    match spec.registration {
        Registration::Command { file, event, entry } => {
            let path = dir.join(file);
            let bytes = read_if_exists(&path)?;
            let mut root = settings_file::parse(&path, bytes.as_deref().unwrap_or_default())?;
            let command = spec.hook_command(link);
            let change = settings_file::install(&mut root, &path, event, &entry, &command)?;
            let what = format!("{event} hook");
            let text = settings_file::render(&root).into_bytes();
            section.steps.push(match change {
                Change::Unchanged => step(Verb::Keep, what, &path, Action::None),
                Change::Updated => step(Verb::Update, what, &path, Action::Write(text)),
                _ => step(Verb::Add, what, &path, Action::Write(text)),
            });
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
            let path = dir.join(sub).join(file);
            let content = plugin_source(link);
            let what = "chat.message plugin";
            let write = Action::Write(content.clone().into_bytes());
            section.steps.push(match read_if_exists(&path)? {
                None => step(Verb::Add, what, &path, write),
                Some(old) if old == content.as_bytes() => {
                    step(Verb::Keep, what, &path, Action::None)
                }
                Some(old) if is_our_plugin(&old) => step(Verb::Update, what, &path, write),
                Some(_) => return Err(not_our_plugin(&path)),
            });
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
            let text = read_text(&path)?;
            let what = "instruction block";
            let edit = instructions::install(&text, crate::store::config::configured_language());
            section.steps.push(match unclosed(&path, edit)? {
                Edit::Unchanged => step(Verb::Keep, what, &path, Action::None),
                Edit::Kept => {
                    step(Verb::Leave, "instruction block edited by hand:", &path, Action::None)
                }
                Edit::Added(new) => step(Verb::Add, what, &path, Action::Write(new.into_bytes())),
                Edit::Replaced(new) | Edit::Removed(new) => {
                    step(Verb::Update, what, &path, Action::Write(new.into_bytes()))
                }
            });
        }
        Rules::Elsewhere(why) => section.notes.push(why.to_string()),
    }
    section.notes.extend(spec.install_notes.iter().map(|n| n.to_string()));
    Ok(section)
}

fn plan_uninstall(spec: &Spec, home: &Path) -> Result<Section> {
    let dir = spec.config_folder(home);
    let mut section = Section::new(spec.platform);
    if !dir.is_dir() {
        return Ok(section);
    }
    match spec.registration {
        Registration::Command { file, entry, .. } => {
            let path = dir.join(file);
            if let Some(bytes) = read_if_exists(&path)? {
                let mut root = settings_file::parse(&path, &bytes)?;
                if settings_file::uninstall(&mut root, entry.grouped) == Change::Removed {
                    let action = if settings_file::is_bare(&root, &entry) && !is_link(&path) {
                        Action::Delete
                    } else {
                        Action::Write(settings_file::render(&root).into_bytes())
                    };
                    section.steps.push(step(Verb::Remove, "tinylingo hook", &path, action));
                }
            }
        }
        Registration::Plugin { dir: sub, file, other_dirs } => {
            for d in std::iter::once(&sub).chain(other_dirs) {
                let path = dir.join(d).join(file);
                section.tidy.push(dir.join(d));
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
        if path.exists() {
            let text = read_text(&path)?;
            if let Edit::Removed(rest) = unclosed(&path, instructions::uninstall(&text))? {
                let action = if rest.is_empty() && !is_link(&path) {
                    Action::Delete
                } else {
                    Action::Write(rest.into_bytes())
                };
                section.steps.push(step(Verb::Remove, "instruction block", &path, action));
            }
        }
    }
    if section.steps.is_empty() {
        section.tidy.clear();
    } else {
        // A folder install created for a named assistant would otherwise make the next
        // `install` believe the assistant is there.
        section.tidy.push(dir);
    }
    Ok(section)
}

/// Whether an assistant still has a registration of ours (an unreadable file counts as yes:
/// the link stays rather than leave a hook pointing at nothing).
fn registered(spec: &Spec, home: &Path) -> bool {
    let dir = spec.config_folder(home);
    match spec.registration {
        Registration::Command { file, entry, .. } => {
            let path = dir.join(file);
            match read_if_exists(&path) {
                Ok(None) => false,
                Ok(Some(bytes)) => settings_file::parse(&path, &bytes)
                    .map_or(true, |root| settings_file::has_ours(&root, entry.grouped)),
                Err(_) => true,
            }
        }
        Registration::Plugin { dir: sub, file, other_dirs } => std::iter::once(&sub)
            .chain(other_dirs)
            .any(|d| fs::read(dir.join(d).join(file)).is_ok_and(|b| is_our_plugin(&b))),
    }
}

/// The plugin's text, calling the binary at `link`.
fn plugin_source(link: &Path) -> String {
    let literal = serde_json::to_string(&link.to_string_lossy()).expect("a string serialises");
    PLUGIN_TEMPLATE.replace(PLUGIN_BINARY, &literal)
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

/// A text file's content; a missing file is empty.
fn read_text(path: &Path) -> Result<String> {
    let bytes = read_if_exists(path)?.unwrap_or_default();
    String::from_utf8(bytes).map_err(|_| Error::BadFile {
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

/// Carries out the plan: folders first, then the link (so that no registration ever points at
/// a missing binary), then the files.
fn apply(report: &Report) -> Result<()> {
    let steps: Vec<&Step> =
        report.sections.iter().flat_map(|s| &s.steps).chain(&report.binary).collect();
    for s in steps.iter().filter(|s| matches!(s.action, Action::MakeDir)) {
        fs::create_dir_all(&s.path).map_err(|e| Error::io(&s.path, "create folder", e))?;
    }
    for s in &steps {
        match &s.action {
            Action::Link(target) => make_link(&s.path, target)?,
            Action::Write(bytes) => write_through(&s.path, bytes)?,
            Action::Delete => {
                fs::remove_file(&s.path).map_err(|e| Error::io(&s.path, "remove", e))?
            }
            Action::None | Action::MakeDir => {}
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
