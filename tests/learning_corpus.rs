//! The rules of `suggest` on the labeled cases: each case is one session, rendered at test time
//! in each of the four assistants' formats (`tests/support/corpus.rs`), scanned by the real
//! binary, and scored case by case: a hit is the right term proposed from the right session.
//!
//! The parts:
//! - `tests/learning/cases/regression.jsonl`: a fixed regression set, thinned from the 21 parts
//!   the rules were written and tuned on (see [`REGRESSION`] for how).
//! - any other `tests/learning/cases/*.jsonl`: parts being tuned on.
//! - `tests/learning/blind/*.jsonl`: blind parts, written by someone who read neither the rules
//!   nor any other case, committed unread, and measured once before anyone tunes to them. With
//!   no file there, blind scoring is skipped.
//!
//! Per part, per kind and per language: tp/fp/fn, precision, recall, and the share of the
//! right proposals whose explanation holds every fact the user gave (the case's `facts`, over
//! the positives that have them). A proposal from a trap session is a false positive.
//!
//! Env: `LEARNING_REPORT=1` prints every part's table and asserts nothing (measure a new blind
//! part this way, totals and kinds only, before setting its floors). `LEARNING_MISSES=PART,…`
//! also names each missed or false case of those parts (never a blind part's before it was
//! measured). `LEARNING_PARTS=PART,…` scores only those parts. The tables go to stderr: run
//! with `--nocapture`.
//!
//! `LEARNING_MODEL_URL` or `LEARNING_MODEL_ANSWERS` turns on the model's review in every scan
//! (`tests/support/corpus_model.rs` says how); the floors are the rules' alone, so with a model
//! they are not checked, as with `LEARNING_REPORT`.

mod common;
#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/corpus_model.rs"]
mod corpus_model;
#[path = "support/llm_server.rs"]
mod llm_server;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use common::Home;
use corpus::{Assistant, Case, Sessions, ASSISTANTS};
use corpus_model::Model;
use tinylingo::learning::{Inbox, Status};
use tinylingo::ops::duplicates::words::same_term;

/// Floors of one part; `facts` applies only when some of its right proposals have facts.
#[derive(Debug, Clone, Copy)]
struct Floors {
    precision: f64,
    recall: f64,
    facts: f64,
}

/// The regression set: 503 of the 1,819 cases of the parts `tuned`, `heldout`, `fresh`,
/// `fresh2`, `tuned2` and `fresh3` to `fresh18` (each case's `from` names its part and line),
/// in proportion per kind and language: of each (kind, language) with N cases, round(N × 500 /
/// 1,819) and at least one, those whose `user` text has the smallest SHA-256 (as hex); in the
/// parts' order. All but `tuned` were written blind and measured blind once, then tuned on:
///
/// | part | cases | when written, blind | measured blind, after tuning on the parts above |
/// |---|---|---|---|
/// | fresh | 62 | 0.650 / 0.361 | — |
/// | fresh2 | 80 | 0.531 / 0.354 | 0.919 / 0.708 |
/// | tuned2 | 120 | 0.762 / 0.427 | (a tuning part) |
/// | fresh3 | 80 | 0.778 / 0.438 | 0.857 / 0.750 |
/// | fresh4 | 80 | 0.778 / 0.438 | 0.707 / 0.604 |
/// | fresh5 + fresh6 | 160 | 0.682 / 0.479 | 0.793 / 0.734 |
/// | fresh7 + fresh8 | 160 | 0.697 / 0.479 | 0.879 / 0.760 |
/// | fresh9 + fresh10 | 160 | 0.69 / 0.49 | 0.852 / 0.798 |
/// | fresh11 + fresh12 | 160 | 0.79 / 0.51 | 0.902 / 0.796 |
/// | fresh13 + fresh14 | 160 | 0.884 / 0.792 | 0.884 / 0.792 (no tuning between) |
/// | fresh15 … fresh18 | 320 | 0.906 / 0.858 | 0.923 / 0.874 |
///
/// (Those figures counted the set of terms per part; the count here is per case, and gives
/// the same figures on those parts.) On the set, when it was made, the rules measured
/// precision 0.987 and recall 0.980 (tp 1192, fp 16, fn 24; zh 1.000 / 0.987, en 0.974 /
/// 0.974), facts unlabeled. The floors sit just under: raise them when the rules improve,
/// never edit a case to raise a figure. `facts` is the issue's target, for tuning parts that
/// label facts.
const REGRESSION: Floors = Floors { precision: 0.97, recall: 0.96, facts: 0.80 };

/// The issue's targets, for a blind part without a row in [`FLOORS`].
const BLIND: Floors = Floors { precision: 0.95, recall: 0.85, facts: 0.80 };

/// Parts with floors of their own, by folder and name: `cases/NAME` (else [`REGRESSION`]'s) or
/// `blind/NAME` (else [`BLIND`]'s). A blind part measured below the targets gets a row with
/// what it measured first, and the figures in a comment.
const FLOORS: &[(&str, Floors)] = &[
    ("cases/regression", REGRESSION),
    // Written for issue #36's rules and tuned on (0.690 / 0.682 / 0.328 before, 0.961 /
    // 0.859 / 1.000 after).
    ("cases/tuned3", Floors { precision: 0.95, recall: 0.85, facts: 0.95 }),
    // Parts written blind for issue #36 (tests/learning/blind/README.md: who wrote them, what
    // they hold), each measured once on the rules of its day before anyone read it, then tuned
    // on; a part tuned on keeps the regression floors unless it has a row here. Precision /
    // recall / facts, blind, on the rules named:
    //
    // | part | rules before #36 | #36's rules, 0823adb | later, untuned to it | tuned on |
    // |---|---|---|---|---|
    // | D | 0.562 / 0.600 / 0.667 | 0.704 / 0.633 / 0.921 | | 1.000 / 0.983 / 1.000 |
    // | E | 0.661 / 0.617 / 0.703 | 0.736 / 0.650 / 0.949 | | 0.983 / 0.983 / 0.983 |
    // | F | | 0.755 / 0.617 / 0.892 | 0.796 / 0.717 / 0.977 (91c86b2) | 1.000 / 1.000 / 1.000 |
    // | H | | | 0.768 / 0.717 / 0.907 (6481dc6) | 0.967 / 0.967 / 0.983 |
    // | I | | | 0.759 / 0.683 / 0.805 (6481dc6) | 1.000 / 1.000 / 0.967 |
    // | J | | | 0.818 / 0.750 / 0.911 (6481dc6) | 0.983 / 0.983 / 1.000 |
    // | K | | | 0.759 / 0.683 / 0.951 (5663637) | 0.881 / 0.867 / 0.962 |
    // | L | | | 0.811 / 0.717 / 1.000 (5663637) | 0.930 / 0.883 / 0.981 |
    // | M | | | 0.736 / 0.650 / 1.000 (5663637) | 0.948 / 0.917 / 1.000 |
    //
    // Part G, written with F before this round's rules and sealed until 9564e0d (tuned on D, E,
    // F, H–M): 0.711 / 0.533 / 0.844 on 0823adb, 0.774 / 0.683 / 0.951 blind on 9564e0d; tuned
    // on after: 0.966 / 0.933 / 0.964.
    //
    // D to M were then thinned into `regression2.jsonl` (to keep the README's test command in
    // its time): 301 of their 1,500 cases, chosen as the regression set's were (of each (kind,
    // language) with N cases, round(N × 300 / 1,500) and at least one, those whose `user` text
    // has the smallest SHA-256; each case's `from` names its part and line). On it, when it was
    // made (16cc47c): 0.958 / 0.942 / 0.973 (tp 452, fp 20, fn 28).
    ("cases/regression2", Floors { precision: 0.95, recall: 0.93, facts: 0.95 }),
    // Parts N to U, written blind after G (who wrote them, and their briefs:
    // tests/learning/blind/README.md), each measured once on the rules of its day, then tuned
    // on. Precision / recall / facts, strict (with the writer's `also` in brackets where given):
    //
    // | part | blind, on | tuned on, last |
    // |---|---|---|
    // | N | 0.714 / 0.667 / 0.900 (a17345a) | 0.883 / 0.883 / 0.981 |
    // | O | 0.679 / 0.600 / 0.944 (0.736 / 0.650; b490b66) | 0.912 / 0.867 / 0.962 |
    // | P | 0.746 / 0.733 / 0.955 (0.814 / 0.800; b490b66) | 0.917 / 0.917 / 0.964 |
    // | Q | 0.857 / 0.800 / 1.000 (0.893 / 0.833; fb8f661) | 0.933 / 0.933 / 0.982 |
    // | R | 0.667 / 0.500 / 0.967 (0.733 / 0.550; b91dde1) | 0.811 / 0.717 / 0.977 |
    // | S | 0.750 / 0.650 / 0.949 (0.808 / 0.700; b91dde1) | 0.864 / 0.850 / 0.941 |
    // | T | 0.840 / 0.700 / 0.952 (0.860 / 0.717; aadbc41) | 0.845 / 0.817 / 0.939 |
    // | U | 0.811 / 0.717 / 0.953 (aadbc41) | 0.877 / 0.833 / 0.960 |
    //
    // N to U were then thinned into `regression3.jsonl` as D to M were (245 of their 1,200
    // cases: of each (kind, language) with N cases, round(N × 240 / 1,200) and at least one,
    // those whose `user` text has the smallest SHA-256; `from` names part and line). On it,
    // when it was made (a7d1d59): 0.882 / 0.845 / 0.939 (tp 328, fp 44, fn 60; 0.935 / 0.897
    // with `also`); the floors sit just under.
    ("cases/regression3", Floors { precision: 0.88, recall: 0.84, facts: 0.93 }),
    // Parts V to Z2, written blind after U (who wrote them, and their briefs:
    // tests/learning/blind/README.md), each measured once on the rules of its day, then tuned
    // on (V and W first as the development set of the local model's review). Precision /
    // recall / facts by the rules, strict; "review" is with the local model's review (a helper
    // answering its prompts, replayed; tests/learning/model/):
    //
    // | part | blind, on | review, blind | tuned on, last (ab51872) |
    // |---|---|---|---|
    // | V | 0.772 / 0.733 / 0.864 (e0aed33) | | 0.817 / 0.817 / 0.878 |
    // | W | 0.792 / 0.700 / 0.976 (e0aed33) | | 0.800 / 0.733 / 1.000 |
    // | X | 0.774 / 0.683 / 0.927 (33670fb) | 0.750 / 0.800 / 0.854 | 0.814 / 0.800 / 0.938 |
    // | Y | 0.804 / 0.683 / 0.878 (33670fb) | 0.839 / 0.783 / 0.851 | 0.836 / 0.767 / 0.913 |
    // | Z1 | 0.786 / 0.733 / 0.932 (b173868) | 0.825 / 0.867 / 0.942 | 0.810 / 0.783 / 0.936 |
    // | Z2 | 0.796 / 0.650 / 0.949 (b173868) | 0.891 / 0.817 / 0.918 | 0.862 / 0.833 / 0.940 |
    //
    // V to Z2 were then thinned into `regression4.jsonl` as N to U were (180 of their 900
    // cases: of each (kind, language) with N cases, round(N × 180 / 900) and at least one,
    // those whose `user` text has the smallest SHA-256; `from` names part and line). On it,
    // when it was made (ab51872): 0.794 / 0.750 / 0.944 (tp 216, fp 56, fn 72; 0.851 / 0.792
    // with `also`); the floors sit just under.
    ("cases/regression4", Floors { precision: 0.79, recall: 0.74, facts: 0.94 }),
    // Blind parts Z3 and Z4, written by hand by two helpers with Z1's brief after Z1 and Z2 were
    // measured, committed unread (d9a1858) before the rules were tuned on X–Z2, and measured
    // once: by the rules (607fdbc; the commit after changes only what the model reviews) Z3
    // 0.745 / 0.683 / 0.902 (tp 164, fp 56, fn 76), Z4 0.843 / 0.717 / 0.930 (tp 172, fp 32, fn
    // 68); with the local model's review on ed17bf0 (a helper answering the 178 prompts,
    // replayed) Z3 0.862 / 0.833 / 0.880, Z4 0.932 / 0.917 / 0.873. Under the issue's targets;
    // the floors hold the rules' figures.
    ("cases/part_z3", Floors { precision: 0.78, recall: 0.75, facts: 0.94 }),
    ("cases/part_z4", Floors { precision: 0.88, recall: 0.84, facts: 0.93 }),
    // Blind parts Z5 and Z6, written by hand by two helpers with Z1's brief after Z3 and Z4
    // were measured, committed unread (d8faeb9), and measured once on the session's final
    // commit (c0e3853): by the rules Z5 0.765 / 0.650 / 0.897 (tp 156, fp 48, fn 84), Z6 0.793
    // / 0.767 / 0.913 (tp 184, fp 48, fn 56); with the local model's review (a helper answering
    // the 184 prompts, replayed) Z5 0.917 / 0.917 / 0.909, Z6 0.950 / 0.950 / 0.912, the first
    // blind part at the issue's targets, with the review. The floors hold the rules' figures.
    ("cases/part_z5", Floors { precision: 0.80, recall: 0.79, facts: 0.89 }),
    ("cases/part_z6", Floors { precision: 0.82, recall: 0.80, facts: 0.92 }),
    // Blind parts Z7 and Z8, written by hand by two helpers with Z1's brief after Z5 and Z6
    // were measured, committed unread (de67892) before the review's mend, and measured once on
    // it (205cfb9): by the rules Z7 0.808 / 0.700 / 0.976 (tp 168, fp 40, fn 72), Z8 0.750 /
    // 0.700 / 0.952 (tp 168, fp 56, fn 72); with the local model's review (a helper answering
    // the 167 prompts, replayed) Z7 0.862 / 0.833 / 0.940, Z8 0.847 / 0.833 / 0.940. Under the
    // issue's targets; the floors hold the rules' figures.
    ("cases/part_z7", Floors { precision: 0.87, recall: 0.87, facts: 0.99 }),
    ("cases/part_z8", Floors { precision: 0.86, recall: 0.84, facts: 0.97 }),
    // Parts V to Z8 were tuned on in the session after Z7 and Z8 were measured (a5e97db to
    // ab51872, after Z9 and Z10 were written), by the rules alone:
    // V 0.817 / 0.817 / 0.878, W 0.800 / 0.733 / 1.000, X 0.814 / 0.800 / 0.938, Y 0.836 / 0.767 /
    // 0.913, Z1 0.810 / 0.783 / 0.936, Z2 0.862 / 0.833 / 0.940, Z3 0.793 / 0.767 / 0.957, Z4
    // 0.895 / 0.850 / 0.941, Z5 0.814 / 0.800 / 0.896, Z6 0.831 / 0.817 / 0.939, Z7 0.883 / 0.883
    // / 1.000, Z8 0.879 / 0.850 / 0.980. Their floors sit just under those figures, or at the
    // blind ones where higher.
    // Blind parts Z9 and Z10, written by hand by two helpers with Z1's brief at the start of the
    // session that tuned V to Z8, committed unread (79654a8) before its first rule change, and
    // measured once on its final rules (ab51872): by the rules Z9 0.765 / 0.650 / 0.974 (tp
    // 156, fp 48, fn 84; 0.843 / 0.717 with `also`), Z10 0.846 / 0.733 / 0.977 (tp 176, fp 32,
    // fn 64; 0.885 / 0.767 with `also`); with the local model's review (a helper answering the
    // 179 prompts, replayed) Z9 0.879 / 0.850 / 0.941, Z10 0.949 / 0.933 / 0.929 (0.948 / 0.917
    // and 0.966 / 0.950 with `also`). Under the issue's targets; the floors hold the rules'
    // figures.
    ("cases/part_z9", Floors { precision: 0.76, recall: 0.65, facts: 0.97 }),
    ("cases/part_z10", Floors { precision: 0.84, recall: 0.73, facts: 0.97 }),
    // Blind parts Z11 and Z12, written by hand by two helpers with Z1's brief after Z9 and Z10
    // were measured, with no rule change since, committed unread (0b29b95), and measured once on
    // the same rules (ab51872): by the rules Z11 0.714 / 0.667 / 0.944 (tp 160, fp 64, fn 80;
    // 0.768 / 0.717 with `also`), Z12 0.808 / 0.700 / 0.905 (tp 168, fp 40, fn 72; 0.827 / 0.717
    // with `also`); with the local model's review (a helper answering the 172 prompts,
    // replayed) Z11 0.893 / 0.833 / 0.900, Z12 0.915 / 0.900 / 0.926. Under the issue's
    // targets; the floors hold the rules' figures.
    ("cases/part_z11", Floors { precision: 0.71, recall: 0.66, facts: 0.94 }),
    ("cases/part_z12", Floors { precision: 0.80, recall: 0.70, facts: 0.90 }),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/learning")
}

fn env_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

#[test]
fn the_rules_meet_their_floors_on_every_labeled_part() {
    let parts = parts_in(&root().join("cases"));
    check(&parts, "cases", REGRESSION);
    assert!(parts.iter().any(|p| p.ends_with("regression.jsonl")), "the regression set is there");
}

#[test]
fn the_rules_meet_the_issues_targets_on_every_blind_part() {
    // Only the file names are listed here; the cases are read by the scorer, never shown
    // unless LEARNING_MISSES names the part.
    let parts = parts_in(&root().join("blind"));
    if parts.is_empty() {
        eprintln!("no blind part in tests/learning/blind/: blind scoring skipped");
        return;
    }
    check(&parts, "blind", BLIND);
}

#[test]
fn each_case_is_credited_with_what_its_own_session_gave() {
    let case = |v: serde_json::Value| Case::from_json(&v);
    let ledger = "In this repo, ledger means the double-entry bookkeeping module under src/ledger";
    let cases = [
        // Right, with every fact in the explanation ("SRC/Ledger": compared case-insensitively).
        case(serde_json::json!({"lang": "en", "before": null, "user": ledger, "after": "Noted.",
            "expect": "ledger", "kind": "definition", "facts": ["double-entry", "SRC/Ledger"]})),
        // The same term from another session, with a fact its explanation lacks: scanned in
        // another home, so the first case's explanation cannot answer for it.
        case(serde_json::json!({"lang": "en", "before": "What is the ledger?",
            "user": "ledger means the module that posts journal entries",
            "after": "Noted.", "expect": "ledger", "kind": "answer",
            "facts": ["posts journal entries", "src/ledger"]})),
        // A definition in the session's second turn (`next`): found in every format.
        case(serde_json::json!({"lang": "en", "before": null, "user": "hi, quick one",
            "after": "Sure.", "next": {"user": "we call the API gateway the front door",
            "after": "OK."}, "expect": "front door", "kind": "two-message"})),
        // Labeled a trap: its proposal is a false positive, and nothing is missed.
        case(serde_json::json!({"lang": "en", "before": null,
            "user": "When I say the box, I mean the build server ci-runner-07",
            "after": "Understood.", "expect": null, "kind": "one-off"})),
    ];
    assert_eq!(homes_for(&cases), [vec![0, 2, 3], vec![1]]);
    let score = score(&cases);
    let t = score.tallies(&cases, false);
    let counts = |t: &Tally| [t.tp, t.fp, t.fn_, t.with_facts, t.all_facts];
    assert_eq!(counts(&t[0]), [4, 0, 0, 4, 4], "{}", score.misses("self", &cases));
    assert_eq!(counts(&t[1]), [4, 0, 0, 4, 0], "{}", score.misses("self", &cases));
    assert_eq!(counts(&t[2]), [4, 0, 0, 0, 0], "{}", score.misses("self", &cases));
    assert_eq!(counts(&t[3]), [0, 4, 0, 0, 0], "{}", score.misses("self", &cases));
    let table = score.table("self", &cases);
    assert!(table.contains("one-off (trap)"), "{table}");
    assert!(table.contains("0.500   4/8"), "{table}");
    assert!(!table.contains("with `also`"), "no case has `also`: {table}");

    // The writer's other spellings count only in the `also` row.
    let gate = case(serde_json::json!({"lang": "en", "before": null,
        "user": "when I say 'the gate' I mean the manual approval step", "after": "OK.",
        "expect": "the gate", "also": ["gate"], "kind": "definition"}));
    let got: Got = vec![("Gate".into(), "the manual approval step".into())];
    let counts = |t: Tally| [t.tp, t.fp, t.fn_];
    assert_eq!(counts(tally(&gate, &got, false)), [0, 1, 1]);
    assert_eq!(counts(tally(&gate, &got, true)), [1, 0, 0]);
    let other: Got = vec![("approval".into(), "the manual approval step".into())];
    assert_eq!(counts(tally(&gate, &other, true)), [0, 1, 1]);
}

/// The `*.jsonl` files of `dir`, sorted (none when it does not exist).
fn parts_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    out.sort();
    out
}

/// Scores each part, prints its table, and (unless `LEARNING_REPORT`) asserts its floors.
fn check(parts: &[PathBuf], folder: &str, default: Floors) {
    let report_only = env_on("LEARNING_REPORT") || MODEL.is_some();
    let misses = std::env::var("LEARNING_MISSES").unwrap_or_default();
    let only = std::env::var("LEARNING_PARTS").unwrap_or_default();
    let mut failed = Vec::new();
    for path in parts {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !only.is_empty() && !only.split(',').any(|p| p == name) {
            continue;
        }
        let key = format!("{folder}/{name}");
        let floors = FLOORS.iter().find(|(k, _)| *k == key).map_or(default, |(_, f)| *f);
        let cases = corpus::load(path);
        let score = score(&cases);
        eprintln!("{}", score.table(&key, &cases));
        if misses.split(',').any(|m| m == name) {
            eprintln!("{}", score.misses(&key, &cases));
        }
        let all = score.total(&cases);
        let facts = all.facts();
        if all.precision() < floors.precision
            || all.recall() < floors.recall
            || facts.is_some_and(|f| f < floors.facts)
        {
            failed.push(format!(
                "{key}: precision {:.3} recall {:.3} facts {} under {floors:?}",
                all.precision(),
                all.recall(),
                facts.map_or("-".into(), |f| format!("{f:.3}"))
            ));
        }
    }
    if report_only {
        eprintln!("LEARNING_REPORT or a model: floors not checked");
        return;
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

// ---- scoring ---------------------------------------------------------------------------------

/// Counts over some cases, each scanned in four formats (so a case counts four times).
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    tp: usize,
    fp: usize,
    fn_: usize,
    /// Right proposals whose case has facts, and those whose explanation holds them all.
    with_facts: usize,
    all_facts: usize,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.tp += o.tp;
        self.fp += o.fp;
        self.fn_ += o.fn_;
        self.with_facts += o.with_facts;
        self.all_facts += o.all_facts;
    }
    fn precision(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fp).max(1) as f64
    }
    fn recall(&self) -> f64 {
        self.tp as f64 / (self.tp + self.fn_).max(1) as f64
    }
    fn facts(&self) -> Option<f64> {
        (self.with_facts > 0).then(|| self.all_facts as f64 / self.with_facts as f64)
    }
}

/// What the scans proposed from one case's session, per assistant: (term, explanation).
type Got = Vec<(String, String)>;

/// What each case's session gave in each format, in the cases' order.
struct Score {
    got: Vec<[Got; 4]>,
}

/// Scans the cases in each format (the four at once, on their own threads) and attributes
/// every proposal to the sessions the inbox says it was seen in.
fn score(cases: &[Case]) -> Score {
    let homes = homes_for(cases);
    let per_assistant: Vec<Vec<Got>> = std::thread::scope(|s| {
        let runs = ASSISTANTS.map(|a| {
            let homes = &homes;
            s.spawn(move || {
                let mut got = vec![Got::new(); cases.len()];
                for members in homes {
                    scan(a, cases, members, &mut got);
                }
                got
            })
        });
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let got = (0..cases.len()).map(|i| std::array::from_fn(|a| per_assistant[a][i].clone()));
    Score { got: got.collect() }
}

/// The cases split over homes so that no two positives in one home expect the same term: the
/// inbox merges the proposals of one term, and each must be credited to its own case.
fn homes_for(cases: &[Case]) -> Vec<Vec<usize>> {
    let mut homes: Vec<Vec<usize>> = vec![Vec::new()];
    for (i, case) in cases.iter().enumerate() {
        let clash = |home: &Vec<usize>| {
            let term = case.expect.as_deref();
            home.iter().any(|&j| {
                term.is_some_and(|t| cases[j].expect.as_deref().is_some_and(|u| same_term(t, u)))
            })
        };
        match homes.iter_mut().find(|h| !clash(h)) {
            Some(home) => home.push(i),
            None => homes.push(vec![i]),
        }
    }
    homes
}

/// Renders `members` in `assistant`'s format into a fresh home, runs `suggest` there, and adds
/// each proposal to the cases whose sessions it was seen in.
/// The model reviewing every scan's proposals, when the environment names one.
static MODEL: LazyLock<Option<Model>> = LazyLock::new(Model::from_env);

fn scan(assistant: Assistant, cases: &[Case], members: &[usize], got: &mut [Got]) {
    let home = Home::new();
    if let Some(model) = &*MODEL {
        model.serve(&home);
    }
    let mut sessions = Sessions::new(home.path());
    let mut case_of = BTreeMap::new();
    for &i in members {
        case_of.insert(sessions.write(assistant, &cases[i], i, ""), i);
    }
    sessions.finish();
    let out = home.run(&["suggest", "--format", "jsonl", "--assistant", assistant.name()]);
    out.ok();
    let inbox = match fs::read_to_string(home.store().join("inbox.json")) {
        Ok(text) => serde_json::from_str(&text).expect("inbox.json as the library writes it"),
        Err(_) => Inbox::default(),
    };
    assert_eq!(inbox.pending().len(), out.stdout.lines().count(), "suggest printed them all");
    // (What the model rejected stays in the inbox, as rejected.)
    for p in inbox.proposals.into_iter().filter(|p| p.status == Status::Pending) {
        for session in &p.sessions {
            // A file's path (Gemini CLI's under the name of its older `.json` file), or
            // OpenCode's session id.
            let key = Path::new(session).file_stem().unwrap().to_str().unwrap();
            let i = case_of.get(key).unwrap_or_else(|| panic!("{session}: not a case's session"));
            got[*i].push((p.term.clone(), p.explanation.clone()));
        }
    }
}

/// Lowercased, each run of whitespace one space: how facts are compared.
fn folded(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// One case's counts from what one assistant's scan proposed from its session; with `also`,
/// the writer's other spellings of the term count as right too.
fn tally(case: &Case, got: &Got, also: bool) -> Tally {
    let mut t = Tally::default();
    let right = |term: &str| {
        case.expect.as_deref().is_some_and(|e| same_term(e, term))
            || also && case.expect.is_some() && case.also.iter().any(|a| same_term(a, term))
    };
    let mut terms: Vec<&str> = got.iter().map(|(term, _)| term.as_str()).collect();
    terms.sort();
    terms.dedup();
    t.fp = terms.iter().filter(|term| !right(term)).count();
    if case.expect.is_none() {
        return t;
    }
    match got.iter().find(|(term, _)| right(term)) {
        Some((_, explanation)) => {
            t.tp = 1;
            if !case.facts.is_empty() {
                t.with_facts = 1;
                let explanation = folded(explanation);
                t.all_facts = case.facts.iter().all(|f| explanation.contains(&folded(f))) as usize;
            }
        }
        None => t.fn_ = 1,
    }
    t
}

/// The kinds a positive has, in the issue's order; other kinds (traps) follow by name.
const POSITIVES: [&str; 6] =
    ["definition", "correction", "behaviour", "answer", "remember", "two-message"];

impl Score {
    /// Each case's counts, over the four formats; with `also`, as [`tally`] says.
    fn tallies(&self, cases: &[Case], also: bool) -> Vec<Tally> {
        let mut out = vec![Tally::default(); cases.len()];
        for ((t, case), got) in out.iter_mut().zip(cases).zip(&self.got) {
            for g in got {
                t.add(&tally(case, g, also));
            }
        }
        out
    }

    fn total(&self, cases: &[Case]) -> Tally {
        let mut all = Tally::default();
        for t in self.tallies(cases, false) {
            all.add(&t);
        }
        all
    }

    /// The part's figures per kind, per language and in all, as a table.
    fn table(&self, key: &str, cases: &[Case]) -> String {
        let tallies = self.tallies(cases, false);
        let with_also = self.tallies(cases, true);
        let mut kinds: Vec<(bool, &str)> =
            cases.iter().map(|c| (c.expect.is_none(), c.kind.as_str())).collect();
        kinds.sort_by_key(|&(trap, kind)| {
            (trap, POSITIVES.iter().position(|p| *p == kind).unwrap_or(POSITIVES.len()), kind)
        });
        kinds.dedup();
        let mut out = format!("\n{key}: {} cases, each in 4 formats\n", cases.len());
        let _ = writeln!(
            out,
            "{:<22} {:>5} {:>5} {:>4} {:>4}  {:>9} {:>6}  {:>11}",
            "kind", "cases", "tp", "fp", "fn", "precision", "recall", "all facts"
        );
        let rows = |out: &mut String,
                    tallies: &[Tally],
                    label: &str,
                    trap: bool,
                    pick: &dyn Fn(&Case) -> bool| {
            let mut t = Tally::default();
            let mut n = 0;
            for (case, ct) in cases.iter().zip(tallies) {
                if pick(case) {
                    t.add(ct);
                    n += 1;
                }
            }
            let facts = match t.facts() {
                Some(f) => format!("{f:.3} {:>3}/{:<3}", t.all_facts, t.with_facts),
                None => "-".into(),
            };
            let _ = if trap {
                writeln!(
                    out,
                    "{label:<22} {n:>5} {:>5} {:>4} {:>4}  {:>9} {:>6}  {:>11}",
                    "-", t.fp, "-", "-", "-", ""
                )
            } else {
                writeln!(
                    out,
                    "{label:<22} {n:>5} {:>5} {:>4} {:>4}  {:>9.3} {:>6.3}  {facts:>11}",
                    t.tp,
                    t.fp,
                    t.fn_,
                    t.precision(),
                    t.recall()
                )
            };
        };
        let row = |out: &mut String, label: &str, trap: bool, pick: &dyn Fn(&Case) -> bool| {
            rows(out, &tallies, label, trap, pick)
        };
        for (trap, kind) in kinds {
            let label = if trap { format!("{kind} (trap)") } else { kind.to_string() };
            row(&mut out, &label, trap, &|c: &Case| c.kind == kind && c.expect.is_none() == trap);
        }
        for lang in ["zh", "en"] {
            row(&mut out, lang, false, &|c: &Case| c.lang == lang);
        }
        row(&mut out, "all", false, &|_: &Case| true);
        if cases.iter().any(|c| !c.also.is_empty()) {
            rows(&mut out, &with_also, "all, with `also`", false, &|_: &Case| true);
        }
        out
    }

    /// Each case with a miss or a false proposal: what was expected, what came, and where.
    fn misses(&self, key: &str, cases: &[Case]) -> String {
        let mut out = String::new();
        for (i, (case, got)) in cases.iter().zip(&self.got).enumerate() {
            let mut wrong = Vec::new();
            for (assistant, g) in ASSISTANTS.iter().zip(got) {
                let t = tally(case, g, false);
                if t.fp + t.fn_ > 0 || t.with_facts > t.all_facts {
                    let proposed: Vec<String> =
                        g.iter().map(|(term, e)| format!("{term}: {e}")).collect();
                    wrong.push(format!(
                        "    {}: {}",
                        assistant.name(),
                        if proposed.is_empty() { "nothing".into() } else { proposed.join(" | ") }
                    ));
                }
            }
            if wrong.is_empty() {
                continue;
            }
            let expect = case.expect.as_deref().unwrap_or("(nothing)");
            let _ = writeln!(
                out,
                "{key}:{} {} [{}] expect {expect} {:?}\n  user: {}",
                i + 1,
                case.kind,
                case.lang,
                case.facts,
                case.user
            );
            out.push_str(&wrong.join("\n"));
            out.push('\n');
        }
        out
    }
}
