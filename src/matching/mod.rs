//! Matching: which recorded terms a prompt mentions.
//!
//! * [`automaton`]: exact substring hits through an Aho-Corasick automaton stored as flat
//!   integer tables, searched in place inside the mapped index.
//! * [`fuzzy`]: the bigram-Jaccard prefilter that proposes candidates for smart matching.
//! * [`llm`]: the call that asks a local model which candidates are really relevant.
//!
//! Every engine here works on term ids: the position of a term in the glossary, so ascending
//! id order is glossary order.

pub mod automaton;
pub mod fuzzy;
pub mod llm;

/// Read access to the terms and explanations of a glossary by id (glossary order).
///
/// Implemented by the archived index (bytes in a mapped file) and by plain in-memory lists, so
/// that every engine can be tested against a reference without building an index file.
pub trait TermSource {
    /// Number of entries.
    fn len(&self) -> usize;
    /// True when there is no entry.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The term with this id, or `None` when the id is out of range or the bytes are damaged.
    fn term(&self, id: u32) -> Option<&str>;
    /// The explanation with this id, or `None` as for [`TermSource::term`].
    fn explanation(&self, id: u32) -> Option<&str>;
}

impl<S: AsRef<str>> TermSource for [(S, S)] {
    fn len(&self) -> usize {
        <[(S, S)]>::len(self)
    }
    fn term(&self, id: u32) -> Option<&str> {
        self.get(id as usize).map(|(t, _)| t.as_ref())
    }
    fn explanation(&self, id: u32) -> Option<&str> {
        self.get(id as usize).map(|(_, e)| e.as_ref())
    }
}
