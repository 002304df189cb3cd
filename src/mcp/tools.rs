//! The tools: their names, descriptions and argument schemas, and what each call does.
//!
//! Every tool is a thin front-end over the library function the CLI calls for the same
//! command ([`actions::record`], [`actions::remove`], [`removal`]'s two steps,
//! [`crate::ops::search`], [`crate::ops::stats`], [`crate::guard::check`], [`crate::store::Glossary::load`], [`crate::hook::respond`],
//! [`journal::day`], [`crate::learning`]): the same locks, atomic writes, index rebuild and checks, and the same
//! errors. What differs is only the shape of the answer (JSON, see [`super::hybrid`]) and how a
//! refusal travels (an MCP tool error, see [`super::server`]).
//!
//! Arguments are checked before anything runs: a missing, ill-typed or unknown argument is a
//! [`Error::BadInput`] naming the problem and the tool's arguments, never a panic.

mod learning;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::hybrid::Payload;
use crate::error::{Error, Result};
use crate::guard::secrets::Policy;
use crate::hook::Indexes;
use crate::index::HookIndex;
use crate::journal;
use crate::matching::Origin;
use crate::ops::actions;
use crate::ops::removal;
use crate::ops::search::Scope;
use crate::platform::{Event, Platform};
use crate::project::{Filter, Scopes};
use crate::store::glossary::Recorded;
use crate::store::Store;

/// A tool as `tools/list` shows it.
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    /// The JSON schema of the arguments (an object schema).
    pub schema: fn() -> Value,
    /// Whether the tool changes nothing (a hint to the client).
    pub read_only: bool,
}

/// Every tool, in the order `tools/list` gives them. The names are stable: instruction blocks
/// and users' habits refer to them.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "record",
        description: "Record a project term (or a behaviour rule) in the user's shared \
            tinylingo glossary. From then on, whenever a prompt mentions the term, its \
            explanation is injected before the prompt, in every assistant. Record when the user \
            corrects your understanding or your behaviour, explains what a word means, asks you \
            to remember something, or when it took you several searches to find what a term \
            refers to. Make the explanation dense: project name, module path, class and \
            function names, the exact rule. A term already recorded with another explanation is \
            refused unless force is true (then the explanation is replaced). A new entry much \
            like a recorded one is refused as a near-duplicate, naming the similar entries: \
            extend one of those instead (its term, the combined text, force: true), or pass \
            force: true if it is really new. Text that holds a credential (an API key, a token, a \
            private key, a URL with a password) is refused whatever force says: name where the \
            secret lives instead (an environment variable). With project: true the term goes to the project's \
            glossary (.tinylingo/glossary.json at the root of the git work tree of the folder \
            the server runs in), which the team shares through git; use it for the project's own \
            terms, not for the user's personal rules.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "term": {"type": "string", "description": "The trigger word, matched in prompts whatever the case when written in lower case or Capitalised, as written otherwise (acronyms, mixedCase)."},
                    "explanation": {"type": "string", "description": "What to tell the model when the term appears: names, paths, identifiers, rules."},
                    "force": {"type": "boolean", "description": "Replace the explanation of a term that is already recorded, or record past the near-duplicate check.", "default": false},
                    "project": {"type": "boolean", "description": "Record in the project's shared glossary instead of the user's.", "default": false}
                },
                "required": ["term", "explanation"],
                "additionalProperties": false
            })
        },
        read_only: false,
    },
    Tool {
        name: "list",
        description: "List the recorded terms and their explanations, in the order they were \
            recorded. Use offset and limit to page through a long glossary; total says how many \
            there are. A large answer is written to a file whose path, size and first records \
            are returned instead.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "offset": {"type": "integer", "minimum": 0, "description": "Skip this many terms first (default 0)."},
                    "limit": {"type": "integer", "minimum": 1, "description": "Return at most this many terms (default: all)."}
                },
                "additionalProperties": false
            })
        },
        read_only: true,
    },
    Tool {
        name: "search",
        description: "Find recorded entries whose term or explanation contains the query \
            (case-insensitive for letters that have case; term_only looks at terms alone). Use \
            it before recording, to see whether something close is recorded already, and to \
            find what to update or remove. A large answer is written to a file whose path, \
            size and first records are returned instead.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "The text to look for; empty matches every entry."},
                    "term_only": {"type": "boolean", "description": "Look in the terms only, not the explanations.", "default": false},
                    "limit": {"type": "integer", "minimum": 1, "description": "Return at most this many entries (default: all)."}
                },
                "required": ["query"],
                "additionalProperties": false
            })
        },
        read_only: true,
    },
    Tool {
        name: "match",
        description: "Show which recorded terms a message mentions and the block the prompt \
            hook would inject for it: exact hits, fuzzy candidates (with the model's verdict \
            when smart matching is on) and the injected text. Use it to check what the user's \
            glossary says about words in a message, or that a term you recorded is found.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "message": {"type": "string", "description": "The message to match, as a user would type it."}
                },
                "required": ["message"],
                "additionalProperties": false
            })
        },
        read_only: true,
    },
    Tool {
        name: "remove",
        description: "Remove entries from the glossary. Either by exact names (terms), or in \
            two steps for many at once: search (with term_only if wanted) removes nothing, it \
            returns the entries it would remove and a confirmation code; show them to the user, \
            and only when the user agrees call remove again with confirm set to that code (valid \
            5 minutes, used once, void if those entries changed). Give exactly one of terms, \
            search or confirm.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "terms": {"type": "array", "items": {"type": "string"}, "minItems": 1, "description": "The exact terms to remove now."},
                    "search": {"type": "string", "description": "Step 1: preview the entries this query matches (as the search tool does) and get a confirmation code."},
                    "term_only": {"type": "boolean", "description": "With search: match terms only.", "default": false},
                    "confirm": {"type": "string", "description": "Step 2: the confirmation code a search preview returned."}
                },
                "additionalProperties": false
            })
        },
        read_only: false,
    },
    Tool {
        name: "stats",
        description: "How large the glossary is and how much of it is used: the number of \
            terms, file sizes, whether the hook's usage log is on, and for every term its hits \
            and last hit (terms never hit are candidates for pruning: show them to the user \
            rather than removing them yourself).",
        schema: || json!({"type": "object", "properties": {}, "additionalProperties": false}),
        read_only: true,
    },
    Tool {
        name: "check",
        description: "Find glossary entries that have gone false: explanations naming a path \
            that no longer exists in the repository (a project entry against the project's git \
            tree, the user's entries against the git tree the server runs in), with the likely \
            new path when the file was renamed; with unused (90d, 12w, 36h), also the entries no \
            prompt hit in that time (a shared project entry this machine has not known that \
            long is listed as unknown, with no command: do not propose removing it). Changes \
            nothing: the answer holds the command that fixes or \
            removes each entry. Show them to the user rather than running them yourself.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "unused": {"type": "string", "pattern": "^[0-9]+[dwh]?$", "description": "Also list entries not hit within this time: 90d, 12w or 36h."},
                    "scope": {"type": "string", "enum": ["both", "project", "user"], "description": "Which glossaries to check (default both).", "default": "both"}
                },
                "additionalProperties": false
            })
        },
        read_only: true,
    },
    Tool {
        name: "thread_show",
        description: "Read the thread journal (when the user turned it on): the day's \
            exchanges, each with its time, model, the user's prompt and a summary of the \
            answer. Today's by default; last keeps only the most recent entries.",
        schema: || {
            json!({
                "type": "object",
                "properties": {
                    "date": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "description": "The day, YYYY-MM-DD (default: today)."},
                    "last": {"type": "integer", "minimum": 1, "description": "Only the last N entries of that day."}
                },
                "additionalProperties": false
            })
        },
        read_only: true,
    },
    learning::SUGGEST,
    learning::INBOX,
];

/// The tool named `name`.
pub fn tool(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Runs the tool `name` with `args` against `store`.
pub fn call(store: &Store, name: &str, args: Map<String, Value>) -> Result<Payload> {
    let Some(tool) = tool(name) else {
        let names: Vec<&str> = TOOLS.iter().map(|t| t.name).collect();
        return Err(Error::bad_input(
            format!("unknown tool: {name}"),
            Some(format!("the tools are: {}", names.join(", "))),
        ));
    };
    match tool.name {
        "record" => record(store, parse(tool, args)?),
        "list" => list(store, parse(tool, args)?),
        "search" => search(store, parse(tool, args)?),
        "stats" => stats(store, parse(tool, args)?),
        "match" => match_message(store, parse(tool, args)?),
        "remove" => remove(store, parse(tool, args)?),
        "check" => check(store, parse(tool, args)?),
        "thread_show" => thread_show(store, parse(tool, args)?),
        "suggest" => learning::suggest(store, parse(tool, args)?),
        "inbox" => learning::inbox(store, parse(tool, args)?),
        _ => unreachable!("every tool in TOOLS has a case"),
    }
}

/// The arguments as `T`; serde's message names the field and the type it wanted.
fn parse<T: DeserializeOwned>(tool: &Tool, args: Map<String, Value>) -> Result<T> {
    serde_json::from_value(Value::Object(args)).map_err(|e| {
        Error::bad_input(
            format!("{}: bad arguments: {e}", tool.name),
            Some(format!("the arguments are: {}", signature(tool))),
        )
    })
}

/// `term (string), explanation (string), force (boolean, optional)`, from the schema.
fn signature(tool: &Tool) -> String {
    let schema = (tool.schema)();
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema["properties"].as_object() else { return "none".into() };
    if properties.is_empty() {
        return "none".into();
    }
    properties
        .iter()
        .map(|(name, p)| {
            let kind = p["type"].as_str().unwrap_or("any");
            let kind = if kind == "array" { "array of strings" } else { kind };
            let optional = if required.contains(&name.as_str()) { "" } else { ", optional" };
            format!("{name} ({kind}{optional})")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordArgs {
    term: String,
    explanation: String,
    #[serde(default)]
    force: bool,
    #[serde(default)]
    project: bool,
}

fn record(store: &Store, a: RecordArgs) -> Result<Payload> {
    // The project of the folder the assistant started the server in, as `record --project`
    // takes the current folder's.
    let project = match a.project {
        true => {
            let here = std::env::current_dir()
                .map_err(|e| Error::io(".", "find the current folder", e))?;
            Some(crate::project::for_writing(&here, store))
        }
        false => None,
    };
    let done = match &project {
        Some(p) => actions::record_in_project(
            store,
            p,
            &a.term,
            &a.explanation,
            a.force,
            actions::Writer::Model,
        ),
        // The model cannot record past the credential check: only the user can, in their shell.
        None => actions::record_with(store, &a.term, &a.explanation, a.force, Some(Policy::Model)),
    };
    // A hint followed as written must reach the same glossary.
    let also = if a.project { " (and project: true)" } else { "" };
    let outcome = match done {
        Ok(outcome) => outcome,
        // The CLI's hints name `record --force`; here the switch is an argument.
        Err(e @ Error::Conflict { .. }) => {
            return Err(Error::Refused {
                problem: e.to_string(),
                hint: Some(format!("to replace it, call record again with force: true{also}")),
            })
        }
        Err(e @ Error::Duplicate { .. }) => {
            return Err(Error::Refused {
                problem: e.to_string(),
                hint: Some(format!(
                    "if it is really new, call record again with force: true{also}; to add to \
                     an existing entry instead, call record with that entry's term, the \
                     combined explanation and force: true{also}"
                )),
            })
        }
        Err(e) => return Err(e),
    };
    let (status, was) = match outcome.recorded {
        Recorded::Added => ("added", None),
        Recorded::Unchanged => ("unchanged", None),
        Recorded::Updated { was } => ("updated", Some(was)),
    };
    let mut answer =
        json!({"status": status, "term": outcome.term, "explanation": outcome.explanation});
    if let Some(p) = &project {
        answer["scope"] = "project".into();
        answer["glossary"] = p.glossary_path().display().to_string().into();
    }
    if let Some(was) = was {
        answer["was"] = was.into();
    }
    if !outcome.warnings.is_empty() {
        answer["warnings"] = json!(outcome.warnings);
    }
    Ok(Payload::plain(answer))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListArgs {
    #[serde(default)]
    offset: usize,
    limit: Option<usize>,
}

/// The glossaries where the server runs (an assistant starts it in the session's folder): the
/// user's, and the project glossary there when the user trusts it. An untrusted one came with
/// a repository: the model reads none of it, as the hook injects none of it.
fn scopes(store: &Store) -> Scopes {
    Scopes::here(store.clone()).trusted_only()
}

fn list(store: &Store, a: ListArgs) -> Result<Payload> {
    let (total, entries) = scopes(store).read(Filter::Both, |glossaries| {
        let all = glossaries.iter().flat_map(|(o, g)| g.iter().map(move |(t, e)| (*o, t, e)));
        let entries: Vec<Value> = all
            .skip(a.offset)
            .take(a.limit.unwrap_or(usize::MAX))
            .map(|(origin, term, explanation)| {
                json!({"term": term, "explanation": explanation, "scope": origin.name()})
            })
            .collect();
        (glossaries.iter().map(|(_, g)| g.len()).sum::<usize>(), entries)
    })?;
    let answer = json!({"total": total, "offset": a.offset, "entries": entries});
    Ok(Payload::listing(answer, "entries"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchArgs {
    message: String,
}

fn match_message(store: &Store, a: MatchArgs) -> Result<Payload> {
    // The hook's own index and code path, as `match --platform` uses them. OpenCode's output
    // shape is the block as plain text, which is what a model should see here; with no
    // session in the event, nothing is de-duplicated or remembered.
    let index = HookIndex::open(store)?;
    let data = index.data().ok_or_else(|| Error::bad_input("the index failed validation", None))?;
    let project = scopes(store).project_index()?;
    let indexes = Indexes { user: data, project: project.as_ref().and_then(HookIndex::data) };
    let event = Event { prompt: a.message, session: None, model: None, cwd: None };
    let (injection, outcome) = crate::hook::respond(store, Platform::OpenCode, &indexes, &event);
    let mut answer = outcome.to_json();
    answer["injection"] = json!(injection);
    Ok(Payload::listing(answer, "exact"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    query: String,
    #[serde(default)]
    term_only: bool,
    limit: Option<usize>,
}

fn search(store: &Store, a: SearchArgs) -> Result<Payload> {
    let scope = if a.term_only { Scope::TermOnly } else { Scope::Both };
    let (total, entries) = scopes(store).read(Filter::Both, |glossaries| {
        let q = crate::ops::search::Query::new(&a.query, scope);
        let hits: Vec<(Origin, &str, &str)> = glossaries
            .iter()
            .flat_map(|(o, g)| g.iter().map(move |(t, e)| (*o, t, e)))
            .filter(|(_, t, e)| q.matches(t, e))
            .collect();
        let entries: Vec<Value> = hits
            .iter()
            .take(a.limit.unwrap_or(usize::MAX))
            .map(|(origin, term, explanation)| {
                json!({"term": term, "explanation": explanation, "scope": origin.name()})
            })
            .collect();
        (hits.len(), entries)
    })?;
    let answer = json!({"query": a.query, "matches": total, "entries": entries});
    Ok(Payload::listing(answer, "entries"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StatsArgs {}

fn stats(store: &Store, _: StatsArgs) -> Result<Payload> {
    let mut stats = crate::ops::stats::stats(&scopes(store), Filter::Both)?;
    stats.proposals_pending = crate::learning::capture::pending(store);
    Ok(Payload::listing(stats.to_json(), "per_term"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    unused: Option<String>,
    #[serde(default)]
    scope: CheckScope,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "lowercase")]
enum CheckScope {
    #[default]
    Both,
    Project,
    User,
}

fn check(store: &Store, a: CheckArgs) -> Result<Payload> {
    let unused = a.unused.as_deref().map(crate::guard::check::parse_age).transpose()?;
    let filter = match a.scope {
        CheckScope::Both => Filter::Both,
        CheckScope::Project => Filter::Project,
        CheckScope::User => Filter::User,
    };
    let now = std::time::SystemTime::now();
    let report = crate::guard::check::check(&scopes(store), filter, unused, now)?;
    Ok(Payload::listing(report.to_json(), "issues"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RemoveArgs {
    terms: Option<Vec<String>>,
    search: Option<String>,
    #[serde(default)]
    term_only: bool,
    confirm: Option<String>,
}

fn remove(store: &Store, a: RemoveArgs) -> Result<Payload> {
    let removed = match (a.terms, a.search, a.confirm) {
        (Some(terms), None, None) if !terms.is_empty() => actions::remove(store, &terms)?,
        (None, Some(query), None) => {
            let scope = if a.term_only { Scope::TermOnly } else { Scope::Both };
            let p = removal::preview(store, &query, scope)?;
            let entries: Vec<Value> =
                p.entries.iter().map(|(t, e)| json!({"term": t, "explanation": e})).collect();
            let answer = json!({
                "removed": [],
                "would_remove": entries.len(),
                "code": p.code,
                "valid_seconds": removal::CODE_LIFETIME.as_secs(),
                "next": "nothing was removed: show these entries to the user, and only if they \
                         agree call remove with {\"confirm\": code}",
                "entries": entries,
            });
            return Ok(Payload::listing(answer, "entries"));
        }
        (None, None, Some(code)) => removal::confirm(store, &code)?,
        _ => {
            return Err(Error::bad_input(
                "remove: give exactly one of terms (non-empty), search or confirm",
                Some(
                    "e.g. {\"terms\": [\"提交\"]}, or {\"search\": \"staging\"} and then \
                     {\"confirm\": \"<code>\"}"
                        .into(),
                ),
            ))
        }
    };
    Ok(Payload::plain(json!({"removed": removed})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThreadShowArgs {
    date: Option<String>,
    last: Option<usize>,
}

fn thread_show(store: &Store, a: ThreadShowArgs) -> Result<Payload> {
    let day = journal::day(store, a.date, a.last)?;
    let enabled = journal::Journal::of(store)?.enabled;
    let answer = json!({
        "date": day.date,
        "file": day.file.to_string_lossy(),
        "journal": if enabled { "on" } else { "off" },
        "entries": day.entries,
    });
    Ok(Payload::listing(answer, "entries"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn every_schema_is_an_object_schema_and_names_are_unique() {
        for (i, t) in TOOLS.iter().enumerate() {
            assert_eq!((t.schema)()["type"], "object", "{}", t.name);
            assert!(TOOLS[..i].iter().all(|o| o.name != t.name), "{}", t.name);
            assert!(!t.description.is_empty());
        }
    }

    #[test]
    fn bad_arguments_are_bad_input_naming_the_arguments() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        for bad in [
            json!({"term": "a"}),
            json!({"term": 1, "explanation": "b"}),
            json!({"term": "a", "explanation": "b", "x": 1}),
        ] {
            let e = call(&store, "record", args(bad.clone())).unwrap_err();
            assert!(matches!(e, Error::BadInput { .. }), "{bad}: {e}");
            assert_eq!(
                e.hint().unwrap(),
                "the arguments are: term (string), explanation (string), force (boolean, \
                 optional), project (boolean, optional)"
            );
        }
        // Nothing was written.
        assert!(!dir.path().join("glossary.json").exists());
        let e = call(&store, "nope", Map::new()).unwrap_err();
        assert!(e.to_string().contains("unknown tool"));
    }

    #[test]
    fn record_list_remove_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let p = call(&store, "record", args(json!({"term": "联调", "explanation": "x"}))).unwrap();
        assert_eq!(p.value["status"], "added");
        let e =
            call(&store, "record", args(json!({"term": "联调", "explanation": "y"}))).unwrap_err();
        assert!(e.hint().unwrap().contains("force: true"), "{e}");
        let p = call(
            &store,
            "record",
            args(json!({"term": "联调", "explanation": "y", "force": true})),
        )
        .unwrap();
        assert_eq!(p.value["was"], "x");
        let p = call(&store, "list", args(json!({"offset": 0, "limit": 5}))).unwrap();
        assert_eq!(
            p.value["entries"],
            json!([{"term": "联调", "explanation": "y", "scope": "user"}])
        );
        let p = call(&store, "remove", args(json!({"terms": ["联调"]}))).unwrap();
        assert_eq!(p.value["removed"], json!(["联调"]));
        let e = call(&store, "remove", args(json!({"terms": ["联调"]}))).unwrap_err();
        assert!(matches!(e, Error::NotFound { .. }));
    }
}
