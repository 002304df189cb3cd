//! Drafts: a turn no rule read, which still sounds like a definition or a rule, is read by the
//! local model (`smart`) and becomes a proposal only when the model keeps it. The real binary,
//! real transcripts (Claude Code's format), a scripted model on 127.0.0.1.

mod common;
#[path = "support/corpus.rs"]
mod corpus;
#[path = "support/llm_server.rs"]
mod llm_server;

use std::fs;

use common::Home;
use corpus::{Assistant, Case, Sessions};
use llm_server::{LlmServer, Reply};
use serde_json::{json, Value};

/// A turn no rule reads (a definition in a shape the rules do not know), and chat that still
/// names something.
const SWEEP: &str = "heads up on the 'night sweep', it's the job that walks every pending refund at 02:00 and parks the stale ones in manual_review";
const CHAT: &str = "don't worry about build-cache, it's fine, carry on";

fn home_with(turns: &[&str]) -> Home {
    let home = Home::new();
    let mut sessions = Sessions::new(home.path());
    for (n, user) in turns.iter().enumerate() {
        let case = Case::from_json(&json!({"lang": "en", "before": null, "user": user,
            "after": "OK.", "expect": null, "kind": "chat"}));
        sessions.write(Assistant::Claude, &case, n, "");
    }
    sessions.finish();
    home
}

/// Turns smart review on in `home`, asking `server`.
fn ask(home: &Home, server: &LlmServer) {
    home.run(&["config", "smart.endpoint", &server.endpoint()]).ok();
    home.run(&["config", "smart.enabled", "true"]).ok();
}

fn suggest(home: &Home) -> (Vec<Value>, String) {
    let out = home.run(&["suggest", "--format", "jsonl", "--assistant", "claude"]);
    out.ok();
    let proposals = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (proposals, out.stderr)
}

fn inbox(home: &Home) -> String {
    fs::read_to_string(home.store().join("inbox.json")).unwrap_or_default()
}

#[test]
fn without_the_model_no_draft_is_kept_or_shown() {
    let home = home_with(&[SWEEP, CHAT]);
    let (proposals, _) = suggest(&home);
    assert!(proposals.is_empty(), "no rule reads these turns: {proposals:?}");
    assert!(!inbox(&home).contains("draft"), "{}", inbox(&home));
}

#[test]
fn the_model_makes_a_proposal_of_a_draft_it_keeps_and_drops_the_rest() {
    let server = LlmServer::answering(
        |request| {
            let prompt = request.prompt().unwrap_or_default();
            Reply::content(if prompt.contains("night sweep") {
                r#"{"verdict":"keep"}"#
            } else {
                r#"{"verdict":"reject"}"#
            })
        },
        std::time::Duration::from_secs(60),
    );
    let home = home_with(&[SWEEP, CHAT]);
    ask(&home, &server);
    let (proposals, stderr) = suggest(&home);
    assert_eq!(server.requests().len(), 2, "one request per draft");
    assert_eq!(proposals.len(), 1, "{proposals:?}");
    assert_eq!(proposals[0]["term"], "night sweep");
    assert_eq!(proposals[0]["confidence"], 0.6, "vouched for by the model, not by a rule");
    let explanation = proposals[0]["explanation"].as_str().unwrap();
    assert!(
        explanation.contains("02:00") && explanation.contains("manual_review"),
        "{explanation}"
    );
    assert!(stderr.contains("it read 2 turn(s) no rule read, 1 now proposed"), "{stderr}");
    // The rejected draft stays, unseen, and is not asked about again.
    assert!(inbox(&home).contains("\"draft\""), "{}", inbox(&home));
    fs::remove_file(home.store().join("scanned.json")).unwrap();
    let (again, _) = suggest(&home);
    assert_eq!(server.requests().len(), 2, "never sent twice");
    assert_eq!(again.len(), 1);
    // Nor is it anywhere a person looks: the inbox lists the one proposal.
    let listed = home.run(&["inbox", "--format", "jsonl"]);
    assert_eq!(listed.stdout.lines().count(), 1, "{}", listed.stdout);
}

#[test]
fn a_draft_the_model_renames_takes_the_users_words_only() {
    // The guess is the quoted name; the model names the job after the user's other words.
    let named = r#"{"verdict":"term","term":"pending refund"}"#;
    let made_up = r#"{"verdict":"term","term":"refund janitor"}"#;
    let server = LlmServer::start(vec![Reply::content(named)]);
    let home = home_with(&[SWEEP]);
    ask(&home, &server);
    let (proposals, _) = suggest(&home);
    assert_eq!(proposals.len(), 1);
    assert_eq!(proposals[0]["term"], "pending refund");

    let server = LlmServer::start(vec![Reply::content(made_up)]);
    let home = home_with(&[SWEEP]);
    ask(&home, &server);
    let (proposals, _) = suggest(&home);
    assert!(proposals.is_empty(), "a name not in the user's words: {proposals:?}");
}

#[test]
fn two_turns_the_model_keeps_under_one_term_are_one_proposal_seen_twice() {
    let again = "fyi the 'night sweep' is only for card refunds, wallet refunds get done by hand";
    let server = LlmServer::answering(
        |_| Reply::content(r#"{"verdict":"keep"}"#),
        std::time::Duration::from_secs(60),
    );
    let home = home_with(&[SWEEP, again]);
    ask(&home, &server);
    let (proposals, stderr) = suggest(&home);
    assert_eq!(server.requests().len(), 2, "each turn is read: {stderr}");
    assert_eq!(proposals.len(), 1, "{proposals:?}");
    assert_eq!(proposals[0]["term"], "night sweep");
    assert_eq!(proposals[0]["seen"], 2);
}

#[test]
fn a_common_word_the_model_names_is_the_projects_and_never_taken_in_bulk() {
    let server = LlmServer::start(vec![Reply::content(r#"{"verdict":"term","term":"job"}"#)]);
    let home = home_with(&[SWEEP]);
    ask(&home, &server);
    let (proposals, _) = suggest(&home);
    assert_eq!(proposals.len(), 1);
    assert_eq!(proposals[0]["term"], "job");
    assert_eq!(proposals[0]["generic"], true);
    assert_eq!(proposals[0]["scope_hint"], "project");
    let bulk = home.run(&["inbox", "accept", "--all", "--min-confidence", "0", "--dry-run"]);
    assert!(!bulk.stdout.contains("job"), "{}", bulk.stdout);
}

#[test]
fn a_renamed_draft_quotes_the_sentence_that_names_its_term() {
    let turn =
        "heads up on the 'night sweep'. it's the job that walks every pending refund at 02:00";
    let server =
        LlmServer::start(vec![Reply::content(r#"{"verdict":"term","term":"pending refund"}"#)]);
    let home = home_with(&[turn]);
    ask(&home, &server);
    let (proposals, _) = suggest(&home);
    assert_eq!(proposals.len(), 1, "{proposals:?}");
    assert_eq!(proposals[0]["quote"], "it's the job that walks every pending refund at 02:00");
}

#[test]
fn a_draft_cannot_be_accepted_by_its_id() {
    let server = LlmServer::start(vec![Reply::content(r#"{"verdict":"reject"}"#)]);
    let home = home_with(&[SWEEP]);
    ask(&home, &server);
    suggest(&home);
    let inbox: Value = serde_json::from_str(&inbox(&home)).unwrap();
    let id = inbox["proposals"][0]["id"].as_str().unwrap().to_string();
    assert_eq!(inbox["proposals"][0]["status"], "draft");
    let out = home.run(&["inbox", "accept", &id]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(out.stderr.contains("a draft the local model did not keep"), "{}", out.stderr);
    assert!(!fs::read_to_string(home.store().join("glossary.json"))
        .unwrap_or_default()
        .contains("night sweep"));
}
