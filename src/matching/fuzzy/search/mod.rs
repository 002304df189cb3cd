//! The search: a prompt's candidates, read in place from the archived tables.
//!
//! Kept apart from the build because it is the hook's path and works on the archived tables
//! alone. This file holds the entry point, the phases and what they share (the bar, the best
//! results, the working memory, reads of the tables); the work of a phase is split by what it
//! reads: `message` prepares the prompt's bigrams and words once per query, `ascii` scores
//! ASCII terms against words, `window` scores the other terms against windows. Each phase's
//! loops sit in one file with the helpers only they use. (The release and bench profiles build
//! the crate as one codegen unit with fat LTO, so which file a function sits in does not change
//! what gets inlined.)
//!
//! # Search
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
//! # Exactness
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

mod ascii;
mod message;
mod window;

use std::cell::RefCell;

use super::layout::{slot_hash, ArchivedFuzzyIndex, KIND_ASCII, KIND_WINDOW};
use super::maps::{KeyMap, TagMap};
use super::{Candidate, MAX_CANDIDATES};
use crate::matching::boundary::only_inside_words;
use crate::matching::TermSource;

/// Falling bars of the search phases (the threshold itself always runs last).
const PHASES: [f64; 3] = [0.75, 0.5, 0.35];

/// Slack on `α`: `⌈k·A − SLACK⌉` may be one lower than the exact minimum when `k·A` is within
/// rounding distance of an integer, which only lets an extra term through to exact scoring.
const SLACK: f64 = 1e-6;

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

type U32 = rkyv::rend::u32_le;

#[inline]
fn at(v: &[U32], i: usize) -> Option<usize> {
    v.get(i).map(|x| x.to_native() as usize)
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
///
/// [`FuzzyIndex::groups`]: super::FuzzyIndex::groups
struct Group {
    a: usize,
    b: usize,
    e0: usize,
    e1: usize,
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
    ///
    /// [`other_hash`]: super::layout::other_hash
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
        let term_of = |id: u32| -> Option<&str> { terms.term(id) };
        let whole =
            self.whole_words.then_some(Whole { message: message.as_bytes(), term_of: &term_of });
        let mut top = SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut s) => {
                let top = self.search(&mut s, message, threshold, exact_hits, whole);
                // Keep a long-lived thread from holding on to a huge prompt's working memory.
                if message.len() > 1 << 20 {
                    *s = Scratch::default();
                }
                top
            }
            Err(_) => self.search(&mut Scratch::default(), message, threshold, exact_hits, whole),
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

    fn search<'a>(
        &'a self,
        s: &mut Scratch,
        message: &str,
        threshold: f64,
        hits: &'a [u32],
        whole: Option<Whole<'a>>,
    ) -> Top {
        let mut q = Query {
            ix: self,
            top: Top { items: Vec::with_capacity(MAX_CANDIDATES + 1), threshold },
            hits,
            m_len: 0,
            phase: 0,
            whole,
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
                Some(&KIND_ASCII) => q.ascii_score_all_words(s, id, toks),
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
    /// With whole words: what the ASCII phase checks words with.
    whole: Option<Whole<'a>>,
}

/// What a search with whole words (see the module documentation of `fuzzy`) needs beyond the
/// tables: the prompt's bytes, where its words lie, and the terms' text.
#[derive(Clone, Copy)]
struct Whole<'a> {
    message: &'a [u8],
    term_of: &'a dyn Fn(u32) -> Option<&'a str>,
}

impl Query<'_> {
    #[inline]
    fn is_hit(&self, id: u32) -> bool {
        self.hits.binary_search(&id).is_ok()
    }

    /// With whole words, whether word `w` is no evidence for term `t` (`n_t` bigrams, `m` of
    /// them shared with the word): the word holds the term only inside longer words.
    ///
    /// A word that holds the term has all its bigrams (`m = n_t`) and more (`nW > n_t`); only
    /// such a word, rare among those scored, costs a read of the term.
    fn inside_words_only(&self, s: &Scratch, t: u32, w: usize, m: usize, n_t: usize) -> bool {
        let Some(whole) = &self.whole else { return false };
        if m < n_t || s.word_meta[w].0 as usize <= n_t {
            return false;
        }
        let (a, b) = s.word_span[w];
        let (Some(word), Some(term)) =
            (whole.message.get(a as usize..b as usize), (whole.term_of)(t))
        else {
            return false;
        };
        only_inside_words(word, term.as_bytes())
    }
}
