//! Gemini CLI: a `BeforeAgent` command hook in `~/.gemini/settings.json`.
use super::{OutputShape, Platform, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Gemini,
    name: "gemini",
    display: "Gemini CLI",
    session_fields: &["session_id"],
    output: OutputShape::HookSpecific { event_name: "BeforeAgent" },
};
