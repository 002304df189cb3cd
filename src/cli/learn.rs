//! `tinylingo suggest` and `tinylingo inbox …`: the learning commands' command line (see
//! [`crate::learning`]).

use std::time::SystemTime;

use clap::Subcommand;

use crate::error::{Error, Result};
use crate::learning::inbox::records;
use crate::learning::{self, decide, Assistant, Proposal};
use crate::output::Format;
use crate::store::glossary::Recorded;
use crate::store::Store;

#[derive(Subcommand, Debug)]
pub enum InboxAction {
    /// Record pending proposals (through `record`: the same checks and exit codes).
    #[command(after_help = "Examples:\n  tinylingo inbox accept k3f9qa\n  \
tinylingo inbox accept k3f9qa --explanation \"支付网关服务，代码在 services/payments/\"\n  \
tinylingo inbox accept k3f9qa --user\n  \
tinylingo inbox accept --all --min-confidence 0.9 --dry-run\n\n\
A project proposal accepted inside the project it came from goes to that project's glossary \
(--user keeps it yours); anything else goes to your glossary unless --project says otherwise.")]
    Accept {
        /// The proposals' ids (as `tinylingo inbox` shows them).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        ids: Vec<String>,
        /// Record in the current folder's project glossary (.tinylingo/glossary.json).
        #[arg(long, conflicts_with = "user")]
        project: bool,
        /// Record in your glossary, also a project proposal accepted inside its project.
        #[arg(long)]
        user: bool,
        /// List what would be recorded, and where; record nothing.
        #[arg(long)]
        dry_run: bool,
        /// Record this explanation instead of the proposed one (one id only).
        #[arg(long, value_name = "TEXT")]
        explanation: Option<String>,
        /// Accept every pending proposal at least as confident as --min-confidence.
        #[arg(long, requires = "min_confidence", conflicts_with = "explanation")]
        all: bool,
        /// With --all: the lowest confidence accepted (0 to 1).
        #[arg(long, value_name = "X", requires = "all")]
        min_confidence: Option<f64>,
    },
    /// Reject pending proposals: the same term is never proposed again.
    #[command(after_help = "Example:\n  tinylingo inbox reject k3f9qa m2x8pd")]
    Reject {
        /// The proposals' ids.
        #[arg(required = true)]
        ids: Vec<String>,
    },
}

/// `suggest`: scan, fill the inbox, print what is pending.
pub fn suggest(
    store: &Store,
    since: Option<&str>,
    assistants: &[String],
    format: Format,
    verbose: bool,
) -> Result<u8> {
    let mut chosen = Vec::new();
    for name in assistants {
        chosen.push(Assistant::from_name(name).ok_or_else(|| {
            let names: Vec<_> = Assistant::ALL.iter().map(|a| a.name()).collect();
            Error::bad_input(
                format!("unknown assistant \"{name}\""),
                Some(format!("known: {}", names.join(", "))),
            )
        })?);
    }
    let since = since.map(|s| decide::parse_since(s, SystemTime::now())).transpose()?;
    let home = crate::store::home_dir()
        .ok_or_else(|| Error::bad_input("cannot find the home folder: HOME is not set", None))?;
    let options = learning::Options { since, assistants: chosen };
    let (inbox, report) = learning::suggest(store, &home, &options)?;
    let reviewed = &report.reviewed;
    if verbose {
        for why in &report.skipped {
            eprintln!("skipped: {why}");
        }
        for why in &reviewed.failed {
            eprintln!("smart: unchanged, {why}");
        }
    }
    let answered = reviewed.kept + reviewed.tightened + reviewed.renamed + reviewed.rejected;
    if answered + reviewed.drafts + reviewed.failed.len() > 0 {
        // Drafts: turns no rule read, which the model read (and made proposals of, or not).
        let drafts = match reviewed.drafts {
            0 => String::new(),
            n => {
                format!("; it read {n} turn(s) no rule read, {} now proposed", reviewed.drafts_kept)
            }
        };
        eprintln!(
            "The local model kept {}, tightened {}, renamed {}, rejected {} proposal(s){drafts}{}.",
            reviewed.kept,
            reviewed.tightened,
            reviewed.renamed,
            reviewed.rejected,
            if reviewed.failed.is_empty() { "" } else { "; some were not reviewed (--verbose)" }
        );
    }
    let pending = decide::shown(store, &inbox);
    eprintln!(
        "Read {} file(s) ({} KB), {} unchanged; {} new proposal(s), {} pending.",
        report.read,
        report.bytes.div_ceil(1024),
        report.unchanged,
        report.added,
        pending.len()
    );
    print_proposals(&pending, format);
    Ok(0)
}

/// `inbox` and its actions.
pub fn inbox(store: &Store, action: Option<InboxAction>, format: Format) -> Result<u8> {
    match action {
        None => {
            let inbox = learning::Inbox::load(store)?;
            let pending = decide::shown(store, &inbox);
            if pending.is_empty() && format == Format::Text {
                eprintln!("The inbox is empty (tinylingo suggest looks for new proposals).");
            }
            print_proposals(&pending, format);
            Ok(0)
        }
        Some(InboxAction::Reject { ids }) => {
            for p in decide::reject(store, &ids)? {
                eprintln!("Rejected: {} {}", p.id, p.term);
            }
            Ok(0)
        }
        Some(InboxAction::Accept {
            ids,
            project,
            user,
            dry_run,
            explanation,
            all,
            min_confidence,
        }) => {
            if explanation.is_some() && ids.len() != 1 {
                return Err(Error::bad_input(
                    "--explanation goes with one proposal",
                    Some("accept the others in a separate command".into()),
                ));
            }
            if let Some(min) = min_confidence.filter(|m| !(0.0..=1.0).contains(m)) {
                return Err(Error::bad_input(
                    format!("--min-confidence {min} is not between 0 and 1"),
                    None,
                ));
            }
            let ids =
                if all { decide::confident(store, min_confidence.unwrap_or(1.0))? } else { ids };
            let here = std::env::current_dir()
                .map_err(|e| Error::io(".", "find the current folder", e))?;
            let want = match (project, user) {
                (true, _) => decide::Want::Project,
                (_, true) => decide::Want::User,
                _ => decide::Want::Auto,
            };
            let mut code = 0u8;
            for id in &ids {
                let route =
                    decide::get(store, id).map(|p| (decide::route(store, &p, &here, want), p));
                if dry_run {
                    match route {
                        Ok((route, p)) => println!(
                            "{id}  {} → {}\n        would go to {}",
                            p.term,
                            explanation.as_deref().unwrap_or(&p.explanation),
                            route.why
                        ),
                        Err(e) => eprintln!("tinylingo: {id}: {e}"),
                    }
                    continue;
                }
                let result = route.and_then(|(route, _)| {
                    decide::accept(
                        store,
                        route.project.as_ref(),
                        id,
                        explanation.as_deref(),
                        crate::ops::actions::Writer::Person,
                    )
                    .map(|done| (done, route.why))
                });
                match result {
                    Ok(((p, outcome), why)) => {
                        match outcome.recorded {
                            Recorded::Unchanged => {
                                eprintln!("Already recorded: {} ({why})", p.term)
                            }
                            _ => eprintln!(
                                "Recorded in {why}: {} → {}",
                                outcome.term, outcome.explanation
                            ),
                        }
                        for warning in &outcome.warnings {
                            eprintln!("tinylingo: warning: {warning}");
                        }
                    }
                    // With --all one refusal does not stop the others; by id, it stops.
                    Err(e) if all => {
                        eprintln!("tinylingo: {id}: {e}");
                        code = code.max(e.exit_code() as u8);
                    }
                    Err(e) => return Err(e),
                }
            }
            if all && ids.is_empty() {
                eprintln!(
                    "No pending proposal is that confident (common words are never taken by \
                     --all: accept them one at a time)."
                );
            }
            if dry_run {
                eprintln!("Dry run: nothing was recorded.");
            }
            Ok(code)
        }
    }
}

fn print_proposals(pending: &[&Proposal], format: Format) {
    if let Some(out) = records(pending).render(format) {
        print!("{out}");
        return;
    }
    for p in pending {
        println!("{}  {} → {}", p.id, p.term, p.explanation);
        if !p.quote.is_empty() {
            println!("        “{}”", p.quote);
        }
        let mut scope = match (&p.project, p.scope_hint.as_str()) {
            (Some(folder), "project") => format!("project {folder}"),
            (Some(folder), hint) => format!("{hint} (from {folder})"),
            (None, hint) => hint.to_string(),
        };
        if p.generic {
            scope.push_str(" · a common word: accept it alone, --all leaves it");
        }
        println!(
            "        {} · {} · seen in {} session(s) · confidence {:.2} · {}",
            p.kind.name(),
            p.assistant,
            p.seen,
            p.confidence,
            scope
        );
    }
    if !pending.is_empty() {
        eprintln!(
            "Accept with `tinylingo inbox accept ID`, reject with `tinylingo inbox reject ID`."
        );
    }
}
