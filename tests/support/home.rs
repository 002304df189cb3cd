//! A temporary home folder and the real `tinylingo` binary run inside it, for the install tests.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tempfile::TempDir;

pub const BIN: &str = env!("CARGO_BIN_EXE_tinylingo");
pub const MARKER: &str = ".config/tinylingo/scripts/";

/// A term and its explanation, recorded before the hooks are run.
pub const TERM: &str = "智能抠图";
pub const EXPLANATION: &str = "ProjectA 背景移除模块，类名 BGRemover，位于 src/modules/bgremove/";
/// A prompt that mentions [`TERM`], and one that mentions nothing recorded.
pub const HIT: &str = "智能抠图的边缘有锯齿，帮我看看";
pub const MISS: &str = "今天天气不错";

/// The locale every child runs with (`LANG`; `LC_ALL` and `LC_MESSAGES` are removed), so that
/// the `language` setting's `auto` is the same on every machine: the tests expect the Chinese
/// block unless they set another locale.
pub const LOCALE: &str = "zh_CN.UTF-8";

/// Environment variables that would point tinylingo or an assistant elsewhere than `HOME`.
const FOREIGN_ENV: &[&str] = &[
    "TINYLINGO_HOME",
    "XDG_CONFIG_HOME",
    "CODEX_HOME",
    "CLAUDE_CONFIG_DIR",
    "GEMINI_CLI_HOME",
    "COPILOT_HOME",
    "QWEN_HOME",
    "PI_CODING_AGENT_DIR",
];

pub struct Home {
    dir: TempDir,
}

impl Home {
    pub fn new() -> Home {
        Home { dir: tempfile::tempdir().expect("temp dir") }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    pub fn mkdir(&self, rel: &str) {
        fs::create_dir_all(self.path(rel)).unwrap();
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.path(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        fs::symlink_metadata(self.path(rel)).is_ok()
    }

    /// Runs `tinylingo args…` with this home and nothing else pointing elsewhere.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(BIN).args(args).output().expect("run tinylingo")
    }

    /// Runs `tinylingo args…` and returns its stdout, failing the test when it fails.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "tinylingo {args:?}: {}", describe(&out));
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs `tinylingo args…`, which must refuse (exit 2, `message` on stderr) and change
    /// nothing at all. Returns stderr.
    pub fn refused(&self, args: &[&str], message: &str) -> String {
        let before = self.snapshot();
        let out = self.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", describe(&out));
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(err.starts_with("tinylingo: ") && err.contains(message), "{args:?}: {err}");
        assert_eq!(self.snapshot(), before, "{args:?} changed something");
        err
    }

    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env("HOME", self.root());
        for var in FOREIGN_ENV {
            c.env_remove(var);
        }
        c.env_remove("LC_ALL").env_remove("LC_MESSAGES").env("LANG", LOCALE);
        c
    }

    /// Records [`TERM`].
    pub fn record_term(&self) {
        self.ok(&["record", TERM, EXPLANATION]);
    }

    /// Runs a registered command the way an assistant does: the command line through a
    /// shell, the event on stdin. Returns stdout; the hook must exit 0.
    pub fn run_registered(&self, command: &str, event: &str) -> String {
        let mut child = self
            .command("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("run {command}: {e}"));
        // A command that ends without reading its input (the binary gone, `|| true` taking
        // over) closes the pipe first: a broken pipe here is that, not a failure. The exit
        // status and the output below are what the test judges.
        match child.stdin.take().unwrap().write_all(event.as_bytes()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("write the event: {e}"),
            _ => {}
        }
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{command}: {}", describe(&out));
        assert!(out.stderr.is_empty(), "{command} wrote to stderr: {}", describe(&out));
        String::from_utf8(out.stdout).unwrap()
    }

    /// Every file, folder and link under the home folder with its content, to show that a
    /// command changed nothing.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, String> {
        let mut all = BTreeMap::new();
        let mut stack = vec![self.root().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let meta = fs::symlink_metadata(&path).unwrap();
                let rel = path.strip_prefix(self.root()).unwrap().to_path_buf();
                let what = if meta.file_type().is_symlink() {
                    format!("link → {}", fs::read_link(&path).unwrap().display())
                } else if meta.is_dir() {
                    stack.push(path);
                    "folder".to_string()
                } else {
                    String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned()
                };
                all.insert(rel, what);
            }
        }
        all
    }
}

pub fn describe(out: &Output) -> String {
    format!(
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The commands of ours registered under `hooks.<event>` of a settings file, in either shape
/// (Claude Code's groups or Cursor's flat list).
pub fn our_commands(settings: &serde_json::Value, event: &str) -> Vec<String> {
    let list = settings["hooks"][event].as_array().cloned().unwrap_or_default();
    list.iter()
        .flat_map(|item| match item.get("hooks") {
            Some(serde_json::Value::Array(handlers)) => handlers.clone(),
            _ => vec![item.clone()],
        })
        .filter_map(|h| h["command"].as_str().map(str::to_string))
        .filter(|c| c.contains(MARKER))
        .collect()
}

/// The one command of ours registered under `hooks.<event>` in the settings file `rel`.
pub fn registered_command(h: &Home, rel: &str, event: &str) -> String {
    let settings = jsonc(&h.read(rel));
    let commands = our_commands(&settings, event);
    assert_eq!(commands.len(), 1, "{rel}: {commands:?}");
    commands[0].clone()
}

/// A settings file that may hold comments and trailing commas (Gemini CLI's), as a value.
pub fn jsonc(text: &str) -> serde_json::Value {
    let options = jsonc_parser::ParseOptions::default();
    jsonc_parser::cst::CstRootNode::parse(text, &options)
        .ok()
        .and_then(|root| root.value())
        .and_then(|v| v.to_serde_value())
        .unwrap_or_else(|| panic!("not JSON(C): {text}"))
}

/// The hex SHA-256 of `bytes` (Codex CLI's trust hash).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
