//! Smart matching end to end (issue 4): the real `tinylingo` binary, with `smart.enabled`, talking
//! to a real chat-completions server on 127.0.0.1 (`support/llm_server.rs`). Covers the fuzzy
//! prefilter's design example, the hook's merged answer for every kind of model reply and
//! failure, the request it sends, `match` with and without the model, and the debug log.

mod common;
#[path = "support/llm_server.rs"]
mod llm_server;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{claude_answer, claude_event, run_command, Home, Output, SEED};
use llm_server::{chat_body, refused_port, LlmServer, Reply};
use serde_json::json;

/// The design's example: no exact hit, and `智能抠图` scores exactly 0.2 (a candidate at the
/// default threshold).
const DESIGN_PROMPT: &str = "抠图功能有bug";
/// One exact hit (`提交`) and one candidate (`智能抠图`, 0.20).
const ONE_CANDIDATE: &str = "抠图功能有bug，帮我提交一下";
/// One exact hit (`提交`) and two candidates, in this order: `依赖更新` (0.40), `智能抠图` (0.20).
const TWO_CANDIDATES: &str = "抠图功能有bug，依赖要更新，帮我提交一下";
/// With [`EXTRA`] recorded too: one exact hit (`提交`) and three candidates, in this order:
/// `代码审查` (0.50), `依赖更新` (0.40), `智能抠图` (0.20).
const THREE_CANDIDATES: &str = "抠图功能有bug，依赖要更新，审查代码后帮我提交一下";
const EXTRA: (&str, &str) = ("代码审查", "合并前由 ProjectA 的 CODEOWNERS 审查，至少一人批准");
/// One exact hit (`提交`) and no candidate at all.
const NO_CANDIDATE: &str = "帮我提交一下";

fn seed(term: &str) -> (&'static str, &'static str) {
    *SEED.iter().chain([&EXTRA]).find(|(t, _)| *t == term).expect("a known term")
}

/// The seed glossary, smart matching on, the model at `endpoint`.
fn smart_home(endpoint: &str) -> Home {
    let home = Home::new();
    home.record_all(&SEED);
    home.run(&["config", "smart.endpoint", endpoint]).ok();
    home.run(&["config", "smart.enabled", "true"]).ok();
    home
}

/// An endpoint where nothing listens.
fn refused_endpoint() -> String {
    format!("http://127.0.0.1:{}/v1/chat/completions", refused_port())
}

/// Asserts the hook exited 0, wrote nothing on stderr, and answered with exactly these hits
/// (nothing at all on stdout when `hits` is empty).
#[track_caller]
fn assert_answer(out: &Output, hits: &[&str], what: &str) {
    assert_eq!(out.code, 0, "{what}: exit code; stderr: {}", out.stderr);
    assert_eq!(out.stderr, "", "{what}: stderr");
    if hits.is_empty() {
        assert_eq!(out.stdout, "", "{what}: stdout must be empty");
        return;
    }
    let expected: Vec<(&str, &str)> = hits.iter().map(|t| seed(t)).collect();
    assert_eq!(out.json(), claude_answer(&expected), "{what}: the hook's answer");
}

/// Runs the Claude Code hook once against a one-reply server and returns its output and the
/// requests the server received.
fn hook_with_reply(prompt: &str, reply: Reply) -> (Output, Vec<llm_server::Recorded>) {
    let server = LlmServer::start(vec![reply]);
    let home = smart_home(&server.endpoint());
    let out = home.claude_hook(prompt);
    (out, server.requests())
}

/// Asserts that nothing but a probe of ours ever reached `server`: the server answers
/// connections one at a time in the order they arrived, so once the probe (its only scripted
/// reply) has been answered, any request made before it would have been accepted and recorded
/// first (and would have used up the reply, leaving the probe unanswered).
#[track_caller]
fn assert_no_request_before_probe(server: &LlmServer, what: &str) {
    let probe = (|| -> std::io::Result<String> {
        let mut s = TcpStream::connect(("127.0.0.1", server.port()))?;
        s.set_read_timeout(Some(Duration::from_secs(10)))?;
        let body = r#"{"probe":true}"#;
        write!(
            s,
            "POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )?;
        let mut answer = String::new();
        s.read_to_string(&mut answer)?;
        Ok(answer)
    })();
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/probe"], "{what}: the server must have seen no request but the probe");
    let answer = probe.expect("the probe gets an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{what}: probe answer {answer}");
}

// ---------------------------------------------------------------------------------------------
// The design example, without the model.

#[test]
fn design_example_is_a_candidate_at_the_default_threshold() {
    let home = Home::new();
    home.record_all(&SEED);
    let out = home.run(&["match", "--no-llm", DESIGN_PROMPT]);
    out.ok();
    let (term, explanation) = seed("智能抠图");
    assert_eq!(out.stdout, format!("[候选] {term} (jaccard 0.20) → {explanation}\n"));

    let out = home.run(&["match", "--json", "--no-llm", DESIGN_PROMPT]);
    out.ok();
    assert_eq!(
        out.json(),
        json!({
            "exact": [],
            "candidates": [
                {"term": term, "explanation": explanation, "score": 0.2, "confirmed": null, "scope": "user"}
            ]
        })
    );
}

#[test]
fn no_llm_never_asks_the_model_even_with_smart_on() {
    let server = LlmServer::start(vec![Reply::content("{}")]);
    let home = smart_home(&server.endpoint());
    let out = home.run(&["match", "--json", "--no-llm", ONE_CANDIDATE]);
    out.ok();
    let v = out.json();
    assert_eq!(
        v["exact"],
        json!([{"term": "提交", "explanation": seed("提交").1, "case": "none", "scope": "user"}])
    );
    assert_eq!(v["candidates"][0]["confirmed"], json!(null));
    assert_no_request_before_probe(&server, "match --no-llm");
}

// ---------------------------------------------------------------------------------------------
// The hook with smart on: what the model says decides the smart hits.

#[test]
fn hook_adds_a_confirmed_candidate_after_the_exact_hits() {
    let (out, requests) = hook_with_reply(ONE_CANDIDATE, Reply::content(r#"{"relevant":[1]}"#));
    assert_eq!(requests.len(), 1, "one request to the model");
    assert_answer(&out, &["提交", "智能抠图"], "confirmed");
    // Exact first, then smart, each once.
    let context =
        out.json()["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string();
    assert_eq!(context.matches("- 提交: ").count(), 1);
    assert_eq!(context.matches("- 智能抠图: ").count(), 1);
    assert!(context.find("- 提交: ") < context.find("- 智能抠图: "));
}

/// A prompt far larger than the client's buffers (16 KiB each way) still goes to the model
/// whole, and the answer is read.
#[test]
fn hook_sends_a_long_prompt_whole() {
    let prompt = format!("{ONE_CANDIDATE}{}", "，这是一段很长的补充说明".repeat(6_000));
    let (out, requests) = hook_with_reply(&prompt, Reply::content(r#"{"relevant":[1]}"#));
    assert_eq!(requests.len(), 1, "one request to the model");
    let sent = requests[0].body["messages"][0]["content"].as_str().expect("a user message");
    assert!(sent.len() > 100_000, "request content of {} bytes", sent.len());
    assert!(sent.contains(&prompt), "the whole prompt is in the request");
    assert_answer(&out, &["提交", "智能抠图"], "long prompt, confirmed");
}

#[test]
fn hook_confirmation_without_exact_hit_gives_only_the_smart_hit() {
    let (out, requests) = hook_with_reply(DESIGN_PROMPT, Reply::content(r#"{"relevant":[1]}"#));
    assert_eq!(requests.len(), 1);
    assert_answer(&out, &["智能抠图"], "confirmed, no exact hit");
}

#[test]
fn hook_repeated_numbers_give_each_term_once() {
    let (out, _) =
        hook_with_reply(TWO_CANDIDATES, Reply::content(r#"{"relevant":[2, 1, 2, "2"]}"#));
    // After the exact hit, no duplicates; smart hits in glossary order (as `Outcome::hits`
    // documents), not in the order the model named them nor by score.
    assert_answer(&out, &["提交", "智能抠图", "依赖更新"], "repeated numbers");
}

#[test]
fn hook_rejection_leaves_only_the_exact_hits() {
    let (out, requests) = hook_with_reply(ONE_CANDIDATE, Reply::content(r#"{"relevant":[]}"#));
    assert_eq!(requests.len(), 1);
    assert_answer(&out, &["提交"], "rejected");
}

#[test]
fn hook_rejection_without_exact_hit_prints_nothing() {
    let (out, requests) = hook_with_reply(DESIGN_PROMPT, Reply::content(r#"{"relevant":[]}"#));
    assert_eq!(requests.len(), 1);
    assert_answer(&out, &[], "rejected, no exact hit");
}

#[test]
fn hook_reads_an_answer_in_think_and_a_json_fence() {
    let content = "<think>\nThe user means 依赖更新, so maybe {\"relevant\": [1]}?\n</think>\n\n\
                   ```json\n{\"relevant\": [2]}\n```";
    let (out, _) = hook_with_reply(TWO_CANDIDATES, Reply::content(content));
    assert_answer(&out, &["提交", "智能抠图"], "think + fence");
}

#[test]
fn hook_reads_bare_numbers() {
    let server = LlmServer::start(vec![Reply::content("1, 3")]);
    let home = smart_home(&server.endpoint());
    // `--force` skips the near-duplicate check, which with smart matching on would ask the
    // model too, and take the scripted reply.
    home.run(&["record", "--force", EXTRA.0, EXTRA.1]).ok();
    // The three candidates really are 代码审查, 依赖更新, 智能抠图, in that order.
    let listed = home.run(&["match", "--json", "--no-llm", THREE_CANDIDATES]);
    let terms: Vec<String> = listed.json()["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["term"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(terms, ["代码审查", "依赖更新", "智能抠图"]);

    let out = home.claude_hook(THREE_CANDIDATES);
    assert_eq!(server.requests().len(), 1);
    // Confirmed hits follow the exact ones in glossary order, whatever their scores.
    assert_answer(&out, &["提交", "智能抠图", "代码审查"], "bare numbers 1, 3");
}

#[test]
fn hook_drops_out_of_range_numbers() {
    let (out, _) =
        hook_with_reply(TWO_CANDIDATES, Reply::content(r#"{"relevant":[0, 2, 3, -1, 7]}"#));
    assert_answer(&out, &["提交", "智能抠图"], "out of range in JSON");

    let (out, _) = hook_with_reply(TWO_CANDIDATES, Reply::content("0 3 7"));
    assert_answer(&out, &["提交"], "only out-of-range bare numbers");
}

// ---------------------------------------------------------------------------------------------
// The hook with smart on: every failure of the model means "no smart hits", never no answer.

#[test]
fn hook_non_2xx_gives_the_exact_hits_only() {
    // The body would confirm the candidate: a 500 must be ignored whatever it carries.
    let (out, requests) =
        hook_with_reply(ONE_CANDIDATE, Reply::raw(500, chat_body(r#"{"relevant":[1]}"#)));
    assert_eq!(requests.len(), 1);
    assert_answer(&out, &["提交"], "HTTP 500");

    let (out, _) = hook_with_reply(DESIGN_PROMPT, Reply::raw(500, "oops"));
    assert_answer(&out, &[], "HTTP 500, no exact hit");
}

#[test]
fn hook_malformed_body_gives_the_exact_hits_only() {
    for (body, what) in [
        ("this is not json {\"relevant\":[1]}", "not JSON"),
        (r#"{"choices": []}"#, "no choices"),
        (r#"{"choices": [{"message": {"content": 1}}]}"#, "content not a string"),
        (r#"{"choices": [{"text": "{\"relevant\":[1]}"}]}"#, "no message content"),
    ] {
        let (out, requests) = hook_with_reply(ONE_CANDIDATE, Reply::raw(200, body));
        assert_eq!(requests.len(), 1, "{what}");
        assert_answer(&out, &["提交"], what);
    }
}

#[test]
fn hook_closed_connection_gives_the_exact_hits_only() {
    let (out, requests) = hook_with_reply(ONE_CANDIDATE, Reply::Close);
    assert_eq!(requests.len(), 1);
    assert_answer(&out, &["提交"], "connection closed without an answer");
}

#[test]
fn hook_refused_connection_gives_the_exact_hits_only() {
    let home = smart_home(&refused_endpoint());
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "refused");
    assert_answer(&home.claude_hook(DESIGN_PROMPT), &[], "refused, no exact hit");
}

/// The model takes 3 s; `smart.timeoutMs` is 300. The issue demands the hook answer within
/// timeout + 200 ms. Measured around the whole process, so process start, reading the index and
/// the fuzzy stage count too: a run without the model takes ~10 ms here (debug build), so 300
/// ms of allowance on top of 300 + 200 ms covers a busy 2-core machine running other tests in
/// parallel, and 800 ms is still far below the 3 s the server would take.
#[test]
fn hook_slow_model_times_out_with_the_exact_hits() {
    const DELAY: Duration = Duration::from_secs(3);
    const BOUND: Duration = Duration::from_millis(800);
    for reply in [
        Reply::content(r#"{"relevant":[1]}"#).after(DELAY),
        // Headers at once, the body late: the bound covers reading the body too.
        Reply::BodyAfter(DELAY, r#"{"relevant":[1]}"#.to_string()),
    ] {
        let what = format!("{reply:?}");
        let server = LlmServer::start(vec![reply]);
        let home = smart_home(&server.endpoint());
        home.run(&["config", "smart.timeoutMs", "300"]).ok();
        let started = Instant::now();
        let out = home.claude_hook(ONE_CANDIDATE);
        let took = started.elapsed();
        assert_eq!(server.requests().len(), 1, "{what}: the model was asked");
        assert_answer(&out, &["提交"], &what);
        assert!(took < BOUND, "{what}: the hook took {took:?}, bound {BOUND:?}");
        assert!(took < DELAY / 2, "{what}: the hook took {took:?}, the server needs {DELAY:?}");
        // It did wait for the model (the timeout, not an early failure, ended the call).
        assert!(took >= Duration::from_millis(300), "{what}: the hook took only {took:?}");
    }
}

#[test]
fn hook_other_failures_give_the_exact_hits_only() {
    for (reply, what) in [
        (Reply::raw(404, "no such model"), "HTTP 404"),
        (Reply::raw(302, ""), "a redirect"),
        (Reply::raw(204, ""), "HTTP 204, no body"),
        (Reply::raw(429, chat_body(r#"{"relevant":[1]}"#)), "HTTP 429"),
    ] {
        let (out, requests) = hook_with_reply(ONE_CANDIDATE, reply);
        assert_eq!(requests.len(), 1, "{what}");
        assert_answer(&out, &["提交"], what);
    }
}

#[test]
fn https_endpoint_is_refused_and_a_hand_written_one_still_gives_the_exact_hits() {
    // This build carries no TLS: `config` refuses an https endpoint outright, naming http://.
    let home = smart_home(&refused_endpoint());
    let before = std::fs::read(home.config()).unwrap();
    let out = home.run(&["config", "smart.endpoint", "https://127.0.0.1:9/v1/chat/completions"]);
    out.expect_code(2);
    assert!(out.stderr.contains("http://"), "{}", out.stderr);
    assert_eq!(std::fs::read(home.config()).unwrap(), before, "config.json changed");
    // Written into config.json by hand, it is ignored with a warning (the default endpoint is
    // used instead); the prompt is never broken and the exact hits still come through.
    let mut config: serde_json::Value = serde_json::from_slice(&before).unwrap();
    config["smart"]["endpoint"] = json!("https://127.0.0.1:9/v1/chat/completions");
    config["smart"]["timeoutMs"] = json!(300);
    home.write_store_file("config.json", config.to_string().as_bytes());
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "https endpoint");
    let out = home.run(&["match", ONE_CANDIDATE]);
    assert!(
        out.stderr.contains("warning") && out.stderr.contains("smart.endpoint"),
        "{}",
        out.stderr
    );
}

#[test]
fn fuzzy_threshold_decides_what_reaches_the_model() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    let home = smart_home(&server.endpoint());
    // 0.2 is a candidate at 0.2 (inclusive) but not at 0.25.
    home.run(&["config", "smart.fuzzyThreshold", "0.25"]).ok();
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "threshold 0.25");
    let out = home.run(&["match", "--json", "--no-llm", ONE_CANDIDATE]);
    assert_eq!(out.json()["candidates"], json!([]));
    assert_no_request_before_probe(&server, "threshold above the score");

    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    home.run(&["config", "smart.endpoint", &server.endpoint()]).ok();
    home.run(&["config", "smart.fuzzyThreshold", "0.2"]).ok();
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交", "智能抠图"], "threshold 0.2");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn at_most_twelve_candidates_reach_the_model() {
    // Fifteen terms that all score 1/3 on the design prompt (抠图 + one more char): equal scores
    // keep glossary order, and the list is cut at 12.
    let letters = "ABCDEFGHIJKLMNO";
    let extra: Vec<(String, String)> =
        letters.chars().map(|c| (format!("抠图{c}"), format!("抠图模块 {c}"))).collect();
    let extra_refs: Vec<(&str, &str)> =
        extra.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[12, 13]}"#)]);
    let home = Home::new();
    for (term, explanation) in &extra_refs {
        // `--force`: the explanations are alike on purpose (the near-duplicate check would
        // refuse them).
        home.run(&["record", "--force", term, explanation]).ok();
    }
    home.run(&["config", "smart.endpoint", &server.endpoint()]).ok();
    home.run(&["config", "smart.enabled", "true"]).ok();

    let out = home.claude_hook(DESIGN_PROMPT);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let prompt = requests[0].prompt().expect("a prompt");
    let listed: Vec<&str> = prompt
        .lines()
        .filter(|l| l.split_once(". 抠图").is_some_and(|(n, _)| n.parse::<u32>().is_ok()))
        .collect();
    let expected: Vec<String> = extra
        .iter()
        .take(12)
        .enumerate()
        .map(|(i, (t, e))| format!("{}. {t}: {e}", i + 1))
        .collect();
    assert_eq!(listed, expected, "prompt:\n{prompt}");
    // 12 is the twelfth term (抠图L); 13 was never listed and is dropped.
    assert_eq!(out.code, 0);
    assert_eq!(out.json(), claude_answer(&[(extra_refs[11].0, extra_refs[11].1)]));
}

/// Runs the Claude Code hook with extra environment variables.
fn claude_hook_with_env(home: &Home, prompt: &str, env: &[(&str, &str)]) -> Output {
    let mut cmd = home.command(&["hook", "claude"]);
    cmd.envs(env.iter().copied());
    run_command(cmd, Some(&claude_event(prompt)))
}

#[test]
fn a_proxy_in_the_environment_is_not_used_for_a_local_model() {
    // A proxy elsewhere cannot reach this machine's model server; the hook must go direct.
    let dead_proxy = format!("http://127.0.0.1:{}", refused_port());
    let env: Vec<(&str, &str)> = ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"]
        .into_iter()
        .map(|k| (k, dead_proxy.as_str()))
        .collect();
    for host in ["127.0.0.1", "localhost"] {
        let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
        let endpoint = format!("http://{host}:{}/v1/chat/completions", server.port());
        let home = smart_home(&endpoint);
        let out = claude_hook_with_env(&home, ONE_CANDIDATE, &env);
        assert_answer(&out, &["提交", "智能抠图"], &endpoint);
        assert_eq!(server.requests().len(), 1, "{endpoint}");
        assert_eq!(server.requests()[0].path, "/v1/chat/completions", "{endpoint}");
    }
}

// ---------------------------------------------------------------------------------------------
// The request the hook sends.

#[test]
fn request_has_the_model_settings_candidates_message_and_no_think() {
    let (out, requests) = hook_with_reply(TWO_CANDIDATES, Reply::content(r#"{"relevant":[]}"#));
    assert_answer(&out, &["提交"], "rejected");
    assert_eq!(requests.len(), 1);
    let r = &requests[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/chat/completions");
    assert!(
        r.header("content-type").is_some_and(|v| v.starts_with("application/json")),
        "content-type: {:?}",
        r.header("content-type")
    );
    assert_eq!(r.header("authorization"), None, "no Authorization without smart.apiKey");
    let body = &r.body;
    assert_eq!(body["model"], json!("qwen3-0.6b"), "body: {}", r.body_text);
    assert_eq!(body["temperature"].as_f64(), Some(0.0), "body: {}", r.body_text);
    assert_eq!(body["max_tokens"], json!(32), "body: {}", r.body_text);
    let messages = body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0]["role"], json!("user"));
    let prompt = r.prompt().expect("messages[0].content");
    let (t1, e1) = seed("依赖更新");
    let (t2, e2) = seed("智能抠图");
    assert!(prompt.contains(&format!("1. {t1}: {e1}\n2. {t2}: {e2}")), "prompt:\n{prompt}");
    assert!(prompt.contains(TWO_CANDIDATES), "prompt:\n{prompt}");
    assert!(prompt.contains("/no_think"), "prompt:\n{prompt}");
    // Exact hits are not candidates.
    assert!(!prompt.contains(seed("提交").1), "prompt:\n{prompt}");
}

#[test]
fn request_carries_the_api_key_as_a_bearer_token() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    let home = smart_home(&server.endpoint());
    home.run(&["config", "smart.apiKey", "sk-test-4242"]).ok();
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交", "智能抠图"], "with api key");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("authorization"), Some("Bearer sk-test-4242"));
    // The hook read the key from config.json: the index, which any process of the user's may
    // map and a project's sits in a work tree, holds no copy of it.
    let index = std::fs::read(home.index()).unwrap();
    assert!(!index.windows(12).any(|w| w == b"sk-test-4242"), "the index holds the key");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&home.config()), 0o600, "config.json holds the key: owner only");
        assert_eq!(mode(&home.store()), 0o700, "the store's folder: owner only");
    }
}

#[test]
fn request_uses_the_custom_prompt_and_model() {
    let server = LlmServer::start(vec![Reply::content("2")]);
    let home = smart_home(&server.endpoint());
    home.run(&["config", "smart.prompt", "候选:\n{candidates}\n消息«{message}» 只回答编号"]).ok();
    home.run(&["config", "smart.model", "my-local-model"]).ok();
    assert_answer(&home.claude_hook(TWO_CANDIDATES), &["提交", "智能抠图"], "custom prompt");
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let (t1, e1) = seed("依赖更新");
    let (t2, e2) = seed("智能抠图");
    assert_eq!(
        requests[0].prompt(),
        Some(
            format!("候选:\n1. {t1}: {e1}\n2. {t2}: {e2}\n消息«{TWO_CANDIDATES}» 只回答编号")
                .as_str()
        )
    );
    assert_eq!(requests[0].body["model"], json!("my-local-model"));
}

#[test]
fn no_request_when_smart_is_off() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    let home = Home::new();
    home.record_all(&SEED);
    home.run(&["config", "smart.endpoint", &server.endpoint()]).ok();
    // Off by default; also set explicitly after having been on.
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "smart off by default");
    home.run(&["config", "smart.enabled", "true"]).ok();
    home.run(&["config", "smart.enabled", "false"]).ok();
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "smart switched off");
    assert_answer(&home.claude_hook(DESIGN_PROMPT), &[], "smart off, no exact hit");
    // `match` without --no-llm does not ask either when smart is off.
    let out = home.run(&["match", "--json", ONE_CANDIDATE]);
    assert_eq!(out.json()["candidates"], json!([]), "smart off: no candidates");
    assert_no_request_before_probe(&server, "smart off");
}

#[test]
fn no_request_when_there_is_no_candidate() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    let home = smart_home(&server.endpoint());
    // Every term hits exactly: none is left for the fuzzy stage.
    assert_answer(
        &home.claude_hook("智能抠图和联调都好了，依赖更新后帮我提交"),
        &["智能抠图", "联调", "提交", "依赖更新"],
        "all exact",
    );
    assert_answer(&home.claude_hook(NO_CANDIDATE), &["提交"], "one exact, no candidate");
    assert_answer(&home.claude_hook("今天天气不错"), &[], "nothing at all");
    assert_no_request_before_probe(&server, "no candidate");
}

// ---------------------------------------------------------------------------------------------
// `match` with smart on.

#[test]
fn match_shows_a_confirmed_candidate_as_smart() {
    let server = LlmServer::start(vec![
        Reply::content(r#"{"relevant":[1]}"#),
        Reply::content(r#"{"relevant":[1]}"#),
    ]);
    let home = smart_home(&server.endpoint());
    let (term, explanation) = seed("智能抠图");
    let out = home.run(&["match", DESIGN_PROMPT]);
    out.ok();
    assert_eq!(out.stdout, format!("[智能] {term} (jaccard 0.20, LLM 确认) → {explanation}\n"));

    let out = home.run(&["match", "--json", ONE_CANDIDATE]);
    out.ok();
    assert_eq!(
        out.json(),
        json!({
            "exact": [{"term": "提交", "explanation": seed("提交").1, "case": "none", "scope": "user"}],
            "candidates": [
                {"term": term, "explanation": explanation, "score": 0.2, "confirmed": true, "scope": "user"}
            ]
        })
    );
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn match_shows_a_rejected_candidate_as_vetoed() {
    let server = LlmServer::start(vec![
        Reply::content(r#"{"relevant":[]}"#),
        Reply::content(r#"{"relevant":[1]}"#),
    ]);
    let home = smart_home(&server.endpoint());
    let (term, explanation) = seed("智能抠图");
    let out = home.run(&["match", ONE_CANDIDATE]);
    out.ok();
    assert_eq!(
        out.stdout,
        format!(
            "[精确] 提交 → {}\n[候选] {term} (jaccard 0.20, LLM 否决) → {explanation}\n",
            seed("提交").1
        )
    );

    // Two candidates, the second confirmed: true and false side by side.
    let out = home.run(&["match", "--json", TWO_CANDIDATES]);
    out.ok();
    let v = out.json();
    let verdicts: Vec<(String, serde_json::Value)> = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["term"].as_str().unwrap().to_string(), c["confirmed"].clone()))
        .collect();
    assert_eq!(
        verdicts,
        [("依赖更新".to_string(), json!(true)), ("智能抠图".to_string(), json!(false))]
    );
    assert_eq!(v["candidates"][0]["score"], json!(0.4));
    assert_eq!(v["candidates"][1]["score"], json!(0.2));
}

#[test]
fn match_with_the_model_down_leaves_confirmed_null() {
    let home = smart_home(&refused_endpoint());
    let (term, explanation) = seed("智能抠图");
    let out = home.run(&["match", "--json", ONE_CANDIDATE]);
    out.ok();
    assert_eq!(
        out.json(),
        json!({
            "exact": [{"term": "提交", "explanation": seed("提交").1, "case": "none", "scope": "user"}],
            "candidates": [
                {"term": term, "explanation": explanation, "score": 0.2, "confirmed": null, "scope": "user"}
            ]
        })
    );
    let out = home.run(&["match", DESIGN_PROMPT]);
    out.ok();
    assert!(
        out.stdout.starts_with(&format!("[候选] {term} (jaccard 0.20, LLM 失败: ")),
        "stdout: {}",
        out.stdout
    );
    assert!(out.stdout.ends_with(&format!(") → {explanation}\n")), "stdout: {}", out.stdout);
}

// ---------------------------------------------------------------------------------------------
// The debug log.

fn debug_lines(home: &Home) -> Vec<String> {
    let path = home.store().join("debug.log");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    assert!(text.ends_with('\n'), "debug.log ends with a line break: {text:?}");
    text.lines().map(str::to_string).collect()
}

#[test]
fn debug_log_gets_one_line_per_hook_run() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    let home = smart_home(&server.endpoint());
    home.run(&["config", "debug", "true"]).ok();
    let before = std::fs::read_to_string(home.store().join("debug.log")).unwrap_or_default();
    assert_eq!(before, "", "no hook has run yet");

    // 1: the model confirms.
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交", "智能抠图"], "confirmed");
    let lines = debug_lines(&home);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    let line = &lines[0];
    for part in [
        "claude ",
        "exact=1(",
        "fuzzy=",
        "llm=",
        "candidates=[智能抠图:0.20",
        "llm=answered",
        "total=",
    ] {
        assert!(line.contains(part), "{part:?} missing from {line}");
    }

    // 2: the server is gone (it had one reply): the failure is logged.
    drop(server);
    assert_answer(&home.claude_hook(DESIGN_PROMPT), &[], "model down, no exact hit");
    let lines = debug_lines(&home);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    let line = &lines[1];
    for part in ["exact=0(", "fuzzy=", "candidates=[智能抠图:0.20", "llm=failed(", "total="] {
        assert!(line.contains(part), "{part:?} missing from {line}");
    }
    assert!(!line.contains("llm=answered"), "{line}");

    // 3: no candidate, so no model: still one line, without a verdict.
    assert_answer(&home.claude_hook(NO_CANDIDATE), &["提交"], "no candidate");
    let lines = debug_lines(&home);
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(lines[2].contains("exact=1("), "{}", lines[2]);
    assert!(!lines[2].contains("candidates="), "{}", lines[2]);
    assert!(!lines[2].contains("llm=failed") && !lines[2].contains("llm=answered"), "{}", lines[2]);
    // The first two lines are unchanged (appended, not rewritten).
    assert_eq!(debug_lines(&home)[..2], lines[..2]);
}

#[test]
fn debug_log_names_a_timeout() {
    let server = LlmServer::start(vec![Reply::content("[1]").after(Duration::from_secs(3))]);
    let home = smart_home(&server.endpoint());
    home.run(&["config", "smart.timeoutMs", "300"]).ok();
    home.run(&["config", "debug", "true"]).ok();
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "timed out");
    let lines = debug_lines(&home);
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].contains("llm=failed(timed out after 300 ms)"), "{}", lines[0]);
}

#[test]
fn no_debug_log_when_debug_is_off() {
    let server = LlmServer::start(vec![Reply::content(r#"{"relevant":[1]}"#)]);
    let home = smart_home(&server.endpoint());
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交", "智能抠图"], "confirmed");
    drop(server);
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "model down");
    assert_answer(&home.claude_hook("今天天气不错"), &[], "no hit");
    // Switched on and off again: still nothing written.
    home.run(&["config", "debug", "true"]).ok();
    home.run(&["config", "debug", "false"]).ok();
    assert_answer(&home.claude_hook(ONE_CANDIDATE), &["提交"], "model down, debug off again");
    assert!(!home.store().join("debug.log").exists(), "debug.log written with debug off");
}
