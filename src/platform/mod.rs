//! The assistants: what event each sends the hook, and what answer it expects.
//!
//! One mechanism serves every platform; what differs between them is data ([`Spec`]): the
//! name of the event field holding the prompt and the session, and the shape of the output.
//! Each platform's module holds only its own [`Spec`].

pub mod block;
mod claude;
mod codex;
mod cursor;
mod gemini;
mod opencode;

use serde_json::Value;

/// A supported assistant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    Claude,
    Cursor,
    OpenCode,
    Codex,
    Gemini,
}

/// How an assistant's answer is shaped on stdout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OutputShape {
    /// `{"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}`; nothing on no hit.
    HookSpecific { event_name: &'static str },
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
    pub output: OutputShape,
}

impl Platform {
    pub const ALL: [Platform; 5] =
        [Platform::Claude, Platform::Cursor, Platform::OpenCode, Platform::Codex, Platform::Gemini];

    pub fn spec(self) -> &'static Spec {
        match self {
            Platform::Claude => &claude::SPEC,
            Platform::Cursor => &cursor::SPEC,
            Platform::OpenCode => &opencode::SPEC,
            Platform::Codex => &codex::SPEC,
            Platform::Gemini => &gemini::SPEC,
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
}

/// Why an event was not understood (the hook then stays silent).
#[derive(Debug, Clone, PartialEq)]
pub enum EventProblem {
    NotJson(String),
    NoPrompt,
}

impl std::fmt::Display for EventProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventProblem::NotJson(e) => write!(f, "event is not JSON: {e}"),
            EventProblem::NoPrompt => f.write_str("event has no string \"prompt\""),
        }
    }
}

impl Spec {
    /// Reads the event a platform wrote on the hook's stdin.
    pub fn parse_event(&self, input: &[u8]) -> Result<Event, EventProblem> {
        let value: Value =
            serde_json::from_slice(input).map_err(|e| EventProblem::NotJson(e.to_string()))?;
        let prompt = match value.get("prompt") {
            Some(Value::String(p)) => p.clone(),
            _ => return Err(EventProblem::NoPrompt),
        };
        let session = self
            .session_fields
            .iter()
            .find_map(|f| value.get(*f).and_then(Value::as_str))
            .map(str::to_string);
        Ok(Event { prompt, session })
    }

    /// What to print for `context` (the rendered block, or `None` when nothing hit).
    pub fn render_output(&self, context: Option<&str>) -> Option<String> {
        match (self.output, context) {
            (OutputShape::HookSpecific { event_name }, Some(ctx)) => Some(
                serde_json::json!({
                    "hookSpecificOutput": { "hookEventName": event_name, "additionalContext": ctx }
                })
                .to_string(),
            ),
            (OutputShape::HookSpecific { .. }, None) => None,
            (OutputShape::Cursor, Some(ctx)) => {
                Some(serde_json::json!({ "continue": true, "additional_context": ctx }).to_string())
            }
            (OutputShape::Cursor, None) => Some(r#"{"continue":true}"#.to_string()),
            (OutputShape::Text, ctx) => ctx.map(str::to_string),
        }
    }
}
