//! `tinylingo thread …`: the thread journal's command line (see [`crate::journal`]).

use std::io::Read;

use clap::{Subcommand, ValueEnum};

use crate::error::{Error, Result};
use crate::journal::{self, summary, Journal};
use crate::platform::install::{self, Verb};
use crate::store::Store;

#[derive(Subcommand, Debug)]
pub enum Action {
    /// Turn the journal on: register the after-response hooks with the installed assistants.
    On,
    /// Turn the journal off: remove those hooks (the journal's files stay).
    Off,
    /// On or off, the folder, today's file and how many entries it holds.
    Status,
    /// Print entries (today's by default).
    #[command(after_help = "Examples:\n  tinylingo thread show\n  tinylingo thread show \
--last 3\n  tinylingo thread show --date 2026-11-24 --format jsonl")]
    Show {
        /// The day, YYYY-MM-DD (default: today).
        #[arg(long)]
        date: Option<String>,
        /// Only the last N entries of that day.
        #[arg(long)]
        last: Option<usize>,
        /// text (the Markdown as written), json (an array) or jsonl (one object a line).
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Print the summary the journal would keep of an answer read on stdin.
    #[command(after_help = "Example:\n  echo '总结：修好了。' | tinylingo thread summarize")]
    Summarize,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Jsonl,
}

/// Runs one `thread` action; returns the exit status.
pub fn run(store: &Store, action: Action) -> Result<u8> {
    match action {
        Action::On | Action::Off => switch(store, matches!(action, Action::On)),
        Action::Status => status(store),
        Action::Show { date, last, format } => show(store, date, last, format),
        Action::Summarize => {
            let mut answer = String::new();
            std::io::stdin()
                .read_to_string(&mut answer)
                .map_err(|e| Error::io("standard input", "read", e))?;
            println!("{}", summary::summarize(&answer));
            Ok(0)
        }
    }
}

/// `thread on` / `thread off`: the setting, then the assistants' registrations brought in line
/// (reinstalling adds the after-response hooks while the journal is on, removes them after).
/// Only what changed is printed: the rest of install's report is the same as before.
fn switch(store: &Store, on: bool) -> Result<u8> {
    crate::ops::actions::set_config(store, "thread.enabled", if on { "true" } else { "false" })?;
    let journal = Journal::of(store)?;
    if on {
        eprintln!("The thread journal is on, writing to {}.", journal.dir.display());
    } else {
        eprintln!("The thread journal is off (its files stay).");
    }
    let installed = install::installed_assistants();
    if installed.is_empty() {
        if on {
            eprintln!(
                "No assistant has tinylingo installed, so nothing is recorded yet: \
                 `tinylingo install` adds the hooks."
            );
        }
        return Ok(0);
    }
    let report = install::run(store, install::Mode::Install, &installed, Default::default())?;
    let home = crate::store::home_dir().unwrap_or_default();
    let mut changed = 0;
    for section in &report.sections {
        for step in section.steps.iter().filter(|s| !matches!(s.verb, Verb::Keep | Verb::Leave)) {
            changed += 1;
            println!("{}: {} {}", install::tilde(&home, &step.path), step.what, step.verb.done());
        }
    }
    if changed == 0 && report.failures().next().is_none() {
        let names: Vec<&str> = installed.iter().map(|p| p.spec().display).collect();
        eprintln!("The hooks of {} were already as they should be.", names.join(", "));
    }
    Ok(super::print_failures(&report))
}

/// `thread status`: the setting, and whether anything is really being recorded (after an
/// uninstall the setting may be on with no hook left to write an entry).
fn status(store: &Store) -> Result<u8> {
    let journal = Journal::of(store)?;
    let today = journal::today();
    let file = journal.file(&today);
    let count = std::fs::read_to_string(&file).map_or(0, |t| journal::count_entries(&t));
    let hooked = if journal.enabled { install::journal_hooked_assistants() } else { Vec::new() };
    match (journal.enabled, hooked.is_empty()) {
        (false, _) => println!("off"),
        (true, true) => println!(
            "on, but nothing is being recorded: no assistant has the journal's after-response hook"
        ),
        (true, false) => {
            println!("on");
            let names: Vec<&str> = hooked.iter().map(|p| p.spec().display).collect();
            println!("recording: {}", names.join(", "));
        }
    }
    println!("folder: {}", journal.dir.display());
    let entries = if count == 1 { "entry" } else { "entries" };
    println!("today: {} ({count} {entries})", file.display());
    if journal.enabled && hooked.is_empty() {
        eprintln!(
            "hint: `tinylingo install` registers the hooks again (or `tinylingo thread off`)"
        );
    }
    Ok(0)
}

fn show(store: &Store, date: Option<String>, last: Option<usize>, format: Format) -> Result<u8> {
    let journal::Day { date, file, entries } = journal::day(store, date, last)?;
    match format {
        Format::Text => {
            for e in &entries {
                println!("{}\n", e.text);
            }
        }
        Format::Json => println!("{}", serde_json::to_string_pretty(&entries).expect("serialises")),
        Format::Jsonl => {
            for e in &entries {
                println!("{}", serde_json::to_string(e).expect("serialises"));
            }
        }
    }
    if entries.is_empty() {
        eprintln!("No entries for {date} ({}).", file.display());
        return Ok(1);
    }
    Ok(0)
}
