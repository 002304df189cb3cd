//! LLM confirmation of fuzzy candidates, and the duplicate question `record` asks.
//!
//! The fuzzy prefilter proposes candidate terms; a local model behind an OpenAI-compatible
//! chat-completions endpoint (LM Studio, llama.cpp, Ollama, …) says which of them the prompt
//! really refers to ([`confirm`]). `record` asks the same model, with its own prompt, how much
//! a new entry repeats recently recorded ones ([`rate_similarity`]). This runs inside the prompt hook, so the call is bounded end to end by one
//! timeout and every failure is an [`LlmError`] that the caller treats as "no smart hits".
//!
//! Small models answer loosely (reasoning blocks, code fences, prose around the JSON, answers
//! cut short by `max_tokens`), so [`parse_verdict`] accepts anything that names candidate
//! numbers and ignores the rest.

use std::collections::BTreeSet;
use std::fmt;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use serde_json::Value;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

/// The prompt used when the config sets none. `{candidates}` becomes the numbered list of
/// candidates, `{message}` the user's prompt. `/no_think` at the end switches off Qwen3's
/// reasoning mode, which would otherwise spend the token budget before the answer.
pub const DEFAULT_PROMPT: &str = r#"You decide which glossary terms a user's message really refers to.

Glossary candidates:
{candidates}

User message:
"""
{message}
"""

A candidate is relevant only if the message actually means that term, not merely a word that looks similar.
Answer with JSON only, no other text: {"relevant": [numbers of the relevant candidates]}
If none is relevant, answer {"relevant": []}
/no_think"#;

/// The prompt of [`rate_similarity`]. `{entries}` becomes the numbered list of recorded
/// entries, `{entry}` the new one.
pub const SIMILARITY_PROMPT: &str = r#"You check a glossary for duplicates before a new entry is added.

Recorded entries:
{entries}

New entry:
{entry}

For each recorded entry, rate from 0.0 to 1.0 how much the new entry says the same thing (1.0: the same term or rule again, in other words; 0.0: unrelated).
Answer with JSON only, no other text: {"scores": [one number per recorded entry, in their order]}
/no_think"#;

/// The model's answer is a handful of numbers; this caps what a misbehaving server can make us
/// read and allocate.
const MAX_BODY_BYTES: u64 = 1 << 20;

/// Where and how to ask.
#[derive(Debug, Clone, Copy)]
pub struct LlmRequest<'a> {
    /// Full URL of the chat-completions endpoint, e.g. `http://127.0.0.1:1234/v1/chat/completions`.
    pub endpoint: &'a str,
    pub model: &'a str,
    /// Sent as `Authorization: Bearer …` when not blank.
    pub api_key: &'a str,
    /// Bound on the whole call, from connecting to the last byte of the answer.
    pub timeout: Duration,
    /// Prompt template with `{candidates}` and `{message}`; see [`DEFAULT_PROMPT`].
    pub template: &'a str,
}

/// Why no verdict came back. The Display form is one short line for the debug log.
#[derive(Debug)]
pub enum LlmError {
    /// The endpoint is not a plain `http://` URL (this build has no TLS).
    BadEndpoint(String),
    /// Nothing listens at the endpoint.
    Refused,
    /// The whole call took longer than the timeout.
    Timeout(Duration),
    /// The server answered with a status outside 2xx.
    Status(u16),
    /// The server answered 2xx, but not with a chat completion whose content is a string.
    BadBody(String),
    /// Any other network or protocol failure (connection reset, closed without answer, …).
    Transport(String),
}

impl fmt::Display for LlmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlmError::BadEndpoint(why) => write!(f, "bad endpoint: {why}"),
            LlmError::Refused => f.write_str("connection refused"),
            LlmError::Timeout(d) => write!(f, "timed out after {} ms", d.as_millis()),
            LlmError::Status(code) => write!(f, "HTTP {code}"),
            LlmError::BadBody(why) => write!(f, "bad body: {why}"),
            LlmError::Transport(why) => write!(f, "request failed: {why}"),
        }
    }
}

impl std::error::Error for LlmError {}

/// Fills the template in one pass, so that a `{message}` or `{candidates}` written inside the
/// message or an explanation is left as it is rather than expanded again.
///
/// Candidates become lines `N. term: explanation`, numbered from 1. Line breaks inside a term
/// or explanation are turned into spaces, so that each candidate stays on its own numbered
/// line and an explanation cannot fake further entries.
pub fn render_prompt(template: &str, candidates: &[(&str, &str)], message: &str) -> String {
    fill(template, &[("{candidates}", &numbered(candidates)), ("{message}", message)])
}

/// Lines `N. term: explanation`, numbered from 1, each entry on one line.
fn numbered(entries: &[(&str, &str)]) -> String {
    entries
        .iter()
        .enumerate()
        .map(|(i, (term, explanation))| {
            format!("{}. {}: {}", i + 1, one_line(term), one_line(explanation))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replaces each placeholder of `values` in `template`, in one pass.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let size = values.iter().map(|(_, v)| v.len()).sum::<usize>();
    let mut out = String::with_capacity(template.len() + size);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        match values.iter().find(|(name, _)| tail.starts_with(name)) {
            Some((name, value)) => {
                out.push_str(value);
                rest = &tail[name.len()..];
            }
            None => {
                out.push('{');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn one_line(s: &str) -> String {
    s.split(['\r', '\n']).filter(|part| !part.trim().is_empty()).collect::<Vec<_>>().join(" ")
}

/// Reads the model's answer: 0-based indices of the candidates it judged relevant, ascending,
/// without duplicates; `n` is the number of candidates that were listed.
///
/// Reasoning blocks and code fences are removed, then the `relevant` array of the first JSON
/// object in the text is used. Without such an array (prose, or JSON cut short by the token
/// limit), every standalone integer in the text counts. Numbers outside `1..=n` are dropped.
pub fn parse_verdict(content: &str, n: usize) -> Vec<usize> {
    let text = strip_fences(&strip_think(content));
    let numbers = relevant_from_json(&text).unwrap_or_else(|| bare_integers(&text));
    let picked: BTreeSet<usize> = numbers
        .into_iter()
        .filter(|&k| (1..=n as u64).contains(&k))
        .map(|k| k as usize - 1)
        .collect();
    picked.into_iter().collect()
}

/// Removes `<think>…</think>` blocks; an unclosed `<think>` runs to the end. A `</think>`
/// without an opening tag also ends reasoning: some chat templates put `<think>` into the
/// prompt, so the answer starts inside the block.
fn strip_think(content: &str) -> String {
    const OPEN: &str = "<think>";
    const CLOSE: &str = "</think>";
    // ASCII lowercasing keeps byte offsets, so positions found in `lower` index `content`.
    let lower = content.to_ascii_lowercase();
    let mut start = 0;
    if let (Some(close), open) = (lower.find(CLOSE), lower.find(OPEN)) {
        if open.is_none_or(|o| o > close) {
            start = close + CLOSE.len();
        }
    }
    let mut out = String::with_capacity(content.len());
    while let Some(o) = lower[start..].find(OPEN).map(|o| o + start) {
        out.push_str(&content[start..o]);
        match lower[o..].find(CLOSE) {
            Some(c) => start = o + c + CLOSE.len(),
            None => return out,
        }
    }
    out.push_str(&content[start..]);
    out
}

/// Removes Markdown code fences (```` ``` ```` and an info word such as `json` right after it).
fn strip_fences(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("```") {
        out.push_str(&rest[..at]);
        let after = rest[at..].trim_start_matches('`');
        rest = after.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    }
    out.push_str(rest);
    out
}

/// The numbers in the `relevant` array of the first JSON object in `text`, or `None` when there
/// is no complete JSON object or the first one has no such array.
fn relevant_from_json(text: &str) -> Option<Vec<u64>> {
    let object = text.match_indices('{').find_map(|(at, _)| {
        // A streaming deserializer reads one value and ignores what follows it.
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(Value::Object(map))) => Some(map),
            _ => None,
        }
    })?;
    let list = object.get("relevant")?.as_array()?;
    Some(
        list.iter()
            .filter_map(|v| match v {
                Value::Number(num) => num.as_u64(),
                Value::String(s) => s.trim().parse().ok(),
                _ => None,
            })
            .collect(),
    )
}

/// Every run of digits that stands alone: not part of a word such as `qwen3` and not negative.
fn bare_integers(text: &str) -> Vec<u64> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let before_ok = start == 0 || !(word(bytes[start - 1]) || bytes[start - 1] == b'-');
        let after_ok = i == bytes.len() || !word(bytes[i]);
        if before_ok && after_ok {
            if let Ok(k) = text[start..i].parse() {
                out.push(k);
            }
        }
    }
    out
}

/// Asks the model which candidates the message refers to; returns their 0-based indices,
/// ascending. No candidates means no call.
pub fn confirm(
    req: &LlmRequest,
    candidates: &[(&str, &str)],
    message: &str,
) -> Result<Vec<usize>, LlmError> {
    if candidates.is_empty() {
        return Ok(Vec::new());
    }
    let content = chat(req, &render_prompt(req.template, candidates, message), 32)?;
    Ok(parse_verdict(&content, candidates.len()))
}

/// Asks the model how much the new entry (term, explanation) repeats each of `entries`; returns
/// one score from 0 to 1 per entry, in their order. `req.template` is the prompt, with
/// `{entries}` and `{entry}` (see [`SIMILARITY_PROMPT`]). No entries means no call. An answer
/// that gives no scores is an [`LlmError::BadBody`]: the caller cannot tell it from a failure.
pub fn rate_similarity(
    req: &LlmRequest,
    entries: &[(&str, &str)],
    new: (&str, &str),
) -> Result<Vec<f64>, LlmError> {
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let entry = format!("{}: {}", one_line(new.0), one_line(new.1));
    let prompt = fill(req.template, &[("{entries}", &numbered(entries)), ("{entry}", &entry)]);
    // Ten scores such as `0.15, ` and the JSON around them.
    let content = chat(req, &prompt, 96)?;
    parse_scores(&content, entries.len()).ok_or_else(|| {
        LlmError::BadBody(format!("no scores in the answer: {}", one_line(&content)))
    })
}

/// Reads the scores of [`rate_similarity`]'s answer: the `scores` array of the first JSON
/// object in the text (reasoning blocks and code fences removed), or failing that the first
/// JSON array. Each score is clamped to 0–1; a missing one is 0, extra ones are dropped; an
/// entry that is not a number (or a string holding one) is 0. `None` when there is no such
/// array.
pub fn parse_scores(content: &str, n: usize) -> Option<Vec<f64>> {
    let text = strip_fences(&strip_think(content));
    let list = text.match_indices(['{', '[']).find_map(|(at, _)| {
        let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
        match values.next() {
            Some(Ok(Value::Object(mut map))) => match map.remove("scores") {
                Some(Value::Array(list)) => Some(list),
                _ => None,
            },
            Some(Ok(Value::Array(list))) => Some(list),
            _ => None,
        }
    })?;
    let score = |v: &Value| {
        let x = match v {
            Value::Number(num) => num.as_f64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        };
        x.filter(|x: &f64| x.is_finite()).map_or(0.0, |x| x.clamp(0.0, 1.0))
    };
    let mut scores: Vec<f64> = list.iter().take(n).map(score).collect();
    scores.resize(n, 0.0);
    Some(scores)
}

/// One chat-completions call with `prompt` as the user's whole message, answered in at most
/// `max_tokens`: the answer's text with reasoning blocks and code fences removed (what a
/// caller with a prompt of its own parses). `req.template` is not used.
pub fn ask(req: &LlmRequest, prompt: &str, max_tokens: u32) -> Result<String, LlmError> {
    Ok(strip_fences(&strip_think(&chat(req, prompt, max_tokens)?)))
}

/// One chat-completions call with `prompt` as the user's message, answered in at most
/// `max_tokens`: the answer's text.
fn chat(req: &LlmRequest, prompt: &str, max_tokens: u32) -> Result<String, LlmError> {
    let proxy = check_endpoint(req.endpoint)?;

    let config = ureq::Agent::config_builder()
        .timeout_global(Some(req.timeout))
        // Status is checked below, so that a 4xx/5xx is reported as such.
        .http_status_as_error(false)
        // A redirected POST is not something a chat endpoint does; report it as a status.
        .max_redirects(0)
        .proxy(proxy)
        // ureq's 128 KiB buffers are fresh memory, faulted in page by page; a chat request and
        // its answer are a few KiB (a longer body just goes out in more pieces).
        .input_buffer_size(16 * 1024)
        .output_buffer_size(16 * 1024)
        .build();
    let agent = ureq::Agent::with_parts(config, DefaultConnector::default(), LiteralHosts);

    let body = serde_json::json!({
        "model": req.model,
        "messages": [{ "role": "user", "content": prompt }],
        "temperature": 0,
        "max_tokens": max_tokens,
    });
    let mut request = agent.post(req.endpoint).header("Content-Type", "application/json");
    let key = req.api_key.trim();
    if !key.is_empty() {
        request = request.header("Authorization", format!("Bearer {key}"));
    }

    let mut response = request.send_json(&body).map_err(|e| from_ureq(e, req.timeout))?;
    let status = response.status().as_u16();
    if !(200..300).contains(&status) {
        return Err(LlmError::Status(status));
    }
    // The global timeout keeps running while the body is read.
    let text = response
        .body_mut()
        .with_config()
        .limit(MAX_BODY_BYTES)
        .read_to_string()
        .map_err(|e| from_ureq(e, req.timeout))?;
    chat_content(&text)
}

/// Resolves a host given as an IP address without a lookup, and any other by ureq's default
/// resolver.
///
/// The default resolver runs every lookup on a thread of its own, so that the timeout bounds it
/// too, and a new thread gets its own memory arena: a tenth of a millisecond, measured, on the
/// smart path's budget of one. The local model servers smart matching talks to are nearly always
/// given as `127.0.0.1`, where there is nothing to look up. (ureq's resolver interface is in its
/// `unversioned` module, outside its semver promise; Cargo.lock pins the version.)
#[derive(Debug)]
struct LiteralHosts;

impl Resolver for LiteralHosts {
    fn resolve(
        &self,
        uri: &ureq::http::Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let literal = uri.host().and_then(|h| h.trim_matches(['[', ']']).parse::<IpAddr>().ok());
        match literal {
            Some(ip) => {
                let mut addrs = self.empty();
                addrs.push(SocketAddr::new(ip, uri.port_u16().unwrap_or(80)));
                Ok(addrs)
            }
            None => DefaultResolver::default().resolve(uri, config, timeout),
        }
    }
}

/// Accepts only `http://` URLs. An `https://` endpoint would otherwise get plain HTTP sent to a
/// TLS port (this build has no TLS) and fail obscurely. Returns the proxy to use: none for a
/// loopback host, since a proxy taken from the environment cannot reach our own machine's
/// server, else whatever the environment sets.
fn check_endpoint(endpoint: &str) -> Result<Option<ureq::Proxy>, LlmError> {
    let uri: ureq::http::Uri =
        endpoint.parse().map_err(|e| LlmError::BadEndpoint(format!("{endpoint}: {e}")))?;
    match uri.scheme_str() {
        Some(s) if s.eq_ignore_ascii_case("http") => {}
        Some(s) if s.eq_ignore_ascii_case("https") => {
            return Err(LlmError::BadEndpoint("https is not supported, use http://".into()));
        }
        _ => return Err(LlmError::BadEndpoint(format!("{endpoint}: not an http:// URL"))),
    }
    let host = uri.host().unwrap_or("").trim_start_matches('[').trim_end_matches(']');
    let loopback = host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
    Ok(if loopback { None } else { ureq::Proxy::try_from_env() })
}

fn from_ureq(e: ureq::Error, timeout: Duration) -> LlmError {
    match e {
        ureq::Error::Timeout(_) => LlmError::Timeout(timeout),
        ureq::Error::Io(io) if io.kind() == io::ErrorKind::ConnectionRefused => LlmError::Refused,
        ureq::Error::Io(io)
            if matches!(io.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock) =>
        {
            LlmError::Timeout(timeout)
        }
        ureq::Error::BodyExceedsLimit(limit) => {
            LlmError::BadBody(format!("longer than {limit} bytes"))
        }
        // Reading the body as text reports invalid UTF-8 this way.
        ureq::Error::Io(io) if io.kind() == io::ErrorKind::InvalidData => {
            LlmError::BadBody(io.to_string())
        }
        other => LlmError::Transport(other.to_string()),
    }
}

/// `choices[0].message.content` of a chat-completions body.
fn chat_content(body: &str) -> Result<String, LlmError> {
    let value: Value =
        serde_json::from_str(body).map_err(|e| LlmError::BadBody(format!("not JSON ({e})")))?;
    let first = value
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or_else(|| LlmError::BadBody("no choices".into()))?;
    match first.get("message").and_then(|m| m.get("content")) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(LlmError::BadBody("content is not a string".into())),
        None => Err(LlmError::BadBody("no message content".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANDS: &[(&str, &str)] = &[("alpha", "first"), ("beta", "second"), ("gamma", "third")];

    #[test]
    fn render_numbers_candidates_and_inserts_message() {
        let p = render_prompt("C:\n{candidates}\nM: {message}!", CANDS, "hello");
        assert_eq!(p, "C:\n1. alpha: first\n2. beta: second\n3. gamma: third\nM: hello!");
    }

    #[test]
    fn render_does_not_expand_placeholders_inside_inserted_text() {
        let cands = [("t", "see {message}")];
        let p = render_prompt("{candidates} | {message}", &cands, "why {candidates}?");
        assert_eq!(p, "1. t: see {message} | why {candidates}?");
    }

    #[test]
    fn render_keeps_other_braces_and_repeated_placeholders() {
        let p = render_prompt(r#"{"relevant": []} {message}{message} {x"#, &[], "m");
        assert_eq!(p, r#"{"relevant": []} mm {x"#);
    }

    #[test]
    fn render_puts_each_candidate_on_one_line() {
        let cands = [("a\nb", "line one\r\n2. fake: entry\n")];
        assert_eq!(render_prompt("{candidates}", &cands, ""), "1. a b: line one 2. fake: entry");
    }

    #[test]
    fn default_prompt_has_both_placeholders_and_no_think() {
        assert!(DEFAULT_PROMPT.contains("{candidates}"));
        assert!(DEFAULT_PROMPT.contains("{message}"));
        assert!(DEFAULT_PROMPT.trim_end().ends_with("/no_think"));
        let p = render_prompt(DEFAULT_PROMPT, CANDS, "msg");
        assert!(p.contains("2. beta: second") && p.contains("msg"));
        assert!(p.contains(r#"{"relevant": []}"#));
    }

    #[test]
    fn verdict_plain_json() {
        assert_eq!(parse_verdict(r#"{"relevant": [3, 1]}"#, 3), vec![0, 2]);
    }

    #[test]
    fn verdict_think_and_fence() {
        let c =
            "<think>\nMaybe 2? {\"relevant\": [2]}\n</think>\n\n```json\n{\"relevant\": [1]}\n```";
        assert_eq!(parse_verdict(c, 3), vec![0]);
    }

    #[test]
    fn verdict_unclosed_think_gives_nothing() {
        assert_eq!(parse_verdict("<think>candidate 1 fits, and 2", 3), Vec::<usize>::new());
    }

    #[test]
    fn verdict_answer_after_stray_close_tag() {
        assert_eq!(parse_verdict("1 and 3 look close</think>{\"relevant\":[2]}", 3), vec![1]);
    }

    #[test]
    fn verdict_bare_numbers() {
        assert_eq!(parse_verdict("1, 3", 3), vec![0, 2]);
        assert_eq!(parse_verdict("Relevant: 2.", 3), vec![1]);
    }

    #[test]
    fn verdict_truncated_json_falls_back_to_numbers() {
        assert_eq!(parse_verdict(r#"{"relevant": [1, 3"#, 3), vec![0, 2]);
    }

    #[test]
    fn verdict_drops_out_of_range() {
        assert_eq!(
            parse_verdict(r#"{"relevant": [0, 2, 4, -1, 99999999999999999999]}"#, 3),
            vec![1]
        );
        assert_eq!(parse_verdict("0, 2, 7, -1", 3), vec![1]);
    }

    #[test]
    fn verdict_dedupes() {
        assert_eq!(parse_verdict(r#"{"relevant": [2, 2, "2", 1]}"#, 3), vec![0, 1]);
        assert_eq!(parse_verdict("3 3 3", 3), vec![2]);
    }

    #[test]
    fn verdict_garbage_is_empty() {
        assert_eq!(parse_verdict("I cannot tell.", 3), Vec::<usize>::new());
        assert_eq!(parse_verdict("", 3), Vec::<usize>::new());
        assert_eq!(parse_verdict("qwen3 says x2", 3), Vec::<usize>::new());
    }

    #[test]
    fn verdict_empty_relevant_is_empty() {
        assert_eq!(parse_verdict(r#"{"relevant": []}"#, 3), Vec::<usize>::new());
        // An explicit empty list wins over numbers elsewhere in the text.
        assert_eq!(parse_verdict(r#"Not 1 or 2. {"relevant": []}"#, 3), Vec::<usize>::new());
    }

    #[test]
    fn verdict_with_no_candidates_is_empty() {
        assert_eq!(parse_verdict(r#"{"relevant": [1]}"#, 0), Vec::<usize>::new());
    }

    #[test]
    fn similarity_prompt_lists_entries_and_the_new_one() {
        let p = fill(SIMILARITY_PROMPT, &[("{entries}", &numbered(CANDS)), ("{entry}", "new: x")]);
        assert!(p.contains("1. alpha: first\n2. beta: second\n3. gamma: third"));
        assert!(p.contains("New entry:\nnew: x\n"));
        assert!(p.contains(r#"{"scores": ["#) && p.trim_end().ends_with("/no_think"));
    }

    #[test]
    fn scores_from_json_arrays_and_loose_answers() {
        assert_eq!(parse_scores(r#"{"scores": [0.1, 0.9, 0]}"#, 3), Some(vec![0.1, 0.9, 0.0]));
        let fenced =
            "<think>maybe {\"scores\": [1, 1, 1]}</think>```json\n{\"scores\": [0.7]}\n```";
        assert_eq!(parse_scores(fenced, 2), Some(vec![0.7, 0.0]));
        assert_eq!(parse_scores("[0.2, \"0.8\", 3, -1, null]", 4), Some(vec![0.2, 0.8, 1.0, 0.0]));
        // The first object that has scores.
        assert_eq!(parse_scores(r#"{"other": 1} then {"scores": [0.5]}"#, 1), Some(vec![0.5]));
        assert_eq!(parse_scores("The first one is similar.", 2), None);
        assert_eq!(parse_scores(r#"{"scores": [0.5"#, 1), None);
        assert_eq!(parse_scores("", 1), None);
    }

    #[test]
    fn endpoint_checks() {
        assert!(matches!(check_endpoint("https://x/v1"), Err(LlmError::BadEndpoint(_))));
        assert!(matches!(check_endpoint("localhost:1234"), Err(LlmError::BadEndpoint(_))));
        assert!(matches!(check_endpoint("not a url"), Err(LlmError::BadEndpoint(_))));
        assert!(matches!(check_endpoint("http://127.0.0.1:1234/v1"), Ok(None)));
        assert!(matches!(check_endpoint("http://[::1]:1234/v1"), Ok(None)));
        assert!(matches!(check_endpoint("HTTP://LocalHost:1234/v1"), Ok(None)));
    }

    #[test]
    fn error_display_is_short() {
        assert_eq!(
            LlmError::Timeout(Duration::from_millis(3000)).to_string(),
            "timed out after 3000 ms"
        );
        assert_eq!(LlmError::Status(500).to_string(), "HTTP 500");
        assert_eq!(LlmError::Refused.to_string(), "connection refused");
    }
}
