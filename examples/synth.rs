//! Writes a synthetic glossary of N terms into a store folder and builds its index, exactly as
//! `tinylingo record` would leave them. Used by `benches/hook.sh`.
//!
//! Usage: synth <terms> <store-folder> [--event FILE]
//! With `--event`, also writes a Claude Code `UserPromptSubmit` event for the benchmark prompt.

#[path = "../benches/support/synth.rs"]
mod synth;

use tinylingo::store::{Glossary, Settings, Store};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(n), Some(dir)) = (args.get(1).and_then(|n| n.parse::<usize>().ok()), args.get(2))
    else {
        eprintln!("usage: synth <terms> <store-folder>");
        std::process::exit(2);
    };
    let store = Store::at(dir);
    let glossary: Glossary = synth::glossary(n).into_iter().collect();
    let _lock = store.lock().expect("lock the store");
    glossary.save(&store).expect("write glossary.json");
    tinylingo::index::rebuild(&store, &glossary, &Settings::default()).expect("build the index");
    if let (Some("--event"), Some(path)) = (args.get(3).map(String::as_str), args.get(4)) {
        let event = serde_json::json!({
            "hook_event_name": "UserPromptSubmit",
            "session_id": "bench",
            "cwd": "/tmp",
            "transcript_path": "/tmp/transcript.jsonl",
            "prompt": synth::prompt(),
        });
        std::fs::write(path, event.to_string()).expect("write the event file");
    }
}
