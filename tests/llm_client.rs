//! The LLM client against a real HTTP server on 127.0.0.1: real sockets, real ureq.

#[path = "support/llm_server.rs"]
mod llm_server;

use std::time::{Duration, Instant};

use llm_server::{refused_port, LlmServer, Reply};
use tinylingo::matching::llm::{confirm, render_prompt, LlmError, LlmRequest, DEFAULT_PROMPT};

const CANDS: &[(&str, &str)] =
    &[("k8s", "Kubernetes"), ("PR", "pull request"), ("LGTM", "looks good to me")];
const MESSAGE: &str = "please open a PR for this";

/// Generous enough that a busy machine does not turn a normal answer into a timeout.
fn request(endpoint: &str) -> LlmRequest<'_> {
    LlmRequest {
        endpoint,
        model: "qwen3-0.6b",
        api_key: "",
        timeout: Duration::from_secs(5),
        template: DEFAULT_PROMPT,
    }
}

/// Asks a one-reply server and returns the outcome with the server, for request assertions.
fn ask(reply: Reply) -> (Result<Vec<usize>, LlmError>, LlmServer) {
    let server = LlmServer::start(vec![reply]);
    let endpoint = server.endpoint();
    let result = confirm(&request(&endpoint), CANDS, MESSAGE);
    (result, server)
}

#[test]
fn confirms_the_candidates_named() {
    let (result, server) = ask(Reply::content(r#"{"relevant": [2]}"#));
    assert_eq!(result.unwrap(), vec![1]);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].path, "/v1/chat/completions");
}

#[test]
fn rejects_when_the_list_is_empty() {
    let (result, _server) = ask(Reply::content(r#"{"relevant": []}"#));
    assert_eq!(result.unwrap(), Vec::<usize>::new());
}

#[test]
fn reads_an_answer_wrapped_in_think_and_fences() {
    let content =
        "<think>\nThe user says PR, maybe 1?\n</think>\n\n```json\n{\"relevant\": [3, 2]}\n```";
    let (result, _server) = ask(Reply::content(content));
    assert_eq!(result.unwrap(), vec![1, 2]);
}

#[test]
fn reads_bare_numbers() {
    let (result, _server) = ask(Reply::content("1, 3"));
    assert_eq!(result.unwrap(), vec![0, 2]);
}

#[test]
fn drops_numbers_out_of_range() {
    let (result, _server) = ask(Reply::content(r#"{"relevant": [0, 2, 4, 17]}"#));
    assert_eq!(result.unwrap(), vec![1]);
}

#[test]
fn non_2xx_is_an_error() {
    let server = LlmServer::start(vec![
        Reply::raw(500, r#"{"error": "model crashed"}"#),
        Reply::raw(404, r#"{"error": "no such model"}"#),
    ]);
    let endpoint = server.endpoint();
    let err = confirm(&request(&endpoint), CANDS, MESSAGE).unwrap_err();
    assert!(matches!(err, LlmError::Status(500)), "{err:?}");
    assert_eq!(err.to_string(), "HTTP 500");
    let err = confirm(&request(&endpoint), CANDS, MESSAGE).unwrap_err();
    assert!(matches!(err, LlmError::Status(404)), "{err:?}");
}

#[test]
fn malformed_bodies_are_errors() {
    let bodies = [
        "this is not json",
        r#"{"choices": []}"#,
        r#"{"error": "nope"}"#,
        r#"{"choices": [{"message": {"role": "assistant", "content": 2}}]}"#,
        r#"{"choices": [{"message": {"role": "assistant", "content": null}}]}"#,
    ];
    let server = LlmServer::start(bodies.iter().map(|b| Reply::raw(200, *b)).collect());
    let endpoint = server.endpoint();
    for body in bodies {
        let err = confirm(&request(&endpoint), CANDS, MESSAGE).unwrap_err();
        assert!(matches!(err, LlmError::BadBody(_)), "{body}: {err:?}");
        assert!(err.to_string().starts_with("bad body: "), "{err}");
    }
    assert_eq!(server.requests().len(), bodies.len());
}

/// `confirm` with a 300 ms timeout against a server that gives `reply`: the error, how long
/// the call took, and the server (for its requests).
fn confirm_within_300_ms(reply: Reply) -> (LlmError, Duration, LlmServer) {
    let server = LlmServer::start(vec![reply]);
    let endpoint = server.endpoint();
    let req = LlmRequest { timeout: Duration::from_millis(300), ..request(&endpoint) };
    let started = Instant::now();
    let err = confirm(&req, CANDS, MESSAGE).unwrap_err();
    (err, started.elapsed(), server)
}

#[test]
fn a_slow_answer_times_out_within_the_bound() {
    let reply = Reply::content(r#"{"relevant": [1]}"#).after(Duration::from_secs(3));
    let (err, elapsed, server) = confirm_within_300_ms(reply);

    assert!(matches!(err, LlmError::Timeout(_)), "{err:?}");
    assert_eq!(err.to_string(), "timed out after 300 ms");
    // The request reached the server, so the time went into waiting for the answer.
    assert_eq!(server.requests().len(), 1);
    assert!(elapsed >= Duration::from_millis(250), "gave up early: {elapsed:?}");
    assert!(elapsed < Duration::from_millis(1500), "took {elapsed:?}");
}

#[test]
fn the_timeout_covers_reading_the_body() {
    let reply = Reply::BodyAfter(Duration::from_secs(3), r#"{"relevant": [1]}"#.into());
    let (err, elapsed, _server) = confirm_within_300_ms(reply);

    assert!(matches!(err, LlmError::Timeout(_)), "{err:?}");
    assert!(elapsed < Duration::from_millis(1500), "took {elapsed:?}");
}

#[test]
fn a_refused_connection_is_an_error() {
    let endpoint = format!("http://127.0.0.1:{}/v1/chat/completions", refused_port());
    let started = Instant::now();
    let err = confirm(&request(&endpoint), CANDS, MESSAGE).unwrap_err();
    assert!(matches!(err, LlmError::Refused), "{err:?}");
    assert_eq!(err.to_string(), "connection refused");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_connection_closed_without_answer_is_an_error() {
    let (result, server) = ask(Reply::Close);
    let err = result.unwrap_err();
    assert!(matches!(err, LlmError::Transport(_)), "{err:?}");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn https_is_refused_without_a_call() {
    let err =
        confirm(&request("https://127.0.0.1:1/v1/chat/completions"), CANDS, MESSAGE).unwrap_err();
    assert!(matches!(err, LlmError::BadEndpoint(_)), "{err:?}");
}

#[test]
fn no_candidates_means_no_call() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant": [1]}"#)]);
    let endpoint = server.endpoint();
    assert_eq!(confirm(&request(&endpoint), &[], MESSAGE).unwrap(), Vec::<usize>::new());
    assert!(server.requests().is_empty());
}

#[test]
fn bearer_header_only_with_an_api_key() {
    let answer = r#"{"relevant": [1]}"#;
    let server = LlmServer::start(vec![Reply::content(answer), Reply::content(answer)]);
    let endpoint = server.endpoint();

    let with_key = LlmRequest { api_key: "sk-test-123", ..request(&endpoint) };
    confirm(&with_key, CANDS, MESSAGE).unwrap();
    confirm(&request(&endpoint), CANDS, MESSAGE).unwrap();

    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].header("Authorization"), Some("Bearer sk-test-123"));
    assert_eq!(requests[1].header("Authorization"), None);
}

#[test]
fn the_request_body_follows_the_spec() {
    let (result, server) = ask(Reply::content(r#"{"relevant": [2]}"#));
    result.unwrap();
    let requests = server.requests();
    let sent = &requests[0];

    assert_eq!(sent.header("content-type"), Some("application/json"));
    let content_types = sent.headers.iter().filter(|(n, _)| n == "content-type").count();
    assert_eq!(content_types, 1, "{:?}", sent.headers);
    let body = &sent.body;
    assert_eq!(body["model"], "qwen3-0.6b");
    assert_eq!(body["temperature"].as_f64(), Some(0.0));
    assert_eq!(body["max_tokens"], 32);
    let messages = body["messages"].as_array().expect("messages array");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], "user");

    let prompt = sent.prompt().expect("prompt string");
    assert_eq!(prompt, render_prompt(DEFAULT_PROMPT, CANDS, MESSAGE));
    assert!(prompt.contains("1. k8s: Kubernetes\n2. PR: pull request\n3. LGTM: looks good to me"));
    assert!(prompt.contains(MESSAGE));
    assert!(prompt.trim_end().ends_with("/no_think"));
}

#[test]
fn a_custom_template_is_used() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant": [1]}"#)]);
    let endpoint = server.endpoint();
    let req =
        LlmRequest { template: "Terms:\n{candidates}\nText: {message}", ..request(&endpoint) };
    confirm(&req, &CANDS[..1], "k8s {candidates}").unwrap();
    assert_eq!(
        server.requests()[0].prompt(),
        Some("Terms:\n1. k8s: Kubernetes\nText: k8s {candidates}")
    );
}
