//! `recorded.tsv`: when each term was recorded, kept beside the glossary, never inside it
//! (`glossary.json` stays the flat object the original tool reads).
//!
//! An append-only log, one line per record:
//!
//! ```text
//! 1767225600→智能抠图
//! 1767225663→release\tcheck
//! ```
//!
//! (`→` standing for a tab.)
//!
//! Unix seconds, a tab, the term with `\`, tab, line feed and carriage return escaped as `\\`,
//! `\t`, `\n`, `\r` (the TSV rule of the other commands). Every writer holds the store's lock.
//! A record appends one line: at 100k terms, rewriting a table of every term's time on each
//! record would cost more than the line. When the log outgrows about twice what the glossary's
//! terms need (re-records of the same terms, removed terms), the next note rewrites it from the
//! glossary's terms that are still recorded, each with its latest time.
//!
//! The log is an aid, never a source of truth: a missing file means no term has a time, a
//! garbled line (a hand edit, a crash mid-append) is skipped, and a failure to write it does
//! not fail the record that was written.
//!
//! Order: the most recent record is the last line. [`recent`] goes by the log's order, not by
//! the times in it, so a clock set back cannot reorder what was recorded.

use crate::output::{escape_tsv, unescape_tsv};
use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::files::{self, read_if_exists, write_atomic};
use super::{Glossary, Store};
use crate::error::{Error, Result};

/// Appends a line for each of `terms`, recorded at `when`, to the store's log. `glossary` is
/// the glossary as it is now (the terms included): compaction keeps its terms and drops the
/// others. The caller holds the store's lock.
pub fn note(store: &Store, glossary: &Glossary, terms: &[&str], when: SystemTime) -> Result<()> {
    let path = store.recorded_path();
    let secs = when.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let mut lines = String::new();
    for term in terms {
        push_line(&mut lines, secs, term);
    }
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    if size + lines.len() as u64 > compaction_size(glossary) {
        return compact(store, glossary, &lines);
    }
    let io = |e| Error::io(&path, "write", e);
    let mut file =
        files::open_regular(&path, OpenOptions::new().read(true).create(true).append(true))
            .map_err(io)?;
    // A crash mid-append can leave a last line without its line feed; ours must not be glued
    // to it.
    if size > 0 && !ends_with_newline(&mut file, size) {
        lines.insert(0, '\n');
    }
    file.write_all(lines.as_bytes()).map_err(io)
}

/// Up to `n` terms of `glossary`, the most recently recorded first, each with its record time.
/// Terms never noted (recorded before the log existed, or by hand or by another tool) come
/// after those noted, without a time, the glossary's last first: the glossary keeps insertion
/// order, so that is their order of recording as well as it is known.
pub fn recent(store: &Store, glossary: &Glossary, n: usize) -> Vec<(String, Option<SystemTime>)> {
    let log = read_log(store);
    let mut out = Vec::with_capacity(n.min(glossary.len()));
    let mut seen: HashSet<&str> = HashSet::new();
    for (secs, term) in log.iter().rev() {
        if out.len() == n {
            return out;
        }
        if seen.insert(term) && glossary.get(term).is_some() {
            out.push((term.clone(), Some(UNIX_EPOCH + Duration::from_secs(*secs))));
        }
    }
    for term in glossary.terms().rev() {
        if out.len() == n {
            break;
        }
        if !seen.contains(term) {
            out.push((term.to_string(), None));
        }
    }
    out
}

/// The log's lines that parse, in order: (seconds, term).
fn read_log(store: &Store) -> Vec<(u64, String)> {
    let Ok(Some(bytes)) = read_if_exists(&store.recorded_path()) else { return Vec::new() };
    bytes.split(|&b| b == b'\n').filter_map(parse_line).collect()
}

fn parse_line(line: &[u8]) -> Option<(u64, String)> {
    let line = std::str::from_utf8(line).ok()?;
    let (secs, term) = line.split_once('\t')?;
    if secs.is_empty() || !secs.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let term = unescape_tsv(term)?;
    (!term.is_empty()).then_some((secs.parse().ok()?, term))
}

fn push_line(out: &mut String, secs: u64, term: &str) {
    out.push_str(&secs.to_string());
    out.push('\t');
    // Escaped as a TSV field (`crate::output`), so that a term is always one field of one line.
    escape_tsv(out, term);
    out.push('\n');
}

/// Past this size the log is compacted: twice what one line per term takes (ten digits, a tab,
/// a line feed and the term), and room for a few hundred lines for a small glossary.
fn compaction_size(glossary: &Glossary) -> u64 {
    let one_each: usize = glossary.terms().map(|t| t.len() + 12).sum();
    2 * one_each as u64 + 16 * 1024
}

/// Rewrites the log with one line per term of `glossary` that it (or `appended`) notes, its
/// latest, in the order of those latest lines.
fn compact(store: &Store, glossary: &Glossary, appended: &str) -> Result<()> {
    let mut log = read_log(store);
    log.extend(appended.split('\n').filter_map(|l| parse_line(l.as_bytes())));
    // The position of each term's last line.
    let mut last: HashMap<&str, usize> = HashMap::with_capacity(glossary.len());
    for (i, (_, term)) in log.iter().enumerate() {
        last.insert(term, i);
    }
    let mut text = String::new();
    for (i, (secs, term)) in log.iter().enumerate() {
        if last.get(term.as_str()) == Some(&i) && glossary.get(term).is_some() {
            push_line(&mut text, *secs, term);
        }
    }
    write_atomic(&store.recorded_path(), text.as_bytes())
}

fn ends_with_newline(file: &mut std::fs::File, size: u64) -> bool {
    let mut last = [0u8];
    file.seek(SeekFrom::Start(size - 1)).and_then(|_| file.read_exact(&mut last)).is_ok()
        && last[0] == b'\n'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        (dir, store)
    }

    fn glossary(terms: &[&str]) -> Glossary<'static> {
        terms.iter().map(|t| (t.to_string(), "x".to_string())).collect()
    }

    fn terms(recent: &[(String, Option<SystemTime>)]) -> Vec<&str> {
        recent.iter().map(|(t, _)| t.as_str()).collect()
    }

    #[test]
    fn escapes_round_trip() {
        for term in ["plain", "tab\there", "line\nbreak", "cr\r", "back\\slash", "\\t literal"] {
            let mut line = String::new();
            push_line(&mut line, 7, term);
            assert_eq!(line.matches('\n').count(), 1, "{term:?}");
            let parsed = parse_line(line.trim_end_matches('\n').as_bytes());
            assert_eq!(parsed, Some((7, term.to_string())));
        }
    }

    #[test]
    fn recent_is_newest_first_and_skips_what_is_gone() {
        let (_d, store) = store();
        let g = glossary(&["a", "b", "c", "old"]);
        note(&store, &g, &["a"], at(100)).unwrap();
        note(&store, &g, &["b", "c"], at(200)).unwrap();
        note(&store, &g, &["a"], at(300)).unwrap();
        let r = recent(&store, &g, 10);
        assert_eq!(terms(&r), ["a", "c", "b", "old"]);
        assert_eq!(r[0].1, Some(at(300)));
        assert_eq!(r[1].1, Some(at(200)));
        assert_eq!(r[3].1, None);
        assert_eq!(terms(&recent(&store, &g, 2)), ["a", "c"]);
        // A removed term is skipped; the log's order wins over its times.
        let g = glossary(&["b", "c", "old", "new"]);
        note(&store, &g, &["new"], at(50)).unwrap();
        assert_eq!(terms(&recent(&store, &g, 10)), ["new", "c", "b", "old"]);
    }

    #[test]
    fn terms_never_noted_come_last_glossary_end_first() {
        let (_d, store) = store();
        let g = glossary(&["x", "y", "z"]);
        assert_eq!(terms(&recent(&store, &g, 10)), ["z", "y", "x"]);
        note(&store, &g, &["x"], at(1)).unwrap();
        assert_eq!(terms(&recent(&store, &g, 2)), ["x", "z"]);
        assert!(recent(&store, &g, 0).is_empty());
    }

    #[test]
    fn garbled_lines_are_skipped_and_a_torn_last_line_does_not_swallow_the_next() {
        let (_d, store) = store();
        store.ensure_dir().unwrap();
        let g = glossary(&["a", "b", "c"]);
        std::fs::write(
            store.recorded_path(),
            b"100\ta\nnot a line\n\xff\xfe\tb\n12x\tb\n200\tbad\\q\n\t\n300\tc\n400\tb",
        )
        .unwrap();
        assert_eq!(terms(&recent(&store, &g, 10)), ["b", "c", "a"]);
        note(&store, &g, &["a"], at(500)).unwrap();
        let r = recent(&store, &g, 10);
        assert_eq!(terms(&r), ["a", "b", "c"]);
        assert_eq!(r[1].1, Some(at(400)));
    }

    #[test]
    fn the_log_is_compacted_to_the_glossarys_terms() {
        let (_d, store) = store();
        let g = glossary(&["kept", "again"]);
        note(&store, &glossary(&["gone", "kept", "again"]), &["gone", "kept"], at(1)).unwrap();
        let size = || std::fs::metadata(store.recorded_path()).unwrap().len();
        // Re-records of one term grow the log until a note would take it past the limit; that
        // note rewrites it instead.
        let mut i = 2;
        let mut last = size();
        loop {
            note(&store, &g, &["again"], at(i)).unwrap();
            assert!(size() <= compaction_size(&g));
            if size() < last {
                break;
            }
            last = size();
            i += 1;
        }
        let text = std::fs::read_to_string(store.recorded_path()).unwrap();
        assert_eq!(text, format!("1\tkept\n{i}\tagain\n"));
        assert_eq!(terms(&recent(&store, &g, 10)), ["again", "kept"]);
    }

    #[test]
    fn a_missing_log_is_no_times() {
        let (_d, store) = store();
        let g = glossary(&["a"]);
        assert_eq!(recent(&store, &g, 5), [("a".to_string(), None)]);
    }
}
