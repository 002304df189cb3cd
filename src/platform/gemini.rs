//! Gemini CLI: a `BeforeAgent` command hook in `~/.gemini/settings.json`, instructions in
//! `~/.gemini/GEMINI.md`.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::review::{Format as ReviewFormat, Review};
use super::{CommandEntry, FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Gemini,
    name: "gemini",
    display: "Gemini CLI",
    session_fields: &["session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::HookSpecific { event_name: "BeforeAgent", tags: false },
    config_dir: ".gemini",
    // The variable names the folder that holds `.gemini` (the home folder by default).
    config_var: Some(FolderVar { name: "GEMINI_CLI_HOME", inside: ".gemini" }),
    registration: Registration::Command {
        file: "settings.json",
        event: "BeforeAgent",
        // Gemini CLI reads its settings with `//` and `/* */` comments.
        comments: true,
        entry: CommandEntry {
            grouped: true,
            name: Some("tinylingo"),
            typed: true,
            // Gemini CLI's hook timeout is in milliseconds.
            timeout: Some(10_000),
            version: None,
        },
    },
    rules: Rules::File("GEMINI.md"),
    install_notes: &[
        "Gemini CLI runs no hook in a folder you have not trusted: trust your project folders \
         when it asks (headless: --skip-trust, or GEMINI_CLI_TRUST_WORKSPACE=true).",
    ],
    // Gemini CLI runs the command through a shell and treats a failure that prints on stderr
    // (bash's "No such file or directory", exit 127, when the binary was deleted without
    // uninstall) as "deny": the prompt would be dropped. Silenced and turned into exit 0, a
    // missing binary only means no terms.
    after_event: Some("AfterAgent"),
    allow_rule: None,
    command_guard: " 2>/dev/null || true",
    trust_note: None,
    // Gemini CLI reads `commands/**/*.toml` (`description`, `prompt`), also headless.
    review: Some(Review {
        file: "commands/tinylingo-review.toml",
        format: ReviewFormat::Toml,
        invocation: "/tinylingo-review",
    }),
    mcp: Some(McpSpec {
        file: McpFile::InFolder("settings.json"),
        format: McpFormat::Json {
            key: "mcpServers",
            comments: true,
            entry: JsonEntry::CommandArgs { typed: false },
        },
        allow: McpAllow::Trust,
    }),
};
