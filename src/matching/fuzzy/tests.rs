//! Tests of the prefilter: the archived index's candidates against the reference, bit for
//! bit, on examples and on generated glossaries and prompts, and on damaged tables.

use super::*;
use proptest::prelude::*;

/// The archived index, built for `matching.wordBoundary` on or off.
fn archive_with(terms: &[(String, String)], whole_words: bool) -> rkyv::util::AlignedVec {
    let mut ix = FuzzyIndex::build(terms);
    ix.whole_words = whole_words;
    rkyv::to_bytes::<rkyv::rancor::Error>(&ix).unwrap()
}

fn glossary(terms: &[&str]) -> Vec<(String, String)> {
    terms.iter().map(|t| (t.to_string(), format!("about {t}"))).collect()
}

/// Cases per property: `PROPTEST_CASES` overrides `default` (e.g. for a long soak run).
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok());
    ProptestConfig::with_cases(n.unwrap_or(default))
}

/// The archived index's candidates for `msg` equal the reference's, bit for bit, at every
/// threshold, with `terms` as a glossary (empty explanations) and `hits` its exact hits;
/// with whole words off and on.
fn check_against_reference(
    terms: &[String],
    msg: &str,
    thresholds: &[f64],
    hits: impl Fn(u32) -> bool,
) -> Result<(), TestCaseError> {
    let g: Vec<(String, String)> = terms.iter().map(|t| (t.clone(), String::new())).collect();
    let hits: Vec<u32> = (0..g.len() as u32).filter(|&i| hits(i)).collect();
    let bits = |v: &[Candidate]| v.iter().map(|c| (c.id, c.score.to_bits())).collect::<Vec<_>>();
    for whole in [false, true] {
        let bytes = archive_with(&g, whole);
        let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
        for &threshold in thresholds {
            let got = ix.candidates(g.as_slice(), msg, threshold, &hits);
            let want = reference::candidates_with(g.as_slice(), msg, threshold, &hits, whole);
            prop_assert_eq!(bits(&got), bits(&want), "threshold {} whole {}", threshold, whole);
        }
    }
    Ok(())
}

/// Index candidates, checked against the reference (ids, order, scores bit for bit).
fn both(terms: &[&str], message: &str, threshold: f64, hits: &[u32]) -> Vec<Candidate> {
    both_with(terms, message, threshold, hits, false)
}

/// [`both`], with whole words off or on.
fn both_with(
    terms: &[&str],
    message: &str,
    threshold: f64,
    hits: &[u32],
    whole: bool,
) -> Vec<Candidate> {
    let g = glossary(terms);
    let bytes = archive_with(&g, whole);
    let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
    let got = ix.candidates(g.as_slice(), message, threshold, hits);
    let want = reference::candidates_with(g.as_slice(), message, threshold, hits, whole);
    let bits = |v: &[Candidate]| v.iter().map(|c| (c.id, c.score.to_bits())).collect::<Vec<_>>();
    assert_eq!(bits(&got), bits(&want), "message {message:?} threshold {threshold}");
    got
}

fn ids(v: &[Candidate]) -> Vec<u32> {
    v.iter().map(|c| c.id).collect()
}

#[test]
fn whole_words_leave_out_words_holding_the_term_inside() {
    let terms = ["loo", "api", "color", "BGRemover"];
    // Off: a word holding the term is the best evidence there is.
    // (By score: `colors` 4/5, `look` 2/3, `rapid` 2/4.)
    assert_eq!(ids(&both(&terms, "look at the rapid colors", 0.2, &[])), [2, 0, 1]);
    // On: no longer, whatever the case; a variant without the term still counts.
    assert_eq!(
        ids(&both_with(&terms, "look at the RAPID colors", 0.2, &[], true)),
        Vec::<u32>::new()
    );
    let got = both_with(&terms, "colors, colour and bgremovers", 0.2, &[], true);
    assert_eq!(ids(&got), [2]);
    assert_eq!(got[0].score, 3.0 / 6.0);
    // `API-key` holds `api` as a word (`-` is a boundary): it is compared, as before.
    let got = both_with(&terms, "see API-key", 0.2, &[], true);
    assert_eq!((ids(&got), got[0].score), (vec![1], 2.0 / 6.0));
    // Words other than ASCII terms' are not affected: windows compare as before.
    let cjk = ["智能抠图"];
    assert_eq!(both_with(&cjk, "用智能抠图x", 0.2, &[], true), both(&cjk, "用智能抠图x", 0.2, &[]));
}

#[test]
fn design_example() {
    let got = both(&["智能抠图", "联调", "提交", "依赖更新"], "抠图功能有bug", 0.2, &[]);
    assert_eq!(got, vec![Candidate { id: 0, score: 0.2 }]);
    assert_eq!(reference::score("智能抠图", "抠图功能有bug"), 0.2f64);
}

#[test]
fn ascii_typos_and_case() {
    // bgremovr vs bgremover: 6 shared of 7 + 8 bigrams → 6 / (7 + 8 − 6).
    assert_eq!(reference::score("BGRemover", "the BGRemovr tool"), 6.0 / 9.0);
    assert_eq!(reference::score("bgremover", "BGREMOVER"), 1.0);
    let got = both(&["BGRemover", "deploy", "render"], "why does bgREMOVR crash", 0.2, &[]);
    assert_eq!(ids(&got), vec![0]);
    assert_eq!(got[0].score, 6.0 / 9.0);
}

#[test]
fn ascii_needs_two_shared_bigrams_in_one_word() {
    // "abcd" shares only "ab" with "abxy" and only "cd" with "xxcd": both words skipped,
    // although the message as a whole holds both bigrams.
    assert_eq!(reference::score("abcd", "abxy xxcd"), 0.0);
    assert!(both(&["abcd"], "abxy xxcd", 0.0, &[]).iter().all(|c| c.score == 0.0));
    // Two shared bigrams in one word: jaccard 2 / (3 + 4 − 2).
    assert_eq!(reference::score("abcd", "zabcz"), 2.0 / 5.0);
    both(&["abcd"], "zabcz", 0.2, &[]);
    // Words are runs of [A-Za-z0-9_.-]: "foo.bar-baz_1" is one word.
    assert_eq!(reference::score("foo.bar-baz_1", "see foo.bar-baz_1!"), 1.0);
    both(&["foo.bar-baz_1", "bar-baz", "baz"], "see foo.bar-baz_1! and bar baz", 0.1, &[]);
    // Terms of fewer than 3 chars never share 2 bigrams.
    assert_eq!(reference::score("ab", "ab ab ab"), 0.0);
}

#[test]
fn short_message_is_compared_whole() {
    // 4-char term, 5-char message (≤ L + 2): one comparison, message against term.
    let s = reference::score("数据清洗", "数据清洗吧");
    assert_eq!(s, 3.0 / 4.0);
    both(&["数据清洗", "清洗"], "数据清洗吧", 0.2, &[]);
    both(&["数据清洗", "清洗数据"], "洗数", 0.0, &[]);
    both(&["数据", "据"], "", 0.0, &[]);
}

#[test]
fn windows_of_l_to_l_plus_2() {
    // Long message: the best window of 4..=6 chars.
    let msg = "今天我们一起做数据的清洗工作吧，好不好呀朋友们";
    let got = both(&["数据清洗", "清洗工作", "朋友"], msg, 0.1, &[]);
    assert!(got.iter().any(|c| c.id == 1 && c.score == 1.0));
    // Mixed terms are window terms, case-sensitive.
    both(&["React组件", "react组件"], "我们的React组建有问题, 还有其他的一些东西", 0.1, &[]);
}

#[test]
fn one_char_terms() {
    assert_eq!(reference::score("图", "图"), 1.0);
    assert_eq!(reference::score("图", "图片"), 0.0);
    assert_eq!(reference::score("图", "这是一张图片啊"), 0.0);
    assert_eq!(reference::score("a", "a"), 0.0);
    let got = both(&["图", "片", "图", "a"], "图", 0.5, &[]);
    assert_eq!(ids(&got), vec![0, 2]);
    both(&["图", "片", "图", "a"], "图", 0.5, &[2]);
    both(&["图", "片"], "图片", 0.0, &[]);
}

#[test]
fn threshold_is_inclusive() {
    // Exactly 0.2 (design example) and exactly 0.5.
    both(&["智能抠图"], "抠图功能有bug", 0.2, &[]);
    assert_eq!(reference::score("abcde", "abcxx"), 2.0 / 6.0);
    let got = both(&["abcde", "abc"], "abcxx", 2.0 / 6.0, &[]);
    assert_eq!(ids(&got), vec![1, 0]);
    let got = both(&["abcde"], "abcxx", 2.0 / 6.0 + 1e-12, &[]);
    assert!(got.is_empty());
}

#[test]
fn cap_and_tie_order() {
    // 20 terms with the same score: the 12 lowest ids, in id order.
    let terms: Vec<String> = (0..20).map(|i| format!("abcd{}", ["x", "y"][i % 2])).collect();
    let refs: Vec<&str> = terms.iter().map(|s| s.as_str()).collect();
    let got = both(&refs, "abcdz", 0.2, &[]);
    assert_eq!(ids(&got), (0..12).collect::<Vec<_>>());
    // A better score beats lower ids.
    let mut refs2 = refs.clone();
    refs2.push("abcdz");
    let got = both(&refs2, "abcdz please", 0.2, &[]);
    assert_eq!(got[0].id, 20);
    assert_eq!(got.len(), MAX_CANDIDATES);
}

#[test]
fn exact_hits_are_never_candidates() {
    let got = both(&["BGRemover", "BGRemovers"], "BGRemover", 0.2, &[0]);
    assert_eq!(ids(&got), vec![1]);
    let got = both(&["抠图", "抠图工具"], "抠图工具坏了", 0.0, &[0, 1]);
    assert!(got.is_empty());
}

#[test]
fn threshold_zero_fills_with_zero_scores_by_id() {
    let got = both(&["zzz", "abcd", "图", "数据", "abc"], "abcd", 0.0, &[3]);
    assert_eq!(ids(&got), vec![1, 4, 0, 2]);
    assert_eq!(got[2].score, 0.0);
    assert!(both(&["abc"], "abc", f64::NAN, &[]).is_empty());
    assert!(both(&["abc"], "abc", 1.5, &[]).is_empty());
    both(&["abc"], "abc", -1.0, &[]);
}

#[test]
fn repeated_bigrams_are_multisets() {
    both(&["哈哈哈哈", "哈哈", "aaaa", "aaab"], "哈哈哈哈哈哈哈哈 aaaaaaa aab", 0.1, &[]);
    both(&["abab", "ababab"], "xx abababab yy ab", 0.1, &[]);
    // A word with more than 24 equal bigrams overflows the signature weights: no bound.
    let a29 = "a".repeat(29);
    let a30 = "a".repeat(30);
    let got = both(&[a29.as_str(), "aaa"], &format!("x {a30} y"), 0.9, &[]);
    assert_eq!(ids(&got), vec![0]);
}

#[test]
fn long_terms_are_scored_unposted() {
    let long_ascii = "ab".repeat(200);
    let long_cjk = "数据".repeat(150);
    let msg = format!("x {} y {}", "ab".repeat(150), "数据".repeat(140));
    both(&[long_ascii.as_str(), long_cjk.as_str(), "abab"], &msg, 0.1, &[]);
}

#[test]
fn corrupt_index_does_not_panic() {
    let g = glossary(&["BGRemover", "数据清洗", "图", "abc"]);
    let mut ix = FuzzyIndex::build(g.as_slice());
    let mut rng = 12345u64;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    for round in 0..200 {
        let mut bad = ix.clone();
        for _ in 0..4 {
            let r = next();
            let v = (r >> 8) as u32;
            match r % 8 {
                0 => bad.blocks.iter_mut().for_each(|x| *x = x.wrapping_add(v % 7)),
                1 => bad.term_block.iter_mut().for_each(|x| *x ^= v % 5),
                2 => bad.slots.iter_mut().step_by(3).for_each(|x| *x ^= v),
                3 => bad.groups.iter_mut().for_each(|x| *x = x.wrapping_mul(v % 3)),
                4 => bad.post_meta.iter_mut().for_each(|x| *x ^= v % 7),
                5 => bad.post_block.iter_mut().for_each(|x| *x ^= v),
                6 => bad.singles.iter_mut().for_each(|x| *x ^= v % 3),
                _ => bad.specials.push(v % 9),
            }
        }
        if round % 50 == 49 {
            bad.slots.truncate(bad.slots.len() / 2);
        }
        let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&bad).unwrap();
        let a = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
        for msg in ["BGRemovr 数据清理", "图", "", "abcabc 数据数据数据数据数据"] {
            let _ = a.candidates(g.as_slice(), msg, 0.0, &[]);
            let _ = a.candidates(g.as_slice(), msg, 0.3, &[]);
        }
    }
    ix.slots.clear();
    let bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&ix).unwrap();
    let a = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
    let _ = a.candidates(g.as_slice(), "BGRemover", 0.2, &[]);
}

// ---- property test: the archived index equals the reference ----

const CJK: &[char] = &['数', '据', '清', '洗', '抠', '图', '智', '能'];
const ASC: &[char] = &['a', 'b', 'c', 'A', 'B', 'd', '_', '.', '-', '1'];

fn cjk_str(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(CJK), 1..=max).prop_map(|v| v.into_iter().collect())
}

fn ascii_str(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ASC), 0..=max).prop_map(|v| v.into_iter().collect())
}

fn term() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => cjk_str(6),
        3 => ascii_str(9),
        2 => (cjk_str(3), ascii_str(4)).prop_map(|(a, b)| format!("{a}{b}")),
        1 => (ascii_str(3), cjk_str(2)).prop_map(|(a, b)| format!("{b}{a}")),
        1 => prop::sample::select(CJK).prop_map(|c| c.to_string()),
        1 => prop::sample::select(ASC).prop_map(|c| c.to_string()),
    ]
}

fn message() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => cjk_str(8),
        3 => ascii_str(10),
        2 => prop::sample::select(vec![" ", "  ", ", ", "!", "：", "\n"]).prop_map(String::from),
    ];
    prop_oneof![
        1 => cjk_str(4),
        1 => ascii_str(5),
        4 => prop::collection::vec(piece.clone(), 0..8).prop_map(|v| v.concat()),
        2 => prop::collection::vec(piece, 8..40).prop_map(|v| v.concat()),
    ]
}

proptest! {
    #![proptest_config(cases(400))]
    #[test]
    fn index_equals_reference(
        terms in prop::collection::vec(term(), 0..40),
        msg in message(),
        hit_mask in any::<u64>(),
    ) {
        let hit = |i: u32| hit_mask >> (i % 64) & 1 == 1 && i.is_multiple_of(3);
        check_against_reference(&terms, &msg, &[0.0, 0.1, 0.2, 0.35, 0.5, 1.0], hit)?;
    }
}

proptest! {
    #![proptest_config(cases(64))]
    /// Long messages over a tiny alphabet: many hits per bigram, so window scoring runs
    /// its anchored path (hits gathered only around rare bigrams) at every bar.
    #[test]
    fn long_repetitive_messages_equal_reference(
        terms in prop::collection::vec(
            prop::collection::vec(prop::sample::select(&CJK[..4]), 1..=7)
                .prop_map(|v| v.into_iter().collect::<String>()),
            1..30,
        ),
        msg in prop::collection::vec(prop::sample::select(&CJK[..5]), 20..300)
            .prop_map(|v| v.into_iter().collect::<String>()),
    ) {
        check_against_reference(&terms, &msg, &[0.0, 0.2, 0.35, 0.5, 0.8, 1.0], |_| false)?;
    }
}

proptest! {
    #![proptest_config(cases(64))]
    /// Larger glossaries over tiny alphabets: many terms tie, so the cap of 12, the order
    /// of ties and the early stop between phases are exercised.
    #[test]
    fn crowded_glossaries_equal_reference(
        terms in prop::collection::vec(
            prop_oneof![
                prop::collection::vec(prop::sample::select(&CJK[..3]), 1..=5)
                    .prop_map(|v| v.into_iter().collect::<String>()),
                prop::collection::vec(prop::sample::select(&['a', 'b', 'B', 'c'][..]), 2..=6)
                    .prop_map(|v| v.into_iter().collect::<String>()),
            ],
            40..160,
        ),
        msg in prop::collection::vec(
            prop::sample::select(vec!["数", "据", "清", "ab", "abc", "Bc", " ", "cab"]),
            0..25,
        ).prop_map(|v| v.concat()),
        hit_mask in any::<u64>(),
    ) {
        let hit = |i: u32| hit_mask >> (i % 64) & 1 == 1;
        check_against_reference(&terms, &msg, &[0.0, 0.2, 0.35, 0.5, 0.75, 0.9], hit)?;
    }
}
