//! How many entries a day's file holds, kept in the journal's lock file so that an append
//! need not read the whole day back to number its entry.
//!
//! The record (`thread-tally 1 <date> <size> <count>`) is written under the lock after each
//! append, and trusted only while the day's file still has the size it names: a hand edit, a
//! file written by an older version or a lost record makes the next append count the file
//! once, as it always did. Reading a busy day's file (hundreds of entries, each holding a
//! whole prompt) was the after-response hook's cost that grew through the day.

use std::fs::File;
#[cfg(unix)]
use std::os::unix::fs::FileExt;

const MAGIC: &str = "thread-tally 1";

/// What the last append left: the day, its file's size after the append, its entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tally {
    pub date: String,
    pub size: u64,
    pub count: usize,
}

/// The record in `lock`, if it holds one.
#[cfg(unix)]
pub fn read(lock: &File) -> Option<Tally> {
    let mut buf = [0u8; 96];
    let n = lock.read_at(&mut buf, 0).ok()?;
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    let mut words = text.strip_prefix(MAGIC)?.split_whitespace();
    let date = words.next()?.to_string();
    let size = words.next()?.parse().ok()?;
    let count = words.next()?.parse().ok()?;
    Some(Tally { date, size, count })
}

/// Replaces the record in `lock` (best effort: a record lost is a day's file counted once).
#[cfg(unix)]
pub fn write(lock: &File, tally: &Tally) {
    let text = format!("{MAGIC} {} {} {}\n", tally.date, tally.size, tally.count);
    if lock.write_all_at(text.as_bytes(), 0).is_ok() {
        let _ = lock.set_len(text.len() as u64);
    }
}

#[cfg(not(unix))]
pub fn read(_lock: &File) -> Option<Tally> {
    None
}

#[cfg(not(unix))]
pub fn write(_lock: &File, _tally: &Tally) {}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_and_garbage_reads_as_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".lock");
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .unwrap();
        assert_eq!(read(&file), None);
        let long = Tally { date: "2026-11-24".into(), size: 123_456_789, count: 1000 };
        write(&file, &long);
        let short = Tally { date: "2026-11-25".into(), size: 9, count: 1 };
        write(&file, &short);
        assert_eq!(read(&file), Some(short));
        std::fs::write(&path, "not a tally").unwrap();
        assert_eq!(read(&file), None);
    }
}
