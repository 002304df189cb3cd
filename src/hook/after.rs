//! The after-response hook: `tinylingo hook <assistant> after`, run when the assistant has
//! answered, writes the exchange to the journal.
//!
//! Each assistant says less or more in its event (see the platform table in `DESIGN.md`):
//!
//! | assistant | answer | prompt | model |
//! |---|---|---|---|
//! | Claude Code `Stop` | `last_assistant_message`, else the transcript's last assistant entry | kept by the prompt hook, else the transcript | the transcript (`message.model`) |
//! | Codex CLI `Stop` | `last_assistant_message` (may be null) | kept by the prompt hook | `model` |
//! | Gemini CLI `AfterAgent` | `prompt_response` | `prompt` | kept by the prompt hook, if its event named one |
//! | Cursor `afterAgentResponse` | `text` | kept by the prompt hook | — |
//! | OpenCode (our plugin, on `session.idle`) | `response` | `prompt` | `model` |
//! | GitHub Copilot CLI `agentStop` | the transcript (`transcriptPath`) | kept by the prompt hook, else the transcript | the transcript |
//! | Qwen Code `Stop` | `last_assistant_message` | kept by the prompt hook | the transcript, if it names one |
//! | Kilo (OpenCode's plugin, on `session.idle`) | `response` | `prompt` | `model` |
//! | Pi (our extension, on `agent_end`) | `response` | `prompt` | `model` |
//!
//! so one reading serves them all: the first of the known fields that is there. A model no
//! source names is `unknown`.
//!
//! Whatever happens the hook prints nothing and exits 0: Claude Code's `Stop` reads exit 2 as
//! "keep going", Gemini's `AfterAgent` takes a deny as "retry", and Cursor submits a
//! `followup_message` as a new prompt. A failure goes to the debug log.

use std::io::Read;

use serde_json::Value;

use crate::error::Result;
use crate::journal::{self, pending, summary, Entry, Journal};
use crate::platform::Platform;
use crate::store::Store;

/// How long the hook waits for the assistant to write its answer to the transcript.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(300);

/// Event fields that may hold the answer, first found wins.
const ANSWER_FIELDS: &[&str] = &["last_assistant_message", "prompt_response", "text", "response"];

/// Runs the after-response hook for `platform` on this process's stdin. Never fails, prints
/// nothing.
pub fn run(platform: Platform) {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let mut input = Vec::new();
    if std::io::stdin().lock().read_to_end(&mut input).is_err() {
        return;
    }
    let _ = std::panic::catch_unwind(|| {
        let Ok(store) = Store::locate() else { return };
        if let Err(e) = record(&store, platform, &input) {
            crate::debug_log::log_failure(&store, &format!("{} after: {e}", platform.name()));
        }
    });
}

/// Writes the exchange `input` describes; `Ok(None)` when the journal is off or the event
/// holds nothing to record.
pub fn record(store: &Store, platform: Platform, input: &[u8]) -> Result<Option<usize>> {
    let journal = Journal::of(store)?;
    if !journal.enabled {
        return Ok(None);
    }
    let Ok(event) = serde_json::from_slice::<Value>(input) else { return Ok(None) };
    let text = |field: &str| {
        event.get(field).and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_string)
    };
    let spec = platform.spec();
    let session = spec.session_fields.iter().find_map(|f| text(f));
    let kept = session.as_deref().and_then(|s| pending::take(store, s));
    // GitHub Copilot CLI's `agentStop` names it in camelCase.
    let transcript = text("transcript_path")
        .or_else(|| text("transcriptPath"))
        .map(Transcript::read_settled)
        .unwrap_or_default();

    let answer = ANSWER_FIELDS.iter().find_map(|f| text(f)).or(transcript.answer);
    let prompt =
        text("prompt").or_else(|| kept.as_ref().map(|k| k.prompt.clone())).or(transcript.prompt);
    let Some(prompt) = prompt.filter(|p| !p.is_empty()) else {
        // An answer to nothing we can name (a turn the user did not type): not an exchange.
        return Ok(None);
    };
    let model = text("model")
        .or_else(|| kept.as_ref().and_then(|k| k.model.clone()))
        .or(transcript.model)
        .unwrap_or_else(|| "unknown".into());
    let cwd = text("cwd").or_else(|| kept.and_then(|k| k.cwd));
    let entry = Entry {
        time: journal::now(),
        model,
        role: journal.role.clone(),
        assistant: Some(spec.display.to_string()),
        cwd,
        prompt,
        summary: summary::summarize(answer.as_deref().unwrap_or_default()),
    };
    journal.append(&entry).map(Some)
}

/// What a Claude Code transcript (JSONL, one message a line) says of the last exchange.
#[derive(Debug, Default)]
struct Transcript {
    prompt: Option<String>,
    answer: Option<String>,
    model: Option<String>,
}

impl Transcript {
    /// Claude Code runs its `Stop` hook before it has written the answer to the transcript
    /// (measured: 5 to 50 ms later; a new session's file may not exist yet). So the hook waits
    /// for an answer in the file, a little: at most [`SETTLE`], then takes what is there.
    fn read_settled(path: String) -> Transcript {
        let started = std::time::Instant::now();
        loop {
            let found = Transcript::read(&path);
            if found.model.is_some() || started.elapsed() >= SETTLE {
                return found;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    fn read(path: &str) -> Transcript {
        let Ok(text) = std::fs::read_to_string(path) else { return Transcript::default() };
        // Gemini CLI keeps a session as one JSON object whose `messages` name their model.
        let session = serde_json::from_str::<Value>(&text).ok();
        if let Some(messages) = session.as_ref().and_then(|s| s["messages"].as_array()) {
            let model = messages.iter().rev().find_map(|m| m["model"].as_str().map(str::to_string));
            return Transcript { model, ..Transcript::default() };
        }
        let mut found = Transcript::default();
        for line in text.lines().rev() {
            let Ok(entry) = serde_json::from_str::<Value>(line) else { continue };
            let message = &entry["message"];
            match entry["type"].as_str() {
                // Claude Code's `assistant` entries; Gemini CLI's JSONL sessions say `gemini`.
                Some("assistant" | "gemini") if found.model.is_none() => {
                    let model = message["model"].as_str().or(entry["model"].as_str());
                    found.model = model.map(str::to_string);
                    found.answer = joined_text(&message["content"]);
                }
                // GitHub Copilot CLI's `events.jsonl`: `{"type": "assistant.message", "data":
                // {"model", "content"}}`, written before its `agentStop` hook runs.
                Some("assistant.message") if found.model.is_none() => {
                    let data = &entry["data"];
                    found.model = data["model"].as_str().map(str::to_string);
                    found.answer = data["content"].as_str().map(str::to_string);
                }
                Some("user.message") => {
                    if let Some(prompt) = entry["data"]["content"].as_str() {
                        found.prompt = Some(prompt.to_string());
                        break;
                    }
                }
                Some("user") => {
                    // Tool results come back as user entries; the typed prompt is text.
                    if let Some(prompt) = joined_text(&message["content"]) {
                        found.prompt = Some(prompt);
                        break;
                    }
                }
                _ => {}
            }
        }
        found
    }
}

/// A message's text: a string, or the text blocks of a content list joined by blank lines.
fn joined_text(content: &Value) -> Option<String> {
    if let Some(text) = content.as_str() {
        return Some(text.to_string());
    }
    let texts: Vec<&str> = content
        .as_array()?
        .iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claude_transcript_gives_the_last_exchange() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let lines = [
            r#"{"type":"user","message":{"role":"user","content":"旧问题"}}"#,
            r#"{"type":"assistant","message":{"model":"m-old","content":[{"type":"text","text":"旧"}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"text","text":"新问题"}]}}"#,
            r#"{"type":"assistant","message":{"model":"m1","content":[{"type":"tool_use","id":"t"}]}}"#,
            r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}}"#,
            r#"{"type":"assistant","message":{"model":"m2","content":[{"type":"text","text":"总结：好了。"}]}}"#,
        ];
        std::fs::write(&path, lines.join("\n")).unwrap();
        let t = Transcript::read(&path.to_string_lossy());
        assert_eq!(t.prompt.as_deref(), Some("新问题"));
        assert_eq!(t.answer.as_deref(), Some("总结：好了。"));
        assert_eq!(t.model.as_deref(), Some("m2"));
    }
}
