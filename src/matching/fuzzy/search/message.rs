//! Preparing the prompt, once per query: its chars, its distinct bigrams with their index
//! bigrams and positions (for window terms), and its distinct words with their known tokens
//! (for ASCII terms).
//!
//! Kept apart from the phases because it runs once, before them, and reads the prompt and the
//! slot table only; the phases then read what it leaves in the scratch memory.

use super::{word_code, Query, Scratch, NO_BIG, WORD_CODES};
use crate::matching::fuzzy::layout::{ascii_key, is_word_byte, other_hash, raw_key};
use crate::matching::fuzzy::maps::KeyMap;

impl Query<'_> {
    /// Distinct raw bigrams of the message, their index bigrams and positions.
    pub(super) fn prepare_message(&self, s: &mut Scratch) {
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
    pub(super) fn prepare_words(&self, s: &mut Scratch, bytes: &[u8]) {
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
}
