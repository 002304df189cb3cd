//! Fuzzy candidates from the archived prefilter against `fuzzy::reference` (the definition
//! written out literally): same ids, same order, same scores bit for bit. Both directly on the
//! fuzzy tables (any terms, duplicates included) and through the whole index.
//!
//! Input: mode byte (bit 0: small alphabet), threshold byte, exact-hit mask byte, then the
//! message and the terms, split on 0xFF. Sizes are capped: the reference is slow by design.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tinylingo::index;
use tinylingo::matching::fuzzy::{reference, ArchivedFuzzyIndex, Candidate, FuzzyIndex};
use tinylingo::matching::{self, Engines, Smart};
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

    let bytes =
        rkyv::to_bytes::<rkyv::rancor::Error>(&FuzzyIndex::build(terms.as_slice())).unwrap();
    let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
    let got = ix.candidates(terms.as_slice(), &message, tau, &hits);
    let want = reference::candidates(terms.as_slice(), &message, tau, &hits);
    assert_eq!(bits(&got), bits(&want), "message {message:?} threshold {tau}");

    // Through the index: the exact hits come from the automaton, candidates from the rest.
    let glossary: Glossary = terms.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    let pairs: Vec<(&str, &str)> = glossary.iter().collect();
    let archive = index::build_archive(&glossary, &Settings::default());
    let data = index::access(&archive).expect("a fresh archive validates");
    let engines =
        Engines { automaton: &data.automaton, fuzzy: &data.fuzzy, entries: &data.entries };
    let outcome = matching::find(&engines, &message, &Smart::CandidatesOnly { threshold: tau });
    let exact: Vec<u32> = outcome.exact.iter().map(|e| e.id).collect();
    let want = reference::candidates(pairs.as_slice(), &message, tau, &exact);
    let got: Vec<(u32, u64)> =
        outcome.candidates.iter().map(|c| (c.entry.id, c.score.to_bits())).collect();
    assert_eq!(got, bits(&want), "index: message {message:?} threshold {tau}");
});
