//! The learning tools, `suggest` and `inbox`: the same library calls as `tinylingo suggest`
//! and `tinylingo inbox …` ([`crate::learning`]), so an assistant can go through the proposals
//! with the person.

use serde::Deserialize;
use serde_json::{json, Value};

use super::{Payload, Tool};
use crate::error::{Error, Result};
use crate::learning::inbox::records;
use crate::learning::{self, decide, Assistant, Inbox};
use crate::store::Store;

pub const SUGGEST: Tool = Tool {
    name: "suggest",
    description: "Scan the user's past sessions (Claude Code, Codex CLI, Gemini CLI, OpenCode, \
        the thread journal) for places where the user defined a term, corrected your \
        understanding or set a standing rule, add what is found to the inbox, and return the \
        pending proposals (id, term, explanation, kind, where it was said, in how many sessions, \
        confidence). Rules only, no model. Nothing is recorded: show the proposals to the user \
        and let them decide (the inbox tool).",
    schema: || {
        json!({
            "type": "object",
            "properties": {
                "since": {"type": "string", "description": "Only sessions changed since a date (2026-11-01) or within an age (7d, 12h)."},
                "assistants": {"type": "array", "items": {"type": "string", "enum": ["claude", "codex", "gemini", "opencode", "journal"]}, "description": "Only these sources (default: all)."}
            },
            "additionalProperties": false
        })
    },
    read_only: false,
};

pub const INBOX: Tool = Tool {
    name: "inbox",
    description: "The inbox of proposed glossary entries. action list (the default) returns \
        the pending proposals; accept records the proposals ids name (through record: the same \
        checks and refusals; explanation replaces the proposed text of a single proposal; \
        project: true records in the current folder's project glossary, user: true in the \
        user's; by default a project proposal accepted inside the project it came from goes to \
        that project's glossary, anything else to the user's); reject drops them for good. Each \
        proposal names its project folder and quotes the user's sentence. Accept or reject only \
        what the user approved or turned down in this conversation.",
    schema: || {
        json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["list", "accept", "reject"], "default": "list"},
                "ids": {"type": "array", "items": {"type": "string"}, "description": "The proposals' ids (accept, reject)."},
                "explanation": {"type": "string", "description": "accept, one id: record this explanation instead."},
                "project": {"type": "boolean", "description": "accept: record in the current folder's project glossary.", "default": false},
                "user": {"type": "boolean", "description": "accept: record in the user's glossary, also a project proposal.", "default": false}
            },
            "additionalProperties": false
        })
    },
    read_only: false,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuggestArgs {
    since: Option<String>,
    #[serde(default)]
    assistants: Vec<String>,
}

pub fn suggest(store: &Store, a: SuggestArgs) -> Result<Payload> {
    let mut assistants = Vec::new();
    for name in &a.assistants {
        assistants.push(
            Assistant::from_name(name)
                .ok_or_else(|| Error::bad_input(format!("unknown assistant: {name}"), None))?,
        );
    }
    let since =
        a.since.map(|s| decide::parse_since(&s, std::time::SystemTime::now())).transpose()?;
    let home = crate::store::home_dir()
        .ok_or_else(|| Error::bad_input("cannot find the home folder: HOME is not set", None))?;
    let (inbox, report) =
        learning::suggest(store, &home, &learning::Options { since, assistants })?;
    let mut answer = pending(store, &inbox);
    answer["new"] = json!(report.added);
    answer["skipped"] = json!(report.skipped);
    Ok(Payload::listing(answer, "proposals"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InboxArgs {
    action: Option<String>,
    #[serde(default)]
    ids: Vec<String>,
    explanation: Option<String>,
    #[serde(default)]
    project: bool,
    #[serde(default)]
    user: bool,
}

pub fn inbox(store: &Store, a: InboxArgs) -> Result<Payload> {
    let need_ids = || {
        if a.ids.is_empty() {
            return Err(Error::bad_input("inbox: ids is needed to accept or reject", None));
        }
        Ok(())
    };
    match a.action.as_deref().unwrap_or("list") {
        "list" => Ok(Payload::listing(pending(store, &Inbox::load(store)?), "proposals")),
        "reject" => {
            need_ids()?;
            let rejected = decide::reject(store, &a.ids)?;
            Ok(Payload::plain(
                json!({"rejected": rejected.iter().map(|p| &p.term).collect::<Vec<_>>()}),
            ))
        }
        "accept" => {
            need_ids()?;
            if a.explanation.is_some() && a.ids.len() != 1 {
                return Err(Error::bad_input("inbox: explanation goes with one id", None));
            }
            if a.project && a.user {
                return Err(Error::bad_input("inbox: project and user exclude each other", None));
            }
            let here = std::env::current_dir()
                .map_err(|e| Error::io(".", "find the current folder", e))?;
            let want = match (a.project, a.user) {
                (true, _) => decide::Want::Project,
                (_, true) => decide::Want::User,
                _ => decide::Want::Auto,
            };
            let mut recorded = Vec::new();
            for id in &a.ids {
                let route = decide::route(store, &decide::get(store, id)?, &here, want);
                let (_, outcome) = decide::accept(
                    store,
                    route.project.as_ref(),
                    id,
                    a.explanation.as_deref(),
                    crate::ops::actions::Writer::Model,
                )?;
                recorded.push(json!({"term": outcome.term, "explanation": outcome.explanation, "in": route.why}));
            }
            Ok(Payload::plain(json!({"recorded": recorded})))
        }
        other => Err(Error::bad_input(
            format!("inbox: unknown action {other}"),
            Some("the actions are list, accept, reject".into()),
        )),
    }
}

fn pending(store: &Store, inbox: &Inbox) -> Value {
    let proposals: Vec<Value> = records(&decide::shown(store, inbox)).objects().collect();
    json!({"total": proposals.len(), "proposals": proposals})
}
