//! The index file (`glossary.index`) as the hook and `match` meet it in the wild (issue 3):
//! damaged, truncated, emptied, of another format version, stale after a hand edit, deleted,
//! or never created. Whatever state it is in, the answer is the one the JSON files give, and the
//! file is rebuilt so that the next run maps it again without rebuilding.

mod common;

use std::fs;

use common::{claude_answer, js_pretty, read, seed, stamp, write_in_place, Home, Stamp, SEED};
use tinylingo::index::{FORMAT_VERSION, HEADER_LEN};

const MAGIC: &[u8; 8] = b"TLINGOIX";
const PROMPT: &str = "智能抠图的代码改完了，帮我提交一下";

fn expected_answer() -> serde_json::Value {
    claude_answer(&[("智能抠图", seed("智能抠图")), ("提交", seed("提交"))])
}

/// Asserts a file is a well-formed index of the current format whose header describes the
/// same sources, with the same layout, as `reference` (an index built before the damage).
#[track_caller]
fn assert_valid_index(bytes: &[u8], reference: &[u8]) {
    assert!(bytes.len() >= HEADER_LEN, "index shorter than its header: {} bytes", bytes.len());
    assert_eq!(&bytes[0..8], MAGIC, "magic");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), FORMAT_VERSION, "version");
    assert_eq!(u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize, HEADER_LEN);
    let archive_len = u64::from_le_bytes(bytes[16..24].try_into().unwrap());
    assert_eq!(archive_len as usize, bytes.len() - HEADER_LEN, "archive length in the header");
    // Built from the same glossary.json and config.json as the reference.
    assert_eq!(&bytes[24..104], &reference[24..104], "source fingerprints");
}

/// Runs the hook and checks it still gives the right answer after `damage` was done to the
/// index; then that the index was rebuilt, and that a second run uses it without rebuilding.
fn check_recovery(what: &str, damage: impl Fn(&mut Vec<u8>)) {
    for via_match in [false, true] {
        let home = Home::seeded();
        let good = read(&home.index());
        assert_eq!(home.claude_hook(PROMPT).json(), expected_answer(), "{what}: before damage");
        let match_before = home.run(&["match", PROMPT]);
        match_before.ok();

        let mut bad = good.clone();
        damage(&mut bad);
        assert_ne!(bad, good, "{what}: the damage must change the file");
        write_in_place(&home.index(), &bad);
        let damaged = stamp(&home.index());

        if via_match {
            let out = home.run(&["match", PROMPT]);
            out.ok();
            assert_eq!(out.stdout, match_before.stdout, "{what}: match after damage");
        } else {
            let out = home.claude_hook(PROMPT);
            out.ok();
            assert_eq!(out.stderr, "", "{what}: hook stderr");
            assert_eq!(out.json(), expected_answer(), "{what}: hook after damage");
        }

        let rebuilt = read(&home.index());
        assert_valid_index(&rebuilt, &good);
        let after = stamp(&home.index());
        assert_ne!(after, damaged, "{what} (via match: {via_match}): the index was not rewritten");

        // The rebuilt file is used as it is: the answers stay right and it is not rewritten.
        let out = home.claude_hook(PROMPT);
        out.ok();
        assert_eq!(out.json(), expected_answer(), "{what}: second hook run");
        assert_eq!(home.run(&["match", PROMPT]).stdout, match_before.stdout);
        assert_eq!(stamp(&home.index()), after, "{what}: the rebuilt index was rebuilt again");
        assert_eq!(read(&home.index()), rebuilt);
    }
}

fn flip(at: impl Fn(usize) -> usize) -> impl Fn(&mut Vec<u8>) {
    move |b: &mut Vec<u8>| {
        let i = at(b.len());
        b[i] ^= 0x5a;
    }
}

#[test]
fn flipped_magic_byte() {
    check_recovery("magic flipped", flip(|_| 0));
    check_recovery("magic zeroed", |b: &mut Vec<u8>| b[0..8].fill(0));
}

#[test]
fn flipped_header_bytes() {
    for at in [12, 16, 20, 24, 40, 64, 100, 104, 112, 119] {
        check_recovery(&format!("header byte {at} flipped"), flip(move |_| at));
    }
}

#[test]
fn flipped_byte_near_the_end() {
    for back in [1, 2, 8, 100] {
        check_recovery(&format!("byte len-{back} flipped"), flip(move |len| len - back));
    }
}

#[test]
fn truncated_index() {
    check_recovery("last byte cut", |b: &mut Vec<u8>| b.truncate(b.len() - 1));
    check_recovery("half cut", |b: &mut Vec<u8>| b.truncate(b.len() / 2));
    check_recovery("cut inside the header", |b: &mut Vec<u8>| b.truncate(HEADER_LEN / 2));
    check_recovery("header only", |b: &mut Vec<u8>| b.truncate(HEADER_LEN));
}

#[test]
fn emptied_index() {
    check_recovery("emptied", |b: &mut Vec<u8>| b.clear());
}

#[test]
fn index_with_extra_bytes_appended() {
    check_recovery("grown", |b: &mut Vec<u8>| b.extend_from_slice(&[0u8; 64]));
}

#[test]
fn index_of_another_format_version() {
    for version in [FORMAT_VERSION + 1, FORMAT_VERSION.wrapping_sub(1), 0, u32::MAX] {
        if version == FORMAT_VERSION {
            continue;
        }
        check_recovery(&format!("version {version}"), move |b: &mut Vec<u8>| {
            b[8..12].copy_from_slice(&version.to_le_bytes())
        });
    }
}

#[test]
fn index_replaced_by_garbage_of_the_same_size() {
    check_recovery("garbage", |b: &mut Vec<u8>| {
        let mut x: u32 = 0x9e37_79b9;
        for byte in b.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *byte = x as u8;
        }
    });
}

#[test]
fn index_replaced_by_text() {
    check_recovery("text", |b: &mut Vec<u8>| {
        *b = b"TLINGOIX but not really an index, just text".to_vec();
    });
}

/// A byte flipped anywhere in the archive may be caught by no checksum; the design promises the
/// hook never lies then: it may miss a term but never shows a term that is not in the prompt or
/// an explanation other than the recorded one. And it never fails.
#[test]
fn flipped_bytes_inside_the_archive_never_make_the_hook_lie() {
    let home = Home::seeded();
    let good = read(&home.index());
    let right = [("智能抠图", seed("智能抠图")), ("提交", seed("提交"))];
    let len = good.len();
    let stride = ((len - HEADER_LEN) / 150).max(1);
    let mut checked = 0;
    for at in (HEADER_LEN..len).step_by(stride) {
        for mask in [0x01u8, 0x80] {
            let mut bad = good.clone();
            bad[at] ^= mask;
            write_in_place(&home.index(), &bad);
            let out = home.claude_hook(PROMPT);
            assert_eq!(out.code, 0, "byte {at} ^ {mask:#x}: exit code");
            assert_eq!(out.stderr, "", "byte {at} ^ {mask:#x}: stderr");
            if out.stdout.is_empty() {
                continue;
            }
            let v = out.json();
            let context = v["hookSpecificOutput"]["additionalContext"]
                .as_str()
                .unwrap_or_else(|| panic!("byte {at} ^ {mask:#x}: no context in {v}"));
            let lines: Vec<&str> = context.lines().collect();
            assert!(lines.len() >= 3, "byte {at}: {context}");
            assert_eq!(lines[0], "<system-reminder>", "byte {at}");
            assert_eq!(lines[1], "[TinyLingo]", "byte {at}");
            assert_eq!(*lines.last().unwrap(), "</system-reminder>", "byte {at}");
            for line in &lines[2..lines.len() - 1] {
                assert!(
                    right.iter().any(|(t, e)| *line == format!("- {t}: {e}")),
                    "byte {at} ^ {mask:#x}: the hook showed a line it should not: {line:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "every damaged index gave no answer at all");
}

#[test]
fn hand_edit_is_seen_and_the_index_rewritten() {
    let home = Home::seeded();
    assert_eq!(home.claude_hook(PROMPT).json(), expected_answer());
    let before: Stamp = stamp(&home.index());
    let edited = js_pretty(&[("提交", "手改：可以 push"), ("新词", "added by hand")]);
    write_in_place(&home.glossary(), edited.as_bytes());
    let out = home.claude_hook("提交 新词 智能抠图");
    out.ok();
    assert_eq!(
        out.json(),
        claude_answer(&[("提交", "手改：可以 push"), ("新词", "added by hand")])
    );
    let after = stamp(&home.index());
    assert_ne!(after.inode, before.inode, "the stale index was not rewritten");
    // The rewritten index is current: the next run does not rewrite it again.
    let out = home.claude_hook("新词");
    assert_eq!(out.json(), claude_answer(&[("新词", "added by hand")]));
    assert_eq!(stamp(&home.index()), after);
}

#[test]
fn hand_edit_of_config_json_is_seen_by_the_next_hook_run() {
    let home = Home::seeded();
    home.claude_hook(PROMPT).ok();
    let before = stamp(&home.index());
    // Turning debug on by hand: the next hook run must write its debug log.
    home.write_store_file("config.json", b"{\n  \"debug\": true\n}\n");
    let out = home.claude_hook(PROMPT);
    assert_eq!(out.json(), expected_answer());
    let log = home.store().join("debug.log");
    assert!(log.exists(), "the hand-edited config.json was not seen");
    assert_ne!(stamp(&home.index()).inode, before.inode, "the stale index was not rewritten");
}

#[test]
fn deleted_index_is_recreated_by_the_next_hook_run() {
    let home = Home::seeded();
    let good = read(&home.index());
    fs::remove_file(home.index()).unwrap();
    let out = home.claude_hook(PROMPT);
    assert_eq!(out.json(), expected_answer());
    assert!(home.index().exists(), "the hook did not recreate the index");
    assert_valid_index(&read(&home.index()), &good);
    let after = stamp(&home.index());
    assert_eq!(home.claude_hook(PROMPT).json(), expected_answer());
    assert_eq!(stamp(&home.index()), after, "the recreated index was rebuilt again");
}

#[test]
fn deleted_index_is_recreated_by_match() {
    let home = Home::seeded();
    fs::remove_file(home.index()).unwrap();
    let out = home.run(&["match", "帮我提交一下代码"]);
    out.ok();
    assert_eq!(out.stdout, format!("[精确] 提交 → {}\n", seed("提交")));
    assert!(home.index().exists(), "match did not recreate the index");
}

#[test]
fn index_build_is_deterministic() {
    let home = Home::seeded();
    let built_by_record = read(&home.index());
    fs::remove_file(home.index()).unwrap();
    home.claude_hook(PROMPT).ok();
    assert_eq!(read(&home.index()), built_by_record, "the hook rebuilt other bytes");
    write_in_place(&home.index(), b"");
    home.run(&["match", PROMPT]).ok();
    assert_eq!(read(&home.index()), built_by_record, "match rebuilt other bytes");
}

#[test]
fn hook_in_a_home_without_tinylingo_prints_nothing_and_creates_nothing() {
    let home = Home::new();
    let out = home.claude_hook(PROMPT);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new(), "the hook created files");
    // Bad input there is just as quiet.
    let out = home.hook("claude", b"garbage");
    assert_eq!((out.code, out.stdout.as_str(), out.stderr.as_str()), (0, "", ""));
    assert_eq!(home.tree(), Vec::<std::path::PathBuf>::new());
}

#[test]
fn hook_with_only_a_glossary_builds_the_index() {
    // A glossary copied in by hand (or left by the Node tool), never touched by our CLI.
    let home = Home::new();
    home.write_store_file("glossary.json", js_pretty(&SEED).as_bytes());
    let out = home.claude_hook(PROMPT);
    assert_eq!(out.json(), expected_answer());
    assert!(home.index().exists(), "the hook should build the missing index");
    let bytes = read(&home.index());
    assert_eq!(&bytes[0..8], MAGIC);
    let after = stamp(&home.index());
    assert_eq!(home.claude_hook(PROMPT).json(), expected_answer());
    assert_eq!(stamp(&home.index()), after);
}

#[test]
fn every_change_through_the_cli_rebuilds_the_index() {
    let home = Home::seeded();
    let s0 = stamp(&home.index());
    home.run(&["record", "新词", "x"]).ok();
    let s1 = stamp(&home.index());
    assert_ne!(s1.inode, s0.inode, "record did not rebuild the index");
    assert_eq!(home.claude_hook("新词").json(), claude_answer(&[("新词", "x")]));
    home.run(&["remove", "新词"]).ok();
    let s2 = stamp(&home.index());
    assert_ne!(s2.inode, s1.inode, "remove did not rebuild the index");
    assert_eq!(home.claude_hook("新词").stdout, "");
    home.run(&["config", "debug", "true"]).ok();
    assert_ne!(stamp(&home.index()).inode, s2.inode, "config did not rebuild the index");
    // The hook that follows each change maps the index as it is.
    let s3 = stamp(&home.index());
    home.claude_hook(PROMPT).ok();
    assert_eq!(stamp(&home.index()), s3);
}

/// The hook never waits for a writer: with the store's lock held by someone else and the index
/// gone, it answers from the JSON files and leaves the index for the next run.
#[test]
fn hook_answers_without_waiting_while_a_writer_holds_the_lock() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let home = Home::seeded();
    fs::remove_file(home.index()).unwrap();
    let lock = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(home.store().join(".lock"))
        .unwrap();
    lock.lock().expect("take the store's lock as a writer would");

    let mut cmd = home.command(&["hook", "claude"]);
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(&common::claude_event(PROMPT)).unwrap();
    }
    // Not a timing assertion: a hook that waits for the lock would wait forever; this only
    // turns that hang into a failure.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the hook is waiting for the store's lock");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer, expected_answer());
    assert!(!home.index().exists(), "the index was written while another process held the lock");

    // Once the writer is done, the next run rebuilds it.
    drop(lock);
    assert_eq!(home.claude_hook(PROMPT).json(), expected_answer());
    assert!(home.index().exists());
}

/// `record` and `remove` read the glossary from the index when it is current. An entry damaged
/// inside the index (the header and the archive's shape intact, so only the entry's own
/// checksum can tell) must not reach `glossary.json`: the change is made to what the JSON file
/// holds, and nothing recorded before is lost or altered.
#[test]
fn record_and_remove_never_copy_a_damaged_entry_into_the_glossary() {
    for command in [&["record", "新词", "新的解释"][..], &["remove", "联调"][..]] {
        let home = Home::seeded();
        let mut bytes = read(&home.index());
        let target = seed("提交").as_bytes();
        let at = bytes.windows(target.len()).position(|w| w == target).expect("explanation");
        // "git" → "gjt": still valid UTF-8, same length, a different rule.
        let git = at + bytes[at..].windows(3).position(|w| w == b"git").expect("git") + 1;
        bytes[git] = b'j';
        write_in_place(&home.index(), &bytes);

        home.run(command).ok();
        let mut expected: Vec<(&str, &str)> = SEED.to_vec();
        if command[0] == "record" {
            expected.push(("新词", "新的解释"));
        } else {
            expected.retain(|(t, _)| *t != "联调");
        }
        assert_eq!(
            String::from_utf8(read(&home.glossary())).unwrap(),
            js_pretty(&expected),
            "{command:?}"
        );
        assert_eq!(home.claude_hook(PROMPT).json(), expected_answer(), "{command:?}");
    }
}

/// A hand edit of `glossary.json` makes the index stale, so `record` reads the edited file.
#[test]
fn record_after_a_hand_edit_keeps_the_edit() {
    let home = Home::seeded();
    let edited = js_pretty(&[("提交", "手改：可以 push"), ("手加", "added by hand")]);
    write_in_place(&home.glossary(), edited.as_bytes());
    home.run(&["record", "新词", "新的解释"]).ok();
    let expected =
        js_pretty(&[("提交", "手改：可以 push"), ("手加", "added by hand"), ("新词", "新的解释")]);
    assert_eq!(String::from_utf8(read(&home.glossary())).unwrap(), expected);
}
