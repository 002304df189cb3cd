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
//! contains [`MARKER`](settings_file::MARKER); a store moved with `TINYLINGO_HOME` registers its own scripts folder,
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
//! * Uninstall takes out of each file, as it is now, exactly what install put in, and nothing
//!   else: every change the user made since stays, however often install, `thread on`/`off`,
//!   `install --mcp` and `uninstall --mcp` ran in between. The edits are byte-exact both
//!   ways (see [`settings_file`]'s `add_prop` and `remove_node`, the TOML and Markdown
//!   editors), so a file nobody touched since is byte for byte what it was. What the file
//!   cannot say, the store's [`Installed`] record does, without a copy of any of the user's
//!   text: whether install created the file (one left bare, nothing of the user's in it, is
//!   deleted), and the key names install added (`hooks`, `hooks/Stop`, `permissions/allow`,
//!   the MCP servers table…; see `shape`): a container install added goes once our removal
//!   empties it, one the user had stays. Only folders install created are removed, and only
//!   when empty. A file that is a symbolic link (dotfiles) is written through, never replaced
//!   or deleted.

mod assistant;
mod git;
mod report;
pub(crate) mod review;
pub mod shape;

use std::fs;
use std::path::{Path, PathBuf};

use self::assistant::{is_link, plan_install, plan_uninstall, plan_uninstall_mcp};
pub(crate) use self::assistant::{is_our_plugin, plugin_journal_on, plugin_source, utf8_text};
pub use self::git::GitPart;
pub(crate) use self::report::tilde;
use self::report::{step, Action};
pub use self::report::{Report, Section, Step, Verb};
use super::settings_file;
use super::{Platform, Registration, Spec};
use crate::error::{Error, Result};
use crate::store::files::{read_if_exists, write_atomic};
use crate::store::installed::Installed;
use crate::store::{home_dir, Store};

/// The name of the link in the scripts folder.
const BINARY_NAME: &str = "tinylingo";

/// How install or uninstall runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Say what would change, change nothing.
    pub dry_run: bool,
    /// Add the assistants' allow rule for `tinylingo record` (see [`Spec::allow_rule`]).
    pub allow_record: bool,
    /// Install: register the MCP server too (see [`Spec::mcp`]). Uninstall: remove only the
    /// MCP server, and give the instruction block back its shell-command variant.
    pub mcp: bool,
    /// Install: register the merge driver for project glossaries in the global git config.
    /// Uninstall: take it out once no assistant's registration is left (`install::git`). Off for
    /// `thread on|off`, which only refreshes the assistants' hooks.
    pub git: bool,
}

/// Install or uninstall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Install,
    Uninstall,
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
    let link = link_path(store)?;
    let scripts = link.parent().unwrap_or(&link).to_path_buf();
    let targets = targets(&home, mode, named);
    if targets.is_empty() {
        let looked: Vec<String> =
            Platform::ALL.iter().map(|p| tilde(&home, &p.spec().config_folder(&home))).collect();
        return Ok(Report {
            mode,
            dry_run,
            binary: Vec::new(),
            sections: Vec::new(),
            git: GitPart::default(),
            none_found: Some(looked.join(", ")),
            home,
        });
    }
    // A refusal must leave no trace, not even the store's folder that taking its lock creates:
    // plan first; then plan again under the lock (serialising with other writers) and apply.
    // While the journal or the capture is on, install registers the after-response hooks too.
    let after = After::of(store);
    let plan =
        |installed: &Installed| plan(mode, options, after, &targets, &home, &link, installed);
    let report = plan(&Installed::load(store, &shape::shape))?;
    if dry_run || report.sections.iter().all(|s| s.error.is_some()) {
        return Ok(report);
    }
    let _lock = match mode {
        Mode::Uninstall if !store.dir().exists() => None,
        _ => Some(store.lock()?),
    };
    let mut installed = Installed::load(store, &shape::shape);
    let mut report = plan(&installed)?;
    apply(&mut report, &mut installed)?;
    tidy(&report, &scripts, &mut installed);
    if store.dir().exists() {
        installed.save(store)?;
    }
    Ok(report)
}

/// What the after-response hooks are registered for: the thread journal (`thread.enabled`;
/// OpenCode's and the other plugins' after-response call too) and the capture of proposals
/// (`learn.capture`, for the assistants whose event names a session file we read).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct After {
    pub journal: bool,
    pub capture: bool,
}

impl After {
    pub(crate) fn of(store: &Store) -> After {
        let settings =
            crate::store::config::Config::load(store).map(|c| c.settings().0).unwrap_or_default();
        After { journal: settings.thread.enabled, capture: settings.learn.capture }
    }

    /// Whether `spec`'s after-response hook is wanted.
    pub(crate) fn wanted(self, spec: &Spec) -> bool {
        self.journal || (self.capture && spec.platform.captures())
    }

    /// What the report says the hook is for.
    pub(crate) fn what(self, spec: &Spec) -> &'static str {
        let capture = self.capture && spec.platform.captures();
        match (capture, self.journal) {
            (true, true) => "learning capture, thread journal",
            (true, false) => "learning capture",
            _ => "thread journal",
        }
    }
}

/// The scripts link the registrations run: `<store>/scripts/tinylingo`, made absolute.
pub(crate) fn link_path(store: &Store) -> Result<PathBuf> {
    let scripts = std::path::absolute(store.scripts_dir())
        .map_err(|e| Error::io(store.scripts_dir(), "resolve", e))?;
    Ok(scripts.join(BINARY_NAME))
}

/// Reads everything involved and works out every change, writing nothing.
fn plan(
    mode: Mode,
    options: Options,
    after: After,
    targets: &[Platform],
    home: &Path,
    link: &Path,
    installed: &Installed,
) -> Result<Report> {
    let dry_run = options.dry_run;
    let mut report = Report {
        mode,
        dry_run,
        binary: Vec::new(),
        sections: Vec::new(),
        git: GitPart::default(),
        none_found: None,
        home: home.into(),
    };
    for &p in targets {
        let section = match mode {
            Mode::Install => plan_install(p.spec(), home, link, options, after, installed),
            Mode::Uninstall if options.mcp => plan_uninstall_mcp(p.spec(), home, installed),
            Mode::Uninstall => plan_uninstall(p.spec(), home, installed),
        };
        let section = section.and_then(|s| writable(&s.steps).map(|()| s));
        report.sections.push(section.unwrap_or_else(|e| Section::failed(p, e)));
    }
    match mode {
        Mode::Install => {
            report.binary.push(plan_link(link)?);
            if options.git {
                report.git = git::plan_install(home, link);
            }
        }
        // The hooks still run the link.
        Mode::Uninstall if options.mcp => {}
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
            // The merge driver runs the link too: it goes with it.
            if !still_used && options.git {
                report.git = git::plan_uninstall(home, installed);
            }
        }
    }
    Ok(report)
}

/// Refuses to replace or delete a file the user made read-only: renaming over it would
/// succeed (the folder is writable), silently undoing the protection.
fn writable(steps: &[Step]) -> Result<()> {
    for s in steps {
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
                    "make it writable (chmod u+w {}) and run the command again (or leave this \
                     assistant out)",
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
                if fs::remove_dir(folder).is_ok() {
                    installed.forget_under(folder);
                }
            }
            if section.mcp_only {
                // The rest of the install stays, and so does the record of a file still there.
                for s in section.steps.iter().filter(|s| matches!(s.action, Action::Delete)) {
                    installed.forget_under(&s.path);
                }
                continue;
            }
            // A file outside the folder (Claude Code's ~/.claude.json) is forgotten by name.
            let spec = section.platform.spec();
            if let Some(m) = spec.mcp {
                installed.forget_under(&m.path(spec, &report.home));
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
/// Run through the npm launcher, `current_exe` and `argv[0]` are both the platform package's
/// binary (`…/node_modules/tinylingo-linux-x64/bin/tinylingo`, which an npm upgrade replaces in
/// place): the link never points at the launcher or at node.
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

/// The assistants that have a registration of tinylingo's (the ones `thread on` reinstalls).
pub fn installed_assistants() -> Vec<Platform> {
    let Some(home) = home_dir() else { return Vec::new() };
    Platform::ALL.into_iter().filter(|p| registered(p.spec(), &home)).collect()
}

/// The assistants whose after-response hook (the journal's) is registered: a command under
/// their after-response event, or OpenCode's plugin written with the journal on.
pub fn journal_hooked_assistants() -> Vec<Platform> {
    let Some(home) = home_dir() else { return Vec::new() };
    let hooked = |spec: &Spec| {
        let dir = spec.config_folder(&home);
        match (spec.registration, spec.after_event) {
            (Registration::Command { file, entry, comments, .. }, Some(after)) => {
                let path = dir.join(file);
                read_if_exists(&path).ok().flatten().is_some_and(|bytes| {
                    settings_file::parse(&path, &bytes, comments)
                        .is_ok_and(|s| s.ours_under(after, entry.grouped).is_some())
                })
            }
            (Registration::Plugin { dir: sub, file, other_dirs, .. }, _) => {
                std::iter::once(&sub).chain(other_dirs).any(|d| {
                    fs::read(dir.join(d).join(file)).is_ok_and(|b| plugin_journal_on(spec, &b))
                })
            }
            _ => false,
        }
    };
    Platform::ALL.into_iter().filter(|p| hooked(p.spec())).collect()
}

/// Whether an assistant still has a registration of ours (an unreadable file counts as yes:
/// the link stays rather than leave a hook pointing at nothing).
pub(crate) fn registered(spec: &Spec, home: &Path) -> bool {
    let dir = spec.config_folder(home);
    let hook = match spec.registration {
        Registration::Command { file, entry, comments, .. } => {
            let path = dir.join(file);
            match read_if_exists(&path) {
                Ok(None) => false,
                Ok(Some(bytes)) => settings_file::parse(&path, &bytes, comments)
                    .map_or(true, |s| s.has_ours(entry.grouped)),
                Err(_) => true,
            }
        }
        Registration::Plugin { dir: sub, file, other_dirs, .. } => std::iter::once(&sub)
            .chain(other_dirs)
            .any(|d| fs::read(dir.join(d).join(file)).is_ok_and(|b| is_our_plugin(spec, &b))),
    };
    // The MCP server runs the link too.
    hook || super::mcp_config::registered(spec, home)
}

/// Carries out the plan: the link first (so that no registration ever points at a missing
/// binary), then each assistant's folders and files. An assistant whose step fails keeps the
/// error and stops there; the others go on. What was written is noted in `installed`.
fn apply(report: &mut Report, installed: &mut Installed) -> Result<()> {
    // Without the link no hook can run: its failure fails the whole command.
    for s in &report.binary {
        apply_step(s, report.mode, installed)?;
    }
    // The merge driver, which runs the link, once the link is there.
    let git = &mut report.git;
    if git.error.is_none() {
        git.error = writable(&git.steps).err();
    }
    if git.error.is_none() {
        git.error = git.steps.iter().try_for_each(|s| apply_step(s, report.mode, installed)).err();
    }
    git::record(git, installed, report.mode);
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
            // Every folder this makes is noted, not only the last: `~/.pi` as well as
            // `~/.pi/agent`, so that uninstall can take both away again.
            let missing: Vec<PathBuf> = s
                .path
                .ancestors()
                .take_while(|a| fs::symlink_metadata(a).is_err())
                .map(Path::to_path_buf)
                .collect();
            fs::create_dir_all(&s.path).map_err(|e| Error::io(&s.path, "create folder", e))?;
            for folder in missing {
                installed.created_folder(&folder);
            }
        }
        Action::Write(bytes) => {
            write_through(&s.path, bytes)?;
            if let (Mode::Install, Some(before)) = (mode, &s.before) {
                let after = String::from_utf8_lossy(bytes);
                let added = shape::added(&s.path, before.as_deref(), &after);
                installed.wrote(&s.path, before.is_none(), added);
                if s.whole {
                    installed.wrote_whole(&s.path, bytes);
                }
            }
        }
        Action::Delete => fs::remove_file(&s.path).map_err(|e| Error::io(&s.path, "remove", e))?,
        Action::None => {}
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
