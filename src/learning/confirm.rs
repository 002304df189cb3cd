//! `smart` confirmation of new proposals: when `smart.enabled` is on, the local model (the same
//! OpenAI-compatible endpoint the fuzzy matcher asks, [`crate::matching::llm`]) reviews each
//! proposal the rules made and it has not reviewed yet. It may keep it, tighten its
//! explanation, name the term the user's words are about, or reject it.
//!
//! * Off (the default): nothing here runs and no request is made.
//! * One request per proposal, not one per scan: a small local model answers a short question
//!   reliably and quickly, a long batch can run past the timeout and lose every verdict at
//!   once, and a garbled answer then costs one proposal's review, not all of them.
//! * The answer is parsed strictly (one JSON object, a known verdict, a tightened explanation
//!   that is a non-empty single line of bounded length). Anything else, a timeout or an error
//!   keeps the rules' proposal unchanged, and is reported (`--verbose`); it is asked again by
//!   the next scan. Once the server is unreachable or slow, the rest wait for the next scan.
//! * A verdict is remembered on the proposal (`smart`), so a proposal is never sent twice. A
//!   rejected proposal is kept as rejected, so the term is not proposed again.
//! * Drafts (turns no rule read, [`super::rules`]' `wide`) are asked the same question, at most
//!   [`MAX_DRAFTS`] a round, newest first. Kept, tightened or renamed, a draft becomes a
//!   pending proposal; anything else leaves it a draft nobody sees (rejected: never asked
//!   again).
//! * A tightened explanation still passes the credential check; one that fails it is not used.
//! * The rules' hardest choice is which words are the term (a rule's subject, the user's word
//!   rather than the assistant's), so the model sees the user's sentence and may name another
//!   term. The model's word is hostile like any other text: the new term must be copied from
//!   the user's own words, and it passes every check a rule's term does (a credential, a term a
//!   glossary holds, a common word, a term already in the inbox).
//! * The model is asked without the store's lock held (it may take seconds); the verdicts are
//!   applied under the lock to the inbox as it is then.

use std::time::Duration;

use serde::Deserialize;

use super::held::{holds, Projects};
use super::inbox::{Inbox, SmartVerdict, Status};
use super::rules::is_common;
use super::{looks_like_secret, Proposal};
use crate::error::Result;
use crate::matching::llm::{self, LlmError, LlmRequest};
use crate::ops::duplicates::words::same_term;
use crate::store::config::SmartSettings;
use crate::store::Glossary;
use crate::store::Store;

/// The question asked about each proposal. `{quote}` (the user's sentence), `{term}`, `{kind}`
/// and `{explanation}` are filled in (each on one line). `/no_think` switches off Qwen3's reasoning mode, which would otherwise
/// spend the token budget before the answer.
pub const PROMPT: &str = r#"You review a glossary entry drafted from what a user said to a coding assistant. The glossary is shown to assistants whenever the term comes up, so an entry must be a lasting definition or standing rule, stated densely and exactly, under the name the user gives the thing. For a standing rule, the term is the thing the rule governs, named as the user names it (what a later request would mention): the command when the rule is about running it, not a command, file or path it only names on the way, nor the repo or app where it holds.

The user's words: {quote}
Term: {term}
Kind: {kind}
Drafted explanation: {explanation}

Answer with one JSON object only, no other text:
{"verdict": "keep"} if the entry is right as drafted;
{"verdict": "term", "term": "..."} if it is a lasting definition or rule but its term is not the name the user gives it: that name, copied exactly from the user's words;
{"verdict": "tighten", "explanation": "..."} if the draft holds words that are about something else (a request for this task, a greeting): the explanation without them, on one line, every other word as the user wrote it (every fact, exception, "not X", identifier and path);
{"verdict": "reject"} if it is not a lasting definition or rule (a one-off instruction, a question, a guess, a name the user took back, a word only used, text the user pasted or quoted from a document, a log or someone else).
/no_think"#;

/// The longest tightened explanation accepted (characters); a longer one is not "tighter".
const MAX_EXPLANATION_CHARS: usize = 400;
/// The longest term the model may name (characters): a name, not a sentence.
const MAX_TERM_CHARS: usize = 60;
/// Enough tokens for a verdict and one explanation of that length.
const MAX_TOKENS: u32 = 256;
/// A kept draft's confidence: the model vouched for a turn no rule read, which is more than the
/// rules' guess and less than a rule's reading (`inbox accept --all` at the README's 0.9 takes
/// none).
const KEPT_DRAFT_CONFIDENCE: f64 = 0.6;
/// The most drafts one round asks about: the first scan of a long history may find thousands,
/// and a small local model answers a few a second.
pub const MAX_DRAFTS: usize = 200;

/// The model's verdict on one proposal.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Keep,
    Tighten(String),
    /// The term the user's words are about, instead of the draft's.
    Rename(String),
    Reject,
}

/// What a review round did, for the report.
#[derive(Debug, Default)]
pub struct Reviewed {
    pub kept: usize,
    pub tightened: usize,
    pub renamed: usize,
    pub rejected: usize,
    /// Drafts read, and those that became proposals (counted above too).
    pub drafts: usize,
    pub drafts_kept: usize,
    /// Proposals left as the rules made them, and why (`term: reason`).
    pub failed: Vec<String>,
}

/// Reviews the pending proposals the model has not seen, when smart is on (else does nothing
/// and asks nothing).
pub fn review(store: &Store, smart: &SmartSettings) -> Result<Reviewed> {
    let mut done = Reviewed::default();
    if !smart.enabled {
        return Ok(done);
    }
    let inbox = Inbox::load(store)?;
    let unread = |status: Status| move |p: &&Proposal| p.status == status && p.smart.is_none();
    let mut todo: Vec<&Proposal> = inbox.proposals.iter().filter(unread(Status::Pending)).collect();
    todo.extend(inbox.proposals.iter().rev().filter(unread(Status::Draft)).take(MAX_DRAFTS));
    if todo.is_empty() {
        return Ok(done);
    }
    let request = LlmRequest {
        endpoint: &smart.endpoint,
        model: &smart.model,
        api_key: &smart.api_key,
        timeout: Duration::from_millis(smart.timeout_ms),
        template: PROMPT,
    };
    let mut verdicts = Vec::new();
    for (i, p) in todo.iter().enumerate() {
        match ask(&request, p) {
            Ok(verdict) => verdicts.push((p.id.clone(), verdict)),
            Err(e) => {
                done.failed.push(format!("{}: {e}", p.term));
                // Unreachable or too slow: the others would fail the same way, one timeout
                // each. They wait for the next scan.
                if !matches!(e, LlmError::BadBody(_) | LlmError::Status(_)) {
                    let left = todo.len() - i - 1;
                    if left > 0 {
                        done.failed.push(format!("{left} more not asked (the next scan will)"));
                    }
                    break;
                }
            }
        }
    }
    if verdicts.is_empty() {
        return Ok(done);
    }
    let _lock = store.lock()?;
    let mut inbox = Inbox::load(store)?;
    let glossary = Glossary::load(store).unwrap_or_default();
    let mut projects = Projects::new(store);
    for (id, verdict) in verdicts {
        let Some(at) = inbox.proposals.iter().position(|p| p.id == id) else { continue };
        let draft = inbox.proposals[at].status == Status::Draft;
        if !draft && inbox.proposals[at].status != Status::Pending {
            continue; // decided by a person meanwhile
        }
        let verdict = match verdict {
            Verdict::Rename(term) if same_term(&term, &inbox.proposals[at].term) => Verdict::Keep,
            Verdict::Rename(term) => match refused(&inbox, at, &term, &glossary, &mut projects) {
                None => Verdict::Rename(term),
                // The name the user gave is recorded already: this draft repeats it.
                Some(Refusal::Held) => Verdict::Reject,
                // A draft's guess was wrong, and the model's word is no better: it stays unread.
                Some(_) if draft => Verdict::Reject,
                Some(why) => {
                    let p = &mut inbox.proposals[at];
                    p.smart = Some(SmartVerdict::Kept);
                    done.failed.push(format!("{}: the model named \"{term}\", {why}", p.term));
                    continue;
                }
            },
            other => other,
        };
        if draft && !kept(&mut inbox, at, &verdict, &mut done) {
            continue;
        }
        let p = &mut inbox.proposals[at];
        match verdict {
            Verdict::Keep => {
                p.smart = Some(SmartVerdict::Kept);
                done.kept += 1;
            }
            Verdict::Tighten(text) if looks_like_secret(&text) => {
                p.smart = Some(SmartVerdict::Kept);
                done.failed.push(format!(
                    "{}: the tightened explanation looks like a credential; the draft stays",
                    p.term
                ));
            }
            Verdict::Tighten(text) => {
                p.explanation = text;
                p.smart = Some(SmartVerdict::Tightened);
                done.tightened += 1;
            }
            Verdict::Rename(term) => {
                // A draft holds the whole turn: its quote is the sentence naming the new term.
                if draft {
                    p.quote = super::clean::quote_of(&p.explanation, &term);
                }
                p.drafted = Some(std::mem::replace(&mut p.term, term));
                p.smart = Some(SmartVerdict::Renamed);
                done.renamed += 1;
            }
            Verdict::Reject => {
                p.status = Status::Rejected;
                p.smart = Some(SmartVerdict::Rejected);
                done.rejected += 1;
            }
        }
        // A common word named by the model, or kept from a draft, is this project's word, as
        // when a rule proposes it ([`crate::learning::rules::is_common`]).
        if (draft || p.drafted.is_some()) && p.status == Status::Pending && is_common(&p.term) {
            p.generic = true;
            p.scope_hint = "project".to_string();
        }
    }
    inbox.save(store)?;
    Ok(done)
}

/// Settles draft `at` by the model's `verdict`: whether it is kept, a pending proposal now. A
/// draft whose term another turn's proposal has already is a sighting of that one instead; a
/// draft not kept stays one, never asked again.
fn kept(inbox: &mut Inbox, at: usize, verdict: &Verdict, done: &mut Reviewed) -> bool {
    done.drafts += 1;
    let term = match verdict {
        Verdict::Rename(term) => term.as_str(),
        _ => inbox.proposals[at].term.as_str(),
    };
    let first = (*verdict != Verdict::Reject).then(|| proposed(inbox, at, term)).flatten();
    if let Some(first) = first.filter(|&f| inbox.proposals[f].status == Status::Pending) {
        let sessions = inbox.proposals[at].sessions.clone();
        inbox.proposals[first].seen_in(sessions);
    }
    let p = &mut inbox.proposals[at];
    if *verdict == Verdict::Reject || first.is_some() {
        p.smart = Some(SmartVerdict::Rejected);
        return false;
    }
    p.status = Status::Pending;
    p.confidence = KEPT_DRAFT_CONFIDENCE;
    done.drafts_kept += 1;
    true
}

/// Why a term the model named is not taken.
#[derive(Debug, PartialEq)]
enum Refusal {
    /// Not in the user's sentence or the draft: the model's own word, or an injected one.
    NotTheirWords,
    Credential,
    /// A glossary holds it already (the user's, or the project's of the session's folder).
    Held,
    /// Another proposal in the inbox has it.
    Proposed,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::NotTheirWords => "not in the user's words; the draft stays",
            Refusal::Credential => "which looks like a credential; the draft stays",
            Refusal::Held => "which a glossary holds already",
            Refusal::Proposed => "which another proposal has; the draft stays",
        })
    }
}

/// Why `term` may not replace the term of proposal `at`, if it may not.
fn refused(
    inbox: &Inbox,
    at: usize,
    term: &str,
    glossary: &Glossary,
    projects: &mut Projects,
) -> Option<Refusal> {
    let p = &inbox.proposals[at];
    if !said_in(&p.quote, term) && !said_in(&p.explanation, term) {
        return Some(Refusal::NotTheirWords);
    }
    if looks_like_secret(term) {
        return Some(Refusal::Credential);
    }
    let project = p.project.as_deref().and_then(|d| projects.of(d));
    if holds(glossary, term, &p.explanation)
        || project.is_some_and(|(_, g)| holds(g, term, &p.explanation))
    {
        return Some(Refusal::Held);
    }
    proposed(inbox, at, term).map(|_| Refusal::Proposed)
}

/// The proposal other than `at` (not a draft) that has `term`, if any.
fn proposed(inbox: &Inbox, at: usize, term: &str) -> Option<usize> {
    let theirs = |o: &Proposal| {
        o.status != Status::Draft
            && (same_term(&o.term, term)
                || o.drafted.as_deref().is_some_and(|d| same_term(d, term)))
    };
    (0..inbox.proposals.len()).find(|&i| i != at && theirs(&inbox.proposals[i]))
}

/// Whether `text` holds `term` (any case), an ASCII word as a whole word (the rule a term hits
/// a prompt by): "eval" is not said in "evaluation".
fn said_in(text: &str, term: &str) -> bool {
    let (text, term) = (text.to_lowercase(), term.to_lowercase());
    crate::matching::boundary::has_whole_word(text.as_bytes(), term.as_bytes())
}

/// Asks the model about one proposal.
pub fn ask(request: &LlmRequest, p: &Proposal) -> std::result::Result<Verdict, LlmError> {
    let prompt = fill(PROMPT, p);
    let answer = llm::ask(request, &prompt, MAX_TOKENS)?;
    parse(&answer).ok_or_else(|| LlmError::BadBody(format!("not a verdict: {}", one_line(&answer))))
}

fn fill(template: &str, p: &Proposal) -> String {
    let (term, kind, explanation, quote) =
        (p.term.as_str(), p.kind.name(), p.explanation.as_str(), p.quote.as_str());
    // One pass, so that a placeholder written inside the term or explanation stays as it is.
    let mut out = String::with_capacity(template.len() + term.len() + explanation.len());
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let mut hit = false;
        let fields = [
            ("{term}", term),
            ("{kind}", kind),
            ("{explanation}", explanation),
            ("{quote}", quote),
        ];
        for (name, value) in fields {
            if let Some(after) = rest.strip_prefix(name) {
                out.push_str(&one_line(value));
                rest = after;
                hit = true;
                break;
            }
        }
        if !hit {
            out.push('{');
            rest = &rest[1..];
        }
    }
    out.push_str(rest);
    out
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The verdict of an answer (reasoning blocks and fences already removed), strictly: the whole
/// answer is one JSON object with a known `verdict`; `tighten` carries a usable explanation.
pub fn parse(answer: &str) -> Option<Verdict> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Answer {
        verdict: String,
        explanation: Option<String>,
        term: Option<String>,
    }
    let a: Answer = serde_json::from_str(answer.trim()).ok()?;
    match (a.verdict.as_str(), a.explanation, a.term) {
        ("keep", None, None) => Some(Verdict::Keep),
        ("reject", None, None) => Some(Verdict::Reject),
        ("term", None, Some(term)) => {
            let term = term.trim();
            let fits = !term.is_empty()
                && !term.contains(['\n', '\r'])
                && term.chars().count() <= MAX_TERM_CHARS;
            fits.then(|| Verdict::Rename(term.to_string()))
        }
        ("tighten", Some(text), None) => {
            let text = text.trim();
            let fits = !text.is_empty()
                && !text.contains('\n')
                && text.chars().count() <= MAX_EXPLANATION_CHARS;
            fits.then(|| Verdict::Tighten(text.to_string()))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(parse(r#"{"verdict":"keep"}"#), Some(Verdict::Keep));
        assert_eq!(parse(r#" {"verdict": "reject"} "#), Some(Verdict::Reject));
        assert_eq!(
            parse(r#"{"verdict":"tighten","explanation":"payments service, services/payments/"}"#),
            Some(Verdict::Tighten("payments service, services/payments/".into()))
        );
        for bad in [
            "keep",
            r#"Sure! {"verdict":"keep"}"#,
            r#"{"verdict":"maybe"}"#,
            r#"{"verdict":"tighten"}"#,
            r#"{"verdict":"tighten","explanation":"  "}"#,
            r#"{"verdict":"tighten","explanation":"a\nb"}"#,
            r#"{"verdict":"keep","explanation":"x"}"#,
            r#"{"verdict":"keep","why":"x"}"#,
            r#"{"verdict":"keep"}{"verdict":"reject"}"#,
            "",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        let long = format!(r#"{{"verdict":"tighten","explanation":"{}"}}"#, "x".repeat(401));
        assert_eq!(parse(&long), None);
    }

    fn proposal(term: &str, explanation: &str, quote: &str) -> Proposal {
        Proposal {
            id: "abc123".into(),
            term: term.into(),
            explanation: explanation.into(),
            kind: crate::learning::Kind::Behaviour,
            assistant: "claude".into(),
            source: crate::learning::inbox::Source { path: "s.jsonl".into(), line: 1 },
            when: None,
            seen: 1,
            confidence: 0.75,
            scope_hint: "user".into(),
            status: Status::Pending,
            sessions: vec!["s".into()],
            smart: None,
            project: None,
            quote: quote.into(),
            generic: false,
            drafted: None,
        }
    }

    #[test]
    fn the_prompt_names_the_proposal_on_single_lines() {
        let quote = "golden files: always regenerate\nwith `make golden`";
        let p = fill(PROMPT, &proposal("PX-42", "the payments\nservice {term}", quote));
        assert!(
            p.contains("The user's words: golden files: always regenerate with `make golden`\n")
        );
        assert!(p.contains("Term: PX-42\nKind: behaviour\n"));
        assert!(p.contains("Drafted explanation: the payments service {term}\n"));
        assert!(p.contains(r#"{"verdict": "keep"}"#));
        assert!(p.contains(r#"{"verdict": "term", "term": "..."}"#));
    }

    #[test]
    fn a_named_term_is_read_strictly() {
        assert_eq!(
            parse(r#"{"verdict":"term","term":" golden files "}"#),
            Some(Verdict::Rename("golden files".into()))
        );
        for bad in [
            r#"{"verdict":"term"}"#,
            r#"{"verdict":"term","term":""}"#,
            r#"{"verdict":"term","term":"a\nb"}"#,
            r#"{"verdict":"term","term":"x","explanation":"y"}"#,
            r#"{"verdict":"keep","term":"x"}"#,
            r#"{"verdict":"tighten","explanation":"y","term":"x"}"#,
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        let long = format!(r#"{{"verdict":"term","term":"{}"}}"#, "x".repeat(61));
        assert_eq!(parse(&long), None);
    }

    #[test]
    fn a_named_term_is_said_by_the_user_as_a_whole_word() {
        assert!(said_in("The eval split is frozen", "eval split"));
        assert!(said_in("以后改「对账脚本」都按这个来", "对账脚本"));
        assert!(said_in("see data/splits/eval.parquet.", "data/splits/eval.parquet"));
        assert!(!said_in("the evaluation set is frozen", "eval"));
        assert!(!said_in("re-run preeval first", "eval"));
        assert!(!said_in("never touch prod", "staging"));
    }

    #[test]
    fn a_named_term_must_be_the_users_new_and_no_credential() {
        let rule = "Golden files: always regenerate with make golden, never by hand";
        let mut inbox = Inbox::default();
        inbox.proposals.push(proposal("make golden", rule, rule));
        let mut other = proposal("ledger", "the double-entry module", "ledger means …");
        other.id = "def456".into();
        inbox.proposals.push(other);
        let store = crate::store::Store::at(std::env::temp_dir().join("tinylingo-confirm-none"));
        let mut projects = Projects::new(&store);
        let glossary = Glossary::default();
        let why =
            |term: &str, projects: &mut Projects| refused(&inbox, 0, term, &glossary, projects);
        assert_eq!(why("golden files", &mut projects), None);
        assert_eq!(why("gold standard", &mut projects), Some(Refusal::NotTheirWords));
        assert_eq!(why("LEDGER", &mut projects), Some(Refusal::NotTheirWords));
        let secret = ["sk-proj-", &"a1B2c3D4".repeat(6)].concat();
        let mut leaky = inbox.clone();
        leaky.proposals[0].quote = format!("golden key {secret}");
        assert_eq!(
            refused(&leaky, 0, &secret, &glossary, &mut projects),
            Some(Refusal::Credential)
        );
        let mut twice = inbox.clone();
        twice.proposals[1].term = "Golden Files".into();
        assert_eq!(
            refused(&twice, 0, "golden files", &glossary, &mut projects),
            Some(Refusal::Proposed)
        );
        let held: Glossary = [("Golden files".to_string(), "regenerated snapshots".to_string())]
            .into_iter()
            .collect();
        assert_eq!(refused(&inbox, 0, "golden files", &held, &mut projects), Some(Refusal::Held));
    }
}
