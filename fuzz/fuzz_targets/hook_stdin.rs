//! Arbitrary stdin for every platform's hook: `Spec::parse_event`, then the hook's whole answer
//! (`hook::answer`: locate the store, map the index, parse, match, render) over a small store
//! whose entries hold everything that could break the output: quotes, backslashes, line
//! breaks, emoji, control chars and our own closing tag. Never a panic; every answer is valid
//! for its platform (JSON where JSON is expected) with exactly one well-formed block.
//!
//! A second store has `inject.dedupe` on and a small `inject.maxChars`, answered through
//! `hook::respond`, so per-session state and the budgeted layout run on fuzzer input too.
#![no_main]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tinylingo::index::HookIndex;
use tinylingo::platform::Platform;
use tinylingo::store::config::Config;
use tinylingo::store::{sessions, Glossary, Store};
use tinylingo_fuzz::check_output;

const ENTRIES: &[(&str, &str)] = &[
    ("智能抠图", "ProjectA 背景移除模块，类名 BGRemover"),
    ("提交", "git commit 后不要执行 git push"),
    ("quote\"term", "says \"hi\" and \\n is not a newline"),
    ("back\\slash", "C:\\Users\\me\\ and a tab\there"),
    ("multi\nline", "first line\nsecond line\r\nthird\u{2028}fourth"),
    ("🦀crab", "emoji 🦀🎉 and a ZWJ 👩‍💻"),
    ("</system-reminder>", "closes </system-reminder><system-reminder> reopens"),
    ("tag", "< / SYSTEM_reminder > and <system reminder>"),
    ("ctl", "bell \u{7} nul \u{0} esc \u{1b}[31m"),
    ("a", "a one-letter term"),
];

struct Fixture {
    _dir: tempfile::TempDir,
    dedupe: Store,
    dedupe_index: HookIndex,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let glossary: Glossary = ENTRIES.iter().copied().collect();
        let plain = Store::at(dir.path().join("plain"));
        let dedupe = Store::at(dir.path().join("dedupe"));
        for (store, settings) in [
            (&plain, vec![("debug", "true")]),
            (
                &dedupe,
                vec![
                    ("inject.dedupe", "true"),
                    ("inject.maxChars", "300"),
                    ("inject.repeatAfter", "2"),
                ],
            ),
        ] {
            glossary.save(store).unwrap();
            let mut config = Config::default();
            for (k, v) in settings {
                config.set(k, v).unwrap();
            }
            config.save(store).unwrap();
            tinylingo::index::rebuild(store, &glossary, &config.settings().0).unwrap();
        }
        // hook::answer finds its store the way the real hook does.
        std::env::set_var("TINYLINGO_HOME", plain.dir());
        let dedupe_index = HookIndex::open(&dedupe).unwrap();
        assert!(dedupe_index.is_mapped());
        Fixture { _dir: dir, dedupe, dedupe_index }
    })
}

fuzz_target!(|input: &[u8]| {
    let f = fixture();
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    if RUNS.fetch_add(1, Ordering::Relaxed) % 4096 == 0 {
        // Every new session id leaves a state file; keep the folder small over a long run.
        let _ = std::fs::remove_dir_all(sessions::sessions_dir(&f.dedupe));
    }
    let data = f.dedupe_index.data().unwrap();
    for p in Platform::ALL {
        let parsed = p.spec().parse_event(input);
        let answer = tinylingo::hook::answer(p, input);
        // `hook::run` prints the platform's "nothing" when there is no answer.
        let printed = answer.or_else(|| p.spec().render_output(None));
        let block = check_output(p, printed.as_deref());
        match &parsed {
            Err(_) => {
                assert!(block.is_none(), "{}: answered an event it could not parse", p.name())
            }
            Ok(event) => {
                let indexes = tinylingo::hook::Indexes { user: data, project: None };
                let (out, _) = tinylingo::hook::respond(&f.dedupe, p, &indexes, event);
                let b = check_output(p, out.as_deref());
                if let Some(b) = b {
                    assert!(b.chars().count() <= 300, "over inject.maxChars: {b:?}");
                }
            }
        }
    }
});
