//! Claude Code: a `UserPromptSubmit` command hook in `~/.claude/settings.json`, instructions in
//! `~/.claude/CLAUDE.md`.
use super::mcp_config::{JsonEntry, McpAllow, McpFile, McpFormat, McpSpec};
use super::review::{Format as ReviewFormat, Review};
use super::{CommandEntry, FolderVar, OutputShape, Platform, Registration, Rules, Spec};

/// A `{"hooks": [{"type": "command", "command": …, "timeout": 10}]}` group; the timeout is in
/// seconds. Codex CLI reads the same format.
pub(super) const ENTRY: CommandEntry =
    CommandEntry { grouped: true, name: None, typed: true, timeout: Some(10), version: None };

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Claude,
    name: "claude",
    display: "Claude Code",
    session_fields: &["session_id"],
    // Cursor runs the hooks in ~/.claude/settings.json too ("third-party hooks"), with its own
    // event: `hook_event_name` "beforeSubmitPrompt", `conversation_id`, `cursor_version`. Claude
    // Code sends none of these. Cursor's prompts are answered by the Cursor registration, so
    // this one stays silent for them and a prompt never gets the block twice.
    foreign_fields: &[
        ("hook_event_name", Some("beforeSubmitPrompt")),
        ("cursor_version", None),
        ("conversation_id", None),
    ],
    // Claude Code also submits turns nobody typed: `system` (its own notices) and
    // `loop_wakeup` (a /loop prompt coming round again, whose terms were injected when the
    // user typed it and are still in the conversation). Repeating the block there would only
    // spend the user's context.
    unattended: &[("source", "system"), ("source", "loop_wakeup")],
    output: OutputShape::HookSpecific { event_name: "UserPromptSubmit", tags: true },
    config_dir: ".claude",
    config_var: Some(FolderVar { name: "CLAUDE_CONFIG_DIR", inside: "" }),
    registration: Registration::Command {
        file: "settings.json",
        event: "UserPromptSubmit",
        comments: false,
        entry: ENTRY,
    },
    rules: Rules::File("CLAUDE.md"),
    install_notes: &[],
    after_event: Some("Stop"),
    allow_rule: Some("Bash(tinylingo record:*)"),
    command_guard: "",
    trust_note: None,
    // Claude Code reads `commands/*.md` (front matter `description`); `claude -p /tinylingo-review`
    // runs it headless.
    review: Some(Review {
        file: "commands/tinylingo-review.md",
        format: ReviewFormat::Markdown,
        invocation: "/tinylingo-review",
    }),
    mcp: Some(McpSpec {
        file: McpFile::ClaudeGlobal,
        format: McpFormat::Json {
            key: "mcpServers",
            comments: false,
            entry: JsonEntry::CommandArgs { typed: true },
        },
        allow: McpAllow::Rule("mcp__tinylingo__record"),
    }),
};
