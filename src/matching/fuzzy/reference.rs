//! The definition, written as literally as possible and without any index: the oracle the
//! index is tested against. Slow (every term, every word, every window).
//!
//! Kept apart from the index it checks, and public, so that the unit tests, the property
//! tests and the fuzz target compare the index with one and the same definition.

use super::{Candidate, MAX_CANDIDATES};
use crate::matching::boundary::only_inside_words;
use crate::matching::TermSource;
use std::collections::HashMap;

fn is_ascii_term_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-'
}

/// The multiset of overlapping 2-char slices.
fn bigrams(s: &[char]) -> HashMap<(char, char), usize> {
    let mut m = HashMap::new();
    for w in s.windows(2) {
        *m.entry((w[0], w[1])).or_insert(0) += 1;
    }
    m
}

/// Σ min(countA, countB) over all bigrams.
fn shared(a: &[char], b: &[char]) -> usize {
    let (ba, bb) = (bigrams(a), bigrams(b));
    ba.iter().map(|(k, &ca)| ca.min(bb.get(k).copied().unwrap_or(0))).sum()
}

/// Bigram Jaccard: Σ min / Σ max; strings under 2 chars: 0 if either is empty, else 1 if
/// equal, else 0.
pub fn jaccard(a: &[char], b: &[char]) -> f64 {
    if a.len() < 2 || b.len() < 2 {
        return if a.is_empty() || b.is_empty() {
            0.0
        } else if a == b {
            1.0
        } else {
            0.0
        };
    }
    let (ba, bb) = (bigrams(a), bigrams(b));
    let mut min_sum = 0usize;
    let mut max_sum = 0usize;
    for (k, &ca) in &ba {
        let cb = bb.get(k).copied().unwrap_or(0);
        min_sum += ca.min(cb);
        max_sum += ca.max(cb);
    }
    for (k, &cb) in &bb {
        if !ba.contains_key(k) {
            max_sum += cb;
        }
    }
    min_sum as f64 / max_sum as f64
}

/// Score of `term` against `message`.
pub fn score(term: &str, message: &str) -> f64 {
    score_with(term, message, false)
}

/// Score of `term` against `message`; with `whole_words` (`matching.wordBoundary`), an ASCII
/// term is not compared with a word that holds it only inside longer words.
pub fn score_with(term: &str, message: &str, whole_words: bool) -> f64 {
    let mut best = 0.0;
    if term.chars().all(is_ascii_term_char) {
        let t: Vec<char> = term.to_ascii_lowercase().chars().collect();
        let msg: Vec<char> = message.chars().collect();
        for word in msg.split(|&c| !is_ascii_term_char(c)).filter(|w| !w.is_empty()) {
            let text: String = word.iter().collect();
            if whole_words && only_inside_words(text.as_bytes(), term.as_bytes()) {
                continue;
            }
            let w: Vec<char> = word.iter().map(|c| c.to_ascii_lowercase()).collect();
            if shared(&t, &w) < 2 {
                continue;
            }
            let j = jaccard(&t, &w);
            if j > best {
                best = j;
            }
        }
    } else {
        let t: Vec<char> = term.chars().collect();
        let m: Vec<char> = message.chars().collect();
        let l = t.len();
        if m.len() <= l + 2 {
            return jaccard(&m, &t);
        }
        for size in l.max(2)..=l + 2 {
            for start in 0..=m.len() - size {
                let j = jaccard(&m[start..start + size], &t);
                if j > best {
                    best = j;
                }
            }
        }
    }
    best
}

/// Terms not in `exact_hits` with score ≥ `threshold`, by score descending then id,
/// at most [`MAX_CANDIDATES`].
pub fn candidates<T: TermSource + ?Sized>(
    terms: &T,
    message: &str,
    threshold: f64,
    exact_hits: &[u32],
) -> Vec<Candidate> {
    candidates_with(terms, message, threshold, exact_hits, false)
}

/// [`candidates`], scored with [`score_with`].
pub fn candidates_with<T: TermSource + ?Sized>(
    terms: &T,
    message: &str,
    threshold: f64,
    exact_hits: &[u32],
    whole_words: bool,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for id in 0..terms.len() as u32 {
        if exact_hits.contains(&id) {
            continue;
        }
        let Some(term) = terms.term(id) else { continue };
        let s = score_with(term, message, whole_words);
        if s >= threshold {
            out.push(Candidate { id, score: s });
        }
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
    out.truncate(MAX_CANDIDATES);
    out
}
