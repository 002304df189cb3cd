//! Locking and atomic replacement of files.
//!
//! The discipline is git's and SQLite's: a reader sees either the old file or the new one,
//! never a mix, because a new version is written in full to a temporary file in the same
//! folder, flushed to disk, and renamed over the old one (rename within one file system is
//! atomic). Writers serialise on an advisory lock held on a separate lock file, which the
//! kernel releases when the process dies, so a killed writer never blocks the next one.
//!
//! Store files are read, appended to and locked through [`open_regular`], which never waits: a
//! FIFO or a device put where a store file belongs is refused instead of hanging the hook.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

// The error of `open_regular` for a path that holds something other than a regular file. It is
// defined with the error type, whose hint recognises it, so that `error` needs nothing here.
pub use crate::error::{is_not_regular, NotRegular};

/// An exclusive advisory lock on the store, released on drop or when the process exits.
#[derive(Debug)]
pub struct StoreLock {
    file: File,
}

impl StoreLock {
    /// The lock file, open for reading and writing (the journal keeps a record in its own).
    pub fn file(&self) -> &File {
        &self.file
    }

    pub fn acquire(path: &Path) -> Result<StoreLock> {
        let file = open_lock_file(path).map_err(|e| Error::io(path, "open lock file", e))?;
        file.lock().map_err(|e| Error::io(path, "lock", e))?;
        Ok(StoreLock { file })
    }

    pub fn try_acquire(path: &Path) -> Option<StoreLock> {
        let file = open_lock_file(path).ok()?;
        file.try_lock().ok()?;
        Some(StoreLock { file })
    }
}

fn open_lock_file(path: &Path) -> io::Result<File> {
    open_regular(path, OpenOptions::new().read(true).write(true).create(true).truncate(false))
}

/// Opens `path` with `options`, refusing anything but a regular file.
///
/// A FIFO or a device in place of a store file would make `open` or `read` wait for a writer
/// or a reader that never comes, and the hook, which sits in front of every prompt, must
/// answer. So the file is opened without blocking, which changes nothing for a regular file,
/// and its type is checked on the open file before it is used.
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        // Opening a FIFO for writing alone, with no reader, fails this way.
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ENXIO) {
            return NotRegular.into();
        }
        e
    })?;
    if !file.metadata()?.is_file() {
        return Err(NotRegular.into());
    }
    Ok(file)
}

/// Replaces `path` with `contents` atomically: a reader or a crash sees the old content or the
/// new, complete content, never a part.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    write_atomic_in_pieces(path, &[contents], usize::MAX)
}

/// [`write_atomic`] of a file only its owner may read (0600 on Unix, whatever the file had):
/// for files that hold settings (`config.json`'s `smart.apiKey`).
pub fn write_private(path: &Path, contents: &[u8]) -> Result<()> {
    let mut file = AtomicFile::create(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.file()
            .set_permissions(fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::io(path, "write", e))?;
    }
    file.file().write_all(contents).map_err(|e| Error::io(path, "write", e))?;
    file.commit()
}

/// Whether the file or folder at `path` may be read by others than its owner (group or other
/// bits set), on Unix; `false` when it is missing or elsewhere.
pub fn readable_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o077 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// [`write_atomic`] of the concatenation of `parts`, handed to the kernel through a
/// [`PieceWriter`] of `piece` bytes.
pub fn write_atomic_in_pieces(path: &Path, parts: &[&[u8]], piece: usize) -> Result<()> {
    let mut file = AtomicFile::create(path)?;
    let written = (|| {
        let mut w = PieceWriter::new(file.file(), piece);
        for part in parts {
            w.write_all(part)?;
        }
        w.flush()
    })();
    written.map_err(|e| Error::io(path, "write", e))?;
    file.commit()
}

/// [`write_atomic`] without the two fsyncs: readers and concurrent writers still see one whole
/// version, but a power cut may leave the old content or an empty file. For state whose loss
/// costs nothing and that the hook writes (a session's de-duplication state), where the fsyncs
/// would cost more than the rest of its work.
pub fn write_replacing(path: &Path, contents: &[u8]) -> Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.file().write_all(contents).map_err(|e| Error::io(path, "write", e))?;
    file.finish(false)
}

/// A new version of a file, written under a temporary name next to it and renamed over it by
/// [`AtomicFile::commit`]. Dropped without a commit, the temporary file is removed.
pub struct AtomicFile {
    /// The path as the caller gave it, for messages.
    path: PathBuf,
    /// Where the rename goes: `path`, or the file a symbolic link at `path` points at.
    target: PathBuf,
    tmp: PathBuf,
    file: Option<File>,
}

impl AtomicFile {
    /// Creates the temporary file, readable and writable, with the permissions of the file it
    /// will replace.
    pub fn create(path: &Path) -> Result<AtomicFile> {
        // A symbolic link (a dotfiles setup) is written through: the file it points at is
        // replaced and the link stays. Renaming over the link would turn it into a plain file,
        // and the dotfiles copy would silently stop receiving changes.
        let resolved = fs::symlink_metadata(path)
            .is_ok_and(|m| m.file_type().is_symlink())
            .then(|| fs::canonicalize(path).ok())
            .flatten();
        let target = resolved.unwrap_or_else(|| path.to_path_buf());
        let tmp = temp_path(&target);
        let create = || OpenOptions::new().read(true).write(true).create_new(true).open(&tmp);
        let file = match create() {
            // The name carries our pid and a per-process counter, so a file already there was
            // left by a dead process that had our pid (killed mid-write): stale, not a rival.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let _ = fs::remove_file(&tmp);
                create()
            }
            other => other,
        }
        .map_err(|e| Error::io(path, "write", e))?;
        // Keep the permissions of the file we replace (a user may have made it private).
        if let Ok(meta) = fs::metadata(&target) {
            let _ = file.set_permissions(meta.permissions());
        }
        Ok(AtomicFile { path: path.to_path_buf(), target, tmp, file: Some(file) })
    }

    /// The temporary file, to write the new content into.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("the file is there until commit")
    }

    /// Flushes the new content to disk and renames it over the old file.
    pub fn commit(self) -> Result<()> {
        self.finish(true)
    }

    /// Renames the new content over the old file, flushed to disk first when `durable`.
    fn finish(mut self, durable: bool) -> Result<()> {
        let file = self.file.take().expect("committed once");
        let done = (|| {
            if durable {
                file.sync_all()?;
            }
            drop(file);
            fs::rename(&self.tmp, &self.target)?;
            // The rename itself must reach the disk too, or a power cut may undo it.
            let dir = self.target.parent().filter(|p| !p.as_os_str().is_empty());
            if let Some(d) = durable.then(|| File::open(dir.unwrap_or(Path::new(".")))) {
                let _ = d.and_then(|d| d.sync_all());
            }
            Ok(())
        })();
        done.map_err(|e| {
            let _ = fs::remove_file(&self.tmp);
            Error::io(&self.path, "write", e)
        })
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// Hands what is written to `inner` in pieces of `piece` bytes that start at multiples of
/// `piece` from where it began, however the writes it receives are cut; a last, partial piece
/// goes out on [`flush`](Write::flush).
///
/// Why this matters for the index, which the hook maps: the page cache keeps a file in folios
/// sized and aligned by the writes that filled it, and a page fault on a mapping maps up to a
/// whole folio. Written in one large call, the index sits in folios of up to 2 MiB, and each
/// lookup the hook makes would add megabytes to its resident set. Written in aligned 64 KiB
/// pieces, a lookup maps one 64 KiB folio, which is also the kernel's fault-around window; in
/// 4 KiB folios the same lookup would map sixteen separately, several times slower.
pub struct PieceWriter<W: Write> {
    inner: W,
    piece: usize,
    /// Bytes handed to `inner` so far, always a multiple of `piece` until the flush.
    written: usize,
    /// The start of the next piece, when a write ended inside it.
    stage: Vec<u8>,
}

impl<W: Write> PieceWriter<W> {
    pub fn new(inner: W, piece: usize) -> PieceWriter<W> {
        PieceWriter { inner, piece: piece.max(1), written: 0, stage: Vec::new() }
    }

    /// Bytes received so far.
    pub fn position(&self) -> usize {
        self.written + self.stage.len()
    }
}

impl<W: Write> Write for PieceWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.piece == usize::MAX {
            // No pieces: everything goes straight through.
            self.inner.write_all(buf)?;
            self.written += buf.len();
            return Ok(buf.len());
        }
        if self.stage.is_empty() && buf.len() >= self.piece {
            // A whole piece straight from the caller's buffer; one per call, as the folio
            // sizes follow the sizes of the writes.
            self.inner.write_all(&buf[..self.piece])?;
            self.written += self.piece;
            return Ok(self.piece);
        }
        let take = (self.piece - self.stage.len()).min(buf.len());
        self.stage.extend_from_slice(&buf[..take]);
        if self.stage.len() == self.piece {
            self.inner.write_all(&self.stage)?;
            self.written += self.piece;
            self.stage.clear();
        }
        Ok(take)
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.stage.is_empty() {
            self.inner.write_all(&self.stage)?;
            self.written += self.stage.len();
            self.stage.clear();
        }
        self.inner.flush()
    }
}

/// A temporary name next to `path`, unique to this process and call.
fn temp_path(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()))
}

/// Whether `name` is one of `temp_path`'s names for a file named `file`:
/// `.<file>.<pid>.<n>.tmp`.
pub fn is_temp_name_of(name: &str, file: &str) -> bool {
    let middle = name
        .strip_prefix('.')
        .and_then(|n| n.strip_prefix(file))
        .and_then(|n| n.strip_prefix('.'))
        .and_then(|n| n.strip_suffix(".tmp"));
    middle.and_then(|m| m.split_once('.')).is_some_and(|(pid, n)| {
        [pid, n].iter().all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Reads a file, `Ok(None)` when it does not exist.
pub fn read_if_exists(path: &Path) -> Result<Option<Vec<u8>>> {
    match read_regular(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, "read", e)),
    }
}

/// The bytes of a regular file ([`open_regular`]).
fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = open_regular(path, OpenOptions::new().read(true))?;
    // `File`'s `read_to_end` sizes the buffer from the file's length itself.
    let mut bytes = Vec::new();
    io::Read::read_to_end(&mut file, &mut bytes)?;
    Ok(bytes)
}

/// Turns a serde_json error into our error, naming the file and the line. `expected` says what
/// the file should hold, for errors where the JSON is valid but of the wrong shape.
pub fn json_error(path: &Path, bytes: &[u8], e: &serde_json::Error, expected: &str) -> Error {
    let detail = json_detail(e);
    let problem = match e.classify() {
        // serde's own words for a wrong shape ("invalid type: …") need the shape we expected;
        // our own checks (a repeated term) say it all, and so does a visitor of ours that
        // names the shape already (`[]` for a glossary).
        serde_json::error::Category::Data
            if detail.starts_with("invalid ") && !detail.contains(expected) =>
        {
            format!("{detail} (expected {expected})")
        }
        serde_json::error::Category::Data => detail.clone(),
        _ => format!("not valid JSON: {detail}"),
    };
    let mut line = (e.line() > 0).then_some(e.line());
    if detail.starts_with("trailing comma") {
        // serde_json points at the bracket after the comma; a person looks for the comma.
        line = line.map(|l| line_of_comma_before(bytes, l, e.column()));
    }
    Error::BadFile { path: path.to_path_buf(), line, problem }
}

/// serde_json's message without its " at line L column C" ending: we report the line on its
/// own.
pub fn json_detail(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    }
}

/// The line of the last non-blank byte before (line, column), both 1-based.
fn line_of_comma_before(bytes: &[u8], line: usize, column: usize) -> usize {
    let line_start = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(line.saturating_sub(2))
        .map_or(0, |(i, _)| i + 1);
    let at = if line == 1 { 0 } else { line_start } + column.saturating_sub(1);
    let before = &bytes[..at.min(bytes.len())];
    match before.iter().rposition(|b| !b.is_ascii_whitespace()) {
        Some(i) => 1 + before[..i].iter().filter(|&&b| b == b'\n').count(),
        None => line,
    }
}

/// Appends to a log file; when the file has grown past `cap` bytes, its older half is dropped
/// first (whole lines), so the log never grows without bound.
pub fn append_capped(path: &Path, line: &[u8], cap: u64) -> io::Result<()> {
    if fs::metadata(path).map(|m| m.len() > cap).unwrap_or(false) {
        let old = read_regular(path)?;
        let half = old.len() / 2;
        let cut = old[half..].iter().position(|&b| b == b'\n').map_or(old.len(), |i| half + i + 1);
        let _ = write_atomic(path, &old[cut..]);
    }
    let mut file = open_regular(path, OpenOptions::new().create(true).append(true))?;
    file.write_all(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records each write call.
    #[derive(Default)]
    struct Calls(Vec<Vec<u8>>);

    impl Write for Calls {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn pieces_are_aligned_whole_and_complete() {
        let data: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        for piece in [1, 7, 64, 100, 999, 1000, 4096, usize::MAX] {
            for cuts in [vec![], vec![0], vec![3], vec![128, 129], vec![64, 500, 500, 999]] {
                let mut parts = Vec::new();
                let mut from = 0;
                for &cut in &cuts {
                    parts.push(&data[from..cut]);
                    from = cut;
                }
                parts.push(&data[from..]);
                let mut calls = Calls::default();
                let mut w = PieceWriter::new(&mut calls, piece);
                for part in &parts {
                    w.write_all(part).unwrap();
                }
                assert_eq!(w.position(), data.len());
                w.flush().unwrap();
                let written: Vec<u8> = calls.0.concat();
                assert_eq!(written, data, "piece {piece}, cuts {cuts:?}");
                if piece == usize::MAX {
                    continue; // no pieces: written through as it comes
                }
                // Every write is one piece, starting at a multiple of `piece`, but for the last,
                // which may be shorter.
                let mut at = 0;
                for (i, call) in calls.0.iter().enumerate() {
                    assert_eq!(at % piece, 0, "piece {piece}, cuts {cuts:?}: call {i} at {at}");
                    if i + 1 < calls.0.len() {
                        assert_eq!(call.len(), piece, "piece {piece}, cuts {cuts:?}: call {i}");
                    } else {
                        assert!(call.len() <= piece, "piece {piece}, cuts {cuts:?}: last call");
                    }
                    at += call.len();
                }
            }
        }
    }
}
