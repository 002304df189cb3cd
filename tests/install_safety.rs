//! What the real runs and the new-user trial found (issue "Platforms for real"), each as the
//! real binary in a temporary home: uninstall gives back exactly what the user had, settings
//! files keep every byte outside our entry, protected and broken files stop only their own
//! assistant, and the hook never exits non-zero.
#[path = "support/home.rs"]
mod home;

use std::os::unix::fs::PermissionsExt;

use home::{Home, MARKER};

/// Install then uninstall `names` must leave the home exactly as it was (the store aside).
fn round_trip(h: &Home, names: &[&str]) {
    let before = without_store(h);
    let mut install = vec!["install"];
    install.extend(names);
    h.ok(&install);
    assert_ne!(without_store(h), before, "install changed nothing");
    let mut uninstall = vec!["uninstall"];
    uninstall.extend(names);
    h.ok(&uninstall);
    assert_eq!(without_store(h), before, "after install + uninstall {names:?}");
}

fn without_store(h: &Home) -> std::collections::BTreeMap<std::path::PathBuf, String> {
    let mut all = h.snapshot();
    all.retain(|p, _| !p.starts_with(".config/tinylingo") && p != std::path::Path::new(".config"));
    all
}

#[test]
fn uninstall_leaves_what_the_user_had_byte_for_byte() {
    // Each of these was deleted or changed by install + uninstall before.
    let h = Home::new();
    h.write(".claude/settings.json", "{}");
    h.write(".claude/CLAUDE.md", "");
    h.write(".cursor/hooks.json", r#"{"version":1,"hooks":{}}"#);
    h.write(".gemini/GEMINI.md", "");
    h.write(".gemini/settings.json", "{\n    \"ui\": {\"theme\": \"dark\"}\n}\n");
    h.mkdir(".config/opencode/plugins");
    h.write(".codex/config.toml", "model = \"o3\"\n");
    round_trip(&h, &[]);
    // Auto-detected but empty folders stay too.
    let h = Home::new();
    for dir in [".claude", ".cursor", ".gemini", ".config/opencode", ".codex"] {
        h.mkdir(dir);
    }
    round_trip(&h, &[]);
}

#[test]
fn what_install_created_goes_and_later_changes_of_the_user_stay() {
    let h = Home::new();
    h.ok(&["install", "claude"]);
    // The user edits the file after install: their change stays, ours goes.
    let text = h.read(".claude/settings.json").replacen('{', "{\n  \"model\": \"opus\",", 1);
    h.write(".claude/settings.json", &text);
    h.ok(&["uninstall", "claude"]);
    assert_eq!(h.read(".claude/settings.json"), "{\n  \"model\": \"opus\"\n}\n");
    assert!(!h.exists(".claude/CLAUDE.md"), "the instruction file install created goes");
    // A folder install created for a named assistant goes when empty.
    let h = Home::new();
    h.ok(&["install", "gemini"]);
    h.ok(&["uninstall", "gemini"]);
    assert!(!h.exists(".gemini"), "{:?}", h.snapshot());
}

#[test]
fn settings_keep_their_format_and_comments() {
    let h = Home::new();
    let claude = "{\r\n    \"x\": 1.10,\r\n    \"name\": \"Ren\\u00e9\",\r\n    \"list\": [1, 2],\r\n    \"hooks\": {\r\n        \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]\r\n    }\r\n}\r\n";
    h.write(".claude/settings.json", claude);
    let gemini = "// my settings\n{\n  /* look */ \"ui\": {\"theme\": \"dark\"}, // trailing\n}\n";
    h.write(".gemini/settings.json", gemini);
    h.ok(&["install", "claude", "gemini"]);
    let now = h.read(".claude/settings.json");
    // The user's Stop entry stays first; the learning capture's follows it.
    let kept = "{\r\n    \"x\": 1.10,\r\n    \"name\": \"Ren\\u00e9\",\r\n    \"list\": [1, 2],\r\n    \"hooks\": {\r\n        \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}";
    assert!(now.starts_with(kept), "{now:?}");
    assert!(!now.replace("\r\n", "").contains('\n'), "LF in a CRLF file: {now:?}");
    let now = h.read(".gemini/settings.json");
    assert!(
        now.starts_with(
            "// my settings\n{\n  /* look */ \"ui\": {\"theme\": \"dark\"}, // trailing\n"
        ),
        "{now}"
    );
    assert!(now.contains(MARKER));
    h.ok(&["uninstall"]);
    assert_eq!(h.read(".claude/settings.json"), claude);
    assert_eq!(h.read(".gemini/settings.json"), gemini);
}

#[test]
fn a_read_only_settings_file_is_refused_and_the_others_installed() {
    let h = Home::new();
    h.write(".claude/settings.json", "{}\n");
    h.mkdir(".codex");
    let path = h.path(".claude/settings.json");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = h.run(&["install"]);
    assert_eq!(out.status.code(), Some(2), "{}", home::describe(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("settings.json is read-only") && err.contains("chmod"), "{err}");
    assert_eq!(h.read(".claude/settings.json"), "{}\n");
    assert!(!h.exists(".claude/CLAUDE.md"), "nothing of a failed assistant is written");
    assert!(h.read(".codex/hooks.json").contains(MARKER), "the other assistant is installed");
}

#[test]
fn the_hook_exits_0_silently_on_any_arguments() {
    let h = Home::new();
    h.record_term();
    for args in [&["hook"][..], &["hook", "bogus"], &["hook", "claude", "extra"], &["hook", ""]] {
        let out = h.run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", home::describe(&out));
        assert!(
            out.stdout.is_empty() && out.stderr.is_empty(),
            "{args:?}: {}",
            home::describe(&out)
        );
    }
}

#[test]
fn claude_turns_the_user_did_not_type_get_nothing() {
    let h = Home::new();
    h.record_term();
    h.ok(&["install", "claude"]);
    let command = home::registered_command(&h, ".claude/settings.json", "UserPromptSubmit");
    for (source, hit) in [("user", true), ("system", false), ("loop_wakeup", false)] {
        let event = serde_json::json!({"hook_event_name": "UserPromptSubmit", "prompt": home::HIT, "source": source});
        let out = h.run_registered(&command, &event.to_string());
        assert_eq!(out.contains(home::EXPLANATION), hit, "{source}: {out}");
    }
}

#[test]
fn gemini_gets_the_block_without_our_tags_and_survives_a_missing_binary() {
    let h = Home::new();
    h.record_term();
    h.ok(&["install", "gemini"]);
    let command = home::registered_command(&h, ".gemini/settings.json", "BeforeAgent");
    let event = serde_json::json!({"hook_event_name": "BeforeAgent", "prompt": home::HIT});
    let out = h.run_registered(&command, &event.to_string());
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let context = v["hookSpecificOutput"]["additionalContext"].as_str().unwrap();
    assert!(context.starts_with("[TinyLingo]\n- 智能抠图: "), "{context}");
    assert!(!context.contains('<'), "{context}");
    // The binary deleted without uninstall: the command still exits 0 and prints nothing.
    std::fs::remove_file(h.path(".config/tinylingo/scripts/tinylingo")).unwrap();
    assert_eq!(h.run_registered(&command, &event.to_string()), "");
}

#[test]
fn claude_allow_rule_is_opt_in_and_removed_by_uninstall() {
    let h = Home::new();
    h.write(
        ".claude/settings.json",
        "{\n  \"permissions\": {\n    \"allow\": [\"Read\"]\n  }\n}\n",
    );
    let out = h.ok(&["install", "claude"]);
    assert!(out.contains("--allow-record"), "the option is offered: {out}");
    assert!(!h.read(".claude/settings.json").contains("tinylingo record"));
    h.ok(&["install", "claude", "--allow-record"]);
    let v: serde_json::Value = serde_json::from_str(&h.read(".claude/settings.json")).unwrap();
    assert_eq!(v["permissions"]["allow"], serde_json::json!(["Read", "Bash(tinylingo record:*)"]));
    h.ok(&["uninstall", "claude"]);
    assert_eq!(
        h.read(".claude/settings.json"),
        "{\n  \"permissions\": {\n    \"allow\": [\"Read\"]\n  }\n}\n"
    );
}

#[test]
fn codex_install_says_whether_codex_trusts_the_hook() {
    let h = Home::new();
    let out = h.ok(&["install", "codex"]);
    assert!(out.contains("open /hooks in Codex"), "{out}");
    // Trust it the way Codex's TUI does, then install again: the entry stays byte-stable and
    // install sees the trust.
    let hooks = h.read(".codex/hooks.json");
    let command = home::registered_command(&h, ".codex/hooks.json", "UserPromptSubmit");
    let definition = serde_json::json!({"event_name": "user_prompt_submit", "hooks": [
        {"async": false, "command": command, "timeout": 10, "type": "command"}]});
    let hash = home::sha256_hex(definition.to_string().as_bytes());
    let key = format!("{}:user_prompt_submit:0:0", h.path(".codex/hooks.json").display());
    h.write(
        ".codex/config.toml",
        &format!("[hooks.state.\"{key}\"]\ntrusted_hash = \"sha256:{hash}\"\n"),
    );
    let out = h.ok(&["install", "codex"]);
    assert!(out.contains("Codex trusts the tinylingo hook"), "{out}");
    assert_eq!(h.read(".codex/hooks.json"), hooks);
}
