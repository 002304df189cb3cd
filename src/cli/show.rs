//! Printing what commands find: `match`, `stats`, `config`, `doctor`.

use serde_json::json;

use super::{DoctorFormat, NOTHING, SUCCESS};
use crate::error::{Error, Result};
use crate::hook::Indexes;
use crate::index::HookIndex;
use crate::language::Language;
use crate::matching::case::CaseRule;
use crate::matching::{self, Origin, Outcome, Smart};
use crate::output::pretty_json;
use crate::output::{Format, Records};
use crate::platform::Platform;
use crate::project::{Filter, Scopes};
use crate::store::config::{self, Config};
use serde_json::Value;

/// Prints `doctor`'s checks: exit 0 when all hold, 1 otherwise.
pub(super) fn doctor(checks: &[crate::ops::doctor::Check], format: DoctorFormat) -> Result<u8> {
    match format {
        DoctorFormat::Json => {
            let list: Vec<_> = checks
                .iter()
                .map(|c| {
                    json!({
                        "check": c.check,
                        "assistant": c.assistant.map(Platform::name),
                        "ok": c.ok,
                        "detail": c.detail,
                        "fix": c.fix,
                    })
                })
                .collect();
            println!("{}", pretty_json(&list));
        }
        DoctorFormat::Text => {
            for c in checks {
                let who = c.assistant.map_or(String::new(), |p| format!("{} ", p.spec().display));
                let state = if c.ok { "ok  " } else { "FAIL" };
                println!("{state} {who}{}: {}", c.check, c.detail);
                if let Some(fix) = &c.fix {
                    println!("     fix: {fix}");
                }
            }
        }
    }
    Ok(if crate::ops::doctor::all_ok(checks) { SUCCESS } else { NOTHING })
}

pub(super) fn matches(scopes: &Scopes, message: &str, format: Format, no_llm: bool) -> Result<u8> {
    // The same indexes the hook uses; a stale one is rebuilt from the JSON files, which also
    // reports an unreadable glossary here, where the hook would stay silent.
    let index = HookIndex::open(&scopes.user)?;
    let data = index.data().ok_or_else(|| Error::bad_input("the index failed validation", None))?;
    let project = scopes.project_index()?;
    let indexes = Indexes { user: data, project: project.as_ref().and_then(HookIndex::data) };
    let key = crate::hook::api_key(&scopes.user, &data.settings);
    let smart = if no_llm {
        Smart::CandidatesOnly { threshold: data.settings.smart.fuzzy_threshold.to_native() }
    } else {
        crate::hook::smart_mode(&data.settings, &key)
    };
    let outcome = indexes.find(message, &smart);
    super::entries::note_untrusted(scopes);
    let found = !outcome.exact.is_empty() || !outcome.candidates.is_empty();
    match format {
        Format::Text => {
            print_match_text(&outcome, MatchLabels::of(data.settings.language.native()))
        }
        // The object `match --json` has always printed: exact hits and candidates apart.
        Format::Json => println!("{}", pretty_json(&outcome.to_json())),
        line => print!("{}", match_records(&outcome).render(line).unwrap_or_default()),
    }
    Ok(if found { SUCCESS } else { NOTHING })
}

/// The fields of `match`'s records in the line formats, in order (`scope` last, as in every
/// format).
const MATCH_FIELDS: &[&str] =
    &["kind", "term", "explanation", "score", "confirmed", "case", "scope"];

/// One record per hit: `kind` is `exact` or `candidate` (a fuzzy candidate; `confirmed` says
/// what the LLM said, null when it was not asked or failed); `case` is how an exact hit's
/// case was matched (null for a candidate, which fuzzy scoring found whatever its case).
fn match_records(o: &Outcome) -> Records {
    let mut records = Records::new(MATCH_FIELDS);
    for e in &o.exact {
        records.push(vec![
            json!("exact"),
            json!(e.term),
            json!(e.explanation),
            Value::Null,
            Value::Null,
            json!(CaseRule::of(e.term).name()),
            json!(e.origin.name()),
        ]);
    }
    for c in &o.candidates {
        records.push(vec![
            json!("candidate"),
            json!(c.entry.term),
            json!(c.entry.explanation),
            json!((c.score * 1e6).round() / 1e6),
            json!(c.confirmed),
            Value::Null,
            json!(c.entry.origin.name()),
        ]);
    }
    records
}

/// `match --platform`: the hook's own output for an event carrying `message`.
pub(super) fn injection(scopes: &Scopes, platform: Platform, message: String) -> Result<u8> {
    let index = HookIndex::open(&scopes.user)?;
    let data = index.data().ok_or_else(|| Error::bad_input("the index failed validation", None))?;
    let project = scopes.project_index()?;
    let indexes = Indexes { user: data, project: project.as_ref().and_then(HookIndex::data) };
    let event = crate::platform::Event { prompt: message, session: None, model: None, cwd: None };
    let (output, outcome) = crate::hook::respond(&scopes.user, platform, &indexes, &event);
    super::entries::note_untrusted(scopes);
    if let Some(text) = output {
        println!("{text}");
    }
    if outcome.hits().next().is_some() {
        return Ok(SUCCESS);
    }
    // The hook's "nothing" may be no output at all (Claude Code): say so rather than exit 1
    // in silence.
    eprintln!("Nothing would be injected: no term matches.");
    Ok(NOTHING)
}

/// The words of `match`'s text view, in the language of the settings the index holds (the
/// hook's, so that `match` and the injected block speak the same language).
struct MatchLabels {
    exact: &'static str,
    smart: &'static str,
    candidate: &'static str,
    confirmed: &'static str,
    rejected: &'static str,
    failed: &'static str,
    nothing: &'static str,
    /// Why an exact hit's case matched: the term ignores case, or is matched as written.
    any_case: &'static str,
    as_written: &'static str,
}

impl MatchLabels {
    fn of(language: Language) -> &'static MatchLabels {
        match language {
            Language::En => &MatchLabels {
                exact: "exact",
                smart: "smart",
                candidate: "candidate",
                confirmed: "LLM confirmed",
                rejected: "LLM rejected",
                failed: "LLM failed",
                nothing: "No matches found.",
                any_case: " (any case: lower case or Capitalised)",
                as_written: " (case as written: acronym or mixed case)",
            },
            Language::Zh => &MatchLabels {
                exact: "精确",
                smart: "智能",
                candidate: "候选",
                confirmed: "LLM 确认",
                rejected: "LLM 否决",
                failed: "LLM 失败",
                nothing: "未找到匹配。",
                any_case: "（不区分大小写：小写或首字母大写）",
                as_written: "（区分大小写：缩写或大小写混合）",
            },
        }
    }
}

fn print_match_text(o: &Outcome, words: &MatchLabels) {
    let scope = |origin: Origin| if origin == Origin::Project { "[project] " } else { "" };
    // A term with no letter that has case (CJK) says nothing about case.
    let case = |term: &str| match CaseRule::of(term) {
        CaseRule::Uncased => "",
        CaseRule::Ignored => words.any_case,
        CaseRule::Exact => words.as_written,
    };
    for e in &o.exact {
        let (tag, origin) = (words.exact, scope(e.origin));
        println!("[{tag}] {origin}{}{} → {}", e.term, case(e.term), e.explanation);
    }
    let failure = match &o.verdict {
        matching::Verdict::Failed(why) => Some(why.as_str()),
        _ => None,
    };
    for c in &o.candidates {
        let (tag, note) = match (c.confirmed, failure) {
            (Some(true), _) => (words.smart, format!(", {}", words.confirmed)),
            (Some(false), _) => (words.candidate, format!(", {}", words.rejected)),
            (None, Some(why)) => (words.candidate, format!(", {}: {why}", words.failed)),
            (None, None) => (words.candidate, String::new()),
        };
        println!(
            "[{tag}] {}{} (jaccard {:.2}{note}) → {}",
            scope(c.entry.origin),
            c.entry.term,
            c.score,
            c.entry.explanation
        );
    }
    if o.exact.is_empty() && o.candidates.is_empty() {
        eprintln!("{}", words.nothing);
    }
}

/// `stats`: a summary for people, the whole report as one JSON object, or one record per term
/// (`term`, `hits`, `last_hit`) in the line formats.
pub(super) fn stats(scopes: &Scopes, filter: Filter, format: Format) -> Result<u8> {
    let mut stats = crate::ops::stats::stats(scopes, filter)?;
    stats.proposals_pending = crate::learning::capture::pending(&scopes.user);
    match format {
        Format::Json => println!("{}", pretty_json(&stats.to_json())),
        Format::Text => print_stats_text(&stats, filter),
        line => print!("{}", stats.term_records().render(line).unwrap_or_default()),
    }
    Ok(SUCCESS)
}

fn print_stats_text(s: &crate::ops::stats::Stats, filter: Filter) {
    println!("terms          {}", s.terms);
    if let Some(p) = &s.project {
        let trust = if p.trusted { "trusted" } else { "NOT trusted: the hook does not use it" };
        println!("project        {} terms in {} ({trust})", p.terms, p.glossary);
    }
    println!("glossary.json  {}", human_bytes(s.glossary_bytes));
    match s.index_bytes {
        Some(b) => println!(
            "index          {}, {}",
            human_bytes(b),
            if s.index_fresh { "fresh" } else { "stale (the next prompt or command rebuilds it)" }
        ),
        None => println!("index          none yet (the next prompt or command builds it)"),
    }
    if !s.logging {
        println!("usage log      off (tinylingo config stats.enabled true turns it on)");
    }
    let since = s.since.map(crate::output::timestamp);
    let since = since.as_ref().and_then(Value::as_str).unwrap_or("-");
    // The log counts prompts, not glossaries: with one glossary asked for, say so.
    let any = if filter == Filter::Both { "" } else { "in any glossary, " };
    println!("prompts hit    {} ({any}since {since})", s.prompts_hit);
    println!("never hit      {} of {} terms", s.never_hit(), s.terms);
    let mut used: Vec<&(String, crate::store::usage::TermUsage, _, Origin)> =
        s.per_term.iter().filter(|(_, u, _, _)| u.hits > 0).collect();
    used.sort_by(|a, b| b.1.hits.cmp(&a.1.hits).then(b.1.last.cmp(&a.1.last)));
    if !used.is_empty() {
        println!("most hit:");
        for (term, u, _, _) in used.iter().take(10) {
            let last = crate::output::timestamp(
                std::time::UNIX_EPOCH + std::time::Duration::from_secs(u.last),
            );
            println!("  {:>6}  {term}  (last {})", u.hits, last.as_str().unwrap_or("-"));
        }
    }
    if !s.credentials.is_empty() {
        println!("credentials    {} entries hold what looks like one:", s.credentials.len());
        for c in &s.credentials {
            println!("  {}", crate::guard::credential_line(c));
        }
    }
    match crate::learning::capture::pending_line(s.proposals_pending) {
        Some(line) => println!("proposals      {line}"),
        None => println!("proposals      none waiting"),
    }
    if s.never_hit() > 0 && s.prompts_hit > 0 {
        println!("list the terms never hit: tinylingo stats --format tsv | awk -F'\\t' '$2 == 0'");
    }
}

/// A size for people: bytes, KiB or MiB.
fn human_bytes(b: u64) -> String {
    match b {
        0..1024 => format!("{b} B"),
        1024..1_048_576 => format!("{:.1} KiB", b as f64 / 1024.0),
        _ => format!("{:.1} MiB", b as f64 / 1_048_576.0),
    }
}

/// The fields of `config`'s records in the line formats.
const CONFIG_FIELDS: &[&str] = &["key", "value"];

/// `config`: the settings in effect. Text and JSON print the object (the shape of
/// `config.json`); the line formats one `key`, `value` record per setting.
pub(super) fn config_all(config: &Config, format: Format) -> Result<u8> {
    let keys = || crate::store::config::known_keys().chain([config::TRUST_KEY]);
    match format {
        Format::Json => println!("{}", pretty_json(&config.effective())),
        // For people: one `key  value` line each, a one-line text bare.
        Format::Text => {
            let width = keys().map(str::len).max().unwrap_or(0);
            for key in keys() {
                let value = config.get(key)?;
                let shown = match value.as_str() {
                    Some(text) if !text.contains('\n') => text.to_string(),
                    _ => value.to_string(),
                };
                println!("{key:width$}  {shown}");
            }
        }
        line => {
            let mut records = Records::new(CONFIG_FIELDS);
            for key in keys() {
                records.push(vec![json!(key), config.get(key)?]);
            }
            print!("{}", records.render(line).unwrap_or_default());
        }
    }
    Ok(SUCCESS)
}

/// `config <key>`: text prints a text value bare (for `$(tinylingo config smart.model)`).
pub(super) fn config_one(config: &Config, key: &str, format: Format) -> Result<u8> {
    let value = config.get(key)?;
    match (format, value.as_str()) {
        (Format::Text, Some(text)) => println!("{text}"),
        (Format::Text | Format::Json, _) => println!("{}", pretty_json(&value)),
        (line, _) => {
            let mut records = Records::new(CONFIG_FIELDS);
            records.push(vec![json!(key), value]);
            print!("{}", records.render(line).unwrap_or_default());
        }
    }
    Ok(SUCCESS)
}
