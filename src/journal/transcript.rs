//! What an assistant's transcript file says of the last exchange: the prompt, the answer, the
//! model (see the table in [`crate::hook::after`]).
//!
//! A transcript grows with its session, to megabytes, and the exchange the after-response hook
//! wants is at its end. So a JSONL transcript (Claude Code, Gemini CLI 0.61) is read
//! backwards, a block at a time (`TailLines`), and only until the typed prompt is found:
//! the hook's cost does not grow with the session. Gemini's older session file, one JSON
//! object, is still read whole.

use std::fs::File;
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long the hook waits for the assistant to write its answer to the transcript.
const SETTLE: Duration = Duration::from_millis(300);
/// The first block read from the end; later blocks double, so a long line costs linear time.
const BLOCK: usize = 64 * 1024;

/// The last exchange, as far as the transcript tells it.
#[derive(Debug, Default)]
pub struct Transcript {
    pub prompt: Option<String>,
    pub answer: Option<String>,
    pub model: Option<String>,
}

impl Transcript {
    /// Claude Code runs its `Stop` hook before it has written the answer to the transcript
    /// (measured: 5 to 50 ms later; a new session's file may not exist yet). So the hook waits
    /// for an answer in the file, a little: at most `SETTLE` (300 ms), then takes what is there.
    pub fn read_settled(path: String) -> Transcript {
        let started = Instant::now();
        loop {
            let found = Transcript::read(&path);
            if found.model.is_some() || started.elapsed() >= SETTLE {
                return found;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What the transcript says now, without waiting: enough when only the prompt is asked
    /// for, which the client wrote before the turn began.
    pub fn read(path: &str) -> Transcript {
        let Ok(file) = File::open(path) else { return Transcript::default() };
        let Ok(meta) = file.metadata() else { return Transcript::default() };
        let mut lines = TailLines { file, pos: meta.len(), carry: Vec::new(), ready: Vec::new() };
        let mut found = Transcript::default();
        let mut last = true;
        while let Some(line) = lines.next_line() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let Ok(entry) = serde_json::from_slice::<Value>(&line) else {
                // A last line that is no JSON value (`}`): one JSON object, not JSONL.
                if last {
                    return Transcript::read_session(path);
                }
                continue;
            };
            if std::mem::take(&mut last) && entry["messages"].is_array() {
                // The older session object, on one line.
                return Transcript { model: session_model(&entry), ..Transcript::default() };
            }
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

    /// Gemini CLI's older session file: one JSON object whose `messages` name their model.
    fn read_session(path: &str) -> Transcript {
        let session = std::fs::read(path).ok().and_then(|t| serde_json::from_slice(&t).ok());
        Transcript { model: session.as_ref().and_then(session_model), ..Transcript::default() }
    }
}

/// The model the last of a session object's `messages` to name one names.
fn session_model(session: &Value) -> Option<String> {
    let messages = session["messages"].as_array()?;
    messages.iter().rev().find_map(|m| m["model"].as_str().map(str::to_string))
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

/// The lines of a file, last first, read from the end in blocks.
struct TailLines {
    file: File,
    /// Where the part not read yet ends.
    pos: u64,
    /// The start of a line whose beginning lies in the part not read yet.
    carry: Vec<u8>,
    /// Whole lines read, in file order (the last is returned next).
    ready: Vec<Vec<u8>>,
}

impl TailLines {
    fn next_line(&mut self) -> Option<Vec<u8>> {
        loop {
            if let Some(line) = self.ready.pop() {
                return Some(line);
            }
            if self.pos == 0 {
                return (!self.carry.is_empty()).then(|| std::mem::take(&mut self.carry));
            }
            // At least as much as the carried line: a long line is read in doubling blocks.
            let want = BLOCK.max(self.carry.len()) as u64;
            let n = want.min(self.pos);
            self.pos -= n;
            let mut block = vec![0; n as usize];
            if read_at(&self.file, &mut block, self.pos).is_err() {
                self.pos = 0;
                self.carry.clear();
                return None;
            }
            block.append(&mut self.carry);
            let mut pieces = block.split(|&b| b == b'\n');
            // The first piece may continue in the part before: it waits for the next block.
            self.carry = pieces.next().unwrap_or_default().to_vec();
            self.ready = pieces.map(<[u8]>::to_vec).collect();
        }
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(not(unix))]
fn read_at(mut file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(at))?;
    file.read_exact(buf)
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

    #[test]
    fn lines_come_last_first_across_blocks_and_long_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let long = "x".repeat(3 * BLOCK + 17);
        let lines = ["first", long.as_str(), "", "short", &long[..BLOCK - 3], "last"];
        for end in ["", "\n"] {
            std::fs::write(&path, format!("{}{end}", lines.join("\n"))).unwrap();
            let file = File::open(&path).unwrap();
            let pos = file.metadata().unwrap().len();
            let mut tail = TailLines { file, pos, carry: Vec::new(), ready: Vec::new() };
            let mut got = Vec::new();
            while let Some(line) = tail.next_line() {
                got.push(String::from_utf8(line).unwrap());
            }
            let mut want: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            if end == "\n" {
                want.push(String::new());
            }
            want.reverse();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn a_long_session_is_read_from_its_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        // 4 MB of older exchanges, then the last one.
        let old = r#"{"type":"assistant","message":{"model":"old","content":"x"}}"#;
        let mut text = format!("{old}\n").repeat(4 << 20 >> 6);
        text.push_str(r#"{"type":"user","message":{"content":"问"}}"#);
        text.push('\n');
        text.push_str(r#"{"type":"gemini","content":"答","model":"g-1"}"#);
        std::fs::write(&path, text).unwrap();
        let t = Transcript::read(&path.to_string_lossy());
        assert_eq!((t.prompt.as_deref(), t.model.as_deref()), (Some("问"), Some("g-1")));
    }

    #[test]
    fn gemini_session_objects_are_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        let session = serde_json::json!({"messages": [
            {"type": "user", "content": "问"},
            {"type": "gemini", "content": "答", "model": "gemini-x"},
            {"type": "info", "content": "…"},
        ]});
        for text in [serde_json::to_string_pretty(&session), serde_json::to_string(&session)] {
            std::fs::write(&path, text.unwrap()).unwrap();
            let t = Transcript::read(&path.to_string_lossy());
            assert_eq!(t.model.as_deref(), Some("gemini-x"));
        }
    }
}
