//! Gemini CLI: a `BeforeAgent` command hook in `~/.gemini/settings.json`, instructions in
//! `~/.gemini/GEMINI.md`.
use super::{CommandEntry, FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Gemini,
    name: "gemini",
    display: "Gemini CLI",
    session_fields: &["session_id"],
    foreign_fields: &[],
    output: OutputShape::HookSpecific { event_name: "BeforeAgent" },
    config_dir: ".gemini",
    // The variable names the folder that holds `.gemini` (the home folder by default).
    config_var: Some(FolderVar { name: "GEMINI_CLI_HOME", inside: ".gemini" }),
    registration: Registration::Command {
        file: "settings.json",
        event: "BeforeAgent",
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
    install_notes: &[],
};
