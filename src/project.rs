//! Project glossaries: `.tinylingo/glossary.json` in a project's folder, shared through git.
//!
//! A project glossary is the user's glossary format in a file of the repository: git carries
//! it to everyone on the project, and pull requests review it. Its folder is a [`Store`] of its
//! own (glossary, index, lock, the same write discipline) whose settings are the user's
//! ([`Store::project`]).
//!
//! * Discovery: the nearest `.tinylingo/glossary.json` at or above a folder (the event's `cwd`
//!   for the hook, the current folder for the CLI), one `stat` per folder, at most
//!   [`MAX_DEPTH`] of them. At most one project glossary applies.
//! * Trust: its text goes into the model's context, and it arrives with a `git clone` of
//!   someone else's repository, so it is used only when its root (the folder holding
//!   `.tinylingo/`) is in the user's `trust.folders`. Trust is per folder, not per content: a
//!   teammate's change that arrives with `git pull` applies without asking again.
//! * `.tinylingo/.gitignore`, written with the folder, keeps our other files (index, lock,
//!   temporary files) out of the repository; `.tinylingo/.gitattributes` names tinylingo's
//!   merge driver for the glossary ([`crate::merge`]).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::store::files::{read_if_exists, write_atomic};
use crate::store::links::{self, Link};
use crate::store::{Glossary, Store};

pub use crate::matching::Origin;

/// The folder, in a project's root, that holds its glossary.
pub const DIR: &str = ".tinylingo";
/// The attributes file in `.tinylingo/`, written with the glossary: it names tinylingo's merge
/// driver ([`crate::merge`]) for the glossary. Where the driver is not defined (a teammate
/// without tinylingo), git merges the file as text.
pub const GITATTRIBUTES: &str = ".gitattributes";
/// What `.tinylingo/.gitattributes` holds.
const ATTRIBUTES: &str = "\
# Written by tinylingo: merge the project glossary term by term (tinylingo install defines the
# driver; without it, git merges the file as text).
glossary.json merge=tinylingo
";
/// The most folders the walk up looks at: a bound on the hook's `stat` calls.
pub const MAX_DEPTH: usize = 48;

/// What `.tinylingo/.gitignore` lists: every file of ours there but the glossary.
const GITIGNORE: &str = "\
# Written by tinylingo. glossary.json is the project glossary: commit it.
# These are tinylingo's own files, rebuilt or kept per clone:
glossary.index
.lock
.*.tmp
removals.json
recorded.tsv
usage.log
usage.json
debug.log
";

/// A project glossary's place.
#[derive(Debug, Clone)]
pub struct Project {
    /// The folder holding `.tinylingo/`.
    pub root: PathBuf,
    /// `.tinylingo/` as a store (with the user's settings).
    pub store: Store,
}

impl Project {
    fn at(root: PathBuf, user: &Store) -> Project {
        let store = Store::project(root.join(DIR), user);
        Project { root, store }
    }

    pub fn glossary_path(&self) -> PathBuf {
        self.store.glossary_path()
    }

    /// Whether the root is among `trusted` (canonical paths). The root as found is compared
    /// first (a `cwd` from an assistant is canonical already), and canonicalised only when that
    /// fails, so the hook's usual case costs no system call.
    pub fn is_trusted<'t>(&self, trusted: impl Iterator<Item = &'t str> + Clone) -> bool {
        let root = self.root.as_os_str();
        let mut list = trusted.clone().peekable();
        if list.peek().is_none() {
            return false;
        }
        if list.any(|t| root == t) {
            return true;
        }
        match std::fs::canonicalize(&self.root) {
            Ok(canonical) if canonical != self.root => {
                trusted.into_iter().any(|t| canonical.as_os_str() == t)
            }
            _ => false,
        }
    }

    /// The first link among `.tinylingo/` and the files the glossary is read from: such a
    /// glossary is read only when the user trusted the folder with `--links`
    /// ([`crate::store::links`]). One `lstat` each.
    pub fn read_link(&self) -> Option<Link> {
        links::first(self.store.dir(), &["glossary.json", "glossary.index"])
    }

    /// Refuses to read the glossary through a link unless the root is in `trusted_links`.
    pub fn check_links<'t>(
        &self,
        trusted_links: impl Iterator<Item = &'t str> + Clone,
    ) -> Result<()> {
        match self.read_link() {
            Some(link) if !self.is_trusted(trusted_links) => Err(link.refuse_read(&self.root)),
            _ => Ok(()),
        }
    }

    /// Reads the glossary as a command does: an error (with the file's path and line) when it
    /// cannot be parsed, saying so when git left merge-conflict markers in it.
    pub fn check(&self) -> Result<()> {
        if crate::index::CurrentIndex::open(&self.store).is_some() {
            return Ok(());
        }
        Glossary::load(&self.store).map(drop).map_err(|e| self.explain(e))
    }

    /// `e` about this glossary, naming a merge conflict when that is the cause.
    /// The terms in conflict on both sides and the ways out are named
    /// ([`crate::merge::conflict_error`]).
    pub fn explain(&self, e: Error) -> Error {
        let Error::BadFile { path, .. } = &e else { return e };
        let bytes = read_if_exists(path).ok().flatten().unwrap_or_default();
        crate::merge::conflict_error(path, &bytes).unwrap_or(e)
    }

    /// The command that trusts this project, for messages.
    pub fn trust_command(&self) -> String {
        format!("tinylingo trust {}", crate::error::shell_word(&self.root.to_string_lossy()))
    }

    /// What a writer should say before it creates this project's glossary: where it goes and,
    /// outside a git work tree, that git will not share it. `None` when the glossary exists.
    pub fn creation_note(&self) -> Option<String> {
        if self.glossary_path().exists() {
            return None;
        }
        let at = self.store.dir().display();
        let in_git = self.root.ancestors().take(MAX_DEPTH).any(|d| d.join(".git").exists());
        Some(if in_git {
            format!("Creating the project glossary in {at}: commit the folder to share it")
        } else {
            format!(
                "Creating the project glossary in {at}: not inside a git work tree, so it goes \
                 in the current folder and nothing shares it (run the command inside the \
                 project's repository to share its terms)"
            )
        })
    }

    /// Creates `.tinylingo/` and its `.gitignore` when they are missing (what the hook does
    /// for a folder made by hand when it rebuilds the index).
    pub fn prepare(&self) -> Result<()> {
        self.prepare_with(&[(".gitignore", GITIGNORE)])
    }

    /// [`Project::prepare`], and `.gitattributes` when it is missing: what a writer of the
    /// glossary (`record`, `remove`, `import --project`) leaves for the repository. Not the
    /// hook's: a prompt does not add a file for git to show in someone's work tree.
    pub fn prepare_to_share(&self) -> Result<()> {
        self.prepare_with(&[(".gitignore", GITIGNORE), (GITATTRIBUTES, ATTRIBUTES)])
    }

    /// Never through a link: [`Store::ensure_dir`] refuses one, for each file of ours.
    fn prepare_with(&self, files: &[(&str, &str)]) -> Result<()> {
        self.store.ensure_dir()?;
        for (name, text) in files {
            let path = self.store.dir().join(name);
            if std::fs::symlink_metadata(&path).is_err() {
                write_atomic(&path, text.as_bytes())?;
            }
        }
        Ok(())
    }
}

/// Which glossaries a command reads (`--project`, `--user`, or both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Filter {
    #[default]
    Both,
    Project,
    User,
}

impl Filter {
    pub fn new(project: bool, user: bool) -> Filter {
        match (project, user) {
            (true, false) => Filter::Project,
            (false, true) => Filter::User,
            _ => Filter::Both,
        }
    }
    fn wants(self, origin: Origin) -> bool {
        match self {
            Filter::Both => true,
            Filter::Project => origin == Origin::Project,
            Filter::User => origin == Origin::User,
        }
    }
}

/// The glossaries a command sees where it runs: the user's, and the project glossary of the
/// current folder, with whether it is trusted and why it cannot be read, if it cannot.
#[derive(Debug)]
pub struct Scopes {
    pub user: Store,
    pub project: Option<Project>,
    pub trusted: bool,
    /// The project glossary does not parse (a merge conflict, a bad hand edit): every command
    /// reports it, and those reading both glossaries go on with the user's.
    pub problem: Option<Error>,
}

impl Scopes {
    /// The scopes of the current folder. The trust list is read from the user's config.json
    /// (its defaults when that cannot be read: nothing trusted).
    pub fn here(user: Store) -> Scopes {
        let project = find_here(&user);
        let (trusted, problem) = match &project {
            None => (false, None),
            Some(p) => {
                let config = crate::store::config::Config::load(&user).unwrap_or_default();
                let (list, links) =
                    (config.trusted(), config.folders(crate::store::config::TRUST_LINKS_KEY));
                let problem =
                    p.check_links(links.iter().map(String::as_str)).and_then(|()| p.check());
                (p.is_trusted(list.iter().map(String::as_str)), problem.err())
            }
        };
        Scopes { user, project, trusted, problem }
    }

    /// These scopes without the project glossary unless it is trusted: what the model may read
    /// (the MCP tools), as the hook injects nothing of an untrusted one.
    pub fn trusted_only(mut self) -> Scopes {
        if !self.trusted {
            self.project = None;
            self.problem = None;
        }
        self
    }

    /// The index of the project glossary the hook would use here: trusted and readable (an
    /// unreadable one was reported already).
    pub fn project_index(&self) -> Result<Option<crate::index::HookIndex>> {
        match &self.project {
            Some(p) if self.trusted && self.problem.is_none() => {
                crate::index::HookIndex::open(&p.store).map(Some).map_err(|e| p.explain(e))
            }
            _ => Ok(None),
        }
    }

    /// The store a scope's glossary lives in.
    pub fn store_of(&self, origin: Origin) -> &Store {
        match (origin, &self.project) {
            (Origin::Project, Some(p)) => &p.store,
            _ => &self.user,
        }
    }

    /// The project, for a command that acts on it alone (`--project`): an error when there is
    /// none here or it cannot be read.
    pub fn project(&self) -> Result<&Project> {
        match (&self.project, &self.problem) {
            (None, _) => {
                Err(no_project("create one: tinylingo record --project <term> <explanation>"))
            }
            (Some(_), Some(Error::BadFile { path, line, problem })) => {
                Err(Error::BadFile { path: path.clone(), line: *line, problem: problem.clone() })
            }
            (Some(_), Some(Error::MergeConflict { path, line, problem, hint })) => {
                Err(Error::MergeConflict {
                    path: path.clone(),
                    line: *line,
                    problem: problem.clone(),
                    hint: hint.clone(),
                })
            }
            (Some(_), Some(e)) => Err(Error::bad_input(e.to_string(), e.hint())),
            (Some(p), None) => Ok(p),
        }
    }

    /// Runs `f` on the glossaries `filter` selects, project first, each borrowed from its
    /// index when that is current ([`crate::index::read_glossary`]). An unreadable project
    /// glossary is left out when both are asked for (it was reported), and an error when it
    /// alone is.
    pub fn read<R>(
        &self,
        filter: Filter,
        f: impl FnOnce(&[(Origin, &Glossary)]) -> R,
    ) -> Result<R> {
        let read_user = |f: &mut dyn FnMut(Option<&Glossary>) -> R| -> Result<R> {
            if filter.wants(Origin::User) {
                crate::index::read_glossary(&self.user, |g| f(Some(g)))
            } else {
                Ok(f(None))
            }
        };
        let project = match filter {
            Filter::Project => Some(self.project()?),
            Filter::Both if self.problem.is_none() => self.project.as_ref(),
            _ => None,
        };
        let mut f = Some(f);
        let mut call = |list: &[(Origin, &Glossary)]| (f.take().expect("called once"))(list);
        match project {
            Some(p) => crate::index::read_glossary(&p.store, |pg| {
                read_user(&mut |ug| match ug {
                    Some(ug) => call(&[(Origin::Project, pg), (Origin::User, ug)]),
                    None => call(&[(Origin::Project, pg)]),
                })
            })
            .map_err(|e| p.explain(e))?,
            None => read_user(&mut |ug| match ug {
                Some(ug) => call(&[(Origin::User, ug)]),
                None => call(&[]),
            }),
        }
    }
}

fn no_project(hint: &str) -> Error {
    Error::NotFound {
        problem: format!("no project glossary ({DIR}/glossary.json) here or in any folder above"),
        hint: Some(hint.into()),
    }
}

/// The nearest project glossary at or above `start` (an absolute folder): one `stat` per
/// folder, at most [`MAX_DEPTH`]. The user's own store is never a project, even when it is
/// called `.tinylingo` (a `TINYLINGO_HOME` of `~/.tinylingo`).
pub fn find(start: &Path, user: &Store) -> Option<Project> {
    if !start.is_absolute() {
        return None;
    }
    let mut probe = PathBuf::with_capacity(start.as_os_str().len() + 32);
    for dir in start.ancestors().take(MAX_DEPTH) {
        probe.clear();
        probe.push(dir);
        probe.push(DIR);
        if probe == user.dir() {
            continue;
        }
        probe.push("glossary.json");
        if std::fs::metadata(&probe).is_ok_and(|m| m.is_file()) {
            return Some(Project::at(dir.to_path_buf(), user));
        }
    }
    None
}

/// The project glossary of the current folder, if there is one.
pub fn find_here(user: &Store) -> Option<Project> {
    find(&std::env::current_dir().ok()?, user)
}

/// Where `record --project` (and the other writers) write, from `start`: the project glossary
/// that applies there; else a `.tinylingo/` folder already there or above, up to the root of
/// the git work tree (the folder holding `.git`); else `.tinylingo/` at that root; outside git,
/// in `start` itself. The folder is not created here.
pub fn for_writing(start: &Path, user: &Store) -> Project {
    if let Some(found) = find(start, user) {
        return found;
    }
    for dir in start.ancestors().take(MAX_DEPTH) {
        let ours = dir.join(DIR);
        if ours.is_dir() && ours != user.dir() {
            return Project::at(dir.to_path_buf(), user);
        }
        if dir.join(".git").exists() {
            return Project::at(dir.to_path_buf(), user);
        }
    }
    Project::at(start.to_path_buf(), user)
}

/// A link in the `.tinylingo/` of the project whose root is `folder`, if it has one (what
/// `trust` names, and refuses without `--links`).
pub fn link_in(folder: &Path, user: &Store) -> Option<Link> {
    let project = Project::at(folder.to_path_buf(), user);
    if project.store.dir() == user.dir() {
        return None;
    }
    links::first(project.store.dir(), &["glossary.json", "glossary.index"])
}

/// What `trust` should add about `folder` (canonical) when the hook will find nothing to use
/// there yet: no glossary in it, or the glossary that applies is another folder's.
pub fn trust_note(folder: &Path, user: &Store) -> Option<String> {
    match find(folder, user) {
        Some(p) if p.root == folder => None,
        Some(p) => Some(format!(
            "the project glossary that applies there is {}'s: trust that folder instead: {}",
            p.root.display(),
            p.trust_command()
        )),
        None => Some(format!(
            "there is no project glossary in it yet ({}): the hook will use one once it \
             arrives (a git pull, or tinylingo record --project there)",
            folder.join(DIR).join("glossary.json").display()
        )),
    }
}

/// The folder `trust` and `untrust` act on: `dir` canonicalised, or the root of the project
/// that applies in the current folder.
pub fn trust_target(dir: Option<&str>, user: &Store) -> Result<PathBuf> {
    let folder = match dir {
        Some(d) => PathBuf::from(d),
        None => match find_here(user) {
            Some(p) => p.root,
            None => return Err(no_project("name the folder: tinylingo trust DIR")),
        },
    };
    std::fs::canonicalize(&folder).map_err(|e| Error::io(&folder, "find folder", e)).and_then(|p| {
        if p.is_dir() {
            Ok(p)
        } else {
            Err(Error::bad_input(format!("{} is not a folder", p.display()), None))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_glossary_applies_and_the_user_store_never_does() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let deep = root.join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap();
        let user = Store::at(root.join("a/.tinylingo"));
        std::fs::create_dir_all(user.dir()).unwrap();
        std::fs::write(user.glossary_path(), "{}").unwrap();
        assert!(find(&deep, &user).is_none(), "the user's own store is not a project");
        std::fs::create_dir_all(root.join(DIR)).unwrap();
        std::fs::write(root.join(DIR).join("glossary.json"), "{}").unwrap();
        assert_eq!(find(&deep, &user).unwrap().root, root);
        std::fs::create_dir_all(root.join("a/b/.tinylingo")).unwrap();
        std::fs::write(root.join("a/b/.tinylingo/glossary.json"), "{}").unwrap();
        assert_eq!(find(&deep, &user).unwrap().root, root.join("a/b"));
        assert!(find(Path::new("relative/path"), &user).is_none());
    }

    #[test]
    fn writers_go_to_the_git_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let user = Store::at(root.join("home"));
        std::fs::create_dir_all(root.join("repo/.git")).unwrap();
        std::fs::create_dir_all(root.join("repo/src/x")).unwrap();
        assert_eq!(for_writing(&root.join("repo/src/x"), &user).root, root.join("repo"));
        std::fs::create_dir_all(root.join("loose")).unwrap();
        assert_eq!(for_writing(&root.join("loose"), &user).root, root.join("loose"));
    }

    #[test]
    fn prepare_writes_the_attributes_once_and_never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let user = Store::at(root.join("home"));
        let project = Project::at(root.join("repo"), &user);
        project.prepare_to_share().unwrap();
        let attributes = project.store.dir().join(GITATTRIBUTES);
        assert_eq!(std::fs::read_to_string(&attributes).unwrap(), ATTRIBUTES);
        std::fs::write(&attributes, "glossary.json -merge\n").unwrap();
        project.prepare_to_share().unwrap();
        assert_eq!(std::fs::read_to_string(&attributes).unwrap(), "glossary.json -merge\n");
        #[cfg(unix)]
        {
            std::fs::remove_file(&attributes).unwrap();
            let elsewhere = root.join("elsewhere");
            std::os::unix::fs::symlink(&elsewhere, &attributes).unwrap();
            assert!(project.prepare_to_share().is_err());
            assert!(!elsewhere.exists());
        }
    }
}
