//! Printing the glossary's entries: `list`, `search`, `export`, `import`, `remove`.

use std::io::{BufRead, IsTerminal, Read, Write};

use super::{NOTHING, SUCCESS};
use crate::actions;
use crate::error::{Error, Result};
use crate::exchange::{self, entry_records, ExportFormat, ImportFormat, OnConflict};
use crate::index::read_glossary;
use crate::output::Format;
use crate::removal;
use crate::search::{Query, Scope};
use crate::store::Store;

/// Entries for people: `term: explanation`, a multi-line explanation's further lines indented
/// so that each entry still starts at the left margin.
fn text_lines<'g>(entries: impl Iterator<Item = (&'g str, &'g str)>) -> String {
    let mut out = String::new();
    for (term, explanation) in entries {
        out.push_str(term);
        out.push_str(": ");
        out.push_str(&explanation.replace('\n', "\n  "));
        out.push('\n');
    }
    out
}

/// Entries in `format`, built whole before anything is printed.
fn render<'g>(entries: impl Iterator<Item = (&'g str, &'g str)>, format: Format) -> String {
    match format {
        Format::Text => text_lines(entries),
        machine => entry_records(entries).render(machine).unwrap_or_default(),
    }
}

fn print_out(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth a message.
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::io("standard output", "write", e))
        }
        _ => Ok(()),
    }
}

pub(super) fn list(store: &Store, format: Format) -> Result<u8> {
    let (text, empty) = read_glossary(store, |g| (render(g.iter(), format), g.is_empty()))?;
    if empty && format == Format::Text {
        eprintln!("No entries recorded.");
    }
    print_out(&text)?;
    Ok(SUCCESS)
}

pub(super) fn search(store: &Store, query: &str, term_only: bool, format: Format) -> Result<u8> {
    let scope = if term_only { Scope::TermOnly } else { Scope::Both };
    let (text, found) = read_glossary(store, |g| {
        let q = Query::new(query, scope);
        let hits: Vec<(&str, &str)> = g.iter().filter(|(t, e)| q.matches(t, e)).collect();
        (render(hits.iter().copied(), format), !hits.is_empty())
    })?;
    print_out(&text)?;
    if found {
        return Ok(SUCCESS);
    }
    if format == Format::Text {
        eprintln!("No entry matches \"{query}\".");
    }
    Ok(NOTHING)
}

pub(super) fn export(store: &Store, format: ExportFormat, search: Option<&str>) -> Result<u8> {
    let text = read_glossary(store, |g| {
        let q = search.map(|s| Query::new(s, Scope::Both));
        let selected = g.iter().filter(|(t, e)| q.as_ref().is_none_or(|q| q.matches(t, e)));
        exchange::export(selected, format)
    })?;
    print_out(&text)?;
    Ok(SUCCESS)
}

pub(super) fn import(
    store: &Store,
    file: &str,
    format: ImportFormat,
    on_conflict: OnConflict,
    dry_run: bool,
    json: bool,
) -> Result<u8> {
    let (source, bytes) = if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Error::io("standard input", "read", e))?;
        ("standard input".to_string(), bytes)
    } else {
        let bytes = std::fs::read(file).map_err(|e| Error::io(file, "read", e))?;
        (file.to_string(), bytes)
    };
    let entries = exchange::parse(&source, &bytes, format)?;
    let report = exchange::import(store, &entries, on_conflict, dry_run)?;
    if json {
        print_out(&format!("{}\n", report.to_json()))?;
    }
    eprintln!("{}", report.summary());
    Ok(SUCCESS)
}

pub(super) fn remove(
    store: &Store,
    terms: &[String],
    search: Option<&str>,
    term_only: bool,
    confirm: Option<&str>,
    yes: bool,
) -> Result<u8> {
    let scope = if term_only { Scope::TermOnly } else { Scope::Both };
    let removed = match (search, confirm) {
        (_, Some(code)) => removal::confirm(store, code)?,
        (Some(query), None) if yes => removal::remove_matching(store, query, scope)?,
        (Some(query), None) => return preview(store, query, scope),
        (None, None) => {
            // A term named twice is removed once, not refused the second time.
            let mut unique: Vec<String> = Vec::with_capacity(terms.len());
            for t in terms {
                if !unique.contains(t) {
                    unique.push(t.clone());
                }
            }
            actions::remove(store, &unique)?
        }
    };
    report_removed(&removed);
    Ok(SUCCESS)
}

fn report_removed(removed: &[String]) {
    if removed.len() <= 20 {
        for term in removed {
            eprintln!("Removed: {term}");
        }
    } else {
        eprintln!("Removed {} entries.", removed.len());
    }
}

/// `remove --search` without `--yes`: show what would go, then ask for the code (on a
/// terminal) or print it with the command that uses it (exit 1: nothing removed yet).
fn preview(store: &Store, query: &str, scope: Scope) -> Result<u8> {
    let p = removal::preview(store, query, scope)?;
    let n = p.entries.len();
    let mut text = format!(
        "{n} {} \"{query}\" and would be removed:\n",
        if n == 1 { "entry matches" } else { "entries match" }
    );
    let terms: Vec<&str> = p.entries.iter().map(|(t, _)| t.as_str()).take(50).collect();
    text.push_str(&format!("  {}", terms.join(", ")));
    if n > 50 {
        text.push_str(&format!(", … and {} more", n - 50));
    }
    text.push('\n');
    for (term, explanation) in p.entries.iter().take(3) {
        let short: String = explanation.chars().take(120).collect();
        let more = if short.len() < explanation.len() { "…" } else { "" };
        text.push_str(&format!("  {term}: {}{more}\n", short.replace('\n', " ")));
    }
    eprint!("{text}");
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !interactive {
        eprintln!(
            "Nothing removed yet. To remove them: tinylingo remove --confirm {} (valid 5 minutes)",
            p.code
        );
        // The code alone on stdout, for a script: code=$(tinylingo remove --search …).
        print_out(&format!("{}\n", p.code))?;
        return Ok(NOTHING);
    }
    eprint!(
        "Type {} to remove {} (anything else keeps them): ",
        p.code,
        if n == 1 { "it" } else { "them" }
    );
    let mut answer = String::new();
    let _ = std::io::stdin().lock().read_line(&mut answer);
    if !answer.trim().eq_ignore_ascii_case(&p.code) {
        eprintln!("Nothing removed.");
        return Ok(NOTHING);
    }
    report_removed(&removal::confirm(store, &p.code)?);
    Ok(SUCCESS)
}
