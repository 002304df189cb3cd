//! Fuzzy candidates from the archived prefilter against `fuzzy::reference` (the definition
//! written out literally): same ids, same order, same scores bit for bit. Both directly on the
//! fuzzy tables (any terms, duplicates included) and through the whole index.
//!
//! With mode bit 1, whole words (`matching.wordBoundary`): the reference's `candidates_with`,
//! and through the index, the terms other than ASCII ones that the message holds only inside
//! longer words left out as `matching::find` documents.
//!
//! Input: mode byte (bit 0: small alphabet, bit 1: whole words), threshold byte, exact-hit
//! mask byte, then the message and the terms, split on 0xFF. Sizes are capped: the reference
//! is slow by design.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tinylingo::index;
use tinylingo::matching::fuzzy::{
    is_ascii_term, reference, ArchivedFuzzyIndex, Candidate, FuzzyIndex,
};
use tinylingo::matching::{self, case, Engines, Smart};
use tinylingo::store::{Glossary, Settings};
use tinylingo_fuzz::{text, SEP};

fn threshold(b: u8) -> f64 {
    match b {
        0 => 0.0,
        1 => -0.5,
        2 => 1.0,
        3 => 1.5,
        4 => f64::NAN,
        5 => 0.2,
        6 => 1.0 / 3.0,
        _ => f64::from(b) / 255.0,
    }
}

fn bits(v: &[Candidate]) -> Vec<(u32, u64)> {
    v.iter().map(|c| (c.id, c.score.to_bits())).collect()
}

fn capped(s: String, max: usize) -> String {
    s.chars().take(max).collect()
}

fuzz_target!(|data: &[u8]| {
    let [mode, tau, mask, rest @ ..] = data else { return };
    let small = mode & 1 == 1;
    let whole = mode & 2 == 2;
    let tau = threshold(*tau);
    let mut parts = rest.split(|&b| b == SEP);
    let message = capped(text(parts.next().unwrap_or_default(), small), 200);
    let terms: Vec<(String, String)> = parts
        .take(40)
        .enumerate()
        .map(|(i, p)| (capped(text(p, small), 40), format!("explanation {i}")))
        .collect();
    // Exact hits are left out of the candidates; any sorted id list will do here.
    let hits: Vec<u32> =
        (0..terms.len() as u32).filter(|i| mask & (1 << (i % 8)) != 0 && mask & 1 == 1).collect();

    let mut fuzzy = FuzzyIndex::build(terms.as_slice());
    fuzzy.whole_words = whole;
    let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&fuzzy).unwrap();
    let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
    let got = ix.candidates(terms.as_slice(), &message, tau, &hits);
    let want = reference::candidates_with(terms.as_slice(), &message, tau, &hits, whole);
    assert_eq!(bits(&got), bits(&want), "message {message:?} threshold {tau}");

    // Through the index: the exact hits come from the automaton, candidates from the rest.
    let glossary: Glossary = terms.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    let pairs: Vec<(&str, &str)> = glossary.iter().collect();
    let mut settings = Settings::default();
    settings.matching.word_boundary = whole;
    let archive = index::build_archive(&glossary, &settings);
    let data = index::access(&archive).expect("a fresh archive validates");
    let engines =
        Engines { automaton: &data.automaton, fuzzy: &data.fuzzy, entries: &data.entries };
    let outcome = matching::find(&engines, &message, &Smart::CandidatesOnly { threshold: tau });
    let exact: Vec<u32> = outcome.exact.iter().map(|e| e.id).collect();
    // With whole words, also left out: the other terms the message holds, in any case (the
    // automaton holds them folded), without an exact hit: only inside longer words, or (a
    // term with capitals inside) in another case.
    let folded = case::fold(message.as_bytes());
    let left_out: Vec<u32> = (0..pairs.len() as u32)
        .filter(|id| {
            let term = pairs[*id as usize].0;
            let key = case::fold(term.as_bytes());
            exact.contains(id)
                || (whole
                    && !term.is_empty()
                    && !is_ascii_term(term)
                    && folded.windows(key.len()).any(|w| w == key))
        })
        .collect();
    let want = reference::candidates_with(pairs.as_slice(), &message, tau, &left_out, whole);
    let got: Vec<(u32, u64)> =
        outcome.candidates.iter().map(|c| (c.entry.id, c.score.to_bits())).collect();
    assert_eq!(got, bits(&want), "index: message {message:?} threshold {tau}");
});
