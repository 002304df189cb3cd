//! Tests of the automaton: built, archived and searched, against a plain search and the
//! aho-corasick crate, and on damaged tables.

use super::layout::{BASE_SHIFT, FAIL_SHIFT, FLAG_OUT, NONE};
use super::search::{Noted, Seen, LANES, MIN_LANE_BYTES};
use super::*;
use crate::matching::boundary::{whole_word_at, word_hits};
use aho_corasick::{AhoCorasick, MatchKind};
use proptest::prelude::*;

fn archive(a: &Automaton) -> rkyv::util::AlignedVec {
    rkyv::to_bytes::<rkyv::rancor::Error>(a).unwrap()
}

fn access(bytes: &[u8]) -> &ArchivedAutomaton {
    rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(bytes).unwrap()
}

/// Builds, archives and searches; checks every pair is a real occurrence.
fn find(terms: &[&str], haystack: &str) -> Vec<(u32, usize)> {
    let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
    let bytes = archive(&Automaton::build(&t));
    let hits = access(&bytes).find_all(haystack.as_bytes());
    for &(id, end) in &hits {
        let term = t[id as usize];
        assert!(end >= term.len() && &haystack.as_bytes()[end - term.len()..end] == term);
    }
    hits
}

fn ids(terms: &[&str], haystack: &str) -> Vec<u32> {
    find(terms, haystack).into_iter().map(|(id, _)| id).collect()
}

/// [`ArchivedAutomaton::find_words`] with the rule of `matching::boundary` as its check, as
/// `matching::find` calls it; checks every pair is a whole-word occurrence.
fn find_words_in(arch: &ArchivedAutomaton, terms: &[&[u8]], hay: &[u8]) -> Vec<(u32, usize)> {
    let hits = arch.find_words(hay, &mut |id, end| whole_word_at(hay, end, terms[id as usize]));
    for &(id, end) in &hits {
        assert!(whole_word_at(hay, end, terms[id as usize]), "{id} at {end}");
    }
    hits
}

fn word_ids(terms: &[&str], haystack: &str) -> Vec<u32> {
    let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
    let bytes = archive(&Automaton::build(&t));
    let got: Vec<u32> = find_words_in(access(&bytes), &t, haystack.as_bytes())
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert_eq!(got, word_hits(&t, haystack.as_bytes()), "definition, in {haystack:?}");
    got
}

#[test]
fn whole_words_loo_is_not_in_look() {
    assert_eq!(word_ids(&["loo"], "look here"), Vec::<u32>::new());
    assert_eq!(word_ids(&["loo"], "the loo"), [0]);
    // Refused inside a word first, found whole later: not hidden by the first sighting.
    assert_eq!(word_ids(&["loo"], "look at the loo, looking"), [0]);
    assert_eq!(find_words_in_one(&["loo"], "look at the loo, looking"), [(0, 15)]);
    // Substring search is unchanged.
    assert_eq!(ids(&["loo"], "look here"), [0]);
}

fn find_words_in_one(terms: &[&str], haystack: &str) -> Vec<(u32, usize)> {
    let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
    let bytes = archive(&Automaton::build(&t));
    find_words_in(access(&bytes), &t, haystack.as_bytes())
}

#[test]
fn whole_words_inside_words_and_underscores() {
    assert_eq!(word_ids(&["api"], "a rapid test"), Vec::<u32>::new());
    // `_` is a word char: `api_key` is one word, and `api` is not in it as a word.
    assert_eq!(word_ids(&["api"], "set api_key"), Vec::<u32>::new());
    assert_eq!(word_ids(&["api_key", "api"], "set api_key"), [0]);
    assert_eq!(word_ids(&["api"], "api-key, (api), api."), [0]);
}

#[test]
fn whole_words_at_start_and_end_of_text() {
    assert_eq!(word_ids(&["go"], "go"), [0]);
    assert_eq!(word_ids(&["go"], "go now"), [0]);
    assert_eq!(word_ids(&["go"], "let go"), [0]);
    assert_eq!(word_ids(&["go"], "gopher ergo"), Vec::<u32>::new());
    assert_eq!(word_ids(&["go"], ""), Vec::<u32>::new());
}

#[test]
fn whole_words_punctuation_and_cjk_neighbours() {
    let terms = ["API", "智能", "C++", ".env", "Vue组件"];
    assert_eq!(word_ids(&terms, "调用API接口"), [0]);
    assert_eq!(word_ids(&terms, "这是智能抠图"), [1]);
    assert_eq!(word_ids(&terms, "C++17 and config.env"), [2, 3]);
    assert_eq!(word_ids(&terms, "ObjC++ and a .envrc"), Vec::<u32>::new());
    assert_eq!(word_ids(&terms, "一个Vue组件库, xVue组件"), [4]);
    assert_eq!(word_ids(&terms, "xVue组件"), Vec::<u32>::new());
    assert_eq!(word_ids(&terms, "\"API\"; 'API'"), [0]);
}

#[test]
fn whole_words_overlapping_terms() {
    // The longer term is the whole word; its suffix and prefix are not.
    let terms = ["lookup", "look", "up", "kup"];
    assert_eq!(word_ids(&terms, "a lookup table"), [0]);
    assert_eq!(word_ids(&terms, "look up"), [1, 2]);
    // Both on one output chain at the same end: the long one whole, the suffix not.
    let terms = ["key", "api key", "y"];
    assert_eq!(word_ids(&terms, "the api key"), [0, 1]);
    assert_eq!(word_ids(&terms, "rapi keys"), Vec::<u32>::new());
    // Duplicates share a state and are accepted together.
    assert_eq!(word_ids(&["ab", "ab", "xab"], "xab ab"), [0, 1, 2]);
    assert_eq!(word_ids(&["ab", "ab", "xab"], "xab"), [2]);
}

#[test]
fn whole_words_in_lanes() {
    // Long haystacks are searched in overlapping windows; the rule holds at their edges.
    let terms = ["abcdefghij", "j", "ij"];
    for at in 1..=389 {
        let mut hay = "x".repeat(400);
        hay.replace_range(at - 1..at + 11, " abcdefghij ");
        assert_eq!(word_ids(&terms, &hay), [0], "at {at}");
        let mut hay = "x".repeat(400);
        hay.replace_range(at..at + 10, "abcdefghij");
        assert_eq!(word_ids(&terms, &hay), Vec::<u32>::new(), "at {at}");
    }
}

#[test]
fn mapped_ids_are_reported_in_their_place() {
    // Duplicates, a suffix, a term that never occurs, an empty one.
    let terms: [&[u8]; 6] = [b"ab", b"b", b"zz", b"ab", b"", b"cab"];
    let hay = b"xcabx";
    let plain = Automaton::build(&terms);
    let mut mapped = plain.clone();
    let value = [10, 25, 26, 40, 41, 97];
    mapped.map_ids(&value);
    let (p, m) = (archive(&plain), archive(&mapped));
    let expected: Vec<(u32, usize)> =
        access(&p).find_all(hay).into_iter().map(|(id, end)| (value[id as usize], end)).collect();
    assert_eq!(expected, [(10, 4), (25, 4), (40, 4), (97, 4)]);
    assert_eq!(access(&m).find_all(hay), expected);
}

/// A short prompt that reaches more output states than the small set of reported ones
/// holds, over more output states than the bitset is used for directly: the set turns into
/// a bitset midway, and nothing is lost or reported twice.
#[test]
fn many_hits_switch_the_seen_set_midway() {
    let code = |i: usize| -> String {
        [i / 676, i / 26 % 26, i % 26].iter().map(|&d| char::from(b'a' + d as u8)).collect()
    };
    let owned: Vec<String> = (0..2000).map(code).collect();
    let terms: Vec<&str> = owned.iter().map(String::as_str).collect();
    let haystack: String = (0..600).map(|i| format!("{} ", code(i * 3 + 1))).collect();
    assert!(haystack.len() < Seen::BITS_FROM && 600 > Seen::SMALL / 2);
    let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
    assert_eq!(ids(&terms, &haystack), naive(&t, haystack.as_bytes()));
    assert_eq!(ids(&terms, &haystack).len(), 600);
}

/// A short prompt (one run, no lanes) that reaches output states many times more than a
/// batch of notes holds, before the terms that occur only once: each batch is reported
/// as it fills, and nothing noted is lost.
#[test]
fn notes_are_reported_as_they_fill() {
    let letters: Vec<String> = ('a'..='z').map(String::from).collect();
    let terms: Vec<&str> = letters.iter().map(String::as_str).collect();
    let haystack = format!("{}{}", "a".repeat(150), &letters[1..].concat());
    assert!(haystack.len() < MIN_LANE_BYTES * LANES && 150 > 2 * Noted::CAPACITY);
    assert_eq!(ids(&terms, &haystack), (0..26).collect::<Vec<u32>>());
}

/// The ids of the non-empty terms that occur, the plain way.
fn naive(terms: &[&[u8]], haystack: &[u8]) -> Vec<u32> {
    (0..terms.len() as u32)
        .filter(|&i| {
            let t = terms[i as usize];
            !t.is_empty() && haystack.windows(t.len()).any(|w| w == t)
        })
        .collect()
}

#[test]
fn nested_and_overlapping() {
    assert_eq!(ids(&["抠图", "智能抠图", "智能"], "用智能抠图"), vec![0, 1, 2]);
    assert_eq!(ids(&["abc", "bcd", "cd", "abcd"], "xabcdx"), vec![0, 1, 2, 3]);
    // Overlapping occurrences of one term and of two terms sharing letters.
    assert_eq!(ids(&["aa", "aaa", "aba"], "aaaba"), vec![0, 1, 2]);
}

#[test]
fn prefixes_and_suffixes() {
    let terms = ["he", "her", "hers", "she", "his"];
    assert_eq!(ids(&terms, "ushers"), vec![0, 1, 2, 3]);
    assert_eq!(ids(&terms, "her"), vec![0, 1]);
    assert_eq!(ids(&terms, "sh"), Vec::<u32>::new());
    // A term that is a suffix of another, reached only through the failure chain.
    assert_eq!(ids(&["abcde", "cde", "de", "e"], "abcde"), vec![0, 1, 2, 3]);
    assert_eq!(ids(&["abcde", "cde", "de", "e"], "abcdf"), Vec::<u32>::new());
}

/// A byte that occurs in no term sends the search back to the root; one that occurs only
/// inside terms (here the space) still continues them.
#[test]
fn bytes_outside_every_term() {
    let terms = ["ab cd", "b c", "cde"];
    assert_eq!(ids(&terms, "xab cde. b c;"), vec![0, 1, 2]);
    assert_eq!(ids(&terms, "ab.cd b;c cd;e"), Vec::<u32>::new());
    assert_eq!(ids(&terms, "cd.ab cd"), vec![0, 1]);
}

#[test]
fn single_byte_and_single_char_terms() {
    assert_eq!(ids(&["a", "图", "z"], "a图"), vec![0, 1]);
    assert_eq!(find(&["x"], "axbx"), vec![(0, 2)]);
}

#[test]
fn multibyte_and_astral() {
    let terms = ["🦀", "rust🦀", "é", "e", "😀😀", "\u{10FFFF}"];
    assert_eq!(ids(&terms, "I ❤ rust🦀 café"), vec![0, 1, 2]);
    assert_eq!(ids(&terms, "😀😀😀 e \u{10FFFF}"), vec![3, 4, 5]);
    // Byte-level: a term never matches inside a different character.
    assert_eq!(ids(&["\u{4E00}"], "\u{4E01}\u{4E02}"), Vec::<u32>::new());
}

#[test]
fn empty_cases() {
    assert_eq!(ids(&["abc"], ""), Vec::<u32>::new());
    assert_eq!(ids(&[], "abc"), Vec::<u32>::new());
    assert_eq!(ids(&["", "b", ""], "abc"), vec![1]);
    assert_eq!(ids(&[""], "abc"), Vec::<u32>::new());
    assert_eq!(ids(&[""], ""), Vec::<u32>::new());
    let empty = archive(&Automaton::default());
    assert!(access(&empty).find_all(b"anything").is_empty());
}

#[test]
fn duplicates_are_each_reported() {
    assert_eq!(ids(&["ab", "x", "ab", "b", "ab"], "zab"), vec![0, 2, 3, 4]);
    assert_eq!(ids(&["b", "b", "ab", "ab"], "ab"), vec![0, 1, 2, 3]);
}

#[test]
fn each_term_once_with_first_end() {
    let hits = find(&["ab", "b"], "abab");
    assert_eq!(hits, vec![(0, 2), (1, 2)]);
    assert_eq!(access(&archive(&Automaton::build(&[]))).num_terms(), 0);
}

#[test]
fn all_byte_values_and_wide_fanout() {
    // Every byte value as a one-byte term and under a common prefix, so that blocks fill up
    // completely and labels 0 and 255 are used.
    let singles: Vec<Vec<u8>> = (0..=255u8).map(|c| vec![c]).collect();
    let pairs: Vec<Vec<u8>> = (0..=255u8).map(|c| vec![7, c]).collect();
    let mut terms: Vec<&[u8]> = singles.iter().map(|t| t.as_slice()).collect();
    terms.extend(pairs.iter().map(|t| t.as_slice()));
    let bytes = archive(&Automaton::build(&terms));
    let arch = access(&bytes);
    let hay: Vec<u8> = vec![0, 7, 0, 255, 7, 255];
    let got: Vec<u32> = arch.find_all(&hay).into_iter().map(|(i, _)| i).collect();
    assert_eq!(got, naive(&terms, &hay));
}

#[test]
fn many_terms_match_reference() {
    // Enough terms to close blocks and exercise the free list.
    let mut rng = Rng(42);
    let alphabet: Vec<char> = "ab智能抠图🦀".chars().collect();
    let terms: Vec<String> = (0..5000)
        .map(|_| {
            let n = 1 + rng.next() as usize % 8;
            (0..n).map(|_| alphabet[rng.next() as usize % alphabet.len()]).collect()
        })
        .collect();
    let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
    let a = Automaton::build(&t);
    let bytes = archive(&a);
    let arch = access(&bytes);
    for _ in 0..50 {
        let n = rng.next() as usize % 40;
        let hay: String = (0..n).map(|_| alphabet[rng.next() as usize % alphabet.len()]).collect();
        let got: Vec<u32> = arch.find_all(hay.as_bytes()).into_iter().map(|(i, _)| i).collect();
        assert_eq!(got, naive(&t, hay.as_bytes()));
    }
}

#[test]
fn lanes_find_occurrences_anywhere() {
    // One occurrence of a 10-byte term at every offset of a 400-byte haystack, which is
    // searched in overlapping windows: near window edges the term must still be found.
    let terms = ["abcdefghij", "j", "智能"];
    for at in 0..=390 {
        let mut hay = ".".repeat(400);
        hay.replace_range(at..at + 10, "abcdefghij");
        assert_eq!(find(&terms, &hay), vec![(0, at + 10), (1, at + 10)], "at {at}");
    }
    for at in (0..=394).step_by(7) {
        let mut hay = ".".repeat(400);
        hay.replace_range(at..at + 6, "智能");
        assert_eq!(ids(&terms, &hay), vec![2], "at {at}");
    }
    // Terms too long for the windows to overlap enough: searched in one run.
    let long = "x".repeat(300);
    let hay = format!("{}{long}{}", ".".repeat(50), ".".repeat(50));
    assert_eq!(ids(&[&long, "x."], &hay), vec![0, 1]);
}

/// A small deterministic generator for the non-proptest tests.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Terms and prompts over a small alphabet mixing 1-, 2-, 3- and 4-byte characters, so that
/// overlaps, shared prefixes and suffix links are frequent.
fn text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec!['a', 'b', 'c', 'é', '智', '能', '🦀']), 0..max)
        .prop_map(|cs| cs.into_iter().collect())
}

/// Text for whole-word tests: word chars, a space, `_`, `+`, `.` and CJK.
fn word_text(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!['a', 'b', 'A', '1', '_', ' ', '+', '.', '智']),
        0..max,
    )
    .prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn matches_naive_and_aho_corasick(
        terms in prop::collection::vec(text(6), 0..40),
        // Short prompts take the single run, long ones (256 bytes and up) the lanes.
        haystacks in prop::collection::vec(prop_oneof![text(30), text(400)], 1..5),
    ) {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let bytes = archive(&Automaton::build(&t));
        let arch = access(&bytes);
        let ac = AhoCorasick::builder().match_kind(MatchKind::Standard).build(&t).unwrap();
        for hay in &haystacks {
            let hay = hay.as_bytes();
            let hits = arch.find_all(hay);
            for &(id, end) in &hits {
                let term = t[id as usize];
                prop_assert!(end >= term.len() && &hay[end - term.len()..end] == term);
            }
            let got: Vec<u32> = hits.iter().map(|&(id, _)| id).collect();
            prop_assert_eq!(&got, &naive(&t, hay));
            let mut theirs: Vec<u32> = ac
                .find_overlapping_iter(hay)
                .map(|m| m.pattern().as_u32())
                .filter(|&id| !t[id as usize].is_empty())
                .collect();
            theirs.sort_unstable();
            theirs.dedup();
            prop_assert_eq!(&got, &theirs);
        }
    }

    /// Whole words against the definition, over an alphabet of word chars, boundaries (ASCII
    /// and CJK) and non-word ASCII, so that terms start and end with either.
    #[test]
    fn whole_words_match_the_definition(
        terms in prop::collection::vec(word_text(5), 0..40),
        haystacks in prop::collection::vec(prop_oneof![word_text(30), word_text(400)], 1..5),
    ) {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let bytes = archive(&Automaton::build(&t));
        let arch = access(&bytes);
        for hay in &haystacks {
            let hay = hay.as_bytes();
            let got: Vec<u32> =
                find_words_in(arch, &t, hay).into_iter().map(|(id, _)| id).collect();
            prop_assert_eq!(got, word_hits(&t, hay));
        }
    }

    /// Random bytes written over an archive that still passes validation must not make the
    /// search panic or run long.
    #[test]
    fn corrupted_archive_is_harmless(
        terms in prop::collection::vec(text(6), 1..40),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..20),
        hay in text(200),
    ) {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let mut bytes = archive(&Automaton::build(&t));
        let len = bytes.len();
        for (at, v) in &flips {
            bytes[at.index(len)] = *v;
        }
        if let Ok(arch) = rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(&bytes) {
            let start = std::time::Instant::now();
            let hits = arch.find_all(hay.as_bytes());
            let words = arch.find_words(hay.as_bytes(), &mut |_, _| true);
            prop_assert!(start.elapsed() < std::time::Duration::from_secs(1));
            prop_assert!(hits.windows(2).all(|w| w[0].0 < w[1].0));
            prop_assert!(words.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }

    /// Arbitrary table contents (cycles, self loops, out-of-range links and ranks).
    #[test]
    fn arbitrary_tables_are_harmless(
        units in prop::collection::vec(
            (any::<u8>(), any::<bool>(), 0u64..600, 0u64..600).prop_map(|(l, f, fail, base)| {
                u64::from(l) | if f { FLAG_OUT } else { 0 }
                    | fail << FAIL_SHIFT | base << BASE_SHIFT
            }),
            0..600,
        ),
        out_rank in prop::collection::vec(any::<u32>(), 0..40),
        outs in prop::collection::vec(prop_oneof![0u32..60, Just(NONE)], 0..120),
        dup_of in prop::collection::vec(0u32..50, 0..10),
        max_len in prop_oneof![0u32..10, any::<u32>()],
        used in any::<[u64; 4]>(),
        hay in prop::collection::vec(any::<u8>(), 0..400),
    ) {
        let dup_id = dup_of.iter().map(|d| d + 1).collect();
        let a = Automaton {
            units, out_rank, outs, dup_of, dup_id, num_terms: 50, max_len, used,
            whole_words: false,
        };
        let bytes = archive(&a);
        let hits = access(&bytes).find_all(&hay);
        prop_assert!(hits.windows(2).all(|w| w[0].0 < w[1].0));
        let mut calls = 0usize;
        let hits = access(&bytes).find_words(&hay, &mut |id, _| {
            calls += 1;
            id % 2 == 0
        });
        prop_assert!(hits.windows(2).all(|w| w[0].0 < w[1].0));
        prop_assert!(hits.iter().all(|&(id, _)| id % 2 == 0));
        // Every note is checked at most once per chain state, chains capped at `max_len`.
        prop_assert!(calls <= hay.len() * (max_len.min(60) as usize + 1));
    }
}
