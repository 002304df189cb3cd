//! `suggest` reads what the assistants wrote whatever its layout (JSON spacing, the journal in
//! either language, a prompt holding code blocks), and the inbox names each proposal's
//! project and sentence and records it where it belongs (issue 36, points 3 to 5).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{run_command, Home, Output};
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sessions/claude")
}

/// A home whose Claude Code store holds the fixture sessions, each line passed through `edit`.
fn with_claude(edit: impl Fn(&str) -> String) -> Home {
    let home = Home::new();
    for dir in fs::read_dir(fixtures()).unwrap() {
        let dir = dir.unwrap().path();
        let to = home.path().join(".claude/projects").join(dir.file_name().unwrap());
        fs::create_dir_all(&to).unwrap();
        for file in fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let text: String = fs::read_to_string(&file)
                .unwrap()
                .lines()
                .map(|l| format!("{}\n", edit(l)))
                .collect();
            fs::write(to.join(file.file_name().unwrap()), text).unwrap();
        }
    }
    home
}

/// Re-serialised with a space after every colon and comma, as Python's `json.dumps` writes.
fn spaced(line: &str) -> String {
    fn write(v: &Value, out: &mut String) {
        match v {
            Value::Object(m) => {
                out.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&serde_json::to_string(k).unwrap());
                    out.push_str(": ");
                    write(v, out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write(v, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(&serde_json::from_str(line).unwrap(), &mut out);
    out
}

fn proposals(out: &Output) -> Vec<Value> {
    out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn drafts(out: &Output) -> Vec<(String, String)> {
    let mut v: Vec<_> = proposals(out)
        .iter()
        .map(|p| (p["term"].as_str().unwrap().into(), p["explanation"].as_str().unwrap().into()))
        .collect();
    v.sort();
    v
}

#[test]
fn a_claude_transcript_with_spaced_json_gives_the_same_proposals() {
    let plain = with_claude(str::to_string);
    let first = plain.run(&["suggest", "--format", "jsonl"]);
    first.ok();
    let spaced_home = with_claude(spaced);
    let second = spaced_home.run(&["suggest", "--format", "jsonl"]);
    second.ok();
    assert!(!drafts(&first).is_empty());
    assert_eq!(drafts(&first), drafts(&second), "{}", second.stderr);
}

/// A journal file under the store's default journal folder.
fn journal(home: &Home, name: &str, text: &str) {
    let dir = home.store().join("threads");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join(name), text).unwrap();
}

fn journal_entry(heading: &str, request: &str, summary: &str, fence: &str, prompt: &str) -> String {
    format!(
        "{heading}1\n**Time**: 2026-11-24 14:03:07\n**Folder**: /p\n\n{request}\n{fence}text\n\
         {prompt}\n{fence}\n\n{summary}\nDone.\n"
    )
}

#[test]
fn an_english_journal_and_a_prompt_with_code_and_headings_are_read_whole() {
    let prompt = "我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下";
    let home = Home::new();
    journal(
        &home,
        "thread-2026-11-24.md",
        &format!(
            "# Thread log - 2026-11-24\n\n{}",
            journal_entry("## Exchange ", "### Request", "### Response (summary)", "```", prompt)
        ),
    );
    let out = home.run(&["suggest", "--format", "jsonl", "--assistant", "journal"]);
    let got = proposals(&out);
    assert!(got.iter().any(|p| p["term"] == "PX-42"), "{}{}", out.stdout, out.stderr);

    // A prompt holding a code block and a `## ` line: the writer's longer fence keeps it whole.
    let home = Home::new();
    let prompt = "我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下\n\n\
                  ```sh\nmake deploy\n```\n## notes\nthat is all";
    journal(
        &home,
        "thread-2026-11-24.md",
        &format!(
            "# Thread记录 - 2026-11-24\n\n{}",
            journal_entry("## 交互记录 ", "### 用户请求", "### AI响应（总结）", "````", prompt)
        ),
    );
    let out = home.run(&["suggest", "--format", "jsonl", "--assistant", "journal"]);
    let got = proposals(&out);
    let blue = got.iter().find(|p| p["term"] == "PX-42");
    assert!(blue.is_some(), "{}{}", out.stdout, out.stderr);
    assert!(blue.unwrap()["quote"].as_str().unwrap().contains("叫做 PX-42"));
    assert!(blue.unwrap()["explanation"].as_str().unwrap().contains("services/payments/"));
}

/// A home whose Claude sessions worked in `<home>/work/shop`, a git work tree.
fn in_a_project() -> (Home, PathBuf) {
    let home = with_claude(str::to_string);
    let shop = home.path().join("work/shop");
    for dir in fs::read_dir(home.path().join(".claude/projects")).unwrap() {
        for f in fs::read_dir(dir.unwrap().path()).unwrap() {
            let f = f.unwrap().path();
            let text = fs::read_to_string(&f).unwrap();
            let text = text.replace("/tmp/tinylingo-e2e-aghlajaa/project", &shop.to_string_lossy());
            fs::write(&f, text).unwrap();
        }
    }
    fs::create_dir_all(shop.join(".git")).unwrap();
    (home, shop)
}

fn run_in(home: &Home, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = home.command(args);
    cmd.current_dir(dir);
    run_command(cmd, None)
}

#[test]
fn a_project_proposal_names_its_project_and_quote_and_is_recorded_there() {
    let (home, shop) = in_a_project();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let px = proposals(&out).into_iter().find(|p| p["term"] == "PX-42").unwrap();
    assert_eq!(px["scope_hint"], "project");
    assert_eq!(px["project"], shop.to_string_lossy().as_ref());
    assert!(px["quote"].as_str().unwrap().contains("叫做 PX-42"), "{px}");
    let text = home.run(&["inbox"]);
    assert!(text.stdout.contains(&format!("project {}", shop.display())), "{}", text.stdout);
    assert!(text.stdout.contains("“我们项目里把支付网关服务叫做 PX-42"), "{}", text.stdout);

    // --all --dry-run lists where each would go and records nothing.
    let dry =
        run_in(&home, &shop, &["inbox", "accept", "--all", "--min-confidence", "0", "--dry-run"]);
    dry.ok();
    assert!(
        dry.stdout.contains("PX-42") && dry.stdout.contains("project glossary"),
        "{}",
        dry.stdout
    );
    assert!(!home.glossary().exists() && !shop.join(".tinylingo/glossary.json").exists());
    // Only the proposals at or above the confidence given.
    let none = home.run(&["inbox", "accept", "--all", "--min-confidence", "1", "--dry-run"]);
    assert!(none.stdout.is_empty(), "{}", none.stdout);

    // Inside the project: its glossary, said so; --user keeps the other one personal.
    let id = px["id"].as_str().unwrap();
    let sub = shop.join("sub");
    fs::create_dir_all(&sub).unwrap();
    let inside = run_in(&home, &sub, &["inbox", "accept", id]);
    inside.ok();
    assert!(inside.stderr.contains("project glossary"), "{}", inside.stderr);
    let project: Value =
        serde_json::from_str(&fs::read_to_string(shop.join(".tinylingo/glossary.json")).unwrap())
            .unwrap();
    assert!(project["PX-42"].is_string());
    let blue = proposals(&out).into_iter().find(|p| p["term"] == "blue").unwrap();
    run_in(&home, &shop, &["inbox", "accept", blue["id"].as_str().unwrap(), "--user"]).ok();
    let user: Value = serde_json::from_str(&fs::read_to_string(home.glossary()).unwrap()).unwrap();
    assert!(user["blue"].is_string() && user.get("PX-42").is_none(), "{user}");
}

#[test]
fn a_term_the_project_glossary_holds_is_not_proposed() {
    let (home, shop) = in_a_project();
    fs::create_dir_all(shop.join(".tinylingo")).unwrap();
    fs::write(shop.join(".tinylingo/glossary.json"), "{\"PX-42\": \"the payments gateway\"}\n")
        .unwrap();
    let out = home.run(&["suggest", "--format", "jsonl"]);
    out.ok();
    assert!(proposals(&out).iter().all(|p| p["term"] != "PX-42"), "{}", out.stdout);
    assert!(proposals(&out).iter().any(|p| p["term"] == "blue"), "{}", out.stdout);
}

#[test]
fn the_same_exchange_in_the_store_and_the_journal_counts_once_two_sessions_two() {
    let home = with_claude(str::to_string);
    let prompt = "我们项目里把支付网关服务叫做 PX-42，代码在 services/payments/ 下";
    journal(
        &home,
        "thread-2026-11-25.md",
        &format!(
            "# Thread记录 - 2026-11-25\n\n{}",
            journal_entry("## 交互记录 ", "### 用户请求", "### AI响应（总结）", "```", prompt)
        ),
    );
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let px = proposals(&out).into_iter().find(|p| p["term"] == "PX-42").unwrap();
    assert_eq!(px["seen"], 1, "{px}");
    // Another exchange, another day: a second sighting.
    journal(
        &home,
        "thread-2026-11-26.md",
        &format!(
            "# Thread记录 - 2026-11-26\n\n{}",
            journal_entry(
                "## 交互记录 ",
                "### 用户请求",
                "### AI响应（总结）",
                "```",
                "PX-42 就是支付网关服务，代码在 services/payments/ 下"
            )
        ),
    );
    let out = home.run(&["suggest", "--format", "jsonl"]);
    let px = proposals(&out).into_iter().find(|p| p["term"] == "PX-42").unwrap();
    assert_eq!(px["seen"], 2, "{px}");
}
