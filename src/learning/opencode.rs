//! OpenCode's session store: `opencode.db` (SQLite, WAL) in `$XDG_DATA_HOME/opencode`
//! (default `~/.local/share/opencode`). Opened read-only, so a running OpenCode is never
//! disturbed; a database that is locked, damaged or of another shape is skipped.
//!
//! Tables (OpenCode 1.18): `message(id, session_id, time_created, data)`, where `data` is JSON
//! with `role`; `part(id, message_id, session_id, time_created, data)`, where `data` is JSON
//! with `type` and, for `text` parts, `text`; a part with `"synthetic": true` was added by a
//! plugin (ours) and is not the user's. `session(id, directory)`.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::Deserialize;

#[cfg(feature = "sqlite")]
use super::clean;
use super::rules::Conversation;
use super::sources::{Assistant, Found};
use crate::platform::Platform;

/// The database file, in OpenCode's data folder ([`Platform::sessions_folder`]).
pub fn database(home: &Path) -> PathBuf {
    let folder = Platform::OpenCode.sessions_folder(home);
    folder.unwrap_or_else(|| home.join(".local/share/opencode")).join("opencode.db")
}

/// The sizes and modification times of the database and of its WAL (empty when there is no
/// database): while they stay the same, nothing was written. (A WAL is reused after a
/// checkpoint without changing size, hence the times.)
pub fn fingerprint(home: &Path) -> Vec<u64> {
    let db = database(home);
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    let mut out = Vec::new();
    for path in [db.as_path(), Path::new(&wal)] {
        if let Ok(meta) = std::fs::metadata(path) {
            let modified = meta.modified().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok());
            out.extend([meta.len(), modified.map_or(0, |d| d.as_nanos() as u64)]);
        }
    }
    out
}

/// The candidates in the messages created after `after` (ms since the epoch), and the
/// creation time of the last part read; `None` when there is no database.
pub fn read(home: &Path, after: i64) -> Result<Option<(Vec<Found>, i64)>, String> {
    let path = database(home);
    if !path.is_file() {
        return Ok(None);
    }
    read_database(&path, after)
}

/// Without SQLite compiled in (see Cargo.toml's features), the store is named as skipped.
#[cfg(not(feature = "sqlite"))]
fn read_database(_: &Path, _: i64) -> Result<Option<(Vec<Found>, i64)>, String> {
    Err("this build has no SQLite reader (built without the `sqlite` feature)".into())
}

#[cfg(feature = "sqlite")]
fn read_database(path: &Path, after: i64) -> Result<Option<(Vec<Found>, i64)>, String> {
    use rusqlite::{Connection, OpenFlags};
    let db = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| e.to_string())?;
    // Only text parts are read (tool parts hold whole outputs, which the sort would otherwise
    // carry). Wait briefly for a writer's checkpoint rather than fail at once.
    let _ = db.busy_timeout(std::time::Duration::from_millis(500));
    let mut rows = db
        .prepare(
            "SELECT p.session_id, m.data, p.data, p.time_created, s.directory \
             FROM part p JOIN message m ON m.id = p.message_id \
             LEFT JOIN session s ON s.id = p.session_id \
             WHERE p.time_created > ?1 AND json_extract(p.data, '$.type') = 'text' \
             ORDER BY p.session_id, p.time_created, p.id",
        )
        .map_err(|e| e.to_string())?;
    let mut rows = rows.query([after]).map_err(|e| e.to_string())?;
    let mut found = Vec::new();
    let mut last = after;
    let mut session: Option<Talk> = None;
    let mut n = 0u64;
    let label = path.to_string_lossy().into_owned();
    loop {
        let row = match rows.next() {
            Ok(Some(row)) => row,
            Ok(None) => break,
            Err(e) => return Err(e.to_string()),
        };
        n += 1;
        let id: String = row.get(0).map_err(|e| e.to_string())?;
        let message: String = row.get(1).unwrap_or_default();
        let part: String = row.get(2).unwrap_or_default();
        let created: i64 = row.get(3).unwrap_or(0);
        let directory: Option<String> = row.get(4).ok();
        last = last.max(created);
        if session.as_ref().is_none_or(|s| s.id != id) {
            flush(session.take(), &label, &mut found);
            let project = directory.as_ref().is_some_and(|d| Path::new(d).join(".git").exists());
            session = Some(Talk { id, project, folder: directory, ..Talk::default() });
        }
        let Some(s) = session.as_mut() else { continue };
        let Some((user, text)) = text_part(&message, &part) else { continue };
        if user {
            s.last = clean::prose(&text);
            s.talk.user(&s.last, n);
            // A turn may take back the turn before's candidates ("scratch that"): theirs go too.
            s.quotes.truncate(s.talk.turn_start());
        } else {
            s.talk.assistant(&text);
        }
        for (candidate, _) in &s.talk.found[s.quotes.len()..] {
            s.quotes.push(clean::quote_of(&s.last, &candidate.term));
        }
    }
    flush(session, &label, &mut found);
    Ok(Some((found, last)))
}

/// Whether a part is the user's text (else the assistant's), and its text.
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
fn text_part(message: &str, part: &str) -> Option<(bool, String)> {
    #[derive(Deserialize)]
    struct Message {
        role: String,
    }
    #[derive(Deserialize)]
    struct Part {
        #[serde(rename = "type")]
        kind: String,
        text: Option<String>,
        #[serde(default)]
        synthetic: bool,
    }
    let m: Message = serde_json::from_str(message).ok()?;
    let p: Part = serde_json::from_str(part).ok()?;
    if p.kind != "text" || p.synthetic {
        return None;
    }
    Some((m.role == "user", p.text?))
}

/// One OpenCode session as it is read.
#[derive(Default)]
#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
struct Talk {
    id: String,
    talk: Conversation,
    project: bool,
    folder: Option<String>,
    /// The last user turn's prose, and the quote of each found candidate.
    last: String,
    quotes: Vec<String>,
}

#[cfg_attr(not(feature = "sqlite"), allow(dead_code))]
fn flush(session: Option<Talk>, label: &str, out: &mut Vec<Found>) {
    let Some(Talk { id, talk, project, folder, quotes, .. }) = session else { return };
    out.extend(talk.found.into_iter().zip(quotes).map(|((candidate, line), quote)| Found {
        candidate,
        assistant: Assistant::OpenCode,
        path: format!("{label}#{id}"),
        line,
        when: None,
        session: id.clone(),
        project,
        folder: folder.clone(),
        quote,
    }));
}
