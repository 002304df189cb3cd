//! The hybrid output rule (meta-cc's, see `seeds/meta-cc-principles.zh.md`): a tool's result
//! of up to [`INLINE_LIMIT`] bytes of JSON comes back inline; a larger one is written to a file
//! under the store's `mcp-results/` folder, and the answer names the file, its size, how many
//! records it holds and the first few of them.
//!
//! Nothing is cut: the model reads exactly the part it needs from the file (with its own file
//! tools, grep, or `offset`/`limit` on the next call) instead of receiving a truncated list it
//! cannot tell is truncated, and the conversation is not flooded with a 100 KB glossary.
//!
//! The file holds the result's records as JSON Lines, one record a line, so that line-oriented
//! tools can search it. Files older than [`KEEP`] are pruned when a server starts: they answer
//! one call, and no one needs them the next day.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::store::files::write_atomic;
use crate::store::Store;

/// The largest answer, in bytes of compact JSON, that comes back inline.
pub const INLINE_LIMIT: usize = 8 * 1024;

/// How many records a file answer shows.
const PREVIEW_RECORDS: usize = 5;

/// At most this many bytes of JSON of preview, so that the file answer stays well inside the
/// inline limit however long the first records are.
const PREVIEW_BYTES: usize = INLINE_LIMIT / 2;

/// How long result files are kept.
pub const KEEP: Duration = Duration::from_secs(24 * 60 * 60);

/// The folder, under the store, that holds the large results.
pub const FOLDER: &str = "mcp-results";

/// A tool's result: its JSON value and, for the file form, the records it lists (the list
/// inside `value` that makes it large: entries, hits).
#[derive(Debug, Clone, PartialEq)]
pub struct Payload {
    pub value: Value,
    /// The name of the field of `value` that holds the records (`entries`, …).
    pub records: Option<&'static str>,
}

impl Payload {
    /// A result without a list of records (always small).
    pub fn plain(value: Value) -> Payload {
        Payload { value, records: None }
    }

    /// A result whose `field` lists records.
    pub fn listing(value: Value, field: &'static str) -> Payload {
        Payload { value, records: Some(field) }
    }
}

/// The text of the answer for `payload`: the compact JSON itself when it fits in
/// [`INLINE_LIMIT`], else the description of the file it was written to. `tool` names the file.
pub fn answer(store: &Store, tool: &str, payload: &Payload) -> Result<String> {
    let inline = payload.value.to_string();
    if inline.len() <= INLINE_LIMIT {
        return Ok(inline);
    }
    let empty = Vec::new();
    let records = payload
        .records
        .and_then(|field| payload.value.get(field))
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    // A result without records is written whole, as one line.
    let lines: Vec<String> = if records.is_empty() {
        vec![inline]
    } else {
        records.iter().map(Value::to_string).collect()
    };
    let mut text = lines.join("\n");
    text.push('\n');
    let path = result_path(store, tool);
    let dir = path.parent().expect("result files lie in a folder");
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, "create folder", e))?;
    write_atomic(&path, text.as_bytes())?;
    let mut preview = Vec::new();
    let mut preview_bytes = 0;
    for line in lines.iter().take(PREVIEW_RECORDS) {
        preview_bytes += line.len();
        if preview_bytes > PREVIEW_BYTES {
            break;
        }
        preview.push(serde_json::from_str::<Value>(line).expect("we wrote it"));
    }
    // The other fields of the result (totals, dates) are small: they stay in the answer.
    let mut rest = payload.value.clone();
    if let (Some(field), Some(map)) = (payload.records, rest.as_object_mut()) {
        map.remove(field);
    }
    let shown = preview.len();
    Ok(json!({
        "mode": "file",
        "path": path.to_string_lossy(),
        "bytes": text.len(),
        "records": lines.len(),
        "format": "jsonl",
        "preview": preview,
        "result": rest,
        "note": format!(
            "the result is {} bytes, more than the {INLINE_LIMIT} an answer carries: it was \
             written to the file, one JSON record a line; the first {shown} are shown here. \
             Read or search the file for the rest.",
            text.len()
        ),
    })
    .to_string())
}

/// A new file for one result: the tool, the time and a per-process counter make it unique
/// among servers running at once.
fn result_path(store: &Store, tool: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let stamp = jiff::Zoned::now().strftime("%Y%m%d-%H%M%S").to_string();
    let name = format!("{tool}-{stamp}-{}-{n}.jsonl", std::process::id());
    store.dir().join(FOLDER).join(name)
}

/// Removes result files older than [`KEEP`] (best effort: a file another server is writing is
/// new, and one that cannot be removed stays).
pub fn prune(store: &Store) {
    prune_older(&store.dir().join(FOLDER), SystemTime::now(), KEEP);
}

fn prune_older(dir: &Path, now: SystemTime, keep: Duration) {
    let Ok(list) = fs::read_dir(dir) else { return };
    for entry in list.flatten() {
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > keep);
        if old && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(n: usize, size: usize) -> Payload {
        let list: Vec<Value> = (0..n)
            .map(|i| json!({"term": format!("t{i}"), "explanation": "x".repeat(size)}))
            .collect();
        Payload::listing(json!({"total": n, "entries": list}), "entries")
    }

    #[test]
    fn a_small_result_comes_back_inline() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let payload = entries(3, 10);
        let text = answer(&store, "list", &payload).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), payload.value);
        assert!(!dir.path().join(FOLDER).exists());
    }

    #[test]
    fn a_large_result_goes_to_a_file_with_a_preview() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let payload = entries(200, 100);
        let text = answer(&store, "list", &payload).unwrap();
        assert!(text.len() <= INLINE_LIMIT, "{}", text.len());
        let a: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(a["mode"], "file");
        assert_eq!(a["records"], 200);
        assert_eq!(a["result"], json!({"total": 200}));
        assert_eq!(a["preview"].as_array().unwrap().len(), PREVIEW_RECORDS);
        let written = fs::read_to_string(a["path"].as_str().unwrap()).unwrap();
        assert_eq!(a["bytes"], written.len());
        let lines: Vec<Value> = written.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(&lines[..], payload.value["entries"].as_array().unwrap());
        assert_eq!(a["preview"][0], lines[0]);
    }

    #[test]
    fn long_records_shorten_the_preview() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::at(dir.path());
        let text = answer(&store, "list", &entries(5, 3000)).unwrap();
        let a: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(a["preview"].as_array().unwrap().len(), 1);
        assert!(text.len() <= INLINE_LIMIT);
    }

    #[test]
    fn old_files_are_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("list-old.jsonl");
        fs::write(&old, "{}\n").unwrap();
        let now = SystemTime::now();
        prune_older(dir.path(), now, KEEP);
        assert!(old.exists());
        prune_older(dir.path(), now + KEEP + Duration::from_secs(60), KEEP);
        assert!(!old.exists());
    }
}
