//! The command line, run as the real binary against a temporary HOME: `record`, `remove`,
//! `list`, `config`, `match` and `--help` (issue 2).

mod common;

use common::{exact_terms, js_pretty, read, seed, stamp, Home, SEED};
use serde_json::{json, Value};

/// The seed's four entries as a JSON object, in order.
fn seed_object() -> Value {
    Value::Object(SEED.iter().map(|(t, e)| (t.to_string(), json!(e))).collect())
}

// ---------------------------------------------------------------------------------------------
// record / list and the file format

#[test]
fn seed_entries_are_recorded_and_listed_in_order() {
    let home = Home::new();
    for (term, explanation) in SEED {
        let out = home.run(&["record", term, explanation]);
        out.ok();
        assert!(out.stderr.contains(term), "record should confirm the term: {}", out.stderr);
    }
    let out = home.run(&["list"]);
    out.ok();
    let expected: String = SEED.iter().map(|(t, e)| format!("{t}: {e}\n")).collect();
    assert_eq!(out.stdout, expected);
}

#[test]
fn export_equals_the_files_object() {
    let home = Home::seeded();
    let out = home.run(&["export"]);
    out.ok();
    let listed = out.json();
    let file: Value = serde_json::from_slice(&read(&home.glossary())).unwrap();
    assert_eq!(listed, file);
    assert_eq!(listed, seed_object());
    // Order is part of the contract, and serde_json's Value compares maps without it.
    let keys: Vec<&str> = listed.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, SEED.iter().map(|(t, _)| *t).collect::<Vec<_>>());
}

#[test]
fn list_of_an_empty_store_prints_nothing_on_stdout() {
    let home = Home::new();
    let out = home.run(&["list"]);
    out.ok();
    assert_eq!(out.stdout, "");
    let out = home.run(&["list", "--json"]);
    out.ok();
    assert_eq!(out.json(), json!([]));
    let out = home.run(&["export"]);
    out.ok();
    assert_eq!(out.json(), json!({}));
}

#[test]
fn glossary_file_is_json_stringify_with_two_space_indent() {
    let home = Home::seeded();
    let text = String::from_utf8(read(&home.glossary())).unwrap();
    assert_eq!(text, js_pretty(&SEED));
    // Spelled out once, byte for byte, so the reference function above is checked too.
    let expected = "{\n  \"智能抠图\": \"ProjectA 中背景移除模块，类名 BGRemover，位于 src/modules/bgremove/\",\n  \"联调\": \"在 ProjectA 的 localConfig.cmake 中设置 USE_SOURCE 选项控制是否联合源码调试\",\n  \"提交\": \"git commit 后不要执行 git push，由用户决定是否推送及推送时机\",\n  \"依赖更新\": \"禁止运行初始化脚本，必须使用指定的包管理命令更新依赖\"\n}";
    assert_eq!(text, expected);
}

#[test]
fn escapes_are_exactly_those_of_javascript() {
    let home = Home::new();
    let tricky =
        "say \"hi\" \\ then\nnext line\ttab \u{1b}[0m bell\u{7} us\u{1f} del\u{7f} / é 😀 \u{2028} end";
    // `--force`: a one-char ASCII term is refused without it. (`end`: `record` trims the
    // explanation, and U+2028 is white space.)
    home.run(&["record", "--force", "k", tricky]).ok();
    home.run(&["record", "q\"uote", "v"]).ok();
    // What `node -e 'process.stdout.write(JSON.stringify({k: …, "q\"uote": "v"}, null, 2))'`
    // prints, written out by hand: control characters as lower-case \u00xx, DEL, U+2028, `/`
    // and non-ASCII text verbatim, no trailing newline. (NUL cannot be passed in argv; the
    // Node-written file below carries one.)
    let expected = "{\n  \"k\": \"say \\\"hi\\\" \\\\ then\\nnext line\\ttab \\u001b[0m bell\\u0007 us\\u001f del\u{7f} / é 😀 \u{2028} end\",\n  \"q\\\"uote\": \"v\"\n}";
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), expected);
    assert_eq!(
        String::from_utf8(read(&home.glossary())).unwrap(),
        js_pretty(&[("k", tricky), ("q\"uote", "v")])
    );
    // And it reads back to the same text.
    let out = home.run(&["export"]);
    out.ok();
    assert_eq!(out.json(), json!({"k": tricky, "q\"uote": "v"}));
}

/// A glossary as the original Node tool wrote it: `JSON.stringify(g, null, 2)`, no newline.
const NODE_FILE: &str = "{\n  \"智能抠图\": \"ProjectA 中背景移除模块，类名 BGRemover\",\n  \"path\\\\rule\": \"use C:\\\\src\\\\app, not \\\"./app\\\"\",\n  \"颜色\": \"ANSI \\u001b[31m red \\u001b[0m, tab\\there\\nnew line\",\n  \"emoji 😀\": \"/slashes/ stay; é stays\",\n  \"nul\": \"a\\u0000b\u{7f}\\u001fc\"\n}";

#[test]
fn node_written_glossary_survives_a_no_op_record_byte_for_byte() {
    let home = Home::new();
    home.write_store_file("glossary.json", NODE_FILE.as_bytes());
    let before = stamp(&home.glossary());
    let out = home.run(&["record", "智能抠图", "ProjectA 中背景移除模块，类名 BGRemover"]);
    out.ok();
    assert_eq!(read(&home.glossary()), NODE_FILE.as_bytes());
    assert_eq!(stamp(&home.glossary()), before, "a no-op record must not rewrite the file");
    // The entry with escapes is read as the text it stands for.
    let out = home.run(&["record", "颜色", "ANSI \u{1b}[31m red \u{1b}[0m, tab\there\nnew line"]);
    out.ok();
    assert_eq!(read(&home.glossary()), NODE_FILE.as_bytes());
    let out = home.run(&["export"]);
    out.ok();
    assert_eq!(out.json()["path\\rule"], json!("use C:\\src\\app, not \"./app\""));
    assert_eq!(out.json()["nul"], json!("a\u{0}b\u{7f}\u{1f}c"));
}

#[test]
fn node_written_glossary_keeps_order_and_bytes_when_a_term_is_added() {
    let home = Home::new();
    home.write_store_file("glossary.json", NODE_FILE.as_bytes());
    home.run(&["record", "新词", "a \"new\" one"]).ok();
    let expected = format!(
        "{},\n  \"新词\": \"a \\\"new\\\" one\"\n}}",
        NODE_FILE.strip_suffix("\n}").unwrap()
    );
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), expected);
}

#[test]
fn rust_written_glossary_is_what_node_would_write_after_a_remove() {
    let home = Home::new();
    home.write_store_file("glossary.json", NODE_FILE.as_bytes());
    home.run(&["remove", "path\\rule"]).ok();
    let expected = "{\n  \"智能抠图\": \"ProjectA 中背景移除模块，类名 BGRemover\",\n  \"颜色\": \"ANSI \\u001b[31m red \\u001b[0m, tab\\there\\nnew line\",\n  \"emoji 😀\": \"/slashes/ stay; é stays\",\n  \"nul\": \"a\\u0000b\u{7f}\\u001fc\"\n}";
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), expected);
    // Removing everything leaves what JSON.stringify({}, null, 2) gives.
    home.run(&["remove", "智能抠图", "颜色", "emoji 😀", "nul"]).ok();
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), "{}");
}

// ---------------------------------------------------------------------------------------------
// record: conflicts, --force, no-ops, refusals

#[test]
fn record_of_another_text_is_refused_without_force() {
    let home = Home::seeded();
    let before = read(&home.glossary());
    let out = home.run(&["record", "提交", "随便推送"]);
    out.expect_code(1);
    assert!(out.stderr.contains(seed("提交")), "should show the current text: {}", out.stderr);
    assert!(out.stderr.contains("--force"), "should hint at --force: {}", out.stderr);
    assert!(out.stderr.contains("提交"), "{}", out.stderr);
    assert_eq!(read(&home.glossary()), before);
}

#[test]
fn record_force_replaces_in_place_and_prints_was_and_now() {
    let home = Home::seeded();
    let out = home.run(&["record", "--force", "联调", "新的解释"]);
    out.ok();
    assert!(out.stderr.contains("was"), "{}", out.stderr);
    assert!(out.stderr.contains(seed("联调")), "should print the old text: {}", out.stderr);
    assert!(out.stderr.contains("now"), "{}", out.stderr);
    assert!(out.stderr.contains("新的解释"), "should print the new text: {}", out.stderr);
    let was_at = out.stderr.find(seed("联调")).unwrap();
    let now_at = out.stderr.find("新的解释").unwrap();
    assert!(was_at < now_at, "was before now: {}", out.stderr);
    let expected: Vec<(&str, &str)> =
        SEED.iter().map(|&(t, e)| if t == "联调" { (t, "新的解释") } else { (t, e) }).collect();
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), js_pretty(&expected));
    // -f after the arguments works too.
    home.run(&["record", "联调", "第三版", "-f"]).ok();
    let out = home.run(&["list"]);
    assert_eq!(out.stdout.lines().nth(1), Some("联调: 第三版"));
}

#[test]
fn record_of_the_same_text_changes_nothing() {
    let home = Home::seeded();
    let bytes = read(&home.glossary());
    let before = stamp(&home.glossary());
    let out = home.run(&["record", "提交", seed("提交")]);
    out.ok();
    assert_eq!(read(&home.glossary()), bytes);
    assert_eq!(stamp(&home.glossary()), before, "inode or mtime changed: the file was rewritten");
    // --force with the same text is the same no-op.
    home.run(&["record", "--force", "提交", seed("提交")]).ok();
    assert_eq!(stamp(&home.glossary()), before);
}

/// Bad input changes nothing, not even the store's folder or lock file. Fails while
/// `actions::record` takes the store's lock (which creates both) before validating.
#[test]
fn empty_or_blank_term_or_explanation_is_refused_in_a_fresh_home_without_writing() {
    for args in [
        ["record", "", "something"],
        ["record", "   ", "something"],
        ["record", "\t\n", "something"],
        ["record", "term", ""],
        ["record", "term", "  "],
        ["record", "term", "\n\t "],
    ] {
        let home = Home::new();
        let out = home.run(&args);
        out.expect_code(2);
        assert!(!out.stderr.is_empty(), "a refusal must say why: {args:?}");
        assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new(), "{args:?} wrote to a fresh home");
    }
}

#[test]
fn empty_or_blank_input_leaves_an_existing_glossary_alone() {
    let home = Home::seeded();
    let bytes = read(&home.glossary());
    let before = stamp(&home.glossary());
    for args in [["record", "", "x"], ["record", " ", "x"], ["record", "提交", " "]] {
        home.run(&args).expect_code(2);
    }
    assert_eq!(read(&home.glossary()), bytes);
    assert_eq!(stamp(&home.glossary()), before);
}

// ---------------------------------------------------------------------------------------------
// remove

#[test]
fn remove_of_a_missing_term_names_it_and_the_closest_terms() {
    let home = Home::seeded();
    let bytes = read(&home.glossary());
    let out = home.run(&["remove", "抠图"]);
    out.expect_code(1);
    assert!(out.stderr.contains("抠图"), "{}", out.stderr);
    assert!(out.stderr.contains("智能抠图"), "should suggest the closest term: {}", out.stderr);
    assert!(!out.stderr.contains("依赖更新"), "an unrelated term is no suggestion: {}", out.stderr);
    assert_eq!(read(&home.glossary()), bytes);
    let out = home.run(&["remove", "依赖"]);
    out.expect_code(1);
    assert!(out.stderr.contains("依赖更新"), "{}", out.stderr);
}

#[test]
fn remove_of_several_terms_removes_them_all() {
    let home = Home::seeded();
    let out = home.run(&["remove", "联调", "智能抠图"]);
    out.ok();
    assert!(out.stderr.contains("联调") && out.stderr.contains("智能抠图"), "{}", out.stderr);
    let out = home.run(&["list"]);
    assert_eq!(out.stdout, format!("提交: {}\n依赖更新: {}\n", seed("提交"), seed("依赖更新")));
    assert_eq!(
        String::from_utf8(read(&home.glossary())).unwrap(),
        js_pretty(&[("提交", seed("提交")), ("依赖更新", seed("依赖更新"))])
    );
}

#[test]
fn remove_with_one_missing_term_says_so_and_exits_1() {
    let home = Home::seeded();
    let out = home.run(&["remove", "联调", "不存在"]);
    out.expect_code(1);
    assert!(out.stderr.contains("不存在"), "{}", out.stderr);
    let out = home.run(&["list"]);
    assert!(!out.stdout.contains("联调"), "the present term is still removed: {}", out.stdout);
    assert_eq!(out.stdout.lines().count(), 3);
}

#[test]
fn remove_names_what_it_removed_and_suggests_from_one_cjk_char() {
    let home = Home::seeded();
    let out = home.run(&["remove", "联调", "提交", "nosuch"]);
    out.expect_code(1);
    assert!(out.stderr.contains("not recorded: \"nosuch\"; removed: 联调, 提交"), "{}", out.stderr);
    let out = home.run(&["remove", "抠"]);
    out.expect_code(1);
    assert!(out.stderr.contains("hint: closest recorded terms: 智能抠图"), "{}", out.stderr);
}

#[test]
fn remove_needs_a_term() {
    let home = Home::seeded();
    let out = home.run(&["remove"]);
    out.expect_code(2);
    // The other ways in are named too.
    assert!(out.stderr.contains("tinylingo remove [--project] --search <QUERY>"), "{}", out.stderr);
    assert_eq!(home.run(&["list"]).stdout.lines().count(), 4);
}

// ---------------------------------------------------------------------------------------------
// match

#[test]
fn match_hits_only_the_term_in_the_message() {
    let home = Home::seeded();
    let out = home.run(&["match", "帮我提交一下代码"]);
    out.ok();
    assert_eq!(out.stdout, format!("[精确] 提交 → {}\n", seed("提交")));
}

#[test]
fn match_without_a_hit_says_so_on_stderr_and_exits_1() {
    let home = Home::seeded();
    let out = home.run(&["match", "今天天气不错"]);
    out.expect_code(1);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("未找到匹配。"), "{}", out.stderr);
    // An empty store behaves the same.
    let out = Home::new().run(&["match", "提交"]);
    out.expect_code(1);
    assert!(out.stderr.contains("未找到匹配。"), "{}", out.stderr);
}

#[test]
fn match_json_shape() {
    let home = Home::seeded();
    let out = home.run(&["match", "--json", "帮我提交一下代码"]);
    out.ok();
    assert_eq!(
        out.json(),
        json!({
            "exact": [{"term": "提交", "explanation": seed("提交"), "case": "none", "scope": "user"}],
            "candidates": []
        })
    );
    let out = home.run(&["match", "--json", "nothing here"]);
    out.expect_code(1);
    assert_eq!(out.json(), json!({"exact": [], "candidates": []}));
}

#[test]
fn nested_terms_both_hit() {
    let home = Home::new();
    home.record_all(&[("智能抠图", "the module"), ("抠图", "cutting out")]);
    assert_eq!(exact_terms(&home, "智能抠图"), ["智能抠图", "抠图"]);
    let out = home.run(&["match", "智能抠图"]);
    out.ok();
    assert_eq!(out.stdout, "[精确] 智能抠图 → the module\n[精确] 抠图 → cutting out\n");
    // Only the inner one where only it occurs.
    assert_eq!(exact_terms(&home, "抠图功能"), ["抠图"]);
}

#[test]
fn overlapping_terms_both_hit() {
    let home = Home::new();
    // Overlaps inside one word: what plain substring matching finds.
    home.run(&["config", "matching.wordBoundary", "false"]).ok();
    home.record_all(&[("abc", "one"), ("bcd", "two"), ("cdx", "three")]);
    assert_eq!(exact_terms(&home, "abcd"), ["abc", "bcd"]);
    assert_eq!(exact_terms(&home, "xabcdx"), ["abc", "bcd", "cdx"]);
}

#[test]
fn hits_come_in_glossary_order_not_text_order() {
    let home = Home::new();
    home.record_all(&[("zeta", "z"), ("联调", "l"), ("alpha", "a")]);
    assert_eq!(exact_terms(&home, "alpha 联调 zeta"), ["zeta", "联调", "alpha"]);
    assert_eq!(exact_terms(&home, "alpha then zeta"), ["zeta", "alpha"]);
}

#[test]
fn each_term_hits_once_however_often_it_occurs() {
    let home = Home::seeded();
    assert_eq!(exact_terms(&home, "提交提交，再提交；联调 提交 联调"), ["联调", "提交"]);
    let out = home.run(&["match", "提交提交提交"]);
    out.ok();
    assert_eq!(out.stdout.lines().count(), 1, "{}", out.stdout);
}

#[test]
fn exact_matching_is_case_sensitive_and_byte_exact() {
    let home = Home::new();
    home.record_all(&[("PR", "pull request"), ("café", "the café module")]);
    assert_eq!(exact_terms(&home, "open a PR"), ["PR"]);
    assert!(exact_terms(&home, "open a pr").is_empty());
    // A decomposed é (e + combining acute) is other bytes: no hit.
    assert!(exact_terms(&home, "cafe\u{301}").is_empty());
    assert_eq!(exact_terms(&home, "the café"), ["café"]);
}

#[test]
fn hand_edit_of_the_glossary_is_seen_by_the_next_match() {
    let home = Home::seeded();
    // Build the index and use it once.
    home.run(&["match", "提交"]).ok();
    let edited =
        js_pretty(&[("提交", "手改的解释"), ("联调", seed("联调")), ("新词", "hand added")]);
    common::write_in_place(&home.glossary(), edited.as_bytes());
    let out = home.run(&["match", "提交 新词 智能抠图"]);
    out.ok();
    assert_eq!(out.stdout, "[精确] 提交 → 手改的解释\n[精确] 新词 → hand added\n");
}

// ---------------------------------------------------------------------------------------------
// invalid glossary.json

/// A glossary whose line 3 is broken in a way every JSON parser reports on line 3.
const BROKEN_LINE_3: &str =
    "{\n  \"提交\": \"不要 push\",\n  \"联调\" \"USE_SOURCE\",\n  \"依赖更新\": \"x\"\n}";

/// A glossary with a trailing comma at the end of line 3.
const TRAILING_COMMA_LINE_3: &str = "{\n  \"提交\": \"不要 push\",\n  \"联调\": \"USE_SOURCE\",\n}";

fn assert_refuses_bad_glossary(bytes: &[u8], line: Option<&str>) {
    for args in [
        &["list"][..],
        &["list", "--json"],
        &["record", "新词", "x"],
        &["record", "提交", "不要 push"],
        &["match", "提交"],
        &["match", "--json", "提交"],
        &["remove", "提交"],
    ] {
        let home = Home::new();
        home.write_store_file("glossary.json", bytes);
        let before = stamp(&home.glossary());
        let out = home.run(args);
        out.expect_code(2);
        assert!(
            out.stderr.contains("glossary.json"),
            "{args:?}: the message should name the file: {}",
            out.stderr
        );
        if let Some(line) = line {
            assert!(out.stderr.contains(line), "{args:?}: should name {line}: {}", out.stderr);
        }
        assert_eq!(read(&home.glossary()), bytes, "{args:?} changed the file");
        assert_eq!(stamp(&home.glossary()), before, "{args:?} rewrote the file");
        assert_eq!(out.stdout, "", "{args:?} printed data from a file it could not read");
    }
}

#[test]
fn invalid_glossary_is_refused_naming_the_file_and_line() {
    assert_refuses_bad_glossary(BROKEN_LINE_3.as_bytes(), Some("line 3"));
}

/// serde_json reports a trailing comma where it meets the closing brace (line 4 here); the
/// message must point at the comma, the line the user has to fix. Fails until
/// `store::files::json_error` maps a trailing-comma error back to the comma's line.
#[test]
fn trailing_comma_is_reported_on_its_own_line() {
    assert_refuses_bad_glossary(TRAILING_COMMA_LINE_3.as_bytes(), Some("line 3"));
}

#[test]
fn non_object_glossary_is_refused() {
    assert_refuses_bad_glossary(b"[1,2]", None);
    assert_refuses_bad_glossary(b"\"just text\"", None);
}

#[test]
fn non_string_value_in_the_glossary_is_refused() {
    assert_refuses_bad_glossary(b"{\"a\": 1}", None);
    assert_refuses_bad_glossary(
        b"{\n  \"a\": \"x\",\n  \"b\": {\"nested\": \"no\"}\n}",
        Some("line 3"),
    );
    assert_refuses_bad_glossary(b"{\"a\": null}", None);
}

#[test]
fn glossary_that_is_not_utf8_is_refused() {
    assert_refuses_bad_glossary(b"{\"a\": \"\xff\xfe\"}", None);
}

// ---------------------------------------------------------------------------------------------
// config

#[test]
fn config_prints_the_effective_settings_with_defaults() {
    let home = Home::new();
    let out = home.run(&["config"]);
    out.ok();
    let v = out.json();
    assert_eq!(v["debug"], json!(false));
    assert_eq!(v["smart"]["enabled"], json!(false));
    assert_eq!(v["smart"]["endpoint"], json!("http://127.0.0.1:1234/v1/chat/completions"));
    assert_eq!(v["smart"]["model"], json!("qwen3-0.6b"));
    assert_eq!(v["smart"]["fuzzyThreshold"], json!(0.2));
    assert_eq!(v["smart"]["apiKey"], json!(""));
    assert_eq!(v["smart"]["timeoutMs"], json!(3000));
    let prompt = v["smart"]["prompt"].as_str().expect("a prompt template");
    assert!(prompt.contains("{candidates}") && prompt.contains("{message}"), "{prompt}");
    // Showing the configuration writes nothing.
    assert!(!home.config().exists());
}

#[test]
fn config_set_stores_typed_values() {
    let home = Home::new();
    home.run(&["config", "smart.enabled", "true"]).ok();
    home.run(&["config", "smart.fuzzyThreshold", "0.35"]).ok();
    home.run(&["config", "smart.model", "123"]).ok();
    home.run(&["config", "smart.timeoutMs", "2500"]).ok();
    let file: Value = serde_json::from_slice(&read(&home.config())).unwrap();
    assert_eq!(file["smart"]["enabled"], json!(true));
    assert_eq!(file["smart"]["fuzzyThreshold"], json!(0.35));
    assert_eq!(file["smart"]["model"], json!("123"));
    assert_eq!(file["smart"]["timeoutMs"], json!(2500));
    // And the effective view shows them.
    let v = home.run(&["config"]).json();
    assert_eq!(v["smart"]["enabled"], json!(true));
    assert_eq!(v["smart"]["fuzzyThreshold"], json!(0.35));
    assert_eq!(v["smart"]["model"], json!("123"));
    assert_eq!(v["smart"]["endpoint"], json!("http://127.0.0.1:1234/v1/chat/completions"));
}

#[test]
fn config_get_prints_one_value() {
    let home = Home::new();
    let out = home.run(&["config", "smart.enabled"]);
    out.ok();
    assert_eq!(out.stdout.trim_end(), "false");
    home.run(&["config", "smart.enabled", "true"]).ok();
    assert_eq!(home.run(&["config", "smart.enabled"]).stdout.trim_end(), "true");
    assert_eq!(home.run(&["config", "smart.model"]).stdout.trim_end(), "qwen3-0.6b");
    assert_eq!(home.run(&["config", "smart.fuzzyThreshold"]).stdout.trim_end(), "0.2");
}

#[test]
fn config_refuses_invalid_values_and_changes_nothing() {
    let home = Home::new();
    home.run(&["config", "smart.model", "mine"]).ok();
    let bytes = read(&home.config());
    for (key, value) in [
        ("smart.enabled", "yes"),
        ("smart.enabled", "1"),
        ("smart.fuzzyThreshold", "1.5"),
        ("smart.fuzzyThreshold", "abc"),
        ("smart.timeoutMs", "0"),
        ("smart.timeoutMs", "2.5"),
        ("smart.endpoint", "ftp://x"),
        ("smart.endpoint", "localhost:1234"),
    ] {
        let out = home.run(&["config", key, value]);
        out.expect_code(2);
        assert!(
            out.stderr.contains(key),
            "{key} {value}: the message should name the key: {}",
            out.stderr
        );
        assert_eq!(read(&home.config()), bytes, "{key} {value} changed config.json");
    }
    // A negative number needs `--` to get past the argument parser; it is refused all the same.
    let out = home.run(&["config", "--", "smart.fuzzyThreshold", "-0.1"]);
    out.expect_code(2);
    assert!(out.stderr.contains("smart.fuzzyThreshold"), "{}", out.stderr);
    assert_eq!(read(&home.config()), bytes);
}

/// As for `record`: fails while `actions::set_config` locks (creating the folder and the lock
/// file) before validating the key and the value.
#[test]
fn config_refusal_in_a_fresh_home_creates_nothing() {
    let home = Home::new();
    home.run(&["config", "smart.enabled", "yes"]).expect_code(2);
    home.run(&["config", "smart.nope", "1"]).expect_code(2);
    assert!(!home.config().exists());
    // Bad input changes nothing: not even the store's folder or its lock file.
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new(), "a refused config wrote files");
}

#[test]
fn config_refuses_an_unknown_key_listing_the_known_ones() {
    let home = Home::new();
    let out = home.run(&["config", "smart.nope", "1"]);
    out.expect_code(2);
    assert!(out.stderr.contains("smart.nope"), "{}", out.stderr);
    for key in ["smart.enabled", "smart.endpoint", "smart.model", "smart.fuzzyThreshold"] {
        assert!(out.stderr.contains(key), "the known keys should include {key}: {}", out.stderr);
    }
    // Reading an unknown key is not found either.
    let out = home.run(&["config", "smart.nope"]);
    assert_ne!(out.code, 0);
    assert!(out.stderr.contains("smart.nope"), "{}", out.stderr);
}

#[test]
fn unknown_keys_in_config_json_survive_a_set() {
    let home = Home::new();
    let original = "{\n  \"mine\": {\"keep\": [1, 2, 3]},\n  \"smart\": {\n    \"custom\": \"x\",\n    \"model\": \"m\"\n  },\n  \"zzz\": null\n}\n";
    home.write_store_file("config.json", original.as_bytes());
    home.run(&["config", "smart.enabled", "true"]).ok();
    let file: Value = serde_json::from_slice(&read(&home.config())).unwrap();
    assert_eq!(
        file,
        json!({"mine": {"keep": [1, 2, 3]}, "smart": {"custom": "x", "model": "m", "enabled": true}, "zzz": null})
    );
    // Key order is kept too.
    let keys: Vec<&str> = file.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["mine", "smart", "zzz"]);
    let smart: Vec<&str> = file["smart"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(smart, ["custom", "model", "enabled"]);
    // The view of the settings in effect leaves them out: nothing uses them.
    assert!(home.run(&["config"]).json().get("mine").is_none());
}

#[test]
fn invalid_config_json_is_not_overwritten_by_a_set() {
    let home = Home::new();
    let broken = b"{\n  \"smart\": {\"enabled\": true,}\n}";
    home.write_store_file("config.json", broken);
    let out = home.run(&["config", "smart.model", "x"]);
    out.expect_code(2);
    assert!(out.stderr.contains("config.json"), "{}", out.stderr);
    assert_eq!(read(&home.config()), broken);
}

// ---------------------------------------------------------------------------------------------
// help

#[test]
fn every_command_help_shows_an_example() {
    let home = Home::new();
    for cmd in ["record", "remove", "list", "config", "match", "hook"] {
        let out = home.run(&[cmd, "--help"]);
        out.ok();
        assert!(out.stdout.contains("Example"), "`{cmd} --help` has no example:\n{}", out.stdout);
        assert!(out.stdout.contains(&format!("tinylingo {cmd}")), "{cmd}: {}", out.stdout);
    }
    let out = home.run(&["--help"]);
    out.ok();
    assert!(out.stdout.contains("Example"), "{}", out.stdout);
    for cmd in ["record", "remove", "list", "config", "match", "hook"] {
        assert!(out.stdout.contains(cmd), "top-level help should list {cmd}");
    }
    // Help writes nothing.
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new());
}

#[test]
fn an_unknown_command_is_a_usage_error() {
    let home = Home::new();
    let out = home.run(&["frobnicate"]);
    out.expect_code(2);
    assert!(!out.stderr.is_empty());
}

// ---------------------------------------------------------------------------------------------
// the store: where it lives, hand-written oddities, concurrent writers

#[test]
fn tinylingo_home_overrides_the_folder() {
    let home = Home::new();
    let custom = home.path().join("elsewhere");
    let run = |args: &[&str], dir: &std::ffi::OsStr| {
        let out = home.command(args).env("TINYLINGO_HOME", dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    run(&["record", "提交", "x"], custom.as_os_str());
    assert!(custom.join("glossary.json").exists());
    assert!(custom.join("glossary.index").exists());
    assert!(!home.store().exists(), "HOME's store was used despite TINYLINGO_HOME");
    assert_eq!(run(&["list"], custom.as_os_str()), "提交: x\n");
    // An empty TINYLINGO_HOME means "not set".
    run(&["record", "联调", "y"], std::ffi::OsStr::new(""));
    assert_eq!(home.run(&["list"]).stdout, "联调: y\n");
}

#[test]
fn blank_glossary_file_is_an_empty_glossary() {
    let home = Home::new();
    home.write_store_file("glossary.json", b"\n  \n");
    let out = home.run(&["list"]);
    out.ok();
    assert_eq!(out.stdout, "");
    home.run(&["record", "--force", "a", "b"]).ok();
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), js_pretty(&[("a", "b")]));
}

#[test]
fn concurrent_records_lose_nothing() {
    let home = Home::seeded();
    let children: Vec<_> = (0..8)
        .map(|i| {
            let mut cmd =
                home.command(&["record", &format!("term{i}"), &format!("explanation number{i}")]);
            cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped());
            cmd.spawn().expect("start a record")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let listed = home.run(&["export"]).json();
    let object = listed.as_object().unwrap();
    assert_eq!(object.len(), 12, "{listed}");
    for (term, explanation) in SEED {
        assert_eq!(object[term], json!(explanation));
    }
    for i in 0..8 {
        assert_eq!(object[&format!("term{i}")], json!(format!("explanation number{i}")));
    }
    // The seed keeps its place at the front.
    let keys: Vec<&str> = object.keys().map(String::as_str).take(4).collect();
    assert_eq!(keys, SEED.iter().map(|(t, _)| *t).collect::<Vec<_>>());
    // And the hook sees every one of them. The concurrent records land in any order, and hits
    // come in glossary order, so the two may come either way round.
    let mut hits = exact_terms(&home, "term0 term7");
    hits.sort();
    assert_eq!(hits, ["term0", "term7"]);
}

/// `tinylingo list | head -1`: when the reader goes away, the listing ends quietly, as other
/// Unix tools do (killed by SIGPIPE), instead of printing a panic about a broken pipe.
#[cfg(unix)]
#[test]
fn list_into_a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    let home = Home::new();
    // More than a pipe buffer holds, so the listing is still writing when the reader leaves.
    let entries: Vec<(String, String)> = (0..2000)
        .map(|i| (format!("term{i}"), format!("explanation number {i} {}", "x".repeat(60))))
        .collect();
    let glossary: serde_json::Map<String, Value> =
        entries.iter().map(|(t, e)| (t.clone(), Value::String(e.clone()))).collect();
    home.write_store_file("glossary.json", serde_json::to_string(&glossary).unwrap().as_bytes());

    let mut child = home
        .command(&["list"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn list");
    let mut first = [0u8; 16];
    child.stdout.take().expect("stdout").read_exact(&mut first).expect("the listing starts");
    // The read end is closed now (dropped above).
    let mut stderr = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    // SIGPIPE is 13 on every Unix we build for.
    assert_eq!(status.signal(), Some(13), "status {status:?}, stderr {stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
}

// ---------------------------------------------------------------------------------------------
// messages (issue 25, friction 10)

#[test]
fn a_glossary_of_the_wrong_shape_says_its_phrase_once() {
    let home = Home::new();
    home.write_store_file("glossary.json", b"[]\n");
    let out = home.run(&["list"]);
    out.expect_code(2);
    assert_eq!(out.stderr.matches("expected a JSON object").count(), 1, "{}", out.stderr);
}

#[test]
fn import_of_markdown_says_it_is_export_only() {
    let home = Home::seeded();
    let md = home.run(&["export", "--format", "md"]).ok().stdout.clone();
    let file = home.path().join("glossary.md");
    std::fs::write(&file, &md).unwrap();
    let out = home.run(&["import", file.to_str().unwrap()]);
    out.expect_code(2);
    assert!(out.stderr.contains("is Markdown"), "{}", out.stderr);
    assert!(out.stderr.contains("export --format tsv"), "{}", out.stderr);
    // By its content too, from stdin.
    let out = home.run_with_stdin(&["import", "-"], Some(md.as_bytes()));
    out.expect_code(2);
    assert!(out.stderr.contains("standard input is Markdown"), "{}", out.stderr);
}

#[test]
fn a_broken_config_json_is_warned_about_by_every_command_that_reads_it() {
    let home = Home::seeded();
    home.write_store_file("config.json", b"{\n");
    for args in [&["list"][..], &["search", "ProjectA"], &["stats"], &["remove", "联调"]] {
        let out = home.run(args);
        assert!(out.stderr.contains("using the default settings"), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn config_format_text_is_for_people_and_the_default_stays_json() {
    let home = Home::new();
    let out = home.run(&["config", "--format", "text"]);
    out.ok();
    assert!(!out.stdout.starts_with('{'), "{}", out.stdout);
    let line = out.stdout.lines().find(|l| l.starts_with("smart.model")).expect("a line a key");
    assert_eq!(line.split_whitespace().collect::<Vec<_>>(), ["smart.model", "qwen3-0.6b"]);
    assert!(home.run(&["config"]).ok().json().is_object());
}

#[test]
fn completions_offer_the_assistants_and_export_help_names_the_scope() {
    let home = Home::new();
    let bash = home.run(&["completions", "bash"]).ok().stdout.clone();
    let install = bash.lines().find(|l| l.contains("--allow-record --mcp")).expect("install");
    assert!(install.contains("claude cursor opencode codex gemini"), "{install}");
    let help = home.run(&["export", "--help"]).ok().stdout.clone();
    assert!(help.contains("term<TAB>explanation<TAB>scope"), "{help}");
    let out = home.run(&["install", "nosuch"]);
    out.expect_code(2);
    assert!(out.stderr.contains("claude"), "{}", out.stderr);
}
