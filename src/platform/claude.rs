//! Claude Code: a `UserPromptSubmit` command hook in `~/.claude/settings.json`.
use super::{OutputShape, Platform, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Claude,
    name: "claude",
    display: "Claude Code",
    session_fields: &["session_id"],
    output: OutputShape::HookSpecific { event_name: "UserPromptSubmit" },
};
