//! The fuzzy bigram prefilter for smart matching.
//!
//! # What it computes
//!
//! Scores are bigram Jaccard similarities over chars (Unicode scalar values); the definition
//! lives, written as literally as possible, in [`mod@reference`]. In short:
//!
//! * a term made only of `[A-Za-z0-9_.-]` ("ASCII term") is compared, case-insensitively, with
//!   every maximal run of those chars in the message ("word") that shares at least 2 bigrams
//!   with it; its score is the best Jaccard;
//! * any other term ("window term", e.g. CJK) of `L` chars is compared with the whole message
//!   when that has at most `L + 2` chars, else with every window of `max(2, L) ..= L + 2` chars.
//!
//! With `matching.wordBoundary` on ([`FuzzyIndex::whole_words`]), evidence inside a longer
//! word does not count: an ASCII term is not compared with a word that holds it, ignoring
//! case, only inside longer words (by the rule of [`crate::matching::boundary`]: `api` is not
//! compared with `rapid`, `apis` or `api_key`, but still with `API-key` and with `apl`).
//! Other words are compared as before: a variant that does not contain the term (`colour` for
//! `color`) is what fuzzy matching is for. (Other terms, compared with windows that cut through
//! words anyway, are left to `matching::find`, which leaves out of the candidates those the
//! prompt holds only inside longer words.)
//!
//! [`ArchivedFuzzyIndex::candidates`] returns the terms scoring at least the threshold (not
//! exact hits), best first then by id, at most [`MAX_CANDIDATES`]: exactly what
//! [`reference::candidates`] returns, scores bit for bit.
//!
//! # Design
//!
//! The hook is a fresh process per prompt that reads this index in place from a mapped file,
//! so the index is flat integer tables and a query touches as little of it as it can.
//!
//! The work is split by job, one file each:
//!
//! * `layout`: the archived tables, [`FuzzyIndex`], and the encodings of bigram keys and
//!   hashes that the build and the search must agree on (part of the index file format).
//! * `build`: [`FuzzyIndex::build`], at record time: bigram ids in rarity order, blocks,
//!   posting groups, the slot table.
//! * `search`: [`ArchivedFuzzyIndex::candidates`], in the hook, over the archived tables: the
//!   phases, the prefix and length filters, and exact scoring (ASCII words and windows).
//! * `maps`: the small hash maps both of them use as working memory.
//! * [`mod@reference`]: the plain definition the index is tested against.
//!
//! Limits: glossaries of fewer than 2³² bigrams, prompts of fewer than 2³² chars.
//!
//! Robustness: every read of the archived tables is bounds-checked and every loop is bounded
//! by a table or prompt length, so a corrupt index gives wrong answers, never a panic or hang.

mod build;
mod layout;
mod maps;
pub mod reference;
mod search;
#[cfg(test)]
mod tests;

pub use layout::{ArchivedFuzzyIndex, FuzzyIndex, FuzzyIndexResolver};

/// A term proposed by the prefilter, with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: u32,
    pub score: f64,
}

/// Most candidates ever proposed for one prompt.
pub const MAX_CANDIDATES: usize = 12;

/// Whether `term` is scored as an ASCII term (against words, not windows): made only of
/// `[A-Za-z0-9_.-]`.
pub fn is_ascii_term(term: &str) -> bool {
    term.chars().all(layout::is_word_char)
}
