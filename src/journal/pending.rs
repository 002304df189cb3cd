//! The prompt a session is waiting on an answer for, kept by the prompt hook while the journal
//! is on: `<store>/sessions/<hash>.prompt`, beside the de-duplication state and pruned with it
//! (files unused for 7 days go).
//!
//! The after-response hook takes it (reads and empties it) to pair the prompt with the answer.
//! A second prompt before the answer replaces the first: the answer belongs to the last one.
//! Written unsynced and in place, like the session state: a power cut costs at most one
//! entry's prompt.

use std::fs;
use std::io::{Read, Write};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::store::files::open_regular;
use crate::store::sessions::{prune_sometimes, session_path, sessions_dir};
use crate::store::Store;

/// What the prompt hook knew when the prompt arrived.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

fn path(store: &Store, session: &str) -> std::path::PathBuf {
    session_path(store, session).with_extension("prompt")
}

/// Keeps `pending` for `session`, replacing what was kept.
///
/// Written over the old bytes in place, then cut to length: this runs in front of every prompt
/// while the journal is on, and on ext4 a file replaced by a rename, or truncated to nothing
/// and written again, has its writeback started when it is closed (the `auto_da_alloc`
/// safeguard for programs that replace files that way): measured, 125–155 µs of CPU and
/// milliseconds of wall time per prompt, against 10–25 µs for an overwrite in place. A reader
/// that comes upon a half-written file (a prompt sent while the last answer's hook runs) finds
/// JSON that does not parse, or with bytes after it, which reads as nothing kept.
///
/// The prompt is kept with its credentials masked ([`crate::guard::secrets::redact`]): no
/// file of the journal's, this one included, holds a token the user typed.
pub fn keep(store: &Store, session: &str, pending: &Pending) -> Result<()> {
    let path = path(store, session);
    let prompt = crate::guard::secrets::redact(&pending.prompt);
    let masked = Pending { prompt: prompt.into_owned(), ..pending.clone() };
    let text = serde_json::to_string(&masked).expect("a pending prompt serialises");
    let write = || -> std::io::Result<()> {
        let mut options = fs::OpenOptions::new();
        options.write(true).create(true).truncate(false);
        // Freshly opened, the file is written from its start.
        let mut file = open_regular(&path, &mut options)?;
        file.write_all(text.as_bytes())?;
        file.set_len(text.len() as u64)
    };
    match write() {
        // The first prompt ever kept: the folder comes first.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = sessions_dir(store);
            fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, "create folder", e))?;
            write()
        }
        result => result,
    }
    .map_err(|e| Error::io(&path, "write", e))
}

/// Takes what was kept for `session`, if anything: the file is emptied (not deleted, so the
/// next prompt's [`keep`] writes over it rather than making a new file), so an answer is paired
/// with a prompt once. Files of sessions unused for a week go with the session states.
pub fn take(store: &Store, session: &str) -> Option<Pending> {
    let path = path(store, session);
    let mut options = fs::OpenOptions::new();
    options.read(true).write(true);
    let mut file = open_regular(&path, &mut options).ok()?;
    let mut text = Vec::new();
    file.read_to_end(&mut text).ok()?;
    let _ = file.set_len(0);
    drop(file);
    prune_sometimes(store);
    serde_json::from_slice(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_prompt_is_taken_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let p = Pending { prompt: "第一".into(), model: Some("m".into()), cwd: None };
        keep(&store, "s", &p).unwrap();
        let q = Pending { prompt: "第二".into(), model: None, cwd: Some("/p".into()) };
        keep(&store, "s", &q).unwrap();
        assert_eq!(take(&store, "other"), None);
        assert_eq!(take(&store, "s"), Some(q));
        assert_eq!(take(&store, "s"), None);
    }

    #[test]
    fn a_kept_prompt_holds_no_credential() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let token = ["np", "m_", &"Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sY".repeat(2)[..36]].concat();
        let p = Pending { prompt: format!("publish with {token}"), model: None, cwd: None };
        keep(&store, "s", &p).unwrap();
        let raw = fs::read_to_string(path(&store, "s")).unwrap();
        assert!(!raw.contains(&token[4..]), "{raw}");
        assert_eq!(take(&store, "s").unwrap().prompt, "publish with ‹npm-token masked›");
    }
}
