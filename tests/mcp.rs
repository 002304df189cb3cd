//! `tinylingo mcp` spoken to as a client would: JSON-RPC lines over the real binary's stdio.
//! (The Python SDK's client drives it too, in tests/mcp/run; these keep `cargo test` covering
//! the server.) And `install --mcp` / `uninstall` of the registration.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

use common::Home;
use serde_json::{json, Value};

/// A running server and the client's ends of its pipes.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Session {
    /// Starts the server and completes the initialize handshake.
    fn start(home: &Home) -> (Session, Value) {
        Session::start_in(home, home.path())
    }

    /// [`Session::start`] with the server running in `dir`, as an assistant starts it in the
    /// project it works on.
    fn start_in(home: &Home, dir: &std::path::Path) -> (Session, Value) {
        let mut cmd = home.command(&["mcp"]);
        cmd.current_dir(dir);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let mut child = cmd.spawn().expect("start tinylingo mcp");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Session { child, stdin, stdout, next_id: 1 };
        let init = s.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "tests/mcp.rs", "version": "1"}
            }),
        );
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (s, init)
    }

    fn send(&mut self, message: &Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and returns its response (the whole JSON-RPC object).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed stdout");
            let message: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
            if message["id"] == id {
                return message;
            }
        }
    }

    /// Calls a tool; returns `(isError, text)`.
    fn call(&mut self, tool: &str, arguments: Value) -> (bool, String) {
        let r = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let result = &r["result"];
        assert!(result.is_object(), "a tool result, not a protocol error: {r}");
        let text = result["content"][0]["text"].as_str().expect("text content").to_string();
        (result["isError"] == true, text)
    }

    /// Calls a tool that must succeed; returns its JSON answer.
    fn ok(&mut self, tool: &str, arguments: Value) -> Value {
        let (error, text) = self.call(tool, arguments);
        assert!(!error, "{tool} failed: {text}");
        serde_json::from_str(&text).expect("a JSON answer")
    }

    /// Closes stdin and waits: the server must end by itself, with status 0.
    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// The glossary as the CLI lists it, term → explanation.
fn glossary(home: &Home) -> std::collections::BTreeMap<String, String> {
    let listed = home.run(&["list", "--json"]).json();
    let pair =
        |e: &Value| (e["term"].as_str().unwrap().into(), e["explanation"].as_str().unwrap().into());
    listed.as_array().expect("an array of entries").iter().map(pair).collect()
}

#[test]
fn initialize_and_list_the_tools() {
    let home = Home::new();
    let (s, init) = Session::start(&home);
    let result = &init["result"];
    assert_eq!(result["serverInfo"]["name"], "tinylingo");
    assert!(result["capabilities"]["tools"].is_object());
    assert!(result["instructions"].as_str().unwrap().contains("record"));
    let mut s = s;
    let list = s.request("tools/list", json!({}));
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "record",
            "list",
            "search",
            "match",
            "remove",
            "stats",
            "check",
            "thread_show",
            "suggest",
            "inbox"
        ]
    );
    for tool in list["result"]["tools"].as_array().unwrap() {
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert!(tool["description"].as_str().unwrap().len() > 40, "{tool}");
    }
    s.finish();
    // Serving creates nothing in a fresh home.
    assert!(home.tree().is_empty(), "{:?}", home.tree());
}

#[test]
fn every_tool_goes_through_the_store_the_cli_uses() {
    let home = Home::new();
    let (mut s, _) = Session::start(&home);
    let a =
        s.ok("record", json!({"term": "联调", "explanation": "USE_SOURCE in localConfig.cmake"}));
    assert_eq!(a["status"], "added");
    // The CLI sees it, and the hook injects it: the same store and index.
    let out = home.run(&["list"]);
    assert_eq!(out.stdout, "联调: USE_SOURCE in localConfig.cmake\n");
    assert!(home.claude_hook("联调怎么开").stdout.contains("USE_SOURCE"));
    // A term the CLI records is listed by the server.
    home.run(&["record", "提交", "no git push"]).ok();
    let a = s.ok("list", json!({}));
    assert_eq!(a["total"], 2);
    assert_eq!(
        a["entries"][1],
        json!({"term": "提交", "explanation": "no git push", "scope": "user"})
    );
    let a = s.ok("list", json!({"offset": 1, "limit": 1}));
    assert_eq!(
        a["entries"],
        json!([{"term": "提交", "explanation": "no git push", "scope": "user"}])
    );
    let a = s.ok("match", json!({"message": "帮我提交一下"}));
    assert_eq!(
        a["exact"],
        json!([{"term": "提交", "explanation": "no git push", "case": "none", "scope": "user"}])
    );
    assert!(a["injection"].as_str().unwrap().contains("- 提交: no git push"));
    // A conflict is a tool error with the CLI's message and a hint for the tool.
    let (error, text) = s.call("record", json!({"term": "提交", "explanation": "other"}));
    assert!(error);
    assert!(text.starts_with("tinylingo: \"提交\" is already recorded as: no git push"), "{text}");
    assert!(text.contains("hint: to replace it, call record again with force: true"), "{text}");
    let a = s.ok("record", json!({"term": "提交", "explanation": "other", "force": true}));
    assert_eq!((a["status"].as_str(), a["was"].as_str()), (Some("updated"), Some("no git push")));
    let a = s.ok("remove", json!({"terms": ["提交"]}));
    assert_eq!(a["removed"], json!(["提交"]));
    let (error, text) = s.call("remove", json!({"terms": ["提交"]}));
    assert!(error && text.contains("not recorded: \"提交\""), "{text}");
    let a = s.ok("thread_show", json!({"date": "2026-11-24"}));
    assert_eq!((a["journal"].as_str(), a["entries"].clone()), (Some("off"), json!([])));
    // Why a term hit, as `match --format json` says it: a lower-case term at a sentence start.
    s.ok("record", json!({"term": "the drawer", "explanation": "the settings side panel"}));
    let a = s.ok("match", json!({"message": "The drawer should close"}));
    assert_eq!(
        (a["exact"][0]["term"].as_str(), a["exact"][0]["case"].as_str()),
        (Some("the drawer"), Some("ignored"))
    );
    s.finish();
}

#[test]
fn bad_arguments_are_tool_errors_and_the_server_lives_on() {
    let home = Home::new();
    let (mut s, _) = Session::start(&home);
    for (tool, args, says) in [
        ("record", json!({"term": "a"}), "missing field `explanation`"),
        ("record", json!({"term": 1, "explanation": "b"}), "invalid type: integer `1`"),
        ("list", json!({"limit": "ten"}), "invalid type: string \"ten\""),
        ("list", json!({"offset": -1}), "invalid value: integer `-1`"),
        ("remove", json!({"terms": "a"}), "invalid type: string \"a\""),
        ("remove", json!({"terms": []}), "give exactly one of terms"),
        ("remove", json!({"terms": ["a"], "confirm": "X"}), "give exactly one of terms"),
        ("stats", json!({"all": true}), "unknown field `all`"),
        ("search", json!({}), "missing field `query`"),
        ("record", json!({"term": "", "explanation": "b"}), ""),
        ("thread_show", json!({"date": "yesterday"}), "not a date: yesterday"),
        ("match", json!({"text": "x"}), "unknown field `text`"),
        ("nope", json!({}), "unknown tool: nope"),
    ] {
        let (error, text) = s.call(tool, args.clone());
        assert!(error, "{tool} {args}: {text}");
        assert!(text.starts_with("tinylingo: ") && text.contains(says), "{tool} {args}: {text}");
    }
    // Arguments that are not an object at all never reach a tool.
    let r = s.request("tools/call", json!({"name": "record", "arguments": [1, 2]}));
    assert!(r["error"].is_object() || r["result"]["isError"] == true, "{r}");
    // Still serving, and nothing was written.
    assert_eq!(s.ok("list", json!({}))["total"], 0);
    s.finish();
    assert!(!home.glossary().exists());
}

#[test]
fn a_100_kb_result_comes_back_as_a_file_reference() {
    let home = Home::new();
    let entries: serde_json::Map<String, Value> = (0..1000)
        .map(|i| {
            (format!("term{i:04}"), Value::from(format!("explanation {i:04} {}", "x".repeat(80))))
        })
        .collect();
    home.write_store_file("glossary.json", Value::Object(entries).to_string().as_bytes());
    let (mut s, _) = Session::start(&home);
    let a = s.ok("list", json!({}));
    assert_eq!(a["mode"], "file");
    assert_eq!(a["records"], 1000);
    assert_eq!(a["result"]["total"], 1000);
    assert_eq!(a["preview"][0]["term"], "term0000");
    let path = std::path::PathBuf::from(a["path"].as_str().unwrap());
    assert!(path.starts_with(home.store().join("mcp-results")), "{}", path.display());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.len() > 100_000, "{}", text.len());
    assert_eq!(a["bytes"], text.len());
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["term"], "term0999");
    // A page of it stays inline.
    let a = s.ok("list", json!({"offset": 10, "limit": 3}));
    assert_eq!(a["entries"].as_array().unwrap().len(), 3);
    s.finish();
}

#[test]
fn two_servers_writing_at_once_lose_nothing() {
    let home = Home::new();
    let mut sessions: Vec<Session> = (0..2).map(|_| Session::start(&home).0).collect();
    // Interleaved: each server's record lands between the other's.
    for i in 0..20 {
        for (n, s) in sessions.iter_mut().enumerate() {
            s.ok("record", json!({"term": format!("s{n}-{i}"), "explanation": "e"}));
        }
    }
    let threads: Vec<_> = sessions
        .into_iter()
        .enumerate()
        .map(|(n, mut s)| {
            std::thread::spawn(move || {
                for i in 20..40 {
                    s.ok("record", json!({"term": format!("s{n}-{i}"), "explanation": "e"}));
                }
                s.finish();
            })
        })
        .collect();
    threads.into_iter().for_each(|t| t.join().unwrap());
    let listed = glossary(&home);
    assert_eq!(listed.len(), 80, "{listed:?}");
}

#[test]
fn a_client_that_disconnects_mid_call_leaves_a_whole_store() {
    let home = Home::new();
    let (mut s, _) = Session::start(&home);
    s.ok("record", json!({"term": "alpha", "explanation": "the first letter"}));
    // A call sent, and the client gone before the answer.
    s.send(&json!({"jsonrpc": "2.0", "id": 99, "method": "tools/call",
        "params": {"name": "record", "arguments": {"term": "beta", "explanation": "a wholly other thing"}}}));
    let Session { mut child, stdin, stdout, .. } = s;
    drop(stdout);
    drop(stdin);
    let status = child.wait().unwrap();
    // Ends by itself, not by SIGPIPE, and the store is whole: every term there has its
    // explanation, and the CLI reads it.
    assert!(status.code().is_some(), "{status}");
    let listed = glossary(&home);
    assert_eq!(listed["alpha"], "the first letter");
    assert!(listed.get("beta").is_none_or(|b| b == "a wholly other thing"), "{listed:?}");
}

#[test]
fn install_mcp_registers_and_uninstall_gives_the_files_back() {
    let home = Home::new();
    let claude_json = home.path().join(".claude.json");
    let codex = home.path().join(".codex/config.toml");
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    std::fs::write(&claude_json, "{\n  \"numStartups\": 2\n}\n").unwrap();
    std::fs::write(&codex, "# mine\nmodel = \"x\"\n").unwrap();
    let before = home.tree();
    home.run(&["install", "--mcp", "claude", "codex", "gemini", "cursor", "opencode"]).ok();
    let link = home.store().join("scripts/tinylingo");
    let link = link.to_string_lossy();
    let v: Value = serde_json::from_slice(&std::fs::read(&claude_json).unwrap()).unwrap();
    assert_eq!(
        v["mcpServers"]["tinylingo"],
        json!({"type": "stdio", "command": link, "args": ["mcp"]})
    );
    assert_eq!(v["numStartups"], 2);
    let toml = std::fs::read_to_string(&codex).unwrap();
    assert!(toml.starts_with("# mine\nmodel = \"x\"\n"), "{toml}");
    assert!(toml
        .contains(&format!("[mcp_servers.tinylingo]\ncommand = \"{link}\"\nargs = [\"mcp\"]\n")));
    let cursor: Value =
        serde_json::from_slice(&std::fs::read(home.path().join(".cursor/mcp.json")).unwrap())
            .unwrap();
    assert_eq!(cursor["mcpServers"]["tinylingo"]["args"], json!(["mcp"]));
    let opencode: Value = serde_json::from_slice(
        &std::fs::read(home.path().join(".config/opencode/opencode.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(opencode["mcp"]["tinylingo"]["command"], json!([link, "mcp"]));
    let gemini = std::fs::read_to_string(home.path().join(".gemini/settings.json")).unwrap();
    assert!(gemini.contains("\"mcpServers\"") && gemini.contains("\"BeforeAgent\""), "{gemini}");
    // The instruction blocks name the tools.
    let block = std::fs::read_to_string(home.path().join(".claude/CLAUDE.md")).unwrap();
    assert!(block.contains("mcp__tinylingo__record"), "{block}");
    // A plain install keeps the registration.
    let out = home.run(&["install", "claude"]);
    assert!(
        out.stdout.contains("~/.claude.json: MCP server (tinylingo mcp) already in place"),
        "{}",
        out.stdout
    );
    // uninstall --mcp removes only the server.
    home.run(&["uninstall", "--mcp"]).ok();
    assert_eq!(std::fs::read_to_string(&claude_json).unwrap(), "{\n  \"numStartups\": 2\n}\n");
    let block = std::fs::read_to_string(home.path().join(".claude/CLAUDE.md")).unwrap();
    assert!(!block.contains("mcp__") && block.contains("tinylingo record \""), "{block}");
    assert!(home.path().join(".claude/settings.json").exists());
    // And uninstall gives back exactly what was there.
    home.run(&["install", "--mcp"]).ok();
    home.run(&["uninstall"]).ok();
    // (The store stays, as after any uninstall: it holds the glossary.)
    let store =
        |p: &std::path::PathBuf| p.as_os_str() == ".config" || p.starts_with(".config/tinylingo");
    let after: Vec<_> = home.tree().into_iter().filter(|p| !store(p)).collect();
    assert_eq!(after, before);
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), "# mine\nmodel = \"x\"\n");
}

#[test]
fn install_mcp_refuses_a_broken_file_and_keeps_the_users_own_entry() {
    let home = Home::new();
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    let codex = home.path().join(".codex/config.toml");
    std::fs::write(&codex, "model = \n").unwrap();
    let out = home.run(&["install", "--mcp", "codex"]);
    out.expect_code(2);
    assert!(out.stderr.contains("config.toml line 1: not valid TOML"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), "model = \n");
    let mine =
        "{\"mcpServers\": {\"tinylingo\": {\"command\": \"tinylingo\", \"args\": [\"mcp\"]}}}";
    std::fs::write(home.path().join(".claude.json"), mine).unwrap();
    let out = home.run(&["install", "--mcp", "claude"]);
    out.ok();
    assert!(
        out.stdout.contains("that tinylingo did not register: left as it is"),
        "{}",
        out.stdout
    );
    assert_eq!(std::fs::read_to_string(home.path().join(".claude.json")).unwrap(), mine);
    home.run(&["uninstall", "claude"]).ok();
    assert_eq!(std::fs::read_to_string(home.path().join(".claude.json")).unwrap(), mine);
}

#[test]
fn allow_record_with_mcp_lets_claude_and_codex_call_the_tool_without_asking() {
    let home = Home::new();
    let out = home.run(&["install", "--mcp", "claude", "codex"]);
    assert!(
        out.stdout.contains("Codex CLI asks before the model calls the MCP server's record tool"),
        "{}",
        out.stdout
    );
    home.run(&["install", "--mcp", "--allow-record", "claude", "codex"]).ok();
    let settings: Value =
        serde_json::from_slice(&std::fs::read(home.path().join(".claude/settings.json")).unwrap())
            .unwrap();
    let allowed = settings["permissions"]["allow"].as_array().unwrap();
    assert!(allowed.contains(&json!("mcp__tinylingo__record")), "{settings}");
    let toml = std::fs::read_to_string(home.path().join(".codex/config.toml")).unwrap();
    assert!(
        toml.contains("[mcp_servers.tinylingo.tools.record]\napproval_mode = \"approve\"\n"),
        "{toml}"
    );
    // uninstall --mcp takes the rule with the server: it would name a tool that is gone.
    let out = home.run(&["uninstall", "--mcp", "claude"]);
    out.ok();
    assert!(out.stdout.contains("allow rule"), "{}", out.stdout);
    let settings: Value =
        serde_json::from_slice(&std::fs::read(home.path().join(".claude/settings.json")).unwrap())
            .unwrap();
    assert!(!settings.to_string().contains("mcp__tinylingo__record"), "{settings}");
    assert!(settings.to_string().contains("UserPromptSubmit"), "the hook stays: {settings}");
    home.run(&["uninstall"]).ok();
    assert!(!home.path().join(".claude/settings.json").exists());
    assert!(!home.path().join(".codex/config.toml").exists());
}

/// The server's stdout lines for `input` sent at once, and its exit code.
fn raw_session(home: &Home, input: &str) -> (Vec<Value>, i32) {
    let out = home.run_with_stdin(&["mcp"], Some(input.as_bytes()));
    let lines = out.stdout.lines().map(|l| serde_json::from_str(l).expect("JSON-RPC")).collect();
    (lines, out.code)
}

#[test]
fn a_line_that_is_not_json_gets_a_parse_error_and_the_session_goes_on() {
    let home = Home::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let input = format!("this is not JSON\n{init}\n{{\"cut\": \n{list}\n");
    let (lines, code) = raw_session(&home, &input);
    assert_eq!(code, 0);
    // Answers may come in any order (JSON-RPC pairs them by id): two parse errors, two results.
    assert_eq!(lines.len(), 4, "{lines:?}");
    let by_id = |id: Value| lines.iter().filter(move |l| l["id"] == id).collect::<Vec<_>>();
    let parse_errors = by_id(Value::Null);
    assert_eq!(parse_errors.len(), 2, "{lines:?}");
    assert!(parse_errors.iter().all(|e| e["error"]["code"] == -32700), "{lines:?}");
    assert!(by_id(json!(1))[0]["result"]["serverInfo"].is_object(), "{lines:?}");
    assert!(by_id(json!(2))[0]["result"]["tools"].is_array(), "{lines:?}");
}

#[test]
fn a_client_that_skips_initialize_gets_an_error_and_can_still_initialize() {
    let home = Home::new();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"});
    let init = json!({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let (lines, code) = raw_session(&home, &format!("{note}\n{list}\n{init}\n{list}\n"));
    assert_eq!(code, 0, "not exit 2");
    assert_eq!(lines.len(), 3, "{lines:?}");
    // The refusal is written before the later lines reach the server.
    assert_eq!((&lines[0]["id"], &lines[0]["error"]["code"]), (&json!(1), &json!(-32002)));
    assert!(lines[0]["error"]["message"].as_str().unwrap().contains("not initialized"));
    assert_eq!(lines[1]["id"], 2);
    assert!(lines[1]["result"]["serverInfo"].is_object());
    assert!(lines[2]["result"]["tools"].is_array(), "{}", lines[2]);
    // A client that leaves before initializing closed the connection: exit 0.
    assert_eq!(raw_session(&home, "").1, 0);
}

#[test]
fn search_stats_and_the_two_step_remove_share_the_clis_code() {
    let home = Home::new();
    home.run(&["record", "联调", "staging 集群 k8s-stg"]).ok();
    home.run(&["record", "提交", "no git push"]).ok();
    home.run(&["record", "Staging", "the second cluster"]).ok();
    let (mut s, _) = Session::start(&home);
    let a = s.ok("search", json!({"query": "staging"}));
    assert_eq!(a["matches"], 2);
    let terms: Vec<&str> =
        a["entries"].as_array().unwrap().iter().map(|e| e["term"].as_str().unwrap()).collect();
    assert_eq!(terms, ["联调", "Staging"]);
    let a = s.ok("search", json!({"query": "staging", "term_only": true, "limit": 5}));
    assert_eq!(
        a["entries"],
        json!([{"term": "Staging", "explanation": "the second cluster", "scope": "user"}])
    );
    let a = s.ok("stats", json!({}));
    assert_eq!(a["terms"], 3);
    assert_eq!(a["per_term"][0]["term"], "联调");
    // Step 1 removes nothing and hands out a code; step 2 removes exactly those.
    let a = s.ok("remove", json!({"search": "staging"}));
    assert_eq!((a["would_remove"].as_u64(), a["removed"].clone()), (Some(2), json!([])));
    assert_eq!(glossary(&home).len(), 3);
    let code = a["code"].as_str().unwrap().to_string();
    let a = s.ok("remove", json!({"confirm": code}));
    assert_eq!(a["removed"], json!(["联调", "Staging"]));
    assert_eq!(glossary(&home).keys().collect::<Vec<_>>(), ["提交"]);
    // A code is used once: the CLI's refusal, as a tool error.
    let (error, text) = s.call("remove", json!({"confirm": code}));
    assert!(error && text.contains("nothing was removed"), "{text}");
    // A code from the CLI's preview works through the tool too: the same pending codes.
    let out = home.run(&["remove", "--search", "git"]);
    let code = out.stdout.trim();
    assert_eq!(s.ok("remove", json!({"confirm": code}))["removed"], json!(["提交"]));
    s.finish();
}

#[test]
fn record_with_project_writes_the_project_glossary_of_the_server_s_folder() {
    let home = Home::new();
    let repo = home.path().join("work/projecta");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    let git = std::process::Command::new("git").args(["init", "-q"]).current_dir(&repo).status();
    assert!(git.unwrap().success());
    let (mut s, _) = Session::start_in(&home, &repo.join("src"));
    let args = json!({"term": "智能抠图", "explanation": "ProjectA 背景移除模块，类名 BGRemover", "project": true});
    // Not before the user trusts the folder: the model neither writes there nor trusts it.
    let (error, message) = s.call("record", args.clone());
    assert!(error && message.contains("tinylingo trust"), "{message}");
    assert!(!repo.join(".tinylingo/glossary.json").exists(), "nothing written");
    home.run(&["trust", repo.to_str().unwrap()]).ok();
    let a = s.ok("record", args);
    assert_eq!(a["scope"], "project");
    s.finish();
    // At the work tree's root, and nothing in the user's own.
    let file = repo.join(".tinylingo/glossary.json");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("BGRemover"), "{text}");
    assert!(glossary(&home).is_empty());
    let event = json!({"prompt": "智能抠图有个 bug", "cwd": repo.join("src")}).to_string();
    let out = home.hook("claude", event.as_bytes());
    assert!(out.stdout.contains("BGRemover"), "{}", out.stdout);
}

#[test]
fn the_record_tool_refuses_a_credential_and_the_model_cannot_override_it() {
    let home = Home::new();
    let (mut s, _) = Session::start(&home);
    // Built at run time: no credential-shaped literal in the source.
    let token = ["np", "m_", "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sYaEuWi"].concat();
    let text = format!("publish with {token}");
    for force in [false, true] {
        let (error, message) =
            s.call("record", json!({"term": "发布", "explanation": text, "force": force}));
        assert!(error, "{message}");
        assert!(message.contains("npm-token") && message.contains("at character 14"), "{message}");
        assert!(message.contains("in their own shell"), "{message}");
        assert!(!message.contains(&token[..12]), "the secret was shown: {message}");
    }
    // A password by its context, and a token one character longer than its format.
    let password = ["Sum", "mer#20", "24!!"].concat();
    let longer = ["gh", "p_", "Q7mZ2pK9xR4vT1wB8nJ5cH3dL6fG0sYaEuWiW"].concat();
    for explanation in [format!("staging db password: {password}"), format!("CI 用 {longer}")] {
        let (error, message) = s.call("record", json!({"term": "db", "explanation": explanation}));
        assert!(error && !message.contains(&password[3..]) && !message.contains(&longer[4..16]));
    }
    let (error, message) =
        s.call("record", json!({"term": "发布", "explanation": text, "allow_secret": true}));
    assert!(error && message.contains("unknown field"), "{message}");
    let (error, message) =
        s.call("record", json!({"term": "发布", "explanation": text, "project": true}));
    assert!(error && message.contains("no override"), "{message}");
    assert!(glossary(&home).is_empty());
    // The check tool: read-only, the report as JSON.
    s.ok("record", json!({"term": "旧", "explanation": "普通"}));
    let report = s.ok("check", json!({"unused": "30d", "scope": "user"}));
    assert_eq!(report["issues"].as_array().unwrap().len(), 0, "recorded just now: not unused");
    assert!(report["notes"][0].as_str().unwrap().contains("git work tree"), "{report}");
    let (error, message) = s.call("check", json!({"unused": "soon"}));
    assert!(error && message.contains("not a time span"), "{message}");
    s.finish();
}

#[test]
fn suggest_and_inbox_review_proposals_from_past_sessions() {
    let home = Home::new();
    let dir = home.path().join(".claude/projects/p");
    std::fs::create_dir_all(&dir).unwrap();
    let line = json!({"type": "user", "message": {"content": "we call the staging cluster blue"}});
    std::fs::write(dir.join("s.jsonl"), format!("{line}\n")).unwrap();
    let (mut s, _) = Session::start(&home);
    let a = s.ok("suggest", json!({"assistants": ["claude"]}));
    assert_eq!(a["total"], 1, "{a}");
    assert_eq!(a["proposals"][0]["term"], "blue");
    let id = a["proposals"][0]["id"].as_str().unwrap().to_string();
    let (error, text) = s.call("inbox", json!({"action": "accept"}));
    assert!(error && text.contains("ids is needed"), "{text}");
    let a = s.ok("inbox", json!({"action": "accept", "ids": [id]}));
    assert_eq!(a["recorded"][0]["term"], "blue");
    assert_eq!(s.ok("inbox", json!({}))["total"], 0);
    let a = s.ok("list", json!({}));
    assert_eq!(a["entries"][0]["term"], "blue");
    s.finish();
}
