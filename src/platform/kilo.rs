//! Kilo CLI, an OpenCode fork: OpenCode's plugin, in `~/.config/kilo/plugin/`, runs
//! `tinylingo hook kilo`; instructions in `~/.config/kilo/AGENTS.md`.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::{opencode, FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Kilo,
    name: "kilo",
    display: "Kilo",
    session_fields: &["sessionID", "session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::Text,
    config_dir: ".config/kilo",
    config_var: Some(FolderVar { name: "XDG_CONFIG_HOME", inside: "kilo" }),
    // Kilo loads `{plugin,plugins}/*.{ts,js}` from its config folder, as OpenCode does, and
    // calls the same `chat.message` hook and `session.idle` event (checked in 7.7.9's bundle).
    registration: Registration::Plugin {
        dir: "plugin",
        file: "tinylingo.js",
        other_dirs: &["plugins"],
        source: opencode::PLUGIN,
        what: "chat.message plugin",
    },
    rules: Rules::File("AGENTS.md"),
    install_notes: &[],
    after_event: None,
    allow_rule: None,
    command_guard: "",
    trust_note: None,
    // Kilo reads kilo.json (and kilo.jsonc, opencode.json) with comments; its `mcp` entries
    // are OpenCode's.
    mcp: Some(McpSpec {
        file: McpFile::InFolder("kilo.json"),
        format: McpFormat::Json { key: "mcp", comments: true, entry: JsonEntry::OpenCode },
        allow: McpAllow::Nothing,
    }),
};
