//! The merge driver for project glossaries, through a real `git`: two branches that each
//! record a term merge without a conflict once `tinylingo install` has defined the driver; one
//! term given two explanations is a conflict that shows both, which every command then names;
//! without the driver git merges the file as text; install and uninstall edit the global git
//! config byte for byte; the `.gitattributes` is never written through a link.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{js_pretty, run_command, Home, Output};

/// `tinylingo args…` run in `dir`.
fn run_in(h: &Home, dir: &Path, args: &[&str]) -> Output {
    let mut cmd = h.command(args);
    cmd.current_dir(dir).env_remove("GIT_CONFIG_GLOBAL");
    run_command(cmd, None)
}

/// `git args…` in `dir`, with `h`'s home folder (and so its global config) and no system one.
fn git_out(h: &Home, dir: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new("git");
    cmd.args(["-c", "user.name=Test", "-c", "user.email=test@example.com"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", h.path())
        .env_remove("GIT_CONFIG_GLOBAL")
        .env_remove("XDG_CONFIG_HOME");
    cmd.output().expect("git is installed")
}

fn git(h: &Home, dir: &Path, args: &[&str]) -> String {
    let out = git_out(h, dir, args);
    assert!(
        out.status.success(),
        "git {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn record(h: &Home, repo: &Path, term: &str, explanation: &str) {
    run_in(h, repo, &["record", "--project", "--force", term, explanation]).ok();
}

/// A repository whose first commit holds a project glossary with `基线` (and its
/// `.gitignore` and `.gitattributes`), and a `feature` branch from there.
fn repo(h: &Home) -> PathBuf {
    let dir = h.path().join("proj");
    fs::create_dir_all(&dir).unwrap();
    let dir = dir.canonicalize().unwrap();
    git(h, &dir, &["init", "-q", "-b", "main"]);
    record(h, &dir, "基线", "the base entry");
    git(h, &dir, &["add", "-A"]);
    git(h, &dir, &["commit", "-qm", "base"]);
    git(h, &dir, &["branch", "feature"]);
    dir
}

fn commit_all(h: &Home, repo: &Path, message: &str) {
    git(h, repo, &["add", "-A"]);
    git(h, repo, &["commit", "-qm", message]);
}

fn glossary(repo: &Path) -> String {
    fs::read_to_string(repo.join(".tinylingo/glossary.json")).unwrap()
}

fn install(h: &Home) {
    run_in(h, h.path(), &["install", "claude"]).ok();
}

#[test]
fn two_branches_that_each_add_a_term_merge_ours_then_theirs() {
    let h = Home::new();
    install(&h);
    let repo = repo(&h);
    git(&h, &repo, &["checkout", "-q", "feature"]);
    record(&h, &repo, "联调", "USE_SOURCE in localConfig.cmake");
    record(&h, &repo, "部署", "deploy with make release");
    commit_all(&h, &repo, "feature terms");
    git(&h, &repo, &["checkout", "-q", "main"]);
    record(&h, &repo, "提交", "never push after a commit");
    commit_all(&h, &repo, "main term");
    git(&h, &repo, &["merge", "-q", "--no-edit", "feature"]);
    assert_eq!(
        glossary(&repo),
        js_pretty(&[
            ("基线", "the base entry"),
            ("提交", "never push after a commit"),
            ("联调", "USE_SOURCE in localConfig.cmake"),
            ("部署", "deploy with make release"),
        ])
    );
    let listed = run_in(&h, &repo, &["list", "--project", "--format", "tsv"]);
    assert_eq!(listed.ok().stdout.lines().count(), 4, "{}", listed.stdout);
}

#[test]
fn a_removal_on_one_side_and_an_addition_on_the_other_both_apply() {
    let h = Home::new();
    install(&h);
    let repo = repo(&h);
    record(&h, &repo, "旧词", "an entry about to go");
    commit_all(&h, &repo, "old term");
    git(&h, &repo, &["branch", "-f", "feature"]);
    git(&h, &repo, &["checkout", "-q", "feature"]);
    record(&h, &repo, "新词", "a new entry");
    commit_all(&h, &repo, "new term");
    git(&h, &repo, &["checkout", "-q", "main"]);
    run_in(&h, &repo, &["remove", "--project", "旧词"]).ok();
    record(&h, &repo, "基线", "the base entry, changed on main");
    commit_all(&h, &repo, "removed");
    git(&h, &repo, &["merge", "-q", "--no-edit", "feature"]);
    assert_eq!(
        glossary(&repo),
        js_pretty(&[("基线", "the base entry, changed on main"), ("新词", "a new entry")])
    );
}

#[test]
fn one_term_with_two_explanations_is_a_conflict_that_shows_both() {
    let h = Home::new();
    install(&h);
    let repo = repo(&h);
    git(&h, &repo, &["checkout", "-q", "feature"]);
    record(&h, &repo, "联调", "USE_SRC");
    record(&h, &repo, "部署", "deploy with make release");
    commit_all(&h, &repo, "feature");
    git(&h, &repo, &["checkout", "-q", "main"]);
    record(&h, &repo, "联调", "USE_SOURCE");
    commit_all(&h, &repo, "main");
    let merged = git_out(&h, &repo, &["merge", "--no-edit", "feature"]);
    assert!(!merged.status.success());
    let said = String::from_utf8_lossy(&merged.stdout);
    assert!(said.contains("CONFLICT") && said.contains(".tinylingo/glossary.json"), "{said}");
    // Just that entry between the markers, the rest merged.
    assert_eq!(
        glossary(&repo),
        "{\n  \"基线\": \"the base entry\",\n<<<<<<< ours\n  \"联调\": \"USE_SOURCE\",\n=======\n  \
         \"联调\": \"USE_SRC\",\n>>>>>>> theirs\n  \"部署\": \"deploy with make release\"\n}"
    );
    let out = run_in(&h, &repo, &["list", "--project"]);
    out.expect_code(2);
    let stderr = &out.stderr;
    assert!(stderr.contains("merge conflict") && stderr.contains("line 3"), "{stderr}");
    assert!(stderr.contains("\"联调\" (ours: \"USE_SOURCE\"; theirs: \"USE_SRC\")"), "{stderr}");
    assert!(stderr.contains("git checkout --ours") && !stderr.contains("tinylingo install"));
    // Both glossaries asked for: a warning that names it, and the user's terms still listed.
    let out = run_in(&h, &repo, &["list"]);
    assert!(out.stderr.contains("merge conflict") && out.stderr.contains("联调"), "{out:?}");
    // Resolved by hand (theirs), the merge completes.
    let resolved = glossary(&repo)
        .lines()
        .filter(|l| !l.starts_with(['<', '=', '>']) && !l.contains("USE_SOURCE"))
        .collect::<Vec<_>>()
        .join("\n");
    fs::write(repo.join(".tinylingo/glossary.json"), resolved).unwrap();
    commit_all(&h, &repo, "merged");
    let listed = run_in(&h, &repo, &["list", "--project", "--format", "tsv"]).ok().stdout.clone();
    assert!(listed.contains("联调\tUSE_SRC\tproject"), "{listed}");
}

#[test]
fn without_the_driver_git_merges_the_file_as_text() {
    // No install: the attribute names a driver this git config does not define.
    let h = Home::new();
    let repo = repo(&h);
    assert!(repo.join(".tinylingo/.gitattributes").is_file());
    assert!(!h.path().join(".gitconfig").exists());
    git(&h, &repo, &["checkout", "-q", "feature"]);
    record(&h, &repo, "联调", "USE_SOURCE");
    commit_all(&h, &repo, "feature");
    git(&h, &repo, &["checkout", "-q", "main"]);
    record(&h, &repo, "提交", "never push");
    commit_all(&h, &repo, "main");
    let before_merge = glossary(&repo);
    let merged = git_out(&h, &repo, &["merge", "--no-edit", "feature"]);
    assert!(!merged.status.success(), "both appended at the end: a text conflict");
    // git's own markers, exactly as `git merge-file` makes them from the three versions.
    let show = |rev: &str| git(&h, &repo, &["show", &format!("{rev}:.tinylingo/glossary.json")]);
    let tmp = h.path().join("expected");
    fs::create_dir_all(&tmp).unwrap();
    for (name, rev) in [("ours", "HEAD"), ("base", "main~1"), ("theirs", "feature")] {
        fs::write(tmp.join(name), show(rev)).unwrap();
    }
    assert_eq!(fs::read_to_string(tmp.join("ours")).unwrap(), before_merge);
    let _ = git_out(
        &h,
        &tmp,
        &["merge-file", "-L", "HEAD", "-L", "base", "-L", "feature", "ours", "base", "theirs"],
    );
    assert_eq!(glossary(&repo), fs::read_to_string(tmp.join("ours")).unwrap());
    assert!(glossary(&repo).contains("<<<<<<< HEAD"));
    // Named as a merge conflict, and the way out includes registering the driver.
    let out = run_in(&h, &repo, &["list", "--project"]);
    out.expect_code(2);
    assert!(out.stderr.contains("merge conflict") && out.stderr.contains("\"提交\""), "{out:?}");
    assert!(out.stderr.contains("git merge --abort && tinylingo install"), "{}", out.stderr);
    // Which is true: abort, install, merge again.
    git(&h, &repo, &["merge", "--abort"]);
    install(&h);
    git(&h, &repo, &["merge", "-q", "--no-edit", "feature"]);
    assert_eq!(
        glossary(&repo),
        js_pretty(&[("基线", "the base entry"), ("提交", "never push"), ("联调", "USE_SOURCE")])
    );
}

#[test]
fn install_adds_the_section_and_uninstall_restores_the_file_byte_for_byte() {
    let h = Home::new();
    let config = h.path().join(".gitconfig");
    let original = "# my settings\n[user]\n\tname = Someone\n\temail = s@example.com\n# the end\n";
    fs::write(&config, original).unwrap();
    let dry = run_in(&h, h.path(), &["install", "claude", "--dry-run"]);
    assert!(dry.ok().stdout.contains("~/.gitconfig: merge driver"), "{}", dry.stdout);
    assert_eq!(fs::read_to_string(&config).unwrap(), original);
    install(&h);
    let installed = fs::read_to_string(&config).unwrap();
    assert!(installed.starts_with(original), "{installed}");
    let driver = git(&h, h.path(), &["config", "--global", "merge.tinylingo.driver"]);
    let link = h.store().join("scripts/tinylingo");
    assert_eq!(driver, format!("{} merge-driver %O %A %B %P\n", link.display()));
    // A second install changes nothing; doctor finds the driver and runs it.
    install(&h);
    assert_eq!(fs::read_to_string(&config).unwrap(), installed);
    let doctor = run_in(&h, h.path(), &["doctor"]);
    assert!(doctor.stdout.contains("ok   merge driver: registered in ~/.gitconfig"), "{doctor:?}");
    // The user's edits in between stay.
    git(&h, h.path(), &["config", "--global", "alias.co", "checkout"]);
    let edited = fs::read_to_string(&config).unwrap();
    assert!(edited.ends_with("[alias]\n\tco = checkout\n"), "{edited}");
    let dry = run_in(&h, h.path(), &["uninstall", "--dry-run"]);
    assert!(dry.ok().stdout.contains("~/.gitconfig: merge driver"), "{}", dry.stdout);
    run_in(&h, h.path(), &["uninstall"]).ok();
    assert_eq!(
        fs::read_to_string(&config).unwrap(),
        format!("{original}[alias]\n\tco = checkout\n")
    );
    // Untouched since install: byte for byte.
    fs::write(&config, original).unwrap();
    install(&h);
    run_in(&h, h.path(), &["uninstall"]).ok();
    assert_eq!(fs::read_to_string(&config).unwrap(), original);
    // A doctor without the section says so once an assistant is registered.
    install(&h);
    fs::write(&config, original).unwrap();
    let doctor = run_in(&h, h.path(), &["doctor"]);
    assert!(doctor.stdout.contains("FAIL merge driver"), "{}", doctor.stdout);
}

#[test]
fn a_config_file_install_created_goes_and_xdg_s_is_used_when_it_is_the_one() {
    let h = Home::new();
    install(&h);
    let config = h.path().join(".gitconfig");
    assert!(config.is_file());
    run_in(&h, h.path(), &["uninstall"]).ok();
    assert!(!config.exists());
    // Only ~/.config/git/config exists: git writes there, and so does install.
    let xdg = h.path().join(".config/git/config");
    fs::create_dir_all(xdg.parent().unwrap()).unwrap();
    fs::write(&xdg, "[core]\n\tautocrlf = false").unwrap();
    install(&h);
    assert!(!config.exists());
    assert!(fs::read_to_string(&xdg).unwrap().contains("[merge \"tinylingo\"]"));
    run_in(&h, h.path(), &["uninstall"]).ok();
    assert_eq!(fs::read_to_string(&xdg).unwrap(), "[core]\n\tautocrlf = false");
}

#[test]
fn a_side_that_does_not_parse_falls_back_to_git_s_text_merge() {
    let h = Home::new();
    let dir = h.path().join("three");
    fs::create_dir_all(&dir).unwrap();
    let base = "{\n  \"a\": \"1\"\n}";
    let ours = "{\n  \"a\": \"1\",\n  \"b\": \"2\"\n}";
    let theirs = "{\n  \"a\": \"1\",\n  \"c\": broken\n}";
    for (name, text) in [("O", base), ("A", ours), ("B", theirs)] {
        fs::write(dir.join(name), text).unwrap();
    }
    let out = run_in(&h, &dir, &["merge-driver", "O", "A", "B", ".tinylingo/glossary.json"]);
    out.expect_code(1);
    assert!(out.stderr.contains("falling back to git's text merge"), "{}", out.stderr);
    let merged = fs::read_to_string(dir.join("A")).unwrap();
    assert!(merged.contains("\"b\": \"2\"") && merged.contains("\"c\": broken"), "{merged}");
    assert!(merged.contains("<<<<<<< ours") && merged.contains(">>>>>>> theirs"), "{merged}");
    // A clean merge of the same files, fixed: exit 0, the glossary's format.
    fs::write(dir.join("A"), ours).unwrap();
    fs::write(dir.join("B"), "{\n  \"a\": \"1\",\n  \"c\": \"3\"\n}").unwrap();
    run_in(&h, &dir, &["merge-driver", "O", "A", "B"]).ok();
    let merged = fs::read_to_string(dir.join("A")).unwrap();
    assert_eq!(merged, js_pretty(&[("a", "1"), ("b", "2"), ("c", "3")]));
}

#[cfg(unix)]
#[test]
fn the_attributes_file_is_never_written_through_a_link() {
    let h = Home::new();
    let repo = h.path().join("hostile");
    fs::create_dir_all(repo.join(".tinylingo")).unwrap();
    git(&h, &repo, &["init", "-q", "-b", "main"]);
    let outside = h.path().join("outside-attributes");
    std::os::unix::fs::symlink(&outside, repo.join(".tinylingo/.gitattributes")).unwrap();
    let out = run_in(&h, &repo, &["record", "--project", "联调", "USE_SOURCE"]);
    assert_ne!(out.code, 0, "{out:?}");
    assert!(out.stderr.contains(".gitattributes"), "{}", out.stderr);
    assert!(!outside.exists());
    assert!(!repo.join(".tinylingo/glossary.json").exists());
}
