//! Each command to its library call, and its result to text: the dispatch `main` hands a
//! parsed [`Command`] to. Kept apart from the argument definitions in `cli/mod.rs` so that
//! each file has room as commands are added.

use super::{check, entries, learn, print_install, show, thread, Cli, Command, NOTHING, SUCCESS};
use crate::error::Result;
use crate::guard::secrets::Policy;
use crate::ops::actions;
use crate::output::Format;
use crate::platform::{install, instructions};
use crate::project::{self, Filter, Scopes};
use crate::store::config::{self, Config};
use crate::store::glossary::Recorded;
use crate::store::Store;

pub(super) fn run(command: Command) -> Result<u8> {
    // Git runs the merge driver inside a merge: it reads only the three files it is given.
    if let Command::MergeDriver { base, ours, theirs, name } = &command {
        let name = name.as_deref().unwrap_or(".tinylingo/glossary.json");
        return Ok(crate::merge::run(base, ours, theirs, name));
    }
    let store = Store::locate()?;
    let scopes = Scopes::here(store.clone());
    // A project glossary that does not parse (a merge conflict) is reported by every command;
    // one acting on it alone fails with the same message instead.
    let on_project = matches!(
        command,
        Command::Record { project: true, .. }
            | Command::Remove { project: true, .. }
            | Command::Import { project: true, .. }
    ) || command_filter(&command) == Some(Filter::Project);
    if let (Some(e), false) = (&scopes.problem, on_project) {
        eprintln!("tinylingo: warning: {e}; its terms are left out");
        if let Some(hint) = e.hint() {
            eprintln!("  hint: {hint}");
        }
    }
    // Every command that reads the settings says when config.json is broken or holds values
    // it ignores (`config` and `thread` refuse a broken one instead).
    if matches!(
        command,
        Command::Remove { .. }
            | Command::List { .. }
            | Command::Search { .. }
            | Command::Export { .. }
            | Command::Import { .. }
            | Command::Stats { .. }
    ) {
        warn_config(&store);
    }
    match command {
        Command::Record { term, explanation, force, project, allow_secret } => {
            let explanation =
                if explanation == "-" { entries::explanation_from_stdin()? } else { explanation };
            warn_config(&store);
            let outcome = if project {
                let project = project::for_writing(&current_dir()?, &store);
                let note = project.creation_note();
                let outcome = actions::record_in_project(
                    &store,
                    &project,
                    &term,
                    &explanation,
                    force,
                    actions::Writer::Person,
                )?;
                if let Some(note) = note {
                    eprintln!("{note}");
                }
                eprintln!("Project glossary: {}", project.glossary_path().display());
                outcome
            } else {
                let secrets = (!allow_secret).then_some(Policy::User);
                actions::record_with(&store, &term, &explanation, force, secrets)?
            };
            for warning in &outcome.warnings {
                eprintln!("tinylingo: warning: {warning}");
            }
            let (term, now) = (&outcome.term, echo(&outcome.explanation));
            let trimmed = if outcome.trimmed { " (surrounding white space removed)" } else { "" };
            match outcome.recorded {
                Recorded::Added => eprintln!("Recorded: {term} → {now}{trimmed}"),
                Recorded::Unchanged => {}
                Recorded::Updated { was } => {
                    eprintln!("Updated: {term}{trimmed}\n  was: {}\n  now: {now}", echo(&was))
                }
            }
            Ok(SUCCESS)
        }
        Command::Remove { terms, search, term_only, confirm, yes, project } => {
            let target = if project { &scopes.project()?.store } else { &store };
            let (search, confirm) = (search.as_deref(), confirm.as_deref());
            entries::remove(target, &terms, search, term_only, confirm, yes, project)
        }
        Command::List { recent, format, scope } => {
            entries::list(&scopes, scope.get(), format.get(), recent)
        }
        Command::Search { query, term_only, format, scope } => {
            entries::search(&scopes, scope.get(), &query, term_only, format.get())
        }
        Command::Export { format, search, scope } => {
            entries::export(&scopes, scope.get(), format, search.as_deref())
        }
        Command::Import {
            file,
            format,
            skip_existing,
            replace,
            dry_run,
            json,
            project,
            allow_secret,
        } => {
            let on_conflict = match (skip_existing, replace) {
                (true, _) => crate::ops::exchange::OnConflict::Keep,
                (_, true) => crate::ops::exchange::OnConflict::Replace,
                _ => crate::ops::exchange::OnConflict::Refuse,
            };
            if !project {
                let secrets = (!allow_secret).then_some(Policy::User);
                let to = entries::Target { store: &store, secrets };
                return entries::import(to, &file, format, on_conflict, dry_run, json);
            }
            let project = project::for_writing(&current_dir()?, &store);
            let note = project.creation_note().filter(|_| !dry_run);
            let created = !project.glossary_path().exists();
            let to = entries::Target { store: &project.store, secrets: Some(Policy::Project) };
            let code = entries::import(to, &file, format, on_conflict, dry_run, json)
                .map_err(|e| project.explain(e))?;
            if !dry_run
                && !actions::adopt(&store, &project, created)?
                && !actions::is_trusted(&store, &project)
            {
                eprintln!("tinylingo: warning: {}", actions::untrusted_warning(&project));
            }
            if let Some(note) = note {
                eprintln!("{note}");
            }
            eprintln!("Project glossary: {}", project.glossary_path().display());
            Ok(code)
        }
        Command::Stats { format, scope } => show::stats(&scopes, scope.get(), format.get()),
        Command::Check { unused, format, scope } => {
            let now = std::time::SystemTime::now();
            let report = crate::guard::check::check(&scopes, scope.get(), unused, now)?;
            check::print(&report, format.get())
        }
        Command::Trust { dir, links } => {
            let folder = project::trust_target(dir.as_deref(), &store)?;
            // A link in the folder is read only when the user saw it: named here, refused
            // without --links.
            if let Some(link) = project::link_in(&folder, &store) {
                if !links {
                    return Err(link.refuse_trust(&folder));
                }
                eprintln!("tinylingo: note: {}; trusted with --links, it is read", link.describe());
            }
            if actions::trust(&store, &folder, links)? {
                eprintln!("Trusted: {}", folder.display());
            } else {
                eprintln!("Already trusted: {}", folder.display());
            }
            if let Some(note) = project::trust_note(&folder, &store) {
                eprintln!("tinylingo: note: {note}");
            }
            Ok(SUCCESS)
        }
        Command::Untrust { dir } => {
            let folder = project::trust_target(dir.as_deref(), &store)?;
            if actions::untrust(&store, &folder)? {
                eprintln!("No longer trusted: {}", folder.display());
                Ok(SUCCESS)
            } else {
                eprintln!("Not trusted: {}", folder.display());
                Ok(NOTHING)
            }
        }
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "tinylingo", &mut std::io::stdout());
            Ok(SUCCESS)
        }
        Command::Config { key: None, format, .. } => {
            let config = Config::load(&store)?;
            warn_config(&store);
            // Without --format: JSON, the settings file's own shape.
            show::config_all(&config, format.explicit().unwrap_or(Format::Json))
        }
        Command::Config { key: Some(key), value: None, format } => {
            show::config_one(&Config::load(&store)?, &key, format.get())
        }
        Command::Config { key: Some(key), value: Some(value), .. } => {
            actions::set_config(&store, &key, &value)?;
            eprintln!("Set {key} = {value}");
            Ok(SUCCESS)
        }
        Command::Match { message, platform: Some(platform), .. } => {
            warn_config(&store);
            show::injection(&scopes, platform, message)
        }
        Command::Match { message, format, no_llm, platform: None } => {
            warn_config(&store);
            show::matches(&scopes, &message, format.get(), no_llm)
        }
        Command::MergeDriver { .. } => unreachable!("run above"),
        Command::Hook { platform } => {
            crate::hook::run(platform);
            Ok(SUCCESS)
        }
        Command::Thread { action } => thread::run(&store, action),
        Command::Suggest { since, assistant, format, verbose } => {
            learn::suggest(&store, since.as_deref(), &assistant, format.get(), verbose)
        }
        Command::Inbox { action, format } => learn::inbox(&store, action, format.get()),
        #[cfg(feature = "mcp")]
        Command::Mcp => {
            crate::mcp::serve(store)?;
            Ok(SUCCESS)
        }
        Command::Doctor { format } => {
            let mut checks = crate::ops::doctor::run(&scopes);
            // Learning: the capture on or off, the proposals waiting (never a failure).
            let settings = Config::load(&store).map(|c| c.settings().0).unwrap_or_default();
            let learning = crate::learning::capture::summary(&store, &settings);
            checks.push(crate::ops::doctor::Check::info("learning", learning));
            show::doctor(&checks, format)
        }
        Command::Instructions { language } => {
            warn_config(&store);
            let language = language.unwrap_or_else(config::configured_language);
            println!("{}", instructions::block(language));
            Ok(SUCCESS)
        }
        Command::Install { platforms, dry_run, allow_record, mcp } => {
            // The settings choose the instruction block's language.
            warn_config(&store);
            let options = install::Options { dry_run, allow_record, mcp, git: true };
            let report = install::run(&store, install::Mode::Install, &platforms, options)?;
            let found = report.none_found.is_none();
            let code = print_install(report)?;
            if found {
                println!("{}", crate::learning::capture::install_line(&store));
            }
            Ok(code)
        }
        Command::Uninstall { platforms, dry_run, mcp } => {
            let options = install::Options { dry_run, allow_record: false, mcp, git: !mcp };
            print_install(install::run(&store, install::Mode::Uninstall, &platforms, options)?)
        }
    }
}

/// The `--project` / `--user` choice of a reading command.
fn command_filter(command: &Command) -> Option<Filter> {
    match command {
        Command::List { scope, .. }
        | Command::Search { scope, .. }
        | Command::Export { scope, .. }
        | Command::Stats { scope, .. }
        | Command::Check { scope, .. } => Some(scope.get()),
        _ => None,
    }
}

/// The current folder, where the CLI looks for a project glossary.
fn current_dir() -> Result<std::path::PathBuf> {
    std::env::current_dir().map_err(|e| crate::error::Error::io(".", "find the current folder", e))
}

/// An explanation as `record` confirms it: whole up to [`ECHO_CHARS`] chars, else its start,
/// `…` and its length (the whole text is in the glossary; a screenful of it is noise).
fn echo(explanation: &str) -> String {
    let chars = explanation.chars().count();
    if chars <= ECHO_CHARS {
        explanation.to_string()
    } else {
        format!("{} ({chars} characters)", crate::error::shorten(explanation, ECHO_CHARS))
    }
}

const ECHO_CHARS: usize = 200;

/// Prints the warnings about values in config.json that are ignored.
fn warn_config(store: &Store) {
    match Config::load(store) {
        Ok(config) => {
            for w in config.settings().1 {
                eprintln!("tinylingo: warning: {w}");
            }
        }
        // The command goes on with the defaults (as the hook does); say so, or a broken
        // config.json would silently switch off what the user configured.
        Err(e) => eprintln!("tinylingo: warning: {e}; using the default settings"),
    }
}
