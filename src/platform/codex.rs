//! Codex CLI: a `UserPromptSubmit` command hook in `~/.codex/hooks.json`, Claude Code's shape;
//! instructions in `~/.codex/AGENTS.md`.
use super::mcp_config::{McpAllow, McpFile, McpFormat, McpSpec};
use super::review::{Format as ReviewFormat, Review};
use super::{FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Codex,
    name: "codex",
    display: "Codex CLI",
    session_fields: &["session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::HookSpecific { event_name: "UserPromptSubmit", tags: true },
    config_dir: ".codex",
    config_var: Some(FolderVar { name: "CODEX_HOME", inside: "" }),
    registration: Registration::Command {
        file: "hooks.json",
        event: "UserPromptSubmit",
        comments: false,
        entry: super::claude::ENTRY,
    },
    rules: Rules::File("AGENTS.md"),
    // Whether Codex trusts the hook is worked out at install (see `codex_trust`).
    install_notes: &[
        "the model's shell runs in Codex's sandbox, which cannot write ~/.config/tinylingo: \
         for the model to record terms, add that folder to writable_roots under \
         [sandbox_workspace_write] in config.toml",
    ],
    after_event: Some("Stop"),
    allow_rule: None,
    command_guard: "",
    trust_note: Some(|dir, file, settings, event| {
        super::codex_trust::note(super::codex_trust::trust(dir, file, settings, event))
    }),
    // Codex CLI has no custom prompts any more (0.169): skills in `skills/<name>/SKILL.md`, run
    // when a prompt names them with `$`.
    review: Some(Review {
        file: "skills/tinylingo-review/SKILL.md",
        format: ReviewFormat::Skill,
        invocation: "$tinylingo-review",
    }),
    mcp: Some(McpSpec {
        file: McpFile::InFolder("config.toml"),
        format: McpFormat::Toml,
        allow: McpAllow::CodexApproval,
    }),
};
