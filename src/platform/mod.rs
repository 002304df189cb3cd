//! The assistants: what event each sends the hook, and what answer it expects.
//!
//! One mechanism serves every platform; what differs between them is data ([`Spec`]): the
//! event fields holding the session, events that belong to another assistant, the shape of the
//! output, and how the hook is registered ([`Registration`]) and where the assistant reads its
//! global instructions ([`Rules`]). Each platform's module holds only its own [`Spec`];
//! [`install`] applies the registration data, [`settings_file`], [`mcp_config`] and
//! [`instructions`] are the edits it makes.

pub mod block;
mod claude;
mod codex;
pub mod codex_trust;
mod copilot;
mod cursor;
mod gemini;
pub mod git_config;
pub mod install;
pub mod instructions;
mod kilo;
pub mod mcp_config;
mod opencode;
mod pi;
mod qwen;
pub mod review;
pub mod settings_file;

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A supported assistant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    Claude,
    Cursor,
    OpenCode,
    Codex,
    Gemini,
    Copilot,
    Qwen,
    Pi,
    Kilo,
}

/// How an assistant's answer is shaped on stdout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OutputShape {
    /// `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`; nothing on no hit.
    /// `tags: false` sends the block without its `<system-reminder>` lines (Gemini CLI wraps
    /// the context in its own `<hook_context>` and escapes every `<` and `>` in it, so the model
    /// would read `&lt;system-reminder&gt;`).
    HookSpecific { event_name: &'static str, tags: bool },
    /// `{"additionalContext":…}` at the top level; nothing on no hit. GitHub Copilot CLI reads
    /// only this (Claude Code's `hookSpecificOutput` is ignored) and wraps the text in a
    /// `<system_reminder>` of its own, so the block goes without its tags.
    TopLevel,
    /// Cursor: always a JSON object, `{"continue":true}` plus `additional_context` on a hit.
    Cursor,
    /// The block as plain text (the OpenCode plugin turns it into a message part).
    Text,
}

/// What differs between platforms on the hook's path.
#[derive(Debug)]
pub struct Spec {
    pub platform: Platform,
    /// The name used on the command line (`tinylingo hook <name>`).
    pub name: &'static str,
    /// A human name for messages.
    pub display: &'static str,
    /// Event fields that may carry the session's id, first found wins.
    pub session_fields: &'static [&'static str],
    /// Event fields that show the event was sent by another assistant running this platform's
    /// registration (`None`: the field's presence is enough; `Some(v)`: it must hold `v`). The
    /// hook then stays silent, so that a prompt is not answered twice.
    pub foreign_fields: &'static [(&'static str, Option<&'static str>)],
    /// Event field values that mark a prompt the user did not type (Claude Code's `source`
    /// `system` or `loop_wakeup`): the hook adds nothing to those.
    pub unattended: &'static [(&'static str, &'static str)],
    pub output: OutputShape,
    /// The assistant's configuration folder, relative to the home folder. `install` with no
    /// argument treats the assistant as installed when this folder exists.
    pub config_dir: &'static str,
    /// The environment variable with which the assistant moves that folder, if it has one.
    pub config_var: Option<FolderVar>,
    pub registration: Registration,
    pub rules: Rules,
    /// Printed after a successful install: what the user still has to do.
    pub install_notes: &'static [&'static str],
    /// Appended to the registered command, for an assistant that would block the prompt when
    /// the command itself fails (a binary deleted without uninstall).
    pub command_guard: &'static str,
    /// Whether the assistant will run the registered hook, as a note for install's report
    /// (Codex asks the user to trust each hook): given the assistant's folder, the settings
    /// file, its content after install and the event.
    /// The after-response event the journal's hook is registered under (`Stop`,
    /// `AfterAgent`…), in the same settings file; `None` when the assistant has no such event
    /// (OpenCode's plugin watches `session.idle` itself).
    pub after_event: Option<&'static str>,
    /// A permission rule that lets the model run `tinylingo record` without asking, which
    /// `install --allow-record` adds to the settings file (Claude Code asks by default).
    pub allow_rule: Option<&'static str>,
    pub trust_note: Option<TrustNote>,
    /// Where install writes the review command (`/tinylingo-review`); `None` for an assistant
    /// without custom commands we could check.
    pub review: Option<review::Review>,
    /// Where `install --mcp` registers the MCP server (`tinylingo mcp`).
    pub mcp: Option<mcp_config::McpSpec>,
}

/// See [`Spec::trust_note`].
pub type TrustNote = fn(&Path, &Path, &serde_json::Map<String, Value>, &str) -> String;

/// An environment variable that moves an assistant's configuration folder, as the assistant
/// itself reads it (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, …).
#[derive(Debug, Clone, Copy)]
pub struct FolderVar {
    pub name: &'static str,
    /// Where the folder is inside the variable's path: "" when the variable names the folder
    /// itself, "opencode" for `XDG_CONFIG_HOME`.
    pub inside: &'static str,
}

/// How an assistant learns to run the hook.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Registration {
    /// A command hook in a JSON file under `config_dir`.
    Command {
        file: &'static str,
        /// The key under `hooks` whose array holds the entry.
        event: &'static str,
        /// Whether the assistant reads the file with comments (and trailing commas).
        comments: bool,
        entry: CommandEntry,
    },
    /// A plugin file (JavaScript or TypeScript), `dir/file` under `config_dir`, that runs the
    /// hook itself.
    Plugin {
        dir: &'static str,
        file: &'static str,
        /// Folders the assistant also loads plugins from, where an older install may have put
        /// ours; uninstall looks there too.
        other_dirs: &'static [&'static str],
        /// The file's text, with placeholders for the binary's path, the journal's state and
        /// the assistant's name and display name, which install fills in.
        source: &'static str,
        /// What the report calls it ("chat.message plugin").
        what: &'static str,
    },
}

/// The fields of one command-hook entry, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommandEntry {
    /// Wrap the handler in a `{"hooks": [handler]}` group (Claude Code's shape) instead of
    /// listing it in the event array directly (Cursor's).
    pub grouped: bool,
    /// `"name": …` (Gemini CLI shows it in its hook list).
    pub name: Option<&'static str>,
    /// `"type": "command"`.
    pub typed: bool,
    /// `"timeout": …`, in the assistant's own unit (seconds for Claude Code and Codex,
    /// milliseconds for Gemini CLI).
    pub timeout: Option<u64>,
    /// `"version": …` at the top of a file we create (Cursor's hooks.json needs it).
    pub version: Option<u64>,
}

/// Where an assistant reads the user's global instructions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rules {
    /// A Markdown file under `config_dir` that takes the instruction block.
    File(&'static str),
    /// No file: why, shown to the user instead.
    Elsewhere(&'static str),
}

impl Platform {
    /// Every assistant, in the order install and doctor report them.
    pub const ALL: [Platform; 9] = [
        Platform::Claude,
        Platform::Cursor,
        Platform::OpenCode,
        Platform::Codex,
        Platform::Gemini,
        Platform::Copilot,
        Platform::Qwen,
        Platform::Pi,
        Platform::Kilo,
    ];

    pub fn spec(self) -> &'static Spec {
        match self {
            Platform::Claude => &claude::SPEC,
            Platform::Cursor => &cursor::SPEC,
            Platform::OpenCode => &opencode::SPEC,
            Platform::Codex => &codex::SPEC,
            Platform::Gemini => &gemini::SPEC,
            Platform::Copilot => &copilot::SPEC,
            Platform::Qwen => &qwen::SPEC,
            Platform::Pi => &pi::SPEC,
            Platform::Kilo => &kilo::SPEC,
        }
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn from_name(name: &str) -> Option<Platform> {
        Platform::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The part of a hook event tinylingo uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub prompt: String,
    pub session: Option<String>,
    /// The model, when the event names it (Codex CLI's does): kept for the thread journal.
    pub model: Option<String>,
    /// The session's folder, where the project glossary is looked for (and the journal's
    /// folder line): the event's `cwd`, which every assistant but Cursor sends (our plugins and
    /// extension send it too), else the first of Cursor's `workspace_roots` that is a folder.
    pub cwd: Option<String>,
}

/// The project folder of an event without `cwd`: Cursor's names its workspace's folders in
/// `workspace_roots` instead; the first of them that is a folder here. Anything else in the
/// field (not an array, not strings, folders that are gone) is no folder: the user's own
/// terms are still served.
fn workspace_root(event: &Value) -> Option<String> {
    let roots = event.get("workspace_roots")?.as_array()?;
    roots.iter().filter_map(Value::as_str).find(|r| is_folder(r)).map(str::to_string)
}

/// An absolute path to a folder (a relative one would be read against wherever the hook was
/// started).
fn is_folder(path: &str) -> bool {
    let path = Path::new(path);
    path.is_absolute() && path.is_dir()
}

/// Why an event was not understood or not answered (the hook then stays silent).
#[derive(Debug, Clone, PartialEq)]
pub enum EventProblem {
    NotJson(String),
    NoPrompt,
    /// Another assistant sent it (see [`Spec::foreign_fields`]); that assistant's own
    /// registration answers it.
    Foreign(&'static str),
    /// The user did not type this prompt (see [`Spec::unattended`]).
    Unattended(&'static str, &'static str),
}

impl std::fmt::Display for EventProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventProblem::NotJson(e) => write!(f, "event is not JSON: {e}"),
            EventProblem::NoPrompt => f.write_str("event has no string \"prompt\""),
            EventProblem::Foreign(field) => {
                write!(f, "event carries \"{field}\": another assistant's, left to its own hook")
            }
            EventProblem::Unattended(field, value) => {
                write!(f, "{field} is \"{value}\": a prompt the user did not type, no terms")
            }
        }
    }
}

impl FolderVar {
    /// Where the variable puts the folder, when it is set to an absolute path (a relative one
    /// would depend on where the assistant is started, and the XDG rules ignore one).
    pub fn folder(&self) -> Option<PathBuf> {
        let value = std::env::var_os(self.name)?;
        let path = Path::new(&value);
        if !path.is_absolute() {
            return None;
        }
        Some(if self.inside.is_empty() { path.to_path_buf() } else { path.join(self.inside) })
    }
}

/// A folder of an assistant's: where `var` moves it, else `default` under `home`. The one
/// rule `install`, `doctor` and `suggest` all go through, so that none of them looks in a
/// place the assistant does not use.
pub fn client_folder(var: Option<FolderVar>, default: &str, home: &Path) -> PathBuf {
    var.and_then(|v| v.folder()).unwrap_or_else(|| home.join(default))
}

impl Platform {
    /// Whether its after-response event names a session file `suggest` reads, which the
    /// learning capture then scans (`learn.capture`): Claude Code, Codex CLI, Gemini CLI.
    pub fn captures(self) -> bool {
        matches!(self, Platform::Claude | Platform::Codex | Platform::Gemini)
    }

    /// Where the assistant keeps its session transcripts (what `suggest` reads), for those
    /// whose store `suggest` knows: Claude Code's `projects/`, Codex's `sessions/` and Gemini
    /// CLI's `tmp/` in their configuration folders (so `CLAUDE_CONFIG_DIR`, `CODEX_HOME` and
    /// `GEMINI_CLI_HOME` move them too), and OpenCode's data folder (`$XDG_DATA_HOME/opencode`).
    pub fn sessions_folder(self, home: &Path) -> Option<PathBuf> {
        let config = || self.spec().config_folder(home);
        match self {
            Platform::Claude => Some(config().join("projects")),
            Platform::Codex => Some(config().join("sessions")),
            Platform::Gemini => Some(config().join("tmp")),
            Platform::OpenCode => {
                Some(client_folder(Some(opencode::DATA_VAR), opencode::DATA_DIR, home))
            }
            _ => None,
        }
    }
}

impl Spec {
    /// The assistant's configuration folder: where its variable puts it ([`FolderVar::folder`]),
    /// else [`Spec::config_dir`] under `home` ([`client_folder`]).
    pub fn config_folder(&self, home: &Path) -> PathBuf {
        client_folder(self.config_var, self.config_dir, home)
    }

    pub(crate) fn moved_folder(&self) -> Option<PathBuf> {
        self.config_var?.folder()
    }

    /// Reads the event a platform wrote on the hook's stdin.
    pub fn parse_event(&self, input: &[u8]) -> Result<Event, EventProblem> {
        let value: Value =
            serde_json::from_slice(input).map_err(|e| EventProblem::NotJson(e.to_string()))?;
        if let Some(field) = self.foreign_field(&value) {
            return Err(EventProblem::Foreign(field));
        }
        let unattended = |&(field, wanted): &(&str, &str)| {
            value.get(field).and_then(Value::as_str) == Some(wanted)
        };
        if let Some(&(field, v)) = self.unattended.iter().find(|f| unattended(f)) {
            return Err(EventProblem::Unattended(field, v));
        }
        let prompt = match value.get("prompt") {
            Some(Value::String(p)) => p.clone(),
            _ => return Err(EventProblem::NoPrompt),
        };
        let text = |field: &str| value.get(field).and_then(Value::as_str).map(str::to_string);
        let session = self.session_fields.iter().find_map(|f| text(f));
        let cwd = text("cwd").or_else(|| workspace_root(&value));
        Ok(Event { prompt, session, model: text("model"), cwd })
    }

    /// The first of [`Spec::foreign_fields`] the event matches.
    fn foreign_field(&self, event: &Value) -> Option<&'static str> {
        self.foreign_fields.iter().find_map(|&(field, wanted)| {
            let found = event.get(field)?;
            match wanted {
                None => Some(field),
                Some(v) => (found.as_str() == Some(v)).then_some(field),
            }
        })
    }

    /// The command a JSON registration runs: the binary in the store's scripts folder, called
    /// directly (no shell script or interpreter in between).
    pub fn hook_command(&self, binary: &std::path::Path) -> String {
        let binary = crate::error::shell_word(&binary.to_string_lossy());
        format!("{binary} hook {}{}", self.name, self.command_guard)
    }

    /// The command the after-response registration runs (`… hook <name> after`).
    pub fn after_command(&self, binary: &std::path::Path) -> String {
        let binary = crate::error::shell_word(&binary.to_string_lossy());
        format!("{binary} hook {} after{}", self.name, self.command_guard)
    }

    /// What to print for `context` (the rendered block, or `None` when nothing hit).
    pub fn render_output(&self, context: Option<&str>) -> Option<String> {
        self.render_with_notice(context, None)
    }

    /// Whether the assistant shows the user a message from the prompt hook, apart from what
    /// goes to the model: `systemMessage` next to the answer, for the assistants that read it
    /// there. Claude Code and Gemini CLI show it to the user (their hook docs); Codex CLI turns
    /// it into a warning line of the hook's run in its interface (`codex-rs/hooks`,
    /// `user_prompt_submit.rs`), not into model input. The others have no such channel, so a
    /// notice is never shown there: Cursor's `beforeSubmitPrompt` shows `user_message` only
    /// when the prompt is blocked; Copilot CLI reads `additionalContext`, `modifiedPrompt` and
    /// `suppressOutput` only; OpenCode, Kilo and Pi take stdout as model text through our
    /// plugin; Qwen Code was not checked to keep `systemMessage` from the model, so it gets
    /// none.
    pub fn shows_notice(&self) -> bool {
        matches!(self.platform, Platform::Claude | Platform::Gemini | Platform::Codex)
    }

    /// [`Spec::render_output`], with a `notice` for the user (never the model) where the
    /// assistant has a place for one ([`Spec::shows_notice`]); elsewhere it is left out.
    pub fn render_with_notice(
        &self,
        context: Option<&str>,
        notice: Option<&str>,
    ) -> Option<String> {
        let notice = notice.filter(|_| self.shows_notice());
        if let (OutputShape::HookSpecific { event_name, tags }, Some(notice)) =
            (self.output, notice)
        {
            let mut out = serde_json::json!({ "systemMessage": notice });
            if let Some(ctx) = context {
                let ctx = if tags { ctx } else { block::untagged(ctx) };
                out["hookSpecificOutput"] =
                    serde_json::json!({ "hookEventName": event_name, "additionalContext": ctx });
            }
            return Some(out.to_string());
        }
        match (self.output, context) {
            (OutputShape::HookSpecific { event_name, tags }, Some(ctx)) => {
                let ctx = if tags { ctx } else { block::untagged(ctx) };
                Some(
                    serde_json::json!({
                        "hookSpecificOutput": { "hookEventName": event_name, "additionalContext": ctx }
                    })
                    .to_string(),
                )
            }
            (OutputShape::HookSpecific { .. }, None) => None,
            (OutputShape::TopLevel, Some(ctx)) => {
                Some(serde_json::json!({ "additionalContext": block::untagged(ctx) }).to_string())
            }
            (OutputShape::TopLevel, None) => None,
            (OutputShape::Cursor, Some(ctx)) => {
                Some(serde_json::json!({ "continue": true, "additional_context": ctx }).to_string())
            }
            (OutputShape::Cursor, None) => Some(r#"{"continue":true}"#.to_string()),
            (OutputShape::Text, ctx) => ctx.map(str::to_string),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_stays_silent_for_cursors_events() {
        let claude = Platform::Claude.spec();
        let own = br#"{"hook_event_name":"UserPromptSubmit","prompt":"p","session_id":"s"}"#;
        assert_eq!(claude.parse_event(own).unwrap().session.as_deref(), Some("s"));
        for cursor in [
            r#"{"hook_event_name":"beforeSubmitPrompt","prompt":"p"}"#,
            r#"{"hook_event_name":"UserPromptSubmit","prompt":"p","cursor_version":"2.0.77"}"#,
            r#"{"prompt":"p","conversation_id":"c"}"#,
        ] {
            let problem = claude.parse_event(cursor.as_bytes()).unwrap_err();
            assert!(matches!(problem, EventProblem::Foreign(_)), "{cursor}");
        }
        // Turns the user did not type get nothing; typed and SDK prompts do.
        for source in ["system", "loop_wakeup"] {
            let event = format!(r#"{{"prompt":"p","source":"{source}"}}"#);
            let problem = claude.parse_event(event.as_bytes()).unwrap_err();
            assert!(matches!(problem, EventProblem::Unattended(..)), "{source}");
        }
        for source in ["user", "sdk"] {
            let event = format!(r#"{{"prompt":"p","source":"{source}"}}"#);
            assert!(claude.parse_event(event.as_bytes()).is_ok(), "{source}");
        }
        // Cursor's own registration answers them.
        let cursor = br#"{"hook_event_name":"beforeSubmitPrompt","prompt":"p","conversation_id":"c","cursor_version":"2.0.77"}"#;
        assert_eq!(
            Platform::Cursor.spec().parse_event(cursor).unwrap().session.as_deref(),
            Some("c")
        );
    }

    #[test]
    fn cursors_workspace_root_is_the_events_folder() {
        let cursor = Platform::Cursor.spec();
        let dir = tempfile::tempdir().unwrap();
        let here = dir.path().to_str().unwrap();
        let gone = dir.path().join("gone");
        let gone = gone.to_str().unwrap();
        let folder = |roots: Value| {
            let event = serde_json::json!({"prompt": "p", "workspace_roots": roots});
            cursor.parse_event(event.to_string().as_bytes()).unwrap().cwd
        };
        assert_eq!(folder(serde_json::json!([here])).as_deref(), Some(here));
        // The first that is a folder here; anything else in the field is no folder.
        assert_eq!(folder(serde_json::json!([gone, 3, "rel", here])).as_deref(), Some(here));
        for bad in [serde_json::json!([]), serde_json::json!(here), serde_json::json!([gone])] {
            assert_eq!(folder(bad.clone()), None, "{bad}");
        }
        // `cwd` wins when both are there.
        let event = serde_json::json!({"prompt": "p", "cwd": "/c", "workspace_roots": [here]});
        let parsed = cursor.parse_event(event.to_string().as_bytes()).unwrap();
        assert_eq!(parsed.cwd.as_deref(), Some("/c"));
    }
}
