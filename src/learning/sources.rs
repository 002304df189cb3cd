//! Where each assistant keeps its sessions, and which of their records are the user's own
//! words. The formats are those the pinned clients wrote in the end-to-end runs (samples in
//! `tests/fixtures/sessions/`); OpenCode's SQLite store is read by [`super::opencode`].
//!
//! | assistant | files | the user's words |
//! |---|---|---|
//! | Claude Code | `${CLAUDE_CONFIG_DIR:-~/.claude}/projects/*/*.jsonl` | `type:"user"` records whose `message.content` is text (not `tool_result`), not `isMeta`/`isSidechain`; `queue-operation`/`last-prompt` repeat the prompt and are skipped; our context arrives as an `attachment` record and is skipped |
//! | Codex CLI | `${CODEX_HOME:-~/.codex}/sessions/**/rollout-*.jsonl` | `response_item` messages of role `user` whose `content_item_kinds` are all `user.*` (AGENTS.md and the environment come as a user message of other kinds; our context as a `developer` message); `event_msg` `user_message` in releases without `response_item` prompts |
//! | Gemini CLI | `${GEMINI_CLI_HOME:-~}/.gemini/tmp/*/chats/session-*.jsonl` (before 0.39: whole `session-*.json`, [`gemini_whole`]) | `type:"user"` records: `displayContent` (the prompt without our `<hook_context>`), else `content`'s text parts (not `functionResponse`); `$set` of `messages` replaces what came before (a checkpoint; its first message is the session context), other `$set`s are metadata; `$rewindTo` discards the record it names and all after it; a record id seen before is skipped |
//! | the thread journal | `threads/thread-*.md` | the fenced prompt under each entry's request heading, read by [`crate::journal::lines`] (either language, the writer's fence) |

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;

use super::rules::Candidate;
use crate::platform::Platform;
use crate::store::Store;

/// A source of sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Assistant {
    Claude,
    Codex,
    Gemini,
    OpenCode,
    Journal,
}

impl Assistant {
    pub const ALL: [Assistant; 5] = [
        Assistant::Claude,
        Assistant::Codex,
        Assistant::Gemini,
        Assistant::OpenCode,
        Assistant::Journal,
    ];
    /// The sources kept as files read line by line (OpenCode's is a database).
    pub const FILES: [Assistant; 4] =
        [Assistant::Claude, Assistant::Codex, Assistant::Gemini, Assistant::Journal];

    pub fn name(self) -> &'static str {
        match self {
            Assistant::Claude => "claude",
            Assistant::Codex => "codex",
            Assistant::Gemini => "gemini",
            Assistant::OpenCode => "opencode",
            Assistant::Journal => "journal",
        }
    }

    pub fn from_name(name: &str) -> Option<Assistant> {
        Assistant::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// The session files of `assistant` under `home`, or why there are none.
pub fn files(assistant: Assistant, home: &Path, store: &Store) -> Result<Vec<PathBuf>, String> {
    // The assistants' own folders, found as `install` finds them (`CLAUDE_CONFIG_DIR`,
    // `CODEX_HOME`, `GEMINI_CLI_HOME`): sessions read from anywhere else would be another
    // installation's, or none.
    let sessions = |p: Platform| p.sessions_folder(home).unwrap_or_default();
    let (root, depth, keep): (PathBuf, usize, fn(&str) -> bool) = match assistant {
        Assistant::Claude => (sessions(Platform::Claude), 2, |n| n.ends_with(".jsonl")),
        Assistant::Codex => {
            (sessions(Platform::Codex), 4, |n| n.starts_with("rollout-") && n.ends_with(".jsonl"))
        }
        // `.json`: the whole-file sessions of releases before 0.39 ([`gemini_whole`]).
        Assistant::Gemini => (sessions(Platform::Gemini), 3, |n| {
            n.starts_with("session-") && (n.ends_with(".jsonl") || n.ends_with(".json"))
        }),
        Assistant::Journal => {
            let dir = crate::journal::Journal::of(store)
                .map(|j| j.dir)
                .unwrap_or_else(|_| store.dir().join("threads"));
            (dir, 1, |n| n.starts_with("thread-") && n.ends_with(".md"))
        }
        Assistant::OpenCode => return Ok(Vec::new()),
    };
    if !root.is_dir() {
        return Err(format!("no {}", root.display()));
    }
    let mut out = Vec::new();
    walk(&root, depth, keep, &mut out);
    out.sort();
    Ok(out)
}

/// The files `depth` levels below `dir` whose names `keep` accepts (Gemini's sit in a `chats`
/// folder of each project folder, Codex's in year/month/day folders).
fn walk(dir: &Path, depth: usize, keep: fn(&str) -> bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else { continue };
        let path = entry.path();
        if depth > 1 && kind.is_dir() {
            walk(&path, depth - 1, keep, out);
        } else if depth == 1 && kind.is_file() && keep(&entry.file_name().to_string_lossy()) {
            out.push(path);
        }
    }
}

/// A candidate where it was found.
pub struct Found {
    pub candidate: Candidate,
    pub assistant: Assistant,
    pub path: String,
    pub line: u64,
    pub when: Option<String>,
    pub session: String,
    pub project: bool,
    /// The folder the session worked in (absolute), when its store says.
    pub folder: Option<String>,
    /// The user's sentence the candidate came from.
    pub quote: String,
}

/// One turn of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The user's words (else the assistant's).
    pub user: bool,
    pub text: String,
    pub when: Option<String>,
    /// The session works in a git project (the record names a git branch or a project root).
    pub in_project: bool,
    /// The folder the session works in, when known.
    pub folder: Option<String>,
}

/// Reads one file's lines into turns; a line it cannot read is `Err`.
pub struct Parser {
    assistant: Assistant,
    /// Record ids seen (Gemini rewrites a record with the same id).
    ids: HashSet<String>,
    /// The session works in a git project.
    pub in_project: bool,
    /// The folder the session works in (Claude Code's `cwd`, Codex's `session_meta`, Gemini
    /// CLI's `.project_root`), when known.
    pub folder: Option<String>,
    journal: crate::journal::lines::Reader,
    /// Gemini: the id of the record the last line held (a later `$rewindTo` may name it).
    pub last_id: Option<String>,
    /// Gemini: a `$rewindTo` record's id: that record and everything after it are discarded.
    pub rewind: Option<String>,
    /// Gemini: a checkpoint's turns (`$set` of `messages`): they replace all before them.
    pub checkpoint: Option<Vec<Turn>>,
}

/// A line that is not what its source writes (not JSON, or not of the known shape).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Garbled;

type Line = std::result::Result<Option<Turn>, Garbled>;

impl Parser {
    pub fn new(assistant: Assistant) -> Parser {
        Parser {
            assistant,
            ids: HashSet::new(),
            in_project: false,
            folder: None,
            journal: crate::journal::lines::Reader::new(),
            last_id: None,
            rewind: None,
            checkpoint: None,
        }
    }

    /// Whether a scan may stop after the last line (no entry half read).
    pub fn idle(&self) -> bool {
        self.journal.idle()
    }

    pub fn line(&mut self, line: &str) -> Line {
        match self.assistant {
            Assistant::Claude => self.claude(line),
            Assistant::Codex => self.codex(line),
            Assistant::Gemini => self.gemini(line),
            Assistant::Journal => Ok(self.journal(line)),
            Assistant::OpenCode => Ok(None),
        }
    }

    fn claude(&mut self, line: &str) -> Line {
        // Most lines (attachments, progress) are not turns: a cheap look first, which only
        // skips lines that cannot be one whatever the JSON's spacing (a turn's type is the
        // string "user" or "assistant", and those bytes are in it).
        if !(line.contains(r#""user""#) || line.contains(r#""assistant""#)) {
            return Ok(None);
        }
        #[derive(Deserialize)]
        struct Record<'a> {
            #[serde(rename = "type", borrow)]
            kind: &'a str,
            #[serde(default, rename = "isMeta")]
            meta: bool,
            #[serde(default, rename = "isSidechain")]
            sidechain: bool,
            #[serde(default, rename = "gitBranch")]
            branch: Option<&'a str>,
            cwd: Option<String>,
            timestamp: Option<String>,
            #[serde(borrow)]
            message: Option<Message<'a>>,
        }
        #[derive(Deserialize)]
        struct Message<'a> {
            #[serde(borrow)]
            content: Option<&'a RawValue>,
        }
        let r: Record = serde_json::from_str(line).map_err(|_| Garbled)?;
        if r.branch.is_some_and(|b| !b.is_empty()) {
            self.in_project = true;
        }
        if r.cwd.is_some() {
            self.folder = r.cwd;
        }
        if r.meta || r.sidechain || !matches!(r.kind, "user" | "assistant") {
            return Ok(None);
        }
        let Some(content) = r.message.and_then(|m| m.content) else { return Ok(None) };
        let text = text_of(content, r.kind == "user")?;
        Ok(text.map(|text| Turn {
            user: r.kind == "user",
            text,
            when: r.timestamp,
            in_project: self.in_project,
            folder: self.folder.clone(),
        }))
    }

    fn gemini(&mut self, line: &str) -> Line {
        // Gemini CLI replays its store: a `$rewindTo` record discards the record it names and
        // all after it; a `$set` of `messages` is a checkpoint that replaces every message read
        // so far (the first one holds the session context); other `$set`s are metadata. The
        // caller drops what the discarded records proposed.
        let first_key = line.trim_start().strip_prefix('{').map(str::trim_start);
        if first_key.is_some_and(|k| k.starts_with(r#""$"#)) {
            #[derive(Deserialize)]
            struct Meta<'a> {
                #[serde(rename = "$rewindTo")]
                rewind: Option<String>,
                #[serde(rename = "$set", borrow)]
                set: Option<Set<'a>>,
            }
            #[derive(Deserialize)]
            struct Set<'a> {
                #[serde(borrow)]
                messages: Option<Vec<&'a RawValue>>,
            }
            let meta: Meta = serde_json::from_str(line).map_err(|_| Garbled)?;
            self.rewind = meta.rewind;
            if let Some(messages) = meta.set.and_then(|s| s.messages) {
                self.ids.clear();
                let mut turns = Vec::new();
                for m in messages {
                    if let Some(turn) = self.gemini_record(m.get())? {
                        turns.push(turn);
                    }
                }
                self.last_id = None;
                self.checkpoint = Some(turns);
            }
            return Ok(None);
        }
        // Only skips lines that cannot be a message whatever the spacing (see `claude`).
        if !(line.contains(r#""user""#) || line.contains(r#""gemini""#)) {
            return Ok(None);
        }
        self.gemini_record(line)
    }

    /// One Gemini message record (a line of a `.jsonl` session, or an element of a whole
    /// `.json` session's `messages`).
    fn gemini_record(&mut self, line: &str) -> Line {
        #[derive(Deserialize)]
        struct Record<'a> {
            id: Option<String>,
            #[serde(rename = "type", borrow)]
            kind: &'a str,
            timestamp: Option<String>,
            #[serde(borrow)]
            content: Option<&'a RawValue>,
            #[serde(default, rename = "displayContent", borrow)]
            display: Option<&'a RawValue>,
        }
        let r: Record = serde_json::from_str(line).map_err(|_| Garbled)?;
        if let Some(id) = &r.id {
            if !self.ids.insert(id.clone()) {
                return Ok(None);
            }
        }
        self.last_id.clone_from(&r.id);
        if !matches!(r.kind, "user" | "gemini") {
            return Ok(None); // info, error, warning: the client's own notes
        }
        let user = r.kind == "user";
        let Some(content) = (if user { r.display.or(r.content) } else { r.content }) else {
            return Ok(None);
        };
        let text = text_of(content, user)?;
        Ok(text.map(|text| Turn {
            user,
            text,
            when: r.timestamp,
            in_project: false,
            folder: self.folder.clone(),
        }))
    }

    /// The journal, read by its own module ([`crate::journal::lines`]): the prompt is the
    /// user's, the summary the assistant's.
    fn journal(&mut self, line: &str) -> Option<Turn> {
        use crate::journal::lines::Read;
        let (user, text, folder) = match self.journal.line(line)? {
            Read::Prompt { text, folder } => (true, text, folder),
            Read::Summary(text) => (false, text, None),
        };
        if folder.is_some() {
            self.folder.clone_from(&folder);
        }
        Some(Turn { user, text, when: None, in_project: false, folder: self.folder.clone() })
    }
}

/// The folder a Gemini CLI session worked in: its project folder's `.project_root` (the
/// session sits in `<project>/chats/`).
pub fn gemini_folder(session: &Path) -> Option<String> {
    let file = session.parent()?.parent()?.join(".project_root");
    let text = std::fs::read_to_string(file).ok()?;
    let folder = text.trim();
    (!folder.is_empty()).then(|| folder.to_string())
}

/// The turns of a whole-file Gemini CLI session (`session-*.json`, releases before 0.39: one
/// JSON object, pretty-printed, whose `messages` are the records the `.jsonl` store writes one a
/// line). `Err` when the file is not such an object.
///
/// Each turn comes with the line of the file its record starts on.
pub fn gemini_whole(text: &str) -> std::result::Result<(Vec<(Turn, u64)>, usize), Garbled> {
    #[derive(Deserialize)]
    struct Whole<'a> {
        #[serde(borrow)]
        messages: Vec<&'a RawValue>,
    }
    let whole: Whole = serde_json::from_str(text).map_err(|_| Garbled)?;
    let mut parser = Parser::new(Assistant::Gemini);
    let (mut turns, mut garbled) = (Vec::new(), 0);
    let (mut line, mut counted) = (1u64, 0usize);
    for message in whole.messages {
        // A borrowed raw value is a slice of `text`: its offset gives its line.
        let at = message.get().as_ptr() as usize - text.as_ptr() as usize;
        line += text.as_bytes()[counted..at].iter().filter(|&&b| b == b'\n').count() as u64;
        counted = at;
        match parser.gemini_record(message.get()) {
            Ok(Some(turn)) => turns.push((turn, line)),
            Ok(None) => {}
            Err(_) => garbled += 1,
        }
    }
    Ok((turns, garbled))
}

impl Parser {
    fn codex(&mut self, line: &str) -> Line {
        // Only skips lines that cannot be a turn or the session's metadata whatever the
        // spacing: the record types are these strings.
        let interesting = line.contains(r#""response_item""#)
            || line.contains(r#""user_message""#)
            || line.contains(r#""session_meta""#);
        if !interesting {
            return Ok(None);
        }
        if line.contains(r#""session_meta""#) {
            if let Some(meta) = session_meta(line) {
                self.in_project |= meta.git.is_some();
                if meta.cwd.is_some() {
                    self.folder = meta.cwd;
                }
                return Ok(None);
            }
        }
        let turn = codex(line)?;
        Ok(turn.map(|t| Turn { in_project: self.in_project, folder: self.folder.clone(), ..t }))
    }
}

#[derive(Deserialize)]
struct SessionMeta {
    cwd: Option<String>,
    git: Option<serde::de::IgnoredAny>,
}

/// A Codex `session_meta` record's payload (the session's folder, and whether it is a git
/// work tree), or `None` when the line is another record.
fn session_meta(line: &str) -> Option<SessionMeta> {
    #[derive(Deserialize)]
    struct Record {
        #[serde(rename = "type")]
        kind: String,
        payload: Option<SessionMeta>,
    }
    let r: Record = serde_json::from_str(line).ok()?;
    (r.kind == "session_meta").then_some(r.payload).flatten()
}

fn codex(line: &str) -> Line {
    #[derive(Deserialize)]
    struct Record<'a> {
        timestamp: Option<String>,
        #[serde(rename = "type", borrow)]
        kind: &'a str,
        #[serde(borrow)]
        payload: Payload<'a>,
    }
    #[derive(Deserialize)]
    struct Payload<'a> {
        #[serde(rename = "type", borrow)]
        kind: &'a str,
        role: Option<&'a str>,
        #[serde(borrow)]
        content: Option<&'a RawValue>,
        /// `event_msg` `user_message` (older releases).
        message: Option<String>,
        internal_chat_message_metadata_passthrough: Option<Metadata<'a>>,
    }
    #[derive(Deserialize)]
    struct Metadata<'a> {
        #[serde(default, borrow)]
        content_item_kinds: Vec<&'a str>,
    }
    let r: Record = serde_json::from_str(line).map_err(|_| Garbled)?;
    let when = r.timestamp;
    match (r.kind, r.payload.kind, r.payload.role) {
        ("response_item", "message", Some(role @ ("user" | "assistant"))) => {
            let user = role == "user";
            // AGENTS.md and the environment arrive as a user message of other kinds.
            let kinds =
                r.payload.internal_chat_message_metadata_passthrough.map(|m| m.content_item_kinds);
            if user && kinds.is_some_and(|k| k.iter().any(|k| !k.starts_with("user."))) {
                return Ok(None);
            }
            let Some(content) = r.payload.content else { return Ok(None) };
            let text = text_of(content, user)?;
            Ok(text.map(|text| Turn { user, text, when, in_project: false, folder: None }))
        }
        ("event_msg", "user_message", _) => Ok(r.payload.message.map(|text| Turn {
            user: true,
            text,
            when,
            in_project: false,
            folder: None,
        })),
        _ => Ok(None),
    }
}

/// The text of a message's content: a string, or the text parts of an array (`text`,
/// `input_text`, `output_text`, or untyped `{text}`). A user message holding a tool result or
/// function response is not the user's words: `None`.
fn text_of(content: &RawValue, user: bool) -> std::result::Result<Option<String>, Garbled> {
    #[derive(Deserialize)]
    struct Part {
        #[serde(rename = "type")]
        kind: Option<String>,
        text: Option<String>,
        #[serde(rename = "functionResponse")]
        function_response: Option<serde::de::IgnoredAny>,
    }
    // A string or an array, told apart by the first byte: serde's untagged enums buffer the
    // whole value first (a copy of every tool output, measured at a sixth of a cold scan).
    let raw = content.get();
    if raw.starts_with('"') {
        return serde_json::from_str(raw).map(Some).map_err(|_| Garbled);
    }
    let parts: Vec<Part> = serde_json::from_str(raw).map_err(|_| Garbled)?;
    let foreign = parts.iter().any(|p| {
        p.function_response.is_some()
            || matches!(p.kind.as_deref(), Some("tool_result" | "function_call_output"))
    });
    if user && foreign {
        return Ok(None);
    }
    let texts: Vec<String> = parts
        .into_iter()
        .filter(|p| {
            matches!(p.kind.as_deref(), None | Some("text" | "input_text" | "output_text" | "Text"))
        })
        .filter_map(|p| p.text)
        .collect();
    Ok((!texts.is_empty()).then(|| texts.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(assistant: Assistant, lines: &[&str]) -> Vec<Turn> {
        let mut p = Parser::new(assistant);
        lines.iter().filter_map(|l| p.line(l).ok().flatten()).collect()
    }

    #[test]
    fn a_claude_tool_result_is_not_the_users() {
        let t = turns(
            Assistant::Claude,
            &[
                r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"we call a b"}]}}"#,
                r#"{"type":"user","isMeta":true,"message":{"role":"user","content":"we call c d"}}"#,
                r#"{"type":"user","message":{"role":"user","content":"we call e f"},"timestamp":"t"}"#,
            ],
        );
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].text, "we call e f");
    }

    #[test]
    fn records_are_read_whatever_their_spacing() {
        let claude = r#"{"type": "user", "cwd": "/w/p", "message": {"role": "user", "content": "we call e f"}}"#;
        let t = turns(Assistant::Claude, &[claude]);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].folder.as_deref(), Some("/w/p"));
        let codex = [
            r#"{"type": "session_meta", "payload": {"cwd": "/w/q", "git": {"branch": "main"}}}"#,
            r#"{"type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "we call e f"}]}}"#,
        ];
        let t = turns(Assistant::Codex, &codex);
        assert_eq!(t.len(), 1);
        assert!(t[0].in_project && t[0].folder.as_deref() == Some("/w/q"));
        let gemini = [
            r#"{ "$set": {"messages": [{"id": "a", "type": "user", "content": [{"text": "hi"}]}]}}"#,
            r#"{"id": "b", "type": "user", "content": [{"text": "we call e f"}]}"#,
        ];
        let mut p = Parser::new(Assistant::Gemini);
        assert_eq!(p.line(gemini[0]), Ok(None));
        assert_eq!(p.checkpoint.take().map(|c| c.len()), Some(1));
        assert!(p.line(gemini[1]).unwrap().is_some_and(|t| t.text == "we call e f"));
    }

    #[test]
    fn the_journal_prompt_is_the_fenced_request() {
        let t = turns(
            Assistant::Journal,
            &[
                "## 交互记录 1",
                "**时间**: x",
                "",
                "### 用户请求",
                "```text",
                "we call a b",
                "```",
                "",
                "### AI响应（总结）",
                "ok then",
                "## 交互记录 2",
            ],
        );
        assert_eq!(t.len(), 2);
        assert!(t[0].user && t[0].text == "we call a b");
        assert!(!t[1].user && t[1].text.contains("ok then"));
    }
}
