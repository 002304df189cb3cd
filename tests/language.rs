//! The `language` setting end to end, with the real binary in a temporary home folder: which
//! instruction block install writes, a block edited by hand left alone, CRLF instruction files,
//! `tinylingo instructions`, and the labels people read from `match` and the hook.

#[path = "support/home.rs"]
mod home;

use std::io::Write;
use std::process::{Output, Stdio};

use home::{describe, Home, BIN};
use tinylingo::platform::instructions::{BLOCK_EN, BLOCK_ZH, END, START};

const EN: &[(&str, &str)] = &[("LANG", "en_US.UTF-8")];
const ZH: &[(&str, &str)] = &[("LANG", "zh_CN.UTF-8")];

/// `tinylingo args…` with `env` on top of the home's environment, `stdin` as its input.
fn run(h: &Home, env: &[(&str, &str)], args: &[&str], stdin: &str) -> Output {
    let mut child = h
        .command(BIN)
        .envs(env.iter().copied())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tinylingo");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// [`run`] without input, which must succeed; its stdout.
fn ok(h: &Home, env: &[(&str, &str)], args: &[&str]) -> String {
    let out = run(h, env, args, "");
    assert!(out.status.success(), "tinylingo {args:?}: {}", describe(&out));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn install_writes_the_block_in_the_locales_language() {
    for (env, block) in [
        (ZH, BLOCK_ZH),
        (EN, BLOCK_EN),
        (&[("LANG", "C.UTF-8")][..], BLOCK_EN),
        (&[("LC_ALL", "zh_TW.UTF-8"), ("LANG", "en_US.UTF-8")][..], BLOCK_ZH),
        (&[("LC_ALL", ""), ("LC_MESSAGES", "en_GB"), ("LANG", "zh_CN.UTF-8")][..], BLOCK_EN),
    ] {
        let h = Home::new();
        ok(&h, env, &["install", "claude"]);
        assert_eq!(h.read(".claude/CLAUDE.md"), format!("{block}\n"), "{env:?}");
    }
}

#[test]
fn the_language_setting_overrides_the_locale_and_switching_it_replaces_the_block() {
    let h = Home::new();
    let mine = "# Mine\n\nrule one\n";
    h.write(".codex/AGENTS.md", mine);
    ok(&h, EN, &["config", "language", "zh"]);
    ok(&h, EN, &["install", "codex"]);
    assert_eq!(h.read(".codex/AGENTS.md"), format!("{mine}\n{BLOCK_ZH}\n"));
    ok(&h, ZH, &["config", "language", "en"]);
    let out = ok(&h, ZH, &["install", "codex"]);
    assert!(out.contains("AGENTS.md: instruction block updated"), "{out}");
    assert_eq!(h.read(".codex/AGENTS.md"), format!("{mine}\n{BLOCK_EN}\n"));
    // Back to following the locale.
    ok(&h, ZH, &["config", "language", "auto"]);
    ok(&h, ZH, &["install", "codex"]);
    assert_eq!(h.read(".codex/AGENTS.md"), format!("{mine}\n{BLOCK_ZH}\n"));
    ok(&h, ZH, &["uninstall", "codex"]);
    assert_eq!(h.read(".codex/AGENTS.md"), mine);
    // A value that is not a language is refused, with the choices.
    let out = run(&h, EN, &["config", "language", "fr"], "");
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("one of auto, en, zh"));
}

#[test]
fn a_block_edited_by_hand_survives_install_and_is_reported() {
    let h = Home::new();
    let translated = format!("{START}\n## TinyLingo 术语记忆（我自己的版本）\n\n记录术语。\n{END}");
    let before = format!("# Mine\n\n{translated}\n\n# After\n");
    h.write(".gemini/GEMINI.md", &before);
    for env in [EN, ZH] {
        let out = ok(&h, env, &["install", "gemini"]);
        assert!(
            out.contains(
                "~/.gemini/GEMINI.md: instruction block edited by hand: left as it is (delete \
                 the block and install again to get the current one)"
            ),
            "{out}"
        );
        assert_eq!(h.read(".gemini/GEMINI.md"), before);
        let dry = ok(&h, env, &["install", "gemini", "--dry-run"]);
        assert!(dry.contains("edited by hand: left as it is"), "{dry}");
    }
    // Uninstall removes it all the same: it is between our markers.
    ok(&h, EN, &["uninstall", "gemini"]);
    assert_eq!(h.read(".gemini/GEMINI.md"), "# Mine\n\n# After\n");
    // And the next install puts the current block back.
    ok(&h, EN, &["install", "gemini"]);
    assert_eq!(h.read(".gemini/GEMINI.md"), format!("# Mine\n\n# After\n\n{BLOCK_EN}\n"));
}

#[test]
fn a_crlf_instruction_file_gets_crlf_and_uninstall_restores_it() {
    let h = Home::new();
    let before = "# Mine\r\n\r\nrule one\r\n";
    h.write(".claude/CLAUDE.md", before);
    ok(&h, EN, &["install", "claude"]);
    let crlf = BLOCK_EN.replace('\n', "\r\n");
    assert_eq!(h.read(".claude/CLAUDE.md"), format!("{before}\r\n{crlf}\r\n"));
    let out = ok(&h, EN, &["install", "claude"]);
    assert!(out.contains("instruction block already in place"), "{out}");
    // A language switch keeps the file's line endings.
    ok(&h, ZH, &["config", "language", "zh"]);
    ok(&h, ZH, &["install", "claude"]);
    let text = h.read(".claude/CLAUDE.md");
    assert_eq!(text, format!("{before}\r\n{}\r\n", BLOCK_ZH.replace('\n', "\r\n")));
    ok(&h, EN, &["uninstall", "claude"]);
    assert_eq!(h.read(".claude/CLAUDE.md"), before);
}

#[test]
fn instructions_prints_the_block_in_the_configured_language() {
    let h = Home::new();
    assert_eq!(ok(&h, EN, &["instructions"]), format!("{BLOCK_EN}\n"));
    assert_eq!(ok(&h, ZH, &["instructions"]), format!("{BLOCK_ZH}\n"));
    assert_eq!(ok(&h, EN, &["instructions", "--language", "zh"]), format!("{BLOCK_ZH}\n"));
    assert_eq!(ok(&h, ZH, &["instructions", "--language", "en"]), format!("{BLOCK_EN}\n"));
    ok(&h, EN, &["config", "language", "zh"]);
    assert_eq!(ok(&h, EN, &["instructions"]), format!("{BLOCK_ZH}\n"));
    let out = run(&h, EN, &["instructions", "--language", "fr"], "");
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
    // Printing changes nothing but the config set above.
    assert!(!h.exists(".claude") && !h.exists(".config/tinylingo/scripts"));
}

#[test]
fn install_for_cursor_points_at_tinylingo_instructions() {
    let h = Home::new();
    let out = ok(&h, EN, &["install", "cursor"]);
    assert!(out.contains("note: ") && out.contains("`tinylingo instructions`"), "{out}");
}

#[test]
fn match_and_the_hook_speak_the_language_the_index_was_built_in() {
    let h = Home::new();
    ok(&h, EN, &["record", "智能抠图", "ProjectA 背景移除模块"]);
    assert_eq!(
        ok(&h, EN, &["match", "智能抠图坏了"]),
        "[exact] 智能抠图 → ProjectA 背景移除模块\n"
    );
    let none = run(&h, EN, &["match", "nothing here"], "");
    assert_eq!(none.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&none.stderr), "No matches found.\n");
    // The language is resolved when the index is built, not where it is read.
    let out = ok(&h, ZH, &["match", "智能抠图坏了"]);
    assert!(out.starts_with("[exact] "), "{out}");
    ok(&h, EN, &["config", "language", "zh"]);
    assert!(ok(&h, EN, &["match", "智能抠图坏了"]).starts_with("[精确] "));
    let none = run(&h, EN, &["match", "nothing here"], "");
    assert_eq!(String::from_utf8_lossy(&none.stderr), "未找到匹配。\n");
    // The JSON view is the same in every language.
    let json = ok(&h, EN, &["match", "--json", "智能抠图坏了"]);
    assert!(json.contains("\"exact\"") && !json.contains("精确"), "{json}");

    // The hook's names line: many hits in a small budget.
    ok(&h, EN, &["config", "language", "en"]);
    ok(&h, EN, &["config", "inject.maxChars", "200"]);
    let long = "a long explanation that will not fit in two hundred characters. ".repeat(3);
    let terms: Vec<String> = (0..12).map(|i| format!("term{i:02}")).collect();
    for t in &terms {
        // `--force`: the explanations are the same on purpose (the near-duplicate check would
        // refuse them).
        ok(&h, EN, &["record", "--force", t, &long]);
    }
    let event = serde_json::json!({ "prompt": terms.join(" ") }).to_string();
    let event = event.as_str();
    let out = run(&h, ZH, &["hook", "opencode"], event);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("\n- Also relevant: ") && text.contains(" (tinylingo match)\n"),
        "{text}"
    );
    assert!(!text.contains("另有相关"), "{text}");
    ok(&h, EN, &["config", "language", "zh"]);
    let text = String::from_utf8(run(&h, EN, &["hook", "opencode"], event).stdout).unwrap();
    assert!(
        text.contains("\n- 另有相关: ") && text.contains("（tinylingo match 查看）\n"),
        "{text}"
    );
}
