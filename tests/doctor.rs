//! `tinylingo doctor`, with the real binary in a temporary home folder: which checks a home
//! gets, the exit code, and the failures a person would otherwise debug by hand.

#[path = "support/home.rs"]
mod home;

use std::net::TcpListener;

use home::{describe, Home};
use serde_json::Value;

/// `doctor --format json`: the exit code and the parsed array.
fn doctor(h: &Home) -> (i32, Vec<Value>) {
    let out = h.run(&["doctor", "--format", "json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let list: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (out.status.code().unwrap_or(-1), list.as_array().expect("an array").clone())
}

/// The check named `name` (for `assistant`, or for none).
fn find<'a>(checks: &'a [Value], name: &str, assistant: Option<&str>) -> &'a Value {
    checks
        .iter()
        .find(|c| c["check"] == name && c["assistant"].as_str() == assistant)
        .unwrap_or_else(|| panic!("no check {name} for {assistant:?} in {checks:#?}"))
}

fn failed(checks: &[Value]) -> Vec<&Value> {
    checks.iter().filter(|c| c["ok"] == false).collect()
}

/// A home with Claude Code installed and a term recorded.
fn installed() -> Home {
    let h = Home::new();
    h.ok(&["install", "claude"]);
    h.record_term();
    h
}

#[test]
fn a_fresh_home_has_nothing_wrong() {
    let h = Home::new();
    let (code, checks) = doctor(&h);
    assert_eq!(code, 0, "{checks:#?}");
    let names: Vec<&str> = checks.iter().map(|c| c["check"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "assistants",
            "config",
            "store permissions",
            "glossary",
            "index",
            "credentials",
            "paths",
            "smart endpoint",
            "thread journal",
            "learning"
        ]
    );
    assert!(find(&checks, "assistants", None)["detail"].as_str().unwrap().contains("no assistant"));
    assert_eq!(find(&checks, "glossary", None)["detail"], "nothing recorded yet");
    let out = h.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().all(|l| l.starts_with("ok   ")), "{text}");
}

#[test]
fn after_install_and_record_every_check_holds() {
    let h = installed();
    let (code, checks) = doctor(&h);
    assert_eq!(code, 0, "{checks:#?}");
    for name in ["settings file", "prompt hook", "command runs", "timeout", "instruction block"] {
        assert_eq!(find(&checks, name, Some("claude"))["ok"], true, "{name}");
    }
    assert_eq!(find(&checks, "index", None)["detail"], "current");
}

#[test]
fn json_has_the_stable_fields() {
    let h = installed();
    let (_, checks) = doctor(&h);
    for c in &checks {
        let o = c.as_object().unwrap();
        let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["assistant", "check", "detail", "fix", "ok"], "{c}");
        assert!(c["check"].is_string() && c["ok"].is_boolean() && c["detail"].is_string());
        assert!(c["assistant"].is_null() || c["assistant"].is_string());
        assert_eq!(c["fix"].is_null(), c["ok"] == true, "{c}");
    }
}

#[test]
fn a_broken_settings_file_fails_naming_the_file() {
    let h = installed();
    h.write(".claude/settings.json", "{\"hooks\": ");
    let (code, checks) = doctor(&h);
    assert_eq!(code, 1);
    let check = find(&checks, "settings file", Some("claude"));
    assert_eq!(check["ok"], false);
    assert!(check["detail"].as_str().unwrap().contains("settings.json"), "{check}");
    let out = h.run(&["doctor"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("FAIL Claude Code settings file: ") && text.contains("\n     fix: "));
}

#[test]
fn a_deleted_scripts_link_fails_the_command_check() {
    let h = installed();
    std::fs::remove_file(h.path(".config/tinylingo/scripts/tinylingo")).unwrap();
    let (code, checks) = doctor(&h);
    assert_eq!(code, 1);
    let check = find(&checks, "command runs", Some("claude"));
    assert_eq!(check["ok"], false, "{check}");
    assert!(check["fix"].as_str().unwrap().contains("tinylingo install"), "{check}");
    // The git merge driver runs the same link.
    let names: Vec<&Value> = failed(&checks).iter().map(|c| &c["check"]).collect();
    assert_eq!(names, ["command runs", "merge driver"], "{checks:#?}");
}

/// A link re-pointed at another program that answers `--version` (a stale npm or package
/// manager path reused by something else) would run that program in front of every prompt.
#[cfg(unix)]
#[test]
fn a_scripts_link_to_another_program_fails_the_command_check() {
    use std::os::unix::fs::PermissionsExt;
    let h = installed();
    let other = h.path("other-tool");
    std::fs::write(&other, "#!/bin/sh\necho 'other-tool 1.0'\n").unwrap();
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o755)).unwrap();
    let link = h.path(".config/tinylingo/scripts/tinylingo");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&other, &link).unwrap();
    let (code, checks) = doctor(&h);
    assert_eq!(code, 1);
    let check = find(&checks, "command runs", Some("claude"));
    assert_eq!(check["ok"], false, "{check}");
    assert!(check["detail"].as_str().unwrap().contains("not tinylingo"), "{check}");
}

#[test]
fn an_instruction_block_edited_by_hand_is_reported_not_failed() {
    let h = installed();
    let text = h.read(".claude/CLAUDE.md");
    let edited = text.replacen("TinyLingo", "TinyLingo (mine)", 1);
    assert_ne!(edited, text);
    h.write(".claude/CLAUDE.md", &edited);
    let (code, checks) = doctor(&h);
    assert_eq!(code, 0, "{checks:#?}");
    let check = find(&checks, "instruction block", Some("claude"));
    assert!(check["detail"].as_str().unwrap().contains("edited by hand"), "{check}");
}

#[test]
fn smart_matching_with_nothing_listening_fails() {
    let h = installed();
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let endpoint = format!("http://127.0.0.1:{port}/v1/chat/completions");
    h.ok(&["config", "smart.endpoint", &endpoint]);
    h.ok(&["config", "smart.timeoutMs", "1000"]);
    h.ok(&["config", "smart.enabled", "true"]);
    let (code, checks) = doctor(&h);
    assert_eq!(code, 1);
    let check = find(&checks, "smart endpoint", None);
    assert_eq!(check["ok"], false);
    assert!(check["detail"].as_str().unwrap().contains(&endpoint), "{check}");
}

#[test]
fn the_journal_on_needs_the_after_response_hook() {
    let h = installed();
    h.ok(&["thread", "on"]);
    let (code, checks) = doctor(&h);
    assert_eq!(code, 0, "{checks:#?}");
    assert_eq!(find(&checks, "after-response hook", Some("claude"))["ok"], true);
    assert!(find(&checks, "thread journal", None)["detail"].as_str().unwrap().starts_with("on"));
}

#[cfg(unix)]
#[test]
fn settings_readable_by_others_are_reported_with_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let h = installed();
    h.ok(&["config", "smart.apiKey", "sk-local-1"]);
    let (_, checks) = doctor(&h);
    assert_eq!(find(&checks, "store permissions", None)["ok"], true, "{checks:#?}");
    let config = h.path(".config/tinylingo/config.json");
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, checks) = doctor(&h);
    assert_eq!(code, 1, "{checks:#?}");
    let check = find(&checks, "store permissions", None);
    assert_eq!(check["ok"], false);
    assert!(check["detail"].as_str().unwrap().contains("config.json"), "{check}");
    assert!(check["fix"].as_str().unwrap().starts_with("chmod 600 "), "{check}");
}
