//! Printing `check`: the entries that have gone false or unused, then the commands that fix
//! them.

use super::entries::print_out;
use super::{NOTHING, SUCCESS};
use crate::error::Result;
use crate::guard::check::{Problem, Report};
use crate::matching::Origin;
use crate::output::{timestamp, Format};

/// Prints the report: exit 0 when nothing was found, 1 when something was.
pub(super) fn print(report: &Report, format: Format) -> Result<u8> {
    for note in &report.notes {
        eprintln!("tinylingo: note: {note}");
    }
    let text = match format {
        Format::Text => text(report),
        Format::Json => {
            let mut json = crate::store::glossary::pretty_json(&report.to_json());
            json.push('\n');
            json
        }
        machine => report.records().render(machine).unwrap_or_default(),
    };
    if report.issues.is_empty() && format == Format::Text {
        eprintln!(
            "No entry names a missing path{} ({} entries checked against {} files).",
            if report.unused_checked { " or went unused" } else { "" },
            report.entries,
            report.files
        );
    }
    print_out(&text)?;
    Ok(if report.issues.is_empty() { SUCCESS } else { NOTHING })
}

fn text(report: &Report) -> String {
    let mut out = String::new();
    for issue in report.issues.iter().chain(&report.unknown) {
        if issue.origin == Origin::Project {
            out.push_str("[project] ");
        }
        out.push_str(&issue.term);
        out.push_str(": ");
        match &issue.problem {
            Problem::MissingPath { path, renamed: Some(new), .. } => {
                out.push_str(&format!("{path} no longer exists; now {new}?\n"))
            }
            Problem::MissingPath { path, renamed: None, .. } => {
                out.push_str(&format!("{path} no longer exists\n"))
            }
            Problem::Unused { last_hit: Some(at) } => {
                let at = timestamp(*at);
                out.push_str(&format!("unused: last hit {}\n", at.as_str().unwrap_or("?")))
            }
            Problem::Unused { last_hit: None } => out.push_str("unused: never hit\n"),
            Problem::Unknown => out.push_str("unknown: no usage seen on this machine yet\n"),
        }
    }
    if !report.fixes.is_empty() {
        out.push_str("\nNothing was changed. To fix or remove each entry:\n");
        for fix in &report.fixes {
            out.push_str("  ");
            out.push_str(&fix.command);
            out.push('\n');
        }
    }
    out
}
