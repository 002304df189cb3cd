//! Issue #34: uninstall after a reinstall must keep what the user changed in between, and the
//! install record must hold no copy of the user's files. The real binary in a temporary home.
#[path = "support/home.rs"]
mod home;

use home::{Home, MARKER};

const SETTINGS: &str = ".claude/settings.json";
const CLAUDE_JSON: &str = ".claude.json";
const RECORD: &str = ".config/tinylingo/installed.json";
/// A secret in the user's files that must never be copied into the store.
const TOKEN: &str = "sk-ant-fake-token-0123456789";

fn settings() -> String {
    format!(
        "{{\n  \"env\": {{\n    \"ANTHROPIC_API_KEY\": \"{TOKEN}\"\n  }},\n  \"model\": \"opus\"\n}}\n"
    )
}

fn claude_json() -> String {
    format!(
        "{{\n  \"numStartups\": 3,\n  \"mcpServers\": {{\n    \"github\": {{\n      \"command\": \"gh-mcp\",\n      \"env\": {{\"GITHUB_TOKEN\": \"{TOKEN}\"}}\n    }}\n  }}\n}}\n"
    )
}

/// `text` with `"key": value,` inserted right after its opening brace: a user's edit.
fn with_key(text: &str, key: &str, value: &str) -> String {
    text.replacen('{', &format!("{{\n  \"{key}\": {value},"), 1)
}

#[test]
fn a_reinstall_keeps_what_the_user_added_in_between() {
    let h = Home::new();
    h.write(SETTINGS, &settings());
    h.write(CLAUDE_JSON, &claude_json());
    h.ok(&["install", "claude", "--mcp"]);
    assert!(h.read(SETTINGS).contains(MARKER) && h.read(CLAUDE_JSON).contains("tinylingo"));
    // The user denies a tool and adds a server of their own; then installs again.
    let deny = "{\"deny\": [\"Bash(rm:*)\"]}";
    h.write(SETTINGS, &with_key(&h.read(SETTINGS), "permissions", deny));
    h.write(CLAUDE_JSON, &with_key(&h.read(CLAUDE_JSON), "theme", "\"dark\""));
    h.ok(&["install", "claude"]);
    h.ok(&["install", "claude", "--mcp"]);
    h.ok(&["uninstall", "claude"]);
    assert_eq!(h.read(SETTINGS), with_key(&settings(), "permissions", deny));
    assert_eq!(h.read(CLAUDE_JSON), with_key(&claude_json(), "theme", "\"dark\""));
}

#[test]
fn uninstall_mcp_after_a_reinstall_keeps_the_users_servers() {
    let h = Home::new();
    h.write(CLAUDE_JSON, &claude_json());
    h.ok(&["install", "claude", "--mcp"]);
    h.write(CLAUDE_JSON, &with_key(&h.read(CLAUDE_JSON), "theme", "\"dark\""));
    h.ok(&["install", "claude", "--mcp"]);
    h.ok(&["uninstall", "claude", "--mcp"]);
    assert_eq!(h.read(CLAUDE_JSON), with_key(&claude_json(), "theme", "\"dark\""));
    h.ok(&["install", "claude", "--mcp"]);
    h.ok(&["uninstall", "claude"]);
    assert_eq!(h.read(CLAUDE_JSON), with_key(&claude_json(), "theme", "\"dark\""));
}

#[test]
fn the_install_record_holds_no_user_text_and_is_private() {
    let h = Home::new();
    h.write(SETTINGS, &settings());
    h.write(CLAUDE_JSON, &claude_json());
    h.write(".claude/CLAUDE.md", "# My rules\nnever push\n");
    h.ok(&["install", "claude", "--mcp", "--allow-record"]);
    h.ok(&["thread", "on"]);
    let record = h.read(RECORD);
    for secret in [TOKEN, "ANTHROPIC_API_KEY", "GITHUB_TOKEN", "never push", "opus", "numStartups"]
    {
        assert!(!record.contains(secret), "{secret} in installed.json: {record}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(h.path(RECORD)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "installed.json is readable by others");
    }
}

#[test]
fn an_earlier_versions_record_is_converted_and_its_texts_dropped() {
    let h = Home::new();
    h.write(SETTINGS, &settings());
    h.ok(&["install", "claude"]);
    // What an earlier version wrote: the whole text before install and after it.
    let path = h.path(SETTINGS).display().to_string();
    let md = h.path(".claude/CLAUDE.md").display().to_string();
    let old = serde_json::json!({"files": {
        path: {"before": settings(), "after": h.read(SETTINGS)},
        md: {"before": null, "after": h.read(".claude/CLAUDE.md")},
    }});
    h.write(RECORD, &old.to_string());
    h.write(SETTINGS, &with_key(&h.read(SETTINGS), "theme", "\"dark\""));
    h.ok(&["install", "claude"]);
    assert!(!h.read(RECORD).contains(TOKEN), "{}", h.read(RECORD));
    h.ok(&["uninstall", "claude"]);
    assert_eq!(h.read(SETTINGS), with_key(&settings(), "theme", "\"dark\""));
    assert!(!h.exists(".claude/CLAUDE.md"), "the record still says install created it");
}
