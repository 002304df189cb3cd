//! The review command: a custom command (prompt, skill) install adds to each assistant that has
//! them, which asks the model to list the inbox's pending proposals and accept, edit or reject
//! each one on the user's word. One text ([`TEXT`]) for every assistant; what differs is where
//! the file goes and how it wraps the text ([`Review`], in each platform's [`Spec`](super::Spec)).
//!
//! The file is wholly ours: install writes it only where there is none (or ours from an earlier
//! install), and uninstall deletes it only while its bytes are what install wrote.

/// The command's name, the same everywhere: `/tinylingo-review` (Codex CLI: `$tinylingo-review`).
pub const NAME: &str = "tinylingo-review";

/// What the assistants list next to the command.
const DESCRIPTION: &str =
    "Review the glossary terms tinylingo proposed, and accept, edit or reject each on your word";

/// The instructions the model gets. Written without `$`, `@`, `!` or braces, which some
/// assistants expand in a command (`$ARGUMENTS`, `$1`, `{{args}}`, `!{…}`, `` !`…` ``, `@file`).
pub const TEXT: &str = include_str!("review.md");

/// Where an assistant reads its custom commands, and in which format.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Review {
    /// The file, relative to the assistant's configuration folder.
    pub file: &'static str,
    pub format: Format,
    /// How the user starts it: `/tinylingo-review`, or Codex CLI's `$tinylingo-review` (a
    /// skill runs when a prompt names it with `$`).
    pub invocation: &'static str,
}

/// How the file wraps [`TEXT`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Format {
    /// Markdown with a `description` in YAML front matter; the body is the prompt (Claude Code's
    /// commands, OpenCode's and Kilo's, Qwen Code's, Pi's prompt templates).
    Markdown,
    /// A skill's `SKILL.md`: front matter with `name` and `description` (Codex CLI, Copilot
    /// CLI).
    Skill,
    /// TOML with `description` and `prompt` (Gemini CLI).
    Toml,
}

impl Review {
    /// The file's bytes.
    pub fn render(&self) -> String {
        match self.format {
            Format::Markdown => format!("---\ndescription: {DESCRIPTION}\n---\n{TEXT}"),
            Format::Skill => {
                format!("---\nname: {NAME}\ndescription: {DESCRIPTION}\n---\n{TEXT}")
            }
            // A literal string: no escapes to get wrong, and the text holds no `'''`.
            Format::Toml => format!("description = \"{DESCRIPTION}\"\nprompt = '''\n{TEXT}'''\n"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_has_nothing_an_assistant_would_expand() {
        for bad in ["$", "@", "!", "{", "}", "'''", "\\"] {
            assert!(!TEXT.contains(bad), "{bad:?} in the review text");
        }
        assert!(TEXT.ends_with('\n'));
        let toml = Review { file: "x.toml", format: Format::Toml, invocation: "/x" }.render();
        let doc: toml_edit::DocumentMut = toml.parse().unwrap();
        assert_eq!(doc["prompt"].as_str().unwrap().trim_end(), TEXT.trim_end());
        assert!(!DESCRIPTION.contains(['"', '\\', ':', '#']));
    }
}
