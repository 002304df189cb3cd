//! The guard through the real binary: credentials refused on every way in and named where
//! they are stored (masked), and `check` against real git repositories in temporary folders.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::{run_command, Home, Output};

/// A fake GitHub token, built at run time (no credential-shaped literal in the source).
fn fake_token() -> String {
    let body: String = "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sYaEuWi".chars().collect();
    ["gh", "p_", &body].concat()
}

/// Issue #35's reported misses, built at run time: a 13-character password with `#` and `!`;
/// a GitHub token one character longer than the format; an AWS key id holding a character
/// base32 has not (`9`), and its 40-character secret.
fn password() -> String {
    ["Sum", "mer#20", "24!!"].concat()
}
fn long_token() -> String {
    format!("{}W", fake_token())
}
fn aws_pair() -> (String, String) {
    (["AK", "IA", "Q7MZ2PK9XR4VT1WB"].concat(), "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sYaEuWi/+Ab".into())
}

/// The binary with `args`, run in `dir`.
fn run_in(home: &Home, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = home.command(args);
    cmd.current_dir(dir);
    run_command(cmd, None)
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("run git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A git repository in `home` with these files committed.
fn repo(home: &Home, files: &[&str]) -> std::path::PathBuf {
    let dir = home.path().join("repo");
    fs::create_dir_all(&dir).unwrap();
    git(&dir, &["init", "-q", "-b", "main"]);
    for file in files {
        let path = dir.join(file);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        // Distinct contents, so that git's rename detection pairs each file with itself.
        fs::write(&path, format!("{file}\n{}\n", "content line\n".repeat(20))).unwrap();
    }
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "init"]);
    dir
}

#[test]
fn record_refuses_a_credential_names_rule_and_place_and_never_prints_it() {
    let home = Home::new();
    let token = fake_token();
    let text = format!("CI 推送用 {token} 这个");
    let out = home.run(&["record", "deploy", &text]);
    out.expect_code(1);
    assert!(out.stderr.contains("github-token"), "{}", out.stderr);
    assert!(out.stderr.contains("at character 8"), "{}", out.stderr);
    assert!(out.stderr.contains("--allow-secret"), "{}", out.stderr);
    assert!(!out.stderr.contains(&token[..12]), "the secret was printed: {}", out.stderr);
    assert!(!home.glossary().exists(), "a refusal writes nothing");
    // --force skips the near-duplicate check, not this one.
    home.run(&["record", "--force", "deploy", &text]).expect_code(1);
    assert!(!home.glossary().exists());
    home.run(&["record", "--allow-secret", "deploy", &text]).ok();
    assert!(fs::read_to_string(home.glossary()).unwrap().contains(&token));
}

#[test]
fn record_refuses_a_password_by_its_context_and_never_prints_it() {
    let home = Home::new();
    let pw = password();
    for text in [format!("staging db password: {pw}"), format!("测试环境数据库密码就是 {pw}")]
    {
        let out = home.run(&["record", "db", &text]);
        out.expect_code(1);
        assert!(out.stderr.contains("password"), "{}", out.stderr);
        assert!(!out.stderr.contains(&pw[3..]), "the password was printed: {}", out.stderr);
        assert!(!out.stdout.contains(&pw[3..]));
    }
    assert!(!home.glossary().exists(), "a refusal writes nothing");
    // Text about passwords, a place and a placeholder are recorded.
    for text in
        ["the password is in 1Password", "密码在 Vault 的 prod/db 下", "password: ${DB_PASSWORD}"]
    {
        home.run(&["record", "--force", "db", text]).ok();
    }
}

#[test]
fn a_longer_token_and_an_aws_pair_go_nowhere() {
    let home = Home::new();
    let dir = repo(&home, &["README.md"]);
    let (id, secret) = aws_pair();
    for text in [format!("CI 用 {}", long_token()), format!("deploy key {id} secret {secret}")] {
        home.run(&["record", "deploy", &text]).expect_code(1);
        let out = run_in(&home, &dir, &["record", "--project", "deploy", &text]);
        out.expect_code(1);
        assert!(
            !out.stderr.contains(&secret[..12]) && !out.stderr.contains(&id[4..]),
            "{}",
            out.stderr
        );
    }
    // The key id alone, and the secret alone after its name, are each refused.
    home.run(&["record", "deploy", &format!("key id {id}")]).expect_code(1);
    home.run(&["record", "deploy", &format!("AWS_SECRET_ACCESS_KEY={secret}")]).expect_code(1);
    assert!(!home.glossary().exists());
    assert!(!dir.join(".tinylingo").exists(), "nothing created");
}

#[test]
fn a_project_glossary_refuses_a_credential_with_no_override() {
    let home = Home::new();
    let dir = repo(&home, &["README.md"]);
    let text = format!("CI token {}", fake_token());
    let out = run_in(&home, &dir, &["record", "--project", "deploy", &text]);
    out.expect_code(1);
    assert!(out.stderr.contains("no override"), "{}", out.stderr);
    run_in(&home, &dir, &["record", "--project", "--allow-secret", "deploy", &text]).expect_code(2);
    fs::write(dir.join("in.tsv"), format!("deploy\t{text}\n")).unwrap();
    run_in(&home, &dir, &["import", "--project", "in.tsv"]).expect_code(1);
    assert!(!dir.join(".tinylingo").exists(), "nothing created");
}

#[test]
fn one_bad_entry_refuses_the_whole_import_naming_it() {
    let home = Home::seeded();
    let before = fs::read(home.glossary()).unwrap();
    let file = home.path().join("in.tsv");
    let lines = format!("新词\t普通的解释\n部署\t用 {} 推送\n另一个\t也普通\n", fake_token());
    fs::write(&file, lines).unwrap();
    let out = home.run(&["import", file.to_str().unwrap()]);
    out.expect_code(1);
    assert!(out.stderr.contains("entry 2 \"部署\""), "{}", out.stderr);
    assert!(out.stderr.contains("nothing imported"), "{}", out.stderr);
    assert_eq!(fs::read(home.glossary()).unwrap(), before, "nothing written");
    home.run(&["import", "--dry-run", file.to_str().unwrap()]).expect_code(1);
    // A password by its context is refused the same way.
    let by_context = home.path().join("pw.tsv");
    fs::write(&by_context, format!("库\t普通\ndb\tstaging db password: {}\n", password())).unwrap();
    let out = home.run(&["import", by_context.to_str().unwrap()]);
    out.expect_code(1);
    assert!(out.stderr.contains("entry 2 \"db\"") && !out.stderr.contains(&password()[3..]));
    assert_eq!(fs::read(home.glossary()).unwrap(), before, "nothing written");
    home.run(&["import", "--allow-secret", file.to_str().unwrap()]).ok();
    assert_eq!(home.run(&["search", "部署"]).code, 0);
}

#[test]
fn doctor_and_stats_name_stored_credentials_masked() {
    let home = Home::seeded();
    let token = fake_token();
    // A hand edit, which no check saw.
    let glossary = serde_json::json!({"提交": "普通", "部署": format!("token {token}")});
    home.write_store_file("glossary.json", glossary.to_string().as_bytes());
    let doctor = home.run(&["doctor"]);
    doctor.expect_code(1);
    let line = doctor.stdout.lines().find(|l| l.contains("credentials:")).expect("a line");
    assert!(line.starts_with("FAIL") && line.contains("部署") && line.contains("github-token"));
    assert!(!doctor.stdout.contains(&token[..12]), "{}", doctor.stdout);
    let stats = home.run(&["stats", "--json"]);
    let found = &stats.ok().json()["credentials"];
    assert_eq!(found[0]["term"], "部署");
    assert_eq!(found[0]["rule"], "github-token");
    assert_eq!(found[0]["position"], 7);
    assert!(!stats.stdout.contains(&token[..12]));
    // A password by its context, edited in by hand, is named too, masked.
    let pw = password();
    let glossary = serde_json::json!({"提交": "普通", "db": format!("测试库密码就是 {pw}")});
    home.write_store_file("glossary.json", glossary.to_string().as_bytes());
    let doctor = home.run(&["doctor"]);
    doctor.expect_code(1);
    let line = doctor.stdout.lines().find(|l| l.contains("credentials:")).expect("a line");
    assert!(line.contains("db") && line.contains("password"), "{}", doctor.stdout);
    assert!(!doctor.stdout.contains(&pw[3..]), "{}", doctor.stdout);
    let stats = home.run(&["stats", "--json"]);
    let found = &stats.ok().json()["credentials"];
    assert_eq!((&found[0]["term"], &found[0]["rule"]), (&"db".into(), &"password".into()));
    assert!(!stats.stdout.contains(&pw[3..]));
    // And a clean glossary passes.
    let clean = Home::seeded();
    let doctor = clean.run(&["doctor"]);
    assert!(doctor.stdout.lines().any(|l| l.starts_with("ok   credentials:")), "{}", doctor.stdout);
}

#[test]
fn check_finds_renamed_deleted_and_ignored_paths_and_prints_the_fixes() {
    let home = Home::new();
    let dir = repo(
        &home,
        &["src/modules/bgremove/mod.rs", "engine/render/graph.rs", "tools/old.py", ".gitignore"],
    );
    fs::write(dir.join(".gitignore"), "build/\n").unwrap();
    fs::create_dir_all(dir.join("build")).unwrap();
    fs::write(dir.join("build/out.bin"), "x").unwrap();
    fs::write(dir.join("notes.md"), "untracked, not ignored").unwrap();
    let record = |term: &str, text: &str| {
        run_in(&home, &dir, &["record", "--project", "--force", term, text]).ok();
    };
    record("智能抠图", "背景移除模块，位于 src/modules/bgremove/，渲染图在 engine/render/graph.rs");
    record("旧工具", "跑 tools/old.py 生成数据");
    record("构建产物", "产物在 build/out.bin，笔记在 notes.md 和 docs/intro/guide.md 里");
    record("正常", "入口是 src/modules/bgremove/mod.rs");
    run_in(&home, &dir, &["check"]).expect_code(1);
    // A folder moved (same name elsewhere), a file renamed (git's rename detection), one deleted.
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "glossary"]);
    fs::create_dir_all(dir.join("src/features")).unwrap();
    git(&dir, &["mv", "src/modules/bgremove", "src/features/bgremove"]);
    git(&dir, &["mv", "engine/render/graph.rs", "engine/render/render_graph.rs"]);
    git(&dir, &["rm", "-q", "tools/old.py"]);
    git(&dir, &["commit", "-qm", "move"]);

    let out = run_in(&home, &dir, &["check", "--format", "json"]);
    out.expect_code(1);
    let report = out.json();
    let issues: Vec<(String, String, Option<String>)> = report["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["term"].as_str().unwrap().to_string(),
                i["path"].as_str().unwrap().to_string(),
                i["renamed"].as_str().map(String::from),
            )
        })
        .collect();
    let expect =
        |t: &str, p: &str, r: Option<&str>| (t.to_string(), p.to_string(), r.map(String::from));
    assert_eq!(
        issues,
        [
            expect("智能抠图", "src/modules/bgremove", Some("src/features/bgremove")),
            expect("智能抠图", "engine/render/graph.rs", Some("engine/render/render_graph.rs")),
            expect("旧工具", "tools/old.py", None),
            // Ignored: not in the repository. notes.md (untracked, not ignored) is; docs/ never was.
            expect("构建产物", "build/out.bin", None),
            expect("构建产物", "docs/intro/guide.md", None),
            expect("正常", "src/modules/bgremove/mod.rs", Some("src/features/bgremove/mod.rs")),
        ]
    );
    assert!(issues.iter().all(|i| i.0 != "x"));
    let text = run_in(&home, &dir, &["check"]);
    assert!(text.stdout.contains("Nothing was changed"), "{}", text.stdout);
    assert!(
        text.stdout.contains(
            "tinylingo record --force --project 智能抠图 '背景移除模块，位于 src/features/bgremove/，渲染图在 engine/render/render_graph.rs'"
        ),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("tinylingo remove --project 旧工具"), "{}", text.stdout);
    // The printed fix works: run it, and the entry is no longer reported.
    run_in(
        &home,
        &dir,
        &["record", "--force", "--project", "正常", "入口是 src/features/bgremove/mod.rs"],
    )
    .ok();
    let tsv = run_in(&home, &dir, &["check", "--format", "tsv"]);
    assert!(!tsv.stdout.contains("正常"), "{}", tsv.stdout);
    assert_eq!(tsv.stdout.lines().count(), 5);
    // check changed nothing else.
    assert!(fs::read_to_string(dir.join(".tinylingo/glossary.json"))
        .unwrap()
        .contains("tools/old.py"));
}

#[test]
fn user_entries_are_checked_only_for_paths_from_the_repository_root() {
    let home = Home::new();
    let dir = repo(&home, &["src/lib.rs"]);
    let text = "in src/gone.rs, and/or lib/elsewhere.rs, /usr/lib/x.so, github.com/org/repo";
    home.run(&["record", "规则", text]).ok();
    // Another project's folder: this repository has a src/, but nothing of src/modules/ here.
    home.run(&["record", "别的项目", "背景移除在 src/modules/bgremove/ 下"]).ok();
    let out = run_in(&home, &dir, &["check", "--json"]);
    out.expect_code(1);
    let issues = out.json()["issues"].clone();
    assert_eq!(issues.as_array().unwrap().len(), 1, "{issues}");
    assert_eq!(issues[0]["path"], "src/gone.rs");
    assert_eq!(issues[0]["scope"], "user");
    assert!(issues[0]["fix"].as_str().unwrap().starts_with("tinylingo remove 规则"));
    // Outside a git work tree the paths are not checked, and it says so.
    let out = home.run(&["check"]);
    out.ok();
    assert!(out.stderr.contains("not in a git work tree"), "{}", out.stderr);
    // From a subfolder, the paths are still taken from the root.
    fs::create_dir_all(dir.join("src/deep")).unwrap();
    run_in(&home, &dir.join("src/deep"), &["check"]).expect_code(1);
}

#[test]
fn unused_lists_the_entries_not_hit_within_the_time() {
    let home = Home::new();
    // Written by hand: no record times, so no entry counts as young.
    let glossary = serde_json::json!({"旧": "a", "新": "b", "从未": "c"});
    home.write_store_file("glossary.json", glossary.to_string().as_bytes());
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let log = format!("{}\t旧\n{}\t新\n", now - 100 * 86_400, now - 86_400);
    home.write_store_file("usage.log", log.as_bytes());
    let out = home.run(&["check", "--unused", "30d", "--format", "tsv"]);
    out.expect_code(1);
    let lines: Vec<Vec<&str>> = out.stdout.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert_eq!(&lines[0][..2], ["unused", "旧"]);
    assert!(!lines[0][4].is_empty(), "the last hit is given");
    assert_eq!(&lines[1][..2], ["unused", "从未"]);
    assert_eq!(lines[1][4], "");
    assert_eq!(lines[1][5], "tinylingo remove 从未");
    home.run(&["check", "--unused", "365d"]).expect_code(1);
    assert_eq!(
        home.run(&["check", "--unused", "200d", "--json"]).json()["issues"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    home.run(&["check", "--unused", "soon"]).expect_code(2);
    // Without --unused, disuse is not reported.
    home.run(&["check"]).ok();
}
