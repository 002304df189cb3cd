//! `matching.wordBoundary`, end to end with the real binary: on by default, set with `config`,
//! followed by `match` and by the hook (through the index, rebuilt for the setting), and off.

mod common;

use common::{claude_answer, exact_terms, Home};

const ENTRIES: [(&str, &str); 4] = [
    ("loo", "the toilet, in British English"),
    ("api", "the service's HTTP API, see docs/api.md"),
    ("C++", "the engine's language, C++17"),
    ("智能抠图", "ProjectA 中背景移除模块"),
];

fn home() -> Home {
    let home = Home::new();
    home.record_all(&ENTRIES);
    home
}

const PROMPT: &str = "look at the rapid api_key path in ObjC++ and the 智能抠图 code";

#[test]
fn on_by_default_short_ascii_terms_do_not_hit_inside_words() {
    let home = Home::new();
    home.record_all(&[("UI", "the Qt front end"), ("DB", "Postgres 16"), ("设计", "Figma 文件")]);
    assert_eq!(home.run(&["config", "matching.wordBoundary"]).ok().stdout.trim(), "true");
    let prompt = "the GUI is BUILDING slowly; 设计稿 in the UI, DB.";
    assert_eq!(exact_terms(&home, prompt), ["UI", "DB", "设计"]);
    assert_eq!(exact_terms(&home, "the GUI is BUILDING slowly; 重新设计"), ["设计"]);
    let out = home.claude_hook("the GUI is BUILDING");
    assert_eq!((out.code, out.stdout.as_str()), (0, ""));
}

#[test]
fn on_only_whole_words_hit_in_match_and_in_the_hook() {
    let home = home();
    assert_eq!(home.run(&["config", "matching.wordBoundary"]).ok().stdout.trim(), "true");
    assert_eq!(exact_terms(&home, PROMPT), ["智能抠图"]);
    let out = home.claude_hook(PROMPT);
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("智能抠图", ENTRIES[3].1)]));
    // Whole words, next to punctuation, CJK text and the ends of the prompt.
    let whole = "loo? 调用api接口, C++17";
    assert_eq!(exact_terms(&home, whole), ["loo", "api", "C++"]);
    let out = home.claude_hook(whole);
    assert_eq!(out.json(), claude_answer(&[ENTRIES[0], ENTRIES[1], ENTRIES[2]]));
    // Off: substrings hit, for those who want them.
    home.run(&["config", "matching.wordBoundary", "false"]).ok();
    assert_eq!(exact_terms(&home, PROMPT), ["loo", "api", "C++", "智能抠图"]);
}

#[test]
fn a_hand_edit_of_config_json_is_followed_by_the_very_next_hook() {
    let home = home();
    home.run(&["match", "look"]).expect_code(1);
    home.write_store_file("config.json", br#"{"matching": {"wordBoundary": false}}"#);
    let out = home.claude_hook("look");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[ENTRIES[0]]));
    assert_eq!(exact_terms(&home, "look"), ["loo"]);
}

#[test]
fn the_setting_takes_only_booleans() {
    let home = home();
    let out = home.run(&["config", "matching.wordBoundary", "yes"]);
    out.expect_code(2);
    assert!(out.stderr.contains("matching.wordBoundary must be true or false"), "{}", out.stderr);
}
