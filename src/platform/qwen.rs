//! Qwen Code: a `UserPromptSubmit` command hook in `~/.qwen/settings.json` (Claude Code's
//! grouped shape, the timeout in milliseconds); instructions in `~/.qwen/QWEN.md`.
//!
//! Checked against `@qwen-code/qwen-code` 0.15.10 (`tests/e2e/qwen.py`, real files in
//! `tests/fixtures/qwen/`). Qwen Code is a Gemini CLI fork and behaves like it here: settings
//! with comments, `hookSpecificOutput.additionalContext` with every `<` and `>` escaped (so the
//! block goes without our tags), the command run through bash (so the same guard as Gemini's
//! keeps a deleted binary from reaching the prompt as a warning or a deny), MCP servers in the
//! same settings file with a `trust` flag.
use super::review::{Format as ReviewFormat, Review};
use super::{gemini, CommandEntry, FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Qwen,
    name: "qwen",
    display: "Qwen Code",
    session_fields: &["session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::HookSpecific { event_name: "UserPromptSubmit", tags: false },
    config_dir: ".qwen",
    config_var: Some(FolderVar { name: "QWEN_HOME", inside: "" }),
    registration: Registration::Command {
        file: "settings.json",
        event: "UserPromptSubmit",
        // Qwen Code strips `//` and `/* */` comments from its settings.
        comments: true,
        entry: CommandEntry {
            grouped: true,
            name: None,
            typed: true,
            // Milliseconds, as Gemini CLI's.
            timeout: Some(10_000),
            version: None,
        },
    },
    rules: Rules::File("QWEN.md"),
    install_notes: &[],
    after_event: Some("Stop"),
    allow_rule: None,
    // Qwen Code runs the command through bash; a missing binary's exit 127 and message would
    // come back as a warning (or, for another exit code, a deny of the prompt).
    command_guard: " 2>/dev/null || true",
    trust_note: None,
    // Qwen Code reads `commands/**/*.toml` and `commands/**/*.md` (front matter `description`).
    review: Some(Review {
        file: "commands/tinylingo-review.md",
        format: ReviewFormat::Markdown,
        invocation: "/tinylingo-review",
    }),
    // Servers in the same settings file, with a `trust` flag: Gemini CLI's entry.
    mcp: gemini::SPEC.mcp,
};
