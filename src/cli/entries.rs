//! Printing the glossary's entries: `list`, `search`, `export`, `import`, `remove`.

use std::io::{BufRead, IsTerminal, Read, Write};

use super::{NOTHING, SUCCESS};
use crate::error::{Error, Result};
use crate::matching::Origin;
use crate::ops::actions;
use crate::ops::exchange::{self, entry_records, ExportFormat, ImportFormat, OnConflict, Scoped};
use crate::ops::removal;
use crate::ops::search::{Query, Scope};
use crate::output::{timestamp, Format, Records};
use crate::project::{Filter, Scopes};
use crate::store::{Glossary, Store};
use serde_json::{json, Value};

/// Entries for people: `term: explanation`, a multi-line explanation's further lines indented
/// so that each entry still starts at the left margin; a project's entries start with
/// `[project]`.
fn text_lines<'g>(entries: impl Iterator<Item = Scoped<'g>>) -> String {
    let mut out = String::new();
    for (origin, term, explanation) in entries {
        if origin == Origin::Project {
            out.push_str("[project] ");
        }
        out.push_str(term);
        out.push_str(": ");
        out.push_str(&explanation.replace('\n', "\n  "));
        out.push('\n');
    }
    out
}

/// Entries in `format`, built whole before anything is printed.
fn render<'g>(entries: impl Iterator<Item = Scoped<'g>>, format: Format) -> String {
    match format {
        Format::Text => text_lines(entries),
        machine => entry_records(entries).render(machine).unwrap_or_default(),
    }
}

/// Every entry of `glossaries`, the project's first.
fn scoped<'g>(glossaries: &'g [(Origin, &Glossary)]) -> impl Iterator<Item = Scoped<'g>> + 'g {
    glossaries.iter().flat_map(|(origin, g)| g.iter().map(move |(t, e)| (*origin, t, e)))
}

pub(super) fn print_out(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    // A closed pipe (`| head`) is not an error worth a message.
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Error::io("standard output", "write", e))
        }
        _ => Ok(()),
    }
}

/// Says on stderr that the project glossary here is not trusted, and how to trust it.
pub(super) fn note_untrusted(scopes: &Scopes) {
    if let Some(p) = scopes.project.as_ref().filter(|_| !scopes.trusted) {
        eprintln!(
            "tinylingo: note: the project glossary {} is not trusted, so the hook does not use \
             it; to trust it: {}",
            p.glossary_path().display(),
            p.trust_command()
        );
    }
}

/// The fields of `list --recent`'s records: an entry, when it was recorded, its scope.
const RECENT_FIELDS: &[&str] = &["term", "explanation", "recorded", "scope"];

pub(super) fn list(
    scopes: &Scopes,
    filter: Filter,
    format: Format,
    recent: Option<usize>,
) -> Result<u8> {
    let (text, empty) = scopes.read(filter, |g| {
        let empty = g.iter().all(|(_, g)| g.is_empty());
        match recent {
            None => (render(scoped(g), format), empty),
            Some(n) => (render_recent(scopes, g, n, format), empty),
        }
    })?;
    if empty && format == Format::Text {
        eprintln!("No entries recorded.");
    }
    if filter != Filter::User {
        note_untrusted(scopes);
    }
    print_out(&text)?;
    Ok(SUCCESS)
}

/// `list --recent N`: newest first, over the glossaries shown; a term recorded before times
/// were kept (or by hand) has no time, and comes after those that have one.
fn render_recent(
    scopes: &Scopes,
    glossaries: &[(Origin, &Glossary)],
    n: usize,
    format: Format,
) -> String {
    let mut recent: Vec<(Origin, String, Option<std::time::SystemTime>)> = Vec::new();
    for (origin, g) in glossaries {
        let times = crate::store::recorded::recent(scopes.store_of(*origin), g, n);
        recent.extend(times.into_iter().map(|(t, when)| (*origin, t, when)));
    }
    // Newest first, the unknown times (`None`, the smallest) last; stable, so each
    // glossary's own order stays among equals.
    recent.sort_by_key(|r| std::cmp::Reverse(r.2));
    recent.truncate(n);
    let mut records = Records::new(RECENT_FIELDS);
    let mut text = String::new();
    for (origin, term, when) in &recent {
        let g = glossaries.iter().find(|(o, _)| o == origin).map(|(_, g)| g);
        let explanation = g.and_then(|g| g.get(term)).unwrap_or_default();
        let stamp = when.map_or(Value::Null, timestamp);
        if format == Format::Text {
            let at = stamp.as_str().map_or("(time unknown)".to_string(), |t| t.replace('T', " "));
            let scope = if *origin == Origin::Project { "[project] " } else { "" };
            text.push_str(&format!("{at}  {scope}{term}: {}\n", explanation.replace('\n', "\n  ")));
        }
        records.push(vec![json!(term), json!(explanation), stamp, json!(origin.name())]);
    }
    records.render(format).unwrap_or(text)
}

pub(super) fn search(
    scopes: &Scopes,
    filter: Filter,
    query: &str,
    term_only: bool,
    format: Format,
) -> Result<u8> {
    let scope = if term_only { Scope::TermOnly } else { Scope::Both };
    let (text, found) = scopes.read(filter, |g| {
        let q = Query::new(query, scope);
        let hits: Vec<Scoped> = scoped(g).filter(|(_, t, e)| q.matches(t, e)).collect();
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

/// `export`. JSON is one glossary file, so it takes one scope: without `--project` it is the
/// user's glossary, as it always was (`export > backup.json` still backs up what it did).
pub(super) fn export(
    scopes: &Scopes,
    filter: Filter,
    format: ExportFormat,
    search: Option<&str>,
) -> Result<u8> {
    let filter = match (format, filter) {
        (ExportFormat::Json, Filter::Both) => {
            if let Some(p) = &scopes.project {
                eprintln!(
                    "tinylingo: note: JSON export is one glossary: the user's; the project \
                     glossary {} is exported by: tinylingo export --project",
                    p.glossary_path().display()
                );
            }
            Filter::User
        }
        (_, f) => f,
    };
    let text = scopes.read(filter, |g| {
        let q = search.map(|s| Query::new(s, Scope::Both));
        let selected = scoped(g).filter(|(_, t, e)| q.as_ref().is_none_or(|q| q.matches(t, e)));
        exchange::export(selected, format)
    })?;
    print_out(&text)?;
    Ok(SUCCESS)
}

/// `record TERM -`: the explanation from standard input, UTF-8, without surrounding white
/// space (the line break a file or `echo` ends with is not part of it).
pub(super) fn explanation_from_stdin() -> Result<String> {
    let bytes = stdin_bytes()?;
    let hint = || Some("pipe the explanation in: tinylingo record <term> - < notes.md".into());
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::bad_input(
            format!("the explanation on standard input is not UTF-8 text ({e})"),
            hint(),
        )
    })?;
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::bad_input("the explanation on standard input is empty", hint()));
    }
    Ok(text.to_string())
}

fn stdin_bytes() -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).map_err(|e| Error::io("standard input", "read", e))?;
    Ok(bytes)
}

/// Where an import goes: the store, and how a credential in an entry is refused (`None`:
/// `--allow-secret`).
pub(super) struct Target<'s> {
    pub store: &'s Store,
    pub secrets: Option<crate::guard::secrets::Policy>,
}

pub(super) fn import(
    Target { store, secrets }: Target,
    file: &str,
    format: ImportFormat,
    on_conflict: OnConflict,
    dry_run: bool,
    json: bool,
) -> Result<u8> {
    let (source, bytes) = if file == "-" {
        ("standard input".to_string(), stdin_bytes()?)
    } else {
        let bytes = std::fs::read(file).map_err(|e| Error::io(file, "read", e))?;
        (file.to_string(), bytes)
    };
    let entries = exchange::parse(&source, &bytes, format)?;
    if let Some(policy) = secrets {
        crate::guard::secrets::screen_entries(&source, &entries, policy)?;
    }
    let report = exchange::import(store, &entries, on_conflict, dry_run)?;
    if json {
        print_out(&format!("{}\n", report.to_json()))?;
    }
    eprintln!("{}", report.summary());
    if let Some(warning) = report.warning() {
        eprintln!("tinylingo: warning: {warning}");
    }
    Ok(SUCCESS)
}

pub(super) fn remove(
    store: &Store,
    terms: &[String],
    search: Option<&str>,
    term_only: bool,
    confirm: Option<&str>,
    yes: bool,
    project: bool,
) -> Result<u8> {
    let scope = if term_only { Scope::TermOnly } else { Scope::Both };
    let removed = match (search, confirm) {
        (_, Some(code)) => removal::confirm(store, code)?,
        (Some(query), None) if yes => removal::remove_matching(store, query, scope)?,
        (Some(query), None) => return preview(store, query, scope, project),
        (None, None) => actions::remove(store, terms)?,
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
fn preview(store: &Store, query: &str, scope: Scope, project: bool) -> Result<u8> {
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
            "Nothing removed yet. To remove them: tinylingo remove {}--confirm {} (valid 5 \
             minutes)",
            if project { "--project " } else { "" },
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
