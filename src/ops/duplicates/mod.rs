//! The near-duplicate check `record` runs before it writes a new term (Code Buddy's two
//! layers, and a third).
//!
//! 1. **Same term.** A recorded term equal to the new one but for case, full-width/half-width
//!    forms and surrounding spaces ([`words::same_term`]): score 1.
//! 2. **Same explanation.** The Jaccard index of the two explanations' word sets
//!    ([`words`]), at least [`EXPLANATION_THRESHOLD`].
//! 3. **The model says so.** Only when smart matching is on and the first two found nothing:
//!    the LLM rates the new entry against the [`RECENT_FOR_MODEL`] most recently recorded
//!    entries, and a score of at least [`MODEL_THRESHOLD`] counts. Any failure (no answer in
//!    time, an answer without scores) lets the record through, and is logged when `debug` is on.
//!
//! Layers 1 and 2 compare the new entry with every entry, so at 100k terms they read every
//! explanation (some 20 MB) within `record`'s budget. They run in one pass, split over the
//! cores, and most entries cost a tokenisation that allocates nothing: each word's hash is
//! looked up in a small bit filter of the new explanation's words, and only an entry with
//! enough hits to reach the threshold has its word set built and compared exactly (an entry
//! must share at least `0.35 × |new words|` words, since `|A ∩ B| / |A ∪ B| ≤ |A ∩ B| / |B|`).

pub mod words;

use std::ops::Range;

use crate::matching::llm::{self, LlmError, LlmRequest};
use crate::store::{recorded, Glossary, Settings, Store};

/// Layer 2: explanations this similar (Jaccard of word sets) are duplicates. The seed's value.
pub const EXPLANATION_THRESHOLD: f64 = 0.35;
/// Layer 3: the model's score from which an entry is a duplicate. The seed's value.
pub const MODEL_THRESHOLD: f64 = 0.6;
/// Layer 3 asks about this many of the most recently recorded entries.
pub const RECENT_FOR_MODEL: usize = 10;

// The plain data of a finding lives in the ground (`error`), which carries it in
// `Error::Duplicate`; the error must not import this check.
pub use crate::error::{Similar, Why};

/// Runs the check for a new entry: the similar entries, highest score first, or none.
/// `glossary` may hold the new entry already (`record` checks while it builds the new files):
/// the entry of `term` itself is never compared. Layer 3 runs only when `settings` turn smart
/// matching on and layers 1 and 2 found nothing; `store` gives it the record times.
pub fn check(
    store: &Store,
    glossary: &Glossary,
    settings: &Settings,
    term: &str,
    explanation: &str,
) -> Vec<Similar> {
    let found = by_text(glossary, term, explanation);
    if !found.is_empty() || !settings.smart.enabled {
        return found;
    }
    // One more: the new term may be among them (never noted, at the glossary's end).
    let recent = recorded::recent(store, glossary, RECENT_FOR_MODEL + 1);
    let entries: Vec<(&str, &str)> = recent
        .iter()
        .filter(|(t, _)| t != term)
        .take(RECENT_FOR_MODEL)
        .filter_map(|(t, _)| Some((t.as_str(), glossary.get(t)?)))
        .collect();
    let smart = &settings.smart;
    let request = LlmRequest {
        endpoint: &smart.endpoint,
        model: &smart.model,
        api_key: &smart.api_key,
        timeout: std::time::Duration::from_millis(smart.timeout_ms),
        template: llm::SIMILARITY_PROMPT,
    };
    match by_model(&request, &entries, term, explanation) {
        Ok(found) => found,
        Err(e) => {
            if settings.debug {
                crate::debug_log::append(
                    store,
                    &format!("record: duplicate check by the model failed ({e}); recorded"),
                );
            }
            Vec::new()
        }
    }
}

/// Layers 1 and 2 against every entry of `glossary` but `term`'s own: highest score first;
/// among equal scores the same term first, then glossary order.
pub fn by_text(glossary: &Glossary, term: &str, explanation: &str) -> Vec<Similar> {
    let query = Query::new(term, explanation);
    let n = glossary.len();
    let threads = if n < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |p| p.get()).min(MAX_THREADS)
    };
    let chunk = n.div_ceil(threads.max(1)).max(1);
    let mut hits: Vec<(usize, f64, Why)> = if threads <= 1 {
        scan(glossary, 0..n, &query)
    } else {
        std::thread::scope(|s| {
            let query = &query;
            let workers: Vec<_> = (0..n)
                .step_by(chunk)
                .map(|start| s.spawn(move || scan(glossary, start..(start + chunk).min(n), query)))
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    };
    hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)).then(a.0.cmp(&b.0)));
    hits.into_iter()
        .filter_map(|(at, score, why)| {
            let (term, explanation) = glossary.get_index(at)?;
            Some(Similar { term: term.into(), explanation: explanation.into(), score, why })
        })
        .collect()
}

/// Below this many entries the scan runs on one thread: spawning costs more than it saves.
const PARALLEL_FROM: usize = 5_000;
/// More threads than this gain nothing on the machines `record` runs on.
const MAX_THREADS: usize = 4;

/// The new entry, ready to be compared.
struct Query<'a> {
    term: &'a str,
    /// The new explanation's word set.
    words: Vec<u64>,
    /// A bit per word of `words`, for the cheap first look at each entry.
    filter: Filter,
    /// The fewest of the new words an explanation must contain to reach the threshold.
    need: usize,
}

impl<'a> Query<'a> {
    fn new(term: &'a str, explanation: &str) -> Query<'a> {
        let words = words::word_set(explanation);
        let filter = Filter::new(&words);
        // Reaching the threshold takes |A ∩ B| ≥ EXPLANATION_THRESHOLD × |B| (see the module's
        // documentation); the small margin keeps a product that is exactly whole from rounding
        // up past it.
        let need = (EXPLANATION_THRESHOLD * words.len() as f64 - 1e-9).ceil().max(1.0) as usize;
        Query { term, words, filter, need }
    }
}

/// A bit set addressed by the high bits of a word's hash: no false negatives, few false
/// positives (at least 64 bits per word, so a word not in the set hits with a probability
/// under 1/64).
struct Filter {
    bits: Vec<u64>,
    shift: u32,
}

impl Filter {
    fn new(words: &[u64]) -> Filter {
        let size = (words.len() * 64).next_power_of_two().clamp(4096, 1 << 24);
        let mut filter = Filter { bits: vec![0; size / 64], shift: 64 - size.trailing_zeros() };
        for &w in words {
            let bit = filter.bit(w);
            filter.bits[bit >> 6] |= 1 << (bit & 63);
        }
        filter
    }

    fn bit(&self, w: u64) -> usize {
        (w >> self.shift) as usize
    }

    fn has(&self, w: u64) -> bool {
        let bit = self.bit(w);
        self.bits[bit >> 6] & (1 << (bit & 63)) != 0
    }
}

/// Compares the entries at `positions` of the glossary with the query: (position, score, why)
/// of each similar one.
fn scan(glossary: &Glossary, positions: Range<usize>, query: &Query) -> Vec<(usize, f64, Why)> {
    let mut hits = Vec::new();
    let mut set = Vec::new();
    for at in positions {
        let Some((term, explanation)) = glossary.get_index(at) else { continue };
        if term == query.term {
            continue;
        }
        if words::same_term(term, query.term) {
            hits.push((at, 1.0, Why::SameTerm));
            continue;
        }
        if query.words.is_empty() {
            continue;
        }
        let mut shared = 0;
        words::for_each_word(explanation, |w| shared += usize::from(query.filter.has(w)));
        if shared < query.need {
            continue;
        }
        words::word_set_into(explanation, &mut set);
        let score = words::jaccard(&set, &query.words);
        if score >= EXPLANATION_THRESHOLD {
            hits.push((at, score, Why::Explanation));
        }
    }
    hits
}

/// Layer 3: the model's scores for `recent` (term, explanation) against the new entry; those of
/// at least [`MODEL_THRESHOLD`], highest first. No entries means no call.
pub fn by_model(
    request: &LlmRequest,
    recent: &[(&str, &str)],
    term: &str,
    explanation: &str,
) -> Result<Vec<Similar>, LlmError> {
    if recent.is_empty() {
        return Ok(Vec::new());
    }
    let scores = llm::rate_similarity(request, recent, (term, explanation))?;
    let mut found: Vec<Similar> = recent
        .iter()
        .zip(scores)
        .filter(|(_, score)| *score >= MODEL_THRESHOLD)
        .map(|(&(t, e), score)| Similar {
            term: t.to_string(),
            explanation: e.to_string(),
            score,
            why: Why::Model,
        })
        .collect();
    // Stable: equal scores keep the recent-first order.
    found.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary(entries: &[(&str, &str)]) -> Glossary<'static> {
        entries.iter().map(|&(t, e)| (t.to_string(), e.to_string())).collect()
    }

    fn found(g: &Glossary, term: &str, explanation: &str) -> Vec<(String, Why)> {
        by_text(g, term, explanation).into_iter().map(|s| (s.term, s.why)).collect()
    }

    #[test]
    fn same_term_but_for_case_width_or_spaces() {
        let g = glossary(&[("API", "the public interface"), ("智能抠图", "BGRemover")]);
        assert_eq!(found(&g, "api", "something else entirely"), [("API".into(), Why::SameTerm)]);
        assert_eq!(found(&g, "ＡＰＩ", "other"), [("API".into(), Why::SameTerm)]);
        assert_eq!(found(&g, "　智能抠图 ", "别的"), [("智能抠图".into(), Why::SameTerm)]);
        assert!(found(&g, "APIs", "other").is_empty());
    }

    #[test]
    fn similar_explanations_score_their_jaccard_index() {
        let g = glossary(&[
            ("抠图", "ProjectA 中背景移除模块，类名 BGRemover，位于 src/modules/bgremove/"),
            ("提交", "git commit 后不要执行 git push"),
        ]);
        let hits = by_text(&g, "去背景", "背景移除模块，类名 BGRemover");
        assert_eq!(hits.len(), 1, "{hits:?}");
        assert_eq!(hits[0].term, "抠图");
        assert_eq!(hits[0].why, Why::Explanation);
        let expected = words::jaccard(
            &words::word_set("背景移除模块，类名 BGRemover"),
            &words::word_set(g.get("抠图").unwrap()),
        );
        assert_eq!(hits[0].score, expected);
        assert!(expected >= EXPLANATION_THRESHOLD);
        assert!(found(&g, "发布", "发布前跑完整的回归测试").is_empty());
    }

    /// `ww{from}` … `ww{to - 1}`: words of 3 chars and more.
    fn numbered(from: usize, to: usize) -> String {
        (from..to).map(|i| format!("ww{i}")).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_threshold_is_inclusive_and_the_filter_loses_nothing() {
        let g = glossary(&[("a", &numbered(0, 14))]);
        // 7 shared words of a union of 20: exactly 0.35.
        assert_eq!(by_text(&g, "b", &numbered(7, 20))[0].score, 7.0 / 20.0);
        // 7 of 21: under it.
        assert!(found(&g, "b", &numbered(7, 21)).is_empty());
        // All 14 of a longer explanation's 40: 0.35 again, found although the new words are
        // many more than the entry's.
        assert_eq!(by_text(&g, "b", &numbered(0, 40))[0].score, 14.0 / 40.0);
    }

    #[test]
    fn results_are_highest_first_then_in_glossary_order() {
        let g = glossary(&[
            ("one", "alpha beta gamma delta"),
            ("two", "alpha beta gamma delta epsilon zeta"),
            ("Three", "unrelated words here"),
            ("four", "alpha beta gamma delta"),
        ]);
        let hits = by_text(&g, "three", "alpha beta gamma delta");
        let got: Vec<(&str, f64)> = hits.iter().map(|s| (s.term.as_str(), s.score)).collect();
        assert_eq!(got, [("Three", 1.0), ("one", 1.0), ("four", 1.0), ("two", 4.0 / 6.0)]);
    }

    #[test]
    fn the_parallel_scan_finds_what_one_thread_finds() {
        // Words `entry`, `numberI`, `the`, `glossaryK`: the query shares three with every
        // entry of the same K (3 / 5 = 0.6) and two with the others (2 / 6, under 0.35).
        let n = PARALLEL_FROM * 2 + 17;
        let entries: Vec<(String, String)> = (0..n)
            .map(|i| (format!("term{i}"), format!("entry number{i} of the glossary{}", i % 7)))
            .collect();
        let g: Glossary = entries.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
        let hits = by_text(&g, "TERM9999", "entry number9999 of the glossary3");
        let mut expected = vec!["term9999".to_string()];
        expected.extend((0..n).filter(|&i| i % 7 == 3 && i != 9999).map(|i| format!("term{i}")));
        assert_eq!(hits.iter().map(|s| s.term.clone()).collect::<Vec<_>>(), expected);
        assert_eq!(hits[0].why, Why::SameTerm);
        assert!(hits[1..].iter().all(|s| s.score == 0.6 && s.why == Why::Explanation));
    }

    #[test]
    fn an_explanation_without_words_matches_by_term_only() {
        let g = glossary(&[("x1", "ok"), ("y1", "ok")]);
        assert!(found(&g, "z1", "ok").is_empty());
    }
}
