//! The ASCII phase: terms made of `[A-Za-z0-9_.-]`, scored against the prompt's words.
//!
//! Kept apart from the window phase because the two find and score their terms differently:
//! ASCII terms through length groups, signatures and a merge with one word; window terms
//! through rank groups and a sweep over the prompt's positions.

use std::ops::Range;

use super::{bar_factor, ceil_usize, min_overlap, ratio, touch_blocks, touch_groups};
use super::{Query, Scratch, SLACK, U32};
use crate::matching::fuzzy::layout::sig_bit;

impl Query<'_> {
    /// One phase over the ASCII terms: every term scoring ≥ `tau` against some word is offered.
    ///
    /// Words go in small batches, each in stages (admissible groups, candidate entries,
    /// scoring) that first touch the memory the next stage reads, so that the cache misses of
    /// a large index overlap instead of queueing one behind the other. The bar is refreshed
    /// between batches: the higher it is, the shorter the prefixes.
    pub(super) fn ascii_phase(&mut self, s: &mut Scratch, tau_phase: f64) {
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
            if m >= 2 && !self.inside_words_only(s, t, w, m, n_t) {
                self.top.offer(t, ratio(m, n_t + n_w - m));
            }
        }
        true
    }

    /// Exact score of an (unposted) ASCII term `id`: best over all words.
    pub(super) fn ascii_score_all_words(&self, s: &Scratch, id: u32, toks: &[U32]) -> f64 {
        let mut best = 0.0;
        for w in 0..s.word_meta.len() {
            let n_w = s.word_meta[w].0 as usize;
            if n_w < 2 {
                continue;
            }
            let m = overlap(toks, &s.word_ids[s.word_off[w] as usize..s.word_off[w + 1] as usize]);
            if m >= 2 && !self.inside_words_only(s, id, w, m, toks.len()) {
                let score = ratio(m, toks.len() + n_w - m);
                if score > best {
                    best = score;
                }
            }
        }
        best
    }
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
