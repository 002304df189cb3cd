//! GitHub Copilot CLI and Qwen Code with the real binary in a temporary home: install and
//! uninstall byte for byte, the hook's answer to the events the clients really send (kept in
//! `tests/fixtures/`), a deleted binary, a broken settings file failing its assistant alone,
//! the thread journal from Copilot's transcript, and the MCP entries.
#[path = "support/home.rs"]
mod home;

use home::{Home, EXPLANATION, HIT, MISS};
use serde_json::{json, Value};

/// A real event a client sent, with its prompt replaced by `prompt`.
fn fixture_event(file: &str, prompt: &str) -> String {
    let text = std::fs::read_to_string(format!("tests/fixtures/{file}")).unwrap();
    let mut event: Value = serde_json::from_str(&text).unwrap();
    event["prompt"] = prompt.into();
    event.to_string()
}

fn flat_command(h: &Home, rel: &str, event: &str) -> String {
    let v: Value = serde_json::from_str(&h.read(rel)).unwrap();
    let list = v["hooks"][event].as_array().unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    list[0]["command"].as_str().unwrap().to_string()
}

#[test]
fn copilot_gets_a_hook_file_of_its_own_and_uninstall_takes_it_away() {
    let h = Home::new();
    let mine = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"sessionStart\": []\n  }\n}\n";
    h.write(".copilot/hooks/mine.json", mine);
    h.write(".copilot/copilot-instructions.md", "Answer briefly.\n");
    h.write(".copilot/config.json", "{\"banner\": \"never\"}\n");
    let before = h.snapshot();
    h.record_term();
    let out = h.ok(&["install"]);
    assert!(
        out.contains("~/.copilot/hooks/tinylingo.json: userPromptSubmitted hook added"),
        "{out}"
    );
    let command = flat_command(&h, ".copilot/hooks/tinylingo.json", "userPromptSubmitted");
    let file: Value = serde_json::from_str(&h.read(".copilot/hooks/tinylingo.json")).unwrap();
    assert_eq!(
        file,
        json!({"version": 1, "hooks": {"userPromptSubmitted": [
            {"type": "command", "command": command, "timeout": 10}]}})
    );
    assert!(command.ends_with("/.config/tinylingo/scripts/tinylingo hook copilot"), "{command}");
    assert_eq!(h.read(".copilot/hooks/mine.json"), mine);
    assert!(h.read(".copilot/copilot-instructions.md").starts_with("Answer briefly.\n"));

    // Copilot reads a top-level additionalContext and wraps it in a tag of its own.
    let answer =
        h.run_registered(&command, &fixture_event("copilot/userPromptSubmitted.json", HIT));
    let v: Value = serde_json::from_str(&answer).unwrap();
    let context = v["additionalContext"].as_str().unwrap();
    assert_eq!(v.as_object().unwrap().len(), 1, "{answer}");
    assert!(context.starts_with("[TinyLingo]\n") && context.contains(EXPLANATION), "{context}");
    assert!(!context.contains('<'), "{context}");
    let miss = fixture_event("copilot/userPromptSubmitted.json", MISS);
    assert_eq!(h.run_registered(&command, &miss), "");

    h.ok(&["uninstall"]);
    let mut after = h.snapshot();
    after.retain(|p, _| !p.starts_with(".config"));
    let mut before = before;
    before.retain(|p, _| !p.starts_with(".config"));
    assert_eq!(after, before, "uninstall gives ~/.copilot back byte for byte");
}

#[test]
fn qwen_keeps_comments_answers_untagged_and_survives_a_missing_binary() {
    let h = Home::new();
    let settings = "{\n  // mine\n  \"ui\": {\"theme\": \"GitHub\"}, /* light */\n  \"privacy\": {\n    \"usageStatisticsEnabled\": false\n  }\n}\n";
    h.write(".qwen/settings.json", settings);
    h.record_term();
    h.ok(&["install", "qwen"]);
    let text = h.read(".qwen/settings.json");
    assert!(text.starts_with("{\n  // mine\n  \"ui\": {\"theme\": \"GitHub\"}, /* light */\n"));
    let command = home::registered_command(&h, ".qwen/settings.json", "UserPromptSubmit");
    assert!(command.ends_with("tinylingo hook qwen 2>/dev/null || true"), "{command}");
    assert!(text.contains("\"timeout\": 10000"), "{text}");
    assert!(h.read(".qwen/QWEN.md").contains("tinylingo record"));

    let event = fixture_event("qwen/UserPromptSubmit.json", HIT);
    let v: Value = serde_json::from_str(&h.run_registered(&command, &event)).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "UserPromptSubmit");
    let context = v["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.starts_with("[TinyLingo]\n") && !context.contains('<'), "{context}");
    assert_eq!(h.run_registered(&command, &fixture_event("qwen/UserPromptSubmit.json", MISS)), "");
    // The binary deleted without uninstall: no output, exit 0 (run_registered checks both).
    std::fs::remove_file(h.path(".config/tinylingo/scripts/tinylingo")).unwrap();
    assert_eq!(h.run_registered(&command, &event), "");

    h.ok(&["install", "qwen"]);
    h.ok(&["uninstall", "qwen"]);
    assert_eq!(h.read(".qwen/settings.json"), settings);
    assert!(!h.exists(".qwen/QWEN.md"));
}

#[test]
fn a_settings_file_qwen_rewrote_is_edited_in_place_and_given_back() {
    // What Qwen Code 0.15.10 left after its first run: reformatted, with its own `$version`.
    let rewritten = std::fs::read_to_string("tests/fixtures/qwen/settings.after-run.json").unwrap();
    let h = Home::new();
    h.write(".qwen/settings.json", &rewritten);
    h.ok(&["install", "qwen"]);
    let text = h.read(".qwen/settings.json");
    assert!(text.contains("\"$version\": 4"), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["hooks"]["UserPromptSubmit"].as_array().unwrap().len(), 2, "theirs and ours");
    h.ok(&["uninstall", "qwen"]);
    assert_eq!(h.read(".qwen/settings.json"), rewritten);
}

#[test]
fn a_broken_qwen_settings_file_fails_qwen_alone() {
    let h = Home::new();
    h.write(".qwen/settings.json", "{\"hooks\": ");
    h.mkdir(".copilot");
    let out = h.run(&["install"]);
    assert_eq!(out.status.code(), Some(2), "{}", home::describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(".qwen/settings.json"), "{err}");
    assert_eq!(h.read(".qwen/settings.json"), "{\"hooks\": ");
    assert!(!h.exists(".qwen/QWEN.md"));
    assert!(h.exists(".copilot/hooks/tinylingo.json"), "Copilot is installed all the same");
}

#[test]
fn copilots_journal_entry_comes_from_its_transcript() {
    let h = Home::new();
    h.ok(&["install", "copilot"]);
    h.ok(&["thread", "on"]);
    let file: Value = serde_json::from_str(&h.read(".copilot/hooks/tinylingo.json")).unwrap();
    let after = file["hooks"]["agentStop"][0]["command"].as_str().unwrap().to_string();
    assert!(after.ends_with("hook copilot after"), "{after}");
    let prompt = flat_command(&h, ".copilot/hooks/tinylingo.json", "userPromptSubmitted");
    h.run_registered(&prompt, &fixture_event("copilot/userPromptSubmitted.json", "你好，看看"));
    // The real agentStop event, its transcript copied where it points.
    let transcript = h.path("events.jsonl");
    std::fs::copy("tests/fixtures/copilot/events.jsonl", &transcript).unwrap();
    let stop = std::fs::read_to_string("tests/fixtures/copilot/agentStop.json").unwrap();
    let mut stop: Value = serde_json::from_str(&stop).unwrap();
    stop["transcriptPath"] = transcript.to_string_lossy().as_ref().into();
    assert_eq!(h.run_registered(&after, &stop.to_string()), "");
    let shown = h.ok(&["thread", "show", "--format", "json"]);
    let entries: Value = serde_json::from_str(&shown).unwrap();
    let entry = &entries.as_array().unwrap()[0];
    assert_eq!(entry["prompt"], "你好，看看", "{shown}");
    assert_eq!(entry["model"], "m", "{shown}");
    assert_eq!(entry["summary"], "ok", "{shown}");
    assert_eq!(entry["assistant"], "GitHub Copilot CLI");
    h.ok(&["thread", "off"]);
    let file: Value = serde_json::from_str(&h.read(".copilot/hooks/tinylingo.json")).unwrap();
    assert!(file["hooks"].get("agentStop").is_none(), "{file}");
}

#[test]
fn mcp_entries_are_in_the_shape_the_clients_write() {
    let h = Home::new();
    h.ok(&["install", "copilot", "qwen", "--mcp", "--allow-record"]);
    let copilot: Value = serde_json::from_str(&h.read(".copilot/mcp-config.json")).unwrap();
    // What `copilot mcp add` wrote (tests/fixtures/copilot/mcp-config.json), with our name.
    let theirs = std::fs::read_to_string("tests/fixtures/copilot/mcp-config.json").unwrap();
    let theirs: Value = serde_json::from_str(&theirs).unwrap();
    let ours = &copilot["mcpServers"]["tinylingo"];
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(ours), keys(&theirs["mcpServers"]["tl"]));
    assert_eq!(ours["type"], "local");
    assert_eq!(ours["args"], json!(["mcp"]));
    assert_eq!(ours["tools"], json!(["*"]));
    let qwen: Value = serde_json::from_str(&h.read(".qwen/settings.json")).unwrap();
    assert_eq!(qwen["mcpServers"]["tinylingo"]["args"], json!(["mcp"]));
    assert_eq!(qwen["mcpServers"]["tinylingo"]["trust"], true);
    assert!(h.read(".qwen/QWEN.md").contains("record"));
    h.ok(&["uninstall"]);
    assert!(!h.exists(".copilot") && !h.exists(".qwen"), "{:?}", h.snapshot());
}
