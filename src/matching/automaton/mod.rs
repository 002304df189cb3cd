//! Exact matching: an Aho-Corasick automaton stored as flat integer tables.
//!
//! The hook is a fresh process per prompt and reads the automaton straight out of the mapped
//! index file, so the automaton is nothing but a few flat integer vectors that are searched in
//! place: no pointers, no nested vectors, nothing to rebuild, and rkyv's validation of the
//! archive is a handful of length checks whatever the glossary size.
//!
//! The work is split by job, one file each:
//!
//! * `layout`: the archived type, [`Automaton`] (what the index file holds), the bit layout
//!   of its units and the meaning of each table. It is the contract between the other two, and
//!   part of the index file format.
//! * `build`: [`Automaton::build`], from terms to tables: sorting the keys, placing the states
//!   in the double array, computing the failure and output links.
//! * `search`: [`ArchivedAutomaton::find_all`], the search in place over the archived tables,
//!   and how it stays safe on damaged ones; [`ArchivedAutomaton::find_words`], the same search
//!   for whole words (`matching.wordBoundary`), which differs only in how hits are reported.

mod build;
mod layout;
mod search;
#[cfg(test)]
mod tests;

pub use layout::{ArchivedAutomaton, Automaton, AutomatonResolver};
