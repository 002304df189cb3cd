//! `tinylingo thread …`: the thread journal's command line (see [`crate::journal`]).

use std::io::Read;

use clap::{Subcommand, ValueEnum};

use crate::error::{Error, Result};
use crate::journal::{self, summary, Journal};
use crate::platform::install;
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
        Action::On | Action::Off => {
            let on = matches!(action, Action::On);
            crate::ops::actions::set_config(
                store,
                "thread.enabled",
                if on { "true" } else { "false" },
            )?;
            let journal = Journal::of(store)?;
            eprintln!(
                "The thread journal is {}{}.",
                if on { "on, writing to " } else { "off" },
                if on { journal.dir.display().to_string() } else { String::new() }
            );
            // Reinstalling the assistants that have tinylingo brings their registrations in
            // line: the after-response hooks are added while the journal is on, removed after.
            let installed = install::installed_assistants();
            if installed.is_empty() {
                eprintln!("No assistant has tinylingo installed yet: `tinylingo install` will add the hooks.");
                return Ok(0);
            }
            let report =
                install::run(store, install::Mode::Install, &installed, Default::default())?;
            super::print_install(report)
        }
        Action::Status => {
            let journal = Journal::of(store)?;
            let today = journal::today();
            let file = journal.file(&today);
            let count = std::fs::read_to_string(&file).map_or(0, |t| journal::count_entries(&t));
            println!("{}", if journal.enabled { "on" } else { "off" });
            println!("folder: {}", journal.dir.display());
            println!("today: {} ({count} entries)", file.display());
            Ok(0)
        }
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
