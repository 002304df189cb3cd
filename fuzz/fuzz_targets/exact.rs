//! Exact matching: the automaton, searched in its archived form, against the definition
//! (`{t : prompt.contains(t)}` in glossary order), on its own (raw byte terms, duplicates and
//! empty terms allowed); and the whole index the hook uses (glossary → archive →
//! `matching::find`), which folds case per term, against the smart-case definition
//! (`matching::case::reference_hits`).
//!
//! With mode bit 1, whole words (`matching.wordBoundary`): against the definition in
//! `matching::boundary` (`word_hits`) instead, and for the index, smart case with whole words.
//!
//! Input: mode byte (bit 0: small alphabet, bit 1: whole words), then the prompt, then terms,
//! split on 0xFF.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tinylingo::index;
use tinylingo::matching::automaton::{ArchivedAutomaton, Automaton};
use tinylingo::matching::boundary::{whole_word_at, word_hits};
use tinylingo::matching::{self, case, Engines, Smart};
use tinylingo::store::{Glossary, Settings};
use tinylingo_fuzz::{split, substring_hits, text};

fuzz_target!(|data: &[u8]| {
    let Some((mode, parts)) = split(data) else { return };
    let small = mode & 1 == 1;
    let whole = mode & 2 == 2;
    let definition = |terms: &[&[u8]], hay: &[u8]| {
        if whole {
            word_hits(terms, hay)
        } else {
            substring_hits(terms, hay)
        }
    };
    let prompt = text(parts[0], small);
    let terms: Vec<String> = parts[1..].iter().take(200).map(|p| text(p, small)).collect();

    // The automaton alone.
    let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
    let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&Automaton::build(&t)).unwrap();
    let arch = rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(&bytes).unwrap();
    let hay = prompt.as_bytes();
    let found = if whole {
        arch.find_words(hay, &mut |id, end| whole_word_at(hay, end, t[id as usize]))
    } else {
        arch.find_all(hay)
    };
    for &(id, end) in &found {
        let term = t[id as usize];
        assert!(end >= term.len() && &hay[end - term.len()..end] == term, "bad position");
        assert!(!whole || whole_word_at(hay, end, term), "not a whole word");
    }
    let ids: Vec<u32> = found.iter().map(|&(id, _)| id).collect();
    assert_eq!(ids, definition(&t, hay), "automaton vs definition, prompt {prompt:?}");

    // The whole index: a glossary (one entry per term, as glossary.json holds them).
    let glossary: Glossary =
        terms.iter().enumerate().map(|(i, t)| (t.clone(), format!("explanation {i}"))).collect();
    let mut settings = Settings::default();
    settings.matching.word_boundary = whole;
    let archive = index::build_archive(&glossary, &settings);
    let data = index::access(&archive).expect("a fresh archive validates");
    let engines =
        Engines { automaton: &data.automaton, fuzzy: &data.fuzzy, entries: &data.entries };
    let outcome = matching::find(&engines, &prompt, &Smart::Off);
    let got: Vec<(&str, &str)> = outcome.exact.iter().map(|e| (e.term, e.explanation)).collect();
    let g_terms: Vec<&str> = glossary.terms().collect();
    let want: Vec<(&str, &str)> = case::reference_hits(&g_terms, &prompt, whole)
        .into_iter()
        .map(|i| glossary.iter().nth(i as usize).unwrap())
        .collect();
    assert_eq!(got, want, "index vs definition, prompt {prompt:?}");
});
