//! The `language` setting end to end, with the real binary in a temporary home folder: the
//! labels people read from `match` and the hook.

#[path = "support/home.rs"]
mod home;

use std::io::Write;
use std::process::{Output, Stdio};

use home::{describe, Home, BIN};

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
        ok(&h, EN, &["record", t, &long]);
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
