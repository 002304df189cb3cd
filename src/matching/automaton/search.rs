//! The search: every term that occurs in a prompt, read in place from the archived tables.
//!
//! Kept apart from the build because it is the hook's hot path and works on the archived
//! tables alone; the transition loop and every helper it calls live in this one file.
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
//! # Whole words
//!
//! `find_words` runs the same walk and notes the same states; only the report differs, so the
//! choice is made once per batch of notes, in `report`, and the transition loop is the same
//! with the setting off. See [`ArchivedAutomaton::find_words`]. `find_accepted` is the same
//! report without the whole-word rule's end check: the caller's check alone decides, which is
//! how a term's case is checked with whole words off.
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

use super::layout::{BASE_SHIFT, EMPTY_UNIT, FAIL_MASK, FAIL_SHIFT, FLAG_OUT, LABEL_MASK, NONE};
use super::ArchivedAutomaton;
use crate::matching::boundary::ends_inside_word;

impl ArchivedAutomaton {
    /// Every term that occurs in `haystack`, once each, as `(id, end)` where `end` is the byte
    /// offset just past one occurrence; sorted by id. (After [`Automaton::map_ids`], the
    /// values given there stand for the ids.) Never panics and always terminates, whatever
    /// the table contents; damaged tables may give wrong pairs, which the caller verifies.
    ///
    /// [`Automaton::map_ids`]: super::Automaton::map_ids
    pub fn find_all(&self, haystack: &[u8]) -> Vec<(u32, usize)> {
        self.search(haystack, None)
    }

    /// Like [`ArchivedAutomaton::find_all`], for whole words (`matching.wordBoundary`): every
    /// term with an occurrence that `accept(value, end)` approves, once each, as `(value, end)`
    /// of an approved occurrence; sorted by value.
    ///
    /// The automaton knows the terms' last bytes but not their lengths, so it does the end's
    /// half of the rule itself and leaves the start's to `accept`, which sees the term (see
    /// [`crate::matching::boundary`]): an occurrence is offered only when it does not end inside
    /// a word (every term on one output chain ends with the same byte, so a whole chain is
    /// passed over at once, without reading any term). Terms are checked on a hit only, and a
    /// refused occurrence does not hide a later whole one. `accept` is not asked again about a
    /// term once it approved one of its occurrences (it may be asked twice about a refused
    /// one, where the search's windows overlap).
    pub fn find_words(
        &self,
        haystack: &[u8],
        accept: &mut dyn FnMut(u32, usize) -> bool,
    ) -> Vec<(u32, usize)> {
        self.search(haystack, Some(Words { hay: haystack, whole: true, accept }))
    }

    /// [`ArchivedAutomaton::find_words`] without its half of the whole-word rule: every term
    /// with an occurrence that `accept(value, end)` approves, once each. What an occurrence
    /// must satisfy is `accept`'s alone: with whole words off, a term's case (see
    /// [`crate::matching::case`]), where the first occurrence the automaton finds may be in
    /// another case than a later one.
    pub fn find_accepted(
        &self,
        haystack: &[u8],
        accept: &mut dyn FnMut(u32, usize) -> bool,
    ) -> Vec<(u32, usize)> {
        self.search(haystack, Some(Words { hay: haystack, whole: false, accept }))
    }

    /// The search behind both: `words` decides how the noted output states are reported.
    #[inline(always)]
    fn search(&self, haystack: &[u8], words: Option<Words<'_>>) -> Vec<(u32, usize)> {
        let w = Walker::new(&self.units, self.used.map(|word| word.to_native()));
        let total = self.outs.len() / 2;
        let mut found = Found::new(Seen::for_search(haystack.len(), total), words);
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
        found: &mut Found<'_>,
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
        let Found { noted, hits, seen, words } = found;
        if let Some(words) = words {
            return self.report_words(noted, hits, seen, words);
        }
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

    /// [`ArchivedAutomaton::report`] for whole words: each noted state's whole output chain is
    /// walked (a state seen before may have been refused at another place, and the states
    /// below it with it), and a term is reported, and its state marked seen, once an
    /// occurrence is accepted.
    ///
    /// In valid tables each link of a chain leads to a shorter suffix, so a chain has at most
    /// `max_len` states; the walk stops there, and at `total`, whatever damaged tables say.
    #[cold]
    #[inline(never)]
    fn report_words(
        &self,
        noted: &mut Noted,
        hits: &mut Vec<(u32, usize)>,
        seen: &mut Seen,
        words: &mut Words<'_>,
    ) {
        let outs: &[u32_le] = &self.outs;
        let total = outs.len() / 2;
        let steps = (self.max_len.to_native() as usize).min(total);
        let n = noted.len.min(Noted::CAPACITY);
        for (&s, &end) in noted.slot[..n].iter().zip(&noted.end[..n]) {
            if words.whole && ends_inside_word(words.hay, end) {
                continue;
            }
            let Some(mut r) = rank(&self.out_rank, s as usize) else { continue };
            for _ in 0..steps {
                let (Some(id), Some(next)) = (outs.get(2 * r), outs.get(2 * r + 1)) else {
                    break;
                };
                let (id, next) = (id.to_native(), next.to_native());
                if id != NONE && !seen.contains(r) && self.report_accepted(id, end, hits, words) {
                    seen.mark(r, total);
                }
                if next == NONE {
                    break;
                }
                r = next as usize;
            }
        }
        noted.len = 0;
    }

    /// Reports term `id` at `end` if `words` accepts it there, and each of its duplicates
    /// (terms with the same key: since the smart case, mostly terms that differ only in case,
    /// `UI` and `ui`) that it accepts and that is not reported yet, each judged on its own.
    /// True once the term and all its duplicates are reported: their state is done with.
    fn report_accepted(
        &self,
        id: u32,
        end: usize,
        hits: &mut Vec<(u32, usize)>,
        words: &mut Words<'_>,
    ) -> bool {
        let dup_of: &[u32_le] = &self.dup_of;
        let first = dup_of.partition_point(|d| d.to_native() < id);
        if dup_of.get(first).is_none_or(|d| d.to_native() != id) {
            let accepted = (words.accept)(id, end);
            if accepted {
                hits.push((id, end));
            }
            return accepted;
        }
        // Rare enough that looking through the hits for the members reported at an earlier
        // occurrence costs nothing worth a set.
        let dup_id: &[u32_le] = self.dup_id.get(first..).unwrap_or_default();
        let dups = dup_of[first..].iter().zip(dup_id);
        let members = std::iter::once(id)
            .chain(dups.take_while(|(of, _)| of.to_native() == id).map(|(_, d)| d.to_native()));
        let mut all = true;
        for member in members {
            if hits.iter().any(|&(hit, _)| hit == member) {
                continue;
            }
            if (words.accept)(member, end) {
                hits.push((member, end));
            } else {
                all = false;
            }
        }
        all
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
pub(super) const LANES: usize = 4;
/// Marks, inside [`Walker::step`], a failure chain longer than one link.
const SLOW: usize = usize::MAX;
/// Haystacks shorter than this many bytes per lane are searched in one run.
pub(super) const MIN_LANE_BYTES: usize = 64;

/// What a search has found so far.
struct Found<'a> {
    noted: Noted,
    hits: Vec<(u32, usize)>,
    seen: Seen,
    /// How occurrences are checked, when they are ([`ArchivedAutomaton::find_words`],
    /// [`ArchivedAutomaton::find_accepted`]).
    words: Option<Words<'a>>,
}

/// What a search that asks about occurrences checks them with.
struct Words<'a> {
    hay: &'a [u8],
    /// Whole words: occurrences that end inside a word are passed over unasked.
    whole: bool,
    accept: &'a mut dyn FnMut(u32, usize) -> bool,
}

impl<'a> Found<'a> {
    fn new(seen: Seen, words: Option<Words<'a>>) -> Found<'a> {
        let noted = Noted { slot: [0; Noted::CAPACITY], end: [0; Noted::CAPACITY], len: 0 };
        // Room for a long prompt's hits from the start: growing from empty took six
        // reallocations for the bench's 99 hits (2 % of the search). A prompt with hits pays
        // one allocation either way; one without pays a small allocation it did not before.
        Found { noted, hits: Vec::with_capacity(64), seen, words }
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
pub(super) struct Noted {
    slot: [u32; Noted::CAPACITY],
    end: [usize; Noted::CAPACITY],
    len: usize,
}

impl Noted {
    /// Notes per batch: enough that a batch's loads overlap well, few enough that the
    /// batch's working arrays stay small on the stack.
    pub(super) const CAPACITY: usize = 64;
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
pub(super) enum Seen {
    Small { slots: [u32; Seen::SMALL], len: usize },
    Bits(Vec<u64>),
}

impl Seen {
    /// Slots of the small set (a power of two); it holds at most half as many ranks.
    pub(super) const SMALL: usize = 1024;

    /// Bytes of haystack from which a search starts with the bitset: a long prompt reaches
    /// output states in proportion (a 1,000-character one, 150 at 100k terms), and from about
    /// four times that, its search costs enough that the bitset's set-up is small beside it.
    pub(super) const BITS_FROM: usize = 4096;

    /// The set for a search of `len` bytes over `total` output states.
    fn for_search(len: usize, total: usize) -> Seen {
        if len >= Seen::BITS_FROM || total <= 64 * 16 {
            Seen::Bits(vec![0; total.div_ceil(64)])
        } else {
            Seen::Small { slots: [NONE; Seen::SMALL], len: 0 }
        }
    }

    /// Whether rank `r` is marked.
    fn contains(&self, r: usize) -> bool {
        match self {
            Seen::Small { slots, .. } => Seen::probe(slots, r),
            Seen::Bits(bits) => bits.get(r / 64).is_some_and(|w| w & (1 << (r % 64)) != 0),
        }
    }

    /// Whether the small set holds rank `r`. (`mark` keeps its own copy of the loop: a shared
    /// one made the plain search measurably slower at 100k terms, 5.5 → 5.7 µs in `cargo
    /// bench --bench exact`.)
    fn probe(slots: &[u32; Seen::SMALL], r: usize) -> bool {
        // Fibonacci hashing: the top bits of the product index the slots.
        let shift = 32 - Seen::SMALL.trailing_zeros();
        let mut at = ((r as u32).wrapping_mul(0x9e37_79b1) >> shift) as usize;
        loop {
            match slots[at] {
                NONE => return false,
                m if m as usize == r => return true,
                _ => at = (at + 1) % Seen::SMALL,
            }
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
