//! Exact matching: an Aho-Corasick automaton stored as flat integer tables.
//! (Being written: see the interface below.)

/// The exact-match automaton in its serialisable form.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Default, Clone)]
pub struct Automaton {
    pub placeholder: Vec<u32>,
}

impl Automaton {
    /// Builds the automaton over `terms`; the id of a term is its position in the slice.
    pub fn build(terms: &[&[u8]]) -> Automaton {
        let _ = terms;
        Automaton::default()
    }
}

impl ArchivedAutomaton {
    /// Every term that occurs in `haystack`, once each, as `(id, end)` where `end` is the byte
    /// offset just past one occurrence; sorted by id. Never panics and always terminates, whatever
    /// the table contents; damaged tables may give wrong pairs, which the caller verifies.
    pub fn find_all(&self, haystack: &[u8]) -> Vec<(u32, usize)> {
        let _ = haystack;
        Vec::new()
    }
}
