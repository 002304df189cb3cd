//! Pi and Kilo, the assistants that get a plugin file rather than a hook entry: install and
//! uninstall with the real binary in a temporary home, the hook's answer for each, and Pi's
//! extension loaded under Node (Pi loads it with jiti; it is plain JavaScript) with a stand-in
//! for Pi's extension API, its handlers called the way Pi calls them.

#[path = "support/home.rs"]
mod home;

use std::fs;
use std::path::Path;

use home::{Home, EXPLANATION, HIT, MARKER, MISS};
use serde_json::{json, Value};

const PI_EXTENSION: &str = ".pi/agent/extensions/tinylingo.ts";
const KILO_PLUGIN: &str = ".config/kilo/plugin/tinylingo.js";
const LINK: &str = ".config/tinylingo/scripts/tinylingo";

/// Everything but the store (whose install notes and link are tinylingo's own).
fn without_store(h: &Home) -> std::collections::BTreeMap<std::path::PathBuf, String> {
    let mut all = h.snapshot();
    all.retain(|p, _| !p.starts_with(".config/tinylingo") && p != Path::new(".config"));
    all
}

#[test]
fn pi_and_kilo_are_found_by_their_folders_and_given_back_byte_for_byte() {
    let h = Home::new();
    h.write(".pi/agent/models.json", "{\n  \"providers\": {}\n}\n");
    h.write(".pi/agent/AGENTS.md", "Prefer small commits.\n");
    h.write(".pi/agent/extensions/mine.ts", "export default function (pi) {}\n");
    h.write(".config/kilo/kilo.json", "{\n  // mine\n  \"model\": \"fake/m\",\n}\n");
    h.write(".config/kilo/AGENTS.md", "");
    let before = without_store(&h);
    let out = h.ok(&["install", "--mcp"]);
    assert!(out.contains("Pi (~/.pi/agent)") && out.contains("Kilo (~/.config/kilo)"), "{out}");
    assert!(
        out.contains("~/.pi/agent/extensions/tinylingo.ts: before_agent_start extension added"),
        "{out}"
    );
    assert!(out.contains("~/.config/kilo/plugin/tinylingo.js: chat.message plugin added"), "{out}");
    assert!(!out.contains("Claude") && !out.contains("OpenCode"), "{out}");

    let extension = h.read(PI_EXTENSION);
    assert!(extension.starts_with("// tinylingo Pi extension"), "{extension}");
    assert!(extension.contains(MARKER) && extension.contains(r#"["hook", "pi"]"#));
    let plugin = h.read(KILO_PLUGIN);
    assert!(plugin.starts_with("// tinylingo Kilo plugin"), "{plugin}");
    assert!(plugin.contains(r#"const ASSISTANT = "kilo""#), "{plugin}");
    assert!(!plugin.contains("__TINYLINGO_"), "every placeholder filled: {plugin}");
    assert!(h.read(".pi/agent/AGENTS.md").starts_with("Prefer small commits.\n"));
    assert!(h.read(".config/kilo/AGENTS.md").contains("<!-- TINYLINGO-START -->"));
    // Kilo's MCP entry is OpenCode's, in kilo.json, the user's comment kept.
    let kilo = h.read(".config/kilo/kilo.json");
    assert!(kilo.contains("// mine"), "{kilo}");
    let v = home::jsonc(&kilo);
    assert_eq!(v["mcp"]["tinylingo"]["type"], "local", "{kilo}");
    assert_eq!(v["mcp"]["tinylingo"]["command"][1], "mcp", "{kilo}");
    let first = h.snapshot();
    h.ok(&["install", "--mcp"]);
    assert_eq!(h.snapshot(), first, "installing twice equals installing once");

    h.ok(&["uninstall"]);
    assert_eq!(without_store(&h), before);
}

#[test]
fn kilo_and_opencode_each_run_their_own_hook() {
    let h = Home::new();
    h.mkdir(".config/opencode");
    h.mkdir(".config/kilo");
    h.ok(&["install"]);
    let opencode = h.read(".config/opencode/plugins/tinylingo.js");
    assert!(opencode
        .starts_with("// tinylingo OpenCode plugin. Written by `tinylingo install opencode`"));
    assert!(opencode.contains(r#"const ASSISTANT = "opencode""#));
    // One is not taken for the other: removing Kilo's leaves OpenCode's.
    h.ok(&["uninstall", "kilo"]);
    assert!(!h.exists(KILO_PLUGIN));
    assert_eq!(h.read(".config/opencode/plugins/tinylingo.js"), opencode);
}

#[test]
fn a_broken_kilo_json_fails_kilo_alone() {
    let h = Home::new();
    h.write(".config/kilo/kilo.json", "{ \"model\": ");
    h.mkdir(".pi/agent");
    let out = h.run(&["install", "--mcp"]);
    assert_eq!(out.status.code(), Some(2), "{}", home::describe(&out));
    assert!(h.exists(PI_EXTENSION), "Pi is installed all the same");
    assert!(!h.exists(KILO_PLUGIN) && !h.exists(".config/kilo/AGENTS.md"));
    assert_eq!(h.read(".config/kilo/kilo.json"), "{ \"model\": ");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("kilo.json"), "{err}");
}

#[test]
fn a_plugin_file_of_someone_else_is_left_alone() {
    let h = Home::new();
    h.write(PI_EXTENSION, "export default function (pi) {}\n");
    h.refused(&["install", "pi"], "not written by tinylingo");
    let before = h.snapshot();
    let out = h.ok(&["uninstall", "pi"]);
    assert!(out.contains("left ~/.pi/agent/extensions/tinylingo.ts alone"), "{out}");
    assert_eq!(h.snapshot(), before);
}

#[test]
fn pis_folder_variable_is_followed() {
    let h = Home::new();
    h.mkdir("moved/pi");
    let run = |args: &[&str]| {
        let mut c = h.command(home::BIN);
        c.args(args).env("PI_CODING_AGENT_DIR", h.path("moved/pi"));
        let out = c.output().expect("run tinylingo");
        assert!(out.status.success(), "{}", home::describe(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run(&["install"]);
    assert!(out.contains("Pi (~/moved/pi)"), "{out}");
    assert!(h.exists("moved/pi/extensions/tinylingo.ts") && !h.exists(".pi"));
    run(&["uninstall"]);
    assert!(!h.exists("moved/pi/extensions/tinylingo.ts"));
}

#[test]
fn the_hook_answers_pi_and_kilo_with_the_plain_block() {
    let h = Home::new();
    h.record_term();
    for name in ["pi", "kilo"] {
        let event = json!({"prompt": HIT, "sessionID": "s-1", "cwd": "/tmp"}).to_string();
        let out = h.run_registered(&format!("{} hook {name}", home::BIN), &event);
        assert!(out.starts_with("<system-reminder>\n[TinyLingo]\n"), "{name}: {out}");
        assert!(out.contains(EXPLANATION), "{name}: {out}");
        let event = json!({"prompt": MISS, "sessionID": "s-1"}).to_string();
        assert_eq!(h.run_registered(&format!("{} hook {name}", home::BIN), &event), "");
    }
}

// --- Pi's extension under Node ---------------------------------------------------------------

/// Loads the extension with a stand-in `pi` that keeps its handlers, calls `before_agent_start`
/// with `prompt` and then `agent_end` with `messages`, and prints what the first returned.
const HARNESS: &str = r#"
import { pathToFileURL } from "node:url"
const [file, prompt, messagesJson] = process.argv.slice(1)
const mod = await import(pathToFileURL(file).href)
const handlers = {}
mod.default({ on: (name, fn) => { handlers[name] = fn } })
const ctx = { cwd: "/work", hasUI: false, sessionManager: { getSessionId: () => "ses-1" } }
const result = await handlers["before_agent_start"]({ type: "before_agent_start", prompt, images: [], systemPrompt: "sys" }, ctx)
await handlers["agent_end"]({ type: "agent_end", messages: JSON.parse(messagesJson) }, ctx)
process.stdout.write(JSON.stringify({ handlers: Object.keys(handlers).sort(), result: result ?? null }))
"#;

fn pi_installed() -> Home {
    let h = Home::new();
    h.mkdir(".pi/agent");
    h.record_term();
    h.ok(&["install"]);
    h
}

/// Runs the harness on the installed extension; returns (handlers, before_agent_start's result).
fn pi_prompt(h: &Home, prompt: &str, messages: &Value) -> (Value, Value) {
    // Node reads `.ts` as nothing it knows; the extension is plain JavaScript.
    let copy = h.path("extension-under-test.mjs");
    fs::copy(h.path(PI_EXTENSION), &copy).unwrap();
    let out = h
        .command("node")
        .args(["--input-type=module", "-e", HARNESS])
        .arg(&copy)
        .arg(prompt)
        .arg(messages.to_string())
        .output()
        .expect("node is installed");
    assert!(out.status.success(), "{}", home::describe(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    (v["handlers"].clone(), v["result"].clone())
}

fn fake_binary(h: &Home, script: &str) {
    use std::os::unix::fs::PermissionsExt;
    let link = h.path(LINK);
    fs::remove_file(&link).unwrap();
    fs::write(&link, script).unwrap();
    fs::set_permissions(&link, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn pis_extension_adds_the_block_as_a_hidden_message() {
    let h = pi_installed();
    let (handlers, result) = pi_prompt(&h, HIT, &json!([]));
    assert_eq!(handlers, json!(["agent_end", "before_agent_start"]));
    let message = &result["message"];
    assert_eq!(message["customType"], "tinylingo");
    assert_eq!(message["display"], false);
    let block = message["content"].as_str().unwrap();
    assert!(block.starts_with("<system-reminder>\n[TinyLingo]\n"), "{block}");
    assert!(block.contains(EXPLANATION), "{block}");
    assert_eq!(pi_prompt(&h, MISS, &json!([])).1, Value::Null, "no hit, no message");
}

#[test]
fn pis_extension_sends_the_prompt_session_and_folder_and_survives_a_broken_binary() {
    let h = pi_installed();
    fake_binary(&h, "#!/bin/sh\n[ \"$1 $2\" = 'hook pi' ] || exit 9\ncat > \"$HOME/stdin.json\"\nprintf 'THE BLOCK'\n");
    let (_, result) = pi_prompt(&h, "first line\nsecond", &json!([]));
    assert_eq!(result["message"]["content"], "THE BLOCK");
    let stdin: Value = serde_json::from_str(&h.read("stdin.json")).unwrap();
    assert_eq!(
        stdin,
        json!({"prompt": "first line\nsecond", "sessionID": "ses-1", "cwd": "/work"})
    );
    // Failing after printing, then missing altogether: the prompt goes on without a message.
    fake_binary(&h, "#!/bin/sh\nprintf 'half an answer'\nexit 3\n");
    assert_eq!(pi_prompt(&h, HIT, &json!([])).1, Value::Null);
    fs::remove_file(h.path(LINK)).unwrap();
    assert_eq!(pi_prompt(&h, HIT, &json!([])).1, Value::Null);
}

#[test]
fn pis_extension_journals_the_exchange_only_while_the_journal_is_on() {
    let h = pi_installed();
    // The messages of one prompt, as agent_end carries them: the user's, ours, a tool call,
    // and the final answer.
    let messages = json!([
        {"role": "user", "content": [{"type": "text", "text": HIT}]},
        {"role": "custom", "customType": "tinylingo", "content": "<system-reminder>…", "display": false},
        {"role": "assistant", "model": "m", "content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {}}]},
        {"role": "toolResult", "content": [{"type": "text", "text": "done"}]},
        {"role": "assistant", "model": "m", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "text", "text": "总结：已修复。"}]},
    ]);
    pi_prompt(&h, HIT, &messages);
    assert!(!h.exists(".config/tinylingo/threads"), "the journal is off by default");
    h.ok(&["thread", "on"]);
    assert!(h.read(PI_EXTENSION).contains(r#"const JOURNAL = "on" === "on""#));
    pi_prompt(&h, HIT, &messages);
    let folder = h.path(".config/tinylingo/threads");
    let files: Vec<_> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let text = fs::read_to_string(&files[0]).unwrap();
    assert!(text.contains("**模型**: m") && text.contains("**助手**: Pi"), "{text}");
    assert!(text.contains(HIT) && text.contains("总结：已修复。"), "{text}");
    assert!(!text.contains("hm\n"), "thinking is not the answer: {text}");
}

#[test]
fn the_parent_folders_install_made_go_with_uninstall() {
    // Install makes ~/.pi as well as ~/.pi/agent; uninstall takes both away, and leaves a
    // parent the user had.
    let h = Home::new();
    let before = without_store(&h);
    h.ok(&["install", "pi"]);
    assert!(h.exists(PI_EXTENSION));
    h.ok(&["uninstall", "pi"]);
    assert_eq!(without_store(&h), before);
    h.mkdir(".pi");
    h.ok(&["install", "pi"]);
    h.ok(&["uninstall", "pi"]);
    assert!(h.exists(".pi") && !h.exists(".pi/agent"));
}

#[test]
fn completions_and_errors_name_every_assistant() {
    let h = Home::new();
    let script = h.ok(&["completions", "bash"]);
    for name in ["claude", "cursor", "opencode", "codex", "gemini", "pi", "kilo"] {
        assert!(script.contains(name), "{name} missing from the completions");
    }
    let out = h.run(&["install", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pi, kilo"), "{err}");
}
