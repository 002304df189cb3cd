//! The OpenCode plugin that `install opencode` writes, loaded under Node (OpenCode runs it under
//! Bun; it only uses `node:child_process`, which both provide) with a fake plugin context, its
//! `chat.message` hook called on a message the way OpenCode calls it.

#[path = "support/home.rs"]
mod home;

use std::fs;
use std::path::Path;

use home::{Home, EXPLANATION, HIT, MISS};
use serde_json::{json, Value};

const PLUGIN: &str = ".config/opencode/plugins/tinylingo.js";
const LINK: &str = ".config/tinylingo/scripts/tinylingo";

/// Loads the plugin, calls `chat.message` with `parts`, prints the plugin's exports and the
/// output object afterwards. The context's `$` throws: the plugin must not need a shell.
const HARNESS: &str = r#"
import { pathToFileURL } from "node:url"
const [file, partsJson] = process.argv.slice(1)
const mod = await import(pathToFileURL(file).href)
const exports = Object.keys(mod)
const hooks = await mod[exports[0]]({
  $: () => { throw new Error("the plugin must not use the shell") },
  client: {}, project: {}, directory: "/work", worktree: "/work",
})
const output = { message: { id: "msg_01", sessionID: "ses_01", role: "user" }, parts: JSON.parse(partsJson) }
await hooks["chat.message"]({ sessionID: "ses_01", agent: "build", model: { providerID: "p", modelID: "m" }, messageID: "msg_01" }, output)
process.stdout.write(JSON.stringify({ exports, output }))
"#;

/// A home with OpenCode installed and the plugin written by `tinylingo install`.
fn installed() -> Home {
    let h = Home::new();
    h.mkdir(".config/opencode");
    h.record_term();
    h.ok(&["install"]);
    h
}

fn text_part(text: &str) -> Value {
    json!({"id": "prt_01", "sessionID": "ses_01", "messageID": "msg_01", "type": "text", "text": text})
}

/// Runs the harness on the installed plugin; returns the `output` object after the hook.
fn chat_message(h: &Home, parts: &Value) -> Value {
    // Node reads `.js` outside a `"type": "module"` package as CommonJS; Bun does not care.
    let copy = h.path("plugin-under-test.mjs");
    fs::copy(h.path(PLUGIN), &copy).unwrap();
    let out = h
        .command("node")
        .args(["--input-type=module", "-e", HARNESS])
        .arg(&copy)
        .arg(parts.to_string())
        .output()
        .expect("node is installed");
    assert!(out.status.success(), "{}", home::describe(&out));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["exports"], json!(["TinylingoPlugin"]), "only the plugin function is exported");
    v["output"].clone()
}

/// Replaces the binary the plugin calls with a shell script.
fn fake_binary(h: &Home, script: &str) {
    let link = h.path(LINK);
    fs::remove_file(&link).unwrap();
    fs::write(&link, script).unwrap();
    make_executable(&link);
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn the_installed_plugin_calls_the_binary_through_the_scripts_link() {
    let h = installed();
    let text = h.read(PLUGIN);
    assert!(text.starts_with("// tinylingo OpenCode plugin"), "{text}");
    let literal = serde_json::to_string(&h.path(LINK).to_string_lossy()).unwrap();
    assert!(text.contains(&format!("const TINYLINGO = {literal}")), "{text}");
    assert!(text.contains(home::MARKER));
}

#[test]
fn the_hook_gets_the_users_text_and_its_answer_becomes_one_synthetic_part() {
    let h = installed();
    // Records what it was given; answers like the real hook.
    fake_binary(&h, "#!/bin/sh\n[ \"$1 $2\" = 'hook opencode' ] || exit 9\ncat > \"$HOME/stdin.json\"\nprintf 'THE BLOCK'\n");
    let parts = json!([
        text_part("first line"),
        {"id": "prt_02", "sessionID": "ses_01", "messageID": "msg_01", "type": "file", "mime": "text/plain", "url": "file:///a"},
        {"id": "prt_03", "sessionID": "ses_01", "messageID": "msg_01", "type": "text", "text": "added by another plugin", "synthetic": true},
        text_part("second line"),
    ]);
    let output = chat_message(&h, &parts);
    let stdin: Value = serde_json::from_str(&h.read("stdin.json")).unwrap();
    // The plugin's directory is the event's cwd: where the hook looks for a project glossary.
    assert_eq!(
        stdin,
        json!({"prompt": "first line\nsecond line", "sessionID": "ses_01", "cwd": "/work"})
    );
    let after = output["parts"].as_array().unwrap();
    assert_eq!(after[..4], parts.as_array().unwrap()[..], "the user's parts untouched");
    assert_eq!(after.len(), 5);
    let ours = &after[4];
    assert_eq!(ours["type"], "text");
    assert_eq!(ours["synthetic"], true);
    assert_eq!(ours["text"], "THE BLOCK");
    assert_eq!(ours["sessionID"], "ses_01");
    assert_eq!(ours["messageID"], "msg_01");
    let id = ours["id"].as_str().unwrap();
    assert!(id.starts_with("prt") && id > "prt_01", "{id} sorts after the user's parts");
}

#[test]
fn a_recorded_term_adds_the_block() {
    let h = installed();
    let output = chat_message(&h, &json!([text_part(HIT)]));
    let parts = output["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2, "{output}");
    assert_eq!(parts[0], text_part(HIT));
    assert_eq!(parts[1]["synthetic"], true);
    let block = parts[1]["text"].as_str().unwrap();
    assert!(block.starts_with("<system-reminder>\n[TinyLingo]\n"), "{block}");
    assert!(block.contains(&format!("- {}: {EXPLANATION}", home::TERM)), "{block}");
}

#[test]
fn no_hit_adds_nothing() {
    let h = installed();
    let parts = json!([text_part(MISS)]);
    assert_eq!(chat_message(&h, &parts)["parts"], parts);
}

#[test]
fn a_failing_binary_leaves_the_message_untouched() {
    let h = installed();
    let parts = json!([text_part(HIT)]);
    let before = json!({"id": "msg_01", "sessionID": "ses_01", "role": "user"});
    // Exits non-zero after printing.
    fake_binary(&h, "#!/bin/sh\nprintf 'half an answer'\nexit 3\n");
    let output = chat_message(&h, &parts);
    assert_eq!(output, json!({"message": before, "parts": parts}));
    // Missing altogether.
    fs::remove_file(h.path(LINK)).unwrap();
    let output = chat_message(&h, &parts);
    assert_eq!(output, json!({"message": before, "parts": parts}));
}
