//! Hostile input (issue 6), with the real binary in a temporary HOME. Each test is one row of
//! the "Failure behaviour" table in `docs/failure-behaviour.md` and is named after it: the
//! input, what the user sees, and what happens to their data.
//!
//! The hook's side of every row is the same rule: exit 0, nothing on stdout or stderr (Cursor
//! gets `{"continue":true}`), no file changed; [`assert_hook_silent`] checks it for every
//! platform.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{exact_terms, read, run_command, stamp, Home, SEED};
use serde_json::{json, Value};
use tinylingo::platform::{OutputShape, Platform};

/// Every assistant the CLI accepts: a new one is covered here without an edit.
fn platforms() -> impl Iterator<Item = &'static str> {
    Platform::ALL.into_iter().map(Platform::name)
}

/// One assistant of each output shape (the first in [`Platform::ALL`]), for the tests whose cost
/// is the input's size: what differs between assistants of one shape is only which fields they
/// read, which every other test here covers for all of them.
fn one_per_shape() -> impl Iterator<Item = &'static str> {
    let mut seen: Vec<OutputShape> = Vec::new();
    platforms().filter(move |&p| {
        let fresh = !seen.contains(&shape(p));
        if fresh {
            seen.push(shape(p));
        }
        fresh
    })
}

fn shape(platform: &str) -> OutputShape {
    Platform::from_name(platform).expect("an assistant").spec().output
}

/// What the hook prints when it adds nothing: Cursor always gets `{"continue":true}`.
fn silence(platform: &str) -> &'static str {
    match shape(platform) {
        OutputShape::Cursor => r#"{"continue":true}"#,
        _ => "",
    }
}

/// The event each platform sends for `prompt` (the plugins' is what our plugin writes): the
/// prompt, the session under the platform's first session field, and the event's name where the
/// platform names it.
fn event(platform: &str, prompt: &str) -> Vec<u8> {
    let spec = Platform::from_name(platform).expect("an assistant").spec();
    let mut v = json!({ "prompt": prompt });
    v[spec.session_fields[0]] = json!("s-1");
    match spec.output {
        OutputShape::HookSpecific { event_name, .. } => {
            v["hook_event_name"] = json!(event_name);
            v["cwd"] = json!("/tmp");
            v["transcript_path"] = json!("/tmp/t.jsonl");
        }
        OutputShape::Cursor => {
            v["hook_event_name"] = json!("beforeSubmitPrompt");
            v["workspace_roots"] = json!(["/w"]);
        }
        OutputShape::TopLevel | OutputShape::Text => {}
    }
    v.to_string().into_bytes()
}

/// The block a platform's answer carries, checked for shape: valid JSON where the platform
/// reads JSON, exactly one opening and one closing tag, and nothing else on stdout or stderr.
#[track_caller]
fn block_of(platform: &str, out: &common::Output) -> Option<String> {
    assert_eq!(out.code, 0, "{platform}: exit code");
    assert_eq!(out.stderr, "", "{platform}: stderr");
    let text = |v: &Value| v.as_str().expect("text").to_string();
    let (block, tagged) = match shape(platform) {
        OutputShape::Text => ((!out.stdout.is_empty()).then(|| out.stdout.clone()), true),
        OutputShape::Cursor => {
            let v = out.json();
            assert_eq!(v["continue"], json!(true), "{}", out.stdout);
            (v.get("additional_context").map(text), true)
        }
        OutputShape::TopLevel => {
            ((!out.stdout.is_empty()).then(|| text(&out.json()["additionalContext"])), false)
        }
        OutputShape::HookSpecific { tags, .. } => (
            (!out.stdout.is_empty())
                .then(|| text(&out.json()["hookSpecificOutput"]["additionalContext"])),
            tags,
        ),
    };
    let block = block?;
    // Gemini CLI, Qwen Code and Copilot get the block without our tags (they wrap and escape
    // the context themselves); wrapped here, the checks below are the same for every platform.
    let block = if tagged {
        block
    } else {
        let tags = block.contains("<system-reminder>") || block.contains("</system-reminder>");
        assert!(!tags, "{platform}: {block}");
        format!("<system-reminder>\n{block}\n</system-reminder>")
    };
    assert!(block.starts_with("<system-reminder>\n[TinyLingo]\n"), "{platform}: {block}");
    assert!(block.ends_with("\n</system-reminder>"), "{platform}: {block}");
    assert_eq!(block.matches("<system-reminder>").count(), 1, "{platform}: {block}");
    assert_eq!(block.matches("</system-reminder>").count(), 1, "{platform}: {block}");
    Some(block)
}

/// Every platform's hook, for `prompt`: exit 0, no block, stderr empty, Cursor's
/// `{"continue":true}` and nothing else; and no file in the home changed.
#[track_caller]
fn assert_hook_silent(home: &Home, prompt: &str) {
    let before = snapshot(home.path());
    for p in platforms() {
        let out = home.hook(p, &event(p, prompt));
        assert_eq!(block_of(p, &out), None, "{p} answered");
        assert_eq!(out.stdout, silence(p), "{p}: stdout");
    }
    assert_eq!(snapshot(home.path()), before, "the hook changed files");
}

/// Every file under `dir` with its content.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries {
            let path = e.unwrap().path();
            if path.is_dir() {
                out.extend(snapshot(&path));
            } else {
                out.push((path.display().to_string(), fs::read(&path).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

/// Every command that reads the glossary refuses the file (exit 2, naming it), and neither
/// they nor the hook change it; `record` does not overwrite it.
#[track_caller]
fn assert_glossary_refused(bytes: &[u8]) {
    let home = Home::seeded();
    fs::write(home.glossary(), bytes).unwrap();
    let before = stamp(&home.glossary());
    for args in [&["list"][..], &["record", "新词", "x"], &["remove", "提交"], &["match", "提交"]]
    {
        let out = home.run(args);
        out.expect_code(2);
        assert!(out.stderr.contains("glossary.json"), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains("hint:"), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "");
    }
    // The index still describes the old glossary: the hook keeps answering from it (the
    // last good one), and never replaces it with a build of the broken file.
    let index = (read(&home.index()), stamp(&home.index()));
    for p in platforms() {
        let out = home.hook(p, &event(p, "智能抠图 提交"));
        let block = block_of(p, &out).unwrap_or_else(|| panic!("{p}: no block: {}", out.stdout));
        assert!(block.contains(common::seed("提交")), "{p}: {block}");
    }
    assert_eq!((read(&home.index()), stamp(&home.index())), index, "the index was replaced");
    assert_eq!(read(&home.glossary()), bytes);
    assert_eq!(stamp(&home.glossary()), before);
}

#[test]
fn glossary_json_invalid() {
    assert_glossary_refused(b"{\n  \"a\": \"b\",\n  \"c\" \"d\"\n}");
    assert_glossary_refused(b"{\"a\": \"unterminated");
}

#[test]
fn glossary_json_not_an_object() {
    for bytes in [&b"[1, 2]"[..], b"\"text\"", b"null", b"42", b"true"] {
        assert_glossary_refused(bytes);
    }
}

#[test]
fn glossary_json_non_string_values() {
    for bytes in
        [&br#"{"a": 1}"#[..], br#"{"a": null}"#, br#"{"a": {"b": "c"}}"#, br#"{"a": ["x"]}"#]
    {
        assert_glossary_refused(bytes);
    }
}

#[test]
fn glossary_json_not_utf8() {
    assert_glossary_refused(b"{\"a\": \"\xff\xfe\"}");
}

#[test]
fn glossary_json_empty_file() {
    let home = Home::new();
    home.write_store_file("glossary.json", b"");
    let out = home.run(&["list"]);
    out.ok();
    // The first hook builds the missing index (of nothing); after that, silence as usual.
    home.claude_hook("anything").ok();
    assert_hook_silent(&home, "anything");
    assert_eq!(read(&home.glossary()), b"");
    // `--force`: a one-char ASCII term is refused without it.
    home.run(&["record", "--force", "a", "b"]).ok();
    assert_eq!(exact_terms(&home, "a"), ["a"]);
}

#[test]
fn config_json_invalid() {
    let home = Home::seeded();
    let broken = b"{\n  \"smart\": {\"enabled\": tru\n}";
    fs::write(home.config(), broken).unwrap();
    // Commands that only need the settings warn, name the file, and go on with the defaults.
    let out = home.run(&["record", "新词", "新的解释"]);
    out.ok();
    assert!(out.stderr.contains("warning") && out.stderr.contains("config.json"), "{}", out.stderr);
    assert!(out.stderr.contains("default"), "{}", out.stderr);
    let out = home.run(&["match", "新词"]);
    out.ok();
    assert!(out.stderr.contains("config.json"), "{}", out.stderr);
    // `config` refuses to show or rewrite what it cannot read.
    for args in [&["config"][..], &["config", "debug", "true"], &["config", "smart.enabled"]] {
        let out = home.run(args);
        out.expect_code(2);
        assert!(out.stderr.contains("config.json line 3"), "{args:?}: {}", out.stderr);
    }
    assert_eq!(read(&home.config()), broken);
    // The hook answers with the defaults.
    let out = home.claude_hook("新词");
    assert!(block_of("claude", &out).unwrap().contains("新的解释"));
    assert_eq!(read(&home.config()), broken);
}

#[test]
fn config_json_not_an_object() {
    let home = Home::seeded();
    fs::write(home.config(), b"[\"debug\"]").unwrap();
    let out = home.run(&["record", "新词", "x"]);
    out.ok();
    assert!(out.stderr.contains("config.json"), "{}", out.stderr);
    home.run(&["config", "debug", "true"]).expect_code(2);
    assert_eq!(read(&home.config()), b"[\"debug\"]");
    assert!(block_of("claude", &home.claude_hook("新词")).is_some());
}

#[test]
fn config_json_out_of_range_values() {
    let home = Home::seeded();
    let text = br#"{"debug": "yes", "smart": {"fuzzyThreshold": 5, "timeoutMs": -1},
        "inject": {"maxChars": 5, "repeatAfter": 0}, "mine": {"kept": true}}"#;
    fs::write(home.config(), text).unwrap();
    let out = home.run(&["record", "新词", "x"]);
    out.ok();
    for key in ["debug", "smart.fuzzyThreshold", "smart.timeoutMs", "inject.maxChars"] {
        assert!(out.stderr.contains(&format!("{key} must be")), "{key}: {}", out.stderr);
    }
    assert!(out.stderr.contains("using the default"), "{}", out.stderr);
    // maxChars 5 would leave no room for any block: the default (4000) is in force.
    let block = block_of("claude", &home.claude_hook("智能抠图 提交 新词")).unwrap();
    assert!(block.contains("- 新词: x"), "{block}");
    assert!(!home.store().join("debug.log").exists(), "debug \"yes\" was taken as on");
    // Setting one key keeps the others as they are, unknown ones included.
    home.run(&["config", "inject.maxChars", "500"]).ok();
    let v: Value = serde_json::from_slice(&read(&home.config())).unwrap();
    assert_eq!(v["inject"]["maxChars"], json!(500));
    assert_eq!(v["debug"], json!("yes"));
    assert_eq!(v["mine"], json!({"kept": true}));
}

#[test]
fn config_folder_missing() {
    let home = Home::new();
    let out = home.run(&["list"]);
    out.ok();
    assert_eq!(out.stdout, "");
    home.run(&["match", "x"]).expect_code(1);
    home.run(&["remove", "x"]).expect_code(1);
    assert_hook_silent(&home, "anything");
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new(), "a read created files");
    // `--force`: a one-char ASCII term is refused without it.
    home.run(&["record", "--force", "a", "b"]).ok();
    assert_eq!(exact_terms(&home, "a"), ["a"]);
}

/// Whether this process runs as root (permissions do not stop root without dropping its
/// capabilities).
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::NamedTempFile::new().unwrap();
    probe.as_file().metadata().unwrap().uid() == 0
}

/// Runs the binary with `args` so that file permissions apply to it: as root, through
/// `setpriv` without the capabilities that bypass them.
fn run_unprivileged(home: &Home, args: &[&str], stdin: Option<&[u8]>) -> common::Output {
    let wrapper: &[&str] = if running_as_root() {
        &["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
    } else {
        &[]
    };
    run_command(home.command_via(wrapper, args), stdin)
}

/// Replaces whatever is at `path` with a FIFO.
fn make_fifo(path: &Path) {
    let _ = fs::remove_file(path);
    let status = Command::new("mkfifo").arg(path).status().expect("run mkfifo");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// `args` with `stdin`, killed after 20 s (exit 124), so that a binary stuck opening a FIFO
/// fails the test instead of hanging it.
fn run_watched(home: &Home, args: &[&str], stdin: Option<&[u8]>) -> common::Output {
    run_command(home.command_via(&["timeout", "20"], args), stdin)
}

/// Whether `path` is a FIFO.
fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

#[test]
fn fifo_in_place_of_a_store_file() {
    let prompt = "智能抠图 提交";
    let answers = |home: &Home, platform: &str| {
        let out = run_watched(home, &["hook", platform], Some(&event(platform, prompt)));
        block_of(platform, &out).is_some_and(|b| b.contains("不要执行 git push"))
    };

    // The index: the hook answers from glossary.json and writes a real index for the next one.
    let home = Home::seeded();
    make_fifo(&home.index());
    for p in platforms() {
        assert!(answers(&home, p), "{p}: no answer with a FIFO index");
    }
    assert!(fs::metadata(home.index()).unwrap().is_file(), "the index was not rewritten");

    // config.json: the default settings, with the usual warning at the command line.
    let home = Home::seeded();
    make_fifo(&home.store().join("config.json"));
    assert!(answers(&home, "claude"));
    let out = run_watched(&home, &["match", "提交"], None);
    out.expect_code(0);
    assert!(out.stderr.contains("config.json: not a regular file"), "{}", out.stderr);
    assert!(is_fifo(&home.store().join("config.json")));

    // glossary.json: commands refuse it and say what to do; the hook stays silent.
    let home = Home::seeded();
    make_fifo(&home.glossary());
    for p in platforms() {
        let out = run_watched(&home, &["hook", p], Some(&event(p, prompt)));
        assert_eq!(block_of(p, &out), None, "{p} answered");
    }
    for args in [&["list"][..], &["record", "新词", "x"], &["remove", "提交"], &["match", "提交"]]
    {
        let out = run_watched(&home, args, None);
        out.expect_code(2);
        assert!(out.stderr.contains("glossary.json: not a regular file"), "{}", out.stderr);
        assert!(out.stderr.contains("hint: tinylingo reads and writes only regular files"));
    }
    assert!(is_fifo(&home.glossary()), "the FIFO was replaced");

    // The debug log and a session's state: the hook answers without them.
    let home = Home::seeded();
    home.run(&["config", "debug", "true"]).ok();
    home.run(&["config", "inject.dedupe", "true"]).ok();
    make_fifo(&home.store().join("debug.log"));
    assert!(answers(&home, "claude"));
    let sessions: Vec<_> = fs::read_dir(home.store().join("sessions"))
        .expect("a sessions folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n.len() == 32))
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    make_fifo(&sessions[0]);
    assert!(answers(&home, "claude"), "no answer with a FIFO session file");
}

#[test]
fn config_folder_read_only() {
    use std::os::unix::fs::PermissionsExt;
    let home = Home::seeded();
    let store = home.store();
    let before = snapshot(&store);
    fs::set_permissions(&store, fs::Permissions::from_mode(0o555)).unwrap();
    let restore = || fs::set_permissions(&store, fs::Permissions::from_mode(0o755)).unwrap();

    let out = run_unprivileged(&home, &["record", "新词", "x"], None);
    let config = run_unprivileged(&home, &["config", "debug", "true"], None);
    let remove = run_unprivileged(&home, &["remove", "提交"], None);
    // Reading works: list, match, and the hook from the mapped index.
    let list = run_unprivileged(&home, &["list"], None);
    let hook = run_unprivileged(&home, &["hook", "claude"], Some(&event("claude", "提交")));
    // A hand edit makes the index stale; the hook answers from the JSON files and cannot
    // rewrite the index, which is fine.
    restore();
    let mut edited: Vec<(String, String)> =
        SEED.iter().map(|(t, e)| (t.to_string(), e.to_string())).collect();
    edited.push(("手改".into(), "hand edit".into()));
    let pairs: Vec<(&str, &str)> = edited.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    fs::write(home.glossary(), common::js_pretty(&pairs)).unwrap();
    let after_edit = snapshot(&store);
    fs::set_permissions(&store, fs::Permissions::from_mode(0o555)).unwrap();
    let stale = run_unprivileged(&home, &["hook", "claude"], Some(&event("claude", "手改")));
    restore();

    for (what, out) in [("record", &out), ("config", &config), ("remove", &remove)] {
        out.expect_code(2);
        assert!(out.stderr.contains("Permission denied"), "{what}: {}", out.stderr);
        assert!(out.stderr.contains("hint: check the folder's permissions"), "{}", out.stderr);
    }
    list.ok();
    assert!(list.stdout.contains("提交"), "{}", list.stdout);
    assert!(block_of("claude", &hook).unwrap().contains("- 提交: "));
    assert!(block_of("claude", &stale).unwrap().contains("- 手改: hand edit"));
    assert_eq!(snapshot(&store), after_edit, "something was written in a read-only folder");
    assert_ne!(before, after_edit);
}

/// Runs the binary with a file-size limit of `kib` KiB and SIGXFSZ ignored, so a write past the
/// limit fails with EFBIG ("File too large") the way a full disk fails with ENOSPC.
fn run_with_fsize_limit(home: &Home, kib: u64, args: &[&str]) -> common::Output {
    let script = format!("trap '' XFSZ; ulimit -f {}; exec \"$0\" \"$@\"", kib * 2);
    run_command(home.command_via(&["sh", "-c", &script], args), None)
}

fn leftover_temp_files(store: &Path) -> Vec<String> {
    fs::read_dir(store)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn disk_full() {
    // glossary.json itself cannot be written: the old one survives whole.
    let home = Home::seeded();
    let before = read(&home.glossary());
    let index_before = read(&home.index());
    let big = "很长的解释".repeat(4000); // 60 KB
    let out = run_with_fsize_limit(&home, 32, &["record", "大词", &big]);
    out.expect_code(2);
    assert!(out.stderr.contains("cannot write"), "{}", out.stderr);
    assert!(out.stderr.contains("glossary.json"), "{}", out.stderr);
    assert!(out.stderr.contains("File too large"), "{}", out.stderr);
    assert_eq!(read(&home.glossary()), before);
    assert_eq!(read(&home.index()), index_before);
    assert_eq!(leftover_temp_files(&home.store()), Vec::<String>::new());
    assert_eq!(exact_terms(&home, "提交 大词"), ["提交"]);

    // glossary.json fits but the index (larger) does not: the entry is saved and reported as
    // an error; the hook answers from glossary.json until an index can be written.
    let home = Home::seeded();
    let mid = "解释".repeat(2200); // 13 KB: glossary ~14 KB, index over 16 KB
    let out = run_with_fsize_limit(&home, 16, &["record", "中词", &mid]);
    out.expect_code(2);
    assert!(out.stderr.contains("glossary.index"), "{}", out.stderr);
    assert!(out.stderr.contains("File too large"), "{}", out.stderr);
    assert_eq!(leftover_temp_files(&home.store()), Vec::<String>::new());
    let block = block_of("claude", &home.claude_hook("中词 提交")).unwrap();
    assert!(block.contains("- 中词: 解释解释"), "{block}");
    assert!(block.contains("- 提交: "), "{block}");
    assert_eq!(exact_terms(&home, "中词 提交"), ["提交", "中词"]);
}

/// A really full file system (a small tmpfs), where mounting is allowed (root); elsewhere the
/// test says so and passes, `disk_full` covering the same path with a file-size limit.
#[test]
fn disk_full_on_a_full_tmpfs() {
    let home = Home::new();
    let mnt = home.path().join(".config");
    fs::create_dir_all(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=128k", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("disk_full_on_a_full_tmpfs: cannot mount a tmpfs here; covered by disk_full");
        return;
    }
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = Command::new("umount").arg(self.0).status();
        }
    }
    let _guard = Unmount(&mnt);
    home.record_all(&SEED);
    // Fill the rest of the file system.
    let filler = mnt.join("filler");
    let mut f = fs::File::create(&filler).unwrap();
    let chunk = vec![b'x'; 4096];
    while std::io::Write::write_all(&mut f, &chunk).is_ok() {}
    drop(f);
    let before = read(&home.glossary());
    let out = home.run(&["record", "新词", &"满".repeat(2000)]);
    out.expect_code(2);
    assert!(out.stderr.contains("No space left on device"), "{}", out.stderr);
    assert_eq!(read(&home.glossary()), before);
    assert_eq!(leftover_temp_files(&home.store()), Vec::<String>::new());
    assert!(block_of("claude", &home.claude_hook("提交")).unwrap().contains("- 提交: "));
    // Space freed: the next record works.
    fs::remove_file(&filler).unwrap();
    home.run(&["record", "新词", "x"]).ok();
    assert_eq!(exact_terms(&home, "新词"), ["新词"]);
}

#[test]
fn multi_megabyte_prompt() {
    let home = Home::seeded();
    // 6 MB of text with hits at the start, in the middle and at the very end.
    let filler =
        "这是一段很长的提示词内容，没有任何术语。lorem ipsum dolor sit amet. ".repeat(60_000);
    let prompt = format!("智能抠图 {filler} 联调 {filler} 依赖更新");
    assert!(prompt.len() > 6_000_000);
    for p in one_per_shape() {
        let block = block_of(p, &home.hook(p, &event(p, &prompt))).expect("a block");
        let terms: Vec<&str> =
            block.lines().filter_map(|l| l.strip_prefix("- ")?.split(':').next()).collect();
        assert_eq!(terms, ["智能抠图", "联调", "依赖更新"], "{p}");
    }
    // The same size without a hit: silence.
    assert_hook_silent(&home, &filler);
}

#[test]
fn non_utf8_stdin() {
    let home = Home::seeded();
    let before = snapshot(home.path());
    let mut inputs: Vec<Vec<u8>> = vec![
        b"\xff\xfe\x00garbage".to_vec(),
        b"{\"prompt\": \"\xe6\x8f\x90\xff\"}".to_vec(),
        r#"{"prompt": "lone surrogate \ud800 提交"}"#.as_bytes().to_vec(),
        b"".to_vec(),
        b"{\"prompt\": 42}".to_vec(),
        b"[\"prompt\"]".to_vec(),
    ];
    inputs.push(vec![0u8; 100_000]);
    for input in &inputs {
        for p in platforms() {
            let out = home.hook(p, input);
            assert_eq!(block_of(p, &out), None, "{p}: answered {input:?}");
            assert_eq!(out.stdout, silence(p), "{p}");
        }
    }
    assert_eq!(snapshot(home.path()), before);
}

#[test]
fn special_characters_in_terms_and_explanations() {
    let home = Home::new();
    let entries: &[(&str, &str)] = &[
        ("say \"hi\"", "a \"quoted\" explanation"),
        ("C:\\path\\", "back\\slash \\n is two chars, \\u0041 too"),
        // A term cannot hold a line break (`record` refuses it); an explanation can.
        ("multi", "line one\nline two\r\nline three\u{2028}four"),
        ("🦀 crab", "emoji 🦀🎉, ZWJ 👩‍💻, flags 🇨🇳"),
        ("</system-reminder>", "closes </system-reminder> and opens <system-reminder> again"),
        ("tag", "< /System_Reminder > and <SYSTEM REMINDER> and <system-reminder\n>"),
        ("ctl", "bell \u{7} esc \u{1b}[31m red, tab\tend"),
    ];
    for (t, e) in entries {
        home.run(&["record", t, e]).ok();
    }
    // The glossary keeps every char as given.
    let listed = home.run(&["export"]).json();
    for (t, e) in entries {
        assert_eq!(listed[*t], json!(e), "{t:?}");
    }
    let prompt: String = entries.iter().map(|(t, _)| *t).collect::<Vec<_>>().join(" … ");
    for p in platforms() {
        let block = block_of(p, &home.hook(p, &event(p, &prompt))).expect("a block");
        // One line per entry, each a `- ` line, and every entry there.
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines.len(), entries.len() + 3, "{p}: {block}");
        assert!(lines[2..lines.len() - 1].iter().all(|l| l.starts_with("- ")), "{p}: {block}");
        assert!(block.contains("- say \"hi\": a \"quoted\" explanation"), "{p}: {block}");
        assert!(block.contains("- C:\\path\\: back\\slash \\n is two chars"), "{p}: {block}");
        assert!(block.contains("- multi: line one⏎line two⏎line three⏎four"), "{p}");
        assert!(block.contains("- 🦀 crab: emoji 🦀🎉, ZWJ 👩‍💻, flags 🇨🇳"), "{p}");
        assert!(block.contains("- ‹/system-reminder>: closes ‹/system-reminder> and opens"), "{p}");
    }
}

#[test]
fn home_not_set() {
    let home = Home::seeded();
    for args in [&["list"][..], &["record", "a", "b"]] {
        let out = home.command(args).env_remove("HOME").output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("HOME is not set") && stderr.contains("TINYLINGO_HOME"),
            "{stderr}"
        );
    }
    for p in platforms() {
        let mut cmd = home.command(&["hook", p]);
        cmd.env_remove("HOME").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&event(p, "提交")).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(out.stderr, b"");
        assert_eq!(out.stdout, silence(p).as_bytes(), "{p}");
    }
}

#[test]
fn glossary_json_is_a_symbolic_link() {
    // A dotfiles setup: the store's files are links into a repository.
    let home = Home::new();
    let dotfiles = home.path().join("dotfiles");
    fs::create_dir_all(&dotfiles).unwrap();
    fs::create_dir_all(home.store()).unwrap();
    fs::write(dotfiles.join("glossary.json"), common::js_pretty(&SEED)).unwrap();
    fs::write(dotfiles.join("config.json"), "{\"mine\": 1}\n").unwrap();
    for name in ["glossary.json", "config.json"] {
        std::os::unix::fs::symlink(dotfiles.join(name), home.store().join(name)).unwrap();
    }
    home.run(&["record", "新词", "x"]).ok();
    home.run(&["config", "debug", "true"]).ok();
    for name in ["glossary.json", "config.json"] {
        let meta = fs::symlink_metadata(home.store().join(name)).unwrap();
        assert!(meta.file_type().is_symlink(), "{name} is no longer a link");
    }
    let mut entries = SEED.to_vec();
    entries.push(("新词", "x"));
    assert_eq!(read(&dotfiles.join("glossary.json")), common::js_pretty(&entries).as_bytes());
    let config: Value = serde_json::from_slice(&read(&dotfiles.join("config.json"))).unwrap();
    assert_eq!(config, json!({"mine": 1, "debug": true}));
    assert!(block_of("claude", &home.claude_hook("新词")).unwrap().contains("- 新词: x"));
    // An edit in the repository is seen by the next prompt.
    entries.push(("仓库", "edited in dotfiles"));
    fs::write(dotfiles.join("glossary.json"), common::js_pretty(&entries)).unwrap();
    let block = block_of("claude", &home.claude_hook("仓库")).unwrap();
    assert!(block.contains("- 仓库: edited in dotfiles"), "{block}");
    assert_eq!(leftover_temp_files(&dotfiles), Vec::<String>::new());
}

/// The number a key holds in a JSON text, read with the standard library's exact float parser
/// (independent of the JSON parser under test).
fn number_in(text: &str, key: &str) -> f64 {
    let at = text.find(&format!("\"{key}\": ")).unwrap_or_else(|| panic!("{key} in {text}"));
    let rest = &text[at + key.len() + 4..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c))).unwrap();
    rest[..end].parse().unwrap()
}

#[test]
fn settings_file_numbers_survive_install_and_uninstall() {
    // Numbers another tool (or the user) wrote: an integer beyond 64 bits, a subnormal edge,
    // more digits than a double holds, and the shortest form of a large double, which a
    // parser that rounds imprecisely reads one unit off (and each rewrite would drift).
    let numbers = [
        ("big", "1111111111111111111111111"),
        ("tiny", "2.2250738585072011e-308"),
        ("pi", "3.141592653589793238462643383279"),
        ("exp", "1.1111111111111111e24"),
        ("max", "1.7976931348623157e308"),
    ];
    let home = Home::new();
    let dir = home.path().join(".claude");
    fs::create_dir_all(&dir).unwrap();
    let fields: Vec<String> = numbers.iter().map(|(k, v)| format!("  \"{k}\": {v}")).collect();
    let file = dir.join("settings.json");
    fs::write(&file, format!("{{\n{},\n  \"model\": \"x\"\n}}\n", fields.join(",\n"))).unwrap();
    for round in 0..3 {
        home.run(&["install", "claude"]).ok();
        home.run(&["uninstall", "claude"]).ok();
        let text = String::from_utf8(read(&file)).unwrap();
        for (key, literal) in numbers {
            let want: f64 = literal.parse().unwrap();
            assert_eq!(number_in(&text, key), want, "round {round}: {key} changed: {text}");
        }
    }
}
