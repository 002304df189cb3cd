//! The labeled cases (`tests/learning/cases/*.jsonl`) rendered as sessions in the real formats of
//! Claude Code, Codex CLI, Gemini CLI and OpenCode, laid out as a home folder (`.claude/projects/…`,
//! `.codex/sessions/…`, `.gemini/tmp/…`, `.local/share/opencode/opencode.db`). Rendered at test
//! time into a temporary home, so the repository keeps the cases, not thousands of files.
//!
//! Each case is one session: the assistant's question (when the case has `before`), the user's
//! turn (with a tool call and its output when the case has `tool`), the assistant's reply, and
//! the next turn of the same session when the case has `next`. The records copy the shape of
//! those the pinned clients wrote in the end-to-end runs (`tests/fixtures/sessions/`): the same
//! record types, fields and injected messages. The output is deterministic (ids are UUIDv5 of
//! the session's number, times are fixed), so a case always lands in the same files.
//!
//! Used by `tests/learning_corpus.rs` (the floors) and `examples/corpus.rs` (the input of
//! `benches/suggest.sh`).

#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};
pub use tinylingo::learning::Assistant;

/// The folder the sessions worked in.
const CWD: &str = "/home/user/project";
/// Our prompt hook's block, as each client stores it beside the prompt.
const INJECTED: &str = "<system-reminder>\n[TinyLingo]\n- 智能抠图: ProjectA 背景移除模块，类名 BGRemover，位于 src/modules/bgremove/\n</system-reminder>";

/// One labeled case (one line of a cases file).
#[derive(Debug, Clone)]
pub struct Case {
    pub lang: String,
    pub before: Option<String>,
    pub user: String,
    pub after: String,
    /// The output of a tool call within the turn (the older `tool` string, or the `output` of
    /// `{"command", "output"}`: only the output is rendered, as the output of `cat notes.txt`,
    /// which is what a rule could mistake for the user's words).
    pub tool: Option<String>,
    /// The following turn of the same session.
    pub next: Option<Turn>,
    /// The term that should be proposed; `None` for a trap.
    pub expect: Option<String>,
    pub kind: String,
    /// Literal fragments the proposal's explanation must hold (positives; may be empty).
    pub facts: Vec<String>,
    /// Other spellings of the same term the case's writer would accept (`"also"`; may be
    /// empty): scored apart from `expect`, in a row of its own.
    pub also: Vec<String>,
}

/// A user's message and the assistant's reply.
#[derive(Debug, Clone)]
pub struct Turn {
    pub user: String,
    pub after: String,
}

fn text(v: &Value) -> Option<String> {
    v.as_str().filter(|s| !s.is_empty()).map(String::from)
}

impl Case {
    /// A case from its JSON object; panics naming what is missing (the cases are ours).
    pub fn from_json(v: &Value) -> Case {
        let field = |name: &str| {
            v[name].as_str().unwrap_or_else(|| panic!("a case without `{name}`: {v}")).to_string()
        };
        let tool = match &v["tool"] {
            Value::Object(o) => o.get("output").and_then(text),
            other => text(other),
        };
        let next = v.get("next").filter(|n| n.is_object()).map(|n| Turn {
            user: n["user"].as_str().expect("`next` has `user`").to_string(),
            after: n["after"].as_str().unwrap_or_default().to_string(),
        });
        let strings = |name: &str| -> Vec<String> {
            let items = v[name].as_array().into_iter().flatten();
            items.map(|f| f.as_str().expect("a list of strings").to_string()).collect()
        };
        Case {
            lang: field("lang"),
            before: text(&v["before"]),
            user: field("user"),
            after: field("after"),
            tool,
            next,
            expect: v["expect"].as_str().map(String::from),
            kind: field("kind"),
            facts: strings("facts"),
            also: strings("also"),
        }
    }

    /// The prompt that opens a session whose first message is the assistant's.
    fn opening(&self) -> &'static str {
        if self.lang == "zh" {
            "看一下这个项目"
        } else {
            "have a look at this project"
        }
    }
}

/// The cases of a cases file, in order.
pub fn load(path: &Path) -> Vec<Case> {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Case::from_json(&serde_json::from_str(l).expect("a JSON object a line")))
        .collect()
}

/// The assistants whose session stores are rendered (the journal is not one).
pub const ASSISTANTS: [Assistant; 4] =
    [Assistant::Claude, Assistant::Codex, Assistant::Gemini, Assistant::OpenCode];

/// Writes sessions into a home folder. OpenCode's sessions go into one database, written in one
/// transaction that [`Sessions::finish`] commits.
pub struct Sessions {
    home: PathBuf,
    db: Option<rusqlite::Connection>,
}

const SCHEMA: &str = "
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text,
  slug text NOT NULL, directory text NOT NULL, title text NOT NULL, version text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
";

impl Sessions {
    pub fn new(home: &Path) -> Sessions {
        fs::create_dir_all(home).unwrap();
        Sessions { home: home.to_path_buf(), db: None }
    }

    /// Writes `case` as session number `n` of `assistant`, with `pad` appended to its tool
    /// output (a tool call is made for a non-empty `pad` even when the case has none). Returns
    /// the session's key: its file's name without the extension, or OpenCode's session id.
    pub fn write(&mut self, assistant: Assistant, case: &Case, n: usize, pad: &str) -> String {
        let tool = match (&case.tool, pad) {
            (None, "") => None,
            (t, pad) => Some(format!("{}{pad}", t.as_deref().unwrap_or_default())),
        };
        let session = Session { case, n, tool };
        if assistant == Assistant::OpenCode {
            return session.opencode(self.db());
        }
        let (rel, lines) = match assistant {
            Assistant::Claude => session.claude(),
            Assistant::Codex => session.codex(),
            Assistant::Gemini => session.gemini(),
            other => panic!("no sessions are rendered for {}", other.name()),
        };
        let path = self.home.join(&rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut body = lines.join("\n");
        body.push('\n');
        fs::write(&path, body).unwrap();
        path.file_stem().unwrap().to_string_lossy().into_owned()
    }

    fn db(&mut self) -> &rusqlite::Connection {
        self.db.get_or_insert_with(|| {
            let dir = self.home.join(".local/share/opencode");
            fs::create_dir_all(&dir).unwrap();
            let db = rusqlite::Connection::open(dir.join("opencode.db")).unwrap();
            db.execute_batch(SCHEMA).unwrap();
            db.execute_batch("BEGIN").unwrap();
            db
        })
    }

    /// Commits OpenCode's database (when a session went there).
    pub fn finish(self) {
        if let Some(db) = self.db {
            db.execute_batch("COMMIT").unwrap();
        }
    }

    /// Creates OpenCode's database even when no session goes there (as OpenCode leaves it).
    pub fn with_empty_opencode(mut self) -> Sessions {
        self.db();
        self
    }
}

/// One case being written as session number `n`.
struct Session<'a> {
    case: &'a Case,
    n: usize,
    /// The tool output, padding included.
    tool: Option<String>,
}

/// A record as the clients write it: compact JSON, non-ASCII as is, keys in order.
fn j(v: &Value) -> String {
    serde_json::to_string(v).unwrap()
}

/// The record time of step `k` of session `n`.
fn stamp(n: usize, k: usize) -> String {
    format!("2026-11-{:02}T{:02}:{:02}:{:02}.000Z", 1 + n % 28, 8 + k / 60 % 12, k % 60, n % 60)
}

/// JSON objects joined into one, keys in order (a record's fields around a body's).
fn merged<const N: usize>(parts: [Value; N]) -> Value {
    let mut out = serde_json::Map::new();
    for part in parts {
        let Value::Object(o) = part else { unreachable!("objects only") };
        out.extend(o);
    }
    Value::Object(out)
}

impl Session<'_> {
    /// The user's turns: the case's own, then the `next` one, each with the assistant's reply.
    fn turns(&self) -> Vec<(&str, &str)> {
        let c = self.case;
        let mut out = vec![(c.user.as_str(), c.after.as_str())];
        out.extend(c.next.as_ref().map(|t| (t.user.as_str(), t.after.as_str())));
        out
    }

    fn claude(&self) -> (String, Vec<String>) {
        let n = self.n;
        let mut w =
            Claude { n, sid: uid(&["claude", &n.to_string()]), lines: vec![], parent: Value::Null };
        if let Some(before) = &self.case.before {
            w.user(self.case.opening(), 0);
            w.assistant(before, 1);
        }
        // Steps 2–5 are the user's turn (3 and 4 its tool call, 5 the reply), 6 and 7 the next.
        for (i, (said, reply)) in self.turns().into_iter().enumerate() {
            let k = 2 + 4 * i;
            w.user(said, k);
            if let Some(output) = self.tool.as_ref().filter(|_| i == 0) {
                let tool_id = format!("toolu_{n}");
                let call = json!({"message": {"id": format!("msg_{n}_t"), "type": "message",
                    "role": "assistant", "model": "claude-opus-4-8",
                    "content": [{"type": "tool_use", "id": tool_id, "name": "Bash",
                        "input": {"command": "cat notes.txt"}}]}});
                w.rec("assistant", call, 3);
                let result = json!({"message": {"role": "user", "content": [
                    {"tool_use_id": tool_id, "type": "tool_result", "content": output,
                     "is_error": false}]},
                    "toolUseResult": {"stdout": output, "stderr": "", "interrupted": false}});
                w.rec("user", result, 4);
            }
            w.assistant(reply, if i == 0 { 5 } else { k + 1 });
        }
        let last = self.turns().last().unwrap().0;
        w.lines.push(j(&json!({"type": "last-prompt", "lastPrompt": last, "sessionId": w.sid})));
        (format!(".claude/projects/-home-user-project/{}.jsonl", w.sid), w.lines)
    }

    fn codex(&self) -> (String, Vec<String>) {
        let n = self.n;
        let sid = uid(&["codex", &n.to_string()]);
        let meta = json!({"timestamp": stamp(n, 0), "type": "session_meta", "payload": {
            "session_id": sid, "id": sid, "timestamp": stamp(n, 0), "cwd": CWD,
            "originator": "codex_exec", "cli_version": "0.169.0", "source": "exec"}});
        let mut w = Codex { n, k: 0, lines: vec![j(&meta)] };
        if let Some(before) = &self.case.before {
            w.user(self.case.opening());
            w.message("assistant", before, json!(["unknown"]));
        }
        for (i, (said, reply)) in self.turns().into_iter().enumerate() {
            w.user(said);
            if let Some(output) = self.tool.as_ref().filter(|_| i == 0) {
                w.item(json!({"type": "function_call", "name": "exec_command",
                    "call_id": format!("call_{n}"), "arguments": j(&json!({"cmd": "cat notes.txt"}))}));
                w.item(json!({"type": "function_call_output", "call_id": format!("call_{n}"),
                    "output": output}));
            }
            w.message("assistant", reply, json!(["unknown"]));
        }
        let day = stamp(n, 0)[..10].replace('-', "/");
        let name = format!("rollout-{}-{sid}.jsonl", stamp(n, 0)[..19].replace(':', "-"));
        (format!(".codex/sessions/{day}/{name}"), w.lines)
    }

    fn gemini(&self) -> (String, Vec<String>) {
        let n = self.n;
        let sid = uid(&["gemini", &n.to_string()]);
        let context = "<session_context>\nThis is the Gemini CLI. We call the workspace root \
                       home.\n</session_context>";
        let lines = vec![
            j(&json!({"sessionId": sid, "projectHash": "0".repeat(64), "startTime": stamp(n, 0),
                "lastUpdated": stamp(n, 0), "kind": "main"})),
            j(&json!({"$set": {"messages": [{"id": uid(&["ctx", &n.to_string()]),
                "timestamp": stamp(n, 0), "type": "user", "content": [{"text": context}]}]}})),
        ];
        let mut w = Gemini { n, k: 0, lines };
        let reply =
            |text: &str| json!({"type": "gemini", "content": text, "model": "gemini-3.8-flash"});
        if let Some(before) = &self.case.before {
            w.user(self.case.opening());
            w.rec(reply(before));
        }
        for (i, (said, after)) in self.turns().into_iter().enumerate() {
            w.user(said);
            if let Some(output) = self.tool.as_ref().filter(|_| i == 0) {
                let response = json!({"functionResponse": {"id": format!("call_{n}"),
                    "name": "run_shell_command", "response": {"output": output}}});
                w.rec(json!({"type": "gemini", "content": "", "model": "gemini-3.8-flash",
                    "toolCalls": [{"id": format!("call_{n}"), "name": "run_shell_command",
                        "args": {"command": "cat notes.txt"}, "status": "success",
                        "result": [response]}]}));
                w.rec(json!({"type": "user", "content": [response]}));
            }
            w.rec(reply(after));
        }
        let start = stamp(n, 0)[..16].replace(':', "-");
        (format!(".gemini/tmp/project/chats/session-{start}-{}.jsonl", &sid[..8]), w.lines)
    }

    fn opencode(&self, db: &rusqlite::Connection) -> String {
        let n = self.n;
        let sid = format!("ses_{}", &uid(&["oc", &n.to_string()])[..24]);
        let t = 1795640000000 + n as i64 * 100000;
        db.prepare_cached("INSERT INTO session VALUES (?,?,?,?,?,?,?,?,?)")
            .unwrap()
            .execute(rusqlite::params![
                sid,
                "global",
                None::<String>,
                format!("s{n}"),
                CWD,
                "t",
                "1.18.33",
                t,
                t
            ])
            .unwrap();
        let mut w = OpenCode { db, n, k: 0, sid: &sid, t };
        if let Some(before) = &self.case.before {
            w.user(self.case.opening());
            w.msg(
                "assistant",
                vec![json!({"type": "step-start"}), json!({"type": "text", "text": before})],
            );
        }
        for (i, (said, reply)) in self.turns().into_iter().enumerate() {
            w.user(said);
            let mut parts = vec![json!({"type": "step-start"})];
            if let Some(output) = self.tool.as_ref().filter(|_| i == 0) {
                parts.push(json!({"type": "tool", "tool": "bash", "callID": format!("call_{n}"),
                    "state": {"status": "completed", "input": {"command": "cat notes.txt"},
                    "output": output}}));
            }
            parts.push(json!({"type": "text", "text": reply}));
            w.msg("assistant", parts);
        }
        sid
    }
}

/// Claude Code's records: each names its parent, the prompt hook's block follows each prompt.
struct Claude {
    n: usize,
    sid: String,
    lines: Vec<String>,
    parent: Value,
}

impl Claude {
    fn rec(&mut self, kind: &str, body: Value, k: usize) {
        let me = uid(&["claude", &self.n.to_string(), &k.to_string()]);
        let head = json!({"parentUuid": self.parent, "isSidechain": false});
        let tail = json!({"type": kind, "uuid": me, "timestamp": stamp(self.n, k),
            "userType": "external", "entrypoint": "sdk-cli", "cwd": CWD, "sessionId": self.sid,
            "version": "2.1.197", "gitBranch": "HEAD"});
        self.lines.push(j(&merged([head, body, tail])));
        self.parent = Value::String(me);
    }

    fn assistant(&mut self, text: &str, k: usize) {
        let n = self.n;
        let body = json!({"message": {"id": format!("msg_{n}_{k}"), "type": "message",
            "role": "assistant", "model": "claude-opus-4-8",
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn", "stop_sequence": null}});
        self.rec("assistant", body, k);
    }

    fn user(&mut self, text: &str, k: usize) {
        let n = self.n;
        self.lines.push(j(&json!({"type": "queue-operation", "operation": "enqueue",
            "timestamp": stamp(n, k), "sessionId": self.sid, "content": text})));
        let prompt = json!({"promptId": uid(&["p", &n.to_string(), &k.to_string()]),
            "message": {"role": "user", "content": text},
            "permissionMode": "default", "promptSource": "sdk"});
        self.rec("user", prompt, k);
        let attachment = json!({"attachment": {"type": "hook_additional_context",
            "content": [INJECTED], "hookName": "UserPromptSubmit",
            "hookEvent": "UserPromptSubmit"}});
        self.rec("attachment", attachment, k + 100);
    }
}

/// Codex CLI's rollout: numbered response items; each prompt comes with the injected
/// AGENTS.md/environment message before it and our block after it.
struct Codex {
    n: usize,
    k: usize,
    lines: Vec<String>,
}

impl Codex {
    fn item(&mut self, payload: Value) {
        self.k += 1;
        self.lines.push(j(&json!({"timestamp": stamp(self.n, self.k), "ordinal": self.k,
            "type": "response_item", "payload": payload})));
    }

    fn message(&mut self, role: &str, text: &str, kinds: Value) {
        let n = self.n;
        let meta = json!({"turn_id": uid(&["turn", &n.to_string()]), "content_item_kinds": kinds});
        let part = if role == "assistant" { "output_text" } else { "input_text" };
        self.item(json!({"type": "message", "id": format!("msg_{n}_{}", self.k), "role": role,
            "content": [{"type": part, "text": text}],
            "internal_chat_message_metadata_passthrough": meta}));
    }

    fn user(&mut self, text: &str) {
        let context = format!(
            "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nwe call the build bot rex\n\
             </INSTRUCTIONS>\n<environment_context>\n  <cwd>{CWD}</cwd>\n</environment_context>"
        );
        let kinds = json!(["agents_md.instructions", "environments.environment_context"]);
        self.message("user", &context, kinds);
        self.message("user", text, json!(["user.text"]));
        self.message("developer", INJECTED, json!(["hooks.additional_context"]));
        let (n, k) = (self.n, self.k);
        self.lines.push(j(&json!({"timestamp": stamp(n, k), "type": "event_msg", "payload": {
            "type": "item_completed", "item": {"type": "UserMessage",
            "id": uid(&["um", &n.to_string(), &k.to_string()]),
            "content": [{"type": "text", "text": text}]}}})));
    }
}

/// Gemini CLI's session: records with ids, each followed by a `$set` of `lastUpdated`; our
/// block inside `<hook_context>` of the prompt's record, the clean prompt in `displayContent`.
struct Gemini {
    n: usize,
    k: usize,
    lines: Vec<String>,
}

impl Gemini {
    fn rec(&mut self, body: Value) {
        self.k += 1;
        let (n, k) = (self.n, self.k);
        let head =
            json!({"id": uid(&["g", &n.to_string(), &k.to_string()]), "timestamp": stamp(n, k)});
        self.lines.push(j(&merged([head, body])));
        self.lines.push(j(&json!({"$set": {"lastUpdated": stamp(n, k)}})));
    }

    fn user(&mut self, text: &str) {
        let block = INJECTED.replace("<system-reminder>\n", "").replace("\n</system-reminder>", "");
        self.rec(json!({"type": "user", "content": [{"text": text},
            {"text": format!("<hook_context>{block}</hook_context>")}],
            "displayContent": [{"text": text}]}));
    }
}

/// OpenCode's database rows: a message per turn, its parts beside it; our block is a
/// `synthetic` text part of the prompt.
struct OpenCode<'a> {
    db: &'a rusqlite::Connection,
    n: usize,
    k: usize,
    sid: &'a str,
    t: i64,
}

impl OpenCode<'_> {
    fn msg(&mut self, role: &str, parts: Vec<Value>) {
        self.k += 1;
        let (n, k, t) = (self.n, self.k, self.t + self.k as i64);
        let mid = format!("msg_{n:06}_{k:03}");
        let data = json!({"role": role, "time": {"created": t}});
        self.db
            .prepare_cached("INSERT INTO message VALUES (?,?,?,?,?)")
            .unwrap()
            .execute(rusqlite::params![mid, self.sid, t, t, j(&data)])
            .unwrap();
        for (i, p) in parts.iter().enumerate() {
            let at = self.t + (k * 10 + i) as i64;
            self.db
                .prepare_cached("INSERT INTO part VALUES (?,?,?,?,?,?)")
                .unwrap()
                .execute(rusqlite::params![
                    format!("prt_{n:06}_{k:03}_{i}"),
                    mid,
                    self.sid,
                    at,
                    at,
                    j(p)
                ])
                .unwrap();
        }
    }

    fn user(&mut self, text: &str) {
        self.msg(
            "user",
            vec![
                json!({"type": "text", "text": text}),
                json!({"type": "text", "text": INJECTED, "synthetic": true}),
            ],
        );
    }
}

/// UUIDv5 (SHA-1, URL namespace) of the parts joined with `/`: the ids Python's
/// `uuid.uuid5(uuid.NAMESPACE_URL, …)` gave the corpus when it was rendered by a script.
fn uid(parts: &[&str]) -> String {
    const URL: [u8; 16] = [
        0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
        0xc8,
    ];
    let mut data = URL.to_vec();
    data.extend_from_slice(parts.join("/").as_bytes());
    let mut b = sha1(&data);
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b[..16].iter().map(|x| format!("{x:02x}")).collect();
    format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..])
}

/// SHA-1 (FIPS 180-4), for [`uid`] alone: ids, not security.
fn sha1(data: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i / 20 {
                0 => ((b & c) | (!b & d), 0x5A827999),
                1 => (b ^ c ^ d, 0x6ED9EBA1),
                2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
                _ => (b ^ c ^ d, 0xCA62C1D6),
            };
            let t =
                a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(*wi);
            (e, d, c, b, a) = (d, c, b.rotate_left(30), a, t);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 20];
    for (i, x) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}
