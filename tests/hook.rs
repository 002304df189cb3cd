//! `tinylingo hook claude`, run as the real binary with Claude Code's `UserPromptSubmit` event
//! on stdin (issue 2): the exact answer, silence on no hit, and silence (exit 0) on every kind
//! of bad input or bad file.

mod common;

use common::{block, claude_answer, claude_event, js_pretty, read, seed, stamp, Home, SEED};
use serde_json::json;

/// Asserts the hook printed nothing at all and exited 0.
#[track_caller]
fn assert_silent(out: &common::Output, what: &str) {
    assert_eq!(out.code, 0, "{what}: exit code");
    assert_eq!(out.stdout, "", "{what}: stdout");
    assert_eq!(out.stderr, "", "{what}: stderr");
}

#[test]
fn two_hits_give_the_exact_answer() {
    let home = Home::seeded();
    let out = home.claude_hook("智能抠图的代码改完了，帮我提交一下");
    out.ok();
    assert_eq!(out.stderr, "");
    let expected_context = format!(
        "<system-reminder>\n[TinyLingo]\n- 智能抠图: {}\n- 提交: {}\n</system-reminder>",
        seed("智能抠图"),
        seed("提交")
    );
    assert_eq!(block(&[("智能抠图", seed("智能抠图")), ("提交", seed("提交"))]), expected_context);
    let value = out.json();
    assert_eq!(
        value,
        json!({"hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": expected_context,
        }})
    );
    assert_eq!(value["hookSpecificOutput"]["additionalContext"].as_str(), Some(&*expected_context));
    // One JSON object and nothing else (Claude Code parses the whole of stdout).
    assert!(out.stdout.trim_start().starts_with('{'), "{}", out.stdout);
    assert!(out.stdout.trim_end().ends_with('}'), "{}", out.stdout);
}

#[test]
fn hits_are_in_glossary_order_in_the_block() {
    let home = Home::seeded();
    // 依赖更新 and 联调 appear in text order opposite to the glossary's.
    let out = home.claude_hook("依赖更新之后再联调");
    out.ok();
    assert_eq!(
        out.json(),
        claude_answer(&[("联调", seed("联调")), ("依赖更新", seed("依赖更新"))])
    );
}

#[test]
fn one_hit_gives_a_one_line_block() {
    let home = Home::seeded();
    let out = home.claude_hook("帮我提交一下代码");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("提交", seed("提交"))]));
}

#[test]
fn no_hit_prints_nothing() {
    let home = Home::seeded();
    let out = home.claude_hook("今天天气不错");
    assert_silent(&out, "no hit");
    // An empty prompt, too.
    assert_silent(&home.claude_hook(""), "empty prompt");
}

#[test]
fn explanations_with_quotes_and_newlines_are_escaped_in_the_json() {
    let home = Home::new();
    let explanation = "use \"BGRemover\"\nnot C:\\old\t\u{1b}[0m";
    home.record_all(&[("抠图", explanation)]);
    let out = home.claude_hook("抠图");
    out.ok();
    // A line break inside an explanation is shown as ⏎, so that every entry stays one line
    // of the block (issue 7's safe rendering); quotes, backslashes and controls survive as is.
    let shown = explanation.replace('\n', "⏎");
    assert_eq!(out.json(), claude_answer(&[("抠图", &shown)]));
}

#[test]
fn a_prompt_written_with_json_escapes_still_hits() {
    let home = Home::seeded();
    // "\u63d0\u4ea4" is 提交; Claude Code may escape non-ASCII text.
    let event = br#"{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"please \u63d0\u4ea4 it"}"#;
    let out = home.hook("claude", event);
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("提交", seed("提交"))]));
}

#[test]
fn bad_events_are_silent() {
    let home = Home::seeded();
    let cases: &[(&str, &[u8])] = &[
        ("empty input", b""),
        ("blank input", b"  \n"),
        ("not JSON", "提交 this please".as_bytes()),
        ("truncated JSON", "{\"prompt\":\"提交".as_bytes()),
        ("not UTF-8", b"{\"prompt\":\"\xff\xfe \xe6\x8f\x90\xe4\xba\xa4\"}"),
        ("raw bytes", b"\x00\x01\x02\xff\xfe\xfd"),
        ("no prompt", "{\"message\":\"提交\",\"hook_event_name\":\"UserPromptSubmit\"}".as_bytes()),
        ("null prompt", b"{\"prompt\":null}"),
        ("number prompt", b"{\"prompt\":42}"),
        ("array prompt", "{\"prompt\":[\"提交\"]}".as_bytes()),
        ("object prompt", "{\"prompt\":{\"text\":\"提交\"}}".as_bytes()),
        ("JSON string", "\"提交\"".as_bytes()),
        ("JSON array", "[\"提交\"]".as_bytes()),
        ("two documents", "{\"prompt\":\"提交\"} {\"prompt\":\"联调\"}".as_bytes()),
    ];
    for (what, input) in cases {
        assert_silent(&home.hook("claude", input), what);
    }
    // The store is untouched by all of that, and the hook still answers afterwards.
    assert_eq!(home.claude_hook("提交").json(), claude_answer(&[("提交", seed("提交"))]));
}

#[test]
fn hook_with_closed_stdin_is_silent() {
    let home = Home::seeded();
    // No stdin at all (reads EOF at once).
    let out = home.run(&["hook", "claude"]);
    assert_silent(&out, "stdin from /dev/null");
}

#[test]
fn hand_edit_is_seen_by_the_very_next_hook_run() {
    let home = Home::seeded();
    home.claude_hook("提交").ok();
    let edited = js_pretty(&[
        ("提交", "改过的解释"),
        ("智能抠图", seed("智能抠图")),
        ("新词", "hand added"),
    ]);
    common::write_in_place(&home.glossary(), edited.as_bytes());
    let out = home.claude_hook("提交 新词 联调");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("提交", "改过的解释"), ("新词", "hand added")]));
}

#[test]
fn hand_edit_by_an_editor_that_renames_is_seen_too() {
    let home = Home::seeded();
    home.claude_hook("提交").ok();
    let edited = js_pretty(&[("联调", "renamed into place")]);
    let tmp = home.store().join("glossary.json.swp");
    std::fs::write(&tmp, edited.as_bytes()).unwrap();
    std::fs::rename(&tmp, home.glossary()).unwrap();
    let out = home.claude_hook("提交 联调");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("联调", "renamed into place")]));
    // Deleting the glossary by hand empties it.
    std::fs::remove_file(home.glossary()).unwrap();
    assert_silent(&home.claude_hook("联调"), "glossary deleted");
}

/// A glossary that does not parse is never rewritten. The hook serves the index built from the
/// last glossary that parsed, and tells the user once a day (Claude Code's `systemMessage`);
/// with no index ever built there is nothing to serve, only the notice.
#[test]
fn invalid_glossary_is_left_untouched_and_the_last_good_index_served() {
    let cases: &[(&str, &[u8])] = &[
        ("trailing comma", "{\n  \"提交\": \"x\",\n  \"联调\": \"y\",\n}".as_bytes()),
        ("missing colon", "{\n  \"提交\": \"x\",\n  \"联调\" \"y\"\n}".as_bytes()),
        ("array", b"[1,2]"),
        ("number value", "{\"提交\": 1}".as_bytes()),
        ("not UTF-8", b"{\"\xe6\x8f\x90\xe4\xba\xa4\": \"\xff\"}"),
    ];
    for (what, bytes) in cases {
        // Both with an index built from a good glossary before, and with none at all.
        for with_index in [true, false] {
            let home = Home::new();
            if with_index {
                home.record_all(&SEED);
            }
            home.write_store_file("glossary.json", bytes);
            let before = stamp(&home.glossary());
            let out = home.claude_hook("帮我提交一下");
            out.ok();
            assert_eq!(out.stderr, "", "{what}");
            let v = out.json();
            let notice = v["systemMessage"].as_str().unwrap_or_else(|| panic!("{what}: {v}"));
            assert!(notice.contains("glossary.json"), "{what}: {notice}");
            let context = &v["hookSpecificOutput"]["additionalContext"];
            if with_index {
                assert_eq!(context, &json!(block(&[("提交", seed("提交"))])), "{what}");
            } else {
                assert!(context.is_null(), "{what}: {v}");
            }
            assert_eq!(read(&home.glossary()), *bytes, "{what}: file changed");
            assert_eq!(stamp(&home.glossary()), before, "{what}: file rewritten");
        }
    }
}

#[test]
fn invalid_config_json_does_not_silence_the_glossary() {
    let home = Home::seeded();
    home.write_store_file("config.json", b"{ not json");
    let out = home.claude_hook("帮我提交一下");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("提交", seed("提交"))]));
    assert_eq!(read(&home.config()), b"{ not json");
}

#[test]
fn unreachable_llm_still_gives_the_exact_hits() {
    let home = Home::seeded();
    home.run(&["config", "smart.enabled", "true"]).ok();
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    home.run(&["config", "smart.endpoint", "http://127.0.0.1:1/v1/chat/completions"]).ok();
    home.run(&["config", "smart.timeoutMs", "2000"]).ok();
    let out = home.claude_hook("智能抠图的功能，提交吧");
    out.ok();
    assert_eq!(out.stderr, "");
    assert_eq!(
        out.json(),
        claude_answer(&[("智能抠图", seed("智能抠图")), ("提交", seed("提交"))])
    );
    // A prompt that only resembles a term: no exact hit, the LLM fails, nothing is printed.
    assert_silent(&home.claude_hook("抠图功能有bug"), "fuzzy only, LLM unreachable");
}

#[test]
fn debug_log_gets_the_reason_while_the_hook_stays_silent() {
    let home = Home::seeded();
    home.run(&["config", "debug", "true"]).ok();
    let out = home.hook("claude", b"not json");
    assert_silent(&out, "not JSON with debug on");
    let log = String::from_utf8(read(&home.store().join("debug.log"))).unwrap();
    assert!(log.contains("claude"), "{log}");
    assert!(!log.is_empty());
    // Debug on does not change the answer.
    assert_eq!(home.claude_hook("提交").json(), claude_answer(&[("提交", seed("提交"))]));
}

#[test]
fn the_event_fields_besides_prompt_do_not_matter() {
    let home = Home::seeded();
    let minimal = home.hook("claude", "{\"prompt\":\"提交\"}".as_bytes());
    let full = home.hook("claude", &claude_event("提交"));
    minimal.ok();
    assert_eq!(minimal.stdout, full.stdout);
    assert_eq!(minimal.json(), claude_answer(&[("提交", seed("提交"))]));
}
