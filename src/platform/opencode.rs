//! OpenCode: a JS plugin runs `tinylingo hook opencode` and adds the block as a message part.
use super::{OutputShape, Platform, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::OpenCode,
    name: "opencode",
    display: "OpenCode",
    session_fields: &["sessionID", "session_id"],
    output: OutputShape::Text,
};
