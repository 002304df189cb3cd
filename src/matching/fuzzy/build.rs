//! The build of the prefilter's tables, at record time.
//!
//! Kept apart from the search, which only reads the archived tables: the build has its own
//! working memory (temporary bigram ids, counting sorts over every posting entry) and runs
//! once per glossary change, never in the hook.

use super::layout::{
    ascii_key, is_word_char, other_hash, raw_key, sig_bit, slot_hash, FuzzyIndex, ASCII_KIND,
    KIND_ASCII, KIND_NONE, KIND_SINGLE, KIND_WINDOW, MAX_POSTED,
};
use super::maps::KeyMap;
use crate::matching::TermSource;

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
            whole_words: false,
        }
    }
}
