//! Terms and explanations as records in one byte blob, found by id through a table of offsets,
//! or directly by offset from an automaton hit.

use crate::index::header::checksum;
use crate::matching::TermSource;

/// The entries as *records* back to back in `blob`, in id order, each one a 16-byte head and
/// then the text:
///
/// ```text
/// [check: u32][id: u32][term length: u32][explanation length: u32][term][explanation]
/// ```
///
/// (little-endian, unaligned). `starts[id]` is where record `id` starts. The check is a
/// checksum of the id and both texts, verified before an entry is shown, so that a damaged file
/// cannot put wrong text in front of the model.
///
/// A record holds everything about its entry because the hook reads it from a mapped file it
/// reads cold, where every separate place costs a page fault: the automaton reports a found
/// term by its record's offset (see [`Entries::record_starts`]), so a hit goes straight to its
/// text, without a lookup in `starts`. The other readers (`record`, the fuzzy prefilter, the
/// LLM step) go by id, through `starts`.
#[derive(rkyv::Archive, rkyv::Serialize, Debug, Default, Clone)]
pub struct Entries {
    blob: Vec<u8>,
    starts: Vec<u32>,
}

/// Bytes of a record's head.
const HEAD: usize = 16;

impl Entries {
    pub fn build(entries: &[(&str, &str)]) -> Entries {
        // Sized up front: at 100k terms the blob is tens of megabytes, and growing it by
        // doubling would copy it and fault in fresh pages several times over.
        let text: usize = entries.iter().map(|(t, e)| HEAD + t.len() + e.len()).sum();
        let mut e =
            Entries { blob: Vec::with_capacity(text), starts: Vec::with_capacity(entries.len()) };
        for (id, &(term, explanation)) in entries.iter().enumerate() {
            let id = u32::try_from(id).expect("fewer than 2^32 entries");
            e.starts.push(offset(e.blob.len()));
            let check = entry_check(id, term, explanation);
            for word in [check, id, offset(term.len()), offset(explanation.len())] {
                e.blob.extend_from_slice(&word.to_le_bytes());
            }
            e.blob.extend_from_slice(term.as_bytes());
            e.blob.extend_from_slice(explanation.as_bytes());
        }
        // The archive's offsets are 32-bit: the last record must end below 4 GiB too.
        let _ = offset(e.blob.len());
        e
    }

    /// Where each record starts, by id: what the automaton is to report for each term.
    /// Increasing, so hits sorted by it are in glossary order.
    pub fn record_starts(&self) -> &[u32] {
        &self.starts
    }

    /// Bytes held in the tables (to size the archive buffer).
    pub fn heap_bytes(&self) -> usize {
        self.blob.len() + 4 * self.starts.len()
    }
}

fn offset(len: usize) -> u32 {
    u32::try_from(len).expect("the glossary's text is under 4 GiB")
}

fn entry_check(id: u32, term: &str, explanation: &str) -> u32 {
    let h = checksum(term.as_bytes()) ^ checksum(explanation.as_bytes()).rotate_left(17);
    let h = h ^ u64::from(id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h ^ (h >> 32)) as u32
}

/// One record, read from the archive; the texts are UTF-8-checked but not yet verified.
struct Record<'a> {
    check: u32,
    id: u32,
    term: &'a str,
    explanation: &'a str,
}

impl Record<'_> {
    fn verified(&self) -> bool {
        self.check == entry_check(self.id, self.term, self.explanation)
    }
}

impl ArchivedEntries {
    /// The record that starts at byte `at` of the blob, if it is whole and its texts are UTF-8.
    fn record_at(&self, at: usize) -> Option<Record<'_>> {
        let head = self.blob.get(at..at.checked_add(HEAD)?)?;
        let word = |k: usize| u32::from_le_bytes(head[4 * k..4 * k + 4].try_into().expect("4"));
        let term_at = at + HEAD;
        let explanation_at = term_at.checked_add(word(2) as usize)?;
        let end = explanation_at.checked_add(word(3) as usize)?;
        Some(Record {
            check: word(0),
            id: word(1),
            term: self.text(term_at, explanation_at)?,
            explanation: self.text(explanation_at, end)?,
        })
    }

    /// Record `id`, found through `starts`, if it says it is record `id`.
    fn record(&self, id: u32) -> Option<Record<'_>> {
        let at = self.starts.get(id as usize)?.to_native() as usize;
        self.record_at(at).filter(|r| r.id == id)
    }

    fn text(&self, start: usize, end: usize) -> Option<&str> {
        simdutf8::basic::from_utf8(self.blob.get(start..end)?).ok()
    }
}

impl TermSource for ArchivedEntries {
    fn len(&self) -> usize {
        self.starts.len()
    }
    fn term(&self, id: u32) -> Option<&str> {
        Some(self.record(id)?.term)
    }
    fn explanation(&self, id: u32) -> Option<&str> {
        Some(self.record(id)?.explanation)
    }
    fn verified(&self, id: u32) -> Option<(&str, &str)> {
        let r = self.record(id)?;
        r.verified().then_some((r.term, r.explanation))
    }
    fn reported(&self, value: u32) -> Option<(u32, &str, &str)> {
        let r = self.record_at(value as usize)?;
        r.verified().then_some((r.id, r.term, r.explanation))
    }
    fn reported_term(&self, value: u32) -> Option<(u32, &str)> {
        let r = self.record_at(value as usize)?;
        Some((r.id, r.term))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archived(entries: &Entries) -> rkyv::util::AlignedVec {
        rkyv::to_bytes::<rkyv::rancor::Error>(entries).expect("archive")
    }

    fn access(bytes: &[u8]) -> &ArchivedEntries {
        rkyv::access::<ArchivedEntries, rkyv::rancor::Error>(bytes).expect("valid archive")
    }

    const PAIRS: [(&str, &str); 3] = [("智能抠图", "BGRemover"), ("提交", "不要 push"), ("x", "")];

    #[test]
    fn by_id_and_by_record_start() {
        let entries = Entries::build(&PAIRS);
        let bytes = archived(&entries);
        let a = access(&bytes);
        assert_eq!(a.len(), 3);
        for (id, &(term, explanation)) in PAIRS.iter().enumerate() {
            let id = id as u32;
            assert_eq!(a.verified(id), Some((term, explanation)));
            let start = entries.record_starts()[id as usize];
            assert_eq!(a.reported(start), Some((id, term, explanation)));
        }
        assert!(entries.record_starts().windows(2).all(|w| w[0] < w[1]));
        assert_eq!(a.verified(3), None);
        // An offset inside a record is not a record.
        assert_eq!(a.reported(entries.record_starts()[1] + 1), None);
    }

    #[test]
    fn damage_is_never_shown() {
        let entries = Entries::build(&PAIRS);
        let text_at = |id: usize| entries.record_starts()[id] as usize + HEAD;
        // A flipped byte in a term or an explanation fails the checksum.
        for at in [text_at(0), text_at(0) + 12, text_at(1) + 3] {
            let mut damaged = entries.clone();
            damaged.blob[at] ^= 0x01;
            let bytes = archived(&damaged);
            let a = access(&bytes);
            let id = if at < text_at(1) { 0 } else { 1 };
            assert_eq!(a.verified(id), None, "flip at {at}");
            assert_eq!(a.reported(entries.record_starts()[id as usize]), None, "flip at {at}");
        }
        // A start that points at another (valid) record is refused by id, not shown as this one.
        let mut swapped = entries.clone();
        swapped.starts.swap(0, 1);
        let bytes = archived(&swapped);
        let a = access(&bytes);
        assert_eq!((a.verified(0), a.verified(1)), (None, None));
        assert_eq!(a.verified(2), Some(PAIRS[2]));
        // The checksum covers the id too: a record relabelled as another entry fails it.
        let mut relabelled = entries.clone();
        let id_at = entries.record_starts()[1] as usize + 4;
        relabelled.blob[id_at..id_at + 4].copy_from_slice(&0u32.to_le_bytes());
        relabelled.starts[0] = entries.record_starts()[1];
        let bytes = archived(&relabelled);
        assert_eq!(access(&bytes).verified(0), None);
    }
}
