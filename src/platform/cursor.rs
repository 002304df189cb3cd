//! Cursor: a `beforeSubmitPrompt` hook in `~/.cursor/hooks.json`; stdout is always JSON.
use super::{OutputShape, Platform, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Cursor,
    name: "cursor",
    display: "Cursor",
    session_fields: &["conversation_id", "session_id"],
    output: OutputShape::Cursor,
};
