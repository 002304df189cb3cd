//! Terms and explanations as one byte blob with offsets.

use crate::index::header::checksum;
use crate::matching::TermSource;

/// Entry `i` is `blob[bounds[2i]..bounds[2i+1]]` (term) and `blob[bounds[2i+1]..bounds[2i+2]]`
/// (explanation). `checks[i]` is a checksum of both, verified before an entry is shown, so a
/// damaged file cannot put wrong text in front of the model.
#[derive(rkyv::Archive, rkyv::Serialize, Debug, Default)]
pub struct Entries {
    blob: Vec<u8>,
    bounds: Vec<u32>,
    checks: Vec<u32>,
}

impl Entries {
    pub fn build<'a>(entries: impl ExactSizeIterator<Item = (&'a str, &'a str)>) -> Entries {
        let n = entries.len();
        let mut e = Entries {
            blob: Vec::new(),
            bounds: Vec::with_capacity(2 * n + 1),
            checks: Vec::with_capacity(n),
        };
        e.bounds.push(0);
        for (term, explanation) in entries {
            e.blob.extend_from_slice(term.as_bytes());
            e.bounds.push(offset(e.blob.len()));
            e.blob.extend_from_slice(explanation.as_bytes());
            e.bounds.push(offset(e.blob.len()));
            e.checks.push(entry_check(term, explanation));
        }
        e
    }
}

impl Entries {
    /// Bytes held in the tables (to size the archive buffer).
    pub fn heap_bytes(&self) -> usize {
        self.blob.len() + 4 * (self.bounds.len() + self.checks.len())
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
    fn text(&self, at: usize) -> Option<&str> {
        let start = self.bounds.get(at)?.to_native() as usize;
        let end = self.bounds.get(at + 1)?.to_native() as usize;
        std::str::from_utf8(self.blob.get(start..end)?).ok()
    }
}

impl TermSource for ArchivedEntries {
    fn len(&self) -> usize {
        self.checks.len()
    }
    fn term(&self, id: u32) -> Option<&str> {
        self.text(2 * id as usize)
    }
    fn explanation(&self, id: u32) -> Option<&str> {
        self.text(2 * id as usize + 1)
    }
    fn verified(&self, id: u32) -> Option<(&str, &str)> {
        let (t, e) = (self.term(id)?, self.explanation(id)?);
        (self.checks.get(id as usize)?.to_native() == entry_check(t, e)).then_some((t, e))
    }
}
