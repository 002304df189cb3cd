//! Codex CLI: a `UserPromptSubmit` command hook in `~/.codex/hooks.json`, Claude Code's shape;
//! instructions in `~/.codex/AGENTS.md`.
use super::{FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Codex,
    name: "codex",
    display: "Codex CLI",
    session_fields: &["session_id"],
    foreign_fields: &[],
    output: OutputShape::HookSpecific { event_name: "UserPromptSubmit" },
    config_dir: ".codex",
    config_var: Some(FolderVar { name: "CODEX_HOME", inside: "" }),
    registration: Registration::Command {
        file: "hooks.json",
        event: "UserPromptSubmit",
        entry: super::claude::ENTRY,
    },
    rules: Rules::File("AGENTS.md"),
    install_notes: &[
        "Codex runs a new or changed hook only after you trust it: open /hooks in Codex and \
         trust the tinylingo hook.",
        "Codex versions that still gate hooks need `codex_hooks = true` under [features] in \
         config.toml, in the same folder as hooks.json.",
    ],
};
