//! The shape of a file install edits: the key paths (names only) that decide, at uninstall,
//! which containers are install's and go once emptied, and which are the user's and stay.
//!
//! Install's record ([`Installed`](crate::store::installed::Installed)) keeps, for each file,
//! the key paths a write added: [`shape`] of the text after it minus [`shape`] of the text
//! before. Values are never part of a shape, except our own allow rules' text, so that the
//! record holds nothing of the user's.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::platform::mcp_config::McpAllow;
use crate::platform::{settings_file, Platform};

/// The top-level keys of a JSON file that install may add: the hooks, Claude Code's
/// permissions, Cursor's `version`, the MCP servers tables.
const TOP: &[&str] = &["hooks", "permissions", "version", "mcpServers", "mcp"];

/// The key paths of `text` (the file at `path`) that install's record tracks, `/` between
/// levels: the keys of `TOP` there, the events under `hooks`, the keys under `permissions`,
/// and which of our allow rules `permissions.allow` holds. A TOML file: `mcp_servers`. Any
/// other file (an instruction file, a plugin) has none.
pub fn shape(path: &Path, text: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    if path.extension().is_some_and(|e| e == "toml") {
        if text.parse::<toml_edit::DocumentMut>().is_ok_and(|d| d.contains_key("mcp_servers")) {
            keys.insert("mcp_servers".to_string());
        }
        return keys;
    }
    let Ok(settings) = settings_file::parse(path, text.as_bytes(), true) else { return keys };
    let root = settings.value();
    for &top in TOP.iter().filter(|k| root.contains_key(**k)) {
        keys.insert(top.to_string());
    }
    let names = |key: &str| root.get(key).and_then(Value::as_object).map(|o| o.keys().cloned());
    keys.extend(names("hooks").into_iter().flatten().map(|e| format!("hooks/{e}")));
    keys.extend(names("permissions").into_iter().flatten().map(|e| format!("permissions/{e}")));
    let allow = root.get("permissions").and_then(|p| p.get("allow")).and_then(Value::as_array);
    for rule in allow.into_iter().flatten().filter_map(Value::as_str) {
        if our_rules().any(|r| r == rule) {
            keys.insert(allow_rule_key(rule));
        }
    }
    keys
}

/// The key path of one of our allow rules in `permissions.allow`.
pub(crate) fn allow_rule_key(rule: &str) -> String {
    format!("permissions/allow/{rule}")
}

/// Every allow rule install may add, for any assistant.
fn our_rules() -> impl Iterator<Item = &'static str> {
    Platform::ALL.into_iter().flat_map(|p| {
        let spec = p.spec();
        let mcp = spec.mcp.and_then(|m| match m.allow {
            McpAllow::Rule(r) => Some(r),
            _ => None,
        });
        spec.allow_rule.into_iter().chain(mcp)
    })
}

/// What a write from `before` (`None`: no file) to `after` added (public for the fuzz target,
/// which checks uninstall against it).
pub fn added(path: &Path, before: Option<&str>, after: &str) -> BTreeSet<String> {
    let had = shape(path, before.unwrap_or_default());
    shape(path, after).difference(&had).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_key_names_and_our_rules_are_kept() {
        let text = r#"{"env": {"ANTHROPIC_API_KEY": "sk-secret"}, "hooks": {"Stop": []},
            "permissions": {"allow": ["Bash(rm:*)", "Bash(tinylingo record:*)"], "deny": []},
            "mcpServers": {"x": {"env": {"TOKEN": "t0ken"}}}}"#;
        let keys: Vec<String> = shape(Path::new("settings.json"), text).into_iter().collect();
        assert_eq!(
            keys,
            [
                "hooks",
                "hooks/Stop",
                "mcpServers",
                "permissions",
                "permissions/allow",
                "permissions/allow/Bash(tinylingo record:*)",
                "permissions/deny"
            ]
        );
        let toml = "[mcp_servers.x]\ncommand = \"secret\"\n";
        assert_eq!(shape(Path::new("config.toml"), toml).len(), 1);
        assert!(shape(Path::new("CLAUDE.md"), "# notes\n").is_empty());
        let added = added(Path::new("s.json"), Some("{\"hooks\": {}}"), text);
        assert!(!added.contains("hooks") && added.contains("hooks/Stop"));
    }
}
