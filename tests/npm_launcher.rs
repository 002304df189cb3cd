//! The npm launcher (`npm/tinylingo/bin/tinylingo.js`) run under Node from a package layout as
//! npm installs it: `node_modules/tinylingo` beside `node_modules/tinylingo-<platform>` holding
//! a copy of the built binary. Arguments, stdin, exit codes and signals pass through; `install`
//! through it links the native binary, never the launcher; a dangling link into an npm platform
//! package is repaired; with no platform package it says what to do. Skipped, with a note, where
//! `node` is not installed. (tests/npm/run installs the real tarballs from a registry.)
#![cfg(unix)]

use std::fs;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tinylingo");

/// `process.platform-process.arch`, or None (with a note) when there is no node.
fn node_platform() -> Option<String> {
    let out = Command::new("node").args(["-p", "process.platform + '-' + process.arch"]).output();
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8(o.stdout).unwrap().trim().into()),
        _ => {
            eprintln!("note: node is not installed; the npm launcher tests are skipped");
            None
        }
    }
}

/// A temporary npm layout and a home: `root/node_modules/{tinylingo,tinylingo-<platform>}`.
struct Layout {
    dir: tempfile::TempDir,
    native: PathBuf,
}

impl Layout {
    fn new(platform: &str, with_binary: bool) -> Layout {
        let dir = tempfile::tempdir().unwrap();
        let modules = dir.path().join("node_modules");
        let launcher = modules.join("tinylingo/bin");
        fs::create_dir_all(&launcher).unwrap();
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/tinylingo");
        fs::copy(source.join("package.json"), modules.join("tinylingo/package.json")).unwrap();
        fs::copy(source.join("bin/tinylingo.js"), launcher.join("tinylingo.js")).unwrap();
        let package = modules.join(format!("tinylingo-{platform}"));
        let native = package.join("bin/tinylingo");
        if with_binary {
            fs::create_dir_all(package.join("bin")).unwrap();
            fs::write(
                package.join("package.json"),
                format!(r#"{{"name":"tinylingo-{platform}"}}"#),
            )
            .unwrap();
            fs::copy(BIN, &native).unwrap();
        }
        fs::create_dir_all(dir.path().join("home")).unwrap();
        let native =
            fs::canonicalize(dir.path()).unwrap().join(native.strip_prefix(dir.path()).unwrap());
        Layout { dir, native }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn link(&self) -> PathBuf {
        self.home().join(".config/tinylingo/scripts/tinylingo")
    }

    /// `node …/tinylingo.js ARGS` with this layout's home and no TINYLINGO_HOME.
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new("node");
        c.arg(self.dir.path().join("node_modules/tinylingo/bin/tinylingo.js"))
            .args(args)
            .env("HOME", self.home())
            .env_remove("TINYLINGO_HOME")
            .env_remove("XDG_CONFIG_HOME");
        c
    }

    fn run(&self, args: &[&str], stdin: &str) -> Output {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn arguments_stdin_and_exit_codes_pass_through() {
    let Some(platform) = node_platform() else { return };
    let layout = Layout::new(&platform, true);

    let out = layout.run(&["--version"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("tinylingo "), "{}", text(&out.stdout));

    // The explanation `-` is read from stdin.
    let out = layout.run(&["record", "智能抠图", "-"], "ProjectA 背景移除模块\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = layout.run(&["search", "智能抠图"], "");
    assert!(text(&out.stdout).contains("ProjectA 背景移除模块"), "{}", text(&out.stdout));

    // The binary's own exit codes: 1 for a search that finds nothing, 2 for a usage error.
    assert_eq!(layout.run(&["search", "nothing-like-it"], "").status.code(), Some(1));
    let out = layout.run(&["no-such-command"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no-such-command"), "{}", text(&out.stderr));
}

// Linux: the test finds the launcher's child in /proc.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_to_the_launcher_reaches_the_binary_and_ends_both_alike() {
    let Some(platform) = node_platform() else { return };
    let layout = Layout::new(&platform, true);
    // `mcp` serves stdin until it closes: it runs until the signal.
    let mut child = layout
        .command(&["mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the binary runs under the launcher (a child process of node's).
    let start = Instant::now();
    let children = format!("/proc/{}/task/{}/children", child.id(), child.id());
    while fs::read_to_string(&children).map_or(true, |c| c.trim().is_empty()) {
        assert!(start.elapsed() < Duration::from_secs(10), "the binary never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let status = child.wait().unwrap();
    // The launcher re-raises the signal its child died of, once the child has exited.
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

#[test]
fn install_through_the_launcher_links_the_native_binary_and_a_moved_one_is_relinked() {
    let Some(platform) = node_platform() else { return };
    let layout = Layout::new(&platform, true);
    let out = layout.run(&["install", "claude"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read_link(layout.link()).unwrap(), layout.native);

    // An install whose npm prefix went away: the launcher points the link at its binary again.
    let gone =
        layout.dir.path().join(format!("old/node_modules/tinylingo-{platform}/bin/tinylingo"));
    fs::remove_file(layout.link()).unwrap();
    std::os::unix::fs::symlink(&gone, layout.link()).unwrap();
    let out = layout.run(&["--version"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read_link(layout.link()).unwrap(), layout.native);
    assert!(text(&out.stderr).contains("now points at"), "{}", text(&out.stderr));

    // A dangling link to a binary npm did not install (a cargo build) is not ours to change.
    let cargo = layout.dir.path().join("cargo/bin/tinylingo");
    fs::remove_file(layout.link()).unwrap();
    std::os::unix::fs::symlink(&cargo, layout.link()).unwrap();
    assert!(layout.run(&["--version"], "").status.success());
    assert_eq!(fs::read_link(layout.link()).unwrap(), cargo);
}

#[test]
fn without_the_platform_package_it_says_what_exists_and_how_to_build() {
    let Some(platform) = node_platform() else { return };
    let layout = Layout::new(&platform, false);
    let out = layout.run(&["--version"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("no binary for this platform ({platform})")), "{err}");
    assert!(err.contains("cargo install --locked --path ."), "{err}");
    assert!(
        err.contains(&format!("tinylingo-{platform}")) || err.contains("Prebuilt binaries exist"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
