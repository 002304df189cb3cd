//! Exact matching: an Aho-Corasick automaton stored as flat integer tables.
//!
//! The hook is a fresh process per prompt and reads the automaton straight out of the mapped
//! index file, so the automaton is nothing but a few flat integer vectors that are searched in
//! place: no pointers, no nested vectors, nothing to rebuild, and rkyv's validation of the
//! archive is a handful of length checks whatever the glossary size.
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
//!   others are listed here (sorted by that id) and added to the result next to it.
//! * `used`: the bytes that occur in some term, one bit each. No state has a child on any
//!   other byte, so such a byte ends every failure chain at the root.
//!
//! The build places the states of the first six bytes (two CJK characters) breadth-first, so
//! the shallow states that nearly every prompt byte visits sit together at the front of the
//! table, and each deeper subtree depth-first, so that the path of a term found in a prompt lies
//! in a few neighbouring blocks rather than one level's worth of table apart per byte.
//!
//! # Searching
//!
//! A transition is an XOR, one load and a byte compare. On a miss the failure link is in the
//! unit at hand, and "one failure link, then a transition, or else the root" covers nearly all
//! misses; that case is computed without branching (`Walker::step`). A longer chain is walked
//! only for a byte in `used`: spaces, newlines and punctuation, which few terms contain, would
//! otherwise walk every word's chain down to the root.
//!
//! The output flag rides in the unit too, so states with nothing to report cost nothing more.
//! An output state reached is only noted (its slot and where the occurrence ends), and the
//! notes are reported a batch at a time: the rank lookups and `outs` reads of a batch are
//! independent loads that overlap, where reporting on the spot made the walk wait for each one
//! in turn. A state's output chain is walked with a "seen" set of output ranks: a state already
//! seen had its whole chain reported, so the walk stops there and every term is reported once.
//!
//! A search is a chain of dependent loads, each waiting for the last, mostly from the level 2
//! cache once the glossary is large. Prompts of a few hundred bytes and more are therefore cut
//! into four overlapping windows searched side by side
//! (`ArchivedAutomaton::find_in_lanes`), so that four such chains are in flight at once.
//!
//! # Damaged tables
//!
//! Every access is a checked `.get()`. Loops are bounded without trusting any stored number:
//! in a valid automaton the failure links taken over a whole haystack are at most its length
//! (each one lowers the depth, each byte raises it by at most one), so the search keeps that
//! budget and falls back to the root when it is spent; an output walk marks a fresh bit of the
//! seen set at every step, so it ends after at most as many steps as there are output states.

use std::hint::select_unpredictable;

use rkyv::rend::{u32_le, u64_le};

/// Bits of a unit holding the edge label.
const LABEL_MASK: u64 = 0xff;
/// Bit of a unit that marks an output state.
const FLAG_OUT: u64 = 1 << 8;
const FAIL_SHIFT: u32 = 9;
const FAIL_MASK: u64 = (1 << 27) - 1;
const BASE_SHIFT: u32 = 36;
/// Slots the fail field can address; the builder stays below it.
const MAX_SLOTS: usize = 1 << 27;
/// The base of a state without children: XOR with any byte gives a slot at or past it, beyond
/// [`MAX_SLOTS`], so no transition leaves such a state.
const NO_BASE: u32 = (1 << 28) - 256;
/// What a missing slot reads as: a childless state failing to the root.
const EMPTY_UNIT: u64 = (NO_BASE as u64) << BASE_SHIFT;
/// "No term" / "no link" in `outs`.
const NONE: u32 = u32::MAX;
/// Slots per block: one per possible byte, so a base's children all stay within its block.
const BLOCK: usize = 256;
/// Blocks whose free slots are still offered to new states. Older blocks are closed: their
/// leftover slots stay empty. A small window keeps the search for a base short (darts-clone
/// uses the same figure) at the cost of a few percent of empty slots.
const OPEN_BLOCKS: usize = 16;
/// The newest blocks searched for a state with several children.
const MULTI_BLOCKS: usize = 2;

/// The exact-match automaton in its serialisable form. See the module documentation for the
/// meaning of each table.
#[derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize, Debug, Default, Clone)]
pub struct Automaton {
    units: Vec<u64>,
    out_rank: Vec<u32>,
    outs: Vec<u32>,
    dup_of: Vec<u32>,
    dup_id: Vec<u32>,
    num_terms: u32,
    /// Length in bytes of the longest term.
    max_len: u32,
    /// Bit `c % 64` of word `c / 64` is set when byte `c` occurs in some term.
    used: [u64; 4],
}

impl Automaton {
    /// Builds the automaton over `terms`; the id of a term is its position in the slice.
    /// Empty terms are never reported. Duplicate terms are each reported.
    ///
    /// # Panics
    ///
    /// If the terms need more than 2^27 (134 million) states, some ten times what a
    /// million-term glossary needs, or if they total 4 GiB or more.
    pub fn build(terms: &[&[u8]]) -> Automaton {
        let num_terms = u32::try_from(terms.len()).expect("more than u32::MAX terms");
        let keys = Keys::new(terms);
        if keys.id.is_empty() {
            return Automaton { num_terms, ..Automaton::default() };
        }
        // A trie has at most one state per key byte, plus the root; the double array adds a
        // few per cent of empty slots. Reserving that much up front spares the regrowth copies
        // (the pages are only touched as slots get used).
        let mut b = Builder::new(keys.bytes.len() + keys.bytes.len() / 8 + 8 * BLOCK);
        b.insert_all(&keys);
        let max_len = (0..keys.id.len()).map(|i| keys.len(i)).max().unwrap_or(0);
        let mut automaton = b.finish(num_terms, max_len as u32);
        for &c in &keys.bytes {
            automaton.used[usize::from(c / 64)] |= 1 << (c % 64);
        }
        automaton
    }

    /// Number of terms the automaton was built over (ids are below this).
    pub fn num_terms(&self) -> u32 {
        self.num_terms
    }

    /// Number of slots in the double array (states plus the few empty slots).
    pub fn num_slots(&self) -> usize {
        self.units.len()
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

    /// Every term that occurs in `haystack`, once each, as `(id, end)` where `end` is the byte
    /// offset just past one occurrence; sorted by id. (After [`Automaton::map_ids`], the
    /// values given there stand for the ids.) Never panics and always terminates, whatever
    /// the table contents; damaged tables may give wrong pairs, which the caller verifies.
    pub fn find_all(&self, haystack: &[u8]) -> Vec<(u32, usize)> {
        let w = Walker::new(&self.units, self.used.map(|word| word.to_native()));
        let total = self.outs.len() / 2;
        let mut found = Found::new(Seen::for_search(haystack.len(), total));
        let n = haystack.len();
        // Lanes must see this many bytes before the first end they are responsible for.
        let overlap = (self.max_len.to_native() as usize).saturating_sub(1).min(n);
        let len = (n + (LANES - 1) * overlap).div_ceil(LANES);
        if n < MIN_LANE_BYTES * LANES || len < 2 * overlap {
            let mut u = w.root;
            let mut budget = n;
            for (i, &c) in haystack.iter().enumerate() {
                let s;
                (s, u) = w.step(u, c, &mut budget);
                if u & FLAG_OUT != 0 && found.note(s, i + 1) {
                    self.report(&mut found);
                }
            }
        } else {
            self.find_in_lanes(&w, haystack, overlap, len, &mut found);
        }
        self.report(&mut found);
        // Valid tables give each id once; the dedup only guards damaged ones.
        let mut hits = found.hits;
        hits.sort_unstable_by_key(|&(id, _)| id);
        hits.dedup_by_key(|&mut (id, _)| id);
        hits
    }

    /// Runs [`LANES`] searches over overlapping windows of the haystack side by side.
    ///
    /// One search is a chain of dependent loads, each waiting on the last; interleaving
    /// independent chains lets their cache misses overlap. Windows have length `len` and
    /// overlap by `overlap` (the longest term less one byte), so every occurrence lies wholly
    /// inside some window; an occurrence seen by two windows is reported once thanks to the
    /// seen set.
    fn find_in_lanes(
        &self,
        w: &Walker<'_>,
        hay: &[u8],
        overlap: usize,
        len: usize,
        found: &mut Found,
    ) {
        let n = hay.len();
        // The caller ensures overlap < len <= n.
        let start = |k: usize| (k * len.saturating_sub(overlap)).min(n.saturating_sub(len));
        let starts = [start(0), start(1), start(2), start(3)];
        let lane = |k: usize| hay.get(starts[k]..starts[k] + len).unwrap_or_default();
        let (l0, l1, l2, l3) = (lane(0), lane(1), lane(2), lane(3));
        let mut s = [0usize; LANES];
        let mut u = [w.root; LANES];
        let mut budget = [len; LANES];
        for (i, (((&c0, &c1), &c2), &c3)) in l0.iter().zip(l1).zip(l2).zip(l3).enumerate() {
            for (k, c) in [c0, c1, c2, c3].into_iter().enumerate() {
                (s[k], u[k]) = w.step(u[k], c, &mut budget[k]);
            }
            if (u[0] | u[1] | u[2] | u[3]) & FLAG_OUT != 0 {
                let mut full = false;
                for k in 0..LANES {
                    if u[k] & FLAG_OUT != 0 {
                        full |= found.note(s[k], starts[k] + i + 1);
                    }
                }
                if full {
                    self.report(found);
                }
            }
        }
    }

    /// Reports the output chains of the states noted in `found`, and empties the notes.
    /// Kept out of line so that the transition loop stays small.
    #[inline(never)]
    fn report(&self, found: &mut Found) {
        let Found { noted, hits, seen } = found;
        let outs: &[u32_le] = &self.outs;
        let total = outs.len() / 2;
        let pair = |r: usize| match (outs.get(2 * r), outs.get(2 * r + 1)) {
            (Some(id), Some(next)) => (id.to_native(), next.to_native()),
            _ => (NONE, NONE),
        };
        // First every note's rank and output pair: loads that do not wait on one another.
        let n = noted.len.min(Noted::CAPACITY);
        let mut first = [(usize::MAX, NONE, NONE); Noted::CAPACITY];
        for (f, &s) in first.iter_mut().zip(&noted.slot[..n]) {
            if let Some(r) = rank(&self.out_rank, s as usize) {
                let (id, next) = pair(r);
                *f = (r, id, next);
            }
        }
        // Then the chains. Each step marks a rank below `total` that was not marked, so this
        // ends within `total` steps over the whole search, even if damaged links form a cycle.
        for (&(mut r, mut id, mut next), &end) in first.iter().zip(&noted.end[..n]) {
            // A rank seen before: its state and everything down its chain are reported.
            while r < total && seen.mark(r, total) {
                if id != NONE {
                    hits.push((id, end));
                    if !self.dup_of.is_empty() {
                        self.report_dups(id, end, hits);
                    }
                }
                if next == NONE {
                    break;
                }
                r = next as usize;
                (id, next) = pair(r);
            }
        }
        noted.len = 0;
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

/// Searches run side by side in [`ArchivedAutomaton::find_in_lanes`].
const LANES: usize = 4;
/// Marks, inside [`Walker::step`], a failure chain longer than one link.
const SLOW: usize = usize::MAX;
/// Haystacks shorter than this many bytes per lane are searched in one run.
const MIN_LANE_BYTES: usize = 64;

/// What a search has found so far.
struct Found {
    noted: Noted,
    hits: Vec<(u32, usize)>,
    seen: Seen,
}

impl Found {
    fn new(seen: Seen) -> Found {
        let noted = Noted { slot: [0; Noted::CAPACITY], end: [0; Noted::CAPACITY], len: 0 };
        // Room for a long prompt's hits from the start: growing from empty took six
        // reallocations for the bench's 99 hits (2 % of the search). A prompt with hits pays
        // one allocation either way; one without pays a small allocation it did not before.
        Found { noted, hits: Vec::with_capacity(64), seen }
    }

    /// Notes that the output state in slot `s` was reached by an occurrence ending at `end`;
    /// true when the notes are to be reported before the next round of lanes adds more.
    fn note(&mut self, s: usize, end: usize) -> bool {
        let n = &mut self.noted;
        // A slot indexes `units`, whose length the archive keeps in 32 bits. The notes are
        // reported before they can fill, so the modulo never wraps; it spares a bounds check.
        debug_assert!(n.len < Noted::CAPACITY);
        let at = n.len % Noted::CAPACITY;
        (n.slot[at], n.end[at]) = (s as u32, end);
        n.len += 1;
        n.len > Noted::CAPACITY - LANES
    }
}

/// Output states reached and not yet reported, in the order reached.
struct Noted {
    slot: [u32; Noted::CAPACITY],
    end: [usize; Noted::CAPACITY],
    len: usize,
}

impl Noted {
    /// Notes per batch: enough that a batch's loads overlap well, few enough that the
    /// batch's working arrays stay small on the stack.
    const CAPACITY: usize = 64;
}

/// The output states (by rank) whose chains a search has reported.
///
/// A bitset over all output ranks is the simplest, but at 100k terms it is 18 KiB to allocate
/// and clear: for the hook, a fresh process, page faults that cost more than the whole search
/// of a typical prompt, and even in a warm process, a third of the level 1 cache overwritten
/// with zeros that the walk's own lines then have to be fetched back over. A prompt of a few
/// thousand bytes reaches a few hundred output states: they are kept in a small hash set on the
/// stack, which turns into the bitset if it fills up.
// One per search, on the stack on purpose: boxing the small variant would allocate again.
#[allow(clippy::large_enum_variant)]
enum Seen {
    Small { slots: [u32; Seen::SMALL], len: usize },
    Bits(Vec<u64>),
}

impl Seen {
    /// Slots of the small set (a power of two); it holds at most half as many ranks.
    const SMALL: usize = 1024;

    /// Bytes of haystack from which a search starts with the bitset: a long prompt reaches
    /// output states in proportion (a 1,000-character one, 150 at 100k terms), and from about
    /// four times that, its search costs enough that the bitset's set-up is small beside it.
    const BITS_FROM: usize = 4096;

    /// The set for a search of `len` bytes over `total` output states.
    fn for_search(len: usize, total: usize) -> Seen {
        if len >= Seen::BITS_FROM || total <= 64 * 16 {
            Seen::Bits(vec![0; total.div_ceil(64)])
        } else {
            Seen::Small { slots: [NONE; Seen::SMALL], len: 0 }
        }
    }

    /// Marks rank `r` (below `total`); false if it was marked already.
    fn mark(&mut self, r: usize, total: usize) -> bool {
        match self {
            Seen::Small { slots, len } => {
                // Fibonacci hashing: the top bits of the product index the slots.
                let shift = 32 - Seen::SMALL.trailing_zeros();
                let mut at = ((r as u32).wrapping_mul(0x9e37_79b1) >> shift) as usize;
                loop {
                    match slots[at] {
                        NONE => break,
                        m if m as usize == r => return false,
                        _ => at = (at + 1) % Seen::SMALL,
                    }
                }
                if *len < Seen::SMALL / 2 {
                    slots[at] = r as u32;
                    *len += 1;
                    return true;
                }
                let mut bits = vec![0u64; total.div_ceil(64)];
                for &m in slots.iter().filter(|&&m| m != NONE) {
                    bits[m as usize / 64] |= 1 << (m % 64);
                }
                *self = Seen::Bits(bits);
                self.mark(r, total)
            }
            Seen::Bits(bits) => {
                let (word, bit) = (&mut bits[r / 64], 1u64 << (r % 64));
                let fresh = *word & bit == 0;
                *word |= bit;
                fresh
            }
        }
    }
}

/// Transitions over the archived units.
struct Walker<'a> {
    units: &'a [u64_le],
    root: u64,
    used: [u64; 4],
}

impl<'a> Walker<'a> {
    fn new(units: &'a [u64_le], used: [u64; 4]) -> Walker<'a> {
        let mut w = Walker { units, root: 0, used };
        w.root = w.unit(0);
        w
    }

    /// The unit of slot `s`; a missing slot reads as a childless state failing to the root.
    fn unit(&self, s: usize) -> u64 {
        self.units.get(s).map_or(EMPTY_UNIT, |u| u.to_native())
    }

    /// The child of the state with unit `u` on byte `c`: its slot, its unit, and whether it
    /// exists. The bounds check of `get` fails only for a childless state's base (or damaged
    /// tables), rarely enough to be predicted well.
    #[inline(always)]
    fn child(&self, u: u64, c: u8) -> (usize, u64, bool) {
        let t = (u >> BASE_SHIFT) as usize ^ usize::from(c);
        // A slot past the end (a childless state's base) reads with a label that cannot match.
        let x = self.units.get(t).map_or(u64::from(!c), |x| x.to_native());
        (t, x, x & LABEL_MASK == u64::from(c))
    }

    /// The slot and unit of the state after reading `c` in the state with unit `u`.
    ///
    /// A transition is the common case and gets the branch, so the processor runs ahead on
    /// it. Otherwise, one failure link then a transition, or else the root, covers nearly
    /// everything; which of the two applies is a coin toss on ordinary text, so it is picked
    /// without branching. Longer failure chains take the slow path, spending `budget`. (Tried
    /// and slower on mixed CJK/ASCII prompts: branching on everything, and computing every
    /// case with no branch at all.)
    #[inline(always)]
    fn step(&self, u: u64, c: u8, budget: &mut usize) -> (usize, u64) {
        let (t, x, direct) = self.child(u, c);
        if direct {
            return (t, x);
        }
        let f = ((u >> FAIL_SHIFT) & FAIL_MASK) as usize;
        let fu = self.unit(f);
        let (tf, xf, via_fail) = self.child(fu, c);
        let fallback = select_unpredictable(f != 0, SLOW, 0);
        let next = (
            select_unpredictable(via_fail, tf, fallback),
            select_unpredictable(via_fail, xf, self.root),
        );
        if next.0 == SLOW {
            return self.slow_step(f, fu, c, budget);
        }
        next
    }

    /// Goes on down the failure chain from `s` (unit `u`), which has no child on `c`.
    #[cold]
    #[inline(never)]
    fn slow_step(&self, mut s: usize, mut u: u64, c: u8, budget: &mut usize) -> (usize, u64) {
        if self.used[usize::from(c / 64)] & (1 << (c % 64)) == 0 {
            // No state has a child on `c`.
            return (0, self.root);
        }
        while s != 0 && *budget > 0 {
            *budget -= 1;
            s = ((u >> FAIL_SHIFT) & FAIL_MASK) as usize;
            u = self.unit(s);
            let (t, x, hit) = self.child(u, c);
            if hit {
                return (t, x);
            }
        }
        // At the root, or, in damaged tables only, out of budget: restart from the root.
        let (t, x, hit) = self.child(self.root, c);
        if hit {
            (t, x)
        } else {
            (0, self.root)
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

/// The non-empty terms in byte order (equal ones by ascending id), copied into one buffer.
///
/// The build reads the keys a level at a time; through the caller's scattered strings every
/// such read would be a cache miss, whereas here a level is one forward sweep.
struct Keys {
    bytes: Vec<u8>,
    /// Key `i` is `bytes[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    id: Vec<u32>,
}

impl Keys {
    fn new(terms: &[&[u8]]) -> Keys {
        let total: usize = terms.iter().map(|t| t.len()).sum();
        assert!(total < u32::MAX as usize, "terms total 4 GiB or more");
        // First a copy in id order (sequential reads of the caller's strings, which usually
        // sit in allocation order), so that the sort below works within one compact buffer.
        let mut flat = Vec::with_capacity(total);
        let mut off = Vec::with_capacity(terms.len() + 1);
        for t in terms {
            off.push(flat.len() as u32);
            flat.extend_from_slice(t);
        }
        off.push(flat.len() as u32);
        let term = |id: u32| &flat[off[id as usize] as usize..off[id as usize + 1] as usize];

        // The first eight bytes as a big-endian integer (zero-padded) order the keys as the
        // bytes do, except that they may tie; comparing them first makes most comparisons of
        // the sort integer comparisons.
        let mut keyed: Vec<(u64, u32)> = (0..terms.len() as u32)
            .filter(|&id| !term(id).is_empty())
            .map(|id| {
                let t = term(id);
                let mut head = [0u8; 8];
                let n = t.len().min(8);
                head[..n].copy_from_slice(&t[..n]);
                (u64::from_be_bytes(head), id)
            })
            .collect();
        keyed.sort_unstable_by(|a, b| {
            a.0.cmp(&b.0).then_with(|| term(a.1).cmp(term(b.1))).then(a.1.cmp(&b.1))
        });

        let mut keys = Keys {
            bytes: Vec::with_capacity(total),
            start: Vec::with_capacity(keyed.len() + 1),
            id: Vec::with_capacity(keyed.len()),
        };
        for &(_, id) in &keyed {
            keys.start.push(keys.bytes.len() as u32);
            keys.bytes.extend_from_slice(term(id));
            keys.id.push(id);
        }
        keys.start.push(keys.bytes.len() as u32);
        keys
    }

    fn len(&self, i: usize) -> usize {
        (self.start[i + 1] - self.start[i]) as usize
    }

    /// Byte `depth` of key `i`, which must be longer than `depth`.
    fn byte(&self, i: usize, depth: usize) -> u8 {
        self.bytes[self.start[i] as usize + depth]
    }
}

/// Calls `f(label, first, end)` for each child of a state whose keys are `lo..hi`, all longer
/// than `depth` and sharing their first `depth` bytes: the keys are grouped by their byte at
/// `depth`, and as they are sorted the groups are runs.
fn for_each_child(
    keys: &Keys,
    lo: usize,
    hi: usize,
    depth: usize,
    mut f: impl FnMut(u8, usize, usize),
) {
    let mut i = lo;
    while i < hi {
        let c = keys.byte(i, depth);
        let j = if keys.byte(hi - 1, depth) == c {
            hi
        } else {
            let rest = &keys.start[i + 1..hi];
            i + 1 + rest.partition_point(|&st| keys.bytes[st as usize + depth] <= c)
        };
        f(c, i, j);
        i = j;
    }
}

/// Depth in bytes (two CJK characters) down to which states are placed breadth-first; see
/// [`Builder::place_all`].
const BREADTH_FIRST_DEPTH: usize = 6;

/// What the builder keeps of an output state until ranks are known.
struct OutState {
    slot: u32,
    /// Term ending here, or `NONE`.
    id: u32,
    /// Slot of the nearest state on the failure chain that ends a term, or `NONE`.
    dict: u32,
}

/// [`Slot::flags`]: the slot holds a placed child.
const CHILD: u8 = 1;
/// [`Slot::flags`]: the state is an output state.
const OUT: u8 = 2;
/// [`Slot::flags`]: the state ends a term.
const TERM: u8 = 4;

/// One slot while building. Everything the build reads about a state sits in one 16-byte
/// record, because the failure-link computation visits states all over the table and each
/// visit would otherwise cost a cache miss per field.
#[derive(Clone, Copy)]
struct Slot {
    /// XOR base of the children, `NO_BASE` for none.
    base: u32,
    fail: u32,
    /// For output states: see [`OutState::dict`].
    dict: u32,
    check: u8,
    flags: u8,
}

/// A child placed while building a level, waiting for its links.
struct Child {
    slot: u32,
    parent: u32,
    label: u8,
    /// The keys below the child: `lo..hi` in sorted order.
    lo: u32,
    hi: u32,
    /// The parent's failure link, then the child's.
    fail: u32,
    /// The child's dictionary link, once `fail` is the child's.
    dict: u32,
}

const EMPTY_SLOT: Slot = Slot { base: NO_BASE, fail: 0, dict: NONE, check: 0, flags: 0 };

struct Builder {
    slots: Vec<Slot>,
    /// Bitset of the slots holding the root or a placed child; 4 words per block.
    occupied: Vec<u64>,
    /// Bitset of the base values given to a state; 4 words per block.
    used_base: Vec<u64>,
    /// First block still open for placement; the open ones run to the end.
    first_open: usize,
    /// Per byte, the first word of `used_base` (64 bases) that may still give a base to a lone
    /// child with that label. Slots and bases only ever get taken, so a word that cannot do it
    /// now never will; and words are searched in order, so the words that cannot form a prefix.
    cursor: [u32; 256],
    outs: Vec<OutState>,
    dups: Vec<(u32, u32)>,
}

fn bit(set: &[u64], i: usize) -> bool {
    set[i / 64] & (1 << (i % 64)) != 0
}

fn set_bit(set: &mut [u64], i: usize) {
    set[i / 64] |= 1 << (i % 64);
}

/// The set `{x ^ c : x in set}` of a block's 256-bit set. The two high bits of `c` swap whole
/// words; the six low ones permute bits within words.
fn xor_permute(set: [u64; 4], c: u8) -> [u64; 4] {
    let hi = usize::from(c >> 6);
    [0, 1, 2, 3].map(|k| xor_permute_word(set[k ^ hi], c))
}

/// The set `{x ^ (c % 64) : x in word}` of a 64-bit set.
fn xor_permute_word(word: u64, c: u8) -> u64 {
    xor_permute_with(word, &swap_masks(c))
}

/// For [`xor_permute_with`]: per step `j`, the pairs of bit positions `2^j` apart to swap
/// (their lower positions), or none when bit `j` of `c` is clear.
fn swap_masks(c: u8) -> [u64; 6] {
    const PAIRS: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    // Branch-free, as labels are unpredictable.
    std::array::from_fn(|j| PAIRS[j] & 0u64.wrapping_sub(u64::from(c >> j & 1)))
}

/// Swaps the pairs of bits that `masks` select: `t` marks, at the lower position of each pair,
/// whether its two bits differ; flipping both swaps them.
fn xor_permute_with(mut word: u64, masks: &[u64; 6]) -> u64 {
    for (j, m) in masks.iter().enumerate() {
        let t = ((word >> (1 << j)) ^ word) & m;
        word ^= t | (t << (1 << j));
    }
    word
}

impl Builder {
    fn new(capacity: usize) -> Builder {
        let capacity = capacity.min(MAX_SLOTS);
        let mut b = Builder {
            slots: Vec::with_capacity(capacity),
            occupied: Vec::with_capacity(capacity / 64),
            used_base: Vec::with_capacity(capacity / 64),
            first_open: 0,
            cursor: [0; 256],
            outs: Vec::new(),
            dups: Vec::new(),
        };
        b.add_block();
        // The root takes slot 0; it is nobody's child.
        set_bit(&mut b.occupied, 0);
        b
    }

    fn add_block(&mut self) {
        let start = self.slots.len();
        assert!(start + BLOCK <= MAX_SLOTS, "automaton too large");
        if start / BLOCK - self.first_open == OPEN_BLOCKS {
            self.first_open += 1;
        }
        self.slots.resize(start + BLOCK, EMPTY_SLOT);
        self.occupied.resize((start + BLOCK) / 64, 0);
        self.used_base.resize((start + BLOCK) / 64, 0);
    }

    /// A base, not yet used, whose slots for `labels` (distinct, at least one) are all free.
    /// A lone child takes the first such base in the open blocks, oldest first, so that blocks
    /// fill up before they close; several children look in the newest blocks only.
    fn find_base(&mut self, labels: &[u8]) -> u32 {
        let blocks = self.slots.len() / BLOCK;
        if let &[c] = labels {
            // Most states have one child: look a word (64 bases) at a time.
            let hi = usize::from(c >> 6);
            let from = (self.cursor[usize::from(c)] as usize).max(self.first_open * 4);
            let masks = swap_masks(c);
            for word in from..blocks * 4 {
                let free = !self.occupied[word ^ hi];
                let cand = !self.used_base[word] & xor_permute_with(free, &masks);
                if cand != 0 {
                    return (word * 64 + cand.trailing_zeros() as usize) as u32;
                }
                self.cursor[usize::from(c)] = word as u32 + 1;
            }
            return self.slots.len() as u32;
        }
        // Several children need several free slots at once, which only the newest blocks tend
        // to have; searching the older ones costs more than the few slots it would save (they
        // fill up with lone children anyway).
        let from = labels.iter().map(|&c| self.cursor[usize::from(c)] as usize / 4).max();
        let from = from.unwrap_or(0).max(blocks.saturating_sub(MULTI_BLOCKS)).max(self.first_open);
        for block in from..blocks {
            let w = block * 4;
            let free = [0, 1, 2, 3].map(|k| !self.occupied[w + k]);
            // Unused bases `b` with `b ^ c` free for every label `c`, a whole block at a time.
            let mut cand = [0, 1, 2, 3].map(|k| !self.used_base[w + k]);
            for &c in labels {
                let ok = xor_permute(free, c);
                for k in 0..4 {
                    cand[k] &= ok[k];
                }
                if cand == [0; 4] {
                    break;
                }
            }
            if let Some(k) = (0..4).find(|&k| cand[k] != 0) {
                return (block * BLOCK + k * 64 + cand[k].trailing_zeros() as usize) as u32;
            }
        }
        // A fresh block has every slot free and every base unused.
        self.slots.len() as u32
    }

    /// Gives base `b` to the children `labels` and fills their slots.
    fn place(&mut self, b: u32, labels: &[u8]) {
        while b as usize >= self.slots.len() {
            self.add_block();
        }
        set_bit(&mut self.used_base, b as usize);
        for &c in labels {
            let t = (b ^ u32::from(c)) as usize;
            set_bit(&mut self.occupied, t);
            self.slots[t].check = c;
            self.slots[t].flags = CHILD;
        }
    }

    /// The child of `s` on byte `c` among the states placed so far.
    fn goto(&self, s: usize, c: u8) -> Option<usize> {
        let b = self.slots[s].base;
        if b == NO_BASE {
            return None;
        }
        let t = (b ^ u32::from(c)) as usize;
        // Free slots and the root do not have their final labels yet, hence the CHILD test.
        let slot = &self.slots[t];
        (slot.check == c && slot.flags & CHILD != 0).then_some(t)
    }

    /// Builds the trie over the sorted keys: first every state is placed ([`Builder::place_all`]),
    /// then the failure and output links are computed a level at a time, shallowest first: the
    /// failure chain of a state only holds shallower states, whose links are known by then.
    fn insert_all(&mut self, keys: &Keys) {
        for (depth, mut children) in self.place_all(keys).into_iter().enumerate() {
            for ch in &mut children {
                ch.fail = self.slots[ch.parent as usize].fail;
            }
            self.link_level(&mut children);
            for ch in &children {
                let (t, f) = (ch.slot as usize, ch.fail as usize);
                // Keys equal to the path to `t` come first in its range.
                let mut k = ch.lo as usize;
                let mut id = NONE;
                while k < ch.hi as usize && keys.len(k) == depth + 1 {
                    if id == NONE {
                        id = keys.id[k];
                    } else {
                        self.dups.push((id, keys.id[k]));
                    }
                    k += 1;
                }
                let dict = ch.dict;
                let slot = &mut self.slots[t];
                slot.fail = f as u32;
                slot.dict = dict;
                if id != NONE {
                    slot.flags |= TERM;
                }
                if id != NONE || dict != NONE {
                    slot.flags |= OUT;
                    self.outs.push(OutState { slot: t as u32, id, dict });
                }
            }
        }
    }

    /// Gives every state with children its base and places the children; returns the placed
    /// states by depth (element `d` holds the states at depth `d + 1`), for the links.
    ///
    /// The order decides where states land, and so how many pages of the mapped index a search
    /// touches: the hook reads the index cold, and each new page costs a fault. States down to
    /// [`BREADTH_FIRST_DEPTH`] are placed breadth-first, so the shallow ones that nearly every
    /// prompt byte visits sit together at the front. Below that, each subtree is placed
    /// depth-first, whole, before the next: the path of a term that occurs in the prompt then
    /// lies in a few neighbouring blocks, where breadth-first it would cross a level's worth of
    /// table per byte.
    fn place_all(&mut self, keys: &Keys) -> Vec<Vec<Child>> {
        let mut levels: Vec<Vec<Child>> = Vec::new();
        let mut labels: Vec<u8> = Vec::new();
        let mut below: Vec<(u32, u32, u32)> = Vec::new();
        let mut level: Vec<(u32, u32, u32)> = vec![(0, 0, keys.id.len() as u32)];
        let mut next_level = Vec::new();
        let mut depth = 0usize;
        while !level.is_empty() && depth < BREADTH_FIRST_DEPTH {
            for &state in &level {
                self.place_children(keys, state, depth, &mut labels, &mut below, &mut levels);
                next_level.extend_from_slice(&below);
            }
            std::mem::swap(&mut level, &mut next_level);
            next_level.clear();
            depth += 1;
        }
        // The stack holds (state, keys, depth); children go on in reverse, so that they come off
        // in label order.
        let mut stack: Vec<((u32, u32, u32), usize)> =
            level.iter().rev().map(|&state| (state, depth)).collect();
        while let Some((state, depth)) = stack.pop() {
            self.place_children(keys, state, depth, &mut labels, &mut below, &mut levels);
            stack.extend(below.iter().rev().map(|&child| (child, depth + 1)));
        }
        levels
    }

    /// Places the children of `state` (its slot, and the keys `lo..hi` that extend it, which
    /// are longer than `depth`) and adds them to `levels[depth]`. `below` receives those of its
    /// children that have children in turn, with the keys that extend them.
    fn place_children(
        &mut self,
        keys: &Keys,
        (s, lo, hi): (u32, u32, u32),
        depth: usize,
        labels: &mut Vec<u8>,
        below: &mut Vec<(u32, u32, u32)>,
        levels: &mut Vec<Vec<Child>>,
    ) {
        if levels.len() <= depth {
            levels.resize_with(depth + 1, Vec::new);
        }
        let children = &mut levels[depth];
        let first = children.len();
        labels.clear();
        for_each_child(keys, lo as usize, hi as usize, depth, |c, i, j| {
            labels.push(c);
            children.push(Child {
                slot: u32::from(c),
                parent: s,
                label: c,
                lo: i as u32,
                hi: j as u32,
                fail: 0,
                dict: NONE,
            });
        });
        let b = self.find_base(labels);
        self.place(b, labels);
        self.slots[s as usize].base = b;
        below.clear();
        for ch in &mut levels[depth][first..] {
            ch.slot ^= b;
            // Keys equal to the path to the child come first in its range; the rest extend it.
            let mut k = ch.lo as usize;
            while k < ch.hi as usize && keys.len(k) == depth + 1 {
                k += 1;
            }
            if k < ch.hi as usize {
                below.push((ch.slot, k as u32, ch.hi));
            }
        }
    }

    /// Turns each child's `fail`, which holds its parent's failure link on entry, into the
    /// child's own failure link.
    ///
    /// This is where the build spends its time waiting for memory: the links lead to shallower
    /// states all over the table. Most of the time the answer is the child on the same label
    /// of the parent's failure link, so that guess is checked first for the whole level in
    /// passes without unpredictable branches, letting the processor overlap their cache
    /// misses; the rest walk the failure chain one step at a time.
    fn link_level(&self, children: &mut [Child]) {
        // The guess: the slot the label leads to from the parent's failure link.
        let mut guess: Vec<u32> = children
            .iter()
            .map(|ch| self.slots[ch.fail as usize].base ^ u32::from(ch.label))
            .collect();
        // Whether the guess is that state's child (a childless state's base leads past the
        // end); and, read while the slot is at hand, the child's dictionary link if it is.
        for (g, ch) in guess.iter_mut().zip(children.iter_mut()) {
            let slot = self.slots.get(*g as usize).copied().unwrap_or(EMPTY_SLOT);
            let hit = slot.check == ch.label && slot.flags & CHILD != 0;
            ch.dict = if slot.flags & TERM != 0 { *g } else { slot.dict };
            if !hit {
                *g = NONE;
            }
        }
        for (ch, &g) in children.iter_mut().zip(&guess) {
            if g != NONE && ch.parent != 0 {
                ch.fail = g;
                continue;
            }
            // The root's children fail to the root; the others walk the chain on.
            let f = if ch.parent == 0 || ch.fail == 0 {
                0
            } else {
                self.fail_target(self.slots[ch.fail as usize].fail as usize, ch.label)
            };
            let slot = &self.slots[f];
            ch.fail = f as u32;
            ch.dict = if slot.flags & TERM != 0 { f as u32 } else { slot.dict };
        }
    }

    /// The failure link of a child on byte `c` whose parent's failure chain continues at `f`:
    /// the first state down the chain with a child on `c`, or the root.
    fn fail_target(&self, mut f: usize, c: u8) -> usize {
        loop {
            if let Some(u) = self.goto(f, c) {
                return u;
            }
            if f == 0 {
                return 0;
            }
            f = self.slots[f].fail as usize;
        }
    }

    /// Labels the empty slots, builds the output tables and packs the units.
    fn finish(mut self, num_terms: u32, max_len: u32) -> Automaton {
        let n = self.slots.len();
        // Slots that are nobody's child (free ones and the root) get a label that no used base
        // can reach. One exists: a block holding such a slot has at most 255 children, so at
        // most 255 of its 256 bases are used.
        for (w, &occupied) in self.occupied.iter().enumerate() {
            let mut free = !occupied | u64::from(w == 0);
            while free != 0 {
                let t = w * 64 + free.trailing_zeros() as usize;
                free &= free - 1;
                let label = (0..BLOCK).find(|&l| !bit(&self.used_base, t ^ l));
                self.slots[t].check = label.unwrap_or(0) as u8;
            }
        }

        let mut out_rank = Vec::with_capacity(n / 64 * 3);
        let mut count = 0u32;
        for group in self.slots.chunks(64) {
            let mut word = 0u64;
            for (k, slot) in group.iter().enumerate() {
                word |= u64::from(slot.flags & OUT != 0) << k;
            }
            out_rank.extend_from_slice(&[count, word as u32, (word >> 32) as u32]);
            count += word.count_ones();
        }
        let mut outs = vec![NONE; 2 * count as usize];
        for o in &self.outs {
            let r = rank_native(&out_rank, o.slot as usize) as usize;
            outs[2 * r] = o.id;
            if o.dict != NONE {
                outs[2 * r + 1] = rank_native(&out_rank, o.dict as usize);
            }
        }

        let units = self
            .slots
            .iter()
            .map(|s| {
                u64::from(s.check)
                    | if s.flags & OUT != 0 { FLAG_OUT } else { 0 }
                    | u64::from(s.fail) << FAIL_SHIFT
                    | u64::from(s.base) << BASE_SHIFT
            })
            .collect();
        self.dups.sort_unstable();
        Automaton {
            units,
            out_rank,
            outs,
            dup_of: self.dups.iter().map(|d| d.0).collect(),
            dup_id: self.dups.iter().map(|d| d.1).collect(),
            num_terms,
            max_len,
            used: [0; 4],
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

    #[test]
    fn mapped_ids_are_reported_in_their_place() {
        // Duplicates, a suffix, a term that never occurs, an empty one.
        let terms: [&[u8]; 6] = [b"ab", b"b", b"zz", b"ab", b"", b"cab"];
        let hay = b"xcabx";
        let plain = Automaton::build(&terms);
        let mut mapped = plain.clone();
        let value = [10, 25, 26, 40, 41, 97];
        mapped.map_ids(&value);
        let (p, m) = (archive(&plain), archive(&mapped));
        let expected: Vec<(u32, usize)> = access(&p)
            .find_all(hay)
            .into_iter()
            .map(|(id, end)| (value[id as usize], end))
            .collect();
        assert_eq!(expected, [(10, 4), (25, 4), (40, 4), (97, 4)]);
        assert_eq!(access(&m).find_all(hay), expected);
    }

    /// A short prompt that reaches more output states than the small set of reported ones
    /// holds, over more output states than the bitset is used for directly: the set turns into
    /// a bitset midway, and nothing is lost or reported twice.
    #[test]
    fn many_hits_switch_the_seen_set_midway() {
        let code = |i: usize| -> String {
            [i / 676, i / 26 % 26, i % 26].iter().map(|&d| char::from(b'a' + d as u8)).collect()
        };
        let owned: Vec<String> = (0..2000).map(code).collect();
        let terms: Vec<&str> = owned.iter().map(String::as_str).collect();
        let haystack: String = (0..600).map(|i| format!("{} ", code(i * 3 + 1))).collect();
        assert!(haystack.len() < Seen::BITS_FROM && 600 > Seen::SMALL / 2);
        let t: Vec<&[u8]> = terms.iter().map(|s| s.as_bytes()).collect();
        assert_eq!(ids(&terms, &haystack), naive(&t, haystack.as_bytes()));
        assert_eq!(ids(&terms, &haystack).len(), 600);
    }

    /// A short prompt (one run, no lanes) that reaches output states many times more than a
    /// batch of notes holds, before the terms that occur only once: each batch is reported
    /// as it fills, and nothing noted is lost.
    #[test]
    fn notes_are_reported_as_they_fill() {
        let letters: Vec<String> = ('a'..='z').map(String::from).collect();
        let terms: Vec<&str> = letters.iter().map(String::as_str).collect();
        let haystack = format!("{}{}", "a".repeat(150), &letters[1..].concat());
        assert!(haystack.len() < MIN_LANE_BYTES * LANES && 150 > 2 * Noted::CAPACITY);
        assert_eq!(ids(&terms, &haystack), (0..26).collect::<Vec<u32>>());
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

    /// A byte that occurs in no term sends the search back to the root; one that occurs only
    /// inside terms (here the space) still continues them.
    #[test]
    fn bytes_outside_every_term() {
        let terms = ["ab cd", "b c", "cde"];
        assert_eq!(ids(&terms, "xab cde. b c;"), vec![0, 1, 2]);
        assert_eq!(ids(&terms, "ab.cd b;c cd;e"), Vec::<u32>::new());
        assert_eq!(ids(&terms, "cd.ab cd"), vec![0, 1]);
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

    #[test]
    fn lanes_find_occurrences_anywhere() {
        // One occurrence of a 10-byte term at every offset of a 400-byte haystack, which is
        // searched in overlapping windows: near window edges the term must still be found.
        let terms = ["abcdefghij", "j", "智能"];
        for at in 0..=390 {
            let mut hay = ".".repeat(400);
            hay.replace_range(at..at + 10, "abcdefghij");
            assert_eq!(find(&terms, &hay), vec![(0, at + 10), (1, at + 10)], "at {at}");
        }
        for at in (0..=394).step_by(7) {
            let mut hay = ".".repeat(400);
            hay.replace_range(at..at + 6, "智能");
            assert_eq!(ids(&terms, &hay), vec![2], "at {at}");
        }
        // Terms too long for the windows to overlap enough: searched in one run.
        let long = "x".repeat(300);
        let hay = format!("{}{long}{}", ".".repeat(50), ".".repeat(50));
        assert_eq!(ids(&[&long, "x."], &hay), vec![0, 1]);
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
            // Short prompts take the single run, long ones (256 bytes and up) the lanes.
            haystacks in prop::collection::vec(prop_oneof![text(30), text(400)], 1..5),
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
            units in prop::collection::vec(
                (any::<u8>(), any::<bool>(), 0u64..600, 0u64..600).prop_map(|(l, f, fail, base)| {
                    u64::from(l) | if f { FLAG_OUT } else { 0 }
                        | fail << FAIL_SHIFT | base << BASE_SHIFT
                }),
                0..600,
            ),
            out_rank in prop::collection::vec(any::<u32>(), 0..40),
            outs in prop::collection::vec(prop_oneof![0u32..60, Just(NONE)], 0..120),
            dup_of in prop::collection::vec(0u32..50, 0..10),
            max_len in prop_oneof![0u32..10, any::<u32>()],
            used in any::<[u64; 4]>(),
            hay in prop::collection::vec(any::<u8>(), 0..400),
        ) {
            let dup_id = dup_of.iter().map(|d| d + 1).collect();
            let a = Automaton {
                units, out_rank, outs, dup_of, dup_id, num_terms: 50, max_len, used,
            };
            let bytes = archive(&a);
            let hits = access(&bytes).find_all(&hay);
            prop_assert!(hits.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }
}
