//! OpenCode: a JS plugin runs `tinylingo hook opencode` and adds the block as a message part;
//! instructions in `~/.config/opencode/AGENTS.md`.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::review::{Format as ReviewFormat, Review};
use super::{FolderVar, OutputShape, Platform, Registration, Rules, Spec};

/// The plugin, for OpenCode and its forks (Kilo): it runs `tinylingo hook <name>`.
pub(super) const PLUGIN: &str = include_str!("opencode_plugin.js");

/// OpenCode's data folder, where its session store (`opencode.db`) is: the XDG data folder.
pub(super) const DATA_VAR: FolderVar = FolderVar { name: "XDG_DATA_HOME", inside: "opencode" };
pub(super) const DATA_DIR: &str = ".local/share/opencode";

pub(super) const SPEC: Spec = Spec {
    platform: Platform::OpenCode,
    name: "opencode",
    display: "OpenCode",
    session_fields: &["sessionID", "session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::Text,
    config_dir: ".config/opencode",
    config_var: Some(FolderVar { name: "XDG_CONFIG_HOME", inside: "opencode" }),
    // OpenCode loads `{plugin,plugins}/*.{ts,js}` from its config folder; its current docs name
    // `plugins/`, older ones `plugin/`.
    registration: Registration::Plugin {
        dir: "plugins",
        file: "tinylingo.js",
        other_dirs: &["plugin"],
        source: PLUGIN,
        what: "chat.message plugin",
    },
    rules: Rules::File("AGENTS.md"),
    install_notes: &[],
    after_event: None,
    allow_rule: None,
    command_guard: "",
    trust_note: None,
    // OpenCode reads `{command,commands}/**/*.md` in its folder (front matter `description`, the
    // body is the template).
    review: Some(Review {
        file: "commands/tinylingo-review.md",
        format: ReviewFormat::Markdown,
        invocation: "/tinylingo-review",
    }),
    // OpenCode reads opencode.json with comments (JSONC).
    mcp: Some(McpSpec {
        file: McpFile::InFolder("opencode.json"),
        format: McpFormat::Json { key: "mcp", comments: true, entry: JsonEntry::OpenCode },
        allow: McpAllow::Nothing,
    }),
};
