//! `suggest`: scan what is new in every source, run the rules, fill the inbox.
//!
//! Each file is read from the offset the last scan stopped at (`scanned.json`), line by line
//! through one reused buffer; only whole lines are read (a line still being written is read
//! next time), and the offset moves only past lines the parser has finished with. A file
//! shorter than its offset was rewritten or truncated and is read again from the start. Files
//! are split over two threads.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::held::{holds, Projects};
use super::inbox::{read_json, write_json, Inbox, Proposal, Source, Status};
use super::rules::Conversation;
use super::sources::{self, Assistant, Found, Parser, Turn};
use super::{clean, looks_like_secret, opencode};
use crate::error::Result;
use crate::store::config::Config;
use crate::store::{Glossary, Store};

/// What `suggest` is asked to do.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Only files changed since then (and, for OpenCode, messages created since then).
    pub since: Option<SystemTime>,
    /// Only these assistants (all when empty).
    pub assistants: Vec<Assistant>,
}

/// What a scan did.
#[derive(Debug, Default)]
pub struct Report {
    /// Files read (in part or whole) and files left alone as unchanged.
    pub read: usize,
    pub unchanged: usize,
    /// Bytes read.
    pub bytes: u64,
    /// Sources or files skipped, and why (missing, unreadable, garbled lines).
    pub skipped: Vec<String>,
    /// New pending proposals this scan added.
    pub added: usize,
    /// What the local model said about the proposals it had not reviewed (`smart` on).
    pub reviewed: super::confirm::Reviewed,
}

/// Per-file progress, kept in `scanned.json`.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct Progress {
    len: u64,
    offset: u64,
    line: u64,
    /// Modification time (ms since the epoch): a whole-file session rewritten to the same size
    /// is read again.
    #[serde(default)]
    mtime: u64,
}

/// A whole-file session larger than this is skipped (and named): it is read into memory.
const MAX_WHOLE_FILE: u64 = 32 << 20;

/// Whether the file is read whole rather than line by line (Gemini CLI's older `.json`).
fn whole(assistant: Assistant, key: &str) -> bool {
    assistant == Assistant::Gemini && key.ends_with(".json")
}

fn mtime_ms(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64)
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Scanned {
    #[serde(default)]
    version: u32,
    #[serde(default)]
    files: BTreeMap<String, Progress>,
    /// OpenCode: the creation time (ms) of the last part read.
    #[serde(default)]
    opencode_after: i64,
    /// OpenCode: [`opencode::fingerprint`] when it was last read (the same: nothing new, and
    /// the database is not opened).
    #[serde(default)]
    opencode_seen: Vec<u64>,
}

/// Scans the sources, adds new proposals to the inbox, has the local model review the ones it
/// has not seen when `smart` is on ([`super::confirm`]), and returns the inbox and what the
/// scan did. `home` is where the assistants keep their stores (the user's home folder).
pub fn suggest(store: &Store, home: &Path, options: &Options) -> Result<(Inbox, Report)> {
    let (inbox, mut report) = scan(store, home, options)?;
    let settings = Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    if !settings.smart.enabled {
        return Ok((inbox, report));
    }
    report.reviewed = super::confirm::review(store, &settings.smart)?;
    Ok((Inbox::load(store)?, report))
}

/// Scans one session file of `assistant`, from where the last scan of it stopped (the
/// capture after a turn, [`super::capture`]): no other source is looked at, and the smart
/// review is left to `suggest`. Returns how many new proposals it added.
pub fn scan_session(store: &Store, assistant: Assistant, path: &Path) -> Result<Report> {
    let only = Some((assistant, path.to_path_buf()));
    scan_some(store, Path::new(""), &Options::default(), only).map(|(_, report)| report)
}

fn scan(store: &Store, home: &Path, options: &Options) -> Result<(Inbox, Report)> {
    scan_some(store, home, options, None)
}

/// [`scan`] of every source, or of `only` that one file.
fn scan_some(
    store: &Store,
    home: &Path,
    options: &Options,
    only: Option<(Assistant, PathBuf)>,
) -> Result<(Inbox, Report)> {
    let mut report = Report::default();
    let scanned_path = store.dir().join(SCANNED_FILE);
    let mut scanned: Scanned = read_json(&scanned_path).unwrap_or_default();
    let one = only.is_some();
    let chosen =
        |a: Assistant| !one && (options.assistants.is_empty() || options.assistants.contains(&a));

    let mut work = Vec::from_iter(only);
    for assistant in Assistant::FILES.into_iter().filter(|a| chosen(*a)) {
        match sources::files(assistant, home, store) {
            Ok(files) => work.extend(files.into_iter().map(|f| (assistant, f))),
            Err(why) => report.skipped.push(format!("{}: {why}", assistant.name())),
        }
    }
    let mut found = Vec::new();
    let mut todo = Vec::new();
    for (assistant, path) in work {
        let key = path.to_string_lossy().into_owned();
        let Ok(meta) = std::fs::metadata(&path) else {
            report.skipped.push(format!("{key}: cannot read its size"));
            continue;
        };
        let old = scanned.files.get(&key).cloned().unwrap_or_default();
        let whole = whole(assistant, &key);
        if meta.len() == old.len && old.len > 0 && (!whole || mtime_ms(&meta) == old.mtime) {
            report.unchanged += 1;
            continue;
        }
        if whole && meta.len() > MAX_WHOLE_FILE {
            report.skipped.push(format!(
                "{key}: {} MB, over the {} MB read whole",
                meta.len() >> 20,
                MAX_WHOLE_FILE >> 20
            ));
            continue;
        }
        if let (Some(since), Ok(modified)) = (options.since, meta.modified()) {
            if modified < since {
                continue;
            }
        }
        // Shorter than what was read: rewritten or truncated; read it again from the start (a
        // whole-file session always is).
        let start = if whole || meta.len() < old.offset { Progress::default() } else { old };
        todo.push((assistant, path, key, start));
    }
    let results = read_all(todo);
    let mut touched = Vec::new();
    for (key, outcome) in results {
        match outcome {
            Ok((progress, bytes, mut list, garbled)) => {
                report.read += 1;
                report.bytes += bytes;
                if garbled > 0 {
                    report.skipped.push(format!("{key}: {garbled} line(s) not understood"));
                }
                found.append(&mut list);
                touched.push((key.clone(), progress.clone()));
                scanned.files.insert(key, progress);
            }
            Err(why) => report.skipped.push(format!("{key}: {why}")),
        }
    }
    let fingerprint = if one { Vec::new() } else { opencode::fingerprint(home) };
    if chosen(Assistant::OpenCode)
        && !fingerprint.is_empty()
        && fingerprint == scanned.opencode_seen
    {
        report.unchanged += 1;
    } else if chosen(Assistant::OpenCode) {
        let after = scanned.opencode_after.max(since_ms(options.since));
        match opencode::read(home, after) {
            Ok(Some((mut list, last))) => {
                report.read += 1;
                found.append(&mut list);
                scanned.opencode_after = scanned.opencode_after.max(last);
                // Taken after the read: a reader of a WAL database may create its `-wal` and
                // `-shm` files.
                scanned.opencode_seen = opencode::fingerprint(home);
            }
            Ok(None) => report.skipped.push("opencode: no database".into()),
            Err(why) => report.skipped.push(format!("opencode: {why}")),
        }
    }

    // Nothing read: nothing to write either (a rescan with nothing new only stats files).
    if report.read == 0 && found.is_empty() {
        return Ok((Inbox::load(store)?, report));
    }
    let _lock = store.lock()?;
    let glossary = Glossary::load(store).unwrap_or_default();
    let mut projects = Projects::new(store);
    let mut inbox = Inbox::load(store)?;
    inbox.version = 1;
    // Drafts are for the local model only: without it, nobody reads them.
    let smart = Config::load(store).map(|c| c.settings().0.smart.enabled).unwrap_or(false);
    for f in found.into_iter().filter(|f| smart || !f.candidate.draft) {
        let Some(proposal) = proposal(f, &glossary, &mut projects) else { continue };
        if inbox.offer(proposal) {
            report.added += 1;
        }
    }
    inbox.save(store)?;
    if one {
        // Another scan (a `suggest`, a capture of another session) may have moved other
        // files' offsets since this one read them: only this file's is ours to write.
        scanned = read_json(&scanned_path).unwrap_or_default();
        scanned.files.extend(touched);
    }
    scanned.version = 1;
    write_json(&scanned_path, &scanned)?;
    Ok((inbox, report))
}

/// A found candidate as a proposal, or none: a term already recorded in the user's glossary
/// or in the project glossary of the folder it came from (the near-duplicate rule), or text
/// that holds a credential. A session in a folder with a project glossary is a project's.
fn proposal(f: Found, glossary: &Glossary, projects: &mut Projects) -> Option<Proposal> {
    let c = f.candidate;
    if looks_like_secret(&c.term) || looks_like_secret(&c.explanation) {
        return None;
    }
    if holds(glossary, &c.term, &c.explanation) {
        return None;
    }
    let project = f.folder.as_deref().and_then(|d| projects.of(d));
    if project.is_some_and(|(_, g)| holds(g, &c.term, &c.explanation)) {
        return None;
    }
    let in_project = f.project || project.is_some();
    Some(Proposal {
        id: String::new(),
        term: c.term,
        explanation: c.explanation,
        kind: c.kind,
        assistant: f.assistant.name().to_string(),
        source: Source { path: f.path, line: f.line },
        when: f.when,
        seen: 1,
        confidence: (c.confidence * 100.0).round() / 100.0,
        // A common word is a term of this project only: elsewhere it is just the word.
        scope_hint: if in_project || c.generic { "project" } else { "user" }.to_string(),
        status: if c.draft { Status::Draft } else { Status::Pending },
        sessions: vec![f.session],
        smart: None,
        project: f.folder,
        quote: f.quote,
        generic: c.generic,
        drafted: None,
    })
}

type Outcome = std::result::Result<(Progress, u64, Vec<Found>, usize), String>;

/// Reads the files on two threads (each file is one session; sessions are independent).
fn read_all(todo: Vec<(Assistant, PathBuf, String, Progress)>) -> Vec<(String, Outcome)> {
    let half = todo.len() / 2;
    let mut todo = todo;
    let second = todo.split_off(half);
    let run = |list: Vec<(Assistant, PathBuf, String, Progress)>| {
        list.into_iter()
            .map(|(a, path, key, from)| {
                let outcome = read_file(a, &path, &key, from);
                (key, outcome)
            })
            .collect::<Vec<_>>()
    };
    std::thread::scope(|s| {
        let other = s.spawn(|| run(second));
        let mut out = run(todo);
        out.extend(other.join().unwrap_or_default());
        out
    })
}

/// Reads one file from `from` to its last whole line (a whole-file session: all of it).
fn read_file(assistant: Assistant, path: &Path, key: &str, from: Progress) -> Outcome {
    let mut file = File::open(path).map_err(|e| format!("cannot open: {e}"))?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    let (len, mtime) = (meta.len(), mtime_ms(&meta));
    let mut session = Session::new(assistant, key);
    if whole(assistant, key) {
        let mut text = String::with_capacity(len as usize);
        std::io::Read::read_to_string(&mut file, &mut text)
            .map_err(|e| format!("read failed: {e}"))?;
        let folder = sources::gemini_folder(path);
        let (turns, garbled) = sources::gemini_whole(&text)
            .map_err(|_| "not a Gemini CLI session (a JSON object with messages)".to_string())?;
        for (turn, line) in turns {
            session.turn(Turn { folder: folder.clone(), ..turn }, line);
        }
        let progress = Progress { len, offset: len, line: 0, mtime };
        return Ok((progress, text.len() as u64, session.found(), garbled));
    }
    file.seek(SeekFrom::Start(from.offset)).map_err(|e| e.to_string())?;
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let mut parser = Parser::new(assistant);
    if assistant == Assistant::Gemini {
        parser.folder = sources::gemini_folder(path);
    }
    // Gemini: where each record's proposals start, for a `$rewindTo` naming it.
    let mut marks: Vec<(String, usize)> = Vec::new();
    let (mut offset, mut line) = (from.offset, from.line);
    let (mut safe_offset, mut safe_line) = (offset, line);
    let mut buf = Vec::with_capacity(64 * 1024);
    let mut garbled = 0usize;
    loop {
        buf.clear();
        let n = reader.read_until(b'\n', &mut buf).map_err(|e| format!("read failed: {e}"))?;
        if n == 0 || buf.last() != Some(&b'\n') {
            break; // the end, or a line still being written
        }
        offset += n as u64;
        line += 1;
        let Ok(text) = std::str::from_utf8(&buf) else {
            garbled += 1;
            continue;
        };
        let before = session.talk.found.len();
        match parser.line(text.trim_end_matches(['\n', '\r'])) {
            Ok(Some(turn)) => session.turn(turn, line),
            Ok(None) => session.project |= parser.in_project,
            Err(_) => garbled += 1,
        }
        if let Some(id) = parser.last_id.take() {
            marks.push((id, before));
        }
        if let Some(turns) = parser.checkpoint.take() {
            session.rewind(0);
            marks.clear();
            for turn in turns {
                session.turn(turn, line);
            }
        }
        if let Some(to) = parser.rewind.take() {
            // Gemini CLI's replay: the named record and all after it go; a name not found
            // here was read by an earlier scan (all of this part comes after it) or is unknown
            // (Gemini CLI then clears the session): either way this part goes. What an earlier
            // scan already proposed stays in the inbox.
            let at = marks.iter().position(|(id, _)| *id == to);
            session.rewind(at.map_or(0, |at| marks[at].1));
            marks.truncate(at.unwrap_or(0));
        }
        if parser.idle() {
            (safe_offset, safe_line) = (offset, line);
        }
    }
    let progress = Progress { len, offset: safe_offset, line: safe_line, mtime };
    Ok((progress, offset - from.offset, session.found(), garbled))
}

/// What one file's turns have yielded so far.
struct Session<'k> {
    assistant: Assistant,
    key: &'k str,
    talk: Conversation,
    whens: Vec<Option<String>>,
    last_when: Option<String>,
    project: bool,
    /// Per found candidate: the folder and the user's sentence it came from.
    origins: Vec<(Option<String>, String)>,
    /// The last user turn's prose and folder (the assistant's reply may confirm it).
    last_user: (String, Option<String>),
}

impl<'k> Session<'k> {
    fn new(assistant: Assistant, key: &'k str) -> Self {
        Session {
            assistant,
            key,
            talk: Conversation::default(),
            whens: Vec::new(),
            last_when: None,
            project: false,
            origins: Vec::new(),
            last_user: (String::new(), None),
        }
    }

    fn turn(&mut self, Turn { user, text, when, in_project, folder }: Turn, line: u64) {
        self.project |= in_project;
        let before = self.talk.found.len();
        if user {
            let prose = clean::prose(&text);
            self.talk.user(&prose, line);
            // A turn may take back the turn before's candidates ("算了，别记"): theirs go too.
            let kept = self.talk.turn_start().min(before);
            self.whens.truncate(kept);
            self.origins.truncate(kept);
            self.whens.resize(self.talk.found.len(), when.clone());
            self.last_when = when;
            self.last_user = (prose, folder);
        } else {
            // The reply may confirm a definition of the user's turn: it dates from that turn.
            self.talk.assistant(&text);
            self.whens.resize(self.talk.found.len(), self.last_when.clone());
        }
        // What a turn found comes from the last user turn (an assistant's echo names it too).
        for (candidate, _) in &self.talk.found[self.origins.len()..] {
            let quote = clean::quote_of(&self.last_user.0, &candidate.term);
            self.origins.push((self.last_user.1.clone(), quote));
        }
    }

    fn rewind(&mut self, keep: usize) {
        self.talk.rewind(keep);
        self.whens.truncate(keep);
        self.origins.truncate(keep);
    }

    fn found(self) -> Vec<Found> {
        let (assistant, key, project) = (self.assistant, self.key, self.project);
        // Resuming an old `.json` session makes Gemini CLI copy it into a `.jsonl` of the same
        // name: one session, counted once.
        let session = key.strip_suffix(".jsonl").map_or(key.to_string(), |k| format!("{k}.json"));
        let session = if assistant == Assistant::Gemini { session } else { key.to_string() };
        self.talk
            .found
            .into_iter()
            .zip(self.whens)
            .zip(self.origins)
            .map(|(((candidate, line), when), (folder, quote))| Found {
                candidate,
                assistant,
                path: key.to_string(),
                line,
                when,
                session: session.clone(),
                project,
                folder,
                quote,
            })
            .collect()
    }
}

fn since_ms(since: Option<SystemTime>) -> i64 {
    since
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as i64)
}

const SCANNED_FILE: &str = "scanned.json";
