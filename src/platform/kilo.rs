//! Kilo CLI, an OpenCode fork: OpenCode's plugin, in `~/.config/kilo/plugin/`, runs
//! `tinylingo hook kilo`; instructions in `~/.config/kilo/AGENTS.md`.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::review::{Format as ReviewFormat, Review};
use super::{opencode, FolderVar, Platform, Registration, Spec};

/// OpenCode's, but for the names and the folder: the same event fields, output, instruction
/// file and journal (the plugin watches `session.idle` itself).
pub(super) const SPEC: Spec = Spec {
    platform: Platform::Kilo,
    name: "kilo",
    display: "Kilo",
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
    // Kilo reads `{command,commands}/**/*.md` as OpenCode does (its docs' example:
    // `~/.config/kilo/command/`).
    review: Some(Review {
        file: "command/tinylingo-review.md",
        format: ReviewFormat::Markdown,
        invocation: "/tinylingo-review",
    }),
    // Kilo reads kilo.json (and kilo.jsonc, opencode.json) with comments; its `mcp` entries
    // are OpenCode's.
    mcp: Some(McpSpec {
        file: McpFile::InFolder("kilo.json"),
        format: McpFormat::Json { key: "mcp", comments: true, entry: JsonEntry::OpenCode },
        allow: McpAllow::Nothing,
    }),
    ..opencode::SPEC
};
