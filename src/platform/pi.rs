//! Pi: a TypeScript extension in `~/.pi/agent/extensions/` runs `tinylingo hook pi` and adds
//! the block as a message; instructions in `~/.pi/agent/AGENTS.md`. Pi has no MCP.
use super::review::{Format as ReviewFormat, Review};
use super::{FolderVar, OutputShape, Platform, Registration, Rules, Spec};

pub(super) const SPEC: Spec = Spec {
    platform: Platform::Pi,
    name: "pi",
    display: "Pi",
    session_fields: &["sessionID", "session_id"],
    foreign_fields: &[],
    unattended: &[],
    output: OutputShape::Text,
    config_dir: ".pi/agent",
    // Pi reads `PI_CODING_AGENT_DIR` as the folder itself (a leading `~` expanded).
    config_var: Some(FolderVar { name: "PI_CODING_AGENT_DIR", inside: "" }),
    // Pi loads `extensions/*.ts` (and `*/index.ts`) from that folder, TypeScript without a
    // build step.
    registration: Registration::Plugin {
        dir: "extensions",
        file: "tinylingo.ts",
        other_dirs: &[],
        source: include_str!("pi_extension.ts"),
        what: "before_agent_start extension",
    },
    rules: Rules::File("AGENTS.md"),
    install_notes: &[],
    after_event: None,
    allow_rule: None,
    command_guard: "",
    trust_note: None,
    // Pi's prompt templates: `prompts/*.md` (front matter `description`), `/name` expands one.
    review: Some(Review {
        file: "prompts/tinylingo-review.md",
        format: ReviewFormat::Markdown,
        invocation: "/tinylingo-review",
    }),
    mcp: None,
};
