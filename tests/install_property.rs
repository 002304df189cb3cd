//! Issue #34, as a property: from any of a set of starting files, any sequence of install,
//! `thread on`/`thread off`, `install --mcp` (`--allow-record`), `uninstall --mcp` and reinstalls, with edits of
//! the user's in between, then uninstall: exactly the user's edits remain, byte for byte. The
//! real binary in a temporary home, for Claude Code, Codex CLI and Gemini CLI (JSON settings
//! files, with comments for Gemini, which keeps its MCP servers there too; the instruction
//! files; `~/.claude.json`; Codex's `config.toml`; the review command, where the user may
//! have a file of that name, or edit ours).
//!
//! The edits are ones that touch nothing of ours and whose result is well defined on any
//! version of the file: a JSON file gets a new first key right after its opening brace (on a
//! line of its own, as an editor would put it), a TOML file a new first line, a Markdown file
//! a new last line. The expected file is the starting file with the same edits; for a file
//! install created, the bare file (`{}` + line break, or empty) with the edits, or no file when
//! there were none.
#[path = "support/home.rs"]
mod home;

use std::os::unix::fs::PermissionsExt;

use home::Home;
use proptest::prelude::*;

/// A fake secret in the user's files, which must never reach the store.
const TOKEN: &str = "sk-fake-9f8e7d6c5b4a";

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Json,
    Toml,
    Markdown,
    /// A file wholly tinylingo's (the review command) where install finds none; an edit
    /// appends a line, as to Markdown, and from then on the file is the user's.
    Ours,
}

/// The files, with the starting versions each may have (`None`: absent).
const FILES: &[(&str, Kind, &[Option<&str>])] = &[
    (
        ".claude/settings.json",
        Kind::Json,
        &[
            None,
            Some("{}"),
            Some("{}\n"),
            Some("{\n  \"env\": {\n    \"ANTHROPIC_API_KEY\": \"sk-fake-9f8e7d6c5b4a\"\n  },\n  \"model\": \"opus\"\n}\n"),
            Some("{\r\n    \"x\": 1.10,\r\n    \"name\": \"Ren\\u00e9\",\r\n    \"list\": [1, 2],\r\n    \"hooks\": {\r\n        \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]\r\n    }\r\n}\r\n"),
            Some("{\n\t\"hooks\": {\"UserPromptSubmit\": [{\"hooks\": [{\"command\": \"mine\"}]}]},\n\t\"permissions\": {\n\t\t\"allow\": [\"Read\"]\n\t}\n}"),
            Some("{\n  \"hooks\": {},\n  \"permissions\": {\"deny\": [\"Bash(rm:*)\"]}\n}\n"),
        ],
    ),
    (
        ".claude.json",
        Kind::Json,
        &[
            None,
            Some("{}\n"),
            Some("{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"github\": {\n      \"command\": \"gh-mcp\",\n      \"env\": {\"GITHUB_TOKEN\": \"sk-fake-9f8e7d6c5b4a\"}\n    }\n  },\n  \"projects\": {}\n}\n"),
            Some("{\n  \"mcpServers\": {}\n}\n"),
        ],
    ),
    (
        ".claude/CLAUDE.md",
        Kind::Markdown,
        &[None, Some(""), Some("# My rules\nnever push\n"), Some("no line break at the end"), Some("# Mine\r\nrule\r\n")],
    ),
    (
        ".codex/hooks.json",
        Kind::Json,
        &[
            None,
            Some("{}"),
            Some("{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}\n    ]\n  }\n}\n"),
        ],
    ),
    (
        ".codex/config.toml",
        Kind::Toml,
        &[
            None,
            Some("model = \"o3\"\n"),
            Some("# my codex\nmodel = \"o4\"  # the model\n\n[mcp_servers.other]\ncommand = \"x\"\nenv = { TOKEN = \"sk-fake-9f8e7d6c5b4a\" }\n\n[projects.\"/w\"]\ntrust_level = \"trusted\"\n"),
        ],
    ),
    (".codex/AGENTS.md", Kind::Markdown, &[None, Some("Be brief.\n")]),
    (
        ".gemini/settings.json",
        Kind::Json,
        &[
            None,
            Some("// my settings\n{\n  /* look */ \"ui\": {\"theme\": \"dark\"}, // trailing\n}\n"),
            Some("{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"x\", \"env\": {\"TOKEN\": \"sk-fake-9f8e7d6c5b4a\"}}\n  }\n}\n"),
        ],
    ),
    (".gemini/GEMINI.md", Kind::Markdown, &[None, Some("# Gemini\n")]),
    (
        ".claude/commands/tinylingo-review.md",
        Kind::Ours,
        &[None, Some("---\ndescription: my own review\n---\nReview my PRs.\n")],
    ),
    (".gemini/commands/tinylingo-review.toml", Kind::Ours, &[None, Some("prompt = \"mine\"\n")]),
];

/// The assistants the commands name.
const NAMES: [&str; 3] = ["claude", "codex", "gemini"];

#[derive(Clone, Debug)]
enum Op {
    Install,
    InstallMcp,
    /// `install --mcp --allow-record`: Claude Code's allow rules too.
    InstallAllowRecord,
    UninstallMcp,
    ThreadOn,
    ThreadOff,
    /// The user edits the file `FILES[i]` (if it is there).
    Edit(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Install),
        2 => Just(Op::InstallMcp),
        1 => Just(Op::InstallAllowRecord),
        1 => Just(Op::UninstallMcp),
        1 => Just(Op::ThreadOn),
        1 => Just(Op::ThreadOff),
        4 => (0..FILES.len()).prop_map(Op::Edit),
    ]
}

/// The `n`th edit of the user's to `text`.
fn edit(kind: Kind, text: &str, n: usize) -> String {
    let nl = match text.find('\n') {
        Some(i) if text[..i].ends_with('\r') => "\r\n",
        _ => "\n",
    };
    match kind {
        Kind::Json => {
            let at = text.find('{').expect("a JSON object") + 1;
            let rest = &text[at..];
            let key = format!("{nl}  \"user{n}\": {n}");
            if rest.trim_start().starts_with('}') {
                // Empty: the key alone, the closing brace on the next line.
                let close = at + rest.find('}').unwrap();
                format!("{}{key}{nl}{}", &text[..at], &text[close..])
            } else {
                format!("{}{key},{}", &text[..at], rest)
            }
        }
        Kind::Toml => format!("user{n} = {n}{nl}{text}"),
        Kind::Markdown | Kind::Ours => {
            let sep = if text.is_empty() || text.ends_with('\n') { "" } else { nl };
            format!("{text}{sep}user line {n}{nl}")
        }
    }
}

/// The file as a file install created holds it once nothing of ours is left.
fn bare(kind: Kind) -> &'static str {
    match kind {
        Kind::Json => "{}\n",
        Kind::Toml | Kind::Markdown | Kind::Ours => "",
    }
}

fn run_case(start: &[usize], ops: &[Op]) -> Result<(), TestCaseError> {
    let h = Home::new();
    for dir in [".claude", ".codex", ".gemini"] {
        h.mkdir(dir);
    }
    let run = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(NAMES);
        h.ok(&all);
    };
    // What each file should be in the end: (the text, whether the user edited it).
    let mut expected: Vec<(Option<String>, bool)> = Vec::new();
    for (&(rel, _, versions), &v) in FILES.iter().zip(start) {
        if let Some(text) = versions[v] {
            h.write(rel, text);
        }
        expected.push((versions[v].map(str::to_string), false));
    }
    let mut edits = 0;
    run(&["install"]);
    for op in ops {
        match op {
            Op::Install => run(&["install"]),
            Op::InstallMcp => run(&["install", "--mcp"]),
            Op::InstallAllowRecord => run(&["install", "--mcp", "--allow-record"]),
            Op::UninstallMcp => run(&["uninstall", "--mcp"]),
            Op::ThreadOn => drop(h.ok(&["thread", "on"])),
            Op::ThreadOff => drop(h.ok(&["thread", "off"])),
            &Op::Edit(i) => {
                let (rel, kind, _) = FILES[i];
                if !h.exists(rel) {
                    continue;
                }
                edits += 1;
                let now = h.read(rel);
                h.write(rel, &edit(kind, &now, edits));
                let (text, edited) = &mut expected[i];
                // An edited command of ours is the user's from then on, as it is now.
                let was = if kind == Kind::Ours { Some(now.as_str()) } else { text.as_deref() };
                *text = Some(edit(kind, was.unwrap_or(bare(kind)), edits));
                *edited = true;
            }
        }
        let record = h.path(".config/tinylingo/installed.json");
        if let Ok(text) = std::fs::read_to_string(&record) {
            prop_assert!(!text.contains(TOKEN), "a secret in installed.json: {}", text);
            let mode = std::fs::metadata(&record).unwrap().permissions().mode();
            prop_assert_eq!(mode & 0o777, 0o600);
        }
    }
    run(&["uninstall"]);
    for (&(rel, _, _), (want, _)) in FILES.iter().zip(&expected) {
        let now = h.exists(rel).then(|| h.read(rel));
        prop_assert_eq!(now.as_deref(), want.as_deref(), "{} after {:?}", rel, ops);
    }
    // Nothing else is left behind.
    let mut left: Vec<_> = h.snapshot().into_keys().collect();
    let ours = |p: &std::path::Path| {
        p.starts_with(".config")
            || [".claude", ".codex", ".gemini"].iter().any(|d| p == std::path::Path::new(d))
            || FILES.iter().any(|f| std::path::Path::new(f.0).starts_with(p))
    };
    left.retain(|p| !ours(p));
    prop_assert!(left.is_empty(), "left behind: {:?}", left);
    Ok(())
}

proptest! {
    // Each case runs the binary a handful of times: a modest number of cases keeps the test
    // at a few seconds (PROPTEST_CASES raises it).
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(32),
        ..ProptestConfig::default()
    })]

    #[test]
    fn uninstall_leaves_exactly_the_users_edits(
        start in FILES.iter().map(|f| 0..f.2.len()).collect::<Vec<_>>(),
        ops in proptest::collection::vec(op(), 0..7),
    ) {
        run_case(&start, &ops)?;
    }
}

/// The bug's sequence as one fixed case of the property.
#[test]
fn install_edit_reinstall_with_mcp_and_the_journal() {
    let ops = [
        Op::InstallAllowRecord,
        Op::Edit(0),
        Op::Edit(1),
        Op::ThreadOn,
        Op::Install,
        Op::Edit(2),
        Op::UninstallMcp,
        Op::Edit(4),
        Op::InstallMcp,
        Op::ThreadOff,
        Op::Edit(3),
        Op::Edit(5),
        Op::Edit(6),
        Op::ThreadOn,
        Op::Edit(7),
        Op::Edit(8),
        Op::Install,
        Op::Edit(9),
    ];
    for start in [
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [3, 2, 2, 2, 2, 1, 1, 1, 1, 0],
        [6, 3, 3, 1, 1, 0, 2, 0, 0, 1],
        [5, 1, 4, 0, 0, 1, 0, 1, 1, 1],
    ] {
        run_case(&start, &ops).unwrap();
    }
}
