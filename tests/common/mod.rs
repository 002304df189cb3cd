//! Shared helpers for the integration tests that run the real `tinylingo` binary.
//!
//! [`Home`] is a temporary folder used as the child's `HOME`, so every test gets a fresh store in
//! `$HOME/.config/tinylingo/`; `TINYLINGO_HOME` and every `XDG_*` variable are removed from the
//! child's environment so that nothing of the developer's own setup leaks in. The locale is
//! fixed too ([`LOCALE`]): the `language` setting follows it, and the tests expect the Chinese
//! labels that go with their Chinese terms unless they set another.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The four entries of the design's `glossary.json` example, in its order.
pub const SEED: [(&str, &str); 4] = [
    ("智能抠图", "ProjectA 中背景移除模块，类名 BGRemover，位于 src/modules/bgremove/"),
    ("联调", "在 ProjectA 的 localConfig.cmake 中设置 USE_SOURCE 选项控制是否联合源码调试"),
    ("提交", "git commit 后不要执行 git push，由用户决定是否推送及推送时机"),
    ("依赖更新", "禁止运行初始化脚本，必须使用指定的包管理命令更新依赖"),
];

/// The locale every child runs with (`LANG`; `LC_ALL` and `LC_MESSAGES` are removed), unless
/// a test sets its own.
pub const LOCALE: &str = "zh_CN.UTF-8";

/// What one run of the binary gave back.
#[derive(Debug, Clone)]
pub struct Output {
    /// The exit code (`-1` when the process was killed by a signal).
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    /// stdout exactly as written.
    pub stdout_bytes: Vec<u8>,
}

impl Output {
    /// Asserts the exit code, showing both streams when it is not the expected one.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code, code,
            "unexpected exit code\n--- stdout:\n{}\n--- stderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }

    #[track_caller]
    pub fn ok(&self) -> &Self {
        self.expect_code(0)
    }

    /// Parses stdout as JSON.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!("stdout is not JSON ({e}):\n{}\n--- stderr:\n{}", self.stdout, self.stderr)
        })
    }
}

/// A fresh, empty home folder for one test.
pub struct Home {
    dir: tempfile::TempDir,
}

impl Default for Home {
    fn default() -> Self {
        Self::new()
    }
}

impl Home {
    pub fn new() -> Home {
        Home { dir: tempfile::tempdir().expect("create a temporary HOME") }
    }

    /// The home folder itself (`HOME` of the child).
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// `$HOME/.config/tinylingo`, the store.
    pub fn store(&self) -> PathBuf {
        self.path().join(".config").join("tinylingo")
    }
    pub fn glossary(&self) -> PathBuf {
        self.store().join("glossary.json")
    }
    pub fn config(&self) -> PathBuf {
        self.store().join("config.json")
    }
    pub fn index(&self) -> PathBuf {
        self.store().join("glossary.index")
    }

    /// The command for the binary with `HOME` set to this folder and the store variables cleared.
    pub fn command(&self, args: &[&str]) -> Command {
        self.command_via(&[], args)
    }

    /// [`Home::command`], run through `wrapper`: a program and its first arguments, after which
    /// the binary's path and `args` follow (`setpriv … --`, `sh -c '… exec "$0" "$@"'`).
    pub fn command_via(&self, wrapper: &[&str], args: &[&str]) -> Command {
        let binary = env!("CARGO_BIN_EXE_tinylingo");
        let mut cmd = match wrapper.split_first() {
            Some((program, first)) => {
                let mut cmd = Command::new(program);
                cmd.args(first).arg(binary);
                cmd
            }
            None => Command::new(binary),
        };
        cmd.args(args);
        cmd.env("HOME", self.path());
        for var in ["TINYLINGO_HOME", "CODEX_HOME", "CLAUDE_CONFIG_DIR", "GEMINI_CLI_HOME"] {
            cmd.env_remove(var);
        }
        cmd.env_remove("LC_ALL").env_remove("LC_MESSAGES").env("LANG", LOCALE);
        for (key, _) in std::env::vars_os() {
            if key.to_string_lossy().starts_with("XDG_") {
                cmd.env_remove(&key);
            }
        }
        // The child runs from the home folder, so a stray relative path would land there.
        cmd.current_dir(self.path());
        cmd
    }

    /// Runs the binary with `args` and no input.
    pub fn run(&self, args: &[&str]) -> Output {
        self.run_with_stdin(args, None)
    }

    /// Runs the binary with `args`, writing `stdin` (when given) to its standard input.
    pub fn run_with_stdin(&self, args: &[&str], stdin: Option<&[u8]>) -> Output {
        run_command(self.command(args), stdin)
    }

    /// `tinylingo hook <platform>` with `event` on stdin.
    pub fn hook(&self, platform: &str, event: &[u8]) -> Output {
        self.run_with_stdin(&["hook", platform], Some(event))
    }

    /// The Claude Code hook for a prompt, with the fields Claude Code sends.
    pub fn claude_hook(&self, prompt: &str) -> Output {
        self.hook("claude", &claude_event(prompt))
    }

    /// A home whose store holds the seed's four entries, its index built by `record`.
    pub fn seeded() -> Home {
        let home = Home::new();
        home.record_all(&SEED);
        assert!(home.index().exists(), "record should build the index");
        home
    }

    /// `record` of each pair, asserting success.
    pub fn record_all(&self, entries: &[(&str, &str)]) {
        for (term, explanation) in entries {
            self.run(&["record", term, explanation]).ok();
        }
    }

    /// Writes a file in the store by hand (creating the folder), as a person would.
    pub fn write_store_file(&self, name: &str, bytes: &[u8]) {
        fs::create_dir_all(self.store()).expect("create the store folder");
        fs::write(self.store().join(name), bytes).expect("write a store file");
    }

    /// Every file and folder under the home folder, relative to it, sorted.
    pub fn tree(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        walk(self.path(), self.path(), &mut out);
        out.sort();
        out
    }
}

/// The explanation the seed gives `term`.
pub fn seed(term: &str) -> &'static str {
    SEED.iter().find(|(t, _)| *t == term).map(|(_, e)| *e).expect("a seed term")
}

/// Runs a command (from [`Home::command`] or [`Home::command_via`]), writing `stdin` (when
/// given) to its standard input.
pub fn run_command(mut cmd: Command, stdin: Option<&[u8]>) -> Output {
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start the tinylingo binary");
    if let Some(bytes) = stdin {
        let mut pipe = child.stdin.take().expect("piped stdin");
        // The child may exit without reading everything; a broken pipe is not our problem.
        let _ = pipe.write_all(bytes);
    }
    let out = child.wait_with_output().expect("wait for the tinylingo binary");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        stdout_bytes: out.stdout,
    }
}

/// The terms of `match --json`'s exact hits for `message`, in order.
pub fn exact_terms(home: &Home, message: &str) -> Vec<String> {
    let out = home.run(&["match", "--json", message]);
    out.json()["exact"]
        .as_array()
        .expect("an exact array")
        .iter()
        .map(|e| e["term"].as_str().expect("a term").to_string())
        .collect()
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("read a folder") {
        let path = entry.expect("read a folder entry").path();
        out.push(path.strip_prefix(root).expect("under the root").to_path_buf());
        if path.is_dir() {
            walk(root, &path, out);
        }
    }
}

/// A `UserPromptSubmit` event as Claude Code writes it on the hook's stdin.
pub fn claude_event(prompt: &str) -> Vec<u8> {
    serde_json::json!({
        "session_id": "0f4e7a1c-test",
        "transcript_path": "/tmp/transcript.jsonl",
        "cwd": "/tmp",
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    })
    .to_string()
    .into_bytes()
}

/// The block the hook injects for these hits.
pub fn block(hits: &[(&str, &str)]) -> String {
    let mut s = String::from("<system-reminder>\n[TinyLingo]\n");
    for (term, explanation) in hits {
        s.push_str(&format!("- {term}: {explanation}\n"));
    }
    s.push_str("</system-reminder>");
    s
}

/// The whole stdout of `hook claude` for these hits, as a JSON value.
pub fn claude_answer(hits: &[(&str, &str)]) -> serde_json::Value {
    serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": block(hits),
        }
    })
}

/// A file's identity and modification time, to tell whether it was rewritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    pub inode: u64,
    pub mtime_ns: i128,
    pub len: u64,
}

pub fn stamp(path: &Path) -> Stamp {
    let meta = fs::metadata(path).unwrap_or_else(|e| panic!("stat {}: {e}", path.display()));
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&meta);
    #[cfg(not(unix))]
    let inode = 0;
    let mtime = meta.modified().expect("mtime");
    let mtime_ns = match mtime.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    };
    Stamp { inode, mtime_ns, len: meta.len() }
}

/// Reads a file, panicking with its path on failure.
pub fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// Replaces a file's content in place (same inode), as an editor that writes in place does.
pub fn write_in_place(path: &Path, bytes: &[u8]) {
    let mut f = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    f.write_all(bytes).expect("write in place");
    f.sync_all().expect("sync");
}

/// `JSON.stringify(obj, null, 2)` of a flat object of strings, written out independently of the
/// crate (the reference the glossary file is compared with).
pub fn js_pretty(entries: &[(&str, &str)]) -> String {
    if entries.is_empty() {
        return "{}".to_string();
    }
    let items: Vec<String> =
        entries.iter().map(|(k, v)| format!("  {}: {}", js_string(k), js_string(v))).collect();
    format!("{{\n{}\n}}", items.join(",\n"))
}

/// JavaScript's `JSON.stringify` of a string: `"` and `\` escaped, `\b \f \n \r \t` short,
/// other control characters as lower-case `\u00xx`, everything else verbatim.
pub fn js_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
