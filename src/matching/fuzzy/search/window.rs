//! The window phase: every other term (CJK, mixed), scored against the windows of the
//! prompt of its own length to two chars longer, or against the whole of a short prompt.
//!
//! Kept apart from the ASCII phase because the two find and score their terms differently
//! (see there).

use super::{bar_factor, min_overlap, ratio, touch_blocks, touch_groups};
use super::{Query, Scratch, SCORED, U32};

impl Query<'_> {
    /// One phase over the window terms: every term scoring ≥ `tau` is offered.
    pub(super) fn window_phase(&mut self, s: &mut Scratch, tau_phase: f64) {
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
    pub(super) fn window_score(&self, s: &mut Scratch, toks: &[U32], need: usize, tau: f64) -> f64 {
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
