//! Small open-addressing hash maps, reused from call to call: the working memory of the build
//! (bigram keys to temporary ids) and of the search (message bigrams, words, scored terms).
//!
//! Kept apart because they are general-purpose containers, not part of the prefilter's logic
//! or of the file format (they only borrow the table's hash, `slot_hash`).

use super::layout::slot_hash;

/// Growable open-addressing map from u64 keys (never `u64::MAX`) to u32, reused across calls.
#[derive(Default)]
pub(super) struct KeyMap {
    /// Key and value side by side: one cache line per probe.
    slots: Vec<(u64, u32)>,
    len: usize,
}

impl KeyMap {
    pub(super) const EMPTY: u64 = u64::MAX;

    /// Empty table sized for `expected` keys (up to a cap: larger inputs grow it).
    pub(super) fn reset(&mut self, expected: usize) {
        self.reserve(expected.min(1 << 15));
    }

    /// Empty table sized for `expected` keys.
    pub(super) fn reserve(&mut self, expected: usize) {
        let size = (expected.saturating_mul(2)).max(16).next_power_of_two();
        self.slots.clear();
        self.slots.resize(size, (Self::EMPTY, 0));
        self.len = 0;
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<u32> {
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
    pub(super) fn get_or_insert(&mut self, key: u64, val: u32) -> (u32, bool) {
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
pub(super) struct TagMap {
    keys: Vec<u32>,
    vals: Vec<u32>,
    tags: Vec<u32>,
    generation: u32,
    len: usize,
}

impl TagMap {
    pub(super) fn clear(&mut self) {
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
    pub(super) fn get(&self, key: u32) -> Option<u32> {
        match self.slot(key) {
            (i, true) => Some(self.vals[i]),
            _ => None,
        }
    }

    /// Sets `key` to `val`; returns whether the key was new.
    #[inline]
    pub(super) fn set(&mut self, key: u32, val: u32) -> bool {
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
