//! The archived prefilter: the tables the index file holds, and the encodings of bigram keys,
//! hashes and term kinds that the build writes and the search reads.
//!
//! Kept apart from the build and the search because it is the contract between them, and
//! part of the index file's format: a change here is a change of `index::FORMAT_VERSION`.
//!
//! # Tables
//!
//! * **Bigram ids in rarity order.** Every distinct bigram of the glossary (ASCII terms give
//!   lowercased bigrams, window terms raw ones; a kind bit keeps the two apart) gets an id,
//!   ids ordered by how many terms contain the bigram, rarest first. An open-addressing hash
//!   table (`slots`) maps a bigram to its id and to its posting groups.
//! * **Blocks.** Per term: its id, then its bigram ids sorted (hence rarest first), repeats
//!   kept: the bigram multiset. Overlaps are merges of two sorted lists.
//! * **Posting lists.** Per bigram, one entry per term containing it: the term's block and
//!   the *rank* `r` of the bigram in the term's sorted tokens. Entries come in groups: by term
//!   length `nT` then rank for ASCII bigrams, by rank then `nT` descending for window bigrams,
//!   each order chosen so that a query reads a prefix of each group and stops.

/// Term kinds in [`FuzzyIndex::term_kind`].
pub(super) const KIND_NONE: u8 = 0;
pub(super) const KIND_ASCII: u8 = 1;
pub(super) const KIND_WINDOW: u8 = 2;
pub(super) const KIND_SINGLE: u8 = 3;

/// Terms with more tokens than this are not posted (ranks and lengths are stored as `u8`);
/// they are scored directly on every query. Real glossary terms are far shorter.
pub(super) const MAX_POSTED: usize = u8::MAX as usize;

/// Kind bit of a bigram key: lowercased bigram of an ASCII term (else raw bigram).
pub(super) const ASCII_KIND: u64 = 1 << 42;

#[inline]
pub(super) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

#[inline]
pub(super) fn is_word_char(c: char) -> bool {
    c.is_ascii() && is_word_byte(c as u8)
}

/// Chars are < 2^21, so a bigram packs into 42 bits; bit 42 is the kind.
#[inline]
pub(super) fn raw_key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 21) | u64::from(b)
}

#[inline]
pub(super) fn ascii_key(a: u8, b: u8) -> u64 {
    ASCII_KIND | raw_key(u32::from(a.to_ascii_lowercase()), u32::from(b.to_ascii_lowercase()))
}

/// Hash of a bigram key for the slot table. Part of the file format: keep it stable.
#[inline]
pub(super) fn slot_hash(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

/// Signature bit of a bigram id: a term's signature has the bits of its bigrams, so a word
/// can bound its overlap with a term from the posting entry alone (see `ascii_phase`).
#[inline]
pub(super) fn sig_bit(id: u32) -> u32 {
    (id.wrapping_mul(0x9E37_79B1) >> 8) % 24
}

/// 16-bit hash of a bigram id, for the message bitmap that window entries test their "other"
/// bigram against (see `window_phase`).
#[inline]
pub(super) fn other_hash(id: u32) -> u32 {
    id.wrapping_mul(0x9E37_79B1) >> 16
}

/// Prefilter tables, built at record time and read in place. See the module doc.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Default, Clone)]
pub struct FuzzyIndex {
    /// Per term: how it is scored (`KIND_*`).
    pub term_kind: Vec<u8>,
    /// Per term, `n + 1` offsets into `blocks`.
    pub term_block: Vec<u32>,
    /// Per term a block: the term id, then its bigram ids sorted ascending (rarest first),
    /// repeats kept. Posting entries point at blocks so that scoring a term reads one place.
    pub blocks: Vec<u32>,
    /// Bigram hash table, 4 words per slot: key bits 0–31; key bits 32–42 | group count << 16 |
    /// largest nT of the list << 24; bigram id + 1 (0 = empty slot); first group.
    /// Power-of-two slot count, load ≤ 0.7.
    pub slots: Vec<u32>,
    /// Group directory, 2 words per group: first posting entry; `nT | min rank << 8` for an
    /// ASCII bigram (entries by nT, then rank), `rank | max nT << 8` for a window bigram
    /// (entries by rank, then nT descending). A final sentinel pair holds the entry count: a
    /// group ends where the next one starts.
    pub groups: Vec<u32>,
    /// Per posting entry: the term's block.
    pub post_block: Vec<u32>,
    /// Per posting entry: rank of the bigram's first occurrence in the term's sorted tokens
    /// (bits 0–7), then for an ASCII term its bigram signature (bits 8–31, see `sig_bit`),
    /// for a window term its nT (bits 8–15) and the `other_hash` of its rarest other bigram.
    pub post_meta: Vec<u32>,
    /// One-char window terms as `(char, id)` pairs, flattened, sorted.
    pub singles: Vec<u32>,
    /// Terms too long to post, scored directly on every query.
    pub specials: Vec<u32>,
    /// `matching.wordBoundary`: a word that holds an ASCII term only inside longer words is no
    /// evidence for it (see the module documentation of `fuzzy`).
    pub whole_words: bool,
}
