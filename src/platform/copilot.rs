//! GitHub Copilot CLI: a `userPromptSubmitted` command hook in a hook file of our own,
//! `~/.copilot/hooks/tinylingo.json`; instructions in `~/.copilot/copilot-instructions.md`.
//!
//! Checked against `@github/copilot` 1.0.102 (`tests/e2e/copilot.py`, the real files it wrote
//! in `tests/fixtures/copilot/`): Copilot loads every `*.json` in its user hooks folder, so a
//! file of our own keeps every file of the user's untouched. The event is camelCase
//! (`sessionId`, `cwd`, `prompt`); the answer is a top-level `additionalContext`, which Copilot
//! appends to the user message inside a `<system_reminder>` of its own. A hook that fails (the
//! binary deleted without uninstall) is skipped and the prompt goes through, so no guard.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::review::{Format as ReviewFormat, Review};
use super::{CommandEntry, FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Copilot,
    name: "copilot",
    display: "GitHub Copilot CLI",
    // Copilot's own events say `sessionId`; registered under the PascalCase names it also
    // accepts (Claude Code's), the same events come with snake_case keys.
    session_fields: &["sessionId", "session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::TopLevel,
    config_dir: ".copilot",
    config_var: Some(FolderVar { name: "COPILOT_HOME", inside: "" }),
    registration: Registration::Command {
        file: "hooks/tinylingo.json",
        event: "userPromptSubmitted",
        comments: false,
        // `{"type": "command", "command": …, "timeout": 10}` in a `{"version": 1, …}` file.
        // Copilot documents `bash` and `timeoutSec`; it reads `command` (the cross-platform
        // key its cloud agent documents) and `timeout` (an alias, says its changelog) the same way,
        // which keeps our entry in the shape every other assistant's has.
        entry: CommandEntry {
            grouped: false,
            name: None,
            typed: true,
            timeout: Some(10),
            version: Some(1),
        },
    },
    rules: Rules::File("copilot-instructions.md"),
    install_notes: &[],
    after_event: Some("agentStop"),
    allow_rule: None,
    command_guard: "",
    trust_note: None,
    // Copilot CLI has no command files: skills in `skills/<name>/SKILL.md` (front matter `name`,
    // `description`), which the user starts with `/name`.
    review: Some(Review {
        file: "skills/tinylingo-review/SKILL.md",
        format: ReviewFormat::Skill,
        invocation: "/tinylingo-review",
    }),
    // Copilot keeps tool approvals on the command line only (`--allow-tool 'tinylingo(record)'`
    // for a headless run): there is no setting for --allow-record to write.
    mcp: Some(McpSpec {
        file: McpFile::InFolder("mcp-config.json"),
        format: McpFormat::Json { key: "mcpServers", comments: false, entry: JsonEntry::Copilot },
        allow: McpAllow::Nothing,
    }),
};
