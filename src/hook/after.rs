//! The after-response hook: `tinylingo hook <assistant> after`, run when the assistant has
//! answered, starts the capture of the session's new proposals (`learn.capture`, see
//! [`crate::learning::capture`]) and writes the exchange to the journal (while it is on).
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

use serde_json::Value;

use crate::error::Result;
use crate::journal::transcript::Transcript;
use crate::journal::{self, pending, summary, Entry, Journal};
use crate::platform::Platform;
use crate::store::Store;

/// Event fields that may hold the answer, first found wins.
const ANSWER_FIELDS: &[&str] = &["last_assistant_message", "prompt_response", "text", "response"];

/// Runs the after-response hook for `platform` on this process's stdin. Never fails, prints
/// nothing.
pub fn run(platform: Platform) {
    let Some(input) = super::quiet_event() else { return };
    let _ = std::panic::catch_unwind(|| {
        let Ok(store) = Store::locate() else { return };
        let Ok(event) = serde_json::from_slice::<Value>(&input) else { return };
        let fail = |e: String| {
            crate::debug_log::log_failure(&store, &format!("{} after: {e}", platform.name()))
        };
        // The capture first, so that its scan starts while the journal is written.
        if let Err(e) = capture(&store, platform, &event) {
            fail(format!("capture not started: {e}"));
        }
        if let Err(e) = record_event(&store, platform, &event) {
            fail(e.to_string());
        }
    });
}

/// Starts the capture of the session the event names ([`crate::learning::capture`]), when
/// `learn.capture` is on and the assistant's sessions are a source `suggest` reads.
fn capture(store: &Store, platform: Platform, event: &Value) -> std::io::Result<()> {
    use crate::learning::capture;
    let Some((source, file)) = capture::session_file(platform, event) else { return Ok(()) };
    let config = crate::store::config::Config::load(store).unwrap_or_default();
    if !config.settings().0.learn.capture {
        return Ok(());
    }
    capture::spawn(source, &file)
}

/// Writes the exchange `input` describes; `Ok(None)` when the journal is off or the event
/// holds nothing to record.
pub fn record(store: &Store, platform: Platform, input: &[u8]) -> Result<Option<usize>> {
    let Ok(event) = serde_json::from_slice::<Value>(input) else { return Ok(None) };
    record_event(store, platform, &event)
}

fn record_event(store: &Store, platform: Platform, event: &Value) -> Result<Option<usize>> {
    let journal = Journal::of(store)?;
    if !journal.enabled {
        return Ok(None);
    }
    let text = |field: &str| {
        event.get(field).and_then(Value::as_str).filter(|t| !t.is_empty()).map(str::to_string)
    };
    let spec = platform.spec();
    let session = spec.session_fields.iter().find_map(|f| text(f));
    let kept = session.as_deref().and_then(|s| pending::take(store, s));
    let answer = ANSWER_FIELDS.iter().find_map(|f| text(f));
    let prompt = text("prompt").or_else(|| kept.as_ref().map(|k| k.prompt.clone()));
    let model = text("model").or_else(|| kept.as_ref().and_then(|k| k.model.clone()));
    // The transcript only for what the event and the prompt hook did not say: a long
    // session's file is read from its end, but not read at all is cheaper still. Claude Code
    // writes the answer's entry (which names the model) only after starting its `Stop` hook, so
    // for those two the hook waits for it (`read_settled`); the prompt is there already.
    // GitHub Copilot CLI's `agentStop` names the file in camelCase.
    let transcript = match text("transcript_path").or_else(|| text("transcriptPath")) {
        Some(path) if answer.is_none() || model.is_none() => Transcript::read_settled(path),
        Some(path) if prompt.is_none() => Transcript::read(&path),
        _ => Transcript::default(),
    };
    let answer = answer.or(transcript.answer);
    let Some(prompt) = prompt.or(transcript.prompt).filter(|p| !p.is_empty()) else {
        // An answer to nothing we can name (a turn the user did not type): not an exchange.
        return Ok(None);
    };
    let model = model.or(transcript.model).unwrap_or_else(|| "unknown".into());
    let cwd = text("cwd").or_else(|| kept.and_then(|k| k.cwd));
    let entry = Entry {
        time: journal::now(),
        model,
        role: journal.role.clone(),
        assistant: Some(spec.display.to_string()),
        cwd,
        prompt,
        // Masked before it is summarised: a summary cut in the middle of a token would leave
        // a piece too short for the rules to know ([`Journal::append`] masks again).
        summary: summary::summarize(&crate::guard::secrets::redact(
            answer.as_deref().unwrap_or_default(),
        )),
    };
    journal.append(&entry).map(Some)
}
