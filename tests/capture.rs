//! Learning in the flow, with the real binary in a temporary HOME: `install` registers the
//! after-response hook with the journal off, a Claude Code `Stop` event starts a detached
//! capture of its session, the proposal reaches the inbox without `suggest`, the next prompt's
//! answer tells the user once, `learn.capture false` captures nothing, and `doctor`, `stats`
//! and `uninstall` play their part.
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::Home;
use serde_json::{json, Value};

/// A Claude Code session in which the user defines a term (`zed`), in the real line format.
fn session(home: &Home) -> PathBuf {
    let dir = home.path().join(".claude/projects/-w");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("5e7a2c1b-0000-4000-8000-000000000001.jsonl");
    let lines = [
        json!({"type": "user", "sessionId": "s1", "cwd": "/w", "timestamp": "2026-11-27T10:00:00Z",
               "message": {"role": "user", "content": "we call the db box zed"}}),
        json!({"type": "assistant", "sessionId": "s1", "timestamp": "2026-11-27T10:00:02Z",
               "message": {"role": "assistant", "model": "claude-x",
                           "content": [{"type": "text", "text": "Understood: zed is the db box."}]}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    fs::write(&path, text).unwrap();
    path
}

fn stop(home: &Home, transcript: &Path) -> common::Output {
    let event = json!({"session_id": "s1", "transcript_path": transcript, "cwd": "/w",
                       "hook_event_name": "Stop", "stop_hook_active": false,
                       "last_assistant_message": "Understood: zed is the db box."});
    home.run_with_stdin(&["hook", "claude", "after"], Some(event.to_string().as_bytes()))
}

/// The pending proposals' terms.
fn inbox_terms(home: &Home) -> Vec<String> {
    let out = home.run(&["inbox", "--format", "json"]);
    let v: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    v.as_array()
        .map(|a| a.iter().filter_map(|p| p["term"].as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// Polls the inbox for up to ten seconds.
fn wait_for_inbox(home: &Home) -> Vec<String> {
    let start = Instant::now();
    loop {
        let terms = inbox_terms(home);
        if !terms.is_empty() || start.elapsed() > Duration::from_secs(10) {
            return terms;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_transcript_written_after_the_hook_returns_is_still_captured() {
    // Claude Code starts its `Stop` hook before it writes the turn to the transcript, and in a
    // new session before the file exists at all.
    let home = Home::seeded();
    home.run(&["install", "claude"]).ok();
    let transcript = session(&home);
    let text = fs::read(&transcript).unwrap();
    fs::remove_file(&transcript).unwrap();
    stop(&home, &transcript).ok();
    std::thread::sleep(Duration::from_millis(60));
    fs::write(&transcript, text).unwrap();
    assert_eq!(wait_for_inbox(&home), ["zed"], "the capture read the file before it was written");
}

fn system_message(out: &common::Output) -> Option<String> {
    let v: Value = serde_json::from_str(&out.stdout).ok()?;
    v["systemMessage"].as_str().map(str::to_string)
}

#[test]
fn install_registers_stop_with_the_journal_off_and_uninstall_restores_the_file() {
    let home = Home::seeded();
    let settings = home.path().join(".claude/settings.json");
    fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let before = "{\n  \"model\": \"opus\"\n}\n";
    fs::write(&settings, before).unwrap();
    let out = home.run(&["install", "claude"]);
    out.ok();
    assert!(out.stdout.contains("Stop hook (learning capture) added"), "{}", out.stdout);
    let last = out.stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("Learning:") && last.contains("tinylingo inbox"), "{last}");
    assert!(last.contains("learn.capture false"), "{last}");
    let v: Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    let command = v["hooks"]["Stop"][0]["hooks"][0]["command"].as_str().unwrap_or_default();
    assert!(command.ends_with("hook claude after"), "{v}");
    // `thread on` then `thread off` keep the capture's hook.
    home.run(&["thread", "on"]).ok();
    home.run(&["thread", "off"]).ok();
    let v: Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    assert!(v["hooks"]["Stop"].is_array(), "thread off removed the capture's hook: {v}");
    home.run(&["uninstall", "claude"]).ok();
    assert_eq!(fs::read_to_string(&settings).unwrap(), before);
}

#[test]
fn a_definition_made_in_a_turn_reaches_the_inbox_and_the_user_hears_once() {
    let home = Home::seeded();
    home.run(&["install", "claude"]).ok();
    let transcript = session(&home);
    let out = stop(&home, &transcript);
    out.ok();
    assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", ""));
    assert_eq!(wait_for_inbox(&home), ["zed"], "captured without suggest");
    // The capture counts its news just after it writes the inbox: wait for that too (how long
    // the hook itself takes is a benchmark's business, benches/hook.sh, not a test's).
    let start = Instant::now();
    while !home.store().join("capture.news").exists() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }

    // The next prompt's answer tells the user, once; the model hears nothing of it.
    let first = home.claude_hook("hello there");
    first.ok();
    let notice = system_message(&first).unwrap_or_else(|| panic!("no notice: {}", first.stdout));
    assert!(notice.contains('1') && notice.contains("tinylingo inbox"), "{notice}");
    // Claude Code's review command, which install added, named first.
    assert!(notice.contains("`/tinylingo-review`"), "{notice}");
    assert!(!first.stdout.contains("additionalContext") || !first.stdout.contains("zed"));
    let second = home.claude_hook("hello again");
    assert_eq!(system_message(&second), None, "{}", second.stdout);

    // A second Stop with nothing new in the session adds nothing, and says nothing.
    stop(&home, &transcript).ok();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(system_message(&home.claude_hook("third")), None);

    // doctor and stats name the pending proposal and the command.
    let doctor = home.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("1 glossary proposal waiting: `tinylingo inbox`"),
        "{}",
        doctor.stdout
    );
    let stats = home.run(&["stats"]);
    stats.ok();
    assert!(stats.stdout.contains("1 glossary proposal waiting"), "{}", stats.stdout);
    let json = home.run(&["stats", "--format", "json"]).json();
    assert_eq!(json["proposals_pending"], 1);
}

#[test]
fn learn_capture_false_captures_nothing() {
    let home = Home::seeded();
    home.run(&["config", "learn.capture", "false"]).ok();
    let out = home.run(&["install", "claude"]);
    assert!(!out.stdout.contains("Stop hook"), "{}", out.stdout);
    let transcript = session(&home);
    stop(&home, &transcript).ok();
    std::thread::sleep(Duration::from_secs(2));
    assert!(inbox_terms(&home).is_empty());
    assert_eq!(system_message(&home.claude_hook("hello")), None);
    // `suggest` still scans on demand.
    home.run(&["suggest"]).ok();
    assert_eq!(inbox_terms(&home), ["zed"]);
}

#[test]
fn many_stops_at_once_leave_nothing_running_and_capture_once() {
    let home = Home::seeded();
    let transcript = session(&home);
    let runs: Vec<_> = (0..6)
        .map(|_| {
            let event = json!({"session_id": "s1", "transcript_path": transcript}).to_string();
            let mut cmd = home.command(&["hook", "claude", "after"]);
            cmd.stdin(std::process::Stdio::piped());
            let mut child = cmd.spawn().unwrap();
            use std::io::Write;
            child.stdin.take().unwrap().write_all(event.as_bytes()).unwrap();
            child
        })
        .collect();
    for mut r in runs {
        assert!(r.wait().unwrap().success());
    }
    assert_eq!(wait_for_inbox(&home), ["zed"]);
    // The queue is emptied by the last capture before it exits.
    let start = Instant::now();
    while home.store().join("capture.queue").exists() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!home.store().join("capture.queue").exists());
    let v: Value = home.run(&["inbox", "--format", "json"]).json();
    assert_eq!(v.as_array().map(Vec::len), Some(1), "{v}");
}

#[test]
fn a_transcript_outside_the_assistants_sessions_is_not_read() {
    let home = Home::seeded();
    let elsewhere = home.path().join("t.jsonl");
    fs::write(
        &elsewhere,
        "{\"type\":\"user\",\"message\":{\"content\":\"we call the db box zed\"}}\n",
    )
    .unwrap();
    stop(&home, &elsewhere).ok();
    std::thread::sleep(Duration::from_secs(1));
    assert!(inbox_terms(&home).is_empty());
}

#[test]
fn a_codex_stop_without_a_transcript_path_is_found_by_its_session_id() {
    let home = Home::seeded();
    let id = "01a21480-14ec-7b81-85c8-0ee4e101cfcd";
    let dir = home.path().join(".codex/sessions/2026/11/27");
    fs::create_dir_all(&dir).unwrap();
    let line = json!({"timestamp": "2026-11-27T10:00:00Z", "type": "event_msg",
                      "payload": {"type": "user_message", "message": "we call the db box zed"}});
    fs::write(dir.join(format!("rollout-2026-11-27T10-00-00-{id}.jsonl")), format!("{line}\n"))
        .unwrap();
    let event = json!({"session_id": id, "turn_id": "t", "model": "gpt-x",
                       "last_assistant_message": null, "transcript_path": null});
    let out = home.run_with_stdin(&["hook", "codex", "after"], Some(event.to_string().as_bytes()));
    out.ok();
    assert_eq!(out.stdout, "");
    assert_eq!(wait_for_inbox(&home), ["zed"]);
}
