//! `install` and `uninstall` for each assistant with JSON hook settings, on realistic existing
//! configuration, with the real binary in a temporary home folder; then the registered command
//! run the way the assistant runs it.

#[path = "support/home.rs"]
mod home;

use home::{our_commands, Home, EXPLANATION, HIT, MARKER, MISS};
use serde_json::Value;
use tinylingo::platform::instructions::BLOCK_ZH as BLOCK;

/// One assistant: where its files are, what a user already has there, what it sends the hook.
struct Case {
    platform: &'static str,
    config_dir: &'static str,
    settings: &'static str,
    /// The user's settings, written as the assistant writes them (two-space JSON + newline).
    user_settings: &'static str,
    event: &'static str,
    /// The user's instruction file (path, content); `None` content: the file does not exist.
    rules: Option<(&'static str, Option<&'static str>)>,
    /// The event the assistant sends, with `PROMPT` standing for the prompt (a JSON string).
    event_json: &'static str,
    /// The shape of the hook's answer.
    shape: Shape,
}

enum Shape {
    HookSpecific(&'static str),
    Cursor,
}

const CLAUDE: Case = Case {
    platform: "claude",
    config_dir: ".claude",
    settings: ".claude/settings.json",
    user_settings: r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(git status)"
    ],
    "deny": []
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/guard.sh",
            "timeout": 5
          }
        ]
      }
    ],
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/bin/log-prompt.sh"
          }
        ]
      }
    ]
  },
  "statusLine": {
    "type": "command",
    "command": "~/bin/status.sh"
  }
}
"#,
    event: "UserPromptSubmit",
    rules: Some(("CLAUDE.md", Some("# Personal rules\n\n- Answer briefly.\n"))),
    event_json: r#"{"session_id":"9f1c","transcript_path":"/tmp/t.jsonl","cwd":"/work","permission_mode":"default","hook_event_name":"UserPromptSubmit","prompt":PROMPT}"#,
    shape: Shape::HookSpecific("UserPromptSubmit"),
};

const CURSOR: Case = Case {
    platform: "cursor",
    config_dir: ".cursor",
    settings: ".cursor/hooks.json",
    user_settings: r#"{
  "version": 1,
  "hooks": {
    "afterFileEdit": [
      {
        "command": "./hooks/format.sh"
      }
    ],
    "beforeSubmitPrompt": [
      {
        "command": "./hooks/audit.sh",
        "timeout": 5
      }
    ]
  }
}
"#,
    event: "beforeSubmitPrompt",
    rules: None,
    event_json: r#"{"conversation_id":"c-1","generation_id":"g-1","model":"gpt-5","hook_event_name":"beforeSubmitPrompt","cursor_version":"2.0.77","workspace_roots":["/work"],"user_email":"u@example.com","prompt":PROMPT,"attachments":[]}"#,
    shape: Shape::Cursor,
};

const CODEX: Case = Case {
    platform: "codex",
    config_dir: ".codex",
    settings: ".codex/hooks.json",
    user_settings: r#"{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume",
        "hooks": [
          {
            "type": "command",
            "command": "python3 ~/.codex/hooks/start.py",
            "timeout": 30
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/.codex/hooks/notify.sh"
          }
        ]
      }
    ]
  }
}
"#,
    event: "UserPromptSubmit",
    // No trailing newline: uninstall must give exactly this back.
    rules: Some(("AGENTS.md", Some("Use pnpm, never npm."))),
    event_json: r#"{"session_id":"s-1","turn_id":"t-1","transcript_path":null,"cwd":"/work","hook_event_name":"UserPromptSubmit","model":"gpt-5-codex","prompt":PROMPT}"#,
    shape: Shape::HookSpecific("UserPromptSubmit"),
};

const GEMINI: Case = Case {
    platform: "gemini",
    config_dir: ".gemini",
    settings: ".gemini/settings.json",
    user_settings: r#"{
  "theme": "GitHub",
  "general": {
    "vimMode": true
  },
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem"
      ]
    }
  },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          {
            "name": "guard",
            "type": "command",
            "command": "~/bin/guard",
            "timeout": 5000
          }
        ]
      }
    ]
  },
  "hooksConfig": {
    "enabled": true
  }
}
"#,
    event: "BeforeAgent",
    // No GEMINI.md yet: install creates it, uninstall removes it.
    rules: Some(("GEMINI.md", None)),
    event_json: r#"{"session_id":"s-1","transcript_path":"/tmp/t.json","cwd":"/work","hook_event_name":"BeforeAgent","timestamp":"2026-11-21T10:00:00Z","prompt":PROMPT}"#,
    shape: Shape::HookSpecific("BeforeAgent"),
};

/// Checks the hook's stdout for a prompt with a hit (`Some(explanation)`) or without.
fn check(shape: &Shape, out: &str, hit: Option<&str>) {
    match shape {
        Shape::HookSpecific(event) => check_hook_specific(out, hit, event),
        Shape::Cursor => cursor_output(out, hit),
    }
}

/// `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}` on a hit, nothing else.
fn check_hook_specific(out: &str, hit: Option<&str>, event: &str) {
    let Some(explanation) = hit else {
        assert_eq!(out, "", "no hit, no output");
        return;
    };
    let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["hookSpecificOutput"]);
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], event);
    assert_block(v["hookSpecificOutput"]["additionalContext"].as_str().unwrap(), explanation);
}

/// Cursor: always a JSON object with `"continue": true`; the block as `additional_context`.
fn cursor_output(out: &str, hit: Option<&str>) {
    let v: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    assert_eq!(v["continue"], true);
    match hit {
        None => assert_eq!(v, serde_json::json!({"continue": true})),
        Some(explanation) => assert_block(v["additional_context"].as_str().unwrap(), explanation),
    }
}

fn assert_block(context: &str, explanation: &str) {
    assert!(context.contains(&format!("- {}: {explanation}", home::TERM)), "{context}");
    // Gemini CLI wraps the context in tags of its own and escapes ours: it gets none.
    if context.starts_with("[TinyLingo]\n") {
        assert!(!context.contains('<'), "{context}");
        return;
    }
    assert!(context.starts_with("<system-reminder>\n[TinyLingo]\n"), "{context}");
    assert!(context.ends_with("</system-reminder>"), "{context}");
}

fn event(case: &Case, prompt: &str) -> String {
    case.event_json.replace("PROMPT", &serde_json::to_string(prompt).unwrap())
}

/// Writes the user's existing configuration for `case`.
fn user_setup(h: &Home, case: &Case) {
    h.mkdir(case.config_dir);
    h.write(case.settings, case.user_settings);
    if let Some((file, Some(text))) = case.rules {
        h.write(&format!("{}/{file}", case.config_dir), text);
    }
}

/// The registered command, after checking the file holds the user's content plus one entry of
/// ours, last in the event's list, and the user's keys in their order.
fn registered_command(h: &Home, case: &Case) -> String {
    let text = h.read(case.settings);
    assert!(text.ends_with("}\n"), "pretty JSON with a trailing newline");
    let now: Value = serde_json::from_str(&text).unwrap();
    let before: Value = serde_json::from_str(case.user_settings).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&now), keys(&before), "top-level keys and their order");
    for (k, v) in before.as_object().unwrap() {
        if k != "hooks" {
            assert_eq!(&now[k], v, "{k} untouched");
        }
    }
    let mut event_keys = keys(&before["hooks"]);
    if !event_keys.contains(&case.event.to_string()) {
        event_keys.push(case.event.to_string());
    }
    // The after-response hook of the learning capture (`learn.capture`, on by default), for
    // the assistants whose sessions `suggest` reads.
    let after = match case.platform {
        "claude" | "codex" => Some("Stop"),
        "gemini" => Some("AfterAgent"),
        _ => None,
    };
    if let Some(after) = after.filter(|a| !event_keys.iter().any(|k| k == a)) {
        event_keys.push(after.to_string());
    }
    assert_eq!(keys(&now["hooks"]), event_keys, "events and their order");
    let mut list = now["hooks"][case.event].as_array().unwrap().clone();
    let ours = list.pop().unwrap();
    let old = before["hooks"][case.event].as_array().cloned().unwrap_or_default();
    assert_eq!(list, old, "the user's own {} entries untouched", case.event);
    let commands = our_commands(&now, case.event);
    assert_eq!(commands.len(), 1, "one entry of ours: {text}");
    let command = commands[0].clone();
    // Gemini CLI drops the prompt when the command fails with output on stderr: its command
    // turns a missing binary into silence and exit 0.
    let guard = if case.platform == "gemini" { " 2>/dev/null || true" } else { "" };
    let expected =
        format!("{}/{MARKER}tinylingo hook {}{guard}", h.root().display(), case.platform);
    assert_eq!(command, expected);
    let handler = ours.get("hooks").map_or(&ours, |hs| &hs[0]);
    match case.platform {
        "claude" | "codex" => assert_eq!(
            handler,
            &serde_json::json!({"type": "command", "command": command, "timeout": 10})
        ),
        "gemini" => assert_eq!(
            handler,
            &serde_json::json!({"name": "tinylingo", "type": "command", "command": command, "timeout": 10000})
        ),
        _ => assert_eq!(handler, &serde_json::json!({"command": command})),
    }
    command
}

/// Install twice, check the files, uninstall, check everything is back byte for byte.
fn install_and_uninstall(case: &Case) {
    let h = Home::new();
    user_setup(&h, case);
    let rules_path = case.rules.map(|(f, _)| format!("{}/{f}", case.config_dir));
    let first = h.ok(&["install", case.platform]);
    assert!(first.contains(&format!("~/{}: ", case.settings)), "{first}");
    let after_first = h.snapshot();
    let second = h.ok(&["install", case.platform]);
    assert_eq!(h.snapshot(), after_first, "installing twice equals installing once");
    assert!(!second.contains("added") && second.contains("already in place"), "{second}");
    registered_command(&h, case);
    if let Some(rules) = &rules_path {
        let text = h.read(rules);
        let user = case.rules.unwrap().1.unwrap_or("");
        assert!(text.starts_with(user), "the user's instructions first");
        assert_eq!(text.matches(BLOCK).count(), 1, "{text}");
    }
    let scripts = h.path(".config/tinylingo/scripts/tinylingo");
    assert_eq!(
        std::fs::canonicalize(&scripts).unwrap(),
        std::fs::canonicalize(home::BIN).unwrap(),
        "the scripts link points at the binary"
    );

    let out = h.ok(&["uninstall", case.platform]);
    assert!(out.contains("removed"), "{out}");
    assert_eq!(h.read(case.settings), case.user_settings, "settings restored byte for byte");
    match case.rules {
        Some((_, Some(text))) => assert_eq!(h.read(rules_path.as_deref().unwrap()), text),
        Some((_, None)) => assert!(!h.exists(rules_path.as_deref().unwrap()), "created, removed"),
        None => {}
    }
    assert!(!h.exists(".config/tinylingo/scripts"), "nothing registered: the link is gone");
    let again = h.ok(&["uninstall", case.platform]);
    assert!(again.contains("nothing to remove"), "{again}");
}

/// The registered command, run as the assistant runs it, answers in the assistant's shape.
fn registered_command_answers(case: &Case) {
    let h = Home::new();
    user_setup(&h, case);
    h.record_term();
    h.ok(&["install", case.platform]);
    let command = registered_command(&h, case);
    check(&case.shape, &h.run_registered(&command, &event(case, MISS)), None);
    check(&case.shape, &h.run_registered(&command, &event(case, HIT)), Some(EXPLANATION));
}

#[test]
fn claude_install_and_uninstall() {
    install_and_uninstall(&CLAUDE);
}

#[test]
fn cursor_install_and_uninstall() {
    install_and_uninstall(&CURSOR);
}

#[test]
fn codex_install_and_uninstall() {
    install_and_uninstall(&CODEX);
}

#[test]
fn gemini_install_and_uninstall() {
    install_and_uninstall(&GEMINI);
}

#[test]
fn claude_registered_command_answers() {
    registered_command_answers(&CLAUDE);
}

#[test]
fn cursor_registered_command_answers() {
    registered_command_answers(&CURSOR);
}

#[test]
fn codex_registered_command_answers() {
    registered_command_answers(&CODEX);
}

#[test]
fn gemini_registered_command_answers() {
    registered_command_answers(&GEMINI);
}

/// Cursor also runs the hooks in ~/.claude/settings.json: with both installed, a Cursor prompt
/// gets the block from the Cursor registration only.
#[test]
fn cursor_prompt_gets_the_block_once_with_both_installed() {
    let h = Home::new();
    user_setup(&h, &CLAUDE);
    user_setup(&h, &CURSOR);
    h.record_term();
    h.ok(&["install"]);
    let claude = registered_command(&h, &CLAUDE);
    let cursor = registered_command(&h, &CURSOR);
    let cursor_event = event(&CURSOR, HIT);
    cursor_output(&h.run_registered(&cursor, &cursor_event), Some(EXPLANATION));
    assert_eq!(
        h.run_registered(&claude, &cursor_event),
        "",
        "hook claude leaves Cursor's prompt alone"
    );
    check_hook_specific(
        &h.run_registered(&claude, &event(&CLAUDE, HIT)),
        Some(EXPLANATION),
        "UserPromptSubmit",
    );
}
