//! Smart case per term (issue #36, point 6), end to end with the real binary: a term in lower
//! case or Capitalised word by word hits whatever the case; an acronym or a mixed-case
//! identifier hits as written; `match` says which rule a hit followed; and an index built
//! before the automaton held its terms folded is rebuilt, not misread.

mod common;

use common::{claude_answer, exact_terms, read, write_in_place, Home};
use tinylingo::index::FORMAT_VERSION;
use tinylingo::store::Store;

const ENTRIES: [(&str, &str); 8] = [
    ("the drawer", "the side panel of the editor"),
    ("Redis", "the session cache, redis://cache:6379"),
    ("UI", "the Qt front end"),
    ("getUser", "UserService.getUser(id), cached for 60 s"),
    ("BGRemover", "the background removal class, src/bg/remover.rs"),
    ("智能抠图", "ProjectA 背景移除模块"),
    ("Ärger", "Fehlerberichte, siehe docs/ärger.md"),
    ("ΑΘΗΝΑ", "the Athens data centre"),
];

fn home() -> Home {
    let home = Home::new();
    home.record_all(&ENTRIES);
    home.run(&["config", "language", "en"]).ok();
    home
}

fn entry(term: &str) -> (&'static str, &'static str) {
    *ENTRIES.iter().find(|(t, _)| *t == term).expect("a recorded term")
}

#[test]
fn lower_case_and_capitalised_terms_hit_whatever_the_case() {
    let home = home();
    assert_eq!(exact_terms(&home, "The drawer should close"), ["the drawer"]);
    assert_eq!(exact_terms(&home, "THE DRAWER sticks"), ["the drawer"]);
    assert_eq!(exact_terms(&home, "is redis up?"), ["Redis"]);
    assert_eq!(exact_terms(&home, "REDIS is down"), ["Redis"]);
    // The hook injects the term as recorded.
    let out = home.claude_hook("The drawer does not open and redis times out");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[entry("the drawer"), entry("Redis")]));
}

#[test]
fn acronyms_and_mixed_case_identifiers_hit_only_as_written() {
    let home = home();
    assert!(exact_terms(&home, "the ui is slow; the Ui too").is_empty());
    assert!(exact_terms(&home, "call getuser or GetUser or GETUSER").is_empty());
    assert!(exact_terms(&home, "bgremover, BgRemover, bgRemover").is_empty());
    assert_eq!(exact_terms(&home, "the UI calls getUser"), ["UI", "getUser"]);
    assert_eq!(exact_terms(&home, "BGRemover is slow"), ["BGRemover"]);
    // An occurrence in another case first does not hide the one as written.
    assert_eq!(exact_terms(&home, "ui, Ui, then UI"), ["UI"]);
    let out = home.claude_hook("the ui and getuser");
    assert_eq!((out.code, out.stdout.as_str()), (0, ""));
}

#[test]
fn whole_words_still_apply_in_any_case() {
    let home = home();
    assert!(exact_terms(&home, "predis and redisson").is_empty());
    assert!(exact_terms(&home, "PREDIS, the GUI, Redis_cluster").is_empty());
    assert_eq!(exact_terms(&home, "redis-cluster (Redis)"), ["Redis"]);
    // Off, a term still keeps its case rule inside words.
    home.run(&["config", "matching.wordBoundary", "false"]).ok();
    assert_eq!(exact_terms(&home, "predis and the gui"), ["Redis"]);
    assert_eq!(exact_terms(&home, "predis and the GUI"), ["Redis", "UI"]);
}

#[test]
fn cjk_terms_are_unaffected_and_other_cased_letters_fold() {
    let home = home();
    assert_eq!(exact_terms(&home, "智能抠图的API文档"), ["智能抠图"]);
    // `Ärger` is Capitalised: any case, its umlaut folded too.
    assert_eq!(exact_terms(&home, "viel ärger heute"), ["Ärger"]);
    assert_eq!(exact_terms(&home, "ÄRGER!"), ["Ärger"]);
    // Greek capitals only: an acronym, as written.
    assert_eq!(exact_terms(&home, "ΑΘΗΝΑ"), ["ΑΘΗΝΑ"]);
    assert!(exact_terms(&home, "Αθηνα, αθηνα").is_empty());
}

#[test]
fn match_says_why_a_term_hit() {
    let home = home();
    let prompt = "redis, the UI and 智能抠图";
    let out = home.run(&["match", prompt]);
    out.ok();
    assert_eq!(
        out.stdout,
        format!(
            "[exact] Redis (any case: lower case or Capitalised) → {}\n\
             [exact] UI (case as written: acronym or mixed case) → {}\n\
             [exact] 智能抠图 → {}\n",
            entry("Redis").1,
            entry("UI").1,
            entry("智能抠图").1
        )
    );
    let json = home.run(&["match", "--json", prompt]).json();
    let cases: Vec<(&str, &str)> = json["exact"]
        .as_array()
        .expect("exact hits")
        .iter()
        .map(|e| (e["term"].as_str().unwrap(), e["case"].as_str().unwrap()))
        .collect();
    assert_eq!(cases, [("Redis", "ignored"), ("UI", "exact"), ("智能抠图", "none")]);
    let tsv = home.run(&["match", "--format", "tsv", prompt]);
    let fields: Vec<Vec<&str>> = tsv.stdout.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(fields[0], ["exact", "Redis", entry("Redis").1, "", "", "ignored", "user"]);
    home.run(&["config", "language", "zh"]).ok();
    let zh = home.run(&["match", "the UI"]).stdout;
    assert_eq!(zh, format!("[精确] UI（区分大小写：缩写或大小写混合） → {}\n", entry("UI").1));
}

#[test]
fn an_index_from_before_the_smart_case_is_rebuilt() {
    let home = Home::new();
    home.record_all(&[("Redis", "the cache")]);
    // What format 11 archived for this glossary, written by that version: its automaton holds
    // `Redis` as written, so the folded prompt would never find it there. Put in place with a
    // header that is right in every way (fingerprints, checksums) but its version.
    let old = include_bytes!("fixtures/index/v11-redis.archive");
    let store = Store::at(home.store());
    let sources = tinylingo::index::source_fingerprints(&store);
    tinylingo::index::write(&store, old, sources).expect("write the old archive");
    let mut file = read(&home.index());
    file[8..12].copy_from_slice(&11u32.to_le_bytes());
    write_in_place(&home.index(), &file);

    let out = home.claude_hook("redis is down");
    out.ok();
    assert_eq!(out.json(), claude_answer(&[("Redis", "the cache")]));
    let rebuilt = read(&home.index());
    assert_eq!(u32::from_le_bytes(rebuilt[8..12].try_into().unwrap()), FORMAT_VERSION);
    assert_ne!(&rebuilt[128..], &old[..], "the old archive was kept");
    assert_eq!(exact_terms(&home, "REDIS"), ["Redis"]);
}
