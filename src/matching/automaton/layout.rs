//! The archived automaton: the tables the index file holds and the bit layout of a unit.
//!
//! Kept apart from the build and the search because it is the contract between them, and
//! part of the index file's format: a change here is a change of `index::FORMAT_VERSION`.
//!
//! # Layout
//!
//! States live in *slots* of a double array, slot 0 being the root. Slots come in blocks of
//! 256. Each slot is one `u64` in `units`, so a transition touches one cache line:
//!
//! ```text
//!  63          36 35          9  8   7      0
//! [ base: 28 bits | fail: 27 bits | F | label ]
//! ```
//!
//! * `base`: the XOR base of the state's children: the child of `s` on byte `c` lives in slot
//!   `base(s) ^ c`, always in the same 256-slot block as the base. A state without children has
//!   the base `NO_BASE`, which points past the end of the table.
//! * `label`: the byte on the edge into this slot. The builder gives every base to at most one
//!   state, so a label match proves that slot `t` really is the child of `s`: had the slot been
//!   the child of another state `p` with the same label, `p` would have the same base. Slots
//!   that are nobody's child (free ones and the root) get a label `l` such that the base `t ^ l`
//!   is not used, so no state can reach them. This is the darts-clone trick; it keeps the check
//!   to one byte.
//! * `fail`: the failure link, the slot of the longest proper suffix of the state's string that
//!   is also a state.
//! * `F`, the *output flag*: the state ends a term, or one of its suffixes does.
//!
//! Output data is kept apart, because few states have any:
//!
//! * `out_rank`: a rank directory over the output flags, one triple `[flags set before this
//!   group, flag bits 0..32, flag bits 32..64]` per 64 slots, so that the *rank* of an output
//!   state (how many output states precede it) costs one lookup and one popcount.
//! * `outs[2r]`, `outs[2r + 1]`, per output state in rank order: the term the state ends (or
//!   `NONE` when only a suffix of it is a term; in the index, not the term's id but where its
//!   entry's record starts, see [`Automaton::map_ids`]) and the rank of the next state down its
//!   failure chain that ends a term (the dictionary suffix link), or `NONE`. The two words sit
//!   side by side because they are always read together: in the hook, whose index is mapped
//!   and read cold, each separate place a hit has to look costs a page fault.
//! * `dup_of` / `dup_id`: identical terms share one state, which reports the lowest id; the
//!   others are listed here (sorted by that id) and added to the result next to it. In the
//!   index, whose automaton holds the terms folded, these are mostly terms that differ only in
//!   case (`UI`, `ui`), which a search that checks occurrences asks about one by one.
//! * `used`: the bytes that occur in some term, one bit each. No state has a child on any
//!   other byte, so such a byte ends every failure chain at the root.
//! * `whole_words`: the index was built with `matching.wordBoundary` on, so its hits are to be
//!   searched with [`ArchivedAutomaton::find_words`] (the tables are the same either way).
//!
//! The build places the states of the first six bytes (two CJK characters) breadth-first, so
//! the shallow states that nearly every prompt byte visits sit together at the front of the
//! table, and each deeper subtree depth-first, so that the path of a term found in a prompt lies
//! in a few neighbouring blocks rather than one level's worth of table apart per byte.

/// Bits of a unit holding the edge label.
pub(super) const LABEL_MASK: u64 = 0xff;
/// Bit of a unit that marks an output state.
pub(super) const FLAG_OUT: u64 = 1 << 8;
pub(super) const FAIL_SHIFT: u32 = 9;
pub(super) const FAIL_MASK: u64 = (1 << 27) - 1;
pub(super) const BASE_SHIFT: u32 = 36;
/// Slots the fail field can address; the builder stays below it.
pub(super) const MAX_SLOTS: usize = 1 << 27;
/// The base of a state without children: XOR with any byte gives a slot at or past it, beyond
/// [`MAX_SLOTS`], so no transition leaves such a state.
pub(super) const NO_BASE: u32 = (1 << 28) - 256;
/// What a missing slot reads as: a childless state failing to the root.
pub(super) const EMPTY_UNIT: u64 = (NO_BASE as u64) << BASE_SHIFT;
/// "No term" / "no link" in `outs`.
pub(super) const NONE: u32 = u32::MAX;
/// Slots per block: one per possible byte, so a base's children all stay within its block.
pub(super) const BLOCK: usize = 256;

/// The exact-match automaton in its serialisable form. See the module documentation for the
/// meaning of each table.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Default, Clone)]
pub struct Automaton {
    pub(super) units: Vec<u64>,
    pub(super) out_rank: Vec<u32>,
    pub(super) outs: Vec<u32>,
    pub(super) dup_of: Vec<u32>,
    pub(super) dup_id: Vec<u32>,
    pub(super) num_terms: u32,
    /// Length in bytes of the longest term.
    pub(super) max_len: u32,
    /// Bit `c % 64` of word `c / 64` is set when byte `c` occurs in some term.
    pub(super) used: [u64; 4],
    /// Hits count only as whole words (`matching.wordBoundary`), see [`crate::matching::boundary`].
    pub(super) whole_words: bool,
}

impl Automaton {
    /// Number of terms the automaton was built over (ids are below this).
    pub fn num_terms(&self) -> u32 {
        self.num_terms
    }

    /// Number of slots in the double array (states plus the few empty slots).
    pub fn num_slots(&self) -> usize {
        self.units.len()
    }

    /// Marks the automaton as searched for whole words only (`matching.wordBoundary`): the
    /// index follows the setting, so the hook reads it from the automaton it searches.
    pub fn set_whole_words(&mut self, on: bool) {
        self.whole_words = on;
    }

    /// Makes the automaton report `value[id]` instead of each term id `id`. The values must
    /// increase with the id, so that hits sorted by value are still in glossary order (and
    /// identical terms stay in order). The index uses it to have hits lead straight to their
    /// entries' records.
    ///
    /// # Panics
    ///
    /// If `value` has fewer items than there are terms.
    pub fn map_ids(&mut self, value: &[u32]) {
        debug_assert!(value.windows(2).all(|w| w[0] < w[1]), "values must increase");
        for id in self.outs.iter_mut().step_by(2).chain(&mut self.dup_of).chain(&mut self.dup_id) {
            if *id != NONE {
                *id = value[*id as usize];
            }
        }
    }
}

impl ArchivedAutomaton {
    /// Number of terms the automaton was built over (ids are below this, unless damaged).
    pub fn num_terms(&self) -> u32 {
        self.num_terms.to_native()
    }

    /// Whether hits count only as whole words; see [`Automaton::set_whole_words`].
    pub fn whole_words(&self) -> bool {
        self.whole_words
    }
}
