//! Whether Codex CLI will run our hook.
//!
//! Codex runs a hook only after the user trusted it in its TUI (`/hooks`); `codex exec` skips an
//! untrusted one without a word, so a user who installed tinylingo would see nothing happen.
//! Trust is kept in `config.toml`, beside `hooks.json`:
//!
//! ```toml
//! [hooks.state."/home/u/.codex/hooks.json:user_prompt_submit:0:0"]
//! trusted_hash = "sha256:…"
//! ```
//!
//! keyed by the file, the event (snake case), the group's and the handler's positions, and
//! holding the SHA-256 of the hook's definition as compact JSON with sorted keys. (Read from
//! Codex's sources, `codex-rs/hooks`, and checked against the client's own `hooks/list`.) The
//! hash covers the command and the timeout, which is why install keeps our entry byte-stable:
//! reinstalling must not undo the user's trust.

use std::path::Path;

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::settings_file::is_ours;

/// What Codex would do with our hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trust {
    Trusted,
    /// Never trusted, or trusted in another form (an older command or timeout).
    Untrusted,
    /// `config.toml` could not be read.
    Unknown,
}

/// Our hook's trust, for the hook registered under `event` in `settings` (the content of
/// `hooks_path`), with `config.toml` in `codex_dir`.
pub fn trust(
    codex_dir: &Path,
    hooks_path: &Path,
    settings: &Map<String, Value>,
    event: &str,
) -> Trust {
    let Some((group, at, handler)) = position(settings, event) else { return Trust::Untrusted };
    let key = format!("{}:{}:{group}:{at}", hooks_path.display(), snake_case(event));
    let config = match std::fs::read_to_string(codex_dir.join("config.toml")) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Trust::Untrusted,
        Err(_) => return Trust::Unknown,
    };
    let Ok(doc) = config.parse::<toml_edit::DocumentMut>() else { return Trust::Unknown };
    let stored = doc
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(&key))
        .and_then(|e| e.get("trusted_hash"))
        .and_then(|h| h.as_str());
    if stored == Some(hash(event, handler).as_str()) {
        Trust::Trusted
    } else {
        Trust::Untrusted
    }
}

/// The note install prints for Codex.
pub fn note(trust: Trust) -> String {
    match trust {
        Trust::Trusted => "Codex trusts the tinylingo hook: it runs before every prompt".into(),
        Trust::Untrusted | Trust::Unknown => "Codex runs a new or changed hook only once you \
            trust it: open /hooks in Codex and trust the tinylingo hook. Until then Codex skips \
            it without a word (for a single `codex exec`: --dangerously-bypass-hook-trust)"
            .into(),
    }
}

/// Where our handler stands: the group's index, the handler's index in it, and the handler.
fn position<'a>(
    settings: &'a Map<String, Value>,
    event: &str,
) -> Option<(usize, usize, &'a Value)> {
    let groups = settings.get("hooks")?.get(event)?.as_array()?;
    groups.iter().enumerate().find_map(|(i, group)| {
        let handlers = group.get("hooks")?.as_array()?;
        handlers.iter().enumerate().find_map(|(j, h)| {
            h.get("command").and_then(Value::as_str).is_some_and(is_ours).then_some((i, j, h))
        })
    })
}

/// Codex's hash of a command hook: the SHA-256 of its normalised definition, as compact JSON
/// with sorted keys (a missing timeout counts as Codex's default, 600 s).
fn hash(event: &str, handler: &Value) -> String {
    let mut normal = Map::new();
    normal.insert("async".into(), handler.get("async").cloned().unwrap_or(Value::Bool(false)));
    normal.insert("command".into(), handler.get("command").cloned().unwrap_or(Value::Null));
    for optional in ["statusMessage"] {
        if let Some(v) = handler.get(optional) {
            normal.insert(optional.into(), v.clone());
        }
    }
    normal.insert("timeout".into(), handler.get("timeout").cloned().unwrap_or(600.into()));
    normal.insert("type".into(), "command".into());
    let definition = serde_json::json!({ "event_name": snake_case(event), "hooks": [normal] });
    let digest = Sha256::digest(definition.to_string().as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// `UserPromptSubmit` → `user_prompt_submit`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_become_snake_case() {
        assert_eq!(snake_case("UserPromptSubmit"), "user_prompt_submit");
        assert_eq!(snake_case("Stop"), "stop");
    }

    #[test]
    fn the_hash_covers_the_normalised_definition() {
        let handler =
            serde_json::json!({"type": "command", "command": "/h/x hook codex", "timeout": 10});
        let expected = {
            let text = r#"{"event_name":"user_prompt_submit","hooks":[{"async":false,"command":"/h/x hook codex","timeout":10,"type":"command"}]}"#;
            let hex: String =
                Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
            format!("sha256:{hex}")
        };
        assert_eq!(hash("UserPromptSubmit", &handler), expected);
        let other =
            serde_json::json!({"type": "command", "command": "/h/x hook codex", "timeout": 11});
        assert_ne!(hash("UserPromptSubmit", &other), expected);
    }
}
