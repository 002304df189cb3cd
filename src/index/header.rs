//! The index file's fixed header: what format it is, and which source files it was built from.

use std::path::Path;

/// Bumped whenever the archived layout changes; an index of another version is rebuilt.
/// 5: the settings carry the resolved `language`.
/// 6: the settings carry the thread journal's (`thread.enabled`, `thread.dir`, `thread.role`).
/// 7: `matching.wordBoundary`, in the settings and in the automaton and prefilter it shapes.
/// 8: the settings carry `stats.enabled` (the usage log).
/// 9: the settings carry `trust.folders` (the trusted project glossaries).
/// 10: `matching.wordBoundary` is on by default: an index built before, for a `config.json`
///     that does not name it, archived substring matching and would keep it.
/// 11: the settings carry `learn.capture` (the prompt hook's notice of captured proposals).
/// 12: the automaton holds every term folded (smart case, `matching::case`): an older one,
///     searched with the folded prompt, would miss every term with a capital.
pub const FORMAT_VERSION: u32 = 12;
/// The archive starts here; a multiple of 16 so the mapped archive is aligned for rkyv.
pub const HEADER_LEN: usize = 128;

const MAGIC: &[u8; 8] = b"TLINGOIX";
/// How much of the archive's end (rkyv's root object) the header's checksum covers.
pub const TAIL_LEN: usize = 256;

/// What one `stat` says about a source file; two equal fingerprints mean "not changed since".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint([u64; 5]);

impl Fingerprint {
    /// The fingerprint of a file absent (or unreadable) at stat time.
    pub const ABSENT: Fingerprint = Fingerprint([u64::MAX; 5]);

    pub fn of(path: &Path) -> Fingerprint {
        match std::fs::metadata(path) {
            Ok(meta) => Fingerprint::from_metadata(&meta),
            Err(_) => Fingerprint::ABSENT,
        }
    }

    #[cfg(unix)]
    fn from_metadata(meta: &std::fs::Metadata) -> Fingerprint {
        use std::os::unix::fs::MetadataExt;
        let ns = |s: i64, n: i64| (s as u64).wrapping_mul(1_000_000_000).wrapping_add(n as u64);
        Fingerprint([
            meta.size(),
            ns(meta.mtime(), meta.mtime_nsec()),
            ns(meta.ctime(), meta.ctime_nsec()),
            meta.ino(),
            meta.dev(),
        ])
    }

    #[cfg(not(unix))]
    fn from_metadata(meta: &std::fs::Metadata) -> Fingerprint {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos() as u64);
        Fingerprint([meta.len(), mtime, 0, 0, 0])
    }
}

/// The decoded header.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub version: u32,
    pub glossary: Fingerprint,
    pub config: Fingerprint,
}

/// Why a header was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum HeaderProblem {
    Truncated,
    NotAnIndex,
    OtherVersion(u32),
    Damaged,
}

impl std::fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderProblem::Truncated => f.write_str("file truncated"),
            HeaderProblem::NotAnIndex => f.write_str("not a tinylingo index"),
            HeaderProblem::OtherVersion(v) => {
                write!(f, "format version {v}, expected {FORMAT_VERSION}")
            }
            HeaderProblem::Damaged => f.write_str("checksum mismatch"),
        }
    }
}

pub fn encode(archive: &[u8], glossary: Fingerprint, config: Fingerprint) -> [u8; HEADER_LEN] {
    encode_parts(archive.len(), tail(archive), glossary, config)
}

/// [`encode`] from the archive's length and its last [`TAIL_LEN`] bytes (all of it if shorter),
/// for an archive that was written out without being kept.
pub fn encode_parts(
    archive_len: usize,
    archive_tail: &[u8],
    glossary: Fingerprint,
    config: Fingerprint,
) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    h[16..24].copy_from_slice(&(archive_len as u64).to_le_bytes());
    put_words(&mut h[24..64], &glossary.0);
    put_words(&mut h[64..104], &config.0);
    h[104..112].copy_from_slice(&checksum(archive_tail).to_le_bytes());
    let own = checksum(&h[0..112]);
    h[112..120].copy_from_slice(&own.to_le_bytes());
    h
}

/// Decodes and checks the header of a whole index file (header followed by archive).
pub fn decode(file: &[u8]) -> Result<Header, HeaderProblem> {
    let h = file.get(..HEADER_LEN).ok_or(HeaderProblem::Truncated)?;
    if &h[0..8] != MAGIC {
        return Err(HeaderProblem::NotAnIndex);
    }
    let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(HeaderProblem::OtherVersion(version));
    }
    if word(&h[112..120]) != checksum(&h[0..112])
        || u32::from_le_bytes(h[12..16].try_into().expect("4 bytes")) as usize != HEADER_LEN
    {
        return Err(HeaderProblem::Damaged);
    }
    let archive = &file[HEADER_LEN..];
    if word(&h[16..24]) != archive.len() as u64 {
        return Err(HeaderProblem::Truncated);
    }
    if word(&h[104..112]) != checksum(tail(archive)) {
        return Err(HeaderProblem::Damaged);
    }
    Ok(Header {
        version,
        glossary: Fingerprint(words(&h[24..64])),
        config: Fingerprint(words(&h[64..104])),
    })
}

fn tail(archive: &[u8]) -> &[u8] {
    &archive[archive.len().saturating_sub(TAIL_LEN)..]
}

fn put_words(out: &mut [u8], words: &[u64; 5]) {
    for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
        chunk.copy_from_slice(&w.to_le_bytes());
    }
}

fn word(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8 bytes"))
}

fn words(b: &[u8]) -> [u64; 5] {
    let mut out = [0u64; 5];
    for (w, chunk) in out.iter_mut().zip(b.chunks_exact(8)) {
        *w = word(chunk);
    }
    out
}

/// A 64-bit multiply-rotate hash of our own: stable across builds and platforms (the file
/// outlives the binary), and plenty to catch accidental damage. It is not a defence against deliberate tampering, which
/// needs write access to the user's config folder anyway.
pub fn checksum(bytes: &[u8]) -> u64 {
    // Eight bytes per step: `record` checksums every entry of the glossary (tens of megabytes
    // at 100k terms), where a byte-at-a-time hash cost tens of milliseconds. Each step is a
    // bijection of the state for a given word (xor, multiply by an odd constant, rotate), so
    // changing any one word always changes the result; the length is mixed in so that
    // zero padding of the last word cannot hide a truncation.
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let step = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(29);
    let mut h = 0xcbf2_9ce4_8422_2325 ^ (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        h = step(h, u64::from_le_bytes(w.try_into().expect("chunks of eight")));
    }
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    h = step(h, u64::from_le_bytes(last));
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let archive = vec![7u8; 1000];
        let g = Fingerprint([1, 2, 3, 4, 5]);
        let mut file = encode(&archive, g, Fingerprint::ABSENT).to_vec();
        file.extend_from_slice(&archive);
        let h = decode(&file).unwrap();
        assert_eq!((h.glossary, h.config), (g, Fingerprint::ABSENT));
        for i in 0..HEADER_LEN {
            let mut bad = file.clone();
            bad[i] ^= 0x40;
            assert!(decode(&bad).is_err() || i >= 120, "flip at {i} not caught");
        }
        let mut bad = file.clone();
        *bad.last_mut().unwrap() ^= 1;
        assert_eq!(decode(&bad), Err(HeaderProblem::Damaged));
        assert_eq!(decode(&file[..file.len() - 1]), Err(HeaderProblem::Truncated));
        assert_eq!(decode(&file[..10]), Err(HeaderProblem::Truncated));
    }
}
