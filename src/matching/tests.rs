//! Tests of `find` through a whole index, as the hook reads it: whole words
//! (`matching.wordBoundary`) on and off, exact hits and the fuzzy candidates that follow them.

use proptest::prelude::*;

use super::{case, find, Engines, Smart};
use crate::index;
use crate::store::{Glossary, Settings};

/// Runs `f` on the engines of an index over `terms` (each explained alike), with whole words
/// on or off, and on the glossary's terms in order.
fn with_engines<R>(
    terms: &[&str],
    whole_words: bool,
    f: impl FnOnce(&Engines<'_, index::ArchivedEntries>, &[&str]) -> R,
) -> R {
    let glossary: Glossary = terms.iter().map(|&t| (t, "explained")).collect();
    let mut settings = Settings::default();
    settings.matching.word_boundary = whole_words;
    let archive = index::build_archive(&glossary, &settings);
    let data = index::access(&archive).expect("a fresh archive validates");
    let engines =
        Engines { automaton: &data.automaton, fuzzy: &data.fuzzy, entries: &data.entries };
    f(&engines, &glossary.terms().collect::<Vec<_>>())
}

/// Exact hits and fuzzy candidates (threshold 0.2, no model) of `prompt`, as terms.
fn matched(terms: &[&str], prompt: &str, whole_words: bool) -> (Vec<String>, Vec<String>) {
    with_engines(terms, whole_words, |engines, _| {
        let outcome = find(engines, prompt, &Smart::CandidatesOnly { threshold: 0.2 });
        let exact = outcome.exact.iter().map(|e| e.term.to_string()).collect();
        let mut fuzzy: Vec<String> =
            outcome.candidates.iter().map(|c| c.entry.term.into()).collect();
        fuzzy.sort();
        (exact, fuzzy)
    })
}

#[test]
fn on_by_default_and_off_exact_is_a_substring_search() {
    assert!(Settings::default().matching.word_boundary);
    let (exact, _) = matched(&["loo", "api"], "look at the rapid api_key", false);
    assert_eq!(exact, ["loo", "api"]);
}

#[test]
fn on_short_terms_stop_hitting_inside_words() {
    let terms = ["loo", "api", "key", "智能", "API文档"];
    let (exact, fuzzy) = matched(&terms, "look at the rapid api_key and keys", true);
    assert_eq!(exact, Vec::<String>::new());
    // Neither proposed on the strength of the words that hold them.
    assert_eq!(fuzzy, Vec::<String>::new());
    let (exact, _) = matched(&terms, "the loo, an api key; 智能抠图的API文档", true);
    assert_eq!(exact, ["loo", "api", "key", "智能", "API文档"]);
}

#[test]
fn on_the_longer_term_is_the_whole_word() {
    let (exact, _) = matched(&["lookup", "look", "up"], "a lookup table", true);
    assert_eq!(exact, ["lookup"]);
    let (exact, _) = matched(&["lookup", "look", "up"], "a lookup table", false);
    assert_eq!(exact, ["lookup", "look", "up"]);
}

#[test]
fn on_fuzzy_keeps_variants_and_drops_what_is_inside_words() {
    // A variant that does not hold the term is still a candidate.
    let (exact, fuzzy) = matched(&["color"], "colour it", true);
    assert_eq!((exact.len(), fuzzy), (0, vec!["color".to_string()]));
    // A term other than an ASCII one, held only inside longer words: not a candidate; held
    // as a whole word elsewhere: an exact hit.
    let (exact, fuzzy) = matched(&["C++", "api key"], "ObjC++ and rapi keys", true);
    assert_eq!((exact.len(), fuzzy.len()), (0, 0));
    let (_, fuzzy) = matched(&["C++", "api key"], "ObjC++ and rapi keys", false);
    assert!(fuzzy.is_empty(), "off, they are exact hits: {fuzzy:?}");
    let (exact, _) = matched(&["C++", "api key"], "ObjC++ or C++17", true);
    assert_eq!(exact, ["C++"]);
}

#[test]
fn smart_case_per_term_with_whole_words_on_and_off() {
    let terms = ["the drawer", "Redis", "UI", "getUser", "BGRemover"];
    for whole_words in [true, false] {
        let hits = |prompt: &str| matched(&terms, prompt, whole_words).0;
        assert_eq!(hits("The drawer should close"), ["the drawer"]);
        assert_eq!(hits("REDIS and redis"), ["Redis"]);
        assert_eq!(hits("the ui, the Ui, getuser, bgremover"), Vec::<String>::new());
        // The first occurrence in another case does not hide a later one as written.
        assert_eq!(hits("ui or UI, getuser or getUser"), ["UI", "getUser"]);
    }
}

#[test]
fn terms_that_differ_only_in_case_are_each_judged_by_their_own_rule() {
    // One key in the automaton for both; each term hits under its own rule, in glossary order.
    let terms = ["UI", "ui", "Redis", "redis"];
    for whole_words in [true, false] {
        let hits = |prompt: &str| matched(&terms, prompt, whole_words).0;
        assert_eq!(hits("the ui"), ["ui"]);
        assert_eq!(hits("the UI"), ["UI", "ui"]);
        assert_eq!(hits("the ui, then the UI"), ["UI", "ui"]);
        assert_eq!(hits("redis"), ["Redis", "redis"]);
    }
    let (exact, _) = matched(&terms, "the GUI", false);
    assert_eq!(exact, ["UI", "ui"]);
    let (exact, _) = matched(&terms, "the GUI, the gui", true);
    assert!(exact.is_empty(), "{exact:?}");
}

/// Text over letters in both cases (ASCII and beyond), a digit, word boundaries and CJK, so
/// that terms differ only in case, nest, and sit inside words.
fn cased_text(max: usize) -> impl Strategy<Value = String> {
    let chars = vec!['a', 'A', 'b', 'B', 'ä', 'Ä', '1', ' ', '_', '智'];
    prop::collection::vec(prop::sample::select(chars), 0..max).prop_map(String::from_iter)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Exact hits through a whole index against the plain definition of smart case.
    #[test]
    fn exact_hits_match_the_smart_case_definition(
        terms in prop::collection::btree_set(cased_text(4), 0..12),
        prompts in prop::collection::vec(prop_oneof![cased_text(30), cased_text(300)], 1..4),
        whole_words in any::<bool>(),
    ) {
        let terms: Vec<&str> = terms.iter().map(String::as_str).collect();
        let results = with_engines(&terms, whole_words, |engines, listed| {
            let ids = |prompt| find(engines, prompt, &Smart::Off).exact.iter().map(|e| e.id).collect();
            prompts
                .iter()
                .map(|p| (ids(p), case::reference_hits(listed, p, whole_words)))
                .collect::<Vec<(Vec<u32>, Vec<u32>)>>()
        });
        for (prompt, (got, want)) in prompts.iter().zip(results) {
            prop_assert_eq!(got, want, "{:?}", prompt);
        }
    }
}
