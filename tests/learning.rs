//! `suggest` and the inbox, through the real binary: the session stores real clients wrote
//! (tests/fixtures/sessions/), and the inbox's accept and reject going through `record`. The
//! rules' precision and recall on the labeled cases are `tests/learning_corpus.rs`.

mod common;
#[path = "support/llm_server.rs"]
mod llm_server;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use common::Home;
use llm_server::{refused_port, LlmServer, Reply};
use serde_json::Value;

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A home holding the session stores the real clients wrote in the end-to-end runs.
fn with_fixtures() -> Home {
    let home = Home::new();
    let fixtures = root().join("tests/fixtures/sessions");
    copy_dir(&fixtures.join("claude"), &home.path().join(".claude/projects"));
    copy_dir(&fixtures.join("codex"), &home.path().join(".codex/sessions"));
    copy_dir(&fixtures.join("gemini"), &home.path().join(".gemini/tmp"));
    copy_dir(&fixtures.join("opencode"), &home.path().join(".local/share/opencode"));
    home
}

fn proposals(stdout: &str) -> Vec<Value> {
    stdout.lines().map(|l| serde_json::from_str(l).expect("a JSON object a line")).collect()
}

fn terms(stdout: &str) -> BTreeSet<String> {
    proposals(stdout).iter().map(|p| p["term"].as_str().unwrap().to_string()).collect()
}

#[test]
fn every_real_client_store_yields_the_terms_the_user_defined_and_nothing_else() {
    for assistant in ["claude", "codex", "gemini", "opencode"] {
        let home = with_fixtures();
        home.run(&["record", "智能抠图", "ProjectA 背景移除模块"]).ok();
        let out = home.run(&["suggest", "--format", "jsonl", "--assistant", assistant]);
        out.ok();
        // The sessions: a prompt with our injected block, a definition in Chinese, one in
        // English, and a one-off instruction ("don't push this one yet").
        let expected: BTreeSet<String> = ["PX-42", "blue"].map(String::from).into();
        assert_eq!(terms(&out.stdout), expected, "{assistant}: {}", out.stderr);
        for p in proposals(&out.stdout) {
            assert_eq!(p["assistant"], assistant);
            assert!(p["source"]["line"].as_u64().unwrap() > 0);
            assert!(p["confidence"].as_f64().unwrap() > 0.9, "confirmed by the assistant: {p}");
        }
    }
}

#[test]
fn a_rescan_with_nothing_new_reads_nothing_and_a_new_line_is_read_alone() {
    let home = with_fixtures();
    let first = home.run(&["suggest", "--format", "jsonl"]);
    first.ok();
    assert!(first.stderr.contains("2 new proposal(s)"), "{}", first.stderr);
    let again = home.run(&["suggest", "--format", "jsonl"]);
    assert!(again.stderr.starts_with("Read 0 file(s)"), "{}", again.stderr);
    assert_eq!(terms(&again.stdout), terms(&first.stdout));
    // A session grows by one prompt: only that file is read, from where the last scan stopped.
    let session =
        fs::read_dir(home.path().join(".claude/projects")).unwrap().next().unwrap().unwrap().path();
    let file = fs::read_dir(&session).unwrap().next().unwrap().unwrap().path();
    let line = r#"{"type":"user","message":{"role":"user","content":"以后部署前都要先跑 make smoke"},"timestamp":"2026-11-25T21:00:00Z"}"#;
    let mut text = fs::read_to_string(&file).unwrap();
    text.push_str(line);
    text.push('\n');
    fs::write(&file, text).unwrap();
    let third = home.run(&["suggest", "--format", "jsonl"]);
    assert!(third.stderr.starts_with("Read 1 file(s)"), "{}", third.stderr);
    // The rule names a command: the proposal is about the command.
    assert!(terms(&third.stdout).contains("make smoke"), "{}", third.stdout);
}

#[test]
fn accept_goes_through_record_and_reject_is_remembered() {
    let home = with_fixtures();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let all = proposals(&out.stdout);
    let id_of = |term: &str| {
        all.iter().find(|p| p["term"] == term).unwrap()["id"].as_str().unwrap().to_string()
    };
    let (px, blue) = (id_of("PX-42"), id_of("blue"));

    home.run(&["inbox", "accept", &px]).ok();
    let listed = home.run(&["list", "--format", "jsonl"]);
    assert!(listed.stdout.contains("PX-42"), "{}", listed.stdout);
    // Accepted once: a second accept is refused (exit 1) and changes nothing.
    home.run(&["inbox", "accept", &px]).expect_code(1);
    home.run(&["inbox", "accept", "nosuch"]).expect_code(1);

    home.run(&["inbox", "reject", &blue]).ok();
    assert!(terms(&home.run(&["inbox", "--format", "jsonl"]).stdout).is_empty());
    // Removing the scan's memory makes every session new again: the rejected term and the
    // recorded one still do not come back.
    fs::remove_file(home.store().join("scanned.json")).unwrap();
    let rescan = home.run(&["suggest", "--format", "jsonl"]);
    assert!(terms(&rescan.stdout).is_empty(), "{}", rescan.stdout);
}

#[test]
fn accept_refuses_a_near_duplicate_with_records_exit_code() {
    let home = with_fixtures();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let px = proposals(&out.stdout).into_iter().find(|p| p["term"] == "PX-42").unwrap();
    let id = px["id"].as_str().unwrap();
    // Recorded meanwhile under another spelling: the same near-duplicate check as `record`.
    home.run(&["record", "px-42", "another text entirely"]).ok();
    let refused = home.run(&["inbox", "accept", id]);
    refused.expect_code(1);
    assert!(refused.stderr.contains("px-42"), "{}", refused.stderr);
    // --explanation replaces the text; a bad --min-confidence is bad input (exit 2).
    home.run(&["inbox", "accept", "--all", "--min-confidence", "1.5"]).expect_code(2);
}

#[test]
fn accept_all_takes_the_confident_ones_with_their_explanations_and_never_a_common_word() {
    let home = with_fixtures();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    // "we call the staging cluster blue": a common word, named as the project's own, so
    // proposed, marked, and for the project only.
    let blue = proposals(&out.stdout).into_iter().find(|p| p["term"] == "blue").unwrap();
    assert_eq!((&blue["generic"], &blue["scope_hint"]), (&Value::Bool(true), &"project".into()));
    let px = proposals(&out.stdout).into_iter().find(|p| p["term"] == "PX-42").unwrap();
    assert_eq!(px["generic"], false);
    home.run(&["inbox", "accept", "--all", "--min-confidence", "0.9"]).ok();
    let glossary: Value =
        serde_json::from_str(&fs::read_to_string(home.glossary()).unwrap()).unwrap();
    assert!(glossary["PX-42"].as_str().unwrap().contains("services/payments/"));
    // Never in bulk, whatever its confidence: a person accepts it alone.
    assert!(glossary.get("blue").is_none(), "{glossary}");
    let pending = terms(&home.run(&["inbox", "--format", "jsonl"]).stdout);
    assert_eq!(pending, ["blue".to_string()].into());
    home.run(&["inbox", "accept", blue["id"].as_str().unwrap()]).ok();
}

/// A home whose one Claude Code session holds these prompts, and nothing else.
fn with_prompts(prompts: &[&str]) -> Home {
    let home = Home::new();
    let dir = home.path().join(".claude/projects/p");
    fs::create_dir_all(&dir).unwrap();
    let lines: String = prompts
        .iter()
        .map(|text| {
            format!("{}\n", serde_json::json!({"type": "user", "message": {"content": text}}))
        })
        .collect();
    fs::write(dir.join("a.jsonl"), lines).unwrap();
    home
}

#[test]
fn accept_all_takes_only_proposals_at_or_above_the_confidence_given() {
    // Two definitions no reply confirms: 0.85 ("we call …") and 0.75 ("X is the …").
    let home = with_prompts(&[
        "we call the payments gateway PX-42",
        "nightly-reindex is the cron job that rebuilds the search index",
    ]);
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let confidence = |term: &str| {
        let all = proposals(&out.stdout);
        all.iter().find(|p| p["term"] == term).unwrap()["confidence"].as_f64().unwrap()
    };
    assert!(confidence("PX-42") >= 0.8 && confidence("nightly-reindex") < 0.8, "{}", out.stdout);
    home.run(&["inbox", "accept", "--all", "--min-confidence", "0.8"]).ok();
    let glossary = fs::read_to_string(home.glossary()).unwrap();
    assert!(glossary.contains("PX-42") && !glossary.contains("nightly-reindex"), "{glossary}");
}

#[test]
fn sessions_are_found_where_the_assistants_folder_variables_put_them() {
    // Moved folders, as `install` finds them: Claude Code's to $CLAUDE_CONFIG_DIR, Gemini
    // CLI's to $GEMINI_CLI_HOME/.gemini, Codex's to $CODEX_HOME. The default places hold
    // nothing, so only the moved ones can yield the proposals.
    let fixtures = root().join("tests/fixtures/sessions");
    let mut wrong = Vec::new();
    for (assistant, var, store) in [
        ("claude", "CLAUDE_CONFIG_DIR", "projects"),
        ("gemini", "GEMINI_CLI_HOME", ".gemini/tmp"),
        ("codex", "CODEX_HOME", "sessions"),
    ] {
        let home = Home::new();
        let moved = home.path().join("elsewhere");
        copy_dir(&fixtures.join(assistant), &moved.join(store));
        let args = ["suggest", "--verbose", "--format", "jsonl", "--assistant", assistant];
        let mut cmd = home.command(&args);
        cmd.env(var, &moved);
        let out = common::run_command(cmd, None);
        out.ok();
        let expected: BTreeSet<String> = ["PX-42", "blue"].map(String::from).into();
        if terms(&out.stdout) != expected {
            wrong.push(format!("{assistant} ({var}): {:?}\n{}", terms(&out.stdout), out.stderr));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn missing_garbled_and_truncated_sources_are_skipped_never_an_error() {
    let home = Home::new();
    let dir = home.path().join(".claude/projects/p");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("a.jsonl"), b"{not json\n\xff\xfe\n{\"type\":\"user\",\"message\":{\"content\":\"we call the db box zed\"}}\n{\"type\":\"user\",\"mess").unwrap();
    let out = home.run(&["suggest", "--verbose", "--format", "jsonl"]);
    out.ok();
    assert!(out.stderr.contains("not understood"), "{}", out.stderr);
    assert!(out.stderr.contains("skipped: codex"), "{}", out.stderr);
    assert_eq!(terms(&out.stdout), ["zed".to_string()].into());
    // Truncated below what was read: read again from the start, no error.
    fs::write(dir.join("a.jsonl"), b"{}\n").unwrap();
    home.run(&["suggest"]).ok();
}

#[test]
fn a_proposal_holding_a_credential_is_dropped() {
    let home = Home::new();
    let dir = home.path().join(".claude/projects/p");
    fs::create_dir_all(&dir).unwrap();
    let line = |text: &str| {
        format!("{}\n", serde_json::json!({"type": "user", "message": {"content": text}}))
    };
    let text = line("记住：测试库密码是 Hunter2-abc")
        + &line("we call the key sk-proj-abcdefghijklmnop1234 apikey");
    fs::write(dir.join("a.jsonl"), text).unwrap();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    assert_eq!(out.stdout, "", "{}", out.stderr);
}

#[test]
fn a_password_said_in_a_session_is_proposed_nowhere_not_even_cut() {
    let home = Home::new();
    let dir = home.path().join(".claude/projects/p");
    fs::create_dir_all(&dir).unwrap();
    let line = |text: &str| {
        format!("{}\n", serde_json::json!({"type": "user", "message": {"content": text}}))
    };
    // Built at run time: a 13-character password whose `!` ends a sentence.
    let password = ["Sum", "mer#20", "24!!"].concat();
    let text = line(&format!("测试环境数据库密码就是 {password}"))
        + &line(&format!("staging db password: {password}. remember it"));
    fs::write(dir.join("a.jsonl"), text).unwrap();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    assert_eq!(out.stdout, "", "{}", out.stderr);
    let inbox = fs::read_to_string(home.store().join("inbox.json")).unwrap_or_default();
    assert!(!inbox.contains("mer#20"), "{inbox}");
}

#[test]
fn accept_refuses_a_proposal_holding_a_credential() {
    let home = with_fixtures();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let id = proposals(&out.stdout)[0]["id"].as_str().unwrap().to_string();
    // An inbox written by an older version, or by hand: accept checks as record does.
    let path = home.store().join("inbox.json");
    let password = ["Sum", "mer#20", "24!!"].concat();
    let mut inbox: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let entry = inbox["proposals"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|p| p["id"] == id.as_str())
        .unwrap();
    entry["explanation"] = format!("staging db password: {password}").into();
    fs::write(&path, inbox.to_string()).unwrap();
    let out = home.run(&["inbox", "accept", &id]);
    out.expect_code(1);
    assert!(!out.stderr.contains(&password[3..]), "{}", out.stderr);
    assert!(!home.run(&["list", "--format", "jsonl"]).stdout.contains(&password[3..]));
}

#[test]
fn bad_arguments_are_refused() {
    let home = Home::new();
    home.run(&["suggest", "--since", "soon"]).expect_code(2);
    home.run(&["suggest", "--assistant", "cursor"]).expect_code(2);
    home.run(&["inbox", "accept"]).expect_code(2);
    home.run(&["inbox", "accept", "a", "b", "--explanation", "x"]).expect_code(2);
}

// ---- Gemini CLI: older whole-file sessions, and rewinds -----------------------------------------

/// A home whose Gemini CLI store holds the fixture folder `name` (tests/fixtures/sessions/).
fn with_gemini(name: &str) -> Home {
    let home = Home::new();
    copy_dir(&root().join("tests/fixtures/sessions").join(name), &home.path().join(".gemini/tmp"));
    home
}

#[test]
fn an_older_whole_file_gemini_session_is_read_whole_and_again_only_when_it_changes() {
    let home = with_gemini("gemini-legacy");
    let out = home.run(&["suggest", "--format", "jsonl"]);
    out.ok();
    assert_eq!(terms(&out.stdout), ["PX-42", "blue"].map(String::from).into(), "{}", out.stderr);
    for p in proposals(&out.stdout) {
        assert_eq!(p["assistant"], "gemini");
        // The line its record starts on in the pretty-printed file.
        assert!(p["source"]["line"].as_u64().unwrap() > 6, "{p}");
        assert!(p["confidence"].as_f64().unwrap() > 0.9, "confirmed: {p}");
    }
    assert!(home.run(&["suggest"]).stderr.starts_with("Read 0 file(s)"));
    // Rewritten to the same size: its time says it changed, and it is read again, whole.
    let chats = home.path().join(".gemini/tmp/project/chats");
    let file = fs::read_dir(&chats).unwrap().next().unwrap().unwrap().path();
    let f = fs::File::options().write(true).open(&file).unwrap();
    f.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(5)).unwrap();
    let again = home.run(&["suggest", "--format", "jsonl"]);
    assert!(again.stderr.starts_with("Read 1 file(s)"), "{}", again.stderr);
    assert!(proposals(&again.stdout).iter().all(|p| p["seen"] == 1), "one session");
    // Resuming it, a newer Gemini CLI copies it into a `.jsonl` of the same name: one session.
    let jsonl = file.with_extension("jsonl");
    let line = r#"{"id":"189efd52-5e10-4d24-b36f-92eb737bcc49","timestamp":"2026-11-26T00:27:38.108Z","type":"user","content":[{"text":"我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下"}]}"#;
    fs::write(&jsonl, format!("{line}\n")).unwrap();
    let resumed = home.run(&["suggest", "--format", "jsonl"]);
    assert!(proposals(&resumed.stdout).iter().all(|p| p["seen"] == 1), "{}", resumed.stdout);
    // Too large to read whole: skipped and named, not an error.
    let big = chats.join("session-2026-11-26T01-00-00000000.json");
    fs::File::create(&big).unwrap().set_len(40 << 20).unwrap();
    let out = home.run(&["suggest", "--verbose"]);
    out.ok();
    assert!(out.stderr.contains("session-2026-11-26T01-00-00000000.json: 40 MB"), "{}", out.stderr);
}

#[test]
fn a_gemini_rewind_discards_what_came_after_the_record_it_names() {
    let home = with_gemini("gemini-rewind");
    let out = home.run(&["suggest", "--format", "jsonl"]);
    out.ok();
    assert_eq!(terms(&out.stdout), ["zed", "rho"].map(String::from).into(), "{}", out.stderr);
}

// ---- smart: the local model reviews new proposals --------------------------------------------

/// The Claude Code fixtures (two proposals: `PX-42` and `blue`), the model at `endpoint`.
fn smart_home(endpoint: &str, enabled: bool) -> Home {
    let home = with_fixtures();
    home.run(&["config", "smart.endpoint", endpoint]).ok();
    home.run(&["config", "smart.enabled", if enabled { "true" } else { "false" }]).ok();
    home
}

fn suggest_claude(home: &Home) -> common::Output {
    let out = home.run(&["suggest", "--verbose", "--format", "jsonl", "--assistant", "claude"]);
    out.ok();
    out
}

/// Each proposal's term and explanation, sorted by term.
fn drafts(stdout: &str) -> Vec<(String, String)> {
    let mut out: Vec<_> = proposals(stdout)
        .iter()
        .map(|p| (p["term"].as_str().unwrap().into(), p["explanation"].as_str().unwrap().into()))
        .collect();
    out.sort();
    out
}

/// The term a review request asked about.
fn asked_term(request: &llm_server::Recorded) -> String {
    let prompt = request.prompt().expect("a chat request");
    let line = prompt.lines().find_map(|l| l.strip_prefix("Term: ")).expect("a Term line");
    line.to_string()
}

#[test]
fn smart_off_sends_nothing() {
    let server = LlmServer::start(vec![Reply::content(r#"{"verdict":"reject"}"#)]);
    let home = smart_home(&server.endpoint(), false);
    let out = suggest_claude(&home);
    assert_eq!(terms(&out.stdout).len(), 2, "{}", out.stderr);
    assert!(server.requests().is_empty(), "smart is off: no request");
    assert!(!fs::read_to_string(home.store().join("inbox.json")).unwrap().contains("\"smart\""));
}

#[test]
fn smart_rejects_and_tightens_once_per_proposal() {
    let tightened = "支付网关服务，代码在 services/payments/";
    let server = LlmServer::start(vec![
        Reply::content(r#"{"verdict":"reject"}"#),
        Reply::content(format!(
            r#"<think>short</think>{{"verdict":"tighten","explanation":"{tightened}"}}"#
        )),
        Reply::content(r#"{"verdict":"keep"}"#),
    ]);
    let home = smart_home(&server.endpoint(), true);
    let out = suggest_claude(&home);
    let asked: Vec<String> = server.requests().iter().map(asked_term).collect();
    assert_eq!(asked.len(), 2, "one request per proposal: {asked:?}");
    let left = proposals(&out.stdout);
    assert_eq!(left.len(), 1, "the rejected one is gone: {}", out.stdout);
    assert_eq!(left[0]["term"], asked[1].as_str());
    assert_eq!(left[0]["explanation"], tightened);
    assert!(out.stderr.contains("tightened 1, renamed 0, rejected 1"), "{}", out.stderr);

    // A verdict is remembered: a rescan of everything asks nothing, and the rejected term does
    // not come back.
    fs::remove_file(home.store().join("scanned.json")).unwrap();
    let again = suggest_claude(&home);
    assert_eq!(server.requests().len(), 2, "never sent twice");
    assert_eq!(terms(&again.stdout), terms(&out.stdout));
    assert_eq!(proposals(&again.stdout)[0]["explanation"], tightened);
}

#[test]
fn smart_names_the_users_term_only_from_the_users_words() {
    // Both answers name "staging cluster": the user's words for `blue`, but not for `PX-42`.
    let named = r#"{"verdict":"term","term":"staging cluster"}"#;
    let server = LlmServer::start(vec![Reply::content(named), Reply::content(named)]);
    let home = smart_home(&server.endpoint(), true);
    let out = suggest_claude(&home);
    assert_eq!(server.requests().len(), 2);
    let prompt = server.requests()[0].prompt().unwrap().to_string();
    assert!(prompt.contains("The user's words: "), "{prompt}");
    assert_eq!(terms(&out.stdout), BTreeSet::from(["PX-42".into(), "staging cluster".into()]));
    let all = proposals(&out.stdout);
    let renamed = all.iter().find(|p| p["term"] == "staging cluster").unwrap();
    assert_eq!(renamed["explanation"], "the staging cluster; it runs on k8s-stg");
    assert!(out.stderr.contains("renamed 1"), "{}", out.stderr);
    assert!(
        out.stderr.contains(r#"PX-42: the model named "staging cluster", not in the user's words"#),
        "{}",
        out.stderr
    );

    // A rescan finds `blue` again: still the renamed proposal, nothing asked.
    fs::remove_file(home.store().join("scanned.json")).unwrap();
    let again = suggest_claude(&home);
    assert_eq!(server.requests().len(), 2, "never sent twice");
    assert_eq!(terms(&again.stdout), terms(&out.stdout));
}

#[test]
fn smart_keeps_the_draft_when_the_answer_is_unusable() {
    let secret = ["sk-proj-", &"a1B2c3D4".repeat(6)].concat();
    let server = LlmServer::start(vec![
        Reply::content("Sure, that looks fine to me."),
        Reply::content(format!(r#"{{"verdict":"tighten","explanation":"key {secret}"}}"#)),
    ]);
    let home = smart_home(&server.endpoint(), true);
    let plain = with_fixtures();
    let before = drafts(&suggest_claude(&plain).stdout);
    let out = suggest_claude(&home);
    assert_eq!(server.requests().len(), 2, "an unparsable answer does not stop the others");
    assert_eq!(drafts(&out.stdout), before, "both drafts unchanged");
    assert!(out.stderr.contains("smart: unchanged") && out.stderr.contains("not a verdict"));
    assert!(out.stderr.contains("looks like a credential"), "{}", out.stderr);
    assert!(!fs::read_to_string(home.store().join("inbox.json")).unwrap().contains(&secret));
}

#[test]
fn smart_with_the_server_down_keeps_the_drafts_and_asks_again_later() {
    let down = format!("http://127.0.0.1:{}/v1/chat/completions", refused_port());
    let home = smart_home(&down, true);
    let plain = with_fixtures();
    let before = drafts(&suggest_claude(&plain).stdout);
    let out = suggest_claude(&home);
    assert_eq!(drafts(&out.stdout), before);
    assert!(out.stderr.contains("connection refused"), "{}", out.stderr);
    assert!(out.stderr.contains("1 more not asked"), "{}", out.stderr);
    // Not a verdict: the next scan asks, and this time the model answers.
    let server = LlmServer::start(vec![
        Reply::content(r#"{"verdict":"keep"}"#),
        Reply::content(r#"{"verdict":"keep"}"#),
    ]);
    home.run(&["config", "smart.endpoint", &server.endpoint()]).ok();
    let later = suggest_claude(&home);
    assert_eq!(server.requests().len(), 2);
    assert_eq!(drafts(&later.stdout), before);
    assert!(later.stderr.contains("kept 2"), "{}", later.stderr);
}
