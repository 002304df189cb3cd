//! Codex CLI: a `UserPromptSubmit` command hook in `~/.codex/hooks.json`, Claude Code's shape.
use super::{OutputShape, Platform, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Codex,
    name: "codex",
    display: "Codex CLI",
    session_fields: &["session_id"],
    output: OutputShape::HookSpecific { event_name: "UserPromptSubmit" },
};
