//! What install and uninstall do, step by step, and the report they print: one line per file
//! changed (or that would be, in a dry run), the notes, and each assistant that failed.

use std::fmt;
use std::path::{Path, PathBuf};

use super::Mode;
use crate::error::Error;
use crate::platform::Platform;

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
    /// What happened to the thing the step names, once done ("added", "removed" …).
    pub fn done(self) -> &'static str {
        self.state(false)
    }

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
    pub(super) action: Action,
    /// For install's writes: the file's text before this change (`None`: no file), for the
    /// [`Installed`] record.
    pub(super) before: Option<Option<String>>,
    /// The bytes written are the whole file, ours (the review command): install notes their
    /// hash, uninstall deletes the file only while it still has them.
    pub(super) whole: bool,
}

#[derive(Debug, Clone)]
pub(super) enum Action {
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
    pub(super) tidy: Vec<PathBuf>,
    /// `uninstall --mcp`: only the MCP registration goes (the record of the rest stays).
    pub(super) mcp_only: bool,
}

impl Section {
    pub(super) fn new(platform: Platform) -> Section {
        Section {
            platform,
            steps: Vec::new(),
            command: None,
            notes: Vec::new(),
            error: None,
            tidy: Vec::new(),
            mcp_only: false,
        }
    }

    pub(super) fn failed(platform: Platform, error: Error) -> Section {
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
    /// The merge driver for project glossaries in the global git config.
    pub git: super::GitPart,
    /// Install with no assistant named found none: nothing was done.
    pub none_found: Option<String>,
    pub(super) home: PathBuf,
}

impl Report {
    /// The assistants that failed, with why.
    pub fn failures(&self) -> impl Iterator<Item = (&'static str, &Error)> {
        let assistants = self.sections.iter();
        let assistants =
            assistants.filter_map(|s| Some((s.platform.spec().display, s.error.as_ref()?)));
        assistants.chain(self.git.error.as_ref().map(|e| ("git config", e)))
    }

    /// The git part: its file, its lines, its notes.
    fn git_lines(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let git = &self.git;
        let Some(path) = &git.path else { return Ok(()) };
        if git.steps.is_empty() && git.notes.is_empty() && git.error.is_none() {
            return Ok(());
        }
        writeln!(f, "git ({})", tilde(&self.home, path))?;
        if let Some(e) = &git.error {
            return writeln!(f, "  failed, nothing of it changed: {e}");
        }
        for s in &git.steps {
            self.line(f, s)?;
        }
        if let Some(command) = &git.command {
            writeln!(f, "  the merge driver runs: {command}")?;
        }
        for note in &git.notes {
            writeln!(f, "  note: {note}")?;
        }
        Ok(())
    }
}

pub(super) fn step(verb: Verb, what: impl Into<String>, path: &Path, action: Action) -> Step {
    Step { verb, what: what.into(), path: path.to_path_buf(), action, before: None, whole: false }
}

/// A step of install that writes (or keeps) `path`, which now holds `before`.
pub(super) fn install_step(
    verb: Verb,
    what: impl Into<String>,
    path: &Path,
    action: Action,
    before: Option<&[u8]>,
) -> Step {
    let before = Some(before.map(|b| String::from_utf8_lossy(b).into_owned()));
    Step { before, ..step(verb, what, path, action) }
}

/// `path` with the home folder shown as `~`.
pub(crate) fn tilde(home: &Path, path: &Path) -> String {
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
            self.git_lines(f)?;
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
        if self.mode == Mode::Uninstall {
            self.git_lines(f)?;
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
