//! The build: from a list of terms to the automaton's tables.
//!
//! Runs at record time, never in the hook. Kept apart from the search because it works on its
//! own structures (sorted keys, 16-byte slots, bitsets of free slots and used bases), which the
//! search never sees: all the two share is the layout.

use super::layout::{Automaton, BASE_SHIFT, BLOCK, FAIL_SHIFT, FLAG_OUT, MAX_SLOTS, NONE, NO_BASE};

/// Blocks whose free slots are still offered to new states. Older blocks are closed: their
/// leftover slots stay empty. A small window keeps the search for a base short (darts-clone
/// uses the same figure) at the cost of a few percent of empty slots.
const OPEN_BLOCKS: usize = 16;
/// The newest blocks searched for a state with several children.
const MULTI_BLOCKS: usize = 2;

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
            whole_words: false,
        }
    }
}
