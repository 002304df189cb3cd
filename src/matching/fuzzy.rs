//! The fuzzy bigram prefilter for smart matching. (Being written.)

use super::TermSource;

/// A term proposed by the prefilter, with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: u32,
    pub score: f64,
}

/// Most candidates ever proposed for one prompt.
pub const MAX_CANDIDATES: usize = 12;

/// Prefilter tables, built at record time and read in place.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Default, Clone)]
pub struct FuzzyIndex {
    pub placeholder: Vec<u32>,
}

impl FuzzyIndex {
    pub fn build<T: TermSource + ?Sized>(terms: &T) -> FuzzyIndex {
        let _ = terms;
        FuzzyIndex::default()
    }
}

impl ArchivedFuzzyIndex {
    /// Candidates for `message`: terms not in `exact_hits` (sorted ids) scoring at least
    /// `threshold`, by score descending then id, at most [`MAX_CANDIDATES`].
    pub fn candidates<T: TermSource + ?Sized>(
        &self,
        terms: &T,
        message: &str,
        threshold: f64,
        exact_hits: &[u32],
    ) -> Vec<Candidate> {
        let _ = (terms, message, threshold, exact_hits);
        Vec::new()
    }
}
