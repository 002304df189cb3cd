//! The thread journal with the real binary: `thread on/off/status/show/summarize`, the prompt
//! and after-response hooks of every platform, concurrent sessions, and failures that never
//! reach the assistant.
mod common;

use std::fs;

use common::Home;
use serde_json::json;

/// Today's file's entries, as `thread show --format json` gives them.
fn entries(home: &Home) -> Vec<serde_json::Value> {
    let out = home.run(&["thread", "show", "--format", "json"]);
    out.json().as_array().cloned().unwrap_or_default()
}

fn after(home: &Home, platform: &str, event: serde_json::Value) {
    let out = home.run_with_stdin(&["hook", platform, "after"], Some(event.to_string().as_bytes()));
    out.ok();
    assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", ""), "{platform} after printed");
}

#[test]
fn each_platform_pairs_its_prompt_with_the_answer() {
    let home = Home::seeded();
    home.run(&["thread", "on"]).ok();
    // Claude Code: the prompt from the prompt hook, the answer in the Stop event, the model in
    // the transcript.
    let transcript = home.path().join("t.jsonl");
    fs::write(
        &transcript,
        r#"{"type":"assistant","message":{"model":"claude-x","content":[{"type":"text","text":"总结：已修复。"}]}}"#,
    )
    .unwrap();
    home.hook(
        "claude",
        json!({"session_id": "c1", "prompt": "修一下智能抠图", "cwd": "/w"}).to_string().as_bytes(),
    )
    .ok();
    after(
        &home,
        "claude",
        json!({"session_id": "c1", "transcript_path": transcript, "stop_hook_active": false, "last_assistant_message": "我看过了。总结：已修复。"}),
    );
    // Codex CLI: the model in both events; the answer may be null.
    home.hook(
        "codex",
        json!({"session_id": "x1", "prompt": "codex 的问题", "model": "gpt-x"})
            .to_string()
            .as_bytes(),
    )
    .ok();
    after(
        &home,
        "codex",
        json!({"session_id": "x1", "turn_id": "t", "model": "gpt-x", "last_assistant_message": null}),
    );
    // Gemini CLI: AfterAgent carries the prompt itself.
    after(
        &home,
        "gemini",
        json!({"session_id": "g1", "prompt": "gemini 的问题", "prompt_response": "In summary, done."}),
    );
    // Cursor: afterAgentResponse's `text`, paired by conversation.
    home.hook("cursor", json!({"conversation_id": "k1", "prompt": "cursor 的问题", "hook_event_name": "beforeSubmitPrompt"}).to_string().as_bytes()).ok();
    after(&home, "cursor", json!({"conversation_id": "k1", "text": "简而言之，好了。"}));
    // OpenCode: the plugin sends everything in one event.
    after(
        &home,
        "opencode",
        json!({"session_id": "o1", "prompt": "opencode 的问题", "response": "总之可以了。", "model": "m-o", "cwd": "/o"}),
    );

    let got: Vec<(String, String, String, String)> = entries(&home)
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            (s("assistant"), s("model"), s("prompt"), s("summary"))
        })
        .collect();
    let want = [
        ("Claude Code", "claude-x", "修一下智能抠图", "总结：已修复。"),
        ("Codex CLI", "gpt-x", "codex 的问题", ""),
        ("Gemini CLI", "unknown", "gemini 的问题", "In summary, done."),
        ("Cursor", "unknown", "cursor 的问题", "简而言之，好了。"),
        ("OpenCode", "m-o", "opencode 的问题", "总之可以了。"),
    ];
    let want: Vec<(String, String, String, String)> = want
        .iter()
        .map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string()))
        .collect();
    assert_eq!(got, want);
    let numbers: Vec<u64> = entries(&home).iter().map(|e| e["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, [1, 2, 3, 4, 5]);
}

#[test]
fn sixteen_sessions_finishing_together_get_sixteen_entries() {
    let home = Home::new();
    home.run(&["thread", "on"]).ok();
    let children: Vec<_> = (1..=16)
        .map(|n| {
            let mut cmd = home.command(&["hook", "gemini", "after"]);
            cmd.stdin(std::process::Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            let event = json!({"session_id": format!("s{n}"), "prompt": format!("第 {n} 个会话\n```\ncode\n```"), "prompt_response": format!("总结：第 {n} 个。")});
            use std::io::Write;
            child.stdin.take().unwrap().write_all(event.to_string().as_bytes()).unwrap();
            child
        })
        .collect();
    for child in children {
        assert!(child.wait_with_output().unwrap().status.success());
    }
    let all = entries(&home);
    let numbers: Vec<u64> = all.iter().map(|e| e["number"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=16).collect::<Vec<u64>>());
    let mut prompts: Vec<String> =
        all.iter().map(|e| e["prompt"].as_str().unwrap().to_string()).collect();
    prompts.sort();
    let mut want: Vec<String> =
        (1..=16).map(|n| format!("第 {n} 个会话\n```\ncode\n```")).collect();
    want.sort();
    assert_eq!(prompts, want, "every prompt whole, none interleaved");
}

#[test]
fn no_token_a_user_typed_reaches_the_journal_or_the_kept_prompt() {
    let home = Home::seeded();
    home.run(&["thread", "on"]).ok();
    // Built at run time: no credential-shaped literal in the source.
    let token = ["gh", "p_", "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sYaEuWiW"].concat();
    let password = ["Sum", "mer#20", "24!!"].concat();
    let prompt = format!("push with {token}; 测试环境数据库密码就是 {password}");
    home.hook("claude", json!({"session_id": "c1", "prompt": prompt}).to_string().as_bytes()).ok();
    let sessions = home.store().join("sessions");
    for file in fs::read_dir(&sessions).unwrap() {
        let text = fs::read_to_string(file.unwrap().path()).unwrap_or_default();
        assert!(!text.contains(&token[4..]) && !text.contains(&password), "kept: {text}");
    }
    let answer = format!("Done. In summary: I used the token {token} as asked.");
    after(&home, "claude", json!({"session_id": "c1", "last_assistant_message": answer}));
    // Gemini's event carries the prompt itself.
    let event = json!({"session_id": "g", "prompt": format!("password: {password}"), "prompt_response": answer});
    after(&home, "gemini", event);
    let mut journal = String::new();
    for file in fs::read_dir(home.store().join("threads")).unwrap() {
        journal += &fs::read_to_string(file.unwrap().path()).unwrap_or_default();
    }
    assert!(!journal.contains(&token[4..]) && !journal.contains(&password), "{journal}");
    assert!(journal.contains("‹github-token masked›") && journal.contains("‹password masked›"));
}

#[test]
fn off_means_no_entry_and_no_kept_prompt() {
    let home = Home::seeded();
    home.hook("claude", json!({"session_id": "c1", "prompt": "智能抠图"}).to_string().as_bytes())
        .ok();
    after(&home, "claude", json!({"session_id": "c1", "last_assistant_message": "总结：好。"}));
    assert!(!home.store().join("threads").exists());
    assert!(!home.store().join("sessions").exists(), "the prompt hook kept something");
    home.run(&["thread", "show"]).expect_code(1);
}

#[test]
fn a_journal_it_cannot_write_never_reaches_the_assistant() {
    let home = Home::new();
    home.run(&["thread", "on"]).ok();
    // A file where the folder should be: every write fails.
    fs::write(home.store().join("threads"), "not a folder").unwrap();
    after(&home, "gemini", json!({"prompt": "p", "prompt_response": "总结：好。"}));
    after(&home, "claude", json!({"session_id": "s", "last_assistant_message": "x"}));
    // Bad input of every kind: still silent, still exit 0.
    for input in ["", "not json", "[]", "{\"prompt\": 1}"] {
        let out = home.run_with_stdin(&["hook", "claude", "after"], Some(input.as_bytes()));
        out.ok();
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn thread_on_and_off_follow_the_installed_assistants() {
    let home = Home::new();
    home.run(&["install", "claude"]).ok();
    let settings = || fs::read_to_string(home.path().join(".claude/settings.json")).unwrap();
    let before = settings();
    home.run(&["thread", "on"]).ok();
    assert!(settings().contains("hook claude after"), "{}", settings());
    let status = home.run(&["thread", "status"]);
    assert!(status.ok().stdout.starts_with("on\n"), "{}", status.stdout);
    home.run(&["thread", "off"]).ok();
    assert_eq!(settings(), before, "thread off gives back the file thread on changed");
    // Uninstall while on removes the after-response hook too.
    home.run(&["thread", "on"]).ok();
    home.run(&["uninstall"]).ok();
    assert!(!home.path().join(".claude/settings.json").exists());
}

#[test]
fn summarize_prints_the_rule_made_summary() {
    let home = Home::new();
    let out = home.run_with_stdin(
        &["thread", "summarize"],
        Some("先看代码。\n总结：问题在缓存。\n".as_bytes()),
    );
    assert_eq!(out.ok().stdout, "总结：问题在缓存。\n");
}

#[test]
fn thread_show_refuses_a_date_that_is_no_day_and_last_0() {
    let home = Home::new();
    for date in ["2026-13-01", "2026-02-30", "2026-00-10", "2026-1-011"] {
        let out = home.run(&["thread", "show", "--date", date]);
        out.expect_code(2);
        assert!(out.stderr.contains(&format!("not a date: {date}")), "{}", out.stderr);
        assert_eq!(out.stdout, "");
    }
    // A real day with nothing in it is "nothing found", not bad input.
    home.run(&["thread", "show", "--date", "2024-02-29"]).expect_code(1);
    let out = home.run(&["thread", "show", "--last", "0"]);
    out.expect_code(2);
    assert!(out.stderr.contains("hint: give 1 or more"), "{}", out.stderr);
}

#[test]
fn the_journal_follows_the_language_setting() {
    let home = Home::new();
    home.run(&["thread", "on"]).ok();
    home.run(&["config", "language", "en"]).ok();
    after(
        &home,
        "gemini",
        json!({"session_id": "g", "prompt": "why?", "prompt_response": "Done."}),
    );
    let file = fs::read_to_string(
        fs::read_dir(home.store().join("threads"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "md"))
            .unwrap(),
    )
    .unwrap();
    assert!(file.starts_with("# Thread log - "), "{file}");
    for line in [
        "## Exchange 1\n**Time**: ",
        "**Model**: unknown\n**Role**: Developer\n",
        "**Assistant**: Gemini CLI\n",
        "\n### Request\n```text\nwhy?\n```\n",
        "\n### Response (summary)\nDone.\n",
    ] {
        assert!(file.contains(line), "{line:?} missing from\n{file}");
    }
    assert!(!file.contains("交互记录"), "{file}");
    // Back in Chinese, the same day's file continues, numbered on, and reads back whole.
    home.run(&["config", "language", "zh"]).ok();
    after(
        &home,
        "gemini",
        json!({"session_id": "g", "prompt": "为什么", "prompt_response": "好了。"}),
    );
    let got: Vec<(u64, String, String)> = entries(&home)
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            (e["number"].as_u64().unwrap(), s("prompt"), s("assistant"))
        })
        .collect();
    assert_eq!(
        got,
        [(1, "why?".into(), "Gemini CLI".into()), (2, "为什么".into(), "Gemini CLI".into())]
    );
    let status = home.run(&["thread", "status"]);
    assert!(status.ok().stdout.contains("(2 entries)\n"), "{}", status.stdout);
}

#[test]
fn english_answers_are_summarised_by_sentence() {
    let home = Home::new();
    let summarize = |answer: &str| {
        home.run_with_stdin(&["thread", "summarize"], Some(answer.as_bytes())).ok().stdout.clone()
    };
    // The concluding sentence, not the paragraph's first 250 chars.
    let answer =
        "I traced the crash to the cache layer, which evicted entries while readers still \
        held them, so a reader could see freed memory. In short, eviction now waits for readers. \
        I also added a regression test that reproduces the race with two threads and a barrier, \
        and it fails without the fix and passes with it.";
    assert_eq!(summarize(answer), "In short, eviction now waits for readers.\n");
    // No concluding phrase: the last sentence; `3.5` and `e.g.` end none.
    let answer = "The parser was too strict. It now accepts version 3.5 strings, e.g. `3.5.1`.";
    assert_eq!(summarize(answer), "It now accepts version 3.5 strings, e.g. `3.5.1`.\n");
    let answer = "Several files changed. To sum up, the API is unchanged. More details follow.";
    assert_eq!(summarize(answer), "To sum up, the API is unchanged.\n");
}

#[test]
fn status_with_one_entry_says_entry() {
    let home = Home::new();
    home.run(&["thread", "on"]).ok();
    after(&home, "gemini", json!({"prompt": "p", "prompt_response": "总结：好。"}));
    let status = home.run(&["thread", "status"]);
    assert!(status.ok().stdout.contains("(1 entry)\n"), "{}", status.stdout);
}

#[test]
fn status_after_uninstall_says_nothing_is_recorded() {
    let home = Home::new();
    home.run(&["install", "claude"]).ok();
    home.run(&["thread", "on"]).ok();
    let status = home.run(&["thread", "status"]);
    assert!(status.ok().stdout.starts_with("on\nrecording: Claude Code\n"), "{}", status.stdout);
    assert_eq!(status.stderr, "");
    home.run(&["uninstall"]).ok();
    let status = home.run(&["thread", "status"]);
    let out = status.ok();
    assert!(out.stdout.starts_with("on, but nothing is being recorded"), "{}", out.stdout);
    assert!(out.stderr.contains("tinylingo install"), "{}", out.stderr);
    // Installing again brings the after-response hook back, since the journal is on.
    home.run(&["install", "claude"]).ok();
    let status = home.run(&["thread", "status"]);
    assert!(status.ok().stdout.starts_with("on\nrecording: Claude Code\n"), "{}", status.stdout);
}

#[test]
fn thread_on_and_off_print_only_what_changed() {
    let home = Home::new();
    // With the learning capture on (the default) install registers `Stop` already, and
    // `thread on`/`off` leave it: the journal's own hook is seen with the capture off.
    home.run(&["install", "claude"]).ok();
    let on = home.run(&["thread", "on"]);
    assert_eq!(on.ok().stdout, "", "{}", on.stderr);
    let off = home.run(&["thread", "off"]);
    assert_eq!(off.ok().stdout, "", "{}", off.stderr);
    let home = Home::new();
    home.run(&["config", "learn.capture", "false"]).ok();
    home.run(&["install", "claude"]).ok();
    let on = home.run(&["thread", "on"]);
    on.ok();
    assert_eq!(on.stdout, "~/.claude/settings.json: Stop hook (thread journal) added\n");
    assert!(!on.stderr.contains("UserPromptSubmit"), "{}", on.stderr);
    let again = home.run(&["thread", "on"]);
    assert_eq!(again.ok().stdout, "");
    assert!(again.stderr.contains("already"), "{}", again.stderr);
    let off = home.run(&["thread", "off"]);
    assert_eq!(off.ok().stdout, "~/.claude/settings.json: Stop hook (thread journal) removed\n");
}
