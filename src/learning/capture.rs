//! Capture as the turn ends: the after-response hook hands the session that just answered to
//! a scan of what is new in it, so a definition made in a turn is in the inbox a moment later,
//! with no `suggest` run (`learn.capture`, on by default).
//!
//! * The hook never waits for it: it starts `tinylingo learn-capture <source> <file>` with
//!   stdin, stdout and stderr on `/dev/null`, in a process group of its own (the client may
//!   signal the hook's group once the hook has answered), and returns ([`spawn`]).
//! * One at a time: the capture appends its session to `capture.queue` and takes
//!   `capture.lock` without waiting. If another capture holds it, that one picks the session
//!   up before it exits; the holder empties the queue, lets go of the lock, and looks once
//!   more (a session queued while it let go), so nothing is left running when there is
//!   nothing to do, and nothing queued is left behind ([`run`]).
//! * The scan is `suggest`'s, of that one file, from the offset its last scan stopped at
//!   ([`super::scan::scan_session`]). A failure is only logged (the debug log).
//! * What it added is counted in `capture.news`, one line per scan that added something. The
//!   prompt hook's one extra system call is the rename that takes that file ([`take_news`]);
//!   when there was one, its answer tells the user once ([`notice`]), through the channel
//!   the client shows the user and never the model ([`crate::platform::Spec::shows_notice`]).

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::sources::Assistant;
use crate::language::Language;
use crate::platform::Platform;
use crate::store::files::StoreLock;
use crate::store::Store;

/// The hidden subcommand the hook starts.
pub const COMMAND: &str = "learn-capture";
/// The sessions waiting for the running capture: `<source>\t<file>` a line.
const QUEUE: &str = "capture.queue";
/// Held by the running capture.
const LOCK: &str = "capture.lock";
/// New proposals not yet announced: a count a line.
const NEWS: &str = "capture.news";
/// Where the prompt hook moves [`NEWS`] to read it.
const NEWS_TAKEN: &str = "capture.news.taken";

/// The source whose session files an assistant's after-response event names, if we read them.
/// ([`Platform::captures`]).
pub fn source_of(platform: Platform) -> Option<Assistant> {
    match platform {
        Platform::Claude => Some(Assistant::Claude),
        Platform::Codex => Some(Assistant::Codex),
        Platform::Gemini => Some(Assistant::Gemini),
        _ => None,
    }
}

/// The session file to capture from an after-response `event` of `platform`: its transcript
/// path, when it lies in the folder `suggest` reads that assistant's sessions from.
///
/// Codex CLI's `Stop` may come without a transcript path (null): its session id then stands
/// for the file, as `<sessions>/*-<id>.jsonl` (the rollout files end with the id), which the
/// capture looks up (`resolve`), not the hook.
pub fn session_file(platform: Platform, event: &serde_json::Value) -> Option<(Assistant, PathBuf)> {
    let source = source_of(platform)?;
    let text = |f: &str| event.get(f).and_then(|v| v.as_str()).filter(|t| !t.is_empty());
    let home = crate::store::home_dir()?;
    let folder = platform.sessions_folder(&home)?;
    let path = match text("transcript_path").or_else(|| text("transcriptPath")) {
        Some(path) => PathBuf::from(path),
        None if source == Assistant::Codex => {
            let id = text("session_id")?;
            let plain = |c: char| c.is_ascii_alphanumeric() || c == '-';
            (id.len() <= 100 && id.chars().all(plain)).then_some(())?;
            folder.join(format!("{ANY}-{id}.jsonl"))
        }
        None => return None,
    };
    (path.starts_with(&folder) && !path.components().any(|c| c.as_os_str() == ".."))
        .then_some((source, path))
}

/// What a queued file name starts with when it stands for any file ending with the rest.
const ANY: &str = "*";

/// The session file `file` names: itself, or for a `*-<id>.jsonl` the one file of the
/// source's sessions whose name ends with `-<id>.jsonl`.
fn resolve(store: &Store, source: Assistant, file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_string_lossy();
    let Some(end) = name.strip_prefix(ANY) else { return Some(file.to_path_buf()) };
    let home = crate::store::home_dir()?;
    let files = super::sources::files(source, &home, store).ok()?;
    files.into_iter().find(|f| f.file_name().is_some_and(|n| n.to_string_lossy().ends_with(end)))
}

/// Starts the capture of `file` in a detached process and returns at once.
///
/// On Unix a plain `fork`: the child makes a session of its own (`setsid`: the client's
/// signals to the hook's group do not reach it), puts `/dev/null` on its stdin, stdout and
/// stderr (the client waits for the hook's pipes to close, never for it) and `exec`s the
/// binary; the hook does not wait for the `exec`, as `std::process::Command` would, which
/// is most of a spawn's cost. Not waited for: it outlives the hook, and init reaps it.
#[cfg(unix)]
pub fn spawn(source: Assistant, file: &Path) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let exe = std::env::current_exe()?;
    let c = |b: &[u8]| CString::new(b).map_err(std::io::Error::other);
    let args = [
        c(exe.as_os_str().as_bytes())?,
        c(COMMAND.as_bytes())?,
        c(source.name().as_bytes())?,
        c(file.as_os_str().as_bytes())?,
    ];
    let mut argv: Vec<*const libc::c_char> = args.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    let null = c(b"/dev/null")?;
    // SAFETY: the hook is single-threaded; between `fork` and `exec` the child makes only
    // async-signal-safe calls on memory prepared before the fork.
    unsafe {
        match libc::fork() {
            -1 => Err(std::io::Error::last_os_error()),
            0 => {
                libc::setsid();
                let fd = libc::open(null.as_ptr(), libc::O_RDWR);
                if fd >= 0 {
                    for target in 0..3 {
                        libc::dup2(fd, target);
                    }
                    if fd > 2 {
                        libc::close(fd);
                    }
                }
                libc::execv(argv[0], argv.as_ptr());
                libc::_exit(127)
            }
            _ => Ok(()),
        }
    }
}

/// Starts the capture of `file` in a detached process and returns at once.
#[cfg(not(unix))]
pub fn spawn(source: Assistant, file: &Path) -> std::io::Result<()> {
    use std::process::{Command, Stdio};
    let mut command = Command::new(std::env::current_exe()?);
    command.arg(COMMAND).arg(source.name()).arg(file);
    command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    command.spawn().map(drop)
}

/// `tinylingo learn-capture <source> <file>`: queues the session, then, unless another
/// capture is running, scans every queued session until none is left. Returns the exit status;
/// failures go to the debug log.
pub fn run(args: &[String]) -> u8 {
    let Ok(store) = Store::locate() else { return 1 };
    let log = |line: String| crate::debug_log::log_failure(&store, &format!("capture: {line}"));
    let (Some(source), Some(file)) =
        (args.first().and_then(|a| Assistant::from_name(a)), args.get(1))
    else {
        log(format!("arguments not understood: {args:?}"));
        return 2;
    };
    if let Err(e) = queue(&store, source, Path::new(file)) {
        log(format!("cannot queue {file}: {e}"));
        return 1;
    }
    drain(&store, &log);
    0
}

fn queue(store: &Store, source: Assistant, file: &Path) -> std::io::Result<()> {
    store.ensure_dir().map_err(std::io::Error::other)?;
    let line = format!("{}\t{}\n", source.name(), file.display());
    let mut f = OpenOptions::new().create(true).append(true).open(store.dir().join(QUEUE))?;
    f.write_all(line.as_bytes())
}

/// Scans the queued sessions while this process holds the lock; see the module's text.
fn drain(store: &Store, log: &dyn Fn(String)) {
    loop {
        let Some(lock) = StoreLock::try_acquire(&store.dir().join(LOCK)) else { return };
        while let Some(sessions) = take_queue(store) {
            for (source, file) in sessions {
                capture(store, source, &file, log);
            }
        }
        drop(lock);
        // Queued between the last look and the unlock: its writer found the lock held.
        if !store.dir().join(QUEUE).exists() {
            return;
        }
    }
}

/// The queued sessions, each once, and an empty queue; `None` when nothing is queued.
fn take_queue(store: &Store) -> Option<Vec<(Assistant, PathBuf)>> {
    let path = store.dir().join(QUEUE);
    let taken = store.dir().join(format!("{QUEUE}.taken"));
    std::fs::rename(&path, &taken).ok()?;
    let text = std::fs::read_to_string(&taken).unwrap_or_default();
    let _ = std::fs::remove_file(&taken);
    let mut sessions: Vec<(Assistant, PathBuf)> = Vec::new();
    for line in text.lines() {
        let Some((name, file)) = line.split_once('\t') else { continue };
        let Some(source) = Assistant::from_name(name) else { continue };
        let entry = (source, PathBuf::from(file));
        if !sessions.contains(&entry) {
            sessions.push(entry);
        }
    }
    Some(sessions)
}

fn capture(store: &Store, source: Assistant, file: &Path, log: &dyn Fn(String)) {
    let Some(file) = resolve(store, source, file) else {
        return log(format!("{}: no such session", file.display()));
    };
    settle(&file);
    match super::scan::scan_session(store, source, &file) {
        Ok(report) => {
            for why in &report.skipped {
                log(why.clone());
            }
            if report.added > 0 {
                if let Err(e) = note_news(store, report.added) {
                    log(format!("{} new proposal(s) not noted for the notice: {e}", report.added));
                }
            }
        }
        Err(e) => log(format!("{}: {e}", file.display())),
    }
}

/// The longest the capture waits for a session file to exist and stop growing.
const SETTLE: Duration = Duration::from_millis(1500);
/// How long a session file's size must hold before the capture reads it.
const QUIET: Duration = Duration::from_millis(150);

/// Waits until `file` exists and its size has held for [`QUIET`], at most [`SETTLE`]. Claude
/// Code starts its `Stop` hook before it writes the turn to the transcript (5 to 50 ms later,
/// measured; a new session's file does not exist yet), and the capture starts the moment the
/// hook has answered: read at once, a new session's definition was missed, and an older
/// session's read without the assistant's confirmation. Nobody waits for the capture, so the
/// wait costs the user nothing; the inbox still has the proposal well within two seconds.
fn settle(file: &Path) {
    let started = Instant::now();
    let (mut size, mut since) = (None, Instant::now());
    while started.elapsed() < SETTLE {
        let now = std::fs::metadata(file).ok().map(|m| m.len());
        if now != size {
            (size, since) = (now, Instant::now());
        } else if size.is_some() && since.elapsed() >= QUIET {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn note_news(store: &Store, added: usize) -> std::io::Result<()> {
    let mut f = OpenOptions::new().create(true).append(true).open(store.dir().join(NEWS))?;
    f.write_all(format!("{added}\n").as_bytes())
}

/// The number of proposals captured since the last notice, taken (the next call says 0
/// until more arrive). The usual prompt, with nothing new, costs one failed `rename`.
pub fn take_news(store: &Store) -> usize {
    let taken = store.dir().join(NEWS_TAKEN);
    if std::fs::rename(store.dir().join(NEWS), &taken).is_err() {
        return 0;
    }
    let text = std::fs::read_to_string(&taken).unwrap_or_default();
    let _ = std::fs::remove_file(&taken);
    text.lines().filter_map(|l| l.trim().parse::<usize>().ok()).sum()
}

/// The notice of `count` new proposals, for the user; `review` is how the user starts the
/// review command in this assistant ([`crate::platform::review`]).
pub fn notice(count: usize, language: Language, review: Option<&str>) -> String {
    // The review command install added to this assistant, else the terminal's command.
    let how = match review {
        Some(command) => format!("`{command}` (or `tinylingo inbox`)"),
        None => "`tinylingo inbox`".to_string(),
    };
    match (language, count) {
        (Language::En, 1) => {
            format!("tinylingo: 1 new glossary proposal from your sessions; review it with {how}.")
        }
        (Language::En, n) => {
            format!(
                "tinylingo: {n} new glossary proposals from your sessions; review them with {how}."
            )
        }
        (Language::Zh, n) => {
            format!("tinylingo：从你的会话中发现 {n} 条新的术语建议，用 {how} 查看。")
        }
    }
}

/// The pending proposals in the inbox (for `doctor`, `stats` and `install`).
pub fn pending(store: &Store) -> usize {
    super::Inbox::load(store).map_or(0, |i| i.pending().len())
}

/// What `doctor`, `stats` and `install` say about the pending proposals: `None` when there
/// are none.
pub fn pending_line(count: usize) -> Option<String> {
    match count {
        0 => None,
        1 => Some("1 glossary proposal waiting: `tinylingo inbox` to review it".into()),
        n => Some(format!("{n} glossary proposals waiting: `tinylingo inbox` to review them")),
    }
}

/// `doctor`'s line: the capture on or off, and the proposals waiting.
pub fn summary(store: &Store, settings: &crate::store::config::Settings) -> String {
    let capture = match settings.learn.capture {
        true => "capture on",
        false => "capture off (`tinylingo config learn.capture true`; `tinylingo suggest` scans)",
    };
    let waiting = pending_line(pending(store)).unwrap_or_else(|| "no proposal waiting".into());
    format!("{capture}; {waiting}")
}

/// The line `install` ends with: whether the capture is on, how to review, how to turn it off.
pub fn install_line(store: &Store) -> String {
    let settings =
        crate::store::config::Config::load(store).map(|c| c.settings().0).unwrap_or_default();
    let waiting = match pending(store) {
        0 => String::new(),
        n => format!(" ({n} waiting)"),
    };
    if settings.learn.capture {
        format!(
            "Learning: terms you define in a session are captured as proposals when the turn              ends; review them with `tinylingo inbox`{waiting}; turn this off with `tinylingo              config learn.capture false`."
        )
    } else {
        format!(
            "Learning: capture is off (`tinylingo config learn.capture true` turns it on);              `tinylingo suggest` scans your sessions on demand, `tinylingo inbox` reviews{waiting}."
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn news_is_taken_once() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::at(tmp.path());
        assert_eq!(take_news(&store), 0);
        note_news(&store, 2).unwrap();
        note_news(&store, 1).unwrap();
        assert_eq!(take_news(&store), 3);
        assert_eq!(take_news(&store), 0);
        assert!(notice(3, Language::En, None).contains("3 new glossary proposals"));
        assert!(notice(1, Language::Zh, None).contains("tinylingo inbox"));
        let named = notice(2, Language::En, Some("/tinylingo-review"));
        assert!(named.contains("`/tinylingo-review` (or `tinylingo inbox`)"), "{named}");
    }

    #[test]
    fn the_queue_gives_each_session_once() {
        let tmp = tempfile::tempdir().unwrap();
        let store = Store::at(tmp.path());
        assert!(take_queue(&store).is_none());
        queue(&store, Assistant::Claude, Path::new("/a.jsonl")).unwrap();
        queue(&store, Assistant::Claude, Path::new("/a.jsonl")).unwrap();
        queue(&store, Assistant::Gemini, Path::new("/b.jsonl")).unwrap();
        let got = take_queue(&store).unwrap();
        assert_eq!(got.len(), 2);
        assert!(take_queue(&store).is_none());
    }
}
