//! Issue #37, point 3: install adds the review command (`/tinylingo-review`) to every assistant
//! that has custom commands, prompts or skills, in each one's own place and format; a file of
//! the same name that tinylingo did not write, or one edited since, is never overwritten or
//! deleted; uninstall gives the folders back byte for byte. The real binary in a temporary home.
#[path = "support/home.rs"]
mod home;

use home::{sha256_hex, Home};

/// Each assistant's review command file, and a line its format puts before the text.
const FILES: &[(&str, &str, &str)] = &[
    ("claude", ".claude/commands/tinylingo-review.md", "---\ndescription: "),
    ("opencode", ".config/opencode/commands/tinylingo-review.md", "---\ndescription: "),
    ("codex", ".codex/skills/tinylingo-review/SKILL.md", "---\nname: tinylingo-review\n"),
    ("gemini", ".gemini/commands/tinylingo-review.toml", "description = \""),
    ("copilot", ".copilot/skills/tinylingo-review/SKILL.md", "---\nname: tinylingo-review\n"),
    ("qwen", ".qwen/commands/tinylingo-review.md", "---\ndescription: "),
    ("pi", ".pi/agent/prompts/tinylingo-review.md", "---\ndescription: "),
    ("kilo", ".config/kilo/command/tinylingo-review.md", "---\ndescription: "),
];

/// The text every file carries (src/platform/review.md's first line).
const TEXT: &str = "Review the glossary proposals tinylingo found in the user's past sessions.";

const RECORD: &str = ".config/tinylingo/installed.json";

fn names() -> Vec<&'static str> {
    FILES.iter().map(|f| f.0).collect()
}

fn install_all(h: &Home) -> String {
    let mut args = vec!["install"];
    args.extend(names());
    h.ok(&args)
}

#[test]
fn install_writes_each_assistants_command_and_a_reinstall_changes_nothing() {
    let h = Home::new();
    let out = install_all(&h);
    for &(name, rel, head) in FILES {
        let text = h.read(rel);
        assert!(text.starts_with(head), "{name}: {text}");
        assert!(text.contains(TEXT), "{name}: {text}");
        assert!(out.contains(&format!("~/{rel}: review command")), "{name}: {out}");
    }
    // Gemini CLI's file is TOML whose prompt is the text.
    let toml: toml_edit::DocumentMut = h.read(FILES[3].1).parse().unwrap();
    assert!(toml["prompt"].as_str().unwrap().starts_with(TEXT));
    // Cursor has none (no client to check its format against).
    h.ok(&["install", "cursor"]);
    assert!(!h.exists(".cursor/commands"));

    let before = h.snapshot();
    let again = install_all(&h);
    assert_eq!(h.snapshot(), before, "a reinstall changed something");
    assert!(again.contains("review command (/tinylingo-review) already in place"), "{again}");
}

#[test]
fn uninstall_gives_the_folders_back_byte_for_byte() {
    let h = Home::new();
    // Commands of the user's own beside ours, in folders that were there, and folders that
    // were not.
    h.write(".claude/commands/deploy.md", "---\ndescription: mine\n---\nDeploy.\r\n");
    h.write(".gemini/commands/mine.toml", "prompt = \"x\"\n");
    h.mkdir(".codex/skills");
    h.mkdir(".pi/agent");
    let ours = |p: &std::path::Path| p.starts_with(".config/tinylingo") || p == ".config";
    let mut before = h.snapshot();
    before.retain(|p, _| !ours(p));
    install_all(&h);
    assert!(h.exists(FILES[0].1) && h.exists(FILES[2].1));
    h.ok(&["uninstall"]);
    let mut after = h.snapshot();
    after.retain(|p, _| !ours(p));
    assert_eq!(after, before);
    for &(name, rel, _) in FILES {
        assert!(!h.exists(rel), "{name}: {rel} left behind");
    }
    assert!(!h.exists(".codex/skills/tinylingo-review") && h.exists(".codex/skills"));
    assert!(!h.exists(".qwen/commands") && !h.exists(".config/kilo/command"));
}

#[test]
fn a_file_of_the_users_with_the_same_name_is_never_overwritten_or_removed() {
    let h = Home::new();
    let rel = FILES[0].1;
    let mine = "---\ndescription: my own review\n---\nReview my PRs.\n";
    h.write(rel, mine);
    let out = install_all(&h);
    assert_eq!(h.read(rel), mine);
    assert!(out.contains("tinylingo-review.md is not tinylingo's: left as it is"), "{out}");
    // The others are installed all the same.
    assert!(h.read(FILES[1].1).contains(TEXT));
    let out = h.ok(&["uninstall"]);
    assert_eq!(h.read(rel), mine, "{out}");
}

#[test]
fn a_link_where_the_command_goes_is_left_alone() {
    // A dotfiles setup links the file from elsewhere: even with our text in it, it is the
    // user's, and uninstall must not delete the link.
    let h = Home::new();
    h.ok(&["install", "claude"]);
    let rel = FILES[0].1;
    let ours = h.read(rel);
    h.write("dotfiles/review.md", &ours);
    std::fs::remove_file(h.path(rel)).unwrap();
    std::os::unix::fs::symlink(h.path("dotfiles/review.md"), h.path(rel)).unwrap();
    let out = h.ok(&["uninstall"]);
    assert!(std::fs::symlink_metadata(h.path(rel)).unwrap().file_type().is_symlink(), "{out}");
    assert_eq!(h.read("dotfiles/review.md"), ours);
}

#[test]
fn an_edited_command_is_kept_and_an_earlier_versions_is_replaced() {
    let h = Home::new();
    h.ok(&["install", "claude", "gemini"]);
    // The user edits Claude Code's: no install or uninstall touches it again.
    let claude = FILES[0].1;
    let edited = format!("{}Also list rejected ones.\n", h.read(claude));
    h.write(claude, &edited);
    let out = h.ok(&["install", "claude"]);
    assert_eq!(h.read(claude), edited);
    assert!(out.contains("was edited since tinylingo wrote it: left as it is"), "{out}");
    // Gemini CLI's holds an earlier version's text, as the record says install wrote it.
    let gemini = FILES[3].1;
    let old = "description = \"older\"\nprompt = '''\nAn older text.\n'''\n";
    h.write(gemini, old);
    let path = h.path(gemini).to_string_lossy().into_owned();
    let mut record: serde_json::Value = serde_json::from_str(&h.read(RECORD)).unwrap();
    record["files"][&path]["sha256"] = sha256_hex(old.as_bytes()).into();
    h.write(RECORD, &record.to_string());
    let out = h.ok(&["install", "gemini"]);
    assert!(h.read(gemini).contains(TEXT), "{out}");
    assert!(out.contains("review command (/tinylingo-review) updated"), "{out}");
    let out = h.ok(&["uninstall"]);
    assert!(!h.exists(gemini), "{out}");
    assert_eq!(h.read(claude), edited, "{out}");
}

#[test]
fn doctor_lists_the_review_command_of_each_assistant() {
    let h = Home::new();
    install_all(&h);
    let checks = |h: &Home| -> Vec<serde_json::Value> {
        let out = h.run(&["doctor", "--format", "json"]);
        let all: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
        all.into_iter().filter(|c| c["check"] == "review command").collect()
    };
    let found = checks(&h);
    assert_eq!(found.len(), FILES.len(), "{found:?}");
    for c in &found {
        assert_eq!(c["ok"], true, "{c}");
        assert!(c["detail"].as_str().unwrap().contains("tinylingo-review"), "{c}");
    }
    std::fs::remove_file(h.path(FILES[5].1)).unwrap();
    let qwen: Vec<_> = checks(&h).into_iter().filter(|c| c["ok"] == false).collect();
    assert_eq!(qwen.len(), 1, "{qwen:?}");
    assert_eq!(qwen[0]["fix"], "tinylingo install qwen");
}

#[test]
fn install_writes_the_files_the_clients_were_seen_loading() {
    // tests/fixtures/review/<client>/<path>: the files the e2e suite saw each client load and
    // send to the model (tests/e2e/review.py with REVIEW_FIXTURES). Install must still write
    // exactly those bytes; a changed text needs that run again.
    let h = Home::new();
    install_all(&h);
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/review");
    for &(name, rel, _) in FILES {
        let fixture = fixtures.join(name).join(rel);
        let loaded = std::fs::read_to_string(&fixture)
            .unwrap_or_else(|e| panic!("{}: {e}", fixture.display()));
        assert_eq!(h.read(rel), loaded, "{name}: install no longer writes what the client loaded");
    }
}
