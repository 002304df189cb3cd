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
//! [`ArchivedFuzzyIndex::candidates`] returns the terms scoring at least the threshold (not
//! exact hits), best first then by id, at most [`MAX_CANDIDATES`]: exactly what
//! [`reference::candidates`] returns, scores bit for bit.
//!
//! # Design
//!
//! The hook is a fresh process per prompt that reads this index in place from a mapped file,
//! so the index is flat integer tables and a query touches as little of it as it can.
//!
//! ## Tables
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
//!
//! ## Search
//!
//! Counting, for every term, the bigrams it shares with the prompt is too slow: ASCII
//! identifiers are made of the same few hundred English bigrams as a prompt's prose, so at
//! 100k terms the lists of a 1,000-char prompt hold most of the index. Instead:
//!
//! * **A rising bar.** Only 12 candidates are returned, so a term matters only if it reaches
//!   `τ = max(threshold, 12th best score so far)`. The search runs in phases with falling
//!   floors (0.75, 0.5, 0.35, then the threshold); a phase offers every term scoring at least
//!   its bar, so once 12 results reach the floor of a finished phase they are final. Prompts
//!   close to many terms stop after the cheap high-bar phase.
//! * **Prefix filtering.** To reach `τ`, a term needs an overlap of `α` bigrams with its best
//!   word or window, `α` following from `τ`, `nT` and the word's length (the score is at most
//!   `m / (nT + nW − m)`, and windows have `nW ≥ nT`). The rarest common bigram then has at
//!   least `α − 1` common bigrams after it, so its rank is `≤ nT − α`: only entries with small
//!   ranks can find the term, and common bigrams, which sit last in most terms, have long lists
//!   of which almost nothing is read. The same holds on the word's side; `α ≤ min(nT, nW)` is
//!   the length filter (whole groups skipped).
//! * **Cheap bounds before reading a block.** ASCII entries carry a 24-bit signature of their
//!   term's bigrams, which bounds the overlap with a word without touching the term. Window
//!   entries carry a hash of the term's rarest other bigram: when every bigram is needed
//!   (`α = nT`) and that one is absent from the prompt, the term is out.
//! * **Exact scoring of survivors.** ASCII: merge with the word, `m / (nT + nW − m)`. Window:
//!   the term's bigram count in the whole prompt bounds every window; then a sweep over the
//!   prompt positions of its bigrams (a best window can start at a hit, so only those starts
//!   are tried). In a long prompt only hits near "anchor" positions are gathered (positions
//!   of the term's bigrams of rank `≤ nT − α`, which every window reaching the bar contains),
//!   so the cost follows the rare bigrams, not the prompt's length.
//! * Memory is touched in batches (home slots, groups, blocks) before it is used, so that the
//!   cache misses of a large index overlap.
//!
//! ## Exactness
//!
//! Every filter is a bound that can only let extra terms through to exact scoring: `α` is
//! computed as `⌈k·A − 10⁻⁶⌉` (`k = τ/(1+τ)`), one lower than the exact minimum at worst when
//! `k·A` is within rounding of an integer; signatures and hashes only ever report "maybe
//! present". Scores are the reference's `f64` expression, `Σmin / Σmax`, and the final test is
//! `score >= threshold`. Ties at the 12th score are kept (pruning is by `< τ`), so id order is
//! respected.
//!
//! Terms that never score (ASCII terms of fewer than 3 chars cannot share 2 bigrams with a
//! word), one-char window terms (they score 1 only against a message equal to them; a small
//! sorted table) and terms longer than 255 bigrams (ranks are `u8`; scored directly on every
//! query) stay out of the posting lists. With threshold ≤ 0 every term qualifies: after the
//! positive scores come zero-score terms in id order.
//!
//! Limits: glossaries of fewer than 2³² bigrams, prompts of fewer than 2³² chars.
//!
//! Robustness: every read of the archived tables is bounds-checked and every loop is bounded
//! by a table or prompt length, so a corrupt index gives wrong answers, never a panic or hang.

use super::TermSource;
use std::cell::RefCell;
use std::ops::Range;

/// A term proposed by the prefilter, with its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub id: u32,
    pub score: f64,
}

/// Most candidates ever proposed for one prompt.
pub const MAX_CANDIDATES: usize = 12;

/// Term kinds in [`FuzzyIndex::term_kind`].
const KIND_NONE: u8 = 0;
const KIND_ASCII: u8 = 1;
const KIND_WINDOW: u8 = 2;
const KIND_SINGLE: u8 = 3;

/// Terms with more tokens than this are not posted (ranks and lengths are stored as `u8`);
/// they are scored directly on every query. Real glossary terms are far shorter.
const MAX_POSTED: usize = u8::MAX as usize;

/// Kind bit of a bigram key: lowercased bigram of an ASCII term (else raw bigram).
const ASCII_KIND: u64 = 1 << 42;

/// Falling bars of the search phases (the threshold itself always runs last).
const PHASES: [f64; 3] = [0.75, 0.5, 0.35];

/// Slack on `α`: `⌈k·A − SLACK⌉` may be one lower than the exact minimum when `k·A` is within
/// rounding distance of an integer, which only lets an extra term through to exact scoring.
const SLACK: f64 = 1e-6;

#[inline]
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// Dense code of a word byte, case folded: 26 letters, 10 digits, `_`, `.`, `-`.
#[inline]
fn word_code(b: u8) -> usize {
    match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => usize::from(c - b'a'),
        c @ b'0'..=b'9' => 26 + usize::from(c - b'0'),
        b'_' => 36,
        b'.' => 37,
        _ => 38,
    }
}

const WORD_CODES: usize = 39;

#[inline]
fn is_word_char(c: char) -> bool {
    c.is_ascii() && is_word_byte(c as u8)
}

/// Chars are < 2^21, so a bigram packs into 42 bits; bit 42 is the kind.
#[inline]
fn raw_key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 21) | u64::from(b)
}

#[inline]
fn ascii_key(a: u8, b: u8) -> u64 {
    ASCII_KIND | raw_key(u32::from(a.to_ascii_lowercase()), u32::from(b.to_ascii_lowercase()))
}

/// Hash of a bigram key for the slot table. Part of the file format: keep it stable.
#[inline]
fn slot_hash(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize
}

/// Signature bit of a bigram id: a term's signature has the bits of its bigrams, so a word
/// can bound its overlap with a term from the posting entry alone (see `ascii_phase`).
#[inline]
fn sig_bit(id: u32) -> u32 {
    (id.wrapping_mul(0x9E37_79B1) >> 8) % 24
}

/// 16-bit hash of a bigram id, for the message bitmap that window entries test their "other"
/// bigram against (see `window_phase`).
#[inline]
fn other_hash(id: u32) -> u32 {
    id.wrapping_mul(0x9E37_79B1) >> 16
}

/// `f64` score exactly as the definition states it: Σmin / Σmax.
#[inline]
fn ratio(min_sum: usize, max_sum: usize) -> f64 {
    min_sum as f64 / max_sum as f64
}

/// `⌈x⌉` for the small non-negative values of [`min_overlap`] (0 for negatives), without a
/// libm call: the target may lack a rounding instruction.
#[inline]
fn ceil_usize(x: f64) -> usize {
    if x.is_nan() || x <= 0.0 {
        return 0;
    }
    let t = x as usize;
    if (t as f64) < x {
        t + 1
    } else {
        t
    }
}

/// Smallest overlap `m ≥ base` that can give a score `≥ τ` when the score is at most
/// `m / (A − m)`, i.e. `m ≥ τ·A / (1 + τ)` (`k = τ / (1 + τ)`); `None` when it exceeds `cap`.
#[inline]
fn min_overlap(k: f64, a: usize, base: usize, cap: usize) -> Option<usize> {
    let alpha = ceil_usize(k * a as f64 - SLACK).max(base);
    (alpha <= cap).then_some(alpha)
}

/// `k = τ / (1 + τ)` for [`min_overlap`]; `None` when nothing can reach `τ` (scores are ≤ 1).
#[inline]
fn bar_factor(tau: f64) -> Option<f64> {
    if tau > 1.0 {
        None
    } else if tau > 0.0 {
        Some(tau / (1.0 + tau))
    } else {
        Some(0.0)
    }
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
}

impl FuzzyIndex {
    /// Builds the tables over `terms` (id = position).
    pub fn build<T: TermSource + ?Sized>(terms: &T) -> FuzzyIndex {
        let n = terms.len();
        let mut term_kind = Vec::with_capacity(n);
        let mut term_block: Vec<u32> = Vec::with_capacity(n + 1);
        let mut singles: Vec<(u32, u32)> = Vec::new();
        // Blocks first hold temporary bigram ids (in order of first appearance); they become
        // final ids once every bigram's frequency is known. Lowercased ASCII bigrams (7 + 7
        // bits) go through a direct table, the others through a hash table.
        let mut blocks: Vec<u32> = Vec::with_capacity(n.saturating_mul(10));
        let mut tmp_of = KeyMap::default();
        tmp_of.reserve(1 << 12);
        let mut ascii_tmp = vec![u32::MAX; 1 << 14];
        let mut tmp_keys: Vec<u64> = Vec::new();
        let mut df: Vec<u32> = Vec::new();
        let mut last_term: Vec<u32> = Vec::new();
        let mut add = |key: u64, ascii: Option<usize>, id: u32, blocks: &mut Vec<u32>| {
            let next = tmp_keys.len() as u32;
            let (t, new) = match ascii {
                Some(a) if ascii_tmp[a] != u32::MAX => (ascii_tmp[a], false),
                Some(a) => {
                    ascii_tmp[a] = next;
                    (next, true)
                }
                None => tmp_of.get_or_insert(key, next),
            };
            if new {
                tmp_keys.push(key);
                df.push(0);
                last_term.push(u32::MAX);
            }
            // Count each term once per bigram.
            if last_term[t as usize] != id {
                last_term[t as usize] = id;
                df[t as usize] += 1;
            }
            blocks.push(t);
        };
        for id in 0..n {
            term_block.push(blocks.len() as u32);
            blocks.push(id as u32);
            let term = terms.term(id as u32).unwrap_or("");
            let kind = if term.chars().all(is_word_char) {
                let b = term.as_bytes();
                // Fewer than 2 bigrams cannot share 2 with a word: the term never scores.
                if b.len() < 3 {
                    KIND_NONE
                } else {
                    for w in b.windows(2) {
                        let (x, y) = (w[0].to_ascii_lowercase(), w[1].to_ascii_lowercase());
                        let direct = usize::from(x & 0x7F) << 7 | usize::from(y & 0x7F);
                        add(ascii_key(x, y), Some(direct), id as u32, &mut blocks);
                    }
                    KIND_ASCII
                }
            } else {
                let mut chars = term.chars().map(u32::from);
                let first = chars.next().unwrap_or(0);
                let mut prev = first;
                let mut len = 1usize;
                for c in chars {
                    add(raw_key(prev, c), None, id as u32, &mut blocks);
                    prev = c;
                    len += 1;
                }
                if len == 1 {
                    singles.push((first, id as u32));
                    KIND_SINGLE
                } else {
                    KIND_WINDOW
                }
            };
            term_kind.push(kind);
        }
        term_block.push(blocks.len() as u32);
        drop((tmp_of, last_term, ascii_tmp));
        let toks_of = |id: usize| term_block[id] as usize + 1..term_block[id + 1] as usize;
        let nbig = tmp_keys.len();

        // Ids in rarity order, so that sorted token lists are rarest first.
        let mut order: Vec<u32> = (0..nbig as u32).collect();
        order.sort_unstable_by_key(|&t| (df[t as usize], tmp_keys[t as usize]));
        let mut id_of_tmp = vec![0u32; nbig];
        for (id, &t) in order.iter().enumerate() {
            id_of_tmp[t as usize] = id as u32;
        }
        // Posting entries, one per (term, distinct bigram) whose rank can be a first common
        // token: for ASCII terms (which need 2 common tokens) not the last one.
        let posted = |id: usize, r: usize, n_t: usize| match term_kind[id] {
            KIND_ASCII => n_t <= MAX_POSTED && r + 2 <= n_t,
            KIND_WINDOW => n_t <= MAX_POSTED,
            _ => false,
        };
        // Group field of an entry: ASCII nT << 8 | r, window r << 8 | (255 − nT) (see below).
        let field_of = |ascii: bool, r: usize, n_t: usize| {
            (if ascii { n_t << 8 | r } else { r << 8 | (255 - n_t) }) as u32
        };
        // Remap to final ids, sort each term's tokens, and count entries per list and per
        // group field on the way.
        let mut specials = Vec::new();
        let mut list_off = vec![0u32; nbig + 1];
        let mut field_off = vec![0u32; (1 << 16) + 1];
        for id in 0..n {
            let toks = &mut blocks[toks_of(id)];
            toks.iter_mut().for_each(|t| *t = id_of_tmp[*t as usize]);
            toks.sort_unstable();
            let n_t = toks.len();
            if n_t > MAX_POSTED && matches!(term_kind[id], KIND_ASCII | KIND_WINDOW) {
                specials.push(id as u32);
            }
            let ascii = term_kind[id] == KIND_ASCII;
            for r in 0..n_t {
                if (r == 0 || toks[r - 1] != toks[r]) && posted(id, r, n_t) {
                    list_off[toks[r] as usize + 1] += 1;
                    field_off[field_of(ascii, r, n_t) as usize + 1] += 1;
                }
            }
        }
        // Each entry as (bigram, group field, meta). Within a list, entries are ordered by
        // group field then block. ASCII lists: field = nT << 8 | r (groups per length, since
        // words filter on length). Window lists: field = r << 8 | (255 − nT) (groups per rank,
        // nT descending, since at a given bar the admissible rank only grows with nT; see
        // `window_phase`). Both orders come from two stable counting sorts (by field, then by
        // bigram) over entries generated in block order: no comparison sort.
        let for_each_entry = |f: &mut dyn FnMut(u32, u32, u32, u32)| {
            for id in 0..n {
                let toks = &blocks[toks_of(id)];
                let n_t = toks.len();
                let ascii = term_kind[id] == KIND_ASCII;
                let sig =
                    if ascii { toks.iter().fold(0u32, |acc, &b| acc | 1 << sig_bit(b)) } else { 0 };
                let block = term_block[id];
                for r in 0..n_t {
                    let b = toks[r];
                    if (r > 0 && toks[r - 1] == b) || !posted(id, r, n_t) {
                        continue;
                    }
                    let field = field_of(ascii, r, n_t);
                    let (r, n_t) = (r as u32, n_t as u32);
                    if ascii {
                        f(b, field, block, r | sig << 8);
                    } else {
                        // The rarest other bigram of the term (or this one if there is none).
                        let other = toks.iter().copied().find(|&t| t != b).unwrap_or(b);
                        f(b, field, block, r | n_t << 8 | other_hash(other) << 16);
                    }
                }
            }
        };
        for b in 0..nbig {
            list_off[b + 1] += list_off[b];
        }
        for f in 0..1 << 16 {
            field_off[f + 1] += field_off[f];
        }
        let total = list_off[nbig] as usize;
        let mut by_field = vec![[0u32; 4]; total];
        for_each_entry(&mut |b, field, block, meta| {
            let at = &mut field_off[field as usize];
            by_field[*at as usize] = [b, field, block, meta];
            *at += 1;
        });
        drop(field_off);
        let mut post_block = vec![0u32; total];
        let mut post_meta = vec![0u32; total];
        let mut post_field = vec![0u16; total];
        let mut fill = list_off.clone();
        for &[b, field, block, meta] in &by_field {
            let at = &mut fill[b as usize];
            post_block[*at as usize] = block;
            post_meta[*at as usize] = meta;
            post_field[*at as usize] = field as u16;
            *at += 1;
        }
        drop((fill, by_field));

        let mut first_group = Vec::with_capacity(nbig + 1);
        let mut max_len = vec![0u32; nbig];
        let mut groups = Vec::new();
        for b in 0..nbig {
            first_group.push((groups.len() / 2) as u32);
            let ascii = tmp_keys[order[b] as usize] & ASCII_KIND != 0;
            let mut prev = u32::MAX;
            let (e0, e1) = (list_off[b] as usize, list_off[b + 1] as usize);
            for (e, &field) in (e0..e1).zip(&post_field[e0..e1]) {
                let field = u32::from(field);
                let (hi, lo) = (field >> 8, field & 0xFF);
                // A group's second word comes from its first entry: the lowest rank of an
                // ASCII length group, the largest nT of a window rank group.
                if hi != prev {
                    prev = hi;
                    let second = if ascii { lo } else { 255 - lo };
                    groups.push(e as u32);
                    groups.push(hi | second << 8);
                }
                let n_t = if ascii { hi } else { 255 - lo };
                max_len[b] = max_len[b].max(n_t);
            }
        }
        first_group.push((groups.len() / 2) as u32);
        groups.push(total as u32);
        groups.push(0);
        drop(post_field);

        // Slot table: at least one empty slot always, so a miss ends its probe.
        let nslots = (nbig * 10 / 7 + 1).next_power_of_two().max(2);
        let mut slots = vec![0u32; nslots * 4];
        for (id, &t) in order.iter().enumerate() {
            let key = tmp_keys[t as usize];
            let mut i = slot_hash(key) & (nslots - 1);
            while slots[i * 4 + 2] != 0 {
                i = (i + 1) & (nslots - 1);
            }
            // A bigram has at most one group per length 1..=255 (ASCII) or per rank 0..=254.
            let ngroups = first_group[id + 1] - first_group[id];
            slots[i * 4] = key as u32;
            slots[i * 4 + 1] = (key >> 32) as u32 | ngroups << 16 | max_len[id] << 24;
            slots[i * 4 + 2] = id as u32 + 1;
            slots[i * 4 + 3] = first_group[id];
        }

        singles.sort_unstable();
        let singles = singles.into_iter().flat_map(|(c, id)| [c, id]).collect();

        FuzzyIndex {
            term_kind,
            term_block,
            blocks,
            slots,
            groups,
            post_block,
            post_meta,
            singles,
            specials,
        }
    }
}

type U32 = rkyv::rend::u32_le;

#[inline]
fn at(v: &[U32], i: usize) -> Option<usize> {
    v.get(i).map(|x| x.to_native() as usize)
}

/// Σ min over two sorted multisets (the bigram overlap), by merging.
#[inline]
fn overlap(a: &[U32], b: &[u32]) -> usize {
    let (mut i, mut j, mut m) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        let x = a[i].to_native();
        let y = b[j];
        if x == y {
            m += 1;
            i += 1;
            j += 1;
        } else if x < y {
            i += 1;
        } else {
            j += 1;
        }
    }
    m
}

/// A bigram of the index: its id, its groups `g0..g1`, the largest nT in its list.
#[derive(Clone, Copy, Debug)]
struct Big {
    id: u32,
    g0: u32,
    g1: u32,
    max_len: u32,
}

const NO_BIG: Big = Big { id: u32::MAX, g0: 0, g1: 0, max_len: 0 };

/// One posting group: entries `e0..e1`; `a`, `b` as in [`FuzzyIndex::groups`] (ASCII: nT and
/// lowest rank; window: rank and largest nT).
struct Group {
    a: usize,
    b: usize,
    e0: usize,
    e1: usize,
}

/// Growable open-addressing map from u64 keys (never `u64::MAX`) to u32, reused across calls.
#[derive(Default)]
struct KeyMap {
    /// Key and value side by side: one cache line per probe.
    slots: Vec<(u64, u32)>,
    len: usize,
}

impl KeyMap {
    const EMPTY: u64 = u64::MAX;

    /// Empty table sized for `expected` keys (up to a cap: larger inputs grow it).
    fn reset(&mut self, expected: usize) {
        self.reserve(expected.min(1 << 15));
    }

    /// Empty table sized for `expected` keys.
    fn reserve(&mut self, expected: usize) {
        let size = (expected.saturating_mul(2)).max(16).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, (Self::EMPTY, 0));
        self.len = 0;
    }

    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let mask = self.slots.len().wrapping_sub(1);
        let mut i = slot_hash(key) & mask;
        // The table is never full (load ≤ 1/2), so an empty slot ends every probe.
        loop {
            let (k, v) = *self.slots.get(i)?;
            if k == key {
                return Some(v);
            }
            if k == Self::EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// Value of `key`, inserting `val` if absent; returns (value, inserted).
    #[inline(always)]
    fn get_or_insert(&mut self, key: u64, val: u32) -> (u32, bool) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = slot_hash(key) & mask;
        loop {
            let (k, v) = self.slots[i];
            if k == key {
                return (v, false);
            }
            if k == Self::EMPTY {
                self.slots[i] = (key, val);
                self.len += 1;
                return (val, true);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let size = (old.len() * 2).max(16);
        self.slots = vec![(Self::EMPTY, 0); size];
        let mask = size - 1;
        for (k, v) in old {
            if k != Self::EMPTY {
                let mut i = slot_hash(k) & mask;
                while self.slots[i].0 != Self::EMPTY {
                    i = (i + 1) & mask;
                }
                self.slots[i] = (k, v);
            }
        }
    }
}

/// Set of u32 keys with values, cleared in O(1) by bumping a generation: dedupes the terms
/// a word or a query has already scored without a per-term array the size of the glossary.
#[derive(Default)]
struct TagMap {
    keys: Vec<u32>,
    vals: Vec<u32>,
    tags: Vec<u32>,
    generation: u32,
    len: usize,
}

impl TagMap {
    fn clear(&mut self) {
        if self.keys.is_empty() {
            self.keys = vec![0; 1024];
            self.vals = vec![0; 1024];
            self.tags = vec![0; 1024];
        }
        if self.generation == u32::MAX {
            self.tags.iter_mut().for_each(|t| *t = 0);
            self.generation = 0;
        }
        self.generation += 1;
        self.len = 0;
    }

    #[inline]
    fn slot(&self, key: u32) -> (usize, bool) {
        let mask = self.keys.len() - 1;
        let mut i = slot_hash(u64::from(key)) & mask;
        while self.tags[i] == self.generation {
            if self.keys[i] == key {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
        (i, false)
    }

    #[inline]
    fn get(&self, key: u32) -> Option<u32> {
        match self.slot(key) {
            (i, true) => Some(self.vals[i]),
            _ => None,
        }
    }

    /// Sets `key` to `val`; returns whether the key was new.
    #[inline]
    fn set(&mut self, key: u32, val: u32) -> bool {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let (i, found) = self.slot(key);
        self.keys[i] = key;
        self.vals[i] = val;
        self.tags[i] = self.generation;
        if !found {
            self.len += 1;
        }
        !found
    }

    fn grow(&mut self) {
        let live: Vec<(u32, u32)> = (0..self.keys.len())
            .filter(|&i| self.tags[i] == self.generation)
            .map(|i| (self.keys[i], self.vals[i]))
            .collect();
        let size = self.keys.len() * 2;
        self.keys = vec![0; size];
        self.vals = vec![0; size];
        self.tags = vec![0; size];
        self.len = 0;
        for (k, v) in live {
            self.set(k, v);
        }
    }
}

/// Per-query working memory, kept per thread so repeated queries do not reallocate.
#[derive(Default)]
struct Scratch {
    /// Message chars.
    chars: Vec<u32>,
    /// Raw message bigrams: key → local id; per position its local id; per local id its key,
    /// its index bigram (`NO_BIG` when unknown) and its positions (CSR, known ones only).
    local_map: KeyMap,
    pos_local: Vec<u32>,
    local_key: Vec<u64>,
    local_big: Vec<Big>,
    pos_off: Vec<u32>,
    pos_list: Vec<u32>,
    /// Local ids of known bigrams.
    known: Vec<u32>,
    /// Bigram id → local id, for the known ones.
    id_map: KeyMap,
    /// Bitmap over [`other_hash`] of the known bigrams.
    present: Vec<u64>,
    /// Word bigram (pair of [`word_code`]s) → `ascii_gen << 32 | i + 1` where `ascii_found[i]`
    /// is its index bigram (`i + 1 = 0`: unknown). Entries of older generations are stale.
    ascii_cache: Vec<u64>,
    ascii_found: Vec<Big>,
    ascii_gen: u32,
    /// Distinct words: hash → word index, then per word its known tokens sorted by id (and
    /// the ids alone, for merging), `nW` and the count of unknown tokens.
    word_map: KeyMap,
    word_span: Vec<(u32, u32)>,
    word_off: Vec<u32>,
    word_big: Vec<Big>,
    word_ids: Vec<u32>,
    word_meta: Vec<(u32, u32)>,
    /// Blocks scored for the current word (ASCII terms).
    seen: TagMap,
    /// Candidates to score: block and nT (ASCII: nT | word << 8).
    cand: Vec<(u32, u32)>,
    /// ASCII phase: admissible groups as (word, group, α).
    agroups: Vec<(u32, u32, u32)>,
    /// Window terms by block: `SCORED`, or the phase that queued them (and, if they fell
    /// below its bar, leaves them to a later, lower one).
    done: TagMap,
    /// Window scoring: hits as `pos << 32 | token-run index`, per-run counts.
    hits: Vec<u64>,
    run_need: Vec<u32>,
    run_local: Vec<u32>,
    run_rank: Vec<u32>,
    run_have: Vec<u32>,
    /// Anchor positions and the merged position spans around them.
    anchors: Vec<u32>,
    spans: Vec<(u32, u32)>,
}

const SCORED: u32 = u32::MAX;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The best results so far: at most 12, by score descending then id ascending.
struct Top {
    items: Vec<(f64, u32)>,
    threshold: f64,
}

impl Top {
    #[inline]
    fn full(&self) -> bool {
        self.items.len() >= MAX_CANDIDATES
    }

    /// Lowest score that can still enter (ties by id may still enter, so `≥` stays in).
    #[inline]
    fn bar(&self) -> f64 {
        match self.items.get(MAX_CANDIDATES - 1) {
            Some(&(s, _)) if s > self.threshold => s,
            _ => self.threshold,
        }
    }

    /// Offers a term's score (a term may be offered several times, e.g. once per word);
    /// returns whether the list changed. Zero scores are left to the final fill.
    fn offer(&mut self, id: u32, score: f64) -> bool {
        if !(score > 0.0 && score >= self.threshold) {
            return false;
        }
        let better = |a: (f64, u32), b: (f64, u32)| a.0 > b.0 || (a.0 == b.0 && a.1 < b.1);
        if let Some(i) = self.items.iter().position(|x| x.1 == id) {
            if score <= self.items[i].0 {
                return false;
            }
            self.items[i].0 = score;
        } else if !self.full() {
            self.items.push((score, id));
        } else if better((score, id), self.items[MAX_CANDIDATES - 1]) {
            self.items[MAX_CANDIDATES - 1] = (score, id);
        } else {
            return false;
        }
        // Insertion sort of ≤ 12 items.
        let v = &mut self.items;
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && better(v[j], v[j - 1]) {
                v.swap(j, j - 1);
                j -= 1;
            }
        }
        true
    }
}

impl ArchivedFuzzyIndex {
    /// Candidates for `message`: terms not in `exact_hits` (sorted ids) scoring at least
    /// `threshold`, by score descending then id, at most [`MAX_CANDIDATES`].
    ///
    /// Scores come from the index's own per-term tables; `terms` only decides which ids exist
    /// for the zero-score fill at `threshold ≤ 0` (as the reference skips unreadable terms).
    pub fn candidates<T: TermSource + ?Sized>(
        &self,
        terms: &T,
        message: &str,
        threshold: f64,
        exact_hits: &[u32],
    ) -> Vec<Candidate> {
        if threshold.is_nan() {
            return Vec::new();
        }
        let mut top = SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut s) => {
                let top = self.search(&mut s, message, threshold, exact_hits);
                // Keep a long-lived thread from holding on to a huge prompt's working memory.
                if message.len() > 1 << 20 {
                    *s = Scratch::default();
                }
                top
            }
            Err(_) => self.search(&mut Scratch::default(), message, threshold, exact_hits),
        });
        if threshold <= 0.0 && !top.full() {
            // Every term qualifies; the zero scores come after the positive ones, by id.
            let n = self.term_kind.len().min(terms.len());
            for id in 0..n as u32 {
                if top.full() {
                    break;
                }
                if exact_hits.binary_search(&id).is_err()
                    && terms.term(id).is_some()
                    && !top.items.iter().any(|x| x.1 == id)
                {
                    top.items.push((0.0, id));
                }
            }
        }
        top.items.into_iter().map(|(score, id)| Candidate { id, score }).collect()
    }

    /// Slot number where the probe for `key` starts.
    #[inline]
    fn home_slot(&self, key: u64) -> usize {
        slot_hash(key) & (self.slots.len() / 4).wrapping_sub(1)
    }

    /// The index bigram of a key, if the glossary has it.
    #[inline]
    fn lookup(&self, key: u64) -> Option<Big> {
        let slots = self.slots.as_slice();
        let nslots = slots.len() / 4;
        if !nslots.is_power_of_two() {
            return None;
        }
        let mask = nslots - 1;
        let (lo, hi) = (key as u32, (key >> 32) as u32);
        let mut i = slot_hash(key) & mask;
        for _ in 0..nslots {
            let s = slots.get(i * 4..i * 4 + 4)?;
            let id1 = s[2].to_native();
            if id1 == 0 {
                return None;
            }
            let w1 = s[1].to_native();
            if s[0].to_native() == lo && w1 & 0xFFFF == hi {
                let g0 = s[3].to_native();
                let g1 = g0.saturating_add(w1 >> 16 & 0xFF);
                return Some(Big { id: id1 - 1, g0, g1, max_len: w1 >> 24 });
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Group `g`, if the directory is sound there.
    #[inline]
    fn group(&self, g: usize) -> Option<Group> {
        let gs = self.groups.as_slice();
        let e0 = at(gs, 2 * g)?;
        let meta = at(gs, 2 * g + 1)?;
        let e1 = at(gs, 2 * g + 2)?.min(self.post_block.len()).min(self.post_meta.len());
        (e0 <= e1).then_some(Group { a: meta & 0xFF, b: (meta >> 8) & 0xFF, e0, e1 })
    }

    /// The `n_t` sorted tokens of the block at `block`, and the term id it holds.
    #[inline]
    fn block(&self, block: usize, n_t: usize) -> Option<(u32, &[U32])> {
        let b = self.blocks.get(block..block.saturating_add(1 + n_t))?;
        Some((b[0].to_native(), &b[1..]))
    }

    /// A term's block offset and its token count, through the per-term table.
    #[inline]
    fn term_block(&self, id: u32) -> Option<(usize, usize)> {
        let tb = self.term_block.as_slice();
        let (a, z) = (at(tb, id as usize)?, at(tb, id as usize + 1)?);
        (a < z).then(|| (a, z - a - 1))
    }

    fn search(&self, s: &mut Scratch, message: &str, threshold: f64, hits: &[u32]) -> Top {
        let mut q = Query {
            ix: self,
            top: Top { items: Vec::with_capacity(MAX_CANDIDATES + 1), threshold },
            hits,
            m_len: 0,
            phase: 0,
        };
        s.chars.clear();
        s.chars.extend(message.chars().map(u32::from));
        q.m_len = s.chars.len();
        q.prepare_message(s);
        q.prepare_words(s, message.as_bytes());
        s.done.clear();

        // One-char window terms score 1 against a message equal to them, else 0.
        if q.m_len == 1 {
            let c = s.chars[0];
            let singles = self.singles.as_slice();
            let pairs = singles.len() / 2;
            let first = partition(pairs, |i| singles[2 * i].to_native() < c);
            for i in first..pairs {
                if singles[2 * i].to_native() != c {
                    break;
                }
                let id = singles[2 * i + 1].to_native();
                if !q.is_hit(id) {
                    q.top.offer(id, 1.0);
                }
            }
        }
        // Unposted long terms: scored exactly, every time.
        for &id in self.specials.as_slice() {
            let id = id.to_native();
            let Some((block, n_t)) = self.term_block(id) else { continue };
            let Some((_, toks)) = self.block(block, n_t) else { continue };
            if q.is_hit(id) {
                continue;
            }
            let score = match self.term_kind.get(id as usize) {
                Some(&KIND_ASCII) => q.ascii_score_all_words(s, toks),
                Some(&KIND_WINDOW) => q.window_score(s, toks, 0, f64::NEG_INFINITY),
                _ => 0.0,
            };
            q.top.offer(id, score);
        }

        for tau in PHASES.into_iter().filter(|&p| p > threshold).chain(std::iter::once(threshold)) {
            q.phase += 1;
            q.ascii_phase(s, tau);
            q.window_phase(s, tau);
            // Everything scoring ≥ tau has been offered: if 12 results reach it, they are final.
            if q.top.full() && q.top.items[MAX_CANDIDATES - 1].0 >= tau {
                break;
            }
        }
        q.top
    }
}

/// Reads the first word of each candidate's block. The reads are independent, so their cache
/// misses overlap; the scoring that follows then finds the blocks in cache.
fn touch_blocks(ix: &ArchivedFuzzyIndex, cand: &[(u32, u32)]) {
    let blocks = ix.blocks.as_slice();
    let mut sink = 0u32;
    for &(block, _) in cand {
        if let Some(b) = blocks.get(block as usize) {
            sink ^= b.to_native();
        }
    }
    std::hint::black_box(sink);
}

/// Reads the first directory word of each group, for the same reason as [`touch_blocks`].
fn touch_groups(ix: &ArchivedFuzzyIndex, first: impl Iterator<Item = u32>) {
    let groups = ix.groups.as_slice();
    let mut sink = 0u32;
    for g in first {
        if let Some(w) = groups.get(2 * g as usize) {
            sink ^= w.to_native();
        }
    }
    std::hint::black_box(sink);
}

/// First index in `0..n` where `below` turns false (`below` must be monotone).
fn partition(n: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if below(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

struct Query<'a> {
    ix: &'a ArchivedFuzzyIndex,
    top: Top,
    hits: &'a [u32],
    /// Message length in chars.
    m_len: usize,
    /// Number of the current phase (1-based).
    phase: u32,
}

impl Query<'_> {
    #[inline]
    fn is_hit(&self, id: u32) -> bool {
        self.hits.binary_search(&id).is_ok()
    }

    /// Distinct raw bigrams of the message, their index bigrams and positions.
    fn prepare_message(&self, s: &mut Scratch) {
        let nb = self.m_len.saturating_sub(1);
        s.local_map.reset(nb.min(1 << 14));
        s.pos_local.clear();
        s.local_key.clear();
        for p in 0..nb {
            let key = raw_key(s.chars[p], s.chars[p + 1]);
            let next = s.local_key.len() as u32;
            let (l, new) = s.local_map.get_or_insert(key, next);
            if new {
                s.local_key.push(key);
            }
            s.pos_local.push(l);
        }
        // Each lookup is a likely cache miss in a large index; touching every home slot
        // first lets the loads overlap instead of running one after another.
        let slots = self.ix.slots.as_slice();
        let mut touch = 0u32;
        for &key in &s.local_key {
            if let Some(w) = slots.get(self.ix.home_slot(key) * 4) {
                touch ^= w.to_native();
            }
        }
        std::hint::black_box(touch);
        s.local_big.clear();
        s.local_big.extend(s.local_key.iter().map(|&key| self.ix.lookup(key).unwrap_or(NO_BIG)));
        s.known.clear();
        s.known.extend(
            (0..s.local_big.len() as u32).filter(|&l| s.local_big[l as usize].id != u32::MAX),
        );
        s.id_map.reset(s.known.len());
        s.present.clear();
        s.present.resize(1 << 10, 0);
        for &l in &s.known {
            let id = s.local_big[l as usize].id;
            s.id_map.get_or_insert(u64::from(id), l);
            let h = other_hash(id) as usize;
            s.present[h >> 6] |= 1 << (h & 63);
        }
        // Positions of known bigrams, grouped by local id.
        let nl = s.local_big.len();
        s.pos_off.clear();
        s.pos_off.resize(nl + 1, 0);
        for &l in &s.pos_local {
            if s.local_big[l as usize].id != u32::MAX {
                s.pos_off[l as usize + 1] += 1;
            }
        }
        for l in 0..nl {
            s.pos_off[l + 1] += s.pos_off[l];
        }
        s.pos_list.clear();
        s.pos_list.resize(s.pos_off[nl] as usize, 0);
        // `run_have` serves as the fill cursor here; positions come out ascending per list.
        s.run_have.clear();
        s.run_have.extend_from_slice(&s.pos_off[..nl]);
        for (p, &l) in s.pos_local.iter().enumerate() {
            if s.local_big[l as usize].id != u32::MAX {
                let c = &mut s.run_have[l as usize];
                s.pos_list[*c as usize] = p as u32;
                *c += 1;
            }
        }
    }

    /// Distinct lowercased words of the message and their known tokens.
    fn prepare_words(&self, s: &mut Scratch, bytes: &[u8]) {
        s.word_span.clear();
        s.word_off.clear();
        s.word_off.push(0);
        s.word_big.clear();
        s.word_ids.clear();
        s.word_meta.clear();
        s.word_map.reset((bytes.len() / 6).min(1 << 14));
        if s.ascii_cache.len() < WORD_CODES * WORD_CODES {
            s.ascii_cache = vec![0; WORD_CODES * WORD_CODES];
        }
        if s.ascii_gen == u32::MAX {
            s.ascii_cache.iter_mut().for_each(|t| *t = 0);
            s.ascii_gen = 0;
        }
        s.ascii_gen += 1;
        s.ascii_found.clear();
        let generation = u64::from(s.ascii_gen) << 32;
        let mut i = 0;
        while i < bytes.len() {
            if !is_word_byte(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_word_byte(bytes[i]) {
                i += 1;
            }
            let w = &bytes[start..i];
            if w.len() < 3 {
                continue;
            }
            // Dedupe by a hash of the lowercased word; on a (rare) hash collision between
            // different words the word is simply processed twice, which is harmless.
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for &b in w {
                h = (h ^ u64::from(b.to_ascii_lowercase())).wrapping_mul(0x0000_0100_0000_01b3);
            }
            h = (h ^ (h >> 29)).min(KeyMap::EMPTY - 1);
            let idx = s.word_span.len() as u32;
            let (found, new) = s.word_map.get_or_insert(h, idx);
            if !new {
                let (a, b) = s.word_span[found as usize];
                if bytes[a as usize..b as usize].eq_ignore_ascii_case(w) {
                    continue;
                }
            }
            s.word_span.push((start as u32, i as u32));
            let first = s.word_big.len();
            let mut unknown = 0u32;
            for p in w.windows(2) {
                let c = word_code(p[0]) * WORD_CODES + word_code(p[1]);
                let mut entry = s.ascii_cache[c];
                if entry & !0xFFFF_FFFF != generation {
                    entry = match self.ix.lookup(ascii_key(p[0], p[1])) {
                        Some(big) => {
                            s.ascii_found.push(big);
                            generation | s.ascii_found.len() as u64
                        }
                        None => generation,
                    };
                    s.ascii_cache[c] = entry;
                }
                match (entry & 0xFFFF_FFFF) as usize {
                    0 => unknown += 1,
                    i => s.word_big.push(s.ascii_found[i - 1]),
                }
            }
            if s.word_big.len() - first < 2 {
                // Fewer than 2 known bigrams: no term can share 2 with it.
                s.word_big.truncate(first);
                s.word_meta.push((0, 0));
            } else {
                s.word_big[first..].sort_unstable_by_key(|b| b.id);
                s.word_ids.extend(s.word_big[first..].iter().map(|b| b.id));
                s.word_meta.push(((w.len() - 1) as u32, unknown));
            }
            s.word_off.push(s.word_big.len() as u32);
        }
    }

    /// One phase over the ASCII terms: every term scoring ≥ `tau` against some word is offered.
    ///
    /// Words go in small batches, each in stages (admissible groups, candidate entries,
    /// scoring) that first touch the memory the next stage reads, so that the cache misses of
    /// a large index overlap instead of queueing one behind the other. The bar is refreshed
    /// between batches: the higher it is, the shorter the prefixes.
    fn ascii_phase(&mut self, s: &mut Scratch, tau_phase: f64) {
        const BATCH: usize = 4;
        let mut first = 0;
        while first < s.word_meta.len() {
            let end = (first + BATCH).min(s.word_meta.len());
            if !self.ascii_batch(s, tau_phase, first..end) {
                return;
            }
            first = end;
        }
    }

    /// [`Self::ascii_phase`] over the words `words`; false when nothing can reach the bar.
    fn ascii_batch(&mut self, s: &mut Scratch, tau_phase: f64, words: Range<usize>) -> bool {
        let ix = self.ix;
        let metas = ix.post_meta.as_slice();
        let blocks = ix.post_block.as_slice();
        let Some(k) = bar_factor(tau_phase.max(self.top.bar())) else { return false };

        // Admissible groups: (word, group, α).
        let (b0, b1) = (s.word_off[words.start] as usize, s.word_off[words.end] as usize);
        touch_groups(ix, s.word_big[b0..b1].iter().map(|b| b.g0));
        s.agroups.clear();
        for w in words {
            let (n_w, unknown) = s.word_meta[w];
            let (n_w, unknown) = (n_w as usize, unknown as usize);
            if n_w < 2 {
                continue;
            }
            let (w0, w1) = (s.word_off[w] as usize, s.word_off[w + 1] as usize);
            let mut i = w0;
            while i < w1 {
                let big = s.word_big[i];
                // Rank of the bigram's first occurrence in the word (unknown tokens first).
                let q_rank = unknown + (i - w0);
                i += 1;
                while i < w1 && s.word_big[i].id == big.id {
                    i += 1;
                }
                // Even the shortest partner (nT = 2) needs this many common tokens, and the
                // first of them must leave that many in the word: later tokens cannot start.
                let avail = n_w - q_rank;
                if min_overlap(k, 2 + n_w, 2, avail).is_none() {
                    break;
                }
                for g in big.g0 as usize..big.g1 as usize {
                    let Some(grp) = ix.group(g) else { break };
                    let n_t = grp.a;
                    let Some(alpha) = min_overlap(k, n_t + n_w, 2, n_t.min(n_w).min(avail)) else {
                        // α grows with nT: past nW (or the word's remaining tokens) it only
                        // gets worse; below, longer groups may still fit.
                        if n_t >= n_w || ceil_usize(k * (n_t + n_w) as f64 - SLACK) > avail {
                            break;
                        }
                        continue;
                    };
                    if grp.b <= n_t - alpha {
                        s.agroups.push((w as u32, g as u32, alpha as u32));
                    }
                }
            }
        }

        // Candidate entries: rank within the group's prefix and signature bound ≥ α.
        s.cand.clear();
        let mut current = u32::MAX;
        // Per weight level k, the signature bits on which ≥ k of the word's tokens fall: a
        // term's overlap with the word is at most Σ_k |term bits ∩ level k|.
        let mut levels = [0u32; 24];
        let mut n_levels = 0;
        // False when some bit has more than 24 tokens: then no bound is taken.
        let mut bounded = true;
        for ai in 0..s.agroups.len() {
            let (w, g, alpha) = s.agroups[ai];
            let alpha = alpha as usize;
            if w != current {
                current = w;
                s.seen.clear();
                let (w0, w1) =
                    (s.word_off[w as usize] as usize, s.word_off[w as usize + 1] as usize);
                levels = [0u32; 24];
                n_levels = 0;
                bounded = true;
                for b in &s.word_ids[w0..w1] {
                    // Raise the bit's weight by one: set it in the first level lacking it.
                    let bit = 1u32 << sig_bit(*b);
                    match levels.iter_mut().find(|l| **l & bit == 0) {
                        Some(level) => *level |= bit,
                        None => bounded = false,
                    }
                }
                while n_levels < levels.len() && levels[n_levels] != 0 {
                    n_levels += 1;
                }
            }
            let Some(grp) = ix.group(g as usize) else { continue };
            let limit = grp.a - alpha;
            for e in grp.e0..grp.e1 {
                let meta = metas[e].to_native();
                if (meta & 0xFF) as usize > limit {
                    break;
                }
                let sig = meta >> 8;
                let bound: u32 = levels[..n_levels].iter().map(|l| (l & sig).count_ones()).sum();
                if bounded && (bound as usize) < alpha {
                    continue;
                }
                let block = blocks[e].to_native();
                if s.seen.set(block, 0) {
                    s.cand.push((block, grp.a as u32 | w << 8));
                }
            }
        }

        // Scoring: the overlap is a merge of the term's and the word's sorted tokens.
        touch_blocks(ix, &s.cand);
        for c in 0..s.cand.len() {
            let (block, meta) = s.cand[c];
            let (n_t, w) = ((meta & 0xFF) as usize, (meta >> 8) as usize);
            let Some((t, toks)) = ix.block(block as usize, n_t) else { continue };
            if self.is_hit(t) {
                continue;
            }
            let n_w = s.word_meta[w].0 as usize;
            let m = overlap(toks, &s.word_ids[s.word_off[w] as usize..s.word_off[w + 1] as usize]);
            if m >= 2 {
                self.top.offer(t, ratio(m, n_t + n_w - m));
            }
        }
        true
    }

    /// Exact score of an (unposted) ASCII term: best over all words.
    fn ascii_score_all_words(&self, s: &Scratch, toks: &[U32]) -> f64 {
        let mut best = 0.0;
        for w in 0..s.word_meta.len() {
            let n_w = s.word_meta[w].0 as usize;
            if n_w < 2 {
                continue;
            }
            let m = overlap(toks, &s.word_ids[s.word_off[w] as usize..s.word_off[w + 1] as usize]);
            if m >= 2 {
                let score = ratio(m, toks.len() + n_w - m);
                if score > best {
                    best = score;
                }
            }
        }
        best
    }

    /// One phase over the window terms: every term scoring ≥ `tau` is offered.
    fn window_phase(&mut self, s: &mut Scratch, tau_phase: f64) {
        let ix = self.ix;
        let metas = ix.post_meta.as_slice();
        let blocks = ix.post_block.as_slice();
        let Some(k) = bar_factor(tau_phase.max(self.top.bar())) else { return };
        // Highest admissible rank per nT (−1: none), filled on first use.
        let mut limits = [i16::MIN; 256];
        let mut limit = |n_t: usize| -> isize {
            let slot = &mut limits[n_t & 0xFF];
            if *slot == i16::MIN {
                *slot = self.window_alpha(k, n_t).map_or(-1, |a| (n_t - a) as i16);
            }
            *slot as isize
        };
        // In the windows regime (nT + 3 < M) the limit never falls as nT grows; the entries of a
        // rank group come by nT descending, so the first one out of it ends the group.
        let windows = |n_t: usize| n_t + 3 < self.m_len;
        touch_groups(ix, s.known.iter().map(|&l| s.local_big[l as usize].g0));
        s.cand.clear();
        for ki in 0..s.known.len() {
            let big = s.local_big[s.known[ki] as usize];
            let list_max = big.max_len as usize;
            for g in big.g0 as usize..big.g1 as usize {
                let Some(grp) = ix.group(g) else { break };
                let (rank, max_n_t) = (grp.a as isize, grp.b);
                // Groups come by rank: once the longest term of the list cannot admit it,
                // no later group can.
                if windows(list_max) && rank > limit(list_max) {
                    break;
                }
                if windows(max_n_t) && rank > limit(max_n_t) {
                    continue;
                }
                for e in grp.e0..grp.e1 {
                    let meta = metas[e].to_native();
                    let n_t = (meta >> 8 & 0xFF) as usize;
                    let lim = limit(n_t);
                    if rank > lim {
                        if windows(n_t) {
                            break;
                        }
                        continue;
                    }
                    // When every bigram is needed (α = nT: no slack in the rank), a missing
                    // "other" bigram rules the term out without reading its block.
                    let h = (meta >> 16) as usize;
                    if lim == 0 && s.present[h >> 6] >> (h & 63) & 1 == 0 {
                        continue;
                    }
                    let block = blocks[e].to_native();
                    match s.done.get(block) {
                        // Scored, queued, or pruned at this phase's bar already.
                        Some(v) if v == SCORED || v == self.phase => continue,
                        _ => {}
                    }
                    s.done.set(block, self.phase);
                    s.cand.push((block, n_t as u32));
                }
            }
        }
        touch_blocks(ix, &s.cand);
        for c in 0..s.cand.len() {
            let (block, n_t) = s.cand[c];
            let n_t = n_t as usize;
            let Some((t, toks)) = ix.block(block as usize, n_t) else { continue };
            if self.is_hit(t) {
                s.done.set(block, SCORED);
                continue;
            }
            // The bar may have risen since the candidate was queued: use the current one.
            let tau = tau_phase.max(self.top.bar());
            let Some(need) = bar_factor(tau).and_then(|k| self.window_alpha(k, n_t)) else {
                continue;
            };
            let score = self.window_score(s, toks, need, tau);
            if score < 0.0 {
                // Below this bar (left marked with this phase): a lower bar may admit it.
                continue;
            }
            s.done.set(block, SCORED);
            self.top.offer(t, score);
        }
    }

    /// Least overlap a window term of `n_t` tokens needs at bar factor `k`, if any.
    #[inline]
    fn window_alpha(&self, k: f64, n_t: usize) -> Option<usize> {
        if n_t == 0 {
            return None;
        }
        if self.m_len > n_t + 3 {
            // Windows have nW ≥ nT bigrams: score ≤ m / (2nT − m).
            min_overlap(k, 2 * n_t, 1, n_t)
        } else {
            // Whole message: score = m / (nT + nM − m) exactly.
            let n_m = self.m_len.saturating_sub(1);
            min_overlap(k, n_t + n_m, 1, n_t.min(n_m))
        }
    }

    /// Score of a window term with sorted tokens `toks`: exact, or −1 when the term cannot
    /// reach `tau` (`need` is the least overlap derived from `tau`; 0 asks for an exact score
    /// whatever it is).
    fn window_score(&self, s: &mut Scratch, toks: &[U32], need: usize, tau: f64) -> f64 {
        let n_t = toks.len();
        if n_t == 0 || self.m_len < 2 {
            return 0.0;
        }
        // Runs of equal tokens present in the message: count in the term, local bigram id,
        // rank of the run's first token. Their overlap with the whole message bounds every
        // window's.
        s.run_need.clear();
        s.run_local.clear();
        s.run_rank.clear();
        let mut ub = 0usize;
        let mut i = 0;
        while i < n_t {
            let b = toks[i].to_native();
            let mut j = i + 1;
            while j < n_t && toks[j].to_native() == b {
                j += 1;
            }
            let (c_t, rank) = (j - i, i);
            i = j;
            let Some(l) = s.id_map.get(u64::from(b)) else {
                // Even if every later token were present, the bound would stay short.
                if ub + (n_t - i) < need {
                    return -1.0;
                }
                continue;
            };
            let count = s.pos_off[l as usize + 1] - s.pos_off[l as usize];
            ub += c_t.min(count as usize);
            if ub + (n_t - i) < need {
                return -1.0;
            }
            s.run_need.push(c_t as u32);
            s.run_local.push(l);
            s.run_rank.push(rank as u32);
        }
        if ub < need {
            return -1.0;
        }
        let l_chars = n_t + 1;
        if self.m_len <= l_chars + 2 {
            let n_m = self.m_len - 1;
            return ratio(ub, n_t + n_m - ub);
        }
        if ub == 0 {
            return 0.0;
        }
        // A window with at least `need` common bigrams holds the first of them, whose rank in
        // the term is ≤ nT − need (the prefix argument again). Only windows around positions
        // of those "anchor" bigrams can reach the bar, so in a long message only hits near
        // anchors are gathered: other windows lose hits, which only lowers their overlap.
        let anchor_rank = n_t.saturating_sub(need.max(1));
        let restricted = s.run_rank.iter().any(|&r| r as usize > anchor_rank);
        s.hits.clear();
        if restricted {
            s.anchors.clear();
            for (r, &l) in s.run_local.iter().enumerate() {
                if s.run_rank[r] as usize <= anchor_rank {
                    let (p0, p1) =
                        (s.pos_off[l as usize] as usize, s.pos_off[l as usize + 1] as usize);
                    s.anchors.extend_from_slice(&s.pos_list[p0..p1]);
                }
            }
            s.anchors.sort_unstable();
            // Merge [a − D, a + D] around anchors: a window of ≤ nT + 3 chars holding bigram
            // position a covers positions within a ± (nT + 1).
            let reach = n_t as u32 + 1;
            s.spans.clear();
            for &a in &s.anchors {
                let (lo, hi) = (a.saturating_sub(reach), a.saturating_add(reach));
                match s.spans.last_mut() {
                    Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                    _ => s.spans.push((lo, hi)),
                }
            }
            for (run, &l) in s.run_local.iter().enumerate() {
                let (p0, p1) = (s.pos_off[l as usize] as usize, s.pos_off[l as usize + 1] as usize);
                let pos = &s.pos_list[p0..p1];
                let mut from = 0;
                for &(lo, hi) in &s.spans {
                    from += pos[from..].partition_point(|&p| p < lo);
                    while from < pos.len() && pos[from] <= hi {
                        s.hits.push((u64::from(pos[from]) << 32) | run as u64);
                        from += 1;
                    }
                }
            }
        } else {
            for (run, &l) in s.run_local.iter().enumerate() {
                let (p0, p1) = (s.pos_off[l as usize] as usize, s.pos_off[l as usize + 1] as usize);
                s.hits
                    .extend(s.pos_list[p0..p1].iter().map(|&p| (u64::from(p) << 32) | run as u64));
            }
        }
        s.hits.sort_unstable();
        s.run_have.clear();
        s.run_have.resize(s.run_need.len(), 0);
        let mut best = 0.0f64;
        for w in l_chars..=l_chars + 2 {
            let m = best_window(&s.hits, &s.run_need, &mut s.run_have, self.m_len, w);
            let score = ratio(m, n_t + (w - 1) - m);
            if score > best {
                best = score;
            }
        }
        if restricted && best.partial_cmp(&tau) == Some(std::cmp::Ordering::Less) {
            // Exact only for windows around anchors, i.e. whenever it reaches the bar.
            return -1.0;
        }
        best
    }
}

/// Largest multiset overlap between the term (runs with counts `need`) and any window of `w`
/// chars of a message of `m_len > w` chars, given the term's bigram hits sorted by position.
///
/// A window covers bigram positions `s ..= s + w − 2`. Sliding a window right until its left
/// edge meets its first hit loses nothing, so only starts `min(hit, m_len − w)` are tried,
/// with a two-pointer sweep keeping the window's counts.
fn best_window(hits: &[u64], need: &[u32], have: &mut [u32], m_len: usize, w: usize) -> usize {
    have.iter_mut().for_each(|h| *h = 0);
    let last_start = m_len - w;
    let (mut right, mut left, mut m, mut best) = (0, 0, 0usize, 0usize);
    let mut prev = usize::MAX;
    for &h in hits {
        let start = ((h >> 32) as usize).min(last_start);
        if start == prev {
            continue;
        }
        prev = start;
        let end = start + w - 2;
        while right < hits.len() && (hits[right] >> 32) as usize <= end {
            let r = (hits[right] & 0xFFFF_FFFF) as usize;
            if have[r] < need[r] {
                m += 1;
            }
            have[r] += 1;
            right += 1;
        }
        while left < right && ((hits[left] >> 32) as usize) < start {
            let r = (hits[left] & 0xFFFF_FFFF) as usize;
            have[r] -= 1;
            if have[r] < need[r] {
                m -= 1;
            }
            left += 1;
        }
        best = best.max(m);
        if start == last_start {
            break;
        }
    }
    best
}

/// The definition, written as literally as possible and without any index: the oracle the
/// index is tested against. Slow (every term, every word, every window).
pub mod reference {
    use super::{Candidate, TermSource, MAX_CANDIDATES};
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
        let mut best = 0.0;
        if term.chars().all(is_ascii_term_char) {
            let t: Vec<char> = term.to_ascii_lowercase().chars().collect();
            let msg: Vec<char> = message.chars().collect();
            for word in msg.split(|&c| !is_ascii_term_char(c)).filter(|w| !w.is_empty()) {
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
        let mut out = Vec::new();
        for id in 0..terms.len() as u32 {
            if exact_hits.contains(&id) {
                continue;
            }
            let Some(term) = terms.term(id) else { continue };
            let s = score(term, message);
            if s >= threshold {
                out.push(Candidate { id, score: s });
            }
        }
        out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
        out.truncate(MAX_CANDIDATES);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn archive(terms: &[(String, String)]) -> rkyv::util::AlignedVec {
        rkyv::to_bytes::<rkyv::rancor::Error>(&FuzzyIndex::build(terms)).unwrap()
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
    /// threshold, with `terms` as a glossary (empty explanations) and `hits` its exact hits.
    fn check_against_reference(
        terms: &[String],
        msg: &str,
        thresholds: &[f64],
        hits: impl Fn(u32) -> bool,
    ) -> Result<(), TestCaseError> {
        let g: Vec<(String, String)> = terms.iter().map(|t| (t.clone(), String::new())).collect();
        let bytes = archive(&g);
        let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
        let hits: Vec<u32> = (0..g.len() as u32).filter(|&i| hits(i)).collect();
        let bits =
            |v: &[Candidate]| v.iter().map(|c| (c.id, c.score.to_bits())).collect::<Vec<_>>();
        for &threshold in thresholds {
            let got = ix.candidates(g.as_slice(), msg, threshold, &hits);
            let want = reference::candidates(g.as_slice(), msg, threshold, &hits);
            prop_assert_eq!(bits(&got), bits(&want), "threshold {}", threshold);
        }
        Ok(())
    }

    /// Index candidates, checked against the reference (ids, order, scores bit for bit).
    fn both(terms: &[&str], message: &str, threshold: f64, hits: &[u32]) -> Vec<Candidate> {
        let g = glossary(terms);
        let bytes = archive(&g);
        let ix = rkyv::access::<ArchivedFuzzyIndex, rkyv::rancor::Error>(&bytes).unwrap();
        let got = ix.candidates(g.as_slice(), message, threshold, hits);
        let want = reference::candidates(g.as_slice(), message, threshold, hits);
        let bits =
            |v: &[Candidate]| v.iter().map(|c| (c.id, c.score.to_bits())).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want), "message {message:?} threshold {threshold}");
        got
    }

    fn ids(v: &[Candidate]) -> Vec<u32> {
        v.iter().map(|c| c.id).collect()
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
            for msg in ["BGRemovr 数据清理", "图", "", "abcabc 数据数据数据数据数据"]
            {
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
        prop::collection::vec(prop::sample::select(CJK), 1..=max)
            .prop_map(|v| v.into_iter().collect())
    }

    fn ascii_str(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(ASC), 0..=max)
            .prop_map(|v| v.into_iter().collect())
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
}
