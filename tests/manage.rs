//! Managing the glossary (issue 17), with the real binary in a temporary HOME: the output
//! formats, `search`, `export`/`import`, two-step `remove --search`, `stats` and the hook's
//! usage log, `completions`, and what a hand-edited glossary can hold.

mod common;

use common::{read, Home, SEED};
use serde_json::{json, Value};

/// Writes entries through `import` (TSV): like `record` for each, without the near-duplicate
/// check, which would refuse the look-alike entries these tests need.
fn import_all(home: &Home, entries: &[(&str, &str)]) {
    let mut tsv = String::new();
    for (t, e) in entries {
        let mut line = String::new();
        tinylingo::output::escape_tsv(&mut line, t);
        line.push('\t');
        tinylingo::output::escape_tsv(&mut line, e);
        tsv.push_str(&line);
        tsv.push('\n');
    }
    home.run_with_stdin(&["import", "-"], Some(tsv.as_bytes())).ok();
}

fn entries_json(entries: &[(&str, &str)]) -> Value {
    Value::Array(
        entries
            .iter()
            .map(|(t, e)| json!({"term": t, "explanation": e, "scope": "user"}))
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// formats

#[test]
fn list_prints_every_format_in_glossary_order() {
    let home = Home::new();
    let tricky = ("tab term", "line one\nline two \\ back\t\r end");
    import_all(&home, &[SEED[0], SEED[1], tricky]);
    let expected = [SEED[0], SEED[1], tricky];

    let json = home.run(&["list", "--format", "json"]);
    json.ok();
    assert_eq!(json.json(), entries_json(&expected));
    // --json is the short form.
    assert_eq!(home.run(&["list", "--json"]).stdout, json.stdout);

    let jsonl = home.run(&["list", "--format", "jsonl"]);
    let lines: Vec<Value> =
        jsonl.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(Value::Array(lines), entries_json(&expected));

    let tsv = home.run(&["list", "--format", "tsv"]);
    assert_eq!(
        tsv.stdout,
        format!(
            "{}\t{}\tuser\n{}\t{}\tuser\ntab term\tline one\\nline two \\\\ back\\t\\r end\tuser\n",
            SEED[0].0, SEED[0].1, SEED[1].0, SEED[1].1
        )
    );
    // `cut -f1` sees one term a line.
    let firsts: Vec<&str> = tsv.stdout.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(firsts, [SEED[0].0, SEED[1].0, "tab term"]);
}

#[test]
fn machine_formats_stay_valid_with_nothing_and_on_errors() {
    let home = Home::new();
    let out = home.run(&["list", "--format", "json"]);
    out.ok();
    assert_eq!(out.json(), json!([]));
    assert_eq!(home.run(&["list", "--format", "jsonl"]).stdout, "");
    let out = home.run(&["search", "x", "--format", "json"]);
    out.expect_code(1);
    assert_eq!(out.json(), json!([]));
    // A broken glossary: an error on stderr, a non-zero exit, nothing on stdout.
    home.write_store_file("glossary.json", b"{\"a\": ");
    for format in ["json", "jsonl", "tsv"] {
        for cmd in [&["list"][..], &["search", "a"], &["stats"]] {
            let mut args = cmd.to_vec();
            args.extend(["--format", format]);
            let out = home.run(&args);
            out.expect_code(2);
            assert_eq!(out.stdout, "", "{args:?}");
            assert!(out.stderr.contains("glossary.json"), "{args:?}: {}", out.stderr);
        }
    }
}

#[test]
fn match_and_config_take_the_formats_too() {
    let home = Home::seeded();
    let message = format!("{} 和 {}", SEED[0].0, SEED[1].0);
    let tsv = home.run(&["match", "--no-llm", "--format", "tsv", &message]);
    tsv.ok();
    let kinds: Vec<(&str, &str)> = tsv
        .stdout
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 7, "{l}");
            assert_eq!(f[5], "none", "{l}");
            assert_eq!(f[6], "user", "{l}");
            (f[0], f[1])
        })
        .collect();
    assert!(kinds.contains(&("exact", SEED[0].0)), "{kinds:?}");
    let old = home.run(&["match", "--json", &message]).json();
    assert!(old["exact"].as_array().is_some_and(|a| a.len() >= 2), "{old}");

    let config = home.run(&["config", "--format", "tsv"]);
    config.ok();
    assert!(config.stdout.lines().any(|l| l == "stats.enabled\ttrue"), "{}", config.stdout);
    let one = home.run(&["config", "inject.maxChars", "--format", "jsonl"]);
    assert_eq!(one.json(), json!({"key": "inject.maxChars", "value": 4000}));
}

#[test]
fn config_prints_what_is_used_not_what_is_written() {
    let home = Home::new();
    home.write_store_file(
        "config.json",
        br#"{"inject": {"maxChars": "lots"}, "smart": {"enabled": true}, "mystery": 1}"#,
    );
    let out = home.run(&["config"]);
    out.ok();
    let shown = out.json();
    assert_eq!(shown["inject"]["maxChars"], 4000, "the default is used, so it is shown");
    assert_eq!(shown["smart"]["enabled"], true);
    assert!(shown.get("mystery").is_none(), "{shown}");
    assert!(out.stderr.contains("inject.maxChars") && out.stderr.contains("default"));
    assert!(out.stderr.contains("\"mystery\" is ignored"), "{}", out.stderr);
    assert_eq!(home.run(&["config", "inject.maxChars"]).stdout, "4000\n");
}

// ---------------------------------------------------------------------------------------------
// search

#[test]
fn search_is_case_insensitive_over_terms_and_explanations() {
    let home = Home::new();
    import_all(
        &home,
        &[
            ("智能抠图", "类名 BGRemover"),
            ("提交", "git commit 后不要 push"),
            ("Loop", "main loop"),
        ],
    );
    let out = home.run(&["search", "bgremover"]);
    out.ok();
    assert_eq!(out.stdout, "智能抠图: 类名 BGRemover\n");
    let out = home.run(&["search", "LOOP", "--format", "tsv"]);
    assert_eq!(out.stdout, "Loop\tmain loop\tuser\n");
    let out = home.run(&["search", "push", "--term-only"]);
    out.expect_code(1);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("No entry matches"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// export / import

#[test]
fn export_and_import_round_trip_in_every_format() {
    let source = Home::new();
    let tricky = ("a|b", "pipe | and\nnewline\ttab \\");
    import_all(&source, &[SEED[0], SEED[1], tricky]);
    let glossary = read(&source.glossary());
    for format in ["json", "jsonl", "tsv"] {
        let exported = source.run(&["export", "--format", format]);
        exported.ok();
        let target = Home::new();
        let out = target.run_with_stdin(&["import", "-"], Some(exported.stdout.as_bytes()));
        out.ok();
        assert!(out.stderr.contains("3 added"), "{format}: {}", out.stderr);
        assert_eq!(read(&target.glossary()), glossary, "{format}");
        // The imported glossary is matched at once.
        assert_eq!(common::exact_terms(&target, SEED[0].0), [SEED[0].0]);
    }
    let md = source.run(&["export", "--format", "md"]);
    assert!(md.stdout.contains("| a\\|b | pipe \\| and<br>newline\ttab \\\\ |"), "{}", md.stdout);
}

#[test]
fn export_json_is_the_glossary_file_and_search_narrows_it() {
    let home = Home::seeded();
    let out = home.run(&["export"]);
    assert_eq!(out.stdout.trim_end().as_bytes(), read(&home.glossary()).as_slice());
    let out = home.run(&["export", "--search", SEED[2].0, "--format", "jsonl"]);
    assert!(out.stdout.lines().count() >= 1);
    assert!(out.stdout.contains(SEED[2].0));
}

#[test]
fn import_refuses_conflicts_unless_told_which_side_wins() {
    let home = Home::new();
    import_all(&home, &[("a", "ours"), ("b", "same")]);
    let before = read(&home.glossary());
    let input = b"a\ttheirs\nb\tsame\nc\tnew\n";
    let out = home.run_with_stdin(&["import", "-"], Some(input));
    out.expect_code(1);
    assert!(out.stderr.contains("recorded: ours") && out.stderr.contains("imported: theirs"));
    assert_eq!(read(&home.glossary()), before, "nothing imported");

    let out =
        home.run_with_stdin(&["import", "-", "--replace", "--dry-run", "--json"], Some(input));
    out.ok();
    assert_eq!(
        out.json(),
        json!({"dry_run": true, "added": ["c"], "replaced": ["a"], "skipped": [], "unchanged": 1})
    );
    assert_eq!(read(&home.glossary()), before, "a dry run writes nothing");

    home.run_with_stdin(&["import", "-", "--skip-existing"], Some(input)).ok();
    let listed = home.run(&["list", "--json"]).json();
    assert_eq!(listed, entries_json(&[("a", "ours"), ("b", "same"), ("c", "new")]));
    home.run_with_stdin(&["import", "-", "--replace"], Some(input)).ok();
    assert_eq!(
        home.run(&["list", "--format", "tsv"]).stdout,
        "a\ttheirs\tuser\nb\tsame\tuser\nc\tnew\tuser\n"
    );
}

#[test]
fn import_warns_about_explanations_the_block_cannot_show_whole() {
    let home = Home::new();
    let long = "字".repeat(5000);
    let input = format!("短\t几个字\n长\t{long}\n");
    let out = home.run_with_stdin(&["import", "-"], Some(input.as_bytes()));
    out.ok();
    assert!(
        out.stderr.contains(
            "warning: the injected block holds at most 4000 characters (inject.maxChars), so \
             prompts will see 1 imported explanation cut short: 长"
        ),
        "{}",
        out.stderr
    );
    // What fits draws no warning.
    let out = Home::new().run_with_stdin(&["import", "-"], Some("短\t几个字\n".as_bytes()));
    assert!(!out.stderr.contains("warning"), "{}", out.stderr);
}

#[test]
fn bad_import_input_names_the_line_and_changes_nothing() {
    let home = Home::seeded();
    let before = read(&home.glossary());
    let cases: [(&[u8], &str); 4] = [
        (b"ok\tfine\nonly-one-field\n", "line 2"),
        (b"{\"term\":\"x\",\"explanation\":\"y\"}\n{\"term\":\"z\"}\n", "line 2"),
        (b"{\"x\": \"1\",\n \"x\": \"2\"}", "appears twice"),
        (b"ok\tfine\nbad\\q\tescape\n", "line 2"),
    ];
    for (input, says) in cases {
        let out = home.run_with_stdin(&["import", "-"], Some(input));
        out.expect_code(2);
        assert!(out.stderr.contains(says), "{says}: {}", out.stderr);
        assert_eq!(read(&home.glossary()), before);
    }
    // The original tool's glossary.json, from a file.
    let file = home.path().join("theirs.json");
    std::fs::write(&file, "{\n  \"新词\": \"新的解释\"\n}").unwrap();
    home.run(&["import", file.to_str().unwrap()]).ok();
    assert_eq!(common::exact_terms(&home, "新词"), ["新词"]);
}

// ---------------------------------------------------------------------------------------------
// remove --search

fn five_and_one() -> Home {
    let home = Home::new();
    let mut entries: Vec<(String, String)> =
        (1..=5).map(|i| (format!("proj{i}"), format!("ProjectA part {i}"))).collect();
    entries.push(("other".into(), "unrelated".into()));
    let refs: Vec<(&str, &str)> = entries.iter().map(|(t, e)| (t.as_str(), e.as_str())).collect();
    import_all(&home, &refs);
    home
}

#[test]
fn remove_search_previews_then_removes_with_the_code_once() {
    let home = five_and_one();
    let before = read(&home.glossary());
    let out = home.run_with_stdin(&["remove", "--search", "projecta"], Some(b""));
    out.expect_code(1);
    assert_eq!(read(&home.glossary()), before, "a preview removes nothing");
    assert!(out.stderr.contains("5 entries match"), "{}", out.stderr);
    assert!(out.stderr.contains("proj1: ProjectA part 1"), "{}", out.stderr);
    let code = out.stdout.trim().to_string();
    assert_eq!(code.len(), 6, "{}", out.stdout);
    assert!(out.stderr.contains(&format!("tinylingo remove --confirm {code}")));

    home.run(&["remove", "--confirm", &code]).ok();
    assert_eq!(home.run(&["list", "--format", "tsv"]).stdout, "other\tunrelated\tuser\n");
    let again = home.run(&["remove", "--confirm", &code]);
    again.expect_code(1);
    assert!(again.stderr.contains("used once"), "{}", again.stderr);
}

#[test]
fn a_code_is_refused_when_its_entries_changed() {
    let home = five_and_one();
    let code =
        home.run_with_stdin(&["remove", "--search", "proj", "--term-only"], Some(b"")).stdout;
    home.run(&["record", "--force", "proj3", "ProjectA part three"]).ok();
    let before = read(&home.glossary());
    let out = home.run(&["remove", "--confirm", code.trim()]);
    out.expect_code(1);
    assert!(out.stderr.contains("changed"), "{}", out.stderr);
    assert_eq!(read(&home.glossary()), before);
}

#[test]
fn an_expired_code_is_refused() {
    let home = five_and_one();
    let code = home.run_with_stdin(&["remove", "--search", "proj"], Some(b"")).stdout;
    // Age the pending code past its five minutes.
    let path = home.store().join("removals.json");
    let mut pending: Value = serde_json::from_slice(&read(&path)).unwrap();
    pending[0]["expires"] = json!(1);
    std::fs::write(&path, pending.to_string()).unwrap();
    let out = home.run(&["remove", "--confirm", code.trim()]);
    out.expect_code(1);
    assert!(out.stderr.contains("no pending removal") || out.stderr.contains("expired"));
    assert_eq!(home.run(&["list", "--format", "jsonl"]).stdout.lines().count(), 6);
}

#[test]
fn remove_search_yes_removes_at_once_and_repeats_are_harmless() {
    let home = five_and_one();
    home.run(&["remove", "--search", "PROJECTA", "--yes"]).ok();
    assert_eq!(home.run(&["list", "--format", "tsv"]).stdout, "other\tunrelated\tuser\n");
    home.run(&["remove", "--search", "projecta", "--yes"]).expect_code(1);
    // A term named twice is removed once.
    home.run(&["remove", "other", "other"]).ok();
}

// ---------------------------------------------------------------------------------------------
// stats and the usage log

#[test]
fn stats_counts_the_hooks_hits_and_the_terms_never_hit() {
    let home = Home::seeded();
    home.claude_hook(&format!("{} 有个 bug", SEED[0].0)).ok();
    home.claude_hook(&format!("再看 {}", SEED[0].0)).ok();
    home.claude_hook("今天天气不错").ok();
    assert!(!home.run(&["match", SEED[1].0]).stdout.is_empty(), "match is not counted");
    let stats = home.run(&["stats", "--format", "json"]);
    stats.ok();
    let s = stats.json();
    assert_eq!(s["terms"], SEED.len());
    assert_eq!(s["prompts_hit"], 2);
    assert_eq!(s["index_fresh"], true);
    let per_term = s["per_term"].as_array().unwrap();
    assert_eq!(per_term[0]["term"], SEED[0].0);
    assert_eq!(per_term[0]["hits"], 2);
    assert!(per_term[0]["last_hit"].as_str().is_some_and(|t| t.ends_with('Z')));
    assert!(per_term[0]["recorded"].as_str().is_some_and(|t| t.ends_with('Z')));
    assert_eq!(s["never_hit"], SEED.len() - 1);
    let tsv = home.run(&["stats", "--format", "tsv"]);
    assert_eq!(tsv.stdout.lines().count(), SEED.len());
    assert!(tsv.stdout.starts_with(&format!("{}\t2\t", SEED[0].0)), "{}", tsv.stdout);
    let text = home.run(&["stats"]);
    assert!(text.stdout.contains("prompts hit    2"), "{}", text.stdout);
}

#[test]
fn the_hook_writes_no_usage_log_without_a_hit_or_when_stats_are_off() {
    let home = Home::seeded();
    let log = home.store().join("usage.log");
    home.claude_hook("今天天气不错").ok();
    assert!(!log.exists(), "no hit, no log");
    home.run(&["config", "stats.enabled", "false"]).ok();
    home.claude_hook(SEED[0].0).ok();
    assert!(!log.exists(), "stats off, no log");
    home.run(&["config", "stats.enabled", "true"]).ok();
    home.claude_hook(SEED[0].0).ok();
    assert_eq!(String::from_utf8(read(&log)).unwrap().lines().count(), 1);
}

#[test]
fn the_usage_log_is_compacted_and_removed_terms_drop_out() {
    let home = Home::seeded();
    // A log past its cap, as if thousands of prompts had hit.
    let line = format!("1700000000\t{}\n", SEED[1].0);
    let big = line.repeat(256 * 1024 / line.len() + 10);
    home.write_store_file("usage.log", big.as_bytes());
    home.claude_hook(SEED[1].0).ok();
    let log = home.store().join("usage.log");
    assert!(!log.exists() || read(&log).len() < 1024, "the hook compacted the log");
    let s = home.run(&["stats", "--format", "json"]).json();
    let expected_hits = big.lines().count() as u64 + 1;
    assert_eq!(s["per_term"][1]["hits"], expected_hits);
    home.run(&["remove", SEED[1].0]).ok();
    home.run(&["stats"]).ok();
    let counts = String::from_utf8(read(&home.store().join("usage.json"))).unwrap();
    assert!(!counts.contains(SEED[1].0), "{counts}");
}

// ---------------------------------------------------------------------------------------------
// completions, hand-edited glossaries, exit codes

#[test]
fn completions_are_printed_for_each_shell() {
    let home = Home::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = home.run(&["completions", shell]);
        out.ok();
        assert!(out.stdout.contains("tinylingo") && out.stdout.contains("record"), "{shell}");
    }
    home.run(&["completions", "tcsh"]).expect_code(2);
}

#[test]
fn a_glossary_saved_with_a_byte_order_mark_is_read() {
    let home = Home::new();
    home.write_store_file("glossary.json", "\u{feff}{\"提交\": \"不要 push\"}".as_bytes());
    assert_eq!(home.run(&["list"]).stdout, "提交: 不要 push\n");
    assert_eq!(common::exact_terms(&home, "提交吧"), ["提交"]);
    home.run(&["record", "新", "词"]).ok();
    assert!(!read(&home.glossary()).starts_with(b"\xEF\xBB\xBF"), "written back without it");
}

#[test]
fn a_term_written_twice_by_hand_is_refused_with_its_line() {
    let home = Home::new();
    home.write_store_file("glossary.json", b"{\n  \"a\": \"first\",\n  \"a\": \"second\"\n}");
    let before = read(&home.glossary());
    for args in [&["list"][..], &["record", "bb", "x"]] {
        let out = home.run(args);
        out.expect_code(2);
        assert!(
            out.stderr.contains("line 3") && out.stderr.contains("\"a\" appears twice"),
            "{}",
            out.stderr
        );
    }
    assert_eq!(read(&home.glossary()), before, "never rewritten");
    // The hook has no good index to serve: no terms, only the notice for the user.
    let out = home.claude_hook("a");
    out.ok();
    let v = out.json();
    assert!(v["hookSpecificOutput"].is_null(), "{v}");
    assert!(v["systemMessage"].as_str().unwrap().contains("glossary.json"), "{v}");
}

#[test]
fn exit_codes_agree() {
    let home = Home::seeded();
    home.run(&["config", "bogus"]).expect_code(2);
    home.run(&["config", "bogus", "1"]).expect_code(2);
    let out = home.run(&["match", "--platform", "codex", "今天天气不错"]);
    out.expect_code(1);
    assert!(!out.stderr.is_empty(), "not silent");
    home.run(&["uninstall"]).expect_code(0);
    home.run(&["install"]).expect_code(0);
}

#[test]
fn list_recent_shows_the_newest_first_with_their_times() {
    let home = Home::new();
    import_all(&home, &[SEED[0], SEED[1]]);
    home.run_with_stdin(&["import", "-"], Some(b"imported\tfrom a file\n")).ok();
    home.run(&["record", "--force", SEED[0].0, "changed"]).ok();
    let out = home.run(&["list", "--recent", "2", "--format", "jsonl"]);
    out.ok();
    let rows: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let terms: Vec<&str> = rows.iter().map(|r| r["term"].as_str().unwrap()).collect();
    assert_eq!(terms, [SEED[0].0, "imported"]);
    assert_eq!(rows[0]["explanation"], "changed");
    assert!(rows[0]["recorded"].as_str().is_some_and(|t| t.ends_with('Z')), "{}", out.stdout);
    // A term written by hand has no time and comes last.
    home.write_store_file("glossary.json", b"{\"by hand\": \"x\"}");
    let out = home.run(&["list", "--recent", "5", "--format", "tsv"]);
    assert_eq!(out.stdout, "by hand\tx\t\tuser\n");
}
