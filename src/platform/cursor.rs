//! Cursor: a `beforeSubmitPrompt` hook in `~/.cursor/hooks.json`; stdout is always JSON.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::{CommandEntry, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Cursor,
    name: "cursor",
    display: "Cursor",
    session_fields: &["conversation_id", "session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::Cursor,
    config_dir: ".cursor",
    config_var: None,
    registration: Registration::Command {
        file: "hooks.json",
        event: "beforeSubmitPrompt",
        comments: false,
        entry: CommandEntry {
            grouped: false,
            name: None,
            typed: false,
            timeout: None,
            version: Some(1),
        },
    },
    rules: Rules::Elsewhere(
        "Cursor keeps user rules in its app settings (Settings → Rules), not in a file: \
         nothing written; to have the model record terms itself, paste the output of \
         `tinylingo instructions` there",
    ),
    install_notes: &[],
    after_event: Some("afterAgentResponse"),
    allow_rule: None,
    command_guard: "",
    trust_note: None,
    // Cursor has custom commands (`commands/*.md`), but no client here to take their format
    // from or to prove one loads: none is written.
    review: None,
    mcp: Some(McpSpec {
        file: McpFile::InFolder("mcp.json"),
        format: McpFormat::Json {
            key: "mcpServers",
            comments: false,
            entry: JsonEntry::CommandArgs { typed: false },
        },
        allow: McpAllow::Nothing,
    }),
};
