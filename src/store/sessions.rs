//! Per-session de-duplication (`inject.dedupe`): a term whose explanation reached the model in
//! one of the session's last `inject.repeatAfter` prompts is not injected again.
//!
//! # Counting
//!
//! Every prompt of a session has a number, one more than the previous prompt's, whether it had
//! hits or not. A term last injected at prompt `q` is left out of prompt `p` while
//! `p - q <= repeatAfter`, i.e. while `q` is among the `repeatAfter` prompts before `p`. With
//! the default 20, a term injected at prompt 1 is left out of prompts 2 to 21 and comes back at
//! prompt 22. Prompts before the first injection of a session are not counted (nothing can be
//! left out yet), so numbers are relative to the session's state file, not to its start.
//!
//! # State file
//!
//! `<store>/sessions/<hash>`, the hash being a 128-bit FNV-1a of the session id in hex (ids are
//! the platforms' text: they may hold any char, and should not show in a file listing). Text,
//! small, readable:
//!
//! ```text
//! tinylingo-session 1
//! prompt 42
//! 31 智能抠图
//! 40 提交
//! +
//! +
//! ```
//!
//! `prompt` is the number of the prompt that last wrote the file; each line `<q> <term>` says
//! when a term was last injected (terms escaped as in TSV output: `\`, tab, newline and
//! carriage return as `\\`, `\t`, `\n`, `\r`); each `+` line is a later prompt that injected
//! nothing new. Terms that can no longer leave anything out are dropped at each rewrite, so the
//! file holds at most the terms of the last `repeatAfter` prompts.
//!
//! # Cost on the hook path (only when dedupe is on)
//!
//! * a prompt with hits: one read of the state file, and either one atomic replacement (temp
//!   file and rename) when it records a term, or one append of `+\n` when it does not;
//! * a prompt without hits: one append of `+\n` ([`note_prompt`]), or only a failed `open`
//!   when the session has no state file yet.
//!
//! After 1024 `+` lines the next save rewrites the file, so it stays small.
//!
//! Nothing here is fsynced, unlike the store's other files ([`super::files::write_atomic`]):
//! the two fsyncs cost ~16 ms on this machine against ~0.3 ms for a whole unsynced load and
//! save (debug build), and what a power cut can do — an empty or stale state file, a lost `+`
//! — only means a term injected once more or a prompt not counted.
//!
//! # Failures
//!
//! A missing, unreadable, oversized or malformed state file reads as an empty state (every term
//! is kept): de-duplication is a saving, never a reason to break or hold a prompt. Saving
//! returns an error the hook should ignore.
//!
//! # Concurrent prompts of one session
//!
//! Unlikely (an assistant sends one prompt at a time), and harmless: there is no lock, each
//! writer replaces the file atomically, so the file is always one writer's complete state. The
//! last writer wins: a term the other prompt recorded may be injected once more, or a `+`
//! appended to the replaced file may be lost (one prompt not counted).
//!
//! # Pruning
//!
//! Files not written for 7 days ([`MAX_AGE`]) are deleted. The sweep runs only when a new
//! session file is about to be created, and at most once an hour: the mtime of
//! `sessions/.pruned` records the last sweep.

use std::fs::{self, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use indexmap::IndexMap;

use super::{files, Store};
use crate::error::{Error, Result};
use crate::output::{escape_tsv, unescape_tsv};

/// Session files older than this (by mtime) are deleted.
pub const MAX_AGE: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// The sweep for old session files runs at most this often.
const PRUNE_EVERY: Duration = Duration::from_secs(60 * 60);
/// Its mtime is the time of the last sweep.
const PRUNE_MARKER: &str = ".pruned";
const MAGIC: &str = "tinylingo-session 1";
/// A state file larger than this is not ours (or is broken): it reads as empty.
const MAX_FILE: u64 = 256 * 1024;
/// After this many `+` lines the next save rewrites the file instead of appending.
const MAX_TICKS: u64 = 1024;

/// The folder of the session files.
pub fn sessions_dir(store: &Store) -> PathBuf {
    store.dir().join("sessions")
}

/// The state file of a session.
pub fn session_path(store: &Store, session: &str) -> PathBuf {
    sessions_dir(store).join(format!("{:032x}", fnv1a_128(session.as_bytes())))
}

/// One session's memory of what it injected, loaded for the current prompt.
#[derive(Debug)]
pub struct SessionState {
    path: PathBuf,
    /// Whether a state file existed (even a malformed one): a new one triggers the prune.
    existed: bool,
    /// This prompt's number.
    prompt: u64,
    /// Per term, the number of the prompt that last injected it.
    last: IndexMap<String, u64>,
    /// `+` lines since the last full write.
    ticks: u64,
    repeat_after: u32,
    /// Whether this prompt recorded a term (the file must then be rewritten).
    recorded: bool,
}

impl SessionState {
    /// The state for a new prompt of `session`, or `None` when the id is blank (sessions cannot
    /// be told apart, so nothing is left out). Never fails: see the module doc.
    pub fn load(store: &Store, session: &str, repeat_after: u32) -> Option<SessionState> {
        if session.trim().is_empty() {
            return None;
        }
        let path = session_path(store, session);
        let (existed, bytes) = read_small(&path);
        let (stored, last, ticks) = bytes.as_deref().and_then(parse).unwrap_or_default();
        Some(SessionState {
            path,
            existed,
            prompt: stored + ticks + 1,
            last,
            ticks,
            repeat_after,
            recorded: false,
        })
    }

    /// This prompt's number in the session.
    pub fn prompt(&self) -> u64 {
        self.prompt
    }

    /// Whether `term` may be injected in this prompt: it was not injected in the last
    /// `repeat_after` prompts.
    pub fn keep(&self, term: &str) -> bool {
        self.last.get(term).is_none_or(|&q| self.prompt - q > u64::from(self.repeat_after))
    }

    /// Notes that this prompt injected `term`.
    pub fn record(&mut self, term: &str) {
        match self.last.get_mut(term) {
            Some(q) => *q = self.prompt,
            None => {
                self.last.insert(term.to_string(), self.prompt);
            }
        }
        self.recorded = true;
    }

    /// Saves the state after this prompt. The hook should ignore the error.
    pub fn save(&self) -> Result<()> {
        if !self.recorded && self.ticks < MAX_TICKS {
            // Nothing new to remember; only this prompt's number must advance. Without a
            // file there is nothing that counting could ever leave out.
            return if self.existed { append_tick(&self.path) } else { Ok(()) };
        }
        if !self.existed {
            let dir = self.path.parent().expect("a session file lies in the sessions folder");
            fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create folder", e))?;
            maybe_prune(dir, SystemTime::now());
        }
        // Not synced: see the module doc for why.
        files::write_replacing(&self.path, self.to_text().as_bytes())
    }

    fn to_text(&self) -> String {
        let mut text = format!("{MAGIC}\nprompt {}\n", self.prompt);
        // From the next prompt on, a term injected `repeat_after` or more prompts ago is kept
        // anyway: no need to remember it.
        let still = |q: u64| self.prompt - q < u64::from(self.repeat_after);
        for (term, &q) in self.last.iter().filter(|(_, &q)| still(q)) {
            text.push_str(&format!("{q} "));
            escape_tsv(&mut text, term);
            text.push('\n');
        }
        text
    }
}

/// De-duplicates one prompt's hits in one step: which of `terms` to keep, recording every kept
/// one as injected. For callers that inject everything they keep; the hook, which may show some
/// hits by name only, uses [`SessionState`] to record only what it explained.
pub fn filter(store: &Store, session: &str, repeat_after: u32, terms: &[&str]) -> Vec<bool> {
    let Some(mut state) = SessionState::load(store, session, repeat_after) else {
        return vec![true; terms.len()];
    };
    let keep: Vec<bool> = terms.iter().map(|t| state.keep(t)).collect();
    for (term, _) in terms.iter().zip(&keep).filter(|(_, k)| **k) {
        state.record(term);
    }
    let _ = state.save();
    keep
}

/// Counts a prompt that had no hits. Best effort: a failure only means one prompt not counted.
pub fn note_prompt(store: &Store, session: &str) {
    if !session.trim().is_empty() {
        let _ = append_tick(&session_path(store, session));
    }
}

/// Deletes the session files in `store` not written for [`MAX_AGE`] before `now`; returns how
/// many. Leftover temporary files of interrupted writes go the same way.
pub fn prune(store: &Store, now: SystemTime) -> usize {
    prune_dir(&sessions_dir(store), now)
}

fn prune_dir(dir: &Path, now: SystemTime) -> usize {
    let Ok(entries) = fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        if entry.file_name() == PRUNE_MARKER {
            continue;
        }
        let Ok(meta) = entry.metadata() else { continue };
        let old = meta.modified().ok().and_then(|t| now.duration_since(t).ok());
        if meta.is_file() && old.is_some_and(|age| age > MAX_AGE) {
            removed += usize::from(fs::remove_file(entry.path()).is_ok());
        }
    }
    removed
}

/// Prunes the sessions folder unless that was done within the hour (one `stat` then): for the
/// files kept beside the session states (the journal's pending prompts).
pub fn prune_sometimes(store: &Store) {
    maybe_prune(&sessions_dir(store), SystemTime::now());
}

/// Prunes `dir` unless the marker says it was done within the hour. A marker dated in the
/// future (clock changes) counts as stale, or pruning could stop for good.
fn maybe_prune(dir: &Path, now: SystemTime) {
    let marker = dir.join(PRUNE_MARKER);
    let last = fs::metadata(&marker).and_then(|m| m.modified()).ok();
    let recent = last.and_then(|t| now.duration_since(t).ok()).is_some_and(|a| a < PRUNE_EVERY);
    if recent {
        return;
    }
    let touched =
        files::open_regular(&marker, OpenOptions::new().create(true).truncate(false).write(true));
    if let Ok(file) = touched {
        let _ = file.set_modified(now);
    }
    prune_dir(dir, now);
}

/// Whether the file existed, and its bytes when it could be read and is not oversized.
fn read_small(path: &Path) -> (bool, Option<Vec<u8>>) {
    let file = match files::open_regular(path, OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(e) => return (e.kind() != std::io::ErrorKind::NotFound, None),
    };
    let mut bytes = Vec::new();
    match file.take(MAX_FILE + 1).read_to_end(&mut bytes) {
        Ok(n) if n as u64 <= MAX_FILE => (true, Some(bytes)),
        _ => (true, None),
    }
}

/// The stored prompt number, the terms, and the `+` lines; `None` when malformed.
fn parse(bytes: &[u8]) -> Option<(u64, IndexMap<String, u64>, u64)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.strip_suffix('\n').unwrap_or(text).split('\n');
    if lines.next()? != MAGIC {
        return None;
    }
    let prompt: u64 = lines.next()?.strip_prefix("prompt ")?.parse().ok()?;
    let mut last = IndexMap::new();
    let mut ticks = 0u64;
    for line in lines {
        if line == "+" {
            ticks += 1;
            continue;
        }
        let (q, term) = line.split_once(' ')?;
        let q: u64 = q.parse().ok()?;
        if q > prompt {
            return None;
        }
        last.insert(unescape_tsv(term)?, q);
    }
    // Absurd numbers would overflow the counting; such a file is not one we wrote.
    prompt.checked_add(ticks)?.checked_add(1)?;
    Some((prompt, last, ticks))
}

fn append_tick(path: &Path) -> Result<()> {
    // No `create`: a session without a state file has nothing to count prompts against.
    let mut file = files::open_regular(path, OpenOptions::new().append(true))
        .map_err(|e| Error::io(path, "open", e))?;
    file.write_all(b"+\n").map_err(|e| Error::io(path, "append to", e))
}

/// 128-bit FNV-1a: stable across builds and platforms (unlike std's or ahash's hashers), and
/// wide enough that two sessions never share a file in practice.
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    bytes.iter().fold(OFFSET, |h, &b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        (dir, store)
    }

    /// One prompt through the split API, recording every kept term.
    fn prompt(store: &Store, session: &str, repeat_after: u32, terms: &[&str]) -> Vec<bool> {
        if terms.is_empty() {
            note_prompt(store, session);
            return Vec::new();
        }
        filter(store, session, repeat_after, terms)
    }

    #[test]
    fn a_term_is_left_out_within_the_session_and_kept_in_another() {
        let (_d, store) = store();
        assert_eq!(prompt(&store, "s1", 20, &["智能抠图", "提交"]), [true, true]);
        assert_eq!(prompt(&store, "s1", 20, &["智能抠图", "发布"]), [false, true]);
        assert_eq!(prompt(&store, "s2", 20, &["智能抠图"]), [true]);
        // No session id: nothing to tell prompts apart by, so nothing is left out or written.
        assert_eq!(prompt(&store, " ", 20, &["智能抠图"]), [true]);
        assert_eq!(prompt(&store, " ", 20, &["智能抠图"]), [true]);
        assert_eq!(fs::read_dir(sessions_dir(&store)).unwrap().count(), 3); // s1, s2, marker
    }

    #[test]
    fn a_term_comes_back_after_repeat_after_prompts_counting_prompts_without_hits() {
        let (_d, store) = store();
        assert_eq!(prompt(&store, "s", 3, &["a"]), [true]); // prompt 1
        assert_eq!(prompt(&store, "s", 3, &["a"]), [false]); // 2
        prompt(&store, "s", 3, &[]); // 3, no hits
        assert_eq!(prompt(&store, "s", 3, &["a"]), [false]); // 4: 1 is among 1..=3
        assert_eq!(prompt(&store, "s", 3, &["a"]), [true]); // 5: 1 is not among 2..=4
        assert_eq!(prompt(&store, "s", 3, &["a"]), [false]); // 6
        let state = SessionState::load(&store, "s", 3).unwrap();
        assert_eq!(state.prompt(), 7);
    }

    #[test]
    fn only_recorded_terms_are_left_out() {
        let (_d, store) = store();
        let mut state = SessionState::load(&store, "s", 20).unwrap();
        assert!(state.keep("shown") && state.keep("named"));
        state.record("shown");
        state.save().unwrap();
        let state = SessionState::load(&store, "s", 20).unwrap();
        assert!(!state.keep("shown"));
        assert!(state.keep("named"));
    }

    #[test]
    fn odd_terms_survive_the_file_and_stale_ones_are_dropped() {
        let (_d, store) = store();
        let odd = "a\\b\nc\rd e\tf";
        assert_eq!(prompt(&store, "s", 2, &[odd, "x"]), [true, true]); // 1
        assert_eq!(prompt(&store, "s", 2, &["y"]), [true]); // 2
        assert_eq!(prompt(&store, "s", 2, &["z"]), [true]); // 3: forgets odd and x
        let text = fs::read_to_string(session_path(&store, "s")).unwrap();
        assert_eq!(text, "tinylingo-session 1\nprompt 3\n2 y\n3 z\n");
        assert_eq!(prompt(&store, "s", 20, &[odd, "y"]), [true, false]); // 4
        let text = fs::read_to_string(session_path(&store, "s")).unwrap();
        assert!(text.ends_with("4 a\\\\b\\nc\\rd e\\tf\n"), "{text}");
        assert_eq!(prompt(&store, "s", 20, &[odd]), [false]);
    }

    #[test]
    fn prompts_without_new_terms_append_and_long_runs_are_folded() {
        let (_d, store) = store();
        prompt(&store, "s", 5000, &["a"]);
        for _ in 0..3 {
            assert_eq!(prompt(&store, "s", 5000, &["a"]), [false]);
            prompt(&store, "s", 5000, &[]);
        }
        let text = fs::read_to_string(session_path(&store, "s")).unwrap();
        assert_eq!(text, "tinylingo-session 1\nprompt 1\n1 a\n+\n+\n+\n+\n+\n+\n");
        for _ in 0..MAX_TICKS {
            prompt(&store, "s", 5000, &[]);
        }
        assert_eq!(prompt(&store, "s", 5000, &["a"]), [false]);
        let text = fs::read_to_string(session_path(&store, "s")).unwrap();
        assert_eq!(text, format!("tinylingo-session 1\nprompt {}\n1 a\n", MAX_TICKS + 8));
    }

    #[test]
    fn a_corrupt_state_file_reads_as_empty_and_is_replaced() {
        let (_d, store) = store();
        prompt(&store, "s", 20, &["a"]);
        let path = session_path(&store, "s");
        for junk in [
            &b"\xff\xfe not utf-8"[..],
            b"",
            b"tinylingo-session 1\nprompt x\n",
            b"tinylingo-session 1\nprompt 3\n9 a\n",
            b"tinylingo-session 1\nprompt 3\n1 bad\\q\n",
            b"tinylingo-session 1\nprompt 18446744073709551615\n+\n",
            b"{\"json\": true}",
        ] {
            fs::write(&path, junk).unwrap();
            assert_eq!(prompt(&store, "s", 20, &["a"]), [true], "{junk:?}");
            assert_eq!(prompt(&store, "s", 20, &["a"]), [false], "{junk:?}");
        }
        fs::write(&path, vec![b'+'; MAX_FILE as usize + 10]).unwrap();
        assert_eq!(prompt(&store, "s", 20, &["a"]), [true]);
        // A folder where the file should be: everything is kept, nothing fails.
        fs::remove_file(&path).unwrap();
        fs::create_dir(&path).unwrap();
        assert_eq!(prompt(&store, "s", 20, &["a"]), [true]);
        assert_eq!(prompt(&store, "s", 20, &["a"]), [true]);
    }

    fn age(path: &Path, by: Duration) {
        let file = OpenOptions::new().write(true).open(path).unwrap();
        file.set_modified(SystemTime::now() - by).unwrap();
    }

    #[test]
    fn prune_removes_files_older_than_seven_days() {
        let (_d, store) = store();
        prompt(&store, "old", 20, &["a"]);
        prompt(&store, "recent", 20, &["a"]);
        let (old, recent) = (session_path(&store, "old"), session_path(&store, "recent"));
        age(&old, MAX_AGE + Duration::from_secs(60));
        age(&recent, MAX_AGE - Duration::from_secs(60));
        assert_eq!(prune(&store, SystemTime::now()), 1);
        assert!(!old.exists() && recent.exists());
        assert!(sessions_dir(&store).join(PRUNE_MARKER).exists());
    }

    #[test]
    fn a_new_session_prunes_at_most_once_an_hour() {
        let (_d, store) = store();
        prompt(&store, "old", 20, &["a"]);
        let old = session_path(&store, "old");
        let marker = sessions_dir(&store).join(PRUNE_MARKER);
        age(&old, MAX_AGE * 2);
        // The first session's creation swept just now: no second sweep within the hour.
        prompt(&store, "new1", 20, &["a"]);
        assert!(old.exists());
        // Continuing a session never sweeps.
        age(&marker, PRUNE_EVERY * 2);
        prompt(&store, "new1", 20, &["b"]);
        assert!(old.exists());
        // A new session after an hour does.
        prompt(&store, "new2", 20, &["a"]);
        assert!(!old.exists());
        assert!(session_path(&store, "new1").exists() && session_path(&store, "new2").exists());
    }

    #[test]
    fn file_names_are_stable_hex_hashes() {
        let store = Store::at("/s");
        let path = session_path(&store, "../../etc/passwd");
        assert_eq!(path.parent().unwrap(), Path::new("/s/sessions"));
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.len() == 32 && name.chars().all(|c| c.is_ascii_hexdigit()));
        // FNV-1a 128 reference value of the empty input is its offset basis.
        assert_eq!(fnv1a_128(b""), 0x6c62272e07bb014262b821756295c58d);
        assert_ne!(session_path(&store, "a"), session_path(&store, "b"));
    }
}
