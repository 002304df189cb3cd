//! `record`'s near-duplicate check, its input rules and its record-times log (issue 17), with
//! the real binary in a temporary HOME, and for the model's layer a real chat-completions
//! server on 127.0.0.1 (`support/llm_server.rs`).

mod common;
#[path = "support/llm_server.rs"]
mod llm_server;

use std::fs;
use std::time::Duration;

use common::{read, seed, Home, Output, SEED};
use llm_server::{LlmServer, Reply};
use serde_json::{json, Value};
use tinylingo::ops::duplicates::words::{jaccard, word_set};

/// The glossary's bytes, the index's and the times log's (what a refusal must leave alone).
fn files(home: &Home) -> (Vec<u8>, Vec<u8>, Option<Vec<u8>>) {
    let times = fs::read(home.store().join("recorded.tsv")).ok();
    (read(&home.glossary()), read(&home.index()), times)
}

/// The terms of the times log, in its order.
fn noted(home: &Home) -> Vec<String> {
    let text = fs::read_to_string(home.store().join("recorded.tsv")).unwrap_or_default();
    text.lines().map(|l| l.split_once('\t').expect("a tab").1.to_string()).collect()
}

/// The glossary as its file's object (`export`'s json).
fn listed(home: &Home) -> Value {
    home.run(&["export"]).json()
}

/// Asserts a refusal as a duplicate: exit 1, nothing changed, the message names `similar`
/// (score, term) in this order, and both ways on.
#[track_caller]
fn assert_refused(home: &Home, args: &[&str], similar: &[(&str, &str)]) -> Output {
    let before = files(home);
    let out = home.run(args);
    out.expect_code(1);
    assert_eq!(files(home), before, "a refusal must write nothing");
    // The new files were written alongside the check, to temporary files it then discarded.
    let names: Vec<String> = fs::read_dir(home.store())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    assert_eq!(out.stdout, "");
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(lines[0].starts_with("tinylingo: not recorded: "), "{}", out.stderr);
    for (i, (score, term)) in similar.iter().enumerate() {
        let line = lines.get(1 + i).unwrap_or_else(|| panic!("no line {}: {}", i + 1, out.stderr));
        assert!(
            line.starts_with(&format!("  {score}  {term} (")),
            "line {}: {}",
            i + 1,
            out.stderr
        );
    }
    let new_term = args[args.len() - 2].trim();
    assert!(
        out.stderr.contains(&format!("tinylingo record --force {new_term} ")),
        "{}",
        out.stderr
    );
    let first = similar.first().map_or("", |s| s.1);
    assert!(
        out.stderr.contains(&format!("tinylingo record --force {first} \"<merged explanation>\"")),
        "{}",
        out.stderr
    );
    out
}

// ---------------------------------------------------------------------------------------------
// Layer 1: the same term but for case, width or spaces

#[test]
fn a_term_equal_but_for_case_width_or_spaces_is_a_duplicate() {
    let home = Home::seeded();
    home.run(&["record", "GitFlow", "分支模型：main 发布，develop 集成"]).ok();
    let out = assert_refused(&home, &["record", "gitflow", "别的说明"], &[("1.00", "GitFlow")]);
    assert!(out.stderr.contains("(same term but for case, width or spaces)"), "{}", out.stderr);
    assert!(out.stderr.contains("looks like 1 recorded entry"), "{}", out.stderr);
    // Full-width letters, and the ideographic space around the term.
    assert_refused(&home, &["record", "ＧｉｔＦｌｏｗ", "别的说明"], &[("1.00", "GitFlow")]);
    assert_refused(&home, &["record", "　ｇｉｔｆｌｏｗ　", "别的说明"], &[("1.00", "GitFlow")]);
    // A term recorded with spaces around it (by hand, or before they were removed).
    let mut glossary: serde_json::Map<String, Value> =
        serde_json::from_slice(&read(&home.glossary())).unwrap();
    glossary.insert("  padded term ".into(), json!("用空格包住的词"));
    home.write_store_file("glossary.json", serde_json::to_string(&glossary).unwrap().as_bytes());
    home.run(&["record", "--force", "anything", "rebuilds the index"]).ok();
    let out = home.run(&["record", "Padded Term", "别的说明"]);
    out.expect_code(1);
    assert!(out.stderr.contains("\n  1.00    padded term  (same term"), "{}", out.stderr);
    // Not the same: another word.
    home.run(&["record", "GitFlows", "别的说明"]).ok();
}

// ---------------------------------------------------------------------------------------------
// Layer 2: explanations

#[test]
fn a_cjk_explanation_like_a_recorded_one_is_a_duplicate_with_its_score() {
    // Chinese text has no \w word at all: the seed's check would score it 0.
    let home = Home::seeded();
    let text = "背景移除模块，类名 BGRemover，在 src/modules/bgremove/ 下";
    let score = jaccard(&word_set(text), &word_set(seed("智能抠图")));
    assert!(score >= 0.35, "{score}");
    let out =
        assert_refused(&home, &["record", "去背景", text], &[(&format!("{score:.2}"), "智能抠图")]);
    assert!(
        out.stderr.contains("智能抠图 (explanation): ProjectA 中背景移除模块"),
        "{}",
        out.stderr
    );
    // An unrelated explanation goes through.
    home.run(&["record", "去背景", "把人像从照片里抠出来的整个流程说明"]).ok();
}

#[test]
fn similar_entries_are_listed_highest_first_five_at_most() {
    let home = Home::new();
    // Seven entries sharing words with the new one, to different degrees.
    let base = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
    let mut expected = Vec::new();
    for k in 0..7 {
        let own: Vec<String> = (0..k).map(|i| format!("own{k}x{i}")).collect();
        let text = format!("{} {}", base.join(" "), own.join(" "));
        let term = format!("entry{k}");
        home.run(&["record", "--force", &term, &text]).ok();
        expected.push((jaccard(&word_set(&text), &word_set(&base.join(" "))), term));
    }
    expected.sort_by(|a, b| b.0.total_cmp(&a.0));
    let shown: Vec<(String, &str)> =
        expected.iter().take(5).map(|(s, t)| (format!("{s:.2}"), t.as_str())).collect();
    let shown: Vec<(&str, &str)> = shown.iter().map(|(s, t)| (s.as_str(), *t)).collect();
    let out = assert_refused(&home, &["record", "new", &base.join(" ")], &shown);
    assert!(
        out.stderr.contains("looks like 7 recorded entries (the 5 closest shown)"),
        "{}",
        out.stderr
    );
    assert_eq!(
        out.stderr.lines().filter(|l| l.starts_with("  0.") || l.starts_with("  1.")).count(),
        5
    );
    assert!(!out.stderr.contains("entry6 ("), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// The ways on: --force, folding, re-recording

#[test]
fn force_records_a_duplicate_anyway() {
    let home = Home::seeded();
    let text = "背景移除模块，类名 BGRemover，在 src/modules/bgremove/ 下";
    home.run(&["record", "去背景", text]).expect_code(1);
    let out = home.run(&["record", "--force", "去背景", text]);
    out.ok();
    assert!(out.stderr.starts_with("Recorded: 去背景 → "), "{}", out.stderr);
    assert_eq!(listed(&home)["去背景"], json!(text));
    assert_eq!(noted(&home).last().map(String::as_str), Some("去背景"));
}

#[test]
fn folding_into_the_existing_entry_replaces_its_explanation_in_place() {
    let home = Home::seeded();
    let out = home.run(&["record", "智能去背景", "背景移除模块，类名 BGRemover，另有 GPU 版本"]);
    out.expect_code(1);
    // The way the message offers: the existing term, with the merged text.
    let merged =
        "ProjectA 中背景移除模块，类名 BGRemover（另有 GPU 版本），位于 src/modules/bgremove/";
    let out = home.run(&["record", "--force", "智能抠图", merged]);
    out.ok();
    assert!(out.stderr.starts_with("Updated: 智能抠图\n  was: ProjectA"), "{}", out.stderr);
    let glossary = listed(&home);
    let keys: Vec<&str> = glossary.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, SEED.iter().map(|(t, _)| *t).collect::<Vec<_>>());
    assert_eq!(glossary["智能抠图"], json!(merged));
    assert!(glossary.get("智能去背景").is_none());
}

#[test]
fn re_recording_the_same_entry_is_a_quiet_success() {
    let home = Home::seeded();
    let before = files(&home);
    let out = home.run(&["record", "提交", seed("提交")]);
    out.ok();
    assert_eq!((out.stdout.as_str(), out.stderr.as_str()), ("", ""));
    assert_eq!(files(&home), before);
    // With surrounding spaces, the same entry still.
    home.run(&["record", " 提交 ", &format!("{}\n", seed("提交"))]).ok();
    assert_eq!(files(&home), before);
}

#[test]
fn another_text_for_a_recorded_term_is_still_a_conflict() {
    let home = Home::seeded();
    let out = home.run(&["record", "提交", "完全不同的说明"]);
    out.expect_code(1);
    assert!(out.stderr.contains("\"提交\" is already recorded as"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// Layer 3: the model, with smart matching on

/// The seed, then smart matching on with the model at `server` and `debug` on.
fn smart_home(server: &LlmServer, timeout_ms: u64) -> Home {
    let home = Home::seeded();
    for (key, value) in [
        ("smart.endpoint", server.endpoint()),
        ("smart.timeoutMs", timeout_ms.to_string()),
        ("smart.enabled", "true".into()),
        ("debug", "true".into()),
    ] {
        home.run(&["config", key, &value]).ok();
    }
    home
}

/// An entry that shares no term and few words with the seed: only the model can call it a
/// duplicate.
const NEW: (&str, &str) = ("推代码", "提交以后别自动推到远端，等用户自己决定");

fn debug_log(home: &Home) -> String {
    fs::read_to_string(home.store().join("debug.log")).unwrap_or_default()
}

#[test]
fn the_model_finds_a_duplicate_among_the_recent_entries() {
    // Scores for the seed's entries, most recent first: 依赖更新, 提交, 联调, 智能抠图.
    let server = LlmServer::start(vec![Reply::content(r#"{"scores": [0.1, 0.85, 0, 0.62]}"#)]);
    let home = smart_home(&server, 5000);
    let out =
        assert_refused(&home, &["record", NEW.0, NEW.1], &[("0.85", "提交"), ("0.62", "智能抠图")]);
    assert!(out.stderr.contains("提交 (judged by the model): git commit"), "{}", out.stderr);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let prompt = requests[0].prompt().expect("a prompt");
    let list = format!(
        "1. 依赖更新: {}\n2. 提交: {}\n3. 联调: {}\n4. 智能抠图: {}",
        seed("依赖更新"),
        seed("提交"),
        seed("联调"),
        seed("智能抠图")
    );
    assert!(prompt.contains(&list), "{prompt}");
    assert!(prompt.contains(&format!("New entry:\n{}: {}\n", NEW.0, NEW.1)), "{prompt}");
}

#[test]
fn the_model_saying_no_lets_the_record_through() {
    let server = LlmServer::start(vec![Reply::content(r#"{"scores": [0.1, 0.59, 0, 0.2]}"#)]);
    let home = smart_home(&server, 5000);
    home.run(&["record", NEW.0, NEW.1]).ok();
    assert_eq!(listed(&home)[NEW.0], json!(NEW.1));
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn the_model_is_not_asked_when_the_text_layers_found_a_duplicate_or_with_force() {
    let server = LlmServer::start(vec![Reply::content(r#"{"scores": [1, 1, 1, 1]}"#)]);
    let home = smart_home(&server, 5000);
    home.run(&["record", "提交 ", "x"]).expect_code(1); // conflict, not a new term
    home.run(&["record", "提 交", "git commit 后不要执行 git push，由用户决定"]).expect_code(1);
    home.run(&["record", "--force", NEW.0, NEW.1]).ok();
    assert!(server.requests().is_empty());
}

#[test]
fn a_model_too_slow_or_talking_nonsense_lets_the_record_through_and_is_logged() {
    for (reply, why) in [
        (Reply::content(r#"{"scores": [1, 1, 1, 1]}"#).after(Duration::from_secs(3)), "timed out"),
        (Reply::content("They look rather alike to me."), "no scores in the answer"),
        (Reply::raw(500, "oops"), "HTTP 500"),
    ] {
        let server = LlmServer::start(vec![reply]);
        let home = smart_home(&server, 300);
        let out = home.run(&["record", NEW.0, NEW.1]);
        out.ok();
        assert!(out.stderr.starts_with("Recorded: "), "{why}: {}", out.stderr);
        assert_eq!(listed(&home)[NEW.0], json!(NEW.1), "{why}");
        let log = debug_log(&home);
        assert!(log.contains("record: duplicate check by the model failed ("), "{why}: {log}");
        assert!(log.contains(why), "{why}: {log}");
    }
}

#[test]
fn a_failing_model_is_not_logged_without_debug() {
    let server = LlmServer::start(vec![Reply::content("no idea")]);
    let home = smart_home(&server, 5000);
    home.run(&["config", "debug", "false"]).ok();
    home.run(&["record", NEW.0, NEW.1]).ok();
    assert_eq!(debug_log(&home), "");
}

// ---------------------------------------------------------------------------------------------
// Input rules

#[test]
fn a_term_with_a_control_character_is_refused() {
    let home = Home::new();
    for term in ["two\nlines", "tab\there", "cr\rhere", "nul\u{1}x"] {
        let out = home.run(&["record", term, "说明"]);
        out.expect_code(2);
        assert!(out.stderr.contains("contains a control character"), "{term:?}: {}", out.stderr);
        assert!(out.stderr.contains("hint: "), "{}", out.stderr);
    }
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new(), "a refusal created files");
}

#[test]
fn surrounding_white_space_is_removed_and_said() {
    let home = Home::new();
    let out = home.run(&["record", "  padded  ", "\n  the explanation \n"]);
    out.ok();
    assert_eq!(
        out.stderr,
        "Recorded: padded → the explanation (surrounding white space removed)\n"
    );
    assert_eq!(listed(&home), json!({"padded": "the explanation"}));
    // Without anything removed, nothing is said about it.
    let out = home.run(&["record", "plain", "text"]);
    assert_eq!(out.stderr, "Recorded: plain → text\n");
}

#[test]
fn a_one_char_ascii_term_needs_force_and_one_cjk_char_does_not() {
    let home = Home::new();
    for term in ["x", "1", "-", " x "] {
        let out = home.run(&["record", term, "说明"]);
        out.expect_code(2);
        assert!(out.stderr.contains("would match nearly every prompt"), "{}", out.stderr);
        assert!(
            out.stderr.contains("record it anyway: tinylingo record --force"),
            "{}",
            out.stderr
        );
    }
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new());
    home.run(&["record", "--force", "x", "说明"]).ok();
    home.run(&["record", "图", "图片处理模块"]).ok();
    home.run(&["record", "xy", "two chars are fine"]).ok();
    let keys: Vec<String> = listed(&home).as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["x", "图", "xy"]);
}

#[test]
fn a_term_has_at_most_200_chars() {
    let home = Home::new();
    let out = home.run(&["record", &"长".repeat(201), "说明"]);
    out.expect_code(2);
    assert!(
        out.stderr.contains("the term is 201 characters long; a term has at most 200"),
        "{}",
        out.stderr
    );
    assert!(!home.glossary().exists());
    home.run(&["record", &"长".repeat(200), "说明"]).ok();
    home.run(&["record", &"ab".repeat(2500), "说明"]).expect_code(2);
}

#[test]
fn a_long_explanation_is_kept_whole_echoed_short_and_warned_about() {
    let home = Home::new();
    let long: String = (0..1200).map(|i| format!("w{i:05}aaa ")).collect::<String>();
    let long = long.trim_end();
    assert_eq!(long.chars().count(), 11_999);
    let out = home.run(&["record", "长说明", long]);
    out.ok();
    let prefix: String = long.chars().take(200).collect();
    assert!(
        out.stderr.contains(&format!("Recorded: 长说明 → {prefix}… (11999 characters)\n")),
        "{}",
        out.stderr
    );
    assert!(out.stderr.len() < 600, "the echo is short: {} bytes", out.stderr.len());
    assert!(
        out.stderr.contains("warning: the explanation is 11999 characters; the injected block holds at most 4000 (inject.maxChars)"),
        "{}",
        out.stderr
    );
    assert_eq!(listed(&home)["长说明"], json!(long));
    // One that fits the block draws no warning; a smaller budget makes it not fit.
    let out = home.run(&["record", "短说明", "几个字"]);
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
    home.run(&["config", "inject.maxChars", "100"]).ok();
    let out = home.run(&["record", "中说明", &"字".repeat(90)]);
    out.ok();
    assert!(out.stderr.contains("holds at most 100 (inject.maxChars)"), "{}", out.stderr);
}

#[test]
fn a_line_break_inside_an_explanation_is_kept() {
    let home = Home::new();
    home.run(&["record", "多行", "第一行\n第二行"]).ok();
    assert_eq!(listed(&home)["多行"], json!("第一行\n第二行"));
}

// ---------------------------------------------------------------------------------------------
// The record-times log

#[test]
fn records_are_noted_in_order_beside_the_glossary() {
    let home = Home::seeded();
    let text = fs::read_to_string(home.store().join("recorded.tsv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    for (line, (term, _)) in lines.iter().zip(SEED) {
        let (secs, t) = line.split_once('\t').unwrap();
        assert_eq!(t, term);
        assert!(secs.parse::<u64>().unwrap() > 1_600_000_000, "{line}");
    }
    // The glossary stays the flat object of the original tool.
    let glossary: Value = serde_json::from_slice(&read(&home.glossary())).unwrap();
    assert!(glossary.as_object().unwrap().values().all(Value::is_string));
    // An update is a record; a refusal and a no-op are not.
    home.run(&["record", "--force", "联调", "新的说明"]).ok();
    home.run(&["record", "联调", "新的说明"]).ok();
    home.run(&["record", "lianTiao", "x"]).ok();
    home.run(&["record", "LIANTIAO", "y"]).expect_code(1);
    assert_eq!(noted(&home), ["智能抠图", "联调", "提交", "依赖更新", "联调", "lianTiao"]);
}

#[test]
fn a_garbled_or_unwritable_times_log_never_fails_a_record() {
    let home = Home::seeded();
    fs::write(home.store().join("recorded.tsv"), b"\xff\xfe garbage\nno tab here\n12").unwrap();
    home.run(&["record", "新词", "新的解释"]).ok();
    let text = fs::read(home.store().join("recorded.tsv")).unwrap();
    assert!(text.ends_with("\t新词\n".as_bytes()));
    // The torn last line kept its own line; ours did not join it.
    assert!(text.windows(3).any(|w| w == b"12\n"), "{}", String::from_utf8_lossy(&text));
    // A folder where the log belongs: the record is written all the same.
    fs::remove_file(home.store().join("recorded.tsv")).unwrap();
    fs::create_dir(home.store().join("recorded.tsv")).unwrap();
    home.run(&["record", "另一个词", "另一个解释"]).ok();
    assert_eq!(listed(&home)["另一个词"], json!("另一个解释"));
}

#[test]
fn a_dash_reads_the_explanation_from_stdin() {
    let home = Home::new();
    // Past what a command line can carry (the kernel's limit for one argument is 128 KiB).
    let long: String = (0..30_000).map(|i| format!("w{i:05} ")).collect::<String>();
    let long = long.trim_end();
    let input = format!("\n  {long}\n\n");
    let out = home.run_with_stdin(&["record", "长文", "-"], Some(input.as_bytes()));
    out.ok();
    assert!(!out.stderr.contains("white space removed"), "{}", out.stderr);
    assert_eq!(listed(&home)["长文"], json!(long));
    // An empty or blank input, or one that is not UTF-8, records nothing (exit 2) and says how.
    for bad in [&b""[..], b" \n\t\n", b"\xff\xfe text"] {
        let out = home.run_with_stdin(&["record", "空", "-"], Some(bad));
        out.expect_code(2);
        assert!(out.stderr.contains("hint: pipe the explanation in: tinylingo record <term> - <"));
        assert_eq!(listed(&home).get("空"), None);
    }
}
