//! `export` and `import`: moving a glossary between machines, tools and people.
//!
//! `export` writes the entries in the formats of [`crate::output`] plus two of its own: `json`
//! is the glossary file itself (a flat object, which the original tool and `import` both
//! read) and `md` a table for a wiki page or a README. `import` reads what `export` writes, and
//! the original tool's `glossary.json`.
//!
//! An import is all or nothing: every line is checked before anything is written, a conflict
//! with an existing entry refuses the whole import unless the user said which side wins, and
//! the result is one atomic write of `glossary.json` and one index rebuild, under the store's
//! lock like every other change.

use std::path::Path;

use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::matching::Origin;
use crate::ops::actions;
use crate::output::pretty_json;
use crate::output::{unescape_tsv, Format, Records};
use crate::store::config::Config;
use crate::store::files::json_detail;
use crate::store::glossary::checked_entry;
use crate::store::{Glossary, Store};

/// The fields every entry prints with, in order. `scope` (`project` or `user`) is last, so that
/// `cut -f1,2` of the TSV is still term and explanation.
pub const ENTRY_FIELDS: &[&str] = &["term", "explanation", "scope"];

/// An entry with the glossary it comes from.
pub type Scoped<'g> = (Origin, &'g str, &'g str);

/// What `export` writes.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportFormat {
    /// The glossary file's own format: one JSON object, term → explanation.
    #[default]
    Json,
    /// One `{"term": …, "explanation": …, "scope": …}` object a line.
    Jsonl,
    /// `term<TAB>explanation<TAB>scope` a line, `\t` `\n` `\r` `\\` escaped.
    Tsv,
    /// A Markdown table, for reading (import does not take it).
    Md,
}

/// The entries as `export` prints them. JSON is one glossary's file: the caller passes the
/// entries of one scope. Markdown gets a Scope column when a project's entries are there.
pub fn export<'g>(entries: impl Iterator<Item = Scoped<'g>>, format: ExportFormat) -> String {
    match format {
        ExportFormat::Json => {
            // Exactly what `glossary.json` holds for these entries (plus a final newline).
            let glossary: Glossary = entries.map(|(_, t, e)| (t, e)).collect();
            let mut text = glossary.to_json();
            text.push('\n');
            text
        }
        ExportFormat::Jsonl => entry_records(entries).render(Format::Jsonl).unwrap_or_default(),
        ExportFormat::Tsv => entry_records(entries).render(Format::Tsv).unwrap_or_default(),
        ExportFormat::Md => {
            let entries: Vec<Scoped> = entries.collect();
            let scoped = entries.iter().any(|(o, _, _)| *o == Origin::Project);
            let mut out = String::from(if scoped {
                "| Term | Explanation | Scope |\n|---|---|---|\n"
            } else {
                "| Term | Explanation |\n|---|---|\n"
            });
            for (origin, term, explanation) in entries {
                out.push_str(&format!("| {} | {} |", md_cell(term), md_cell(explanation)));
                if scoped {
                    out.push_str(&format!(" {} |", origin.name()));
                }
                out.push('\n');
            }
            out
        }
    }
}

/// Entries as [`Records`] with the fields `term`, `explanation`, `scope`.
pub fn entry_records<'g>(entries: impl Iterator<Item = Scoped<'g>>) -> Records {
    let mut records = Records::new(ENTRY_FIELDS);
    for (origin, term, explanation) in entries {
        records.push(vec![json!(term), json!(explanation), json!(origin.name())]);
    }
    records
}

/// Text in a Markdown table cell: a pipe would end the cell and a newline the row.
fn md_cell(text: &str) -> String {
    text.replace('\\', "\\\\").replace('|', "\\|").replace("\r\n", "<br>").replace('\n', "<br>")
}

/// What `import` reads.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ImportFormat {
    /// Decided from the text: JSONL when the first line is an object with `term` and
    /// `explanation`, JSON when it starts with `{` or `[`, TSV otherwise.
    #[default]
    Auto,
    /// A JSON object of term → explanation (a `glossary.json`), or an array of
    /// `{"term", "explanation"}` objects (`list --format json`).
    Json,
    /// One `{"term", "explanation"}` object a line (other fields are ignored).
    Jsonl,
    /// `term<TAB>explanation` a line, as `export --format tsv` escapes them; a third field
    /// (the scope `export` writes) is ignored.
    Tsv,
}

/// Reads entries from `bytes` (the file `source` names, for messages). Bad input is an error
/// naming the line; blank lines in JSONL and TSV are skipped.
pub fn parse(source: &str, bytes: &[u8], format: ImportFormat) -> Result<Vec<(String, String)>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        bad_line(source, line, "not UTF-8 text".into())
    })?;
    let format = match format {
        ImportFormat::Auto if is_markdown(source, text) => {
            return Err(Error::bad_input(
                format!(
                    "{source} is Markdown: `export --format md` writes it for people to read, \
                     and import does not read it back"
                ),
                Some(
                    "import reads JSON, JSONL or TSV: export one of those (tinylingo export \
                     --format tsv > terms.tsv)"
                        .into(),
                ),
            ))
        }
        ImportFormat::Auto => detect(text),
        f => f,
    };
    let entries = match format {
        ImportFormat::Json => parse_json(source, text)?,
        ImportFormat::Jsonl => parse_jsonl(source, text)?,
        ImportFormat::Tsv | ImportFormat::Auto => parse_tsv(source, text)?,
    };
    // The same checks `record` makes, so that an import cannot store what `record` refuses.
    let mut seen: ahash::AHashMap<&str, &str> = ahash::AHashMap::with_capacity(entries.len());
    // Trimmed as `record` trims; `force`: the original tool's glossary may hold a one-letter
    // term, which a person would have to confirm with `record --force` (see checked_entry).
    let entries: Vec<(String, String)> = entries
        .iter()
        .map(|(t, e)| {
            checked_entry(t, e, true)
                .map(|(t, e)| (t.to_string(), e.to_string()))
                .map_err(|err| Error::bad_input(format!("{source}: \"{t}\": {err}"), err.hint()))
        })
        .collect::<Result<_>>()?;
    for (term, explanation) in &entries {
        match seen.insert(term, explanation) {
            Some(other) if other != explanation => {
                return Err(Error::bad_input(
                    format!("{source}: the term \"{term}\" appears twice, with two explanations"),
                    Some("keep one of them and import again".into()),
                ))
            }
            _ => {}
        }
    }
    Ok(entries)
}

/// A Markdown file by its name, or a table such as `export --format md` writes (a row, then a
/// `|---|` line), which no TSV has.
fn is_markdown(source: &str, text: &str) -> bool {
    let named = [".md", ".markdown"].iter().any(|ext| source.to_ascii_lowercase().ends_with(ext));
    let mut lines = text.trim_start().lines();
    let table = lines.next().is_some_and(|l| l.starts_with('|'))
        && lines.next().is_some_and(|l| l.starts_with("|-") || l.starts_with("|:-"));
    named || table
}

fn detect(text: &str) -> ImportFormat {
    let trimmed = text.trim_start();
    let first_line = trimmed.lines().next().unwrap_or("");
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(first_line) {
        if o.get("term").is_some_and(Value::is_string)
            && o.get("explanation").is_some_and(Value::is_string)
        {
            return ImportFormat::Jsonl;
        }
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        ImportFormat::Json
    } else {
        ImportFormat::Tsv
    }
}

fn bad_line(source: &str, line: usize, problem: String) -> Error {
    Error::bad_input(
        format!("{source} line {line}: {problem}"),
        Some("nothing was imported; fix that line (or choose --format) and import again".into()),
    )
}

fn parse_json(source: &str, text: &str) -> Result<Vec<(String, String)>> {
    if text.trim_start().starts_with('[') {
        let items: Vec<Value> =
            serde_json::from_str(text).map_err(|e| bad_line(source, e.line(), json_detail(&e)))?;
        return items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                entry_object(item).ok_or_else(|| {
                    Error::bad_input(
                        format!("{source}: item {} is not a {{\"term\", \"explanation\"}} object of strings", i + 1),
                        Some("nothing was imported".into()),
                    )
                })
            })
            .collect();
    }
    // The glossary file's own parser: the same duplicate-key and shape checks.
    let glossary = Glossary::parse(Path::new(source), text.as_bytes()).map_err(|e| match e {
        Error::BadFile { line: Some(line), problem, .. } => bad_line(source, line, problem),
        other => other,
    })?;
    Ok(glossary.iter().map(|(t, e)| (t.to_string(), e.to_string())).collect())
}

fn entry_object(item: &Value) -> Option<(String, String)> {
    Some((item.get("term")?.as_str()?.to_string(), item.get("explanation")?.as_str()?.to_string()))
}

fn parse_jsonl(source: &str, text: &str) -> Result<Vec<(String, String)>> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let item: Value = serde_json::from_str(line).map_err(|e| {
            bad_line(source, i + 1, format!("not a JSON object: {}", json_detail(&e)))
        })?;
        let entry = entry_object(&item).ok_or_else(|| {
            bad_line(
                source,
                i + 1,
                "expected {\"term\": …, \"explanation\": …} with strings".into(),
            )
        })?;
        entries.push(entry);
    }
    Ok(entries)
}

fn parse_tsv(source: &str, text: &str) -> Result<Vec<(String, String)>> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let (term, explanation) = match fields[..] {
            [term, explanation] => (term, explanation),
            // What `export --format tsv` writes: the scope last; the import's target is the
            // glossary the command names, not the one the entry came from.
            [term, explanation, "project" | "user"] => (term, explanation),
            _ => {
                return Err(bad_line(
                    source,
                    i + 1,
                    format!(
                        "expected 2 tab-separated fields (term, explanation) and optionally a \
                         scope, found {}",
                        fields.len()
                    ),
                ))
            }
        };
        let unescape = |f: &str| {
            unescape_tsv(f).ok_or_else(|| {
                bad_line(source, i + 1, "a backslash not followed by t, n, r or \\".into())
            })
        };
        entries.push((unescape(term)?, unescape(explanation)?));
    }
    Ok(entries)
}

/// What to do with an imported term that is recorded with another explanation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnConflict {
    /// Refuse the whole import and list the conflicts.
    #[default]
    Refuse,
    /// Keep ours (`--skip-existing`).
    Keep,
    /// Take theirs (`--replace`).
    Replace,
}

/// What an import did (or, with `dry_run`, would do).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub added: Vec<String>,
    pub replaced: Vec<String>,
    /// Conflicting terms whose recorded explanation was kept.
    pub skipped: Vec<String>,
    /// Terms recorded already with the same explanation.
    pub unchanged: usize,
    pub dry_run: bool,
    /// Added or replaced terms whose explanation the injected block cannot show whole
    /// (`inject.maxChars`), as `record` warns.
    pub too_long: Vec<String>,
    /// `inject.maxChars` when the import was made.
    pub max_chars: u32,
}

/// Imports `entries` into the store: one transaction, nothing written on a refusal or with
/// `dry_run`. New terms are appended in the order given; replaced ones keep their place.
pub fn import(
    store: &Store,
    entries: &[(String, String)],
    on_conflict: OnConflict,
    dry_run: bool,
) -> Result<Report> {
    let _lock = if dry_run && !store.dir().is_dir() { None } else { Some(store.lock()?) };
    let current = crate::index::CurrentIndex::open(store);
    let mut glossary = actions::load_glossary(store, current.as_ref())?;
    let mut report = Report { dry_run, ..Report::default() };
    let conflicts: Vec<(&str, String, &str)> = entries
        .iter()
        .filter_map(|(t, e)| match glossary.get(t) {
            Some(ours) if ours != e => Some((t.as_str(), ours.to_string(), e.as_str())),
            _ => None,
        })
        .collect();
    if !conflicts.is_empty() && on_conflict == OnConflict::Refuse {
        let mut problem = format!(
            "{} imported term{} recorded with another explanation; nothing was imported:",
            conflicts.len(),
            if conflicts.len() == 1 { " is" } else { "s are" }
        );
        for (term, ours, theirs) in conflicts.iter().take(10) {
            let one_line = |s: &str| s.replace('\n', "\\n");
            problem.push_str(&format!(
                "\n  {term}\n    recorded: {}\n    imported: {}",
                one_line(ours),
                one_line(theirs)
            ));
        }
        if conflicts.len() > 10 {
            problem.push_str(&format!("\n  … and {} more", conflicts.len() - 10));
        }
        return Err(Error::Refused {
            problem,
            hint: Some("--skip-existing keeps the recorded ones, --replace takes the imported ones; --dry-run shows the result first".into()),
        });
    }
    for (term, explanation) in entries {
        match glossary.get(term) {
            None => {
                glossary.insert_owned(term, explanation);
                report.added.push(term.clone());
            }
            Some(ours) if ours == explanation => report.unchanged += 1,
            Some(_) if on_conflict == OnConflict::Replace => {
                glossary.insert_owned(term, explanation);
                report.replaced.push(term.clone());
            }
            Some(_) => report.skipped.push(term.clone()),
        }
    }
    // A broken config.json is reported by `config`; here its defaults apply, as in `record`.
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    report.max_chars = settings.inject.max_chars;
    report.too_long = report
        .added
        .iter()
        .chain(&report.replaced)
        .filter(|t| {
            let explanation = glossary.get(t).unwrap_or_default();
            actions::block_warning(t, explanation, &settings).is_some()
        })
        .cloned()
        .collect();
    let changed = !report.added.is_empty() || !report.replaced.is_empty();
    if changed && !dry_run {
        actions::save(store, &glossary)?;
        // The times are an aid (see `recorded`): the import is written, whatever happens here.
        let terms: Vec<&str> =
            report.added.iter().chain(&report.replaced).map(String::as_str).collect();
        let _ =
            crate::store::recorded::note(store, &glossary, &terms, std::time::SystemTime::now());
    }
    Ok(report)
}

impl Report {
    /// The report's lines for people (stderr).
    pub fn summary(&self) -> String {
        let verb = if self.dry_run { "Would import" } else { "Imported" };
        format!(
            "{verb}: {} added, {} replaced, {} skipped (kept ours), {} unchanged",
            self.added.len(),
            self.replaced.len(),
            self.skipped.len(),
            self.unchanged
        )
    }

    /// The warning about explanations the injected block cannot show whole, if any.
    pub fn warning(&self) -> Option<String> {
        let n = self.too_long.len();
        if n == 0 {
            return None;
        }
        let mut names = self.too_long.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
        if n > 5 {
            names.push_str(&format!(", … and {} more", n - 5));
        }
        Some(format!(
            "the injected block holds at most {} characters (inject.maxChars), so prompts will \
             see {n} imported explanation{} cut short: {names}",
            self.max_chars,
            if n == 1 { "" } else { "s" },
        ))
    }

    /// The report as one JSON object, for `--format json`.
    pub fn to_json(&self) -> String {
        pretty_json(&json!({
            "dry_run": self.dry_run,
            "added": self.added,
            "replaced": self.replaced,
            "skipped": self.skipped,
            "unchanged": self.unchanged,
        }))
    }
}
