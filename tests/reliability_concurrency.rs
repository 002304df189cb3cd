//! Reliability under concurrency and crashes (issue 6), with the real binary in a temporary
//! HOME: many writers at once lose nothing and leave an index that matches the glossary; a
//! `record` killed with SIGKILL at any moment leaves `glossary.json` complete (old or new
//! content) and no lock behind; leftover temp files break nothing; a hook that runs while
//! `record` rewrites the files answers from one consistent state.
//!
//! No timing assertions: where a test waits, a deadline only turns a hang into a failure.
//!
//! New terms are recorded with `--force`: their generated explanations are alike on purpose,
//! and the near-duplicate check would refuse them (that check is tested in tests/record.rs).

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{claude_event, js_pretty, read, stamp, Home};
use serde_json::Value;

/// Terms that never contain one another, so a prompt naming some hits exactly those.
fn term(i: usize) -> String {
    format!("term-{i:06}")
}

fn explanation(i: usize) -> String {
    format!("explanation number {i}, with some words to give the file its usual size")
}

/// Writes a glossary of `n` generated entries directly, as a hand edit (or another tool) would.
fn write_glossary(home: &Home, n: usize) -> Vec<(String, String)> {
    let entries: Vec<(String, String)> = (0..n).map(|i| (term(i), explanation(i))).collect();
    let pairs: Vec<(&str, &str)> = entries.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    home.write_store_file("glossary.json", js_pretty(&pairs).as_bytes());
    entries
}

/// The glossary file parsed, in file order; panics when it is not a complete JSON object of
/// strings.
fn glossary_entries(home: &Home) -> Vec<(String, String)> {
    let bytes = read(&home.glossary());
    let value: Value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("glossary.json is not valid JSON ({e}); {} bytes", bytes.len()));
    value
        .as_object()
        .expect("glossary.json holds an object")
        .iter()
        .map(|(t, e)| (t.clone(), e.as_str().expect("a string explanation").to_string()))
        .collect()
}

/// The `- term: explanation` lines of the block the hook answered with, as a map.
fn hook_hits(out: &common::Output) -> BTreeMap<String, String> {
    assert_eq!(out.code, 0, "hook exit code; stderr: {}", out.stderr);
    assert_eq!(out.stderr, "", "hook stderr");
    if out.stdout.is_empty() {
        return BTreeMap::new();
    }
    let v = out.json();
    let block = v["hookSpecificOutput"]["additionalContext"].as_str().expect("a block");
    assert!(block.starts_with("<system-reminder>\n[TinyLingo]\n"), "{block}");
    assert!(block.ends_with("\n</system-reminder>"), "{block}");
    let lines: Vec<&str> = block.lines().collect();
    lines[2..lines.len() - 1]
        .iter()
        .map(|l| {
            let (t, e) = l.strip_prefix("- ").and_then(|l| l.split_once(": ")).expect("an entry");
            (t.to_string(), e.to_string())
        })
        .collect()
}

/// Starts `tinylingo` with `args`, output captured.
fn spawn(home: &Home, args: &[&str]) -> Child {
    let mut cmd = home.command(args);
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.spawn().expect("start tinylingo")
}

#[track_caller]
fn wait_ok(child: Child) {
    let out = child.wait_with_output().expect("wait for tinylingo");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// True when nobody holds the store's lock: a non-blocking flock on `.lock` succeeds.
fn lock_is_free(store: &Path) -> bool {
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(store.join(".lock"))
        .expect("open the lock file");
    file.try_lock().is_ok()
}

/// The temp files atomic writes leave behind when their writer dies (`.<name>.<pid>.<n>.tmp`).
fn temp_files(store: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(store)
        .expect("read the store")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

#[test]
fn forty_concurrent_records_give_forty_entries_and_a_consistent_index() {
    let home = Home::new();
    let children: Vec<Child> =
        (0..40).map(|i| spawn(&home, &["record", "--force", &term(i), &explanation(i)])).collect();
    for child in children {
        wait_ok(child);
    }
    let entries: BTreeMap<String, String> = glossary_entries(&home).into_iter().collect();
    let want: BTreeMap<String, String> = (0..40).map(|i| (term(i), explanation(i))).collect();
    assert_eq!(entries, want);

    // The index the last writer left describes the final glossary: the hook maps it as it is
    // (a stale index would be rebuilt, i.e. replaced with a new inode) and sees all 40.
    let before = stamp(&home.index());
    let prompt: Vec<String> = (0..40).map(term).collect();
    let hits = hook_hits(&home.claude_hook(&prompt.join(" ")));
    assert_eq!(hits, want);
    assert_eq!(stamp(&home.index()), before, "the hook found the index stale and rewrote it");
    let out = home.run(&["match", "--json", &prompt.join(" ")]);
    assert_eq!(out.json()["exact"].as_array().map(Vec::len), Some(40));
    assert_eq!(stamp(&home.index()), before, "match found the index stale and rewrote it");
    assert_eq!(temp_files(&home.store()), Vec::<String>::new());
}

#[test]
fn many_records_and_removes_at_once_lose_nothing() {
    let home = Home::new();
    write_glossary(&home, 30);
    home.run(&["record", "anchor", "built the index"]).ok();
    // 15 removes of old terms and 15 records of new ones, all at once.
    let mut children = Vec::new();
    for i in 0..15 {
        children.push(spawn(&home, &["remove", &term(i)]));
        children.push(spawn(
            &home,
            &["record", "--force", &format!("new-{i:02}"), &format!("new {i}")],
        ));
    }
    for child in children {
        wait_ok(child);
    }
    let got: BTreeMap<String, String> = glossary_entries(&home).into_iter().collect();
    let mut want: BTreeMap<String, String> = (15..30).map(|i| (term(i), explanation(i))).collect();
    want.insert("anchor".into(), "built the index".into());
    for i in 0..15 {
        want.insert(format!("new-{i:02}"), format!("new {i}"));
    }
    assert_eq!(got, want);
    // The old terms that stayed keep their order at the front.
    let order: Vec<String> = glossary_entries(&home).into_iter().map(|(t, _)| t).take(15).collect();
    assert_eq!(order, (15..30).map(term).collect::<Vec<_>>());

    let before = stamp(&home.index());
    let prompt: Vec<&String> = want.keys().collect();
    let prompt = prompt.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ");
    let mut seen = hook_hits(&home.claude_hook(&format!("{prompt} {}", term(3))));
    // The block is budgeted (inject.maxChars); what it names in full must be right, and the
    // removed term must not be there.
    seen.retain(|t, _| !t.starts_with("另有相关"));
    for (t, e) in &seen {
        assert!(e.ends_with('…') || want.get(t) == Some(e), "{t}: {e}");
    }
    assert!(!seen.contains_key(&term(3)), "a removed term was injected");
    assert_eq!(stamp(&home.index()), before, "the hook found the index stale");
    let out = home.run(&["match", "--json", &prompt]);
    let exact = out.json()["exact"].as_array().map(Vec::len);
    assert_eq!(exact, Some(want.len()));
}

/// SIGKILL at random moments of a `record` over 100,000 terms (JSON rewrite and index rebuild):
/// `glossary.json` is always the old or the new complete file, the kernel releases the lock
/// with the process, and the next `record` succeeds.
#[test]
fn sigkill_during_record_at_100k_terms_never_leaves_a_broken_glossary() {
    let home = Home::new();
    let mut entries = write_glossary(&home, 100_000);
    // One record builds the index; its duration sets the range of kill moments.
    let started = Instant::now();
    home.run(&["record", "first", "builds the index"]).ok();
    let full = started.elapsed();
    entries.push(("first".into(), "builds the index".into()));
    assert_eq!(glossary_entries(&home), entries);

    // A small deterministic generator: the moments vary over the whole run, reproducibly.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut killed_old, mut killed_new) = (0, 0);
    for round in 0..12 {
        let (t, e) = (format!("killed-{round}"), format!("recorded in round {round}"));
        let mut child = spawn(&home, &["record", "--force", &t, &e]);
        // Squared: more kills early, while the JSON is read, rewritten and renamed; the index
        // build takes most of a record's time.
        let u = (next() % 1000) as f64 / 1000.0;
        let at = full.mul_f64(u * u * 1.1);
        std::thread::sleep(at);
        let _ = child.kill(); // SIGKILL; it may have finished already
        let _ = child.wait();

        let now = glossary_entries(&home);
        if now.len() == entries.len() {
            assert_eq!(now, entries, "round {round}: the old content changed");
            killed_old += 1;
        } else {
            entries.push((t, e));
            assert_eq!(now, entries, "round {round}: not the old content and not the new");
            killed_new += 1;
        }
        assert!(lock_is_free(&home.store()), "round {round}: the dead writer's lock is held");
    }
    eprintln!("kills: {killed_old} before the rename, {killed_new} after; temp files left:");
    for name in temp_files(&home.store()) {
        eprintln!("  {name}");
    }

    // The next record works, the index it writes matches, and the hook answers from it.
    home.run(&["record", "after", "the kills"]).ok();
    entries.push(("after".into(), "the kills".into()));
    assert_eq!(glossary_entries(&home), entries);
    let before = stamp(&home.index());
    let hits = hook_hits(&home.claude_hook("after the kills, first and term-099999"));
    assert_eq!(hits.get("after").map(String::as_str), Some("the kills"));
    assert_eq!(hits.get("first").map(String::as_str), Some("builds the index"));
    assert_eq!(hits.get("term-099999"), Some(&explanation(99_999)));
    assert_eq!(stamp(&home.index()), before, "the index left by the last record was stale");
}

/// A temp file left by a killed writer whose pid is later reused by another tinylingo: the
/// new writer's temp name is the same (`.glossary.json.<pid>.0.tmp`) and must not make its
/// write fail. Other leftovers are simply ignored.
#[test]
fn leftover_temp_files_do_not_break_the_next_write() {
    let home = Home::new();
    home.record_all(&common::SEED);
    let store = home.store();
    let junk = b"{\n  \"half\": \"writ";
    for name in [".glossary.json.1.0.tmp", ".glossary.index.77.3.tmp", ".config.json.5.0.tmp"] {
        fs::write(store.join(name), junk).unwrap();
    }
    // `exec` keeps the shell's pid, so the stale files below carry the writer's own pid.
    let script = "for f in glossary.json glossary.index config.json; do for n in 0 1 2; do \
                  printf junk > \"$STORE/.$f.$$.$n.tmp\"; done; done; exec \"$0\" \"$@\"";
    for args in [&["record", "新词", "x"][..], &["config", "debug", "true"], &["remove", "新词"]]
    {
        let mut cmd = home.command_via(&["sh", "-c", script], args);
        cmd.env("STORE", &store);
        let out = common::run_command(cmd, None);
        assert!(
            out.code == 0,
            "{args:?} failed next to a stale temp file with its own pid: {}",
            out.stderr
        );
    }
    // Each writer cleared away what the dead ones left (a debug log's temp file is not ours to
    // remove: the hook writes it without the lock).
    fs::write(store.join(".debug.log.9.0.tmp"), junk).unwrap();
    home.run(&["record", "新词", "x"]).ok();
    let mut left: Vec<String> = fs::read_dir(&store)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    left.sort();
    assert_eq!(left, [".debug.log.9.0.tmp"]);
    home.run(&["remove", "新词"]).ok();
    let hits = hook_hits(&home.claude_hook("智能抠图"));
    assert_eq!(hits.len(), 1);
    assert_eq!(glossary_entries(&home).len(), 4);
    let before = stamp(&home.index());
    home.claude_hook("智能抠图").ok();
    assert_eq!(stamp(&home.index()), before);
}

/// Hooks run in a loop while `record` adds terms one after another (and rewrites one term's
/// explanation): every answer is one state of the glossary — the added terms are a prefix of
/// the sequence, every explanation is one that was recorded — never garbage or a crash.
#[test]
fn hook_during_record_answers_from_a_consistent_state() {
    let home = Home::new();
    write_glossary(&home, 20_000);
    home.run(&["record", "moving", "version 0"]).ok();
    const ROUNDS: usize = 12;
    let adds: Vec<String> = (0..ROUNDS).map(|i| format!("added-{i:02}")).collect();
    let prompt = format!("moving {} {}", adds.join(" "), term(7));
    let event = claude_event(&prompt);
    let done = std::sync::atomic::AtomicBool::new(false);
    let deadline = Instant::now() + Duration::from_secs(600);

    let answers = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut answers = Vec::new();
            while !done.load(std::sync::atomic::Ordering::Relaxed) && Instant::now() < deadline {
                answers.push(hook_hits(&home.hook("claude", &event)));
            }
            answers
        });
        for (i, t) in adds.iter().enumerate() {
            home.run(&["record", "--force", t, &format!("added in round {i}")]).ok();
            home.run(&["record", "--force", "moving", &format!("version {}", i + 1)]).ok();
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        reader.join().expect("the hook loop")
    });

    assert!(!answers.is_empty());
    for hits in &answers {
        assert_eq!(hits.get(&term(7)), Some(&explanation(7)), "{hits:?}");
        let added: Vec<&String> = hits.keys().filter(|t| t.starts_with("added-")).collect();
        let n = added.len();
        assert_eq!(added, adds.iter().take(n).collect::<Vec<_>>(), "not a prefix: {hits:?}");
        for (i, t) in adds.iter().take(n).enumerate() {
            assert_eq!(hits[t], format!("added in round {i}"));
        }
        // Round i adds added-i, then sets "moving" to version i + 1: with n added, "moving"
        // is at version n - 1 (between the two records) or n.
        let v: usize = hits["moving"].strip_prefix("version ").unwrap().parse().unwrap();
        assert!(v == n || v + 1 == n, "moving at version {v} with {n} added");
    }
    eprintln!("{} hook answers during {ROUNDS} × 2 records", answers.len());
}

/// A hand edit of `glossary.json` (an editor writing in place) while `record` builds the index:
/// the index must not be labelled with the fingerprint of the edited file, or the hook would
/// keep answering from the glossary `record` wrote, ignoring the edit, until the next change.
#[test]
fn hand_edit_during_record_is_seen_by_the_next_prompt() {
    let home = Home::new();
    let mut entries = write_glossary(&home, 100_000);
    home.run(&["record", "first", "builds the index"]).ok();
    entries.push(("first".into(), "builds the index".into()));
    let old = stamp(&home.glossary());

    let child = spawn(&home, &["record", "from-record", "x"]);
    // Wait for record's rename of glossary.json (a new inode), then edit the file in place,
    // while record is still building the index.
    let deadline = Instant::now() + Duration::from_secs(120);
    while stamp(&home.glossary()).inode == old.inode {
        assert!(Instant::now() < deadline, "record never replaced glossary.json");
        std::thread::sleep(Duration::from_micros(200));
    }
    entries.push(("hand-edit".into(), "written by an editor".into()));
    let pairs: Vec<(&str, &str)> = entries.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    common::write_in_place(&home.glossary(), common::js_pretty(&pairs).as_bytes());
    // Whether or not record was still building when the edit landed, the answer must follow
    // the file.
    wait_ok(child);
    let hits = hook_hits(&home.claude_hook("hand-edit and first"));
    assert_eq!(hits.get("hand-edit").map(String::as_str), Some("written by an editor"));
    assert!(!hits.contains_key("from-record"));
    assert_eq!(glossary_entries(&home), entries);
}
