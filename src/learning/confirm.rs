//! `smart` confirmation of new proposals: when `smart.enabled` is on, the local model (the same
//! OpenAI-compatible endpoint the fuzzy matcher asks, [`crate::matching::llm`]) reviews each
//! proposal the rules made and it has not reviewed yet. It may keep it, tighten its
//! explanation, or reject it.
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
//! * A tightened explanation still passes the credential check; one that fails it is not used.
//! * The model is asked without the store's lock held (it may take seconds); the verdicts are
//!   applied under the lock to the inbox as it is then.

use std::time::Duration;

use serde::Deserialize;

use super::inbox::{Inbox, SmartVerdict, Status};
use super::{looks_like_secret, Proposal};
use crate::error::Result;
use crate::matching::llm::{self, LlmError, LlmRequest};
use crate::store::config::SmartSettings;
use crate::store::Store;

/// The question asked about each proposal. `{term}`, `{kind}` and `{explanation}` are filled in
/// (each on one line). `/no_think` switches off Qwen3's reasoning mode, which would otherwise
/// spend the token budget before the answer.
pub const PROMPT: &str = r#"You review a glossary entry drafted from what a user said to a coding assistant. The glossary is shown to assistants whenever the term comes up, so an entry must be a lasting definition or standing rule, stated densely and exactly.

Term: {term}
Kind: {kind}
Drafted explanation: {explanation}

Answer with one JSON object only, no other text:
{"verdict": "keep"} if the entry is right as drafted;
{"verdict": "tighten", "explanation": "..."} with a shorter, more exact explanation (one line, keep every identifier and path);
{"verdict": "reject"} if it is not a lasting definition or rule (a one-off instruction, a question, a guess).
/no_think"#;

/// The longest tightened explanation accepted (characters); a longer one is not "tighter".
const MAX_EXPLANATION_CHARS: usize = 400;
/// Enough tokens for a verdict and one explanation of that length.
const MAX_TOKENS: u32 = 256;

/// The model's verdict on one proposal.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Keep,
    Tighten(String),
    Reject,
}

/// What a review round did, for the report.
#[derive(Debug, Default)]
pub struct Reviewed {
    pub kept: usize,
    pub tightened: usize,
    pub rejected: usize,
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
    let todo: Vec<&Proposal> = inbox
        .proposals
        .iter()
        .filter(|p| p.status == Status::Pending && p.smart.is_none())
        .collect();
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
    for (id, verdict) in verdicts {
        let Some(p) = inbox.proposals.iter_mut().find(|p| p.id == id) else { continue };
        if p.status != Status::Pending {
            continue; // decided by a person meanwhile
        }
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
            Verdict::Reject => {
                p.status = Status::Rejected;
                p.smart = Some(SmartVerdict::Rejected);
                done.rejected += 1;
            }
        }
    }
    inbox.save(store)?;
    Ok(done)
}

/// Asks the model about one proposal.
pub fn ask(request: &LlmRequest, p: &Proposal) -> std::result::Result<Verdict, LlmError> {
    let prompt = fill(PROMPT, &p.term, p.kind.name(), &p.explanation);
    let answer = llm::ask(request, &prompt, MAX_TOKENS)?;
    parse(&answer).ok_or_else(|| LlmError::BadBody(format!("not a verdict: {}", one_line(&answer))))
}

fn fill(template: &str, term: &str, kind: &str, explanation: &str) -> String {
    // One pass, so that a placeholder written inside the term or explanation stays as it is.
    let mut out = String::with_capacity(template.len() + term.len() + explanation.len());
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let mut hit = false;
        for (name, value) in [("{term}", term), ("{kind}", kind), ("{explanation}", explanation)] {
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
    }
    let a: Answer = serde_json::from_str(answer.trim()).ok()?;
    match (a.verdict.as_str(), a.explanation) {
        ("keep", None) => Some(Verdict::Keep),
        ("reject", None) => Some(Verdict::Reject),
        ("tighten", Some(text)) => {
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

    #[test]
    fn the_prompt_names_the_proposal_on_single_lines() {
        let p = fill(PROMPT, "PX-42", "definition", "the payments\nservice {term}");
        assert!(p.contains("Term: PX-42\n"));
        assert!(p.contains("Drafted explanation: the payments service {term}\n"));
        assert!(p.contains(r#"{"verdict": "keep"}"#));
    }
}
