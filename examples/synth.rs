//! Writes a synthetic glossary of N terms into a store folder and builds its index, exactly as
//! `tinylingo record` would leave them. Used by `benches/hook.sh` and `benches/record.sh`.
//!
//! Usage: synth <terms> <store-folder> [--realistic] [--event FILE]
//!        synth --new-entries N
//! With `--realistic`, explanations are shaped like real ones (about 60 CJK characters and a
//! path; some 22 MB of glossary.json at 100k terms) instead of 25–75 characters.
//! With `--event`, also writes a Claude Code `UserPromptSubmit` event for the benchmark prompt.
//! `--new-entries N` prints N entries to record into a realistic glossary, one a line: the
//! term, a tab, the explanation (`benches/record.sh`).

#[path = "../benches/support/synth.rs"]
mod synth;

use tinylingo::store::{Glossary, Settings, Store};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let (Some("--new-entries"), Some(n)) =
        (args.get(1).map(String::as_str), args.get(2).and_then(|n| n.parse().ok()))
    {
        for (term, explanation) in synth::realistic_new_entries(n) {
            println!("{term}\t{explanation}");
        }
        return;
    }
    let (Some(n), Some(dir)) = (args.get(1).and_then(|n| n.parse::<usize>().ok()), args.get(2))
    else {
        eprintln!("usage: synth <terms> <store-folder> [--realistic] [--event FILE]");
        eprintln!("       synth --new-entries N");
        std::process::exit(2);
    };
    let rest = &args[3..];
    let realistic = rest.iter().any(|a| a == "--realistic");
    let event = rest.iter().position(|a| a == "--event").and_then(|i| rest.get(i + 1));
    let store = Store::at(dir);
    let entries = if realistic { synth::realistic_glossary(n) } else { synth::glossary(n) };
    let glossary: Glossary = entries.into_iter().collect();
    let _lock = store.lock().expect("lock the store");
    glossary.save(&store).expect("write glossary.json");
    tinylingo::index::rebuild(&store, &glossary, &Settings::default()).expect("build the index");
    if let Some(path) = event {
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
