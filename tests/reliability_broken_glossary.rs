//! A glossary broken by hand after terms were recorded (issue 35, point 5), with the real binary
//! in a temporary HOME. Each test is a row of `docs/failure-behaviour.md`, named after it.
//!
//! The hook keeps serving the last good index (the one built from the last glossary that
//! parsed) and never replaces it with a build of the broken file; it tells the user once a day,
//! where the assistant shows the user a hook's message (`systemMessage`: Claude Code, Gemini
//! CLI, Codex CLI) and nowhere else; `doctor` says as of when the entries are served.

mod common;

use std::fs;
use std::path::Path;

use common::{read, run_command, seed, stamp, Home, Output};
use serde_json::{json, Value};
use tinylingo::platform::{OutputShape, Platform};

/// The event `platform` sends for `prompt` in the folder `cwd`.
fn event(platform: &str, prompt: &str, cwd: &Path) -> Vec<u8> {
    let spec = Platform::from_name(platform).expect("an assistant").spec();
    let mut v = json!({ "prompt": prompt, "cwd": cwd.to_str().unwrap() });
    v[spec.session_fields[0]] = json!("s-broken");
    match spec.output {
        OutputShape::HookSpecific { event_name, .. } => v["hook_event_name"] = json!(event_name),
        OutputShape::Cursor => v["hook_event_name"] = json!("beforeSubmitPrompt"),
        OutputShape::TopLevel | OutputShape::Text => {}
    }
    v.to_string().into_bytes()
}

/// What one hook run gave: the text for the model and the notice for the user.
#[derive(Debug)]
struct Answer {
    context: Option<String>,
    notice: Option<String>,
}

/// Runs `platform`'s hook and splits its output by the platform's shape, checking that shape:
/// exit 0, nothing on stderr, JSON where the platform reads JSON and plain text where it reads
/// text, and no field the platform does not know.
fn hook(home: &Home, platform: &str, prompt: &str, cwd: &Path) -> Answer {
    let mut cmd = home.command(&["hook", platform]);
    cmd.current_dir(cwd);
    let out = run_command(cmd, Some(&event(platform, prompt, cwd)));
    assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{platform}");
    let text = |v: &Value| v.as_str().map(str::to_string);
    let shape = Platform::from_name(platform).unwrap().spec().output;
    if out.stdout.is_empty() || shape == OutputShape::Text {
        assert!(!out.stdout.starts_with('{'), "{platform}: {}", out.stdout);
        let context = (!out.stdout.is_empty()).then(|| out.stdout.clone());
        return Answer { context, notice: None };
    }
    let v = out.json();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    let (context, allowed): (_, &[&str]) = match shape {
        OutputShape::HookSpecific { .. } => (
            text(&v["hookSpecificOutput"]["additionalContext"]),
            &["hookSpecificOutput", "systemMessage"],
        ),
        OutputShape::TopLevel => (text(&v["additionalContext"]), &["additionalContext"]),
        OutputShape::Cursor => {
            (text(&v["additional_context"]), &["continue", "additional_context"])
        }
        OutputShape::Text => unreachable!(),
    };
    assert!(keys.iter().all(|k| allowed.contains(k)), "{platform}: {v}");
    Answer { context, notice: text(&v["systemMessage"]) }
}

/// Adds a trailing comma after the last entry, as a hand edit would.
fn break_by_hand(glossary: &Path) {
    let text = fs::read_to_string(glossary).unwrap();
    let broken = text.trim_end().strip_suffix("\n}").expect("a pretty-printed object");
    fs::write(glossary, format!("{broken},\n}}\n")).unwrap();
}

/// Makes the notice state say the notice was last given yesterday.
fn a_day_passes(home: &Home) {
    let path = home.store().join("notices");
    let state = fs::read_to_string(&path).unwrap();
    let (_, named) = state.split_once('\n').unwrap();
    fs::write(&path, format!("2000-01-01\n{named}")).unwrap();
}

#[track_caller]
fn assert_notice(answer: &Answer, file: &str, what: &str) {
    let notice = answer.notice.as_deref().unwrap_or_else(|| panic!("{what}: no notice"));
    assert!(notice.contains(file), "{what}: {notice}");
    assert!(notice.contains("tinylingo doctor"), "{what}: {notice}");
    // In the user's language (the tests' locale is Chinese).
    assert!(notice.contains("无法解析"), "{what}: {notice}");
    let context = answer.context.as_deref().unwrap_or_default();
    assert!(!context.contains("tinylingo doctor"), "{what}: the model was told: {context}");
}

#[test]
fn hand_edit_breaks_a_recorded_glossary() {
    let home = Home::seeded();
    let cwd = home.path().to_path_buf();
    let index = (read(&home.index()), stamp(&home.index()));
    break_by_hand(&home.glossary());
    let prompt = "帮我提交一下";

    // Claude Code: the long-recorded term still comes, and the notice once a day.
    let first = hook(&home, "claude", prompt, &cwd);
    assert!(first.context.as_deref().unwrap().contains(seed("提交")), "{first:?}");
    assert_notice(&first, "glossary.json", "claude");
    let again = hook(&home, "claude", prompt, &cwd);
    assert_eq!(again.notice, None, "a second notice the same day");
    assert_eq!(again.context, first.context);

    // Every assistant keeps getting the terms, in its own shape; the notice goes only where
    // the assistant shows the user a hook's message.
    for platform in Platform::ALL.map(Platform::name) {
        a_day_passes(&home);
        let answer = hook(&home, platform, prompt, &cwd);
        let context = answer.context.as_deref().unwrap_or_default();
        assert!(context.contains(seed("提交")), "{platform}: {answer:?}");
        if Platform::from_name(platform).unwrap().spec().shows_notice() {
            assert_notice(&answer, "glossary.json", platform);
        } else {
            assert_eq!(answer.notice, None, "{platform}");
            assert!(!context.contains("tinylingo doctor"), "{platform}: {context}");
        }
    }
    for platform in ["claude", "gemini", "codex"] {
        assert!(Platform::from_name(platform).unwrap().spec().shows_notice(), "{platform}");
    }

    // The last good index was never replaced by a build of the broken file.
    assert_eq!((read(&home.index()), stamp(&home.index())), index, "the index was replaced");
    let doctor = home.run(&["doctor"]).stdout;
    assert!(doctor.contains("the hook serves the entries as of"), "{doctor}");

    // Fixed, with a term added in the same edit: served at once, and the index rebuilt.
    let fixed = fs::read_to_string(home.glossary())
        .unwrap()
        .replace(",\n}", ",\n  \"新词\": \"刚加的\"\n}");
    fs::write(home.glossary(), fixed).unwrap();
    let answer = hook(&home, "claude", "新词和提交", &cwd);
    let context = answer.context.unwrap();
    assert!(context.contains("刚加的") && context.contains(seed("提交")), "{context}");
    assert_eq!(answer.notice, None);
    assert_ne!(stamp(&home.index()), index.1, "the fixed glossary was not built");
    assert!(!home.run(&["doctor"]).stdout.contains("the hook serves the entries as of"));
}

/// `record --project` in a fresh git work tree (which trusts it), and a user's term.
fn project(home: &Home) -> std::path::PathBuf {
    let repo = home.path().join("proj");
    fs::create_dir_all(&repo).unwrap();
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(&repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", &repo)
        .status()
        .expect("git is installed");
    assert!(git.success());
    let repo = repo.canonicalize().unwrap();
    home.run(&["record", "提交", "不要 push"]).ok();
    let mut cmd = home.command(&["record", "--project", "联调", "USE_SOURCE"]);
    cmd.current_dir(&repo);
    run_command(cmd, None).ok();
    repo
}

fn run_in(home: &Home, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = home.command(args);
    cmd.current_dir(dir);
    run_command(cmd, None)
}

#[test]
fn project_glossary_with_conflict_markers() {
    let home = Home::new();
    let repo = project(&home);
    let glossary = repo.join(".tinylingo/glossary.json");
    let index_path = repo.join(".tinylingo/glossary.index");
    let index = (read(&index_path), stamp(&index_path));
    fs::write(
        &glossary,
        "{\n<<<<<<< HEAD\n  \"联调\": \"USE_SOURCE\"\n=======\n  \"联调\": \"USE_SRC\"\n>>>>>>> theirs\n}\n",
    )
    .unwrap();

    // The project's last good entries and the user's, and a notice naming the project's file.
    let first = hook(&home, "claude", "联调后提交", &repo);
    let context = first.context.as_deref().unwrap();
    assert!(context.contains("USE_SOURCE") && context.contains("不要 push"), "{context}");
    assert!(!context.contains("USE_SRC"), "{context}");
    assert_notice(&first, "proj/.tinylingo/glossary.json", "claude");
    let again = hook(&home, "claude", "联调后提交", &repo);
    assert_eq!(again.notice, None, "a second notice the same day");
    a_day_passes(&home);
    assert_notice(&hook(&home, "gemini", "联调", &repo), "proj/.tinylingo/glossary.json", "gemini");
    let copilot = hook(&home, "copilot", "联调", &repo);
    assert_eq!(copilot.notice, None);
    assert!(copilot.context.unwrap().contains("USE_SOURCE"));

    assert_eq!((read(&index_path), stamp(&index_path)), index, "the project index was replaced");
    let doctor = run_in(&home, &repo, &["doctor"]).stdout;
    assert!(doctor.contains("the hook serves its entries as of"), "{doctor}");

    // Resolved: the new entry is served.
    fs::write(&glossary, "{\n  \"联调\": \"USE_SRC\"\n}\n").unwrap();
    let answer = hook(&home, "claude", "联调", &repo);
    assert!(answer.context.unwrap().contains("USE_SRC"));
    assert_eq!(answer.notice, None);
}
