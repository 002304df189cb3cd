//! The precompiled index: everything the hook needs, in one file it maps and reads in place.
//!
//! # File layout
//!
//! ```text
//! 0    magic "TLINGOIX"            8 bytes
//! 8    format version              u32 LE  (FORMAT_VERSION)
//! 12   header length               u32 LE  (128)
//! 16   archive length              u64 LE
//! 24   glossary.json fingerprint   5 × u64 LE (size, mtime ns, ctime ns, inode, device)
//! 64   config.json fingerprint     5 × u64 LE (all ones when the file is absent)
//! 104  checksum of the archive's last 256 bytes (where rkyv puts the root object)
//! 112  checksum of bytes 0..112
//! 120  reserved (zero)
//! 128  rkyv archive of [`IndexData`]
//! ```
//!
//! The fingerprints let the hook tell, with one `stat` per source file, whether the index still
//! describes what is on disk: a hand edit of `glossary.json` or `config.json` changes its
//! size, mtime or ctime (ctime cannot be set back by any tool), and a replaced file changes its
//! inode. When anything does not match, the hook answers from the JSON files instead and
//! rewrites the index for the next prompt ([`HookIndex::open`]).
//!
//! # Why the archive is shaped like this
//!
//! rkyv's checked access validates every object it can reach. Terms and explanations are
//! therefore not archived as a `Vec<String>` (which would validate every string's UTF-8, in
//! time that grows with the glossary) but as one byte blob with offsets ([`Entries`]); the
//! automaton and the fuzzy prefilter are flat integer tables. Validation then touches a
//! constant number of objects whatever the glossary's size, and the hook's cost is the pages
//! the search itself touches. A damaged table cannot make the hook lie: every reported hit is
//! checked against the prompt and against a per-entry checksum before it is printed.

mod entries;
mod header;

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use memmap2::Mmap;
use rkyv::ser::writer::IoWriter;
use rkyv::util::AlignedVec;

pub use entries::{ArchivedEntries, Entries};
pub use header::{Fingerprint, FORMAT_VERSION, HEADER_LEN};

use crate::error::{Error, Result};
use crate::matching::automaton::Automaton;
use crate::matching::case;
use crate::matching::fuzzy::FuzzyIndex;
use crate::matching::TermSource;
use crate::store::config::{Config, Settings};
use crate::store::files::{self, write_atomic_in_pieces, AtomicFile, PieceWriter};
use crate::store::{Glossary, Store};

/// The archived content of the index file.
#[derive(rkyv::Archive, rkyv::Serialize, Debug)]
pub struct IndexData {
    pub settings: Settings,
    pub entries: Entries,
    pub automaton: Automaton,
    pub fuzzy: FuzzyIndex,
}

/// Builds everything the index holds for a glossary and settings.
pub fn build(glossary: &Glossary, settings: &Settings) -> IndexData {
    let pairs: Vec<(&str, &str)> = glossary.iter().collect();
    // The three parts are independent; at 100k terms each takes tens of milliseconds, and
    // `record` has a budget of 250 ms, so small glossaries are built on one thread and large
    // ones spread over the cores.
    let (entries, mut automaton, mut fuzzy) = if pairs.len() < PARALLEL_BUILD_FROM {
        (Entries::build(&pairs), build_automaton(&pairs), FuzzyIndex::build(pairs.as_slice()))
    } else {
        std::thread::scope(|s| {
            let automaton = s.spawn(|| build_automaton(&pairs));
            let fuzzy = s.spawn(|| FuzzyIndex::build(pairs.as_slice()));
            let entries = Entries::build(&pairs);
            (entries, join(automaton), join(fuzzy))
        })
    };
    // A hit leads straight to its entry's record (see `Entries`).
    automaton.map_ids(entries.record_starts());
    // The engines follow `matching.wordBoundary` themselves: the hook searches them without
    // looking at the settings.
    let whole_words = settings.matching.word_boundary;
    automaton.set_whole_words(whole_words);
    fuzzy.whole_words = whole_words;
    // The index keeps only the settings the hook needs: not `smart.apiKey`, which the hook reads
    // from config.json when it calls the model (the index is a file other processes may read,
    // and a project's sits in a work tree that archives and build contexts pick up).
    let mut settings = settings.clone();
    settings.smart.api_key = String::new();
    IndexData { settings, entries, automaton, fuzzy }
}

/// Builds the archive (without header) for a glossary and settings, in memory.
pub fn build_archive(glossary: &Glossary, settings: &Settings) -> AlignedVec {
    let data = build(glossary, settings);
    // Sized up front: growing a buffer of tens of megabytes by doubling copies it repeatedly.
    // A generous guess costs nothing: pages of a large allocation that are never written are
    // never committed.
    let estimate = 2 * data.entries.heap_bytes() + 128 * glossary.len() + 4096;
    let buffer = AlignedVec::with_capacity(estimate);
    rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(&data, buffer)
        .expect("archiving into memory cannot fail")
}

/// Below this many terms the index is built on one thread: spawning costs more than it saves.
const PARALLEL_BUILD_FROM: usize = 5_000;

/// The automaton over every term folded (see `matching::case`): the hook searches the prompt
/// folded and checks each term's own case where it is found. The folded terms are written into
/// one buffer, not one allocation each: at a million terms that is a million allocations fewer.
fn build_automaton(pairs: &[(&str, &str)]) -> Automaton {
    let mut folded = Vec::with_capacity(pairs.iter().map(|(t, _)| t.len()).sum());
    let mut ends = Vec::with_capacity(pairs.len());
    for (term, _) in pairs {
        let start = folded.len();
        folded.extend_from_slice(term.as_bytes());
        case::fold_in_place(&mut folded[start..]);
        ends.push(folded.len());
    }
    let starts = std::iter::once(0).chain(ends.iter().copied());
    let keys: Vec<&[u8]> = starts.zip(&ends).map(|(start, &end)| &folded[start..end]).collect();
    Automaton::build(&keys)
}

/// Joins a builder thread, passing its panic on (a panic there is a bug, as it would be inline).
fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Checked access to an archive. Cheap: the archive's shape keeps validation constant-time.
pub fn access(archive: &[u8]) -> Option<&ArchivedIndexData> {
    rkyv::access::<ArchivedIndexData, rkyv::rancor::Failure>(archive).ok()
}

/// The fingerprints of the store's two source files, as they are now.
pub fn source_fingerprints(store: &Store) -> (Fingerprint, Fingerprint) {
    (Fingerprint::of(&store.glossary_path()), Fingerprint::of(&store.config_path()))
}

/// Writes the index file for `archive`, built from the sources whose fingerprints are given.
/// The caller holds the store's lock.
pub fn write(store: &Store, archive: &[u8], sources: (Fingerprint, Fingerprint)) -> Result<()> {
    let header = header::encode(archive, sources.0, sources.1);
    write_atomic_in_pieces(&store.index_path(), &[&header, archive], INDEX_PIECE)
}

/// The index is written in aligned pieces of this size: it keeps the hook's page faults cheap
/// and its resident set small (see [`PieceWriter`]).
const INDEX_PIECE: usize = 64 * 1024;

/// Writes the index file for `data`, serialising it straight into the file: at 100k terms the
/// archive is some 30 MB, which `record` then never holds in memory, nor copies. `sources`
/// gives the fingerprints of the files the data was built from; it is called once the archive
/// is written (or failed to be), so a caller can still be writing `glossary.json` meanwhile.
/// The caller holds the store's lock.
pub fn write_data(
    store: &Store,
    data: &IndexData,
    sources: impl FnOnce() -> Result<(Fingerprint, Fingerprint)>,
) -> Result<()> {
    let path = store.index_path();
    let mut file = AtomicFile::create(&path)?;
    let io_error = |e| Error::io(&path, "write", e);
    // The header goes first in the file but is written last: it covers the archive's length
    // and end, and the sources' fingerprints.
    let written = serialise_after_header(file.file(), data);
    // A failure to write the sources (glossary.json, in `record`) is the one to report first,
    // even when the index could not be written either (a full disk fails both).
    let (glossary, config) = sources()?;
    let archive_len = written.map_err(io_error)?;
    let tail_len = archive_len.min(header::TAIL_LEN);
    let mut tail = vec![0u8; tail_len];
    let f = file.file();
    f.seek(SeekFrom::Start((HEADER_LEN + archive_len - tail_len) as u64))
        .and_then(|_| f.read_exact(&mut tail))
        .map_err(io_error)?;
    let head = header::encode_parts(archive_len, &tail, glossary, config);
    f.seek(SeekFrom::Start(0)).and_then(|_| f.write_all(&head)).map_err(io_error)?;
    file.commit()
}

/// Writes a blank header and then the archive of `data`; returns the archive's length.
fn serialise_after_header(file: &mut File, data: &IndexData) -> std::io::Result<usize> {
    let mut w = PieceWriter::new(file, INDEX_PIECE);
    w.write_all(&[0u8; HEADER_LEN])?;
    // rkyv aligns relative to the writer's start, which is the archive's start: HEADER_LEN is
    // a multiple of 16, so the mapped archive is aligned as rkyv expects.
    let w = rkyv::api::high::to_bytes_in::<_, rkyv::rancor::Error>(data, IoWriter::new(w))
        .map_err(std::io::Error::other)?;
    let mut w = w.into_inner();
    let len = w.position() - HEADER_LEN;
    w.flush()?;
    Ok(len)
}

/// Rebuilds the index from what is on disk now. The caller holds the store's lock.
pub fn rebuild(store: &Store, glossary: &Glossary, settings: &Settings) -> Result<()> {
    // Fingerprints first, of the files just written or read: if someone edits one while the
    // archive is built, the index then no longer matches it, and the hook reads the edit from
    // the file. Taken after the build, they would describe the edit and hide it.
    let sources = source_fingerprints(store);
    write_data(store, &build(glossary, settings), || Ok(sources))
}

/// Where the hook's index lives: the mapped file, or an archive built in memory because the file
/// was missing, stale or damaged.
enum Backing {
    Mapped(Mmap),
    Built(AlignedVec),
}

/// The index file, mapped, when it is current (its fingerprints match the files on disk): what
/// `record` and `remove` read the glossary from, through [`CurrentIndex::glossary`].
///
/// The index holds a verified copy of the glossary, and borrowing the entries from there costs
/// a few milliseconds at 100k terms, where parsing `glossary.json` into owned strings costs
/// tens (most of it in the memory those strings take).
pub struct CurrentIndex(Mmap);

impl CurrentIndex {
    /// Maps the store's index if it is current. The caller holds the store's lock, so that no
    /// other writer replaces the files in between.
    pub fn open(store: &Store) -> Option<CurrentIndex> {
        open_mapped(&store.index_path(), source_fingerprints(store), Reading::Whole)
            .ok()
            .map(CurrentIndex)
    }

    /// The glossary the index was built from; `None` if any entry fails its checksum (the
    /// caller then reads `glossary.json`).
    ///
    /// Large glossaries are verified on two threads: checksums and UTF-8 checks over some
    /// 20 MB at 100k terms are most of what reading the glossary costs `record`.
    pub fn glossary(&self) -> Option<Glossary<'_>> {
        let entries = &access(&self.0[HEADER_LEN..])?.entries;
        let n = entries.len() as u32;
        let verify = |ids: std::ops::Range<u32>| -> Option<Vec<(&str, &str)>> {
            ids.map(|id| entries.verified(id)).collect()
        };
        let pairs = if (n as usize) < PARALLEL_BUILD_FROM {
            verify(0..n)?
        } else {
            let half = n / 2;
            let (first, second) = std::thread::scope(|s| {
                let first = s.spawn(|| verify(0..half));
                let second = verify(half..n);
                (join(first), second)
            });
            let mut pairs = first?;
            pairs.extend(second?);
            pairs
        };
        let mut glossary = Glossary::with_capacity(pairs.len());
        for (term, explanation) in pairs {
            glossary.insert(term, explanation);
        }
        Some(glossary)
    }
}

/// Runs `f` on the store's glossary for a command that only reads it (`list`, `search`,
/// `export`, `stats`): borrowed from the index when that is current, else read from
/// `glossary.json` (whose errors are the command's). No lock is taken: a writer replaces both
/// files by rename, and a mapping keeps the file it was made from.
pub fn read_glossary<R>(store: &Store, f: impl FnOnce(&Glossary) -> R) -> Result<R> {
    let current = CurrentIndex::open(store);
    match current.as_ref().and_then(CurrentIndex::glossary) {
        Some(glossary) => Ok(f(&glossary)),
        None => Ok(f(&Glossary::load(store)?)),
    }
}

/// The index as the hook uses it.
pub struct HookIndex {
    backing: Backing,
    /// Why the file could not be used, when it could not (for the debug log).
    pub fallback_reason: Option<String>,
    /// Set when `glossary.json` does not parse and the last good index is served instead
    /// ([`HookIndex::open_or_last_good`]).
    pub broken: Option<Broken>,
}

/// A glossary that does not parse, and what the hook serves meanwhile.
#[derive(Debug, Clone)]
pub struct Broken {
    /// The `glossary.json` that does not parse, and the line, when known.
    pub path: PathBuf,
    pub line: Option<usize>,
    /// When the last good index, whose entries the hook serves, was written; `None` when
    /// there is none to serve (the hook then adds no terms of this glossary).
    pub served_since: Option<SystemTime>,
}

impl Broken {
    /// The broken glossary `e` names, if `e` says a glossary does not parse.
    pub fn of(e: &Error, served_since: Option<SystemTime>) -> Option<Broken> {
        match e {
            Error::BadFile { path, line, .. } => {
                Some(Broken { path: path.clone(), line: *line, served_since })
            }
            _ => None,
        }
    }
}

impl HookIndex {
    /// Opens the store's index for the hook: stat the sources, map the file, check the header,
    /// checked access. When any of that fails the glossary and config are read from JSON, the
    /// answer comes from an archive built in memory, and the file is rewritten for the next
    /// prompt, unless a writer holds the lock (the hook never waits for one).
    pub fn open(store: &Store) -> Result<HookIndex> {
        HookIndex::open_with(store, false)
    }

    /// [`HookIndex::open`] for the prompt hook: while `glossary.json` does not parse (a bad hand
    /// edit, a merge conflict), the last good index is served instead of nothing, whatever
    /// its fingerprints say, and [`HookIndex::broken`] says so. "Last good" is the index file
    /// itself: only a glossary that parsed is ever built into it, and a glossary that does not
    /// parse is never built, so the file stays what the last good build wrote. Once the JSON
    /// parses again the index is rebuilt from it as usual. The CLI keeps refusing the file
    /// (`list`, `match`…), which is where the user reads the line to fix.
    pub fn open_or_last_good(store: &Store) -> Result<HookIndex> {
        HookIndex::open_with(store, true)
    }

    fn open_with(store: &Store, last_good: bool) -> Result<HookIndex> {
        let sources = source_fingerprints(store);
        let reason = match open_mapped(&store.index_path(), sources, Reading::Sparse) {
            Ok(map) => {
                return Ok(HookIndex {
                    backing: Backing::Mapped(map),
                    fallback_reason: None,
                    broken: None,
                })
            }
            Err(reason) => reason,
        };
        let glossary = match Glossary::load(store) {
            Ok(glossary) => glossary,
            Err(e) if last_good && matches!(e, Error::BadFile { .. }) => {
                let Ok((map, since)) = map_last_good(&store.index_path()) else { return Err(e) };
                let broken = Broken::of(&e, since);
                return Ok(HookIndex {
                    backing: Backing::Mapped(map),
                    fallback_reason: Some(format!("{reason}; {e}; the last good index served")),
                    broken,
                });
            }
            Err(e) => return Err(e),
        };
        // A broken config.json must not silence the glossary: its defaults apply instead.
        let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
        let archive = build_archive(&glossary, &settings);
        let mut reason = reason.to_string();
        if store.dir().is_dir() {
            if let Some(_lock) = store.try_lock() {
                // Only label the file with fingerprints that still describe what we read.
                if source_fingerprints(store) == sources {
                    if let Err(e) = write(store, &archive, sources) {
                        reason.push_str(&format!("; rewrite failed: {e}"));
                    }
                }
            }
        }
        Ok(HookIndex {
            backing: Backing::Built(archive),
            fallback_reason: Some(reason),
            broken: None,
        })
    }

    /// The archived data. `None` only if an archive we built ourselves fails validation, which
    /// would be a bug.
    pub fn data(&self) -> Option<&ArchivedIndexData> {
        match &self.backing {
            Backing::Mapped(map) => access(&map[HEADER_LEN..]),
            Backing::Built(archive) => access(archive),
        }
    }

    pub fn is_mapped(&self) -> bool {
        matches!(self.backing, Backing::Mapped(_))
    }
}

/// Why a mapped index file was not used.
#[derive(Debug, Clone, PartialEq)]
pub enum Unusable {
    Missing,
    Unreadable(String),
    Header(header::HeaderProblem),
    Stale,
    Invalid,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::Missing => f.write_str("index missing"),
            Unusable::Unreadable(e) => write!(f, "index unreadable: {e}"),
            Unusable::Header(p) => write!(f, "index header: {p}"),
            Unusable::Stale => f.write_str("index stale (glossary.json or config.json changed)"),
            Unusable::Invalid => f.write_str("index archive failed validation"),
        }
    }
}

/// Checks the header of a whole mapped index file (magic, version, checksums, length).
pub fn check_header(file: &[u8]) -> std::result::Result<(), Unusable> {
    header::decode(file).map(|_| ()).map_err(Unusable::Header)
}

/// How a mapped index is going to be read, which decides what the kernel is told about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The hook: a few dozen scattered places of a file of tens of megabytes.
    Sparse,
    /// `record` and `remove`: every entry, front to back.
    Whole,
}

/// Tells the kernel how the index will be read.
///
/// Always: no huge pages. The page cache may hold the file in large folios (after a large
/// write, or a read-ahead), which the kernel would otherwise map 2 MiB at a time on the first
/// touch, and the hook's resident memory must stay proportional to what it reads.
///
/// For the hook, also `MADV_RANDOM`, for the index read back after the page cache dropped it:
/// no read-around, so a fault reads the one page it needs instead of 128 KiB around it, and
/// what the page cache then holds of the file is the pages hooks use. That matters on every
/// later run, because a fault maps whatever the cache holds in the 64 KiB around the page
/// (fault-around), each page of it to be mapped, and unmapped again at exit. Measured
/// (`hookbench`, 300 alternating runs, 100k terms, caches dropped and one hook run before):
/// hook / no-op 1.25 without it, 1.10 with it. On an index fresh from `record`, written in
/// 64 KiB pieces and cached as such, it changes nothing (hook against hook 0.99–1.00). The
/// first run after the drop reads 26 pages from disk instead of 26 × 32.
fn advise(map: &Mmap, reading: Reading) {
    #[cfg(target_os = "linux")]
    {
        let _ = map.advise(memmap2::Advice::NoHugePage);
        if reading == Reading::Sparse {
            let _ = map.advise(memmap2::Advice::Random);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (map, reading);
}

/// Maps an index file, to be read as `reading` says, and checks it describes `sources`.
pub fn open_mapped(
    path: &Path,
    sources: (Fingerprint, Fingerprint),
    reading: Reading,
) -> std::result::Result<Mmap, Unusable> {
    map_checked(path, Some(sources), reading).map(|(map, _)| map)
}

/// [`open_mapped`], with the file; `sources: None` skips the fingerprints' check.
fn map_checked(
    path: &Path,
    sources: Option<(Fingerprint, Fingerprint)>,
    reading: Reading,
) -> std::result::Result<(Mmap, File), Unusable> {
    let file = match files::open_regular(path, OpenOptions::new().read(true)) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Unusable::Missing),
        Err(e) => return Err(Unusable::Unreadable(e.to_string())),
    };
    // SAFETY: the index is only ever replaced by rename, never written in place, so the mapped
    // inode's bytes do not change under us. Someone editing the file in place by hand could
    // change them; every access below is bounds-checked and validated, so that yields a wrong
    // or missing answer, not undefined behaviour in our code.
    let map = match unsafe { Mmap::map(&file) } {
        Ok(map) => map,
        // An empty file cannot be mapped.
        Err(_) if file.metadata().is_ok_and(|m| m.len() == 0) => {
            return Err(Unusable::Header(header::HeaderProblem::Truncated))
        }
        Err(e) => return Err(Unusable::Unreadable(e.to_string())),
    };
    advise(&map, reading);
    let head = header::decode(&map).map_err(Unusable::Header)?;
    if sources.is_some_and(|sources| (head.glossary, head.config) != sources) {
        return Err(Unusable::Stale);
    }
    if access(&map[HEADER_LEN..]).is_none() {
        return Err(Unusable::Invalid);
    }
    Ok((map, file))
}

/// The last good index of a glossary that no longer parses: the index file, checked as the
/// hook checks it but for the fingerprints (the broken edit changed them), and when it was
/// written. Only ever called once `glossary.json` failed to parse.
fn map_last_good(path: &Path) -> std::result::Result<(Mmap, Option<SystemTime>), Unusable> {
    let (map, file) = map_checked(path, None, Reading::Sparse)?;
    let since = file.metadata().and_then(|m| m.modified()).ok();
    Ok((map, since))
}

/// When the last good index of `store` was written, if `glossary.json` does not parse and
/// there is one the hook serves (what `doctor` reports).
pub fn last_good(store: &Store) -> Option<SystemTime> {
    match Glossary::load(store) {
        Err(Error::BadFile { .. }) => map_last_good(&store.index_path()).ok()?.1,
        _ => None,
    }
}
