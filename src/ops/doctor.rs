//! `doctor`: the checks a person would otherwise make by hand when terms stop showing up.
//!
//! Each [`Check`] says what was looked at, whether it holds, and what to do when it does not.
//! The checks read only: the one thing they run is the registered program (`--version`), and
//! the one thing they write is a probe file in the journal's folder, removed at once. They
//! reuse what install, the index and the hook use to decide, so that doctor and those never
//! disagree:
//!
//! * for each assistant whose settings folder exists or that has a registration of ours: the
//!   settings file parses as install parses it, our hooks are registered with the command and
//!   timeout install writes, the program that command runs answers `--version`, OpenCode's
//!   plugin is ours and current, the instruction block and the review command are current
//!   (edited by hand counts as fine: install leaves it alone too), and what it must trust;
//! * the merge driver for project glossaries is in the global git config and its program
//!   answers `--version` ([`git_config`]);
//! * the glossary parses and the index describes it ([`crate::index::open_mapped`]);
//! * with `smart.enabled`, the model server answers within `smart.timeoutMs`;
//! * no stored entry holds a credential, and none names a path gone from its repository
//!   ([`crate::guard`]);
//! * the thread journal's state.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::index::{self, Reading, Unusable};
use crate::journal::Journal;
use crate::matching::llm::{self, LlmError, LlmRequest};
use crate::output::local_time;
use crate::platform::codex_trust::{self, Trust};
use crate::platform::install::{self, tilde};
use crate::platform::instructions::{self, Edit};
use crate::platform::{git_config, settings_file, Platform, Registration, Rules, Spec};
use crate::project::Scopes;
use crate::store::config::{self, Config, Settings};
use crate::store::files::read_if_exists;
use crate::store::{home_dir, Glossary, Store};
mod review;

/// How long the registered program gets to answer `--version`.
const RUN_TIMEOUT: Duration = Duration::from_secs(5);

/// One check's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// What was checked, a stable name ("settings file", "index", …).
    pub check: &'static str,
    /// The assistant the check is about, if any.
    pub assistant: Option<Platform>,
    pub ok: bool,
    /// What was found.
    pub detail: String,
    /// What to do about a failure; `None` when there is nothing to do.
    pub fix: Option<String>,
}

impl Check {
    /// A check that only reports (never a failure): the caller's, for what `ops` does not
    /// read itself (the learning inbox, `doctor`'s last line).
    pub fn info(check: &'static str, detail: String) -> Check {
        Check::ok(check, None, detail)
    }

    fn ok(check: &'static str, assistant: Option<Platform>, detail: impl Into<String>) -> Check {
        Check { check, assistant, ok: true, detail: detail.into(), fix: None }
    }

    fn fail(
        check: &'static str,
        assistant: Option<Platform>,
        detail: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check { check, assistant, ok: false, detail: detail.into(), fix: Some(fix.into()) }
    }
}

/// Runs every check, in a stable order: the assistants (in [`Platform::ALL`]'s order), the
/// configuration, the glossary and index, smart matching, the thread journal.
pub fn run(scopes: &Scopes) -> Vec<Check> {
    let store = &scopes.user;
    let (settings, mut checks) = configuration(store);
    let mut out = assistants(store, (settings.thread.enabled, settings.learn.capture));
    out.append(&mut checks);
    out.extend(glossary_and_index(store));
    if let Some(check) = project(scopes) {
        out.push(check);
    }
    out.extend(merge_driver(store));
    out.extend(guard(scopes));
    out.push(smart(&settings));
    out.push(journal(store));
    out
}

/// The project glossary of the current folder, when there is one: it must parse (git may
/// have left a merge conflict in it) and be trusted, or the hook leaves it out.
fn project(scopes: &Scopes) -> Option<Check> {
    let p = scopes.project.as_ref()?;
    let path = p.glossary_path().display().to_string();
    let served = match index::last_good(&p.store) {
        Some(since) if scopes.trusted => format!(
            "the hook serves its entries as of {} (the last good index) until it parses again",
            local_time(since)
        ),
        _ => "the hook leaves it out".to_string(),
    };
    Some(match &scopes.problem {
        Some(e) => Check::fail(
            "project glossary",
            None,
            format!("{e}; {served}"),
            format!("repair {path} (resolve the merge conflict, if git left one) and commit it"),
        ),
        None if !scopes.trusted => Check::fail(
            "project glossary",
            None,
            format!("{path} is not trusted: the hook does not use it"),
            format!("if you trust this repository's glossary: {}", p.trust_command()),
        ),
        None => Check::ok("project glossary", None, format!("{path}, trusted")),
    })
}

/// The merge driver for project glossaries in the global git config, once install has run
/// (an assistant is registered) or the section is there: it must run our binary.
fn merge_driver(store: &Store) -> Option<Check> {
    const CHECK: &str = "merge driver";
    let home = home_dir()?;
    let path = git_config::global_path(&home);
    let at = tilde(&home, &path);
    let fix = "tinylingo install (registers it again)";
    let text = match read_if_exists(&path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned(),
        Err(e) => return Some(Check::fail(CHECK, None, e.to_string(), fix)),
    };
    let Some(command) = git_config::registered_driver(&text) else {
        let expected = git_config::git_on_path() && !install::installed_assistants().is_empty();
        return expected.then(|| {
            let detail = format!(
                "no [merge \"tinylingo\"] in {at}: git merges project glossaries as text, and \
                 two branches that each add a term conflict"
            );
            Check::fail(CHECK, None, detail, fix)
        });
    };
    let words = settings_file::split_command(&command);
    let ours = install::link_path(store).is_ok_and(|l| command == git_config::driver_command(&l));
    if words.get(1).map(String::as_str) != Some("merge-driver") {
        let detail = format!("{at} defines the driver \"tinylingo\" as `{command}`, not ours");
        let fix = format!("remove the [merge \"tinylingo\"] section from {at}, then {fix}");
        return Some(Check::fail(CHECK, None, detail, fix));
    }
    let program = words.first().map(String::as_str).unwrap_or_default();
    Some(match runs(Path::new(program)) {
        Ok(()) if ours => Check::ok(CHECK, None, format!("registered in {at}: {command}")),
        Ok(()) => {
            Check::ok(CHECK, None, format!("registered in {at} (not this store's): {command}"))
        }
        Err(why) => Check::fail(CHECK, None, format!("{at}: {program}: {why}"), fix),
    })
}

/// No credential stored in either glossary, and no entry naming a path that is gone.
fn guard(scopes: &Scopes) -> [Check; 2] {
    let health = crate::guard::health(scopes);
    let credentials = match health.credentials {
        Ok(found) if found.is_empty() => {
            Check::ok("credentials", None, "no entry holds what looks like a credential")
        }
        Ok(found) => Check::fail(
            "credentials",
            None,
            found.iter().map(crate::guard::credential_line).collect::<Vec<_>>().join("; "),
            found.iter().map(crate::guard::credential_fix).collect::<Vec<_>>().join("; "),
        ),
        Err(e) => Check::fail("credentials", None, e.to_string(), "see the glossary check"),
    };
    let paths = match health.paths {
        Ok(r) if r.issues.is_empty() && r.notes.is_empty() => Check::ok(
            "paths",
            None,
            format!("no entry names a missing path ({} files checked)", r.files),
        ),
        Ok(r) if r.issues.is_empty() => Check::ok("paths", None, r.notes.join("; ")),
        Ok(r) => {
            let mut terms: Vec<&str> = r.issues.iter().map(|i| i.term.as_str()).collect();
            terms.dedup();
            let detail = format!("entries name paths that no longer exist: {}", terms.join(", "));
            Check::fail(
                "paths",
                None,
                detail,
                "tinylingo check (shows the new paths and the fixes)",
            )
        }
        Err(e) => Check::fail("paths", None, e.to_string(), "see the glossary check"),
    };
    [credentials, paths]
}

/// Whether every check holds.
pub fn all_ok(checks: &[Check]) -> bool {
    checks.iter().all(|c| c.ok)
}

/// The settings in effect (the defaults when config.json is broken, as in the hook), and the
/// check of config.json.
fn configuration(store: &Store) -> (Settings, Vec<Check>) {
    let path = home_relative(&store.config_path());
    match Config::load(store) {
        Ok(config) => {
            let (settings, warnings) = config.settings();
            let check = if warnings.is_empty() {
                let exists = store.config_path().exists();
                let detail =
                    if exists { format!("{path} parses") } else { "the defaults".to_string() };
                Check::ok("config", None, detail)
            } else {
                Check::fail(
                    "config",
                    None,
                    format!("{path}: ignored: {}", warnings.join("; ")),
                    "correct those values: `tinylingo config <key> <value>`",
                )
            };
            (settings, vec![check, privacy(store)])
        }
        Err(e) => {
            let fix = e.hint().unwrap_or_else(|| format!("repair {path} by hand"));
            let check = Check::fail("config", None, format!("{e}; the defaults apply"), fix);
            (Settings::default(), vec![check, privacy(store)])
        }
    }
}

/// The store's folder and the files in it that hold settings (`config.json` may hold
/// `smart.apiKey`; `installed.json` names the assistants' files) must not be readable by
/// others: the folder is made 0700 and those files 0600, but a store made by an older version,
/// or copied with `cp`, may be open.
fn privacy(store: &Store) -> Check {
    use crate::store::files::readable_by_others;
    let open: Vec<PathBuf> =
        [store.dir().to_path_buf(), store.config_path(), store.installed_path()]
            .into_iter()
            .filter(|p| readable_by_others(p))
            .collect();
    if open.is_empty() {
        return Check::ok("store permissions", None, "only you can read the store's settings");
    }
    let names: Vec<String> = open.iter().map(|p| home_relative(p)).collect();
    // One chmod per kind: the folder 700, the files 600.
    let chmod = |mode: &str, dirs: bool| {
        let words: Vec<String> = open
            .iter()
            .filter(|p| p.is_dir() == dirs)
            .map(|p| crate::error::shell_word(&p.to_string_lossy()))
            .collect();
        (!words.is_empty()).then(|| format!("chmod {mode} {}", words.join(" ")))
    };
    let fix: Vec<String> =
        [chmod("700", true), chmod("600", false)].into_iter().flatten().collect();
    let detail = format!("readable by other users: {}", names.join(", "));
    Check::fail("store permissions", None, detail, fix.join(" && "))
}

/// The checks of every assistant that is there or still has our registration.
fn assistants(store: &Store, (journal_on, capture_on): (bool, bool)) -> Vec<Check> {
    let Some(home) = home_dir() else {
        let fix = "set HOME to the folder the assistants keep their settings in";
        return vec![Check::fail("assistants", None, "HOME is not set", fix)];
    };
    let link = match install::link_path(store) {
        Ok(link) => link,
        Err(e) => return vec![Check::fail("assistants", None, e.to_string(), "check the store")],
    };
    let found: Vec<Platform> = Platform::ALL
        .into_iter()
        .filter(|p| p.spec().config_folder(&home).is_dir() || install::registered(p.spec(), &home))
        .collect();
    if found.is_empty() {
        let looked: Vec<String> =
            Platform::ALL.iter().map(|p| tilde(&home, &p.spec().config_folder(&home))).collect();
        let detail = format!("no assistant found (looked for {})", looked.join(", "));
        return vec![Check::ok("assistants", None, detail)];
    }
    let at = Place { home: &home, link: &link, journal_on, capture_on };
    let review = |p: Platform| review::check(p.spec(), &home, store);
    found.into_iter().flat_map(|p| assistant(p.spec(), &at).into_iter().chain(review(p))).collect()
}

/// What every assistant's checks need.
struct Place<'a> {
    home: &'a Path,
    link: &'a Path,
    journal_on: bool,
    /// `learn.capture`: the after-response hook of the assistants it reads is wanted too.
    capture_on: bool,
}

fn assistant(spec: &Spec, at: &Place) -> Vec<Check> {
    let dir = spec.config_folder(at.home);
    let mut checks = match spec.registration {
        Registration::Command { file, event, comments, entry } => {
            command_hook(spec, at, &dir.join(file), event, comments, &entry)
        }
        Registration::Plugin { dir: sub, file, .. } => plugin(spec, at, &dir.join(sub).join(file)),
    };
    checks.push(instruction_block(spec, at.home, &dir));
    if spec.platform == Platform::Gemini {
        checks.push(Check::ok("folder trust", Some(spec.platform), spec.install_notes.join(" ")));
    }
    checks
}

fn install_fix(spec: &Spec) -> String {
    format!("tinylingo install {}", spec.name)
}

/// A command registration: the file, our hooks in it, what they run, their timeout, and
/// (Codex) whether the assistant trusts the hook.
fn command_hook(
    spec: &Spec,
    at: &Place,
    path: &Path,
    event: &str,
    comments: bool,
    entry: &crate::platform::CommandEntry,
) -> Vec<Check> {
    let p = Some(spec.platform);
    let shown = tilde(at.home, path);
    let bytes = match read_if_exists(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            let detail = format!("{shown} does not exist: no hook registered");
            return vec![Check::fail("prompt hook", p, detail, install_fix(spec))];
        }
        Err(e) => {
            return vec![Check::fail("settings file", p, e.to_string(), "check its permissions")]
        }
    };
    let settings = match settings_file::parse(path, &bytes, comments) {
        Ok(settings) => settings,
        Err(e) => {
            let fix = format!(
                "repair {shown} by hand ({}), then run `{}`",
                if comments { "JSON, comments allowed" } else { "plain JSON" },
                install_fix(spec)
            );
            return vec![Check::fail("settings file", p, e.to_string(), fix)];
        }
    };
    let mut checks = vec![Check::ok("settings file", p, format!("{shown} parses"))];
    let Some(handler) = settings.ours_under(event, entry.grouped) else {
        let detail = format!("no tinylingo hook under {event} in {shown}");
        checks.push(Check::fail("prompt hook", p, detail, install_fix(spec)));
        return checks;
    };
    let command = handler.get("command").and_then(Value::as_str).unwrap_or_default();
    let wanted = spec.hook_command(at.link);
    checks.push(if command == wanted {
        Check::ok("prompt hook", p, format!("registered under {event}: {command}"))
    } else {
        let detail = format!("registered under {event} as `{command}`; install writes `{wanted}`");
        Check::fail("prompt hook", p, detail, install_fix(spec))
    });
    let capture = at.capture_on && spec.platform.captures();
    if let (Some(after), true) = (spec.after_event, at.journal_on || capture) {
        let why = if at.journal_on { "the thread journal" } else { "learning capture" };
        checks.push(match settings.ours_under(after, entry.grouped) {
            Some(_) => Check::ok("after-response hook", p, format!("registered under {after}")),
            None => Check::fail(
                "after-response hook",
                p,
                format!("{why} is on but no tinylingo hook is under {after}"),
                install_fix(spec),
            ),
        });
    }
    checks.push(command_runs(spec, command));
    checks.push(timeout(spec, &handler, entry.timeout));
    if spec.platform == Platform::Codex {
        let dir = path.parent().unwrap_or(path);
        checks.push(match codex_trust::trust(dir, path, &settings.value(), event) {
            Trust::Trusted => Check::ok("hook trust", p, "Codex trusts the tinylingo hook"),
            Trust::Untrusted => Check::fail(
                "hook trust",
                p,
                "Codex has not trusted the tinylingo hook (or trusted an older form of it): it \
                 skips the hook without a word",
                "open /hooks in Codex and trust the tinylingo hook",
            ),
            Trust::Unknown => Check::fail(
                "hook trust",
                p,
                format!("cannot read {}", tilde(at.home, &dir.join("config.toml"))),
                "repair config.toml, then open /hooks in Codex and trust the tinylingo hook",
            ),
        });
    }
    checks
}

/// Whether the program a registered command runs exists, is executable and answers
/// `--version` in time as tinylingo.
fn command_runs(spec: &Spec, command: &str) -> Check {
    let p = Some(spec.platform);
    let words = settings_file::split_command(command);
    let Some(program) = words.first() else {
        return Check::fail(
            "command runs",
            p,
            "the registered command is empty",
            install_fix(spec),
        );
    };
    let fix = format!("`{}` recreates the scripts link", install_fix(spec));
    match runs(Path::new(program)) {
        Ok(()) => Check::ok("command runs", p, format!("{program} --version exits 0")),
        Err(why) => Check::fail("command runs", p, format!("{program}: {why}"), fix),
    }
}

fn runs(program: &Path) -> Result<(), String> {
    let meta = fs::metadata(program).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound if fs::symlink_metadata(program).is_ok() => {
            "a link to a file that no longer exists".to_string()
        }
        std::io::ErrorKind::NotFound => "does not exist".to_string(),
        _ => e.to_string(),
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
            return Err("not an executable file".into());
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            // Ours: the answer names tinylingo (one line, within the pipe's buffer); a link
            // re-pointed at another program would run it in front of every prompt.
            Ok(Some(status)) if status.success() => {
                let mut answer = String::new();
                let _ = child.stdout.take().map(|mut o| o.read_to_string(&mut answer));
                let first = answer.lines().next().unwrap_or("");
                let why = || format!("not tinylingo: --version answered {first:?}");
                return first.starts_with("tinylingo ").then_some(()).ok_or_else(why);
            }
            Ok(Some(status)) => return Err(format!("--version failed ({status})")),
            Ok(None) if start.elapsed() >= RUN_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("--version gave no answer in {} s", RUN_TIMEOUT.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(e.to_string()),
        }
    }
}

/// Whether our handler's timeout is the one install writes.
fn timeout(spec: &Spec, handler: &Value, wanted: Option<u64>) -> Check {
    let p = Some(spec.platform);
    let found = handler.get("timeout");
    let show = |t: Option<u64>| t.map_or("none".to_string(), |t| t.to_string());
    if found.and_then(Value::as_u64) == wanted && (found.is_some() == wanted.is_some()) {
        Check::ok("timeout", p, format!("{}, as install writes", show(wanted)))
    } else {
        let found = found.map_or("none".to_string(), Value::to_string);
        let detail = format!("{found}; install writes {}", show(wanted));
        Check::fail("timeout", p, detail, install_fix(spec))
    }
}

/// A plugin (OpenCode, Kilo, Pi): the file is ours and as install would write it now, and the program it
/// runs answers.
fn plugin(spec: &Spec, at: &Place, path: &Path) -> Vec<Check> {
    let p = Some(spec.platform);
    let shown = tilde(at.home, path);
    let check = match read_if_exists(path) {
        Err(e) => Check::fail("plugin", p, e.to_string(), "check its permissions"),
        Ok(None) => Check::fail("plugin", p, format!("{shown} is missing"), install_fix(spec)),
        Ok(Some(b)) if !install::is_our_plugin(spec, &b) => Check::fail(
            "plugin",
            p,
            format!("{shown} was not written by tinylingo"),
            format!("move it aside, then run `{}`", install_fix(spec)),
        ),
        Ok(Some(b)) if b == install::plugin_source(spec, at.link, at.journal_on).as_bytes() => {
            Check::ok("plugin", p, format!("{shown} is current"))
        }
        Ok(Some(_)) => Check::fail("plugin", p, format!("{shown} is outdated"), install_fix(spec)),
    };
    let runs = check.ok;
    let mut checks = vec![check];
    if runs {
        checks.push(command_runs(spec, &at.link.to_string_lossy()));
    }
    checks
}

/// The instruction block: present and current, or edited by hand (which install leaves alone).
fn instruction_block(spec: &Spec, home: &Path, dir: &Path) -> Check {
    let p = Some(spec.platform);
    let file = match spec.rules {
        Rules::File(file) => dir.join(file),
        Rules::Elsewhere(why) => return Check::ok("instruction block", p, why),
    };
    let shown = tilde(home, &file);
    let text = match read_if_exists(&file)
        .and_then(|b| install::utf8_text(&file, b.as_deref().unwrap_or_default()))
    {
        Ok(text) => text,
        Err(e) => return Check::fail("instruction block", p, e.to_string(), "repair the file"),
    };
    let fix = install_fix(spec);
    // The MCP variant where the MCP server is registered, as install writes it.
    let mcp = crate::platform::mcp_config::registered(spec, home);
    match instructions::install(&text, config::configured_language(), mcp) {
        Ok(Edit::Unchanged) => Check::ok("instruction block", p, format!("{shown}: current")),
        Ok(Edit::Kept) => Check::ok(
            "instruction block",
            p,
            format!("{shown}: edited by hand; install leaves it as it is"),
        ),
        Ok(Edit::Added(_)) => {
            Check::fail("instruction block", p, format!("{shown}: no block"), fix)
        }
        Ok(_) => Check::fail(
            "instruction block",
            p,
            format!("{shown}: outdated, or in another language"),
            fix,
        ),
        Err(instructions::Unclosed { line }) => Check::fail(
            "instruction block",
            p,
            format!("{shown}: {} on line {line} has no {}", instructions::START, instructions::END),
            format!("add the missing {} by hand, then run `{fix}`", instructions::END),
        ),
    }
}

/// `~/.config/tinylingo/…` when the path is under the home folder.
fn home_relative(path: &Path) -> String {
    home_dir().map_or_else(|| path.display().to_string(), |home| tilde(&home, path))
}

/// The glossary parses; the index describes it and the settings.
fn glossary_and_index(store: &Store) -> Vec<Check> {
    let path = home_relative(&store.glossary_path());
    let recorded = store.glossary_path().exists();
    let glossary = match Glossary::load(store) {
        Ok(_) if !recorded => Check::ok("glossary", None, "nothing recorded yet"),
        Ok(g) => Check::ok(
            "glossary",
            None,
            format!("{path}: {} term{}", g.len(), if g.len() == 1 { "" } else { "s" }),
        ),
        Err(e) => {
            let fix = e.hint().unwrap_or_else(|| format!("repair {path} by hand"));
            Check::fail("glossary", None, e.to_string(), fix)
        }
    };
    let sources = index::source_fingerprints(store);
    let index = match index::open_mapped(&store.index_path(), sources, Reading::Sparse) {
        Ok(_) => Check::ok("index", None, "current"),
        // While glossary.json does not parse, the hook serves the last good index.
        Err(_) if !glossary.ok => match index::last_good(store) {
            Some(since) => Check::fail(
                "index",
                None,
                format!(
                    "the hook serves the entries as of {} (the last good index) until {path} \
                     parses again; what was added since is not used",
                    local_time(since)
                ),
                format!(
                    "repair {path} (see the glossary check); the next prompt rebuilds the index"
                ),
            ),
            None => Check::fail(
                "index",
                None,
                format!(
                    "no good index to serve: the hook adds none of your terms until {path} parses"
                ),
                format!("repair {path} (see the glossary check)"),
            ),
        },
        Err(Unusable::Missing) if !recorded => {
            Check::ok("index", None, "not built yet (nothing recorded)")
        }
        Err(why) => Check::fail(
            "index",
            None,
            why.to_string(),
            "any `tinylingo record` or `tinylingo config <key> <value>` rebuilds it; so does \
             the next prompt",
        ),
    };
    vec![glossary, index]
}

/// With smart matching on: whether the endpoint answers within the timeout. Any HTTP answer,
/// an error status included, shows that something listens there.
fn smart(settings: &Settings) -> Check {
    let s = &settings.smart;
    if !s.enabled {
        return Check::ok("smart endpoint", None, "smart matching is off");
    }
    let timeout = Duration::from_millis(s.timeout_ms);
    let request = LlmRequest {
        endpoint: &s.endpoint,
        model: &s.model,
        api_key: &s.api_key,
        timeout,
        template: &s.prompt,
    };
    let answer = llm::confirm(&request, &[("tinylingo", "a doctor check")], "tinylingo doctor");
    let detail = |how: String| format!("{} {how}", s.endpoint);
    match answer {
        Ok(_) => Check::ok(
            "smart endpoint",
            None,
            detail(format!("answered within {} ms", s.timeout_ms)),
        ),
        Err(e @ (LlmError::Status(_) | LlmError::BadBody(_))) => {
            Check::ok("smart endpoint", None, detail(format!("is reachable (answered: {e})")))
        }
        Err(e) => Check::fail(
            "smart endpoint",
            None,
            detail(format!("did not answer: {e}")),
            "start the model server, or point smart.endpoint at it (`tinylingo config \
             smart.endpoint <url>`), or `tinylingo config smart.enabled false`",
        ),
    }
}

/// The thread journal: on or off, its folder, and whether it can be written when on.
fn journal(store: &Store) -> Check {
    let journal = match Journal::of(store) {
        Ok(j) => j,
        Err(e) => {
            let fix = e.hint().unwrap_or_else(|| "repair config.json".into());
            return Check::fail("thread journal", None, e.to_string(), fix);
        }
    };
    let folder = home_relative(&journal.dir);
    if !journal.enabled {
        let detail = format!("off (folder {folder}); `tinylingo thread on` starts it");
        return Check::ok("thread journal", None, detail);
    }
    match writable(&journal.dir) {
        Ok(()) => Check::ok("thread journal", None, format!("on, writing to {folder}")),
        Err(why) => Check::fail(
            "thread journal",
            None,
            format!("on, but {folder} cannot be written: {why}"),
            "make the folder writable, or `tinylingo config thread.dir <folder>`",
        ),
    }
}

/// Whether a file can be created in `dir` (or, when it does not exist yet, in the nearest
/// folder above it that does, where the journal would create it).
fn writable(dir: &Path) -> Result<(), String> {
    let mut at: PathBuf = dir.to_path_buf();
    while !at.exists() {
        match at.parent() {
            Some(parent) => at = parent.to_path_buf(),
            None => return Err("no existing folder above it".into()),
        }
    }
    if !at.is_dir() {
        return Err(format!("{} is not a folder", at.display()));
    }
    let probe = at.join(format!(".tinylingo-doctor.{}", std::process::id()));
    fs::OpenOptions::new().write(true).create_new(true).open(&probe).map_err(|e| e.to_string())?;
    let _ = fs::remove_file(&probe);
    Ok(())
}
