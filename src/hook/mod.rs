//! The hook's path: event on stdin → index → matching → the platform's answer on stdout.
//!
//! This runs in front of every prompt a person types, so two rules shape it. It must be fast:
//! the index is mapped, not parsed, and nothing here reads `glossary.json` unless the index is
//! stale. And it must never break a prompt: every error, and even a panic, ends in exit 0 with
//! nothing on stdout (Cursor gets its `{"continue":true}`); the reason goes to the debug log
//! when `debug` is on.

pub mod after;
pub mod notice;

use std::io::{Read, Write};
use std::time::{Duration, Instant, SystemTime};

use crate::debug_log;
use crate::index::{ArchivedIndexData, Broken, HookIndex};
use crate::matching::{self, llm::LlmRequest, Engines, Outcome, Smart, Verdict};
use crate::platform::block::{self, BlockEntry};
use crate::platform::{Event, Platform};
use crate::project::Project;
use crate::store::config::ArchivedSettings;
use crate::store::sessions::{self, SessionState};
use crate::store::Store;

/// Runs the hook for `platform` on this process's stdin and stdout. Never fails.
pub fn run(platform: Platform) {
    let event = quiet_event();
    let answer = std::panic::catch_unwind(|| event.and_then(|input| answer(platform, &input)))
        .ok()
        .flatten();
    let output = answer.or_else(|| platform.spec().render_output(None));
    if let Some(text) = output {
        let _ = write_stdout(text.as_bytes());
    }
}

/// The answer in one `write` to file descriptor 1, past std's line buffer: a block longer than
/// the buffer's 1 KiB otherwise goes through its cold path, code that lies apart from the rest of
/// the hook's (one more page fault per run) to end in the same single write.
#[cfg(unix)]
fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    use std::os::fd::FromRawFd;
    // SAFETY: descriptor 1 exists (the binary's `main` reopens a closed one on /dev/null), and
    // ManuallyDrop keeps this `File` from closing it.
    let out = std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(1) });
    (&*out).write_all(bytes)
}

#[cfg(not(unix))]
fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|_| out.flush())
}

/// What both hooks do first: make the process quiet, then read the event. An assistant that
/// stops reading must not kill the hook with SIGPIPE (the write fails and the hook still exits
/// 0), and a panic message on stderr could show up in the assistant. `None` when stdin cannot be
/// read. Inlined so that the hot-path linker script's list of the hook's functions still holds.
#[inline(always)]
fn quiet_event() -> Option<Vec<u8>> {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
    std::panic::set_hook(Box::new(|_| {}));
    // Most events fit at once: one read instead of a doubling series of small ones.
    let mut input = Vec::with_capacity(64 * 1024);
    std::io::stdin().lock().read_to_end(&mut input).ok()?;
    Some(input)
}

/// `tinylingo hook` with arguments it does not take (none, an unknown assistant, extra words):
/// an assistant ran a registration it cannot have meant. The hook still exits 0 with nothing on
/// stdout, since exit 2 would block the user's prompt; the debug log says why.
pub fn ignore_arguments(args: &[String]) {
    std::panic::set_hook(Box::new(|_| {}));
    let _ = std::panic::catch_unwind(|| {
        let store = Store::locate().ok()?;
        debug_log::log_failure(
            &store,
            &format!("hook: arguments not understood: {args:?}; nothing printed"),
        );
        Some(())
    });
}

/// The text to print for one event, or `None` (the platform's "nothing" then applies).
pub fn answer(platform: Platform, input: &[u8]) -> Option<String> {
    let started = Instant::now();
    let store = Store::locate().ok()?;
    let spec = platform.spec();
    let index = match HookIndex::open_or_last_good(&store) {
        Ok(index) => index,
        Err(e) => {
            debug_log::log_failure(
                &store,
                &format!("{} no index: {e}; nothing injected", platform.name()),
            );
            return notice_alone(&store, platform, input, &e);
        }
    };
    let data = index.data()?;
    let settings = &data.settings;
    let event = match spec.parse_event(input) {
        Ok(event) => event,
        Err(problem) => {
            log_line(&store, settings, || format!("{} {problem}", spec.name));
            return None;
        }
    };
    if settings.thread.enabled {
        keep_for_journal(&store, &event);
    }
    // A glossary that does not parse is served from its last good index; the user hears of
    // it once a day. Both checks are of fields already read: the usual prompt pays nothing.
    let mut broken: Vec<Broken> = index.broken.iter().cloned().collect();
    let project =
        event.cwd.as_deref().and_then(|cwd| open_project(&store, settings, cwd, &mut broken));
    let notice = match broken.is_empty() || !spec.shows_notice() {
        true => None,
        false => notice::due(
            &store,
            &broken,
            settings.language.native(),
            &crate::journal::today(),
            |line| log_line(&store, settings, || line),
        ),
    };
    // Proposals the capture found since the last notice: the user hears of them once, on
    // this answer. The usual prompt, with nothing new, pays one failed `rename`.
    let notice = match settings.learn.capture && spec.shows_notice() {
        true => with_news(&store, notice, settings.language.native(), spec),
        false => notice,
    };
    let indexes = Indexes { user: data, project: project.as_ref().and_then(HookIndex::data) };
    let (output, outcome) = respond_noting(&store, platform, &indexes, &event, notice.as_deref());
    if settings.stats.enabled {
        note_usage(&store, settings, &outcome);
    }
    log_line(&store, settings, || {
        describe(spec.name, &index, &outcome, event.prompt.chars().count(), started.elapsed())
    });
    output
}

/// `notice`, followed by the notice of the proposals captured since the last one, if any
/// ([`crate::learning::capture`]).
fn with_news(
    store: &Store,
    notice: Option<String>,
    language: crate::language::Language,
    spec: &crate::platform::Spec,
) -> Option<String> {
    use crate::learning::capture;
    let news = match capture::take_news(store) {
        0 => return notice,
        n => capture::notice(n, language, spec.review.map(|r| r.invocation)),
    };
    Some(match notice {
        Some(before) => format!("{before} {news}"),
        None => news,
    })
}

/// The answer when the user's index cannot be opened at all: nothing for the model, but the
/// notice, if the reason is a `glossary.json` that does not parse and no good index was ever
/// built from it (so there is nothing to serve), the assistant has a channel for it, and it
/// is due today.
fn notice_alone(
    store: &Store,
    platform: Platform,
    input: &[u8],
    e: &crate::Error,
) -> Option<String> {
    let spec = platform.spec();
    let broken = Broken::of(e, None).filter(|_| spec.shows_notice())?;
    spec.parse_event(input).ok()?;
    let config = crate::store::config::Config::load(store).ok();
    let settings = config.map(|c| c.settings().0).unwrap_or_default();
    let log = |line: String| {
        if settings.debug {
            debug_log::append(store, &line);
        }
    };
    let text = notice::due(store, &[broken], settings.language, &crate::journal::today(), log)?;
    spec.render_with_notice(None, Some(&text))
}

/// The index of the trusted project glossary that applies in `cwd`, if there is one. An
/// untrusted one is skipped, with a line in the debug log: the user's own terms are still
/// served. One that does not parse (a bad hand edit, a merge conflict left in it) is served
/// from its last good index, or skipped when it has none, and added to `broken`.
fn open_project(
    store: &Store,
    settings: &ArchivedSettings,
    cwd: &str,
    broken: &mut Vec<Broken>,
) -> Option<HookIndex> {
    // With no folder trusted no project glossary can apply: the walk up (a `stat` per folder)
    // would only find one to skip, which is worth its cost only for the debug log's line.
    if settings.trusted.is_empty() && !settings.debug {
        return None;
    }
    let project = crate::project::find(std::path::Path::new(cwd), store)?;
    if !project.is_trusted(settings.trusted.iter().map(|t| t.as_str())) {
        log_line(store, settings, || {
            format!("project glossary {} not trusted; skipped", project.glossary_path().display())
        });
        return None;
    }
    // A glossary read through a link is the user's only when they trusted it knowingly.
    if let Err(e) = project.check_links(settings.trusted_links.iter().map(|t| t.as_str())) {
        log_line(store, settings, || format!("project glossary skipped: {e}"));
        return None;
    }
    match HookIndex::open_or_last_good(&project.store) {
        Ok(index) => {
            if let Some(b) = &index.broken {
                broken.push(b.clone());
                log_line(store, settings, || {
                    format!(
                        "project glossary {} does not parse; last good index served",
                        b.path.display()
                    )
                });
            } else if let Some(why) = &index.fallback_reason {
                // Rebuilt (a pull, a checkout, a hand edit): once, as the file was rewritten.
                // A folder made by hand may lack the .gitignore that keeps the index out of git.
                let _ = project.prepare();
                log_line(store, settings, || {
                    format!("project index {} rebuilt[{why}]", project.root.display())
                });
                note_seen(store, settings, &project, &index);
            }
            Some(index)
        }
        Err(e) => {
            broken.extend(Broken::of(&e, None));
            log_line(store, settings, || format!("project glossary skipped: {e}"));
            None
        }
    }
}

/// Notes when this machine first had each term of a trusted project's glossary (for `check
/// --unused`, [`crate::store::seen`]): on a rebuild only, that is once per new version of the
/// glossary (a pull, a checkout), so the usual prompt pays nothing. Skipped when a writer holds
/// the user's store (the hook never waits); a later rebuild or `check` notes them then.
fn note_seen(store: &Store, settings: &ArchivedSettings, project: &Project, index: &HookIndex) {
    use crate::matching::TermSource;
    let Some(data) = index.data() else { return };
    let Some(_lock) = store.try_lock() else { return };
    let entries = &data.entries;
    let terms = (0..entries.len() as u32).filter_map(|id| entries.term(id));
    if let Err(e) = crate::store::seen::note(store, &project.root, terms, SystemTime::now()) {
        log_line(store, settings, || format!("project terms not noted as seen: {e}"));
    }
}

/// The indexes one prompt is matched against: the user's, whose settings apply, and the
/// trusted project glossary's, if one applies.
pub struct Indexes<'a> {
    pub user: &'a ArchivedIndexData,
    pub project: Option<&'a ArchivedIndexData>,
}

impl<'a> Indexes<'a> {
    /// Everything the prompt matches in both, merged ([`matching::find_both`]).
    pub fn find(&self, message: &str, smart: &Smart) -> Outcome<'a> {
        let engines = |d: &'a ArchivedIndexData| Engines {
            automaton: &d.automaton,
            fuzzy: &d.fuzzy,
            entries: &d.entries,
        };
        matching::find_both(self.project.map(engines).as_ref(), &engines(self.user), message, smart)
    }
}

/// Appends the prompt's hits to the usage log (`stats`); a prompt without hits costs nothing.
fn note_usage(store: &Store, settings: &ArchivedSettings, outcome: &Outcome) {
    let terms: Vec<&str> = outcome.hits().map(|(e, _)| e.term).collect();
    if terms.is_empty() {
        return;
    }
    if let Err(e) = crate::store::usage::note(store, &terms, SystemTime::now()) {
        log_line(store, settings, || format!("usage log: {e}"));
    }
}

/// Keeps the prompt for the after-response hook, which writes the journal entry (only while
/// the journal is on: otherwise the hook does no more than before).
fn keep_for_journal(store: &Store, event: &Event) {
    let Some(session) = &event.session else { return };
    let pending = crate::journal::pending::Pending {
        prompt: event.prompt.clone(),
        model: event.model.clone(),
        cwd: event.cwd.clone(),
    };
    if let Err(e) = crate::journal::pending::keep(store, session, &pending) {
        debug_log::log_failure(store, &format!("journal: cannot keep the prompt: {e}"));
    }
}

/// What the hook prints for `event`, and what matched. Shared with `match --platform`, so that
/// the debug view shows exactly what the hook would inject.
///
/// With `inject.dedupe` on and a session id in the event, terms injected in the session's last
/// `inject.repeatAfter` prompts are left out, and the session's state records what the model
/// was shown this time (hits named only on the last line stay eligible).
pub fn respond<'a>(
    store: &Store,
    platform: Platform,
    indexes: &Indexes<'a>,
    event: &Event,
) -> (Option<String>, Outcome<'a>) {
    respond_noting(store, platform, indexes, event, None)
}

/// [`respond`], with a `notice` for the user (never the model), which goes where the assistant
/// shows such a message ([`crate::platform::Spec::render_with_notice`]).
pub fn respond_noting<'a>(
    store: &Store,
    platform: Platform,
    indexes: &Indexes<'a>,
    event: &Event,
    notice: Option<&str>,
) -> (Option<String>, Outcome<'a>) {
    let settings = &indexes.user.settings;
    let key = api_key(store, settings);
    let outcome = indexes.find(&event.prompt, &smart_mode(settings, &key));
    let mut entries: Vec<BlockEntry> = outcome
        .hits()
        .map(|(e, smart)| BlockEntry { term: e.term, explanation: e.explanation, smart })
        .collect();
    let inject = &settings.inject;
    let session = event.session.as_deref().filter(|_| inject.dedupe);
    let mut state = match session {
        // A prompt without hits still counts towards "the last N prompts".
        Some(id) if entries.is_empty() => {
            sessions::note_prompt(store, id);
            None
        }
        Some(id) => SessionState::load(store, id, inject.repeat_after.to_native()),
        None => None,
    };
    if let Some(state) = &state {
        entries.retain(|e| state.keep(e.term));
    }
    let max_chars = inject.max_chars.to_native() as usize;
    let block = block::layout(&entries, max_chars, settings.language.native());
    if let Some(state) = &mut state {
        if let Some(b) = &block {
            for (e, form) in entries.iter().zip(&b.forms) {
                if form.explained() {
                    state.record(e.term);
                }
            }
        }
        // Saved even when nothing new was shown: it also advances the prompt counter.
        let _ = state.save();
    }
    let context = block.as_ref().map(|b| b.text.as_str());
    (platform.spec().render_with_notice(context, notice), outcome)
}

/// `smart.apiKey`, read from `config.json` only when smart matching is on: the index holds no
/// key (it is a file any process of the user's may map, and a project's sits in a work tree).
pub fn api_key(store: &Store, settings: &ArchivedSettings) -> String {
    if !settings.smart.enabled {
        return String::new();
    }
    crate::store::config::Config::load(store)
        .map(|c| c.settings().0.smart.api_key)
        .unwrap_or_default()
}

/// The smart-matching mode the settings ask for (shared with `match`), with the `api_key`
/// [`api_key`] read.
pub fn smart_mode<'a>(settings: &'a ArchivedSettings, api_key: &'a str) -> Smart<'a> {
    let s = &settings.smart;
    if !s.enabled {
        return Smart::Off;
    }
    Smart::Confirm {
        threshold: s.fuzzy_threshold.to_native(),
        llm: LlmRequest {
            endpoint: s.endpoint.as_str(),
            model: s.model.as_str(),
            api_key,
            timeout: Duration::from_millis(s.timeout_ms.to_native()),
            template: s.prompt.as_str(),
        },
    }
}

/// One debug-log line for a hook run.
fn describe(
    platform: &str,
    index: &HookIndex,
    o: &Outcome,
    chars: usize,
    total: Duration,
) -> String {
    let mut line = format!(
        "{platform} prompt={chars}ch index={} exact={}({:?}) fuzzy={:?} llm={:?}",
        match (&index.fallback_reason, &index.broken) {
            (None, _) => "mapped".to_string(),
            (Some(why), Some(_)) => format!("last-good[{why}]"),
            (Some(why), None) => format!("rebuilt[{why}]"),
        },
        o.exact.len(),
        o.exact_time,
        o.fuzzy_time,
        o.llm_time,
    );
    if !o.candidates.is_empty() {
        let list: Vec<String> = o
            .candidates
            .iter()
            .map(|c| format!("{}:{:.2}:{:?}", c.entry.term, c.score, c.confirmed))
            .collect();
        line.push_str(&format!(" candidates=[{}]", list.join(", ")));
    }
    match &o.verdict {
        Verdict::NotAsked => {}
        Verdict::Answered => line.push_str(" llm=answered"),
        Verdict::Failed(e) => line.push_str(&format!(" llm=failed({e})")),
    }
    line.push_str(&format!(" total={total:?}"));
    line
}

/// Appends a line to the debug log when `debug` is on; best effort, capped in size.
fn log_line(store: &Store, settings: &ArchivedSettings, line: impl FnOnce() -> String) {
    if settings.debug {
        debug_log::append(store, &line());
    }
}
