//! Arbitrary and damaged index bytes, opened the way the hook opens them: header decode, rkyv's
//! checked access, then every kind of read the hook makes (settings, entries, the automaton,
//! the fuzzy prefilter, the block, per-session state). The outcome must be an error or a
//! correct fallback, never a panic, a hang or a read out of bounds; and whatever is reported
//! as an exact hit must really occur in the prompt.
//!
//! Input: mode byte, then
//! * mode 0: the bytes are a whole file for the header check, and the archive for checked
//!   access and searches;
//! * mode 1: a valid archive of a fixed glossary, with `(u16 LE offset, u8 xor)` damage triples;
//! * mode 2: as mode 1, written as the store's index file under a header that describes the
//!   current glossary.json (so the header check passes and the damaged archive is mapped);
//! * mode 3: the bytes are the whole index file (header included): the hook must fall back to
//!   glossary.json and give exactly the right answer.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use rkyv::util::AlignedVec;
use tinylingo::index::{self, ArchivedIndexData, HookIndex};
use tinylingo::matching::{self, boundary, Engines, Smart, TermSource};
use tinylingo::platform::block::{self, BlockEntry};
use tinylingo::platform::{Event, Platform};
use tinylingo::store::{Glossary, Settings, Store};
use tinylingo_fuzz::check_output;

const GLOSSARY: &[(&str, &str)] = &[
    ("智能抠图", "ProjectA 背景移除模块，类名 BGRemover"),
    ("抠图", "cut-out"),
    ("联调", "joint debugging"),
    ("BGRemover", "src/modules/bgremove/"),
    ("api", "the HTTP API"),
    ("a", "the letter"),
];
const PROMPT: &str = "智能抠图 and BGRemover api, 联调 later; BGRemovr 抠 图";

fn glossary() -> Glossary<'static> {
    GLOSSARY.iter().copied().collect()
}

/// The hits the fixed glossary must give for [`PROMPT`]: whole words, the default (`a` occurs
/// only inside `and`, `api` and `later`, so it is not one).
fn truth() -> Vec<&'static str> {
    let whole = |t: &str| boundary::has_whole_word(PROMPT.as_bytes(), t.as_bytes());
    GLOSSARY.iter().map(|(t, _)| *t).filter(|t| whole(t)).collect()
}

fn store() -> &'static (tempfile::TempDir, Store, AlignedVec) {
    static STORE: OnceLock<(tempfile::TempDir, Store, AlignedVec)> = OnceLock::new();
    STORE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path().join("tinylingo"));
        glossary().save(&store).unwrap();
        let archive = index::build_archive(&glossary(), &Settings::default());
        (dir, store, archive)
    })
}

fn damaged(valid: &AlignedVec, flips: &[u8]) -> AlignedVec {
    let mut bytes = AlignedVec::<16>::new();
    bytes.extend_from_slice(valid);
    for f in flips.chunks_exact(3).take(16) {
        let at = usize::from(u16::from_le_bytes([f[0], f[1]])) % bytes.len();
        bytes[at] ^= f[2];
    }
    bytes
}

/// Every read the hook makes. Returns the exact hits' terms.
fn exercise<'a>(data: &'a ArchivedIndexData, prompt: &str) -> Vec<&'a str> {
    let s = &data.settings;
    let _ = (s.debug, s.smart.enabled, s.smart.endpoint.as_str(), s.smart.model.as_str());
    let _ = (s.smart.prompt.as_str(), s.smart.api_key.as_str(), s.smart.timeout_ms.to_native());
    let entries = &data.entries;
    let n = entries.len();
    for id in (0..n.min(64) as u32).chain([n as u32, u32::MAX]) {
        let _ = (entries.term(id), entries.explanation(id), entries.verified(id));
    }
    let hay = prompt.as_bytes();
    let found = data.automaton.find_all(hay);
    assert!(found.windows(2).all(|w| w[0].0 < w[1].0), "ids not sorted and unique");
    // Whole words (`matching::find` takes this path when the flag reads true).
    let words = data.automaton.find_words(hay, &mut |value, end| (value ^ end as u32) & 1 == 0);
    assert!(words.windows(2).all(|w| w[0].0 < w[1].0), "ids not sorted and unique");
    let _ = (data.automaton.whole_words(), data.fuzzy.whole_words, s.matching.word_boundary);
    let engines = Engines { automaton: &data.automaton, fuzzy: &data.fuzzy, entries };
    let mut exact = Vec::new();
    for threshold in [0.2, 0.0] {
        let outcome = matching::find(&engines, prompt, &Smart::CandidatesOnly { threshold });
        for e in &outcome.exact {
            assert!(prompt.contains(e.term) && !e.term.is_empty(), "invented hit {:?}", e.term);
        }
        assert!(outcome.candidates.len() <= 12);
        let shown: Vec<BlockEntry> = outcome
            .hits()
            .chain(outcome.candidates.iter().map(|c| (&c.entry, true)))
            .map(|(e, smart)| BlockEntry { term: e.term, explanation: e.explanation, smart })
            .collect();
        let max_chars = s.inject.max_chars.to_native() as usize;
        if let Some(b) = block::layout(&shown, max_chars, s.language.native()) {
            tinylingo_fuzz::assert_block(&b.text);
        }
        exact = outcome.exact.iter().map(|e| e.term).collect();
    }
    exact
}

fuzz_target!(|input: &[u8]| {
    let Some((&mode, rest)) = input.split_first() else { return };
    let (_dir, store, valid) = store();
    match mode % 4 {
        0 => {
            // The header decoder on its own (the whole file: header, then archive).
            let _ = index::check_header(rest);
            let mut bytes = AlignedVec::<16>::new();
            bytes.extend_from_slice(rest);
            if let Some(data) = index::access(&bytes) {
                exercise(data, PROMPT);
                exercise(data, &String::from_utf8_lossy(rest));
            }
        }
        1 => {
            let bytes = damaged(valid, rest);
            if let Some(data) = index::access(&bytes) {
                let exact = exercise(data, PROMPT);
                if rest.len() < 3 {
                    assert_eq!(exact, truth(), "undamaged archive");
                }
            }
        }
        2 | 3 => {
            if mode % 4 == 2 {
                let bytes = damaged(valid, rest);
                index::write(store, &bytes, index::source_fingerprints(store)).unwrap();
            } else {
                std::fs::write(store.index_path(), rest).unwrap();
            }
            let ix = HookIndex::open(store).expect("glossary.json is fine, so open succeeds");
            let data = ix.data().expect("mapped data passed checked access at open");
            let exact = exercise(data, PROMPT);
            if ix.fallback_reason.is_some() || rest.len() < 3 {
                assert_eq!(exact, truth(), "fallback answer ({:?})", ix.fallback_reason);
            }
            if mode % 4 == 3 {
                assert!(ix.fallback_reason.is_some(), "a file of fuzzer bytes was used as is");
            }
            // The hook's own path over the (possibly damaged) index, sessions included.
            let event = Event {
                prompt: PROMPT.to_string(),
                session: Some("fuzz".into()),
                model: None,
                cwd: None,
            };
            // Alone, and as a project's index merged with itself as the user's.
            let alone = tinylingo::hook::Indexes { user: data, project: None };
            let merged = tinylingo::hook::Indexes { user: data, project: Some(data) };
            for p in Platform::ALL {
                for indexes in [&alone, &merged] {
                    let (out, _) = tinylingo::hook::respond(store, p, indexes, &event);
                    check_output(p, out.as_deref());
                }
            }
        }
        _ => unreachable!(),
    }
});
