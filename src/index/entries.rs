//! Terms and explanations as one byte blob with offsets.

use crate::index::header::checksum;
use crate::matching::TermSource;

/// Entry `i` is described by three words of `table`: where its term starts in `blob`, where its
/// explanation starts, and a checksum of both, verified before the entry is shown, so that a
/// damaged file cannot put wrong text in front of the model. An explanation ends where the next
/// entry's term starts; a last word holds the blob's length.
///
/// The three words sit together because the hook reads them together, from a mapped file it
/// reads cold: in separate tables, each hit would cost one more page fault.
#[derive(rkyv::Archive, rkyv::Serialize, Debug)]
pub struct Entries {
    blob: Vec<u8>,
    table: Vec<u32>,
}

impl Default for Entries {
    fn default() -> Entries {
        Entries { blob: Vec::new(), table: vec![0] }
    }
}

impl Entries {
    pub fn build(entries: &[(&str, &str)]) -> Entries {
        // Sized up front: at 100k terms the blob is tens of megabytes, and growing it by
        // doubling would copy it and fault in fresh pages several times over.
        let text: usize = entries.iter().map(|(t, e)| t.len() + e.len()).sum();
        let mut e = Entries {
            blob: Vec::with_capacity(text),
            table: Vec::with_capacity(3 * entries.len() + 1),
        };
        for &(term, explanation) in entries {
            e.table.push(offset(e.blob.len()));
            e.blob.extend_from_slice(term.as_bytes());
            e.table.push(offset(e.blob.len()));
            e.blob.extend_from_slice(explanation.as_bytes());
            e.table.push(entry_check(term, explanation));
        }
        e.table.push(offset(e.blob.len()));
        e
    }
}

impl Entries {
    /// Bytes held in the tables (to size the archive buffer).
    pub fn heap_bytes(&self) -> usize {
        self.blob.len() + 4 * self.table.len()
    }
}

fn offset(len: usize) -> u32 {
    u32::try_from(len).expect("the glossary's text is under 4 GiB")
}

fn entry_check(term: &str, explanation: &str) -> u32 {
    let h = checksum(term.as_bytes()) ^ checksum(explanation.as_bytes()).rotate_left(17);
    (h ^ (h >> 32)) as u32
}

impl ArchivedEntries {
    /// Word `k` of entry `id`'s record.
    fn word(&self, id: u32, k: usize) -> Option<usize> {
        let at = (id as usize).checked_mul(3)? + k;
        Some(self.table.get(at)?.to_native() as usize)
    }

    fn text(&self, start: usize, end: usize) -> Option<&str> {
        simdutf8::basic::from_utf8(self.blob.get(start..end)?).ok()
    }
}

impl TermSource for ArchivedEntries {
    fn len(&self) -> usize {
        self.table.len().saturating_sub(1) / 3
    }
    fn term(&self, id: u32) -> Option<&str> {
        self.text(self.word(id, 0)?, self.word(id, 1)?)
    }
    fn explanation(&self, id: u32) -> Option<&str> {
        self.text(self.word(id, 1)?, self.word(id, 3)?)
    }
    fn verified(&self, id: u32) -> Option<(&str, &str)> {
        let (t, e) = (self.term(id)?, self.explanation(id)?);
        (self.word(id, 2)? == entry_check(t, e) as usize).then_some((t, e))
    }
}
