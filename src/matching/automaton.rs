//! Exact matching: an Aho-Corasick automaton stored as flat integer tables.
//!
//! The hook is a fresh process per prompt and reads the automaton straight out of the mapped
//! index file, so the automaton is nothing but a few `Vec<u32>` / `Vec<u8>` tables that are
//! searched in place: no pointers, no nested vectors, nothing to rebuild, and rkyv's validation
//! of the archive is a handful of length checks whatever the glossary size.
//!
//! # Layout
//!
//! States live in *slots* of a double array. Slot 0 is the root. Slots come in blocks of 256.
//!
//! * `base[s]`: bit 31 is the *output flag* (the state ends a term, or one of its suffixes
//!   does); bits 0..31 are the XOR base of the state's children: the child of `s` on byte `c`
//!   lives in slot `(base[s] & 0x7fff_ffff) ^ c`, always in the same 256-slot block as the base.
//!   A state without children has the base [`NO_BASE`], which points past the end of the tables.
//! * `check[t]`: the byte on the edge into slot `t`. The builder gives every base to at most one
//!   state, so a label match is enough to prove that slot `t` really is the child of `s` (if the
//!   slot belonged to another parent `p` with the same label, `p` would have the same base).
//!   Slots that are nobody's child (free slots and the root) get a label `l` such that the base
//!   `t ^ l` is not used, so no state can reach them. This is the darts-clone trick and keeps the
//!   check table at one byte per slot.
//! * `fail[s]`: the failure link, the slot of the longest proper suffix of `s` that is a state.
//! * `out_rank`: a rank directory over the output flags, one triple `[flags set before this
//!   group, flag bits 0..32, flag bits 32..64]` per 64 slots, so that an output state's *rank*
//!   (how many output states precede it) costs one lookup and one popcount. Only output states,
//!   a small part of all states, pay for their output data.
//! * `out_id[r]`, `out_next[r]`, per output state in rank order: the term the state ends (or
//!   [`NONE`] when only a suffix of it is a term) and the rank of the next state down its failure
//!   chain that ends a term (the dictionary suffix link), or [`NONE`].
//! * `dup_of` / `dup_id`: identical terms share one state, which reports the lowest id; the
//!   others are listed here (sorted by the reported id) and added to the result next to it.
//!
//! States are placed breadth-first, so the shallow states that nearly every prompt byte visits
//! sit together at the front of the tables.
//!
//! # Searching
//!
//! One transition is one XOR and two loads that do not depend on each other (`check[t]`,
//! `base[t]`); the output flag rides in the base that is loaded anyway, so states with nothing
//! to report cost nothing more. When a state ends something, its output chain is walked with a
//! "seen" bitset over output ranks, allocated on the first hit: a state already seen had its
//! whole chain reported, so the walk stops there and every term is reported once.
//!
//! # Damaged tables
//!
//! Every access is a checked `.get()`. Loops are bounded without trusting any stored number:
//! in a valid automaton the failure links taken over a whole haystack are at most its length
//! (each one lowers the depth, each byte raises it by at most one), so the search keeps that
//! budget and falls back to the root when it is spent; an output walk marks a fresh bit of the
//! seen set at every step, so it ends after at most as many steps as there are output states.

use rkyv::rend::u32_le;

/// Bit of `base` that marks an output state.
const FLAG_OUT: u32 = 1 << 31;
/// Bits of `base` that hold the XOR base.
const BASE_MASK: u32 = !FLAG_OUT;
/// The base of a state without children. XOR with any byte gives a slot at or past it, and the
/// builder never makes tables that long, so no transition leaves such a state.
const NO_BASE: u32 = 0x7fff_ff00;
/// "No term" / "no link" in `out_id` and `out_next`.
const NONE: u32 = u32::MAX;
/// Slots per block: one per possible byte, so a base's 256 children stay within its block.
const BLOCK: usize = 256;
/// Blocks whose free slots are still offered to new states. Older blocks are closed: their
/// leftover slots stay empty. A small window keeps the search for a base short (darts-clone
/// uses the same figure) at the cost of a few percent of empty slots.
const OPEN_BLOCKS: usize = 16;
const RING: usize = OPEN_BLOCKS * BLOCK;

/// The exact-match automaton in its serialisable form. See the module documentation for the
/// meaning of each table.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Default, Clone)]
pub struct Automaton {
    base: Vec<u32>,
    check: Vec<u8>,
    fail: Vec<u32>,
    out_rank: Vec<u32>,
    out_id: Vec<u32>,
    out_next: Vec<u32>,
    dup_of: Vec<u32>,
    dup_id: Vec<u32>,
    num_terms: u32,
}

impl Automaton {
    /// Builds the automaton over `terms`; the id of a term is its position in the slice.
    /// Empty terms are never reported. Duplicate terms are each reported.
    ///
    /// # Panics
    ///
    /// If the terms need more than about two billion states (far beyond any glossary; the
    /// memory would run out first), or if there are more than `u32::MAX` terms.
    pub fn build(terms: &[&[u8]]) -> Automaton {
        let num_terms = u32::try_from(terms.len()).expect("more than u32::MAX terms");
        let keys = sorted_keys(terms);
        if keys.is_empty() {
            return Automaton { num_terms, ..Automaton::default() };
        }
        let mut b = Builder::new();
        b.insert_all(&keys);
        b.finish(num_terms)
    }

    /// Number of terms the automaton was built over (ids are below this).
    pub fn num_terms(&self) -> u32 {
        self.num_terms
    }

    /// Number of slots in the double array (states plus the few empty slots).
    pub fn num_slots(&self) -> usize {
        self.base.len()
    }
}

impl ArchivedAutomaton {
    /// Number of terms the automaton was built over (ids are below this, unless damaged).
    pub fn num_terms(&self) -> u32 {
        self.num_terms.to_native()
    }

    /// Every term that occurs in `haystack`, once each, as `(id, end)` where `end` is the byte
    /// offset just past one occurrence; sorted by id. Never panics and always terminates, whatever
    /// the table contents; damaged tables may give wrong pairs, which the caller verifies.
    pub fn find_all(&self, haystack: &[u8]) -> Vec<(u32, usize)> {
        let base: &[u32_le] = &self.base;
        let check: &[u8] = &self.check;
        let fail: &[u32_le] = &self.fail;
        let base_at = |s: usize| base.get(s).map_or(NO_BASE, |b| b.to_native());

        let mut hits = Vec::new();
        // Allocated on the first output state reached: most prompts for most glossaries hit
        // little, and an empty Vec costs nothing.
        let mut seen: Vec<u64> = Vec::new();
        let root_base = base_at(0);
        let mut s = 0usize;
        let mut bs = root_base;
        // Failure links a valid automaton can take over this haystack (see the module docs).
        let mut fail_budget = haystack.len();

        for (i, &c) in haystack.iter().enumerate() {
            loop {
                let t = ((bs & BASE_MASK) ^ u32::from(c)) as usize;
                if check.get(t) == Some(&c) {
                    s = t;
                    bs = base_at(t);
                    break;
                }
                if s == 0 {
                    break;
                }
                if fail_budget == 0 {
                    // Only damaged tables get here: restart from the root, which either has
                    // the transition or ends the loop.
                    s = 0;
                    bs = root_base;
                    continue;
                }
                fail_budget -= 1;
                s = fail.get(s).map_or(0, |f| f.to_native() as usize);
                bs = base_at(s);
            }
            if bs & FLAG_OUT != 0 {
                self.report(s, i + 1, &mut hits, &mut seen);
            }
        }

        // Valid tables give each id once; the dedup only guards damaged ones.
        hits.sort_unstable_by_key(|&(id, _)| id);
        hits.dedup_by_key(|&mut (id, _)| id);
        hits
    }

    /// Reports the output chain of slot `s`, reached with an occurrence ending at `end`.
    /// Kept out of line so that the transition loop stays small.
    #[inline(never)]
    fn report(&self, s: usize, end: usize, hits: &mut Vec<(u32, usize)>, seen: &mut Vec<u64>) {
        let out_id: &[u32_le] = &self.out_id;
        let out_next: &[u32_le] = &self.out_next;
        let Some(mut r) = rank(&self.out_rank, s) else { return };
        if seen.is_empty() {
            seen.resize(out_id.len().div_ceil(64), 0);
        }
        // Each step sets a bit that was clear, so this ends within out_id.len() steps overall,
        // even if damaged links form a cycle.
        loop {
            let Some(word) = seen.get_mut(r / 64) else { return };
            let bit = 1u64 << (r % 64);
            if *word & bit != 0 {
                // Seen before: this state and everything down its chain are reported already.
                return;
            }
            *word |= bit;
            let (Some(id), Some(next)) = (out_id.get(r), out_next.get(r)) else { return };
            let id = id.to_native();
            if id != NONE {
                hits.push((id, end));
                if !self.dup_of.is_empty() {
                    self.report_dups(id, end, hits);
                }
            }
            let next = next.to_native();
            if next == NONE {
                return;
            }
            r = next as usize;
        }
    }

    /// Adds the duplicates of term `id` (same bytes, higher ids) with the same end.
    fn report_dups(&self, id: u32, end: usize, hits: &mut Vec<(u32, usize)>) {
        let dup_of: &[u32_le] = &self.dup_of;
        let dup_id: &[u32_le] = &self.dup_id;
        let start = dup_of.partition_point(|d| d.to_native() < id);
        for (of, dup) in dup_of.iter().zip(dup_id).skip(start) {
            if of.to_native() != id {
                break;
            }
            hits.push((dup.to_native(), end));
        }
    }
}

/// Rank of slot `s` among output states (archived directory): output states before it.
fn rank(dir: &[u32_le], s: usize) -> Option<usize> {
    let g = s / 64;
    // 3 * g <= s / 21, so no overflow.
    let cum = dir.get(3 * g)?.to_native();
    let lo = u64::from(dir.get(3 * g + 1)?.to_native());
    let hi = u64::from(dir.get(3 * g + 2)?.to_native());
    let below = ((hi << 32) | lo) & ((1u64 << (s % 64)) - 1);
    Some(cum.wrapping_add(below.count_ones()) as usize)
}

/// Rank of slot `s` among output states (in-memory directory while building).
fn rank_native(dir: &[u32], s: usize) -> u32 {
    let g = s / 64;
    let word = (u64::from(dir[3 * g + 2]) << 32) | u64::from(dir[3 * g + 1]);
    dir[3 * g] + (word & ((1u64 << (s % 64)) - 1)).count_ones()
}

/// A term to insert: its bytes and id.
type Key<'a> = (&'a [u8], u32);

/// The non-empty terms with their ids, in byte order, equal terms by ascending id.
fn sorted_keys<'a>(terms: &[&'a [u8]]) -> Vec<Key<'a>> {
    // The first eight bytes as a big-endian integer (zero-padded) order the keys the same way as
    // the bytes do, except that they may tie; comparing them first turns most of the sort's
    // comparisons into integer comparisons on a compact array instead of memcmp through pointers.
    let mut keyed: Vec<(u64, u32)> = terms
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.is_empty())
        .map(|(id, t)| {
            let mut head = [0u8; 8];
            let n = t.len().min(8);
            head[..n].copy_from_slice(&t[..n]);
            (u64::from_be_bytes(head), id as u32)
        })
        .collect();
    keyed.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| terms[a.1 as usize].cmp(terms[b.1 as usize])).then(a.1.cmp(&b.1))
    });
    keyed.into_iter().map(|(_, id)| (terms[id as usize], id)).collect()
}

/// What the builder knows about an output state until ranks are known.
struct OutState {
    slot: u32,
    /// Term ending here, or `NONE`.
    id: u32,
    /// Slot of the nearest state on the failure chain that ends a term, or `NONE`.
    dict: u32,
}

struct Builder {
    base: Vec<u32>,
    check: Vec<u8>,
    fail: Vec<u32>,
    /// Per slot: index into `outs` for output states, `NONE` otherwise.
    aux: Vec<u32>,
    /// Slots holding the root or a placed child.
    occupied: Vec<u64>,
    /// Base values given to a state.
    used_base: Vec<u64>,
    /// Circular doubly linked list of the free slots of the open blocks, indexed by
    /// `slot % RING` (the open blocks are consecutive, so they never collide).
    prev: Vec<u32>,
    next: Vec<u32>,
    free_head: u32,
    first_open_block: usize,
    outs: Vec<OutState>,
    dups: Vec<(u32, u32)>,
}

fn bit(set: &[u64], i: usize) -> bool {
    set[i / 64] & (1 << (i % 64)) != 0
}

fn set_bit(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

impl Builder {
    fn new() -> Builder {
        let mut b = Builder {
            base: Vec::new(),
            check: Vec::new(),
            fail: Vec::new(),
            aux: Vec::new(),
            occupied: Vec::new(),
            used_base: Vec::new(),
            prev: vec![0; RING],
            next: vec![0; RING],
            free_head: NONE,
            first_open_block: 0,
            outs: Vec::new(),
            dups: Vec::new(),
        };
        b.add_block();
        // The root takes slot 0; it is nobody's child.
        b.unlink(0);
        set_bit(&mut b.occupied, 0);
        b
    }

    fn add_block(&mut self) {
        let start = self.base.len();
        assert!(start + BLOCK <= NO_BASE as usize, "automaton too large");
        if start / BLOCK - self.first_open_block == OPEN_BLOCKS {
            self.close_block(self.first_open_block);
            self.first_open_block += 1;
        }
        let end = start + BLOCK;
        self.base.resize(end, NO_BASE);
        self.check.resize(end, 0);
        self.fail.resize(end, 0);
        self.aux.resize(end, NONE);
        self.occupied.resize(end / 64, 0);
        self.used_base.resize(end / 64, 0);
        for slot in start..end {
            self.link(slot as u32);
        }
    }

    /// Takes the block's remaining free slots off the free list; they stay empty.
    fn close_block(&mut self, block: usize) {
        for slot in block * BLOCK..(block + 1) * BLOCK {
            if !bit(&self.occupied, slot) {
                self.unlink(slot as u32);
            }
        }
    }

    /// Appends a free slot at the tail of the free list.
    fn link(&mut self, slot: u32) {
        let i = slot as usize % RING;
        if self.free_head == NONE {
            self.free_head = slot;
            self.prev[i] = slot;
            self.next[i] = slot;
        } else {
            let head = self.free_head as usize % RING;
            let tail = self.prev[head];
            self.next[tail as usize % RING] = slot;
            self.prev[i] = tail;
            self.next[i] = self.free_head;
            self.prev[head] = slot;
        }
    }

    fn unlink(&mut self, slot: u32) {
        let i = slot as usize % RING;
        let (p, n) = (self.prev[i], self.next[i]);
        if n == slot {
            self.free_head = NONE;
            return;
        }
        self.next[p as usize % RING] = n;
        self.prev[n as usize % RING] = p;
        if self.free_head == slot {
            self.free_head = n;
        }
    }

    /// A base, not yet used, whose slots for `labels` (distinct, at least one) are all free.
    fn find_base(&self, labels: &[u8]) -> u32 {
        let first = u32::from(labels[0]);
        if self.free_head != NONE {
            let mut f = self.free_head;
            loop {
                // The first label lands on free slot `f`; the others must be free too. All of
                // them are in `f`'s block, which is open, so "not occupied" means "free".
                let b = f ^ first;
                if !bit(&self.used_base, b as usize)
                    && labels[1..]
                        .iter()
                        .all(|&c| !bit(&self.occupied, (b ^ u32::from(c)) as usize))
                {
                    return b;
                }
                f = self.next[f as usize % RING];
                if f == self.free_head {
                    break;
                }
            }
        }
        // A fresh block has every slot free.
        self.base.len() as u32 ^ first
    }

    /// Gives base `b` to the children `labels` and fills their slots.
    fn place(&mut self, b: u32, labels: &[u8]) {
        while b as usize >= self.base.len() {
            self.add_block();
        }
        set_bit(&mut self.used_base, b as usize);
        for &c in labels {
            let t = b ^ u32::from(c);
            self.unlink(t);
            set_bit(&mut self.occupied, t as usize);
            self.check[t as usize] = c;
        }
    }

    /// The child of `s` on byte `c` among the states placed so far.
    fn goto(&self, s: usize, c: u8) -> Option<usize> {
        let b = self.base[s] & BASE_MASK;
        if b == NO_BASE {
            return None;
        }
        let t = (b ^ u32::from(c)) as usize;
        // Free slots and the root do not have their final labels yet, hence the occupancy test.
        (t != 0 && t < self.base.len() && bit(&self.occupied, t) && self.check[t] == c).then_some(t)
    }

    /// Builds the trie breadth-first over the sorted keys, placing each state's children as a
    /// group and computing their failure and output links at once: the failure chain of a state
    /// only holds shallower states, whose children are placed already.
    fn insert_all(&mut self, keys: &[Key<'_>]) {
        // (slot, first key, end key) of the states of one depth that have children; the keys of
        // a state are those that extend it (the ones ending there are handled at its creation).
        let mut level: Vec<(u32, u32, u32)> = vec![(0, 0, keys.len() as u32)];
        let mut next_level = Vec::new();
        let mut labels: Vec<u8> = Vec::new();
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        let mut depth = 0usize;
        while !level.is_empty() {
            for &(s, lo, hi) in &level {
                let (s, lo, hi) = (s as usize, lo as usize, hi as usize);
                // Group the keys by their byte at `depth`; within [lo, hi) every key is longer
                // than `depth` and they share their first `depth` bytes, so the groups are runs.
                labels.clear();
                ranges.clear();
                let mut i = lo;
                while i < hi {
                    let c = keys[i].0[depth];
                    let j = if keys[hi - 1].0[depth] == c {
                        hi
                    } else {
                        i + 1 + keys[i + 1..hi].partition_point(|k| k.0[depth] <= c)
                    };
                    labels.push(c);
                    ranges.push((i, j));
                    i = j;
                }
                let b = self.find_base(&labels);
                self.place(b, &labels);
                self.base[s] = b | (self.base[s] & FLAG_OUT);

                for (&c, &(i, j)) in labels.iter().zip(&ranges) {
                    let t = (b ^ u32::from(c)) as usize;
                    let f = if s == 0 { 0 } else { self.fail_target(s, c) };
                    self.fail[t] = f as u32;

                    // Keys equal to the path to `t` come first in its range.
                    let mut k = i;
                    let mut id = NONE;
                    while k < j && keys[k].0.len() == depth + 1 {
                        if id == NONE {
                            id = keys[k].1;
                        } else {
                            self.dups.push((id, keys[k].1));
                        }
                        k += 1;
                    }
                    let dict = match self.aux[f] {
                        NONE => NONE,
                        o if self.outs[o as usize].id != NONE => f as u32,
                        o => self.outs[o as usize].dict,
                    };
                    if id != NONE || dict != NONE {
                        self.aux[t] = self.outs.len() as u32;
                        self.outs.push(OutState { slot: t as u32, id, dict });
                        self.base[t] |= FLAG_OUT;
                    }
                    if k < j {
                        next_level.push((t as u32, k as u32, j as u32));
                    }
                }
            }
            std::mem::swap(&mut level, &mut next_level);
            next_level.clear();
            depth += 1;
        }
    }

    /// The failure link of the child of `s` (not the root) on byte `c`.
    fn fail_target(&self, s: usize, c: u8) -> usize {
        let mut f = self.fail[s] as usize;
        loop {
            if let Some(u) = self.goto(f, c) {
                return u;
            }
            if f == 0 {
                return 0;
            }
            f = self.fail[f] as usize;
        }
    }

    fn finish(mut self, num_terms: u32) -> Automaton {
        let slots = self.base.len();
        // Slots that are nobody's child (free ones and the root) get a label that no used base
        // can reach. One exists: a block holding such a slot has at most 255 children, so at
        // most 255 of its 256 bases are used.
        for t in 0..slots {
            if t == 0 || !bit(&self.occupied, t) {
                let block = t & !(BLOCK - 1);
                let free_label =
                    (0..BLOCK).find(|&l| !bit(&self.used_base, block | ((t ^ l) & 0xff)));
                self.check[t] = free_label.unwrap_or(0) as u8;
            }
        }

        let mut out_rank = Vec::with_capacity(slots / 64 * 3);
        let mut count = 0u32;
        for group in self.base.chunks(64) {
            let mut word = 0u64;
            for (k, &b) in group.iter().enumerate() {
                word |= u64::from(b >> 31) << k;
            }
            out_rank.extend_from_slice(&[count, word as u32, (word >> 32) as u32]);
            count += word.count_ones();
        }
        let mut out_id = vec![NONE; count as usize];
        let mut out_next = vec![NONE; count as usize];
        for o in &self.outs {
            let r = rank_native(&out_rank, o.slot as usize) as usize;
            out_id[r] = o.id;
            if o.dict != NONE {
                out_next[r] = rank_native(&out_rank, o.dict as usize);
            }
        }
        self.dups.sort_unstable();
        Automaton {
            base: self.base,
            check: self.check,
            fail: self.fail,
            out_rank,
            out_id,
            out_next,
            dup_of: self.dups.iter().map(|d| d.0).collect(),
            dup_id: self.dups.iter().map(|d| d.1).collect(),
            num_terms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aho_corasick::{AhoCorasick, MatchKind};
    use proptest::prelude::*;

    fn archive(a: &Automaton) -> rkyv::util::AlignedVec {
        rkyv::to_bytes::<rkyv::rancor::Error>(a).unwrap()
    }

    fn access(bytes: &[u8]) -> &ArchivedAutomaton {
        rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(bytes).unwrap()
    }

    /// Builds, archives and searches; checks every pair is a real occurrence.
    fn find(terms: &[&str], haystack: &str) -> Vec<(u32, usize)> {
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let bytes = archive(&Automaton::build(&t));
        let hits = access(&bytes).find_all(haystack.as_bytes());
        for &(id, end) in &hits {
            let term = t[id as usize];
            assert!(end >= term.len() && &haystack.as_bytes()[end - term.len()..end] == term);
        }
        hits
    }

    fn ids(terms: &[&str], haystack: &str) -> Vec<u32> {
        find(terms, haystack).into_iter().map(|(id, _)| id).collect()
    }

    /// The ids of the non-empty terms that occur, the plain way.
    fn naive(terms: &[&[u8]], haystack: &[u8]) -> Vec<u32> {
        (0..terms.len() as u32)
            .filter(|&i| {
                let t = terms[i as usize];
                !t.is_empty() && haystack.windows(t.len()).any(|w| w == t)
            })
            .collect()
    }

    #[test]
    fn nested_and_overlapping() {
        assert_eq!(ids(&["抠图", "智能抠图", "智能"], "用智能抠图"), vec![0, 1, 2]);
        assert_eq!(ids(&["abc", "bcd", "cd", "abcd"], "xabcdx"), vec![0, 1, 2, 3]);
        // Overlapping occurrences of one term and of two terms sharing letters.
        assert_eq!(ids(&["aa", "aaa", "aba"], "aaaba"), vec![0, 1, 2]);
    }

    #[test]
    fn prefixes_and_suffixes() {
        let terms = ["he", "her", "hers", "she", "his"];
        assert_eq!(ids(&terms, "ushers"), vec![0, 1, 2, 3]);
        assert_eq!(ids(&terms, "her"), vec![0, 1]);
        assert_eq!(ids(&terms, "sh"), Vec::<u32>::new());
        // A term that is a suffix of another, reached only through the failure chain.
        assert_eq!(ids(&["abcde", "cde", "de", "e"], "abcde"), vec![0, 1, 2, 3]);
        assert_eq!(ids(&["abcde", "cde", "de", "e"], "abcdf"), Vec::<u32>::new());
    }

    #[test]
    fn single_byte_and_single_char_terms() {
        assert_eq!(ids(&["a", "图", "z"], "a图"), vec![0, 1]);
        assert_eq!(find(&["x"], "axbx"), vec![(0, 2)]);
    }

    #[test]
    fn multibyte_and_astral() {
        let terms = ["🦀", "rust🦀", "é", "e", "😀😀", "\u{10FFFF}"];
        assert_eq!(ids(&terms, "I ❤ rust🦀 café"), vec![0, 1, 2]);
        assert_eq!(ids(&terms, "😀😀😀 e \u{10FFFF}"), vec![3, 4, 5]);
        // Byte-level: a term never matches inside a different character.
        assert_eq!(ids(&["\u{4E00}"], "\u{4E01}\u{4E02}"), Vec::<u32>::new());
    }

    #[test]
    fn empty_cases() {
        assert_eq!(ids(&["abc"], ""), Vec::<u32>::new());
        assert_eq!(ids(&[], "abc"), Vec::<u32>::new());
        assert_eq!(ids(&["", "b", ""], "abc"), vec![1]);
        assert_eq!(ids(&[""], "abc"), Vec::<u32>::new());
        assert_eq!(ids(&[""], ""), Vec::<u32>::new());
        let empty = archive(&Automaton::default());
        assert!(access(&empty).find_all(b"anything").is_empty());
    }

    #[test]
    fn duplicates_are_each_reported() {
        assert_eq!(ids(&["ab", "x", "ab", "b", "ab"], "zab"), vec![0, 2, 3, 4]);
        assert_eq!(ids(&["b", "b", "ab", "ab"], "ab"), vec![0, 1, 2, 3]);
    }

    #[test]
    fn each_term_once_with_first_end() {
        let hits = find(&["ab", "b"], "abab");
        assert_eq!(hits, vec![(0, 2), (1, 2)]);
        assert_eq!(access(&archive(&Automaton::build(&[]))).num_terms(), 0);
    }

    #[test]
    fn all_byte_values_and_wide_fanout() {
        // Every byte value as a one-byte term and under a common prefix, so that blocks fill up
        // completely and labels 0 and 255 are used.
        let singles: Vec<Vec<u8>> = (0..=255u8).map(|c| vec![c]).collect();
        let pairs: Vec<Vec<u8>> = (0..=255u8).map(|c| vec![7, c]).collect();
        let mut terms: Vec<&[u8]> = singles.iter().map(|t| t.as_slice()).collect();
        terms.extend(pairs.iter().map(|t| t.as_slice()));
        let bytes = archive(&Automaton::build(&terms));
        let arch = access(&bytes);
        let hay: Vec<u8> = vec![0, 7, 0, 255, 7, 255];
        let got: Vec<u32> = arch.find_all(&hay).into_iter().map(|(i, _)| i).collect();
        assert_eq!(got, naive(&terms, &hay));
    }

    #[test]
    fn many_terms_match_reference() {
        // Enough terms to close blocks and exercise the free list.
        let mut rng = Rng(42);
        let alphabet: Vec<char> = "ab智能抠图🦀".chars().collect();
        let terms: Vec<String> = (0..5000)
            .map(|_| {
                let n = 1 + rng.next() as usize % 8;
                (0..n).map(|_| alphabet[rng.next() as usize % alphabet.len()]).collect()
            })
            .collect();
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        let a = Automaton::build(&t);
        let bytes = archive(&a);
        let arch = access(&bytes);
        for _ in 0..50 {
            let n = rng.next() as usize % 40;
            let hay: String =
                (0..n).map(|_| alphabet[rng.next() as usize % alphabet.len()]).collect();
            let got: Vec<u32> = arch.find_all(hay.as_bytes()).into_iter().map(|(i, _)| i).collect();
            assert_eq!(got, naive(&t, hay.as_bytes()));
        }
    }

    /// A small deterministic generator for the non-proptest tests.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// Terms and prompts over a small alphabet mixing 1-, 2-, 3- and 4-byte characters, so that
    /// overlaps, shared prefixes and suffix links are frequent.
    fn text(max: usize) -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec!['a', 'b', 'c', 'é', '智', '能', '🦀']),
            0..max,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn matches_naive_and_aho_corasick(
            terms in prop::collection::vec(text(6), 0..40),
            haystacks in prop::collection::vec(text(30), 1..5),
        ) {
            let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
            let bytes = archive(&Automaton::build(&t));
            let arch = access(&bytes);
            let ac = AhoCorasick::builder().match_kind(MatchKind::Standard).build(&t).unwrap();
            for hay in &haystacks {
                let hay = hay.as_bytes();
                let hits = arch.find_all(hay);
                for &(id, end) in &hits {
                    let term = t[id as usize];
                    prop_assert!(end >= term.len() && &hay[end - term.len()..end] == term);
                }
                let got: Vec<u32> = hits.iter().map(|&(id, _)| id).collect();
                prop_assert_eq!(&got, &naive(&t, hay));
                let mut theirs: Vec<u32> = ac
                    .find_overlapping_iter(hay)
                    .map(|m| m.pattern().as_u32())
                    .filter(|&id| !t[id as usize].is_empty())
                    .collect();
                theirs.sort_unstable();
                theirs.dedup();
                prop_assert_eq!(&got, &theirs);
            }
        }

        /// Random bytes written over an archive that still passes validation must not make the
        /// search panic or run long.
        #[test]
        fn corrupted_archive_is_harmless(
            terms in prop::collection::vec(text(6), 1..40),
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..20),
            hay in text(200),
        ) {
            let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
            let mut bytes = archive(&Automaton::build(&t));
            let len = bytes.len();
            for (at, v) in &flips {
                bytes[at.index(len)] = *v;
            }
            if let Ok(arch) = rkyv::access::<ArchivedAutomaton, rkyv::rancor::Error>(&bytes) {
                let start = std::time::Instant::now();
                let hits = arch.find_all(hay.as_bytes());
                prop_assert!(start.elapsed() < std::time::Duration::from_secs(1));
                prop_assert!(hits.windows(2).all(|w| w[0].0 < w[1].0));
            }
        }

        /// Arbitrary table contents (cycles, self loops, out-of-range links and ranks).
        #[test]
        fn arbitrary_tables_are_harmless(
            base in prop::collection::vec(any::<u32>().prop_map(|v| (v % 600) | (v & FLAG_OUT)), 0..600),
            check in prop::collection::vec(any::<u8>(), 0..600),
            fail in prop::collection::vec(0u32..600, 0..600),
            out_rank in prop::collection::vec(any::<u32>(), 0..40),
            out_id in prop::collection::vec(0u32..50, 0..60),
            out_next in prop::collection::vec(prop_oneof![0u32..60, Just(NONE)], 0..60),
            dup_of in prop::collection::vec(0u32..50, 0..10),
            hay in prop::collection::vec(any::<u8>(), 0..400),
        ) {
            let dup_id = dup_of.iter().map(|d| d + 1).collect();
            let a = Automaton {
                base, check, fail, out_rank, out_id, out_next, dup_of, dup_id, num_terms: 50,
            };
            let bytes = archive(&a);
            let hits = access(&bytes).find_all(&hay);
            prop_assert!(hits.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }
}
